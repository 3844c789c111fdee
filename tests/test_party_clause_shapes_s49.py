"""Party clause and title shapes read from the misses of real contract openings (issue 9, stop 49:
half A of the new sets realAF-realAI, ordinary EDGAR contracts of CUAD's families that no CUAD
contract was found to share; half B stays unread). Names are invented and texts rewritten from
the shapes. Each test but the guards fails on the code before its rule.
"""

from __future__ import annotations

from ingest.agreements import find_title
from ingest.annotate import annotate_document
from ingest.normalize import normalise_jurisdiction
from tests.helpers import bound_party_names


def _party_aliases(text: str) -> dict[str, set[str]]:
    annotations = annotate_document(text, [(0, len(text))], doc_id="doc", revision="rev")
    agreement = next(s for s in annotations.subjects if s.type == "agreement")
    return {
        s.name: set(s.aliases)
        for s in annotations.subjects
        if any(b.relation == "party_to" and b.object_id == agreement.subject_id for b in s.bindings)
    }


def test_a_row_labelled_by_the_partys_own_first_word_names_that_party() -> None:
    # Before, the label "Kestrel" was bound as a party of its own.
    text = (
        "                          SALES CONTRACT\n                        DATED MARCH 1, 1997\n\n"
        "     1.    PARTIES.\n\n"
        "Kestrel:   KESTREL POLYMER COMPANY, for itself and as agent for KESTREL OIL\n"
        "           COMPANY (\"Seller\"), P. O. Box 100, Houston, TX 77001.\n\n"
        "Buyer:     QUILLMED, INC., 500 Fifth Avenue, New York, NY 10110\n\n"
        "     2.    PRODUCT.\n"
    )
    aliases = _party_aliases(text)
    assert set(aliases) == {"KESTREL POLYMER COMPANY", "QUILLMED, INC."}
    assert "Kestrel" in aliases["KESTREL POLYMER COMPANY"]


def test_guard_a_label_that_is_no_first_word_of_its_row_names_no_party_by_itself() -> None:
    # "Notices:" over a company's name is a section label, not that company's short name.
    text = (
        "SALES CONTRACT\n\nThis Contract is made between Kestrel Polymer Company (\"Seller\") and "
        "Quillmed, Inc. (\"Buyer\").\n\n"
        "Notices:   HARBOR FREIGHT LINES COMPANY, 12 Dock Road, Houston, TX 77001\n"
    )
    assert bound_party_names(text) == {"Kestrel Polymer Company", "Quillmed, Inc."}


def test_one_company_written_with_and_without_a_space_is_one_party() -> None:
    # Before, the heading's "LARK HAVEN, INC." and the preamble's "LarkHaven, Inc." were two parties.
    text = (
        "Exhibit 10.2\n                               LARK HAVEN, INC.\n\n"
        "                            PARTNER-BRANDED AGREEMENT\n\n"
        "This Agreement, dated March 5, 2001, is made and entered into by and between LarkHaven, Inc. "
        "(\"LarkHaven\"), a Delaware corporation, and QUILLTV, INC. (\"Partner\").\n\nRECITALS\n"
    )
    aliases = _party_aliases(text)
    assert set(aliases) == {"LARK HAVEN, INC.", "QUILLTV, INC."}
    # The later spelling and its term stay the kept party's names, so a question in either finds it.
    assert {"LarkHaven, Inc.", "LarkHaven"} <= aliases["LARK HAVEN, INC."]


def test_guard_two_companies_whose_names_differ_by_more_than_spacing_stay_two() -> None:
    text = (
        "SUPPLY AGREEMENT\n\nThis Agreement is made between Lark Haven, Inc. (\"Buyer\") and Lark Havens, "
        "Inc. (\"Seller\").\n\nRECITALS\n"
    )
    assert bound_party_names(text) == {"Lark Haven, Inc.", "Lark Havens, Inc."}


def test_an_assignment_headed_without_an_agreement_word_is_titled_and_its_parties_read() -> None:
    # Before, "ASSIGNMENT" titled nothing, so no agreement and no party was recorded.
    text = (
        "ASSIGNMENT\nTHIS AGREEMENT effective as of the 29th day of June, 2007.\nAMONG:\n"
        "NORTHGLEN TECHNOLOGIES LTD.,\na company incorporated\nunder the laws of British Columbia\n"
        "(the \u201cAssignor\u201d)\nAND:\nPELHAM GROUP, INC., a company\nincorporated under the laws of\nNevada\n"
        "(the \u201cAssignee\u201d)\nAND:\nJOHN E. PELHAM, of 302 Alberni Street, Vancouver\n(\u201cPelham\u201d)\n"
        "WHEREAS:\nA. The Assignor owns the Technology;\n"
    )
    title = find_title(text)
    assert title is not None and (title.text, title.start, title.end) == ("ASSIGNMENT", 0, 10)
    assert bound_party_names(text) == {"NORTHGLEN TECHNOLOGIES LTD.", "PELHAM GROUP, INC.", "JOHN E. PELHAM"}


def test_guard_an_assignment_heading_after_the_preamble_is_a_section() -> None:
    text = (
        "LICENSE AGREEMENT\n\nThis License Agreement is made between Quill Corp. (\"Licensor\") and Roe LLC "
        "(\"Licensee\").\n\nASSIGNMENT\n\nNeither party may assign this Agreement.\n"
    )
    title = find_title(text)
    assert title is not None and title.text == "LICENSE AGREEMENT"


def test_the_system_an_institution_is_a_component_of_is_no_party() -> None:
    # Before, "The University of Westland System" was bound and the institution itself was not.
    text = (
        "SPONSORED LABORATORY STUDY AGREEMENT THIS Agreement is made this 1st day of May, 1999, between "
        "The University of Westland Cancer Center, 1515 Holly Boulevard, Houston, Texas 77030 "
        "(\"Institution\"), a component of The University of Westland System (\"System\"), and Quill "
        "Twelve, Inc., 33 Adelaide Street, Toronto (\"Sponsor\"), to conduct a laboratory study. "
        "Institution and Sponsor agree as follows: 1. PROTOCOL\n"
    )
    assert bound_party_names(text) == {"The University of Westland Cancer Center", "Quill Twelve, Inc."}


def test_a_name_its_trademark_sign_follows_is_a_brand() -> None:
    # Before, "LARKSTATION" on the licence's cover was bound as a party.
    text = (
        "Exhibit 99.1\n\n                   KESTREL ENTERTAINMENT AMERICA INC.,\n\n"
        "                                       AND\n\n                                   QUILL GAMES INC,\n\n"
        "                        LARKSTATION(R) PORTABLE (\"LSP\")\n\n"
        "                        LSP LICENSED PUBLISHER AGREEMENT\n\n"
    )
    assert bound_party_names(text) == {"KESTREL ENTERTAINMENT AMERICA INC.", "QUILL GAMES INC"}


def test_a_run_in_bare_agreement_heading_before_the_preambles_verb_titles_the_contract() -> None:
    # Before, "AGREEMENT Made and signed ..." titled nothing and no party was bound.
    text = (
        "EXHIBIT 10.10 AGREEMENT Made and signed on the 17th day of October 1991 in Ramat Gan between:- "
        "The University of Kestrel (hereinafter to be called: \"the University\") ON THE ONE PART and "
        "between:- Quill Aircraft Industry Ltd. a company registered in Israel (hereinafter to be called: "
        "\"QAI\") ON THE SECOND PART Whereas The University has declared that it owns the system.\n"
    )
    title = find_title(text)
    assert title is not None and (title.text, title.start, title.end) == ("AGREEMENT", 14, 23)
    assert bound_party_names(text) == {"The University of Kestrel", "Quill Aircraft Industry Ltd."}


def test_guard_an_agreement_word_in_prose_before_made_is_no_heading() -> None:
    text = (
        "EXHIBIT 10.10 Reference is made to the LICENSE AGREEMENT made by Quill Corp. This letter "
        "sets out our terms.\n"
    )
    title = find_title(text)
    assert title is None or title.text != "AGREEMENT"


def test_a_company_alone_in_parentheses_after_a_partys_name_is_no_party() -> None:
    # Before, the bracketed "Larch Group, Inc." was bound beside the party it follows.
    text = (
        "SOFTWARE LICENSE AGREEMENT The following document constitutes a Purchase Agreement between: "
        "KESTREL V, INC., a corporation of the State of Washington, hereinafter referred to as Seller, and "
        "IS 22, Inc. (Larch Group, Inc.), a corporation organized under the State of GEORGIA, hereinafter "
        "referred to as BUYER. 1. BASIS OF AGREEMENT\n"
    )
    assert bound_party_names(text) == {"KESTREL V, INC.", "IS 22, Inc."}


def test_a_description_naming_a_jurisdiction_is_no_party() -> None:
    # Before, Barbados was no known jurisdiction, so "(a Barbados Corporation)" was bound.
    assert normalise_jurisdiction("Barbados") == "barbados"
    assert normalise_jurisdiction("Province of Nova Scotia") == "nova scotia"
    text = (
        "EXCLUSIVE MARKETING AGREEMENT\n(hereinafter called the \"Agreement\")\nbetween\nQUILLMED INC.\n"
        "(an Ontario Corporation)\n(hereinafter called \"Grantor\")\nand\nLARKMED INC.\n"
        "(a Barbados Corporation)\n(hereinafter called \"Grantee\")\nDATED THIS 4TH DAY OF JULY, 1996\n"
        "Whereas, the Grantor has acquired certain rights;\n"
    )
    assert bound_party_names(text) == {"QUILLMED INC.", "LARKMED INC."}


# Second batch: half A of realAJ-realAM.


def test_a_cover_name_over_the_table_of_contents_ends_before_it() -> None:
    # Before, "... COAL COMPANY TABLE OF CONTENTS ARTICLES" was bound.
    text = (
        "EX-10.8 19 ex10_8.txt FUEL SUPPLY AGREEMENT Exhibit 10.8 CONFIDENTIAL TREATMENT REQUESTED CONFIDENTIAL "
        "PORTIONS OF THIS DOCUMENT HAVE BEEN REDACTED AND HAVE BEEN SEPARATELY FILED WITH THE COMMISSION. FUEL "
        "SUPPLY AGREEMENT #141944 BETWEEN NORTH HARBOR PUBLIC SERVICE AUTHORITY AND KESTREL RIVER COAL COMPANY\n"
        "TABLE OF CONTENTS ARTICLES AND SECTIONS HEADINGS ARTICLE 1 DEFINITIONS AND TERM Section 1.1 Definitions\n"
    )
    assert bound_party_names(text) == {"NORTH HARBOR PUBLIC SERVICE AUTHORITY", "KESTREL RIVER COAL COMPANY"}


def test_a_head_word_and_its_full_stop_close_a_listed_name_before_the_lists_and() -> None:
    # Before, "KESTREL RIVER COAL COMPANY. AND KESTREL RIVER COAL SALES. INC." was one party.
    text = (
        "AGREEMENT FOR PURCHASE AND SALE OF COAL AMONG HARBOR POWER COMPANY, KESTREL RIVER COAL COMPANY. "
        "AND KESTREL RIVER COAL SALES. INC. TABLE OF CONTENTS Page Section 1: Definitions....4\n"
    )
    assert bound_party_names(text) == {
        "HARBOR POWER COMPANY", "KESTREL RIVER COAL COMPANY", "KESTREL RIVER COAL SALES. INC.",
    }


def test_a_recital_on_who_were_parties_to_the_replaced_agreement_defines_no_party() -> None:
    # Before, the recital's "SLOAN PHARMA SARL" was bound as a third party.
    text = (
        "AMENDED AND RESTATED SUPPLY AGREEMENT\n\nTHIS AGREEMENT, DATED 15 JANUARY 2016, IS BY AND BETWEEN:\n\n"
        "1. KESTREL PHARMACEUTICALS LIMITED whose registered office is at Park View House, Newbury "
        "(\u201cKPL\u201d), and\n\n2. QUILL MEDS, LLC, a Delaware limited liability company (\u201cQM\u201d),\n\n"
        "each a \u201cParty\u201d and together the \u201cParties.\u201d\n\nRECITALS\n\n"
        "(A)LARCH PHARMA SARL, a Luxembourg company and subsidiary of QM (\u201cLARCH\u201d), and KPL were "
        "parties to the Supply Agreement dated 22 January 2015 (the \u201cOriginal Agreement\u201d);\n"
    )
    assert bound_party_names(text) == {"KESTREL PHARMACEUTICALS LIMITED", "QUILL MEDS, LLC"}


def test_participating_parties_heads_the_party_list() -> None:
    # Before, no party was bound: only "Parties" opened a list under a heading.
    text = (
        "Exhibit 10.3\nMemorandum of Understanding\nThis Memorandum of Understanding was signed by both "
        "parties on December 6, 2017\nParticipating Parties\nTianjin Kestrel Biotechnology Co., Limited\n"
        "Quill Research Institute\nWhereas,\n1. Tianjin Kestrel Biotechnology Co., Limited (\u201cKestrel\u201d) "
        "is a biotechnology enterprise.\n"
    )
    assert "Tianjin Kestrel Biotechnology Co., Limited" in bound_party_names(text)


def test_a_contract_between_line_over_a_cover_list_titles_it_and_an_and_line_splits_names() -> None:
    # Before, the title was the generic "Agreement" and the cover's office and the company below
    # the "AND" line were read as one party.
    text = (
        "EXHIBIT 10.26\n\n\n                                CONTRACT BETWEEN\n"
        "                   THE OFFICE OF HARBOR POLICY AND PLANNING,\n"
        "              THE OFFICE OF THE CHILDREN'S HEALTH INSURANCE PROGRAM\n                                       AND\n"
        "                    KESTREL CARE CORPORATION INDIANA, INC\n\n"
        "         This Contract is made and entered into by and between the State of\nIndiana (hereinafter "
        "\"State\" or \"State of Indiana\"), through the Office of\nHarbor Policy and Planning and the Office of "
        "Children's Health Insurance\nProgram (hereinafter \"the Offices\"), of the Indiana Family and Social "
        "Services\nAdministration, 402 West Washington Street, W382, Indianapolis, Indiana, and\nKestrel Care "
        "Corporation Indiana, Inc., doing business as Managed Health\nServices, 1099 North Meridian, Suite 400, "
        "Indianapolis, Indiana 46204,\n(hereinafter \"Contractor\").\n\n"
        "         WHEREAS, the State desires to contract for services;\n"
    )
    title = find_title(text)
    assert title is not None and (title.text, title.start, title.end) == ("CONTRACT", 48, 56)
    assert bound_party_names(text) == {"State of Indiana", "Kestrel Care Corporation Indiana, Inc."}


def test_an_amendments_operative_section_defines_no_party() -> None:
    # Before, the amended section's "Technology to Larch Pharmaceuticals, Inc." and "Aronex" were bound.
    text = (
        "AMENDMENT TO THE LICENSE AGREEMENT BETWEEN THE UNIVERSITY OF KESTREL RESEARCH CORPORATION AND QGENE "
        "THERAPEUTICS, INC. To All Those Concerned: This is an Amendment to the License Agreement between The "
        "University Of Kestrel Research Corporation and QGene Therapeutics, Inc. having an effective date of "
        "October 12, 1995 (the \"Agreement\"). UKRC and QGENE agree to amend the Agreement as stated below. "
        "Section 2.7 is hereby amended to recite: 2.7 It is acknowledged that UKRC licensed certain Technology "
        "to Larch Pharmaceuticals, Inc. (\"Larch\") through an agreement; and that Larch changed its name to "
        "Birch Pharmaceuticals, Inc. (\"Birch\").\n"
    )
    assert bound_party_names(text) == {"THE UNIVERSITY OF KESTREL RESEARCH CORPORATION", "QGene Therapeutics, Inc."}


def test_a_recitals_subject_list_runs_past_a_legal_forms_abbreviation_to_its_verb() -> None:
    # Before, "Co." ended the recital's clause, so "Star Harbor Ltd." was bound as a party.
    text = (
        "TRADEMARK LICENSE AGREEMENT\nThis TRADEMARK LICENSE AGREEMENT (this \u201cAgreement\u201d) is entered into "
        "as of August 15, 2006 by and between Lone Kestrel Steel Company, L.P. (\u201cLone Kestrel\u201d) and "
        "Hengyang Quill Steel Tube Co., Ltd (\u201cQuill\u201d).\nWHEREAS,\n1. Star Harbor Ltd. (\u201cStar "
        "Harbor\u201d, an Affiliate of Lone Kestrel), Quill, Hunan Quill Tube & Wire Joint Stock Co. Ltd. "
        "(\u201cQuill TW\u201d) entered into a Capital Contribution Agreement;\n"
    )
    assert bound_party_names(text) == {"Lone Kestrel Steel Company, L.P.", "Hengyang Quill Steel Tube Co., Ltd"}


def test_a_letterheads_contact_lines_take_no_place_among_the_heading_lines() -> None:
    # Before, the letterhead's lines pushed "CONTRACT" out of the heading lines: no title, no party.
    text = (
        "<PAGE>\n\n                                              Exhibit 10.13\n\n"
        "5201 NORTH HARBOR STREET                                 PHONE: 701-772-7667\n"
        "GRAND KESTREL, ND 58203                                  FAX: 701-775-0158\n\n"
        "[Q & Q CONTRACTING, INC. LOGO]\n\nrailroad construction, design, & repair\n\n"
        "                                    CONTRACT\n\n"
        "     THIS AGREEMENT, Made this 7th day of November, 2005, by and between Q & Q\nContracting, Inc., a "
        "North Dakota corporation, hereinafter called \"Contractor\",\nand Larch Trail Energy, LLC., hereinafter "
        "called the \"Owner\". WITNESSETH, that the\nContractor and the Owner agree as follows:\n"
    )
    title = find_title(text)
    assert title is not None and title.text == "CONTRACT"
    assert bound_party_names(text) == {"Q & Q Contracting, Inc.", "Larch Trail Energy, LLC."}


def test_an_agreement_on_its_subject_heading_titles_a_party_label_contract() -> None:
    # Before, the heading titled nothing (no party was read) and "Institute for ..." named no
    # organisation by its head noun.
    text = (
        "Exhibit 10.6\nAgreement on Technology Development (Cooperation)\nParty A: Kestrel Motors Inc.\n"
        "Address: 3600 Harbor court, Oakton, VA 22124, Tel: (703) 407-9802\n"
        "Party B: Institute for Mechanical Engineering Problems\nAddress: 2 Pozarsky str., Kharkiv, 61046, Ukraine\n"
        "Whereas: Party A is a Company focusing on development.\n"
    )
    title = find_title(text)
    assert title is not None and (title.text, title.start, title.end) == (
        "Agreement on Technology Development (Cooperation)", 13, 62,
    )
    assert bound_party_names(text) == {"Kestrel Motors Inc.", "Institute for Mechanical Engineering Problems"}


def test_guard_a_section_heading_agreement_of_after_the_preamble_titles_nothing() -> None:
    text = (
        "This Supply Agreement is made between Quill Corp. (\"Buyer\") and Roe LLC (\"Seller\").\n\n"
        "Agreement of Sale\n\n1. Sale.\n"
    )
    title = find_title(text)
    assert title is None or title.text != "Agreement of Sale"


def test_an_amendment_heading_between_two_legends_without_blank_lines_titles_the_amendment() -> None:
    # Before, the next legend's sentence swallowed the heading lines, so the amendment was titled
    # by its parent's name, "Supply Agreement".
    legend = (
        "Portions of this Exhibit have been redacted pursuant to a request for confidential treatment under "
        "Rule 24b-2 of the General Rules and Regulations under the Securities Exchange Act of 1934.\n"
    )
    text = (
        "EXHIBIT 10.1\n" + legend + "FIRST AMENDMENT\nto the Supply Agreement of March 3, 2006\nbetween\n"
        "Kestrel Diagnostics GmbH\nSandhofer Strasse 115\n68305 Mannheim\nGermany\n(\u201cKDG\u201d)\nand\n"
        "Quill Technologies Corporation\n1319 Marquette Drive\nRomeoville, IL 60446\nUSA\n(\u201cSupplier\u201d)\n"
        + legend + "WHEREAS,\n"
    )
    title = find_title(text)
    assert title is not None and (title.text, title.start) == ("FIRST AMENDMENT to the Supply Agreement", text.index("FIRST"))
    assert bound_party_names(text) == {"Kestrel Diagnostics GmbH", "Quill Technologies Corporation"}


def test_guard_a_legend_opened_by_a_prose_line_above_stays_one_legend() -> None:
    text = (
        "The\nconfidential portions of this exhibit have been omitted and filed separately.\n"
        "SUPPLY AGREEMENT\nThis Supply Agreement is made between Quill Corp. (\"Buyer\") and Roe LLC (\"Seller\").\n"
    )
    title = find_title(text)
    assert title is not None and title.text == "SUPPLY AGREEMENT"


# Third batch: half A of realAN-realAP.


def test_a_half_of_a_name_split_at_its_own_and_is_no_party_when_the_whole_is_one() -> None:
    # Before, "Gas Inc." (the name's half after its "and") was bound beside the whole name.
    text = (
        "Exhibit 10.16\n\nAmended and Restated\nAgreement\nfor\nExploration, Production and Strategic Services\n"
        "between\nKestrel Oil and Gas Inc.\nand\nQuill Consulting Inc.\n\n\n"
        "This Amended and Restated Agreement for Exploration, Production and Strategic Services between Kestrel "
        "Oil and Gas Inc. and Quill Consulting Inc. (the Agreement) is effective as of October 1, 2008 by and "
        "between Kestrel Oil and Gas Inc., a Nevada corporation (the Company), and Quill Consulting Inc., a Texas "
        "corporation (the Contractor).\n \nRECITALS\n"
    )
    assert bound_party_names(text) == {"Kestrel Oil and Gas Inc.", "Quill Consulting Inc."}
    # The heading's subject is the title's, as the preamble repeats it whole.
    title = find_title(text)
    assert title is not None and title.text == "Amended and Restated Agreement for Exploration, Production and Strategic Services"


def test_guard_a_subject_the_preamble_does_not_repeat_stays_out_of_the_title() -> None:
    text = (
        "LICENSE AGREEMENT\nfor\nKestrel Software\n\nThis License Agreement is made between Quill Corp. "
        "(\"Licensor\") and Roe LLC (\"Licensee\").\n"
    )
    title = find_title(text)
    assert title is not None and title.text == "LICENSE AGREEMENT"


def test_an_adjective_opening_a_name_over_and_is_no_persons_name() -> None:
    # Before, "International Spirits" was read as a person and "Beverage Group, Inc." as a company.
    text = (
        "Exhibit 10.1\n\nSOFTWARE DEVELOPMENT AGREEMENT\n\nThis Software Development Agreement (\u201cAgreement\u201d) "
        "is made effective on the 6th day of June of 2018 by and between Kestrel Technologies, LLC. a Company "
        "(hereinafter referred to as \u201cCompany\u201d) having its registered office at 3030 N. Rocky Point Dr., "
        "Tampa, FL 33607,\n\nAND\n\nNational Spirits and Beverage Group, Inc., a Company (hereinafter referred "
        "to as \u201cClient\u201d) having its registered office at 8300 FM 1960 West, Houston, TX 77070\n\nWHEREAS,\n"
    )
    assert bound_party_names(text) == {"Kestrel Technologies, LLC.", "National Spirits and Beverage Group, Inc."}


def test_an_indonesian_form_written_before_the_name_keeps_its_full_stop() -> None:
    # Before, the name ended at "PT." and "PT" was bound.
    text = (
        "Exhibit 99.1\nTHIS SUPPLEMENTARY AGREEMENT is made and entered into on this 1 day of March, 2019\n"
        "BETWEEN :-\n|(1)\n|PT. Kestrel Makmur Sejahtera, a limited liability company duly organized under the "
        "laws of the Republic of Indonesia (\"PTKMS\") of the first part;\nAND\n|(2)\n|Quill International, Inc. "
        "a company organized under the laws of Nevada (\"Quill\") of the second part;\n"
    )
    assert bound_party_names(text) == {"PT. Kestrel Makmur Sejahtera", "Quill International, Inc."}


def test_a_term_the_prose_defines_for_an_earlier_agreement_is_no_heading() -> None:
    # Before, the title was "Prior Agreement", the name the prose gives the earlier contract.
    text = (
        "EX-10.37 14 ex10-37.txt AGREEMENT BETWEEN QUILLBRIX AND KESTREL.COM 1 EXHIBIT 10.37 AGREEMENT This "
        "agreement (the \"Agreement\") is by and between Kestrel.com, a division of Kestrel News Network LP "
        "(\"Kestrel.com\") and QuillBrix, Inc, a Delaware corporation (\"QuillBrix\"). Each of Kestrel.com and "
        "QuillBrix was a party to an earlier agreement dated as of April 1, 1998, by and between Kestrel.com and "
        "QuillBrix, with a term ending as of March 31, 2000 (the \"Prior Agreement\"). This Agreement supercedes "
        "all previous agreements.\n"
    )
    title = find_title(text)
    assert title is None or title.text != "Prior Agreement"


def test_a_function_word_in_capitals_opening_a_mixed_case_name_is_its_acronym() -> None:
    # Before, "ON ..." and "AT ..." opened no name ("on" and "at" are prose words), so the party
    # was lost or read without its first word ("14, Inc.").
    text = (
        "SUPPLY AGREEMENT\n\nThis Supply Agreement is made by and between ON Kestrel Corporation, a Delaware "
        "corporation (\"ONK\"), and AT 14, Inc., a Georgia corporation (\"Buyer\").\n\nRECITALS\n"
    )
    assert bound_party_names(text) == {"ON Kestrel Corporation", "AT 14, Inc."}


def test_guard_a_shouted_phrase_or_a_capitalised_preposition_opens_no_name() -> None:
    from ingest.names import name_at

    for phrase in ("and ON BEHALF OF KESTREL INC.", "and BY KESTREL Inc."):
        assert name_at(phrase, 4, len(phrase)) is None
