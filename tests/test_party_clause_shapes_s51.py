"""Party clause and title shapes read from the misses of real contract openings (issue 9, stop 51:
half A of the new sets realAY-realBF, EDGAR contracts of CUAD's families that no CUAD contract was
found to share; half B stays unread). Names are invented and texts rewritten from the shapes. Each
test but the guards fails on the code before its rule.
"""

from __future__ import annotations

from ingest.agreements import find_title
from ingest.names import name_at, party_name_problem
from tests.helpers import annotated_agreement, bound_party_aliases, bound_party_names


def test_an_institution_before_a_bare_and_is_a_party_of_its_own() -> None:
    # Before, "Larkspur Medical Foundation and Kestrel Labs, Inc." was bound as one name, the
    # definition's antecedent read over the institution's "and".
    text = (
        "LICENSE AGREEMENT\n\nThis License Agreement (the \"Agreement\") is made as of May 1, 2010 between "
        "Larkspur Medical Foundation and Kestrel Labs, Inc. (\"Kestrel\").\n"
    )
    aliases = bound_party_aliases(text)
    assert aliases == {"Larkspur Medical Foundation": [], "Kestrel Labs, Inc.": ["Kestrel"]}


def test_a_university_named_by_its_regents_before_a_bare_and_is_a_party_of_its_own() -> None:
    text = (
        "LICENSE AGREEMENT\n\nThis License Agreement is made as of May 1, 2010 between The Regents of the "
        "University of Westland and Kestrel Labs, Inc. (\"Kestrel\").\n"
    )
    assert bound_party_names(text) == {"The Regents of the University of Westland", "Kestrel Labs, Inc."}


def test_guard_a_term_made_from_the_words_before_the_and_keeps_the_name_whole() -> None:
    # "State Street Bank and Trust Company ("State Street")": the term is the whole name's.
    text = (
        "CUSTODY AGREEMENT\n\nThis Custody Agreement is made as of May 1, 2010 between Kestrel Fund, Inc. "
        "(the \"Fund\") and Harbour Street Bank and Trust Company (\"Harbour Street\").\n"
    )
    assert bound_party_names(text) == {"Kestrel Fund, Inc.", "Harbour Street Bank and Trust Company"}


def test_a_legend_above_agreement_between_leaves_the_cover_its_title_and_parties() -> None:
    # Before, no title was found (the legend's first line stopped the search), so no party either.
    text = (
        "CERTAIN MATERIALS HAVE BEEN OMITTED AND\nCONFIDENTIAL TREATMENT HAS BEEN REQUESTED THEREFOR\n"
        "Exhibit 10.13\nAGREEMENT BETWEEN\nLARKSPUR PASTA COMPANY\nAND\nKESTREL FOODSERVICE, INC.\n"
        "The following outlines the terms and conditions of this agreement:\nA. PRODUCTS\n"
    )
    title = find_title(text)
    assert title is not None and (title.text, title.start) == ("AGREEMENT", text.index("AGREEMENT BETWEEN"))
    assert bound_party_names(text) == {"LARKSPUR PASTA COMPANY", "KESTREL FOODSERVICE, INC."}


def test_a_date_line_below_a_name_is_no_part_of_it() -> None:
    # Before, "KESTREL DATED AS OF OCTOBER 14" was bound.
    text = (
        "          TOY LICENSE AGREEMENT BETWEEN LARKSPUR LICENSING LTD. AND KESTREL\n"
        "                          DATED AS OF OCTOBER 14, 1997\n\n\n"
        "                              TOY LICENSE AGREEMENT\n\n                                TABLE OF CONTENTS\n"
    )
    assert bound_party_names(text) == {"LARKSPUR LICENSING LTD.", "KESTREL"}


def test_a_letter_date_line_above_a_name_is_no_part_of_it() -> None:
    text = "JUNE 22, 1999\nKESTREL WEB INC.\n"
    assert name_at(text, 0, len(text)) == name_at(text, text.index("KESTREL"), len(text))
    found = name_at(text, 0, len(text))
    assert found is not None and (found.text, found.start) == ("KESTREL WEB INC.", 14)


def test_a_city_with_its_state_and_postal_code_is_no_antecedent() -> None:
    # Before, "Miami" was bound as a party with the term "Company".
    text = (
        "CONSULTING AGREEMENT\n\nThis Consulting Agreement is entered into by and between Quill Charging "
        "Group, Inc., a Nevada corporation having its principal business offices at 1691 Harbour Avenue. "
        "Suite 601. Miami, Fl. 33139 (herein referred to as the \"Company\") and Kestrel Asset Advisors, "
        "Inc., a Nevada corporation (herein referred to as \"KAA\").\n"
    )
    aliases = bound_party_aliases(text)
    assert set(aliases) == {"Quill Charging Group, Inc.", "Kestrel Asset Advisors, Inc."}
    assert "Company" in aliases["Quill Charging Group, Inc."]


def test_a_chinese_province_or_district_is_a_place() -> None:
    assert party_name_problem("Zhejiang Province") == "place"
    assert party_name_problem("Liandu District") == "place"
    # (A longer name with such a word is an organisation's: a school district may sign.)
    assert party_name_problem("Harbour Unified School District") is None


def test_the_company_a_contract_is_of_is_no_party() -> None:
    # Before, the joint venture company under "JOINT VENTURE CONTRACT / OF" was bound as a party.
    text = (
        "JOINT VENTURE CONTRACT\n \nOF\n \nLIANHE TIANYUAN BIOTECH CO., LTD.\n \n\n"
        "This contract has executed by the following parties on April 4, 2006 at Hangzhou City, China:\n\n"
        "Party A: KESTREL BIOPHARMA LIMITED (hereafter as \"KBL\")\nAddress: Scotia Centre, George Town\n\n"
        "Party B: LIANHE TIANYUAN BIOPHARMACEUTICAL CO., LTD. (hereafter as \"Tianyuan\")\n"
        "Address: 56 Tianhe Lu, Hangzhou\n"
    )
    assert bound_party_names(text) == {"KESTREL BIOPHARMA LIMITED", "LIANHE TIANYUAN BIOPHARMACEUTICAL CO., LTD."}


def test_contact_rows_under_a_party_name_row_are_no_parties() -> None:
    # Before, "Hanover St." (of "Address: 3000 Hanover St.") and the contact person were bound.
    text = (
        "                          CORPORATE PURCHASE AGREEMENT\n\nBETWEEN:\n     BUYER:\n"
        "          Name:          KESTREL PACKARD CORPORATION\n"
        "          Address:       3000 Hanover St., Palo Alto, California  94304\n"
        "          Contact Name:  Richard Gentwood   Telephone Number: [...* * *...]\n"
        "AND:\n     SELLER:\n          Name:          Quillon Corporation\n"
        "          Address:       11911 North Creek Parkway South, Bothell WA 98011\n"
        "          Contact Name:  Kurt Adamson        Telephone Number: [...* * *...]\n\n"
        "FOR GOOD AND VALUABLE CONSIDERATION, BUYER AND SELLER HEREBY AGREE AS FOLLOWS:\n"
    )
    assert bound_party_names(text) == {"KESTREL PACKARD CORPORATION", "Quillon Corporation"}


def test_a_state_and_postal_code_written_together_is_an_address() -> None:
    assert party_name_problem("CA91788") == "address"


def test_a_spanish_name_keeps_its_lower_case_en_before_its_legal_form() -> None:
    text = "Servicios en Tecnologia Medica Especializada, S.A. de C.V. based in Tabasco"
    found = name_at(text, 0, len(text))
    assert found is not None and found.text == "Servicios en Tecnologia Medica Especializada, S.A. de C.V."


def test_a_trade_name_read_alone_before_a_definition_takes_its_legal_name() -> None:
    # Before, the trade name "Clear Harbour Solutions" was bound as the party.
    text = (
        "CONSULTING AGREEMENT\n\nIt is our understanding that Quill Technologies, Inc. (the \"Client\") "
        "would like Kestrel Consulting, LLC dba Clear Harbour Solutions (the \"Firm\") to provide the "
        "additional service.\n"
    )
    aliases = bound_party_aliases(text)
    assert set(aliases) == {"Kestrel Consulting, LLC", "Quill Technologies, Inc."}
    assert {"Firm", "Clear Harbour Solutions"} <= set(aliases["Kestrel Consulting, LLC"])


def test_guard_a_trade_name_after_a_name_without_legal_form_keeps_the_whole() -> None:
    # "Molecular Kestrel, dba Quill Labs, Inc. (the "LICENSEE")": the legal form is the trade name's.
    text = (
        "EXCLUSIVE LICENSE AGREEMENT\n\nThis Exclusive License Agreement is made as of January 27, 2006 by "
        "and between Harbour Hospitals of Westland (\"LICENSOR\"), an Ohio not-for-profit corporation, and "
        "Molecular Kestrel, dba Quill Labs, Inc. (the \"LICENSEE\") a Delaware corporation.\n"
    )
    aliases = bound_party_aliases(text)
    assert set(aliases) == {"Harbour Hospitals of Westland", "Molecular Kestrel, dba Quill Labs, Inc."}
    assert "LICENSEE" in aliases["Molecular Kestrel, dba Quill Labs, Inc."]


def test_a_third_listed_person_with_an_unquoted_role_is_a_party() -> None:
    # Before, "(Designer)" defined no term, and the third person was never read.
    text = (
        "License Agreement\n\nI. INTRODUCTION This is a licensing agreement between Harbour Reality "
        "Laboratories, Inc., (Publisher) 2341 Ganador Court, San Luis Obispo, CA 93401, and Jean Amesbury, "
        "(Developer), and Lance Woeltman (Designer). Hereinafter, the Designer and Developer shall be "
        "jointly referred to as \"Developer.\"\n"
    )
    aliases = bound_party_aliases(text)
    assert set(aliases) == {"Harbour Reality Laboratories, Inc.", "Jean Amesbury", "Lance Woeltman"}
    assert aliases["Lance Woeltman"] == ["Designer"]


def test_a_heading_line_whose_first_word_ends_in_a_comma_is_the_title() -> None:
    # Before, the title was read as "LICENSE AGREEMENT" from the run after the lower-case "and".
    text = (
        "Exhibit 10.1\nMARKETING, DISTRIBUTION and LICENSE AGREEMENT\nThis AGREEMENT, effective September "
        "3rd, 2007, is entered into by\nKestrel GmbH, a German corporation (herein called\nGRANTOR) and "
        "Quill, Inc., a Nevada corporation (herein called\nGRANTEE).\n"
    )
    title = find_title(text)
    assert title is not None and (title.text, title.start) == ("MARKETING, DISTRIBUTION and LICENSE AGREEMENT", 13)


def test_side_by_side_signature_heads_over_a_bare_by_each_name_a_party() -> None:
    # Before, only the left column's company was read: "By /s/" (no colon) hid the right one.
    text = (
        "EXHIBIT 10.12\nKestrel Customer Agreement\n"
        "This Kestrel Customer Agreement (called the \"Agreement\") covers business transactions you may do "
        "with us to purchase Machines.\nBy signing below for our respective Enterprises, both of us agree to "
        "the terms of this Agreement.\n\n"
        "Agreed to:                                                  Agreed to:\n"
        "QUILLCOM TECHNOLOGIES INC                                   Kestrel Business Machines Corporation\n"
        "By /s/ Jane Roe                                             By /s/ John Doe\n"
        "   ---------------------------------------                     ----------------------------------\n"
        "      Authorized Signature                                        Authorized Signature\n"
    )
    assert bound_party_names(text) == {"QUILLCOM TECHNOLOGIES INC", "Kestrel Business Machines Corporation"}


def test_the_drafting_firm_below_a_cover_title_is_no_party() -> None:
    # Before, the law firm named with its address under the title was bound.
    text = (
        "Exhibit 10.1\n\nDated 30 May 2014\nKESTREL MANUFACTURING SERVICES PTE. LTD.\nand\nQUILL CORPORATION\n"
        "CONTRACT MANUFACTURE AGREEMENT\n|\nHARBOUR & GLEDWICK LLP\nONE MARINA BOULEVARD #28-00\nSINGAPORE 018989\n"
    )
    assert bound_party_names(text) == {"KESTREL MANUFACTURING SERVICES PTE. LTD.", "QUILL CORPORATION"}


def test_guard_a_party_below_the_title_with_a_term_stays() -> None:
    text = (
        "SUPPLY AGREEMENT\n\nHARBOUR & GLEDWICK LLP (the \"Supplier\")\n12 Marina Road, Singapore 018989\n\n"
        "and\n\nKESTREL TRADING LIMITED (the \"Buyer\")\n"
    )
    assert bound_party_names(text) == {"HARBOUR & GLEDWICK LLP", "KESTREL TRADING LIMITED"}


def test_an_acronym_with_a_lower_case_first_letter_defines_its_company() -> None:
    # Before, "(eKSYS)" defined nothing and "eKSYS, Inc." was never bound.
    text = (
        "JOINT VENTURE AGREEMENT QUILLSCRIPT PHARMACIES J.V.\nQUILLSCRIPT PHARMACIES J.V.\n"
        "eKSYS, Inc. (eKSYS) and TPK Partners, L.L.C. (TPK) referred to in this Agreement as the \"Joint "
        "Venturers,\" agree as follows:\nPurpose of Joint Venture\n"
    )
    aliases = bound_party_aliases(text)
    assert aliases == {"eKSYS, Inc.": ["eKSYS"], "TPK Partners, L.L.C.": ["TPK"]}


def test_a_translation_note_before_the_heading_is_no_part_of_the_title() -> None:
    # Before, "Translation Master Agreement" and "Summary Translation of Cooperation Agreement".
    above = (
        "Exhibit 10.5\nTranslation\nMaster Agreement\nbetween\nKestrel Computer Technology (Shanghai) Co., "
        "Ltd.\nand\nQuill Information Technology Co., Ltd.\nJanuary 1, 2004\n"
    )
    run_in = "Exhibit 10.55\nSummary Translation of Cooperation Agreement\nParty A: Kestrel Pharmacy Co., Ltd.\n"
    for text, want in ((above, "Master Agreement"), (run_in, "Cooperation Agreement")):
        title = find_title(text)
        assert title is not None and (title.text, title.start) == (want, text.index(want))


def test_guard_translation_services_is_a_title_of_its_own() -> None:
    text = "Exhibit 10.1\nTranslation Services Agreement\n\nThis Translation Services Agreement is made between Kestrel Ltd. and Quill Inc.\n"
    title = find_title(text)
    assert title is not None and title.text == "Translation Services Agreement"


def test_a_leading_agreement_heading_may_close_with_a_bracketed_acronym() -> None:
    # Before, no title was found at all.
    text = (
        "   Agreement Relating to the Joint Provision of Short Messaging Services (SMS)\n"
        "             between Kestrel Mobile Communication Company Limited\n"
        "             and Quill Network Technology Limited\n\n"
        "Party A: Kestrel Mobile Communication Company Limited\n\nParty B: Quill Network Technology Limited\n"
    )
    title = find_title(text)
    assert title is not None and (title.text, title.start) == (
        "Agreement Relating to the Joint Provision of Short Messaging Services (SMS)", 3,
    )


def test_grantor_and_grantee_named_by_role_are_no_parties() -> None:
    # Before, "Grantor" and "Grantee" were bound beside the cover's two companies.
    text = (
        "COLOCATION AGREEMENT\n\nBetween\n\nKESTREL CHELSEA, LLC\n\nas Grantor\n\nand\n\nQUILL - NEW YORK 111 8TH, "
        "LLC\n\nas Grantee\n\nDated\n\nSeptember 27, 2010\n\n\nCOLOCATION AGREEMENT\n\nThis Colocation "
        "Agreement (this \"Agreement\") is entered into as of the Effective Date, by and between Grantor "
        "(defined in Item 1 of the Basic Colocation Information, below) and Grantee (defined in Item 2 of the "
        "Basic Colocation Information, below):\n"
    )
    assert bound_party_names(text) == {"KESTREL CHELSEA, LLC", "QUILL - NEW YORK 111 8TH, LLC"}


def test_contact_numbers_and_tax_numbers_are_no_names() -> None:
    assert party_name_problem("Fax Number") == "thing"
    assert party_name_problem("Telephone Number") == "thing"
    assert party_name_problem("FEIN 59-1234567") == "thing"


def test_a_bracketed_legend_or_noise_word_before_a_heading_is_no_part_of_the_title() -> None:
    # Before, ") SUPPLY AGREEMENT" (the legend word's bracket kept) and "(CONFIDENTIAL) SUPPLY AGREEMENT".
    for heading in ("EXHIBIT 10.1 (REDACTED) SUPPLY AGREEMENT", "(CONFIDENTIAL) SUPPLY AGREEMENT"):
        text = f"{heading}\n\nThis Supply Agreement is made between Kestrel Ltd. and Quill Inc.\n"
        title = find_title(text)
        assert title is not None and (title.text, title.start) == ("SUPPLY AGREEMENT", text.index("SUPPLY AGREEMENT"))


def test_a_heading_opened_by_a_party_name_is_titled_without_it() -> None:
    # Before, the title was "KESTREL CORPORATION RESELLER AGREEMENT".
    text = (
        "Exhibit 10.14 KESTREL CORPORATION RESELLER AGREEMENT (Domestic) This agreement dated this 17th day "
        "of April, 1998 is made and entered into by and between Quill Software & Technology, Inc. "
        "(\"RESELLER\") whose principal place of business is located at: 909 Third Ave. New York, NY 10024 "
        "and Kestrel Corporation (\"KESTREL\") whose place of business is located at 117 S. Main Street, "
        "Seattle, WA 98104. KESTREL and RESELLER agree as follows:\n"
    )
    _, agreement = annotated_agreement(text)
    assert agreement is not None and agreement.name == "RESELLER AGREEMENT"
    assert text[agreement.char_start : agreement.char_end] == "RESELLER AGREEMENT"
    # The whole heading stays one of the agreement's names, with its span.
    assert agreement.aliases == ["KESTREL CORPORATION RESELLER AGREEMENT"]
    heading = agreement.attributes["title_aliases"][0]
    assert text[heading["char_start"] : heading["char_end"]] == "KESTREL CORPORATION RESELLER AGREEMENT"


def test_a_line_naming_a_kind_of_agreement_above_a_caps_heading_opens_it() -> None:
    # Before, "SERVICES AGREEMENT" and "MANUFACTURING AND ADMINISTRATIVE AGREEMENT".
    cases = (
        (
            "Exhibit\n10.1\nCONSULTING\nSERVICES AGREEMENT\nTHIS\nCONSULTING AGREEMENT (\"Agreement\") is made as of "
            "this 25th day of August 2006,\nbetween Kestrel Bridge LLC and Quill Energy Services, Inc.\n",
            "CONSULTING SERVICES AGREEMENT",
        ),
        (
            "EXHIBIT 4.18\nEXCLUSIVE INTERNATIONAL SALES, MARKETING\nMANUFACTURING AND ADMINISTRATIVE AGREEMENT\n"
            "(hereinafter called the \"Agreement\")\nbetween\nKESTREL INC.\n(an Ontario Corporation)\n",
            "EXCLUSIVE INTERNATIONAL SALES, MARKETING MANUFACTURING AND ADMINISTRATIVE AGREEMENT",
        ),
    )
    for text, want in cases:
        title = find_title(text)
        assert title is not None and (title.text, title.start) == (want, text.index(want.split()[0]))


def test_guard_an_organisation_above_a_heading_does_not_open_it() -> None:
    # "Shanghai Media Group" names the party; in capitals a company written with its legal form too.
    for text, want in (
        ("Harbour Media Group\nAdvertising Agency Agreement\n\nThis Agreement is made between Harbour Media Group and Kestrel Ltd.\n", "Advertising Agency Agreement"),
        ("GLOBAL MARKETING\nDISTRIBUTION AGREEMENT\n\nThis Distribution Agreement is made between Global Marketing, Inc. and Quill Corp.\n", "DISTRIBUTION AGREEMENT"),
    ):
        title = find_title(text)
        assert title is not None and title.text == want


def test_guard_a_principal_after_on_behalf_of_is_not_joined_to_the_name_before() -> None:
    # "on behalf of" joins another party, never a trade name: no one party "X on behalf of Y".
    text = (
        "RE: Advisory Agreement\nThis letter sets out the general terms and conditions of our agreement "
        "respecting the advisory services to be provided by The Kestrel Corporation Ltd. on behalf of Quill "
        "Stem Cell Corporation (\"QSC\").\n"
    )
    aliases = bound_party_aliases(text)
    assert not any("on behalf of" in name for name in aliases)
    assert aliases.get("Quill Stem Cell Corporation") == ["QSC"]
