"""Party and title readers, stop 25 (issue 9): shapes read from a fresh reading set of real
openings (realQ: agreements among three or more parties, joint filings, amendments, forms), each
written here with invented names. The name right after the preamble's "among" is a party without a
legal form; a definition after "and the X," belongs to X; a list item after a comma owns the term
made from its name; a caps title goes on over a line that opens with "OF"; a confidential-treatment
legend above an amendment heading is page furniture; two companies joined by "/" are both parties;
a legal form written before a name does not end it; a place closing an address points back to the
company the term is made from; a former name is no party; "A." before a person's names is an
initial; a form's "Name:" row the preamble points at names that party. The real spaCy pipeline;
each case asserts the exact names bound, the exact definitions, or the exact title and span."""

from __future__ import annotations

from ingest.agreements import amendment_of, find_title, has_agreement_preamble
from ingest.annotate import _CAPACITIES_LIMIT, _STATED_NAMES_LIMIT, _STATED_WINDOW_CHARS, _capacity_companies, _stated_party_names
from ingest.definitions import _GROUP_TAIL_CHARS, _OWN_AND_LOOKBACK, _in_party_predicate, _is_name_derived, find_definitions
from ingest.names import has_legal_suffix, name_at, party_name_problem
from ingest.party_layout import _FOLLOWING_NAME_ROW_CHARS, label_slots
from tests.helpers import bound_party_names


def _title(text: str) -> tuple[str, int, int] | None:
    title = find_title(text)
    return (title.text, title.start, title.end) if title is not None else None


def _definitions(text: str) -> dict[str, str | None]:
    return {d.term: d.name.text if d.name else None for d in find_definitions(text)}


def test_the_first_name_after_among_and_a_definition_after_a_bare_comma() -> None:
    text = (
        "LICENSE AGREEMENT\n\nThis LICENSE AGREEMENT (this \"Agreement\") effective as of May 1, 1995, by and among "
        "QUILLON MEDICAL COLLEGE, having its principal place of business at 12 Elm Street, Westport, New York 10001\n"
        "and the UNIVERSITY OF HARBOUR AND WRENFIELD OF WESTLAND, (\"UHWW\") having its principal place of business "
        "at 9 Oak Road, Westport, NJ 07001\n(hereinafter collectively \"UNIVERSITIES\") and BIOQUILL SCIENCES, INC., a "
        "Delaware corporation (hereinafter \"BQS\").\nPRELIMINARY STATEMENTS\n"
    )
    assert _definitions(text)["UHWW"] == "UNIVERSITY OF HARBOUR AND WRENFIELD OF WESTLAND"
    assert bound_party_names(text) == {
        "QUILLON MEDICAL COLLEGE",
        "UNIVERSITY OF HARBOUR AND WRENFIELD OF WESTLAND",
        "BIOQUILL SCIENCES, INC.",
    }


def test_a_list_item_after_a_comma_owns_the_term_made_from_its_name() -> None:
    text = (
        "AGREEMENT TO FILE JOINT STATEMENTS\n\nTHIS AGREEMENT is entered into as of the 9th day of February, 2011 by and "
        "among Quillon Corp., a company organized under the laws of the Bahamas, The Wrenfield Trust, a trust organized "
        "under the laws of the Bahamas (the \u201cTrust\u201d), and Harbour Trustees (Bahamas) Ltd., a company organized "
        "under the laws of the Bahamas (the \u201cTrustee\u201d).\nWITNESSETH\n"
    )
    definitions = _definitions(text)
    assert definitions["Trust"] == "The Wrenfield Trust"
    assert definitions["Trustee"] == "Harbour Trustees (Bahamas) Ltd."
    assert bound_party_names(text) == {"Quillon Corp.", "The Wrenfield Trust", "Harbour Trustees (Bahamas) Ltd."}


def test_a_caps_title_goes_on_over_a_line_opening_with_of() -> None:
    text = "Exhibit A\nAGREEMENT REGARDING THE JOINT FILING\nOF SCHEDULE 13D\nThe undersigned hereby agree as follows:\n"
    assert _title(text) == ("AGREEMENT REGARDING THE JOINT FILING OF SCHEDULE 13D", 10, 62)


def test_a_legend_above_an_amendment_heading_is_page_furniture() -> None:
    text = (
        "Exhibit 10.14.1\n\nCONFIDENTIAL TREATMENT REQUESTED\n\nThe confidential portions of this exhibit have been "
        "filed separately with the Securities and Exchange Commission. REDACTED PORTIONS OF THIS EXHIBIT ARE MARKED BY "
        "AN ***.\n\nFIRST AMENDMENT\n\nTO\n\nSupply and Manufacturing Agreement\n\nTHIS AMENDMENT, dated as of April 24, "
        "2007, by and between Quillon Seiyaku Co., Ltd./Quillon Pharma USA, Inc. (collectively, \u201cQUILLON\u201d) and "
        "WRENFIELD PHARMACEUTICALS INC. (\u201cWREN\u201d).\n\nWITNESSETH:\n"
    )
    start = text.index("FIRST AMENDMENT")
    assert _title(text) == (
        "FIRST AMENDMENT TO Supply and Manufacturing Agreement",
        start,
        text.index("\n\nTHIS AMENDMENT"),
    )
    # Two companies joined by "/" under one term are both parties.
    assert bound_party_names(text) == {"Quillon Seiyaku Co., Ltd.", "Quillon Pharma USA, Inc.", "WRENFIELD PHARMACEUTICALS INC."}


def test_a_legal_form_written_before_the_name_does_not_end_it() -> None:
    text = "National University Corporation Westport University, having an address at 1-33 Yayoi-cho"
    assert name_at(text, 0, len(text)).text == "National University Corporation Westport University"
    # A form after a company's name still ends it.
    other = "Quillon Corporation Westport University, having an address"
    assert name_at(other, 0, len(other)).text == "Quillon Corporation"


def test_a_place_closing_an_address_points_back_to_the_company_named_for_the_term() -> None:
    text = (
        "ADDENDUM TO SOFTWARE LICENCE AGREEMENT DATED August 21, 2002 (\u201cthe Agreement\u201d)\nQuill-Arts Limited of 3rd "
        "Floor, 15 Middle Lane, Westport, England NG1 7DX (\"Quill-Arts\") has licensed certain software to Wrenfield "
        "Solutions, Inc. of 611 S. Harbour Avenue, Suite 350, Austin, Texas (\"Wrenfield\"), pursuant to the Agreement.\n"
    )
    assert _definitions(text)["Wrenfield"] == "Wrenfield Solutions, Inc."
    # A term not made from the company's name stays with the place.
    territory = text.replace("(\"Wrenfield\")", "(the \"Territory\")")
    assert _definitions(territory)["Territory"] == "Texas"


def test_a_former_name_is_no_party() -> None:
    text = (
        "AMENDED AND RESTATED CONVERSION AGREEMENT\nThis Agreement (the \"Agreement\") is made as of the 20th day of "
        "December 2005, by\nand among Quillon Holdings, LLC, a Delaware limited liability company (formerly\nknown as "
        "Wren Field II, LLC) (the \"Company\"), and its members as listed on the\nsignature pages hereto (each, a "
        "\"Member\" and collectively, the \"Members\").\nRECITALS\n"
    )
    assert bound_party_names(text) == {"Quillon Holdings, LLC"}


def test_an_initial_a_before_a_persons_names_is_no_article() -> None:
    signer = "A. Victor Quillon\n"
    assert name_at(signer, 0, len(signer)).text == "A. Victor Quillon"
    # A recital's enumerator before a role word stays an enumerator.
    recital = "A. Licensor Company desires to license"
    assert name_at(recital, 0, len(recital)) is None
    short = "A. Shipper, through its divisions"
    assert name_at(short, 0, len(short)) is None


def test_a_forms_name_row_the_preamble_points_at_names_that_party() -> None:
    text = (
        "MOTOR CARRIER TRANSPORTATION AGREEMENT\n\nThis Motor Carrier Transportation Agreement (\"Agreement\") is entered "
        "into as of this 28th day of February, 2005 by and between Quillon & Company, Inc., a Delaware Corporation, with "
        "principal offices located at 1770 Harbour Circle, Westport, Colorado 80634 (\"Shipper\") and the following "
        "named carrier (\"Carrier\"):\n\nName:     WRENFIELD FREIGHT LOGISTICS\n\nAddress:     2233 RIDGE ROAD STE 102\n\n"
        "Contact Person:     JANE ROE\n\nR E C I TALS\n"
    )
    slots = label_slots(text)
    assert [(s.term, s.name.text) for s in slots] == [("Carrier", "WRENFIELD FREIGHT LOGISTICS")]
    assert bound_party_names(text) == {"Quillon & Company, Inc.", "WRENFIELD FREIGHT LOGISTICS"}
    # Without the pointer the row is a contact's and names no party.
    assert label_slots(text.replace("the following named carrier (\"Carrier\"):", "a carrier.")) == []


def test_an_amendment_heading_under_a_legend_paragraph_wins_over_the_preambles_broken_reading() -> None:
    text = (
        "The\nconfidential portions of this exhibit have been filed separately\nwith the Securities and Exchange "
        "Commission pursuant to a\nconfidential treatment request in accordance with Rule 24b-2\nof the Securities "
        "Exchange Act of 1934, as amended. REDACTED\nPORTIONS OF THIS EXHIBIT ARE MARKED BY AN ***.\n"
        "FIRST AMENDMENT TO THE CO-PROMOTION\nAGREEMENT BETWEEN\nQUILLON DEVELOPMENT LIMITED\nAND\nWRENFIELD "
        "PHARMACEUTICALS INC.\nDATED JULY 1, 2005\nThis First\nAmendment to the Co-Promotion Agreement by and between "
        "Quillon\nDevelopment Limited (\u201cQuillon\u201d) and Wrenfield\nPharmaceuticals Inc. (\u201cWrenfield\u201d) is "
        "effective as of December 12,\n2005.\nWHEREAS,\n"
    )
    start = text.index("FIRST AMENDMENT")
    assert _title(text) == (
        "FIRST AMENDMENT TO THE CO-PROMOTION AGREEMENT",
        start,
        text.index(" BETWEEN\nQUILLON"),
    )


def test_an_amendment_numbered_in_digits_heads_its_parents_title() -> None:
    text = (
        "Exhibit 10.139.2\nThe confidential portions of this exhibit have been filed separately with the Securities and "
        "Exchange Commission. REDACTED PORTIONS OF THIS EXHIBIT ARE MARKED BY AN ***.\n\nExecution Copy\n2nd Amendment\n"
        "to the\nDevelopment, Licence and Supply Agreement\nentered on December 18, 2007\n(hereinafter referred to as "
        "\u201cAgreement\u201d)\n\nby and between\n\nQuillon GmbH\nZieglerstr. 6\n52078 Aachen, Germany\n(\u201cQUILLON\u201d)\n"
    )
    start = text.index("2nd Amendment")
    end = text.index("\nentered on")
    assert _title(text) == ("2nd Amendment to the Development, Licence and Supply Agreement", start, end)


def test_a_sentence_about_a_party_defines_no_party() -> None:
    text = (
        "Exhibit 6.3\nQUILLON ACES\nSPONSORSHIP AGREEMENT\nThis Sponsorship Agreement (this \"Agreement\") is dated "
        "December 5th, 2022, by and between Quillon Basketball, LP (\"Owner\"), and Wrenfield Energies Corp. "
        "(\"Sponsor\").\nOwner is the owner and operator of the Quillon Aces (\"Team\") of the Westland National "
        "Basketball Association (\"WNBA\") that plays its home games in Westport.\n"
    )
    definitions = {d.term: d for d in find_definitions(text)}
    assert definitions["Team"].name.text == "Quillon Aces"
    assert definitions["Team"].is_party_alias is False
    assert definitions["WNBA"].is_party_alias is False
    assert bound_party_names(text) == {"Quillon Basketball, LP", "Wrenfield Energies Corp."}


def test_a_title_case_background_heading_closes_the_preamble() -> None:
    text = (
        "NON-COMPETITION AGREEMENT\nThis Non-Competition Agreement (this \u201cAgreement\u201d), dated November 14, 2007, "
        "is made by and between Jane Q. Roe (the \u201cEmployee\u201d)\nand\nQuill Acquisition, Inc. a Delaware "
        "corporation (\u201cAcquiror\u201d).\nBackground\nAcquiror\nand Wren Authority, Inc., a Delaware corporation (the "
        "\u201cCompany\u201d)\nare\nparties to a Stock Purchase Agreement dated on or about November 14, 2007.\n"
    )
    assert bound_party_names(text) == {"Jane Q. Roe", "Quill Acquisition, Inc."}


def test_a_signer_individually_and_as_officer_of_companies_signs_for_each() -> None:
    text = (
        "Exhibit 2\n\nJOINT FILING AGREEMENT\n\nPURSUANT TO RULE 13(d)-1(k)\n\nThe undersigned acknowledge and agree "
        "that the foregoing statement on Schedule 13D is filed on behalf of each of the undersigned.\n\nDATE: November "
        "7, 2013\n\n  /s/ Jane Q. Quillon\n  Jane Q. Quillon, individually, and as\n  Chief Executive Officer of "
        "Wrenfield Capital, LLC,\n  and as Managing Member of Wrenfield GP, LLC\n"
    )
    assert bound_party_names(text) == {"Jane Q. Quillon", "Wrenfield Capital, LLC", "Wrenfield GP, LLC"}
    # Without "individually" the company after "as ... of" signs for a party; it is no party itself.
    agent = text.replace("individually, and as\n  Chief Executive Officer of Wrenfield Capital, LLC,\n  and as", "as")
    assert "Wrenfield GP, LLC" not in bound_party_names(agent)


def test_a_preamble_naming_its_parties_below_leads_the_signatures() -> None:
    text = (
        "EXHIBIT 99.1\n\nJOINT FILING AGREEMENT PURSUANT TO RULE 13D-1(F)(1)\n\nThis agreement is made pursuant to Rule "
        "13d-1(f)(1) under the Securities Exchange Act of 1934 (the \"Act\") by and between the parties listed below, "
        "each referred to herein as a \"Joint Filer.\" The Joint Filers agree that a statement of beneficial ownership "
        "may be filed on each of their behalf on Schedule 13D.\n\nDate: May 2, 2003\n\nQuillon Family Holdings, L.P.\n\n"
        "By:   /s/ Jane Wrenfield\n      ----------------------------------------\nName:  Jane Wrenfield\nTitle: General "
        "Partner\n\n\n/s/ Jane Wrenfield\n----------------------------------------\nJane Wrenfield\n"
    )
    assert bound_party_names(text) == {"Quillon Family Holdings, L.P.", "Jane Wrenfield"}


def test_single_quoted_terms_define_like_double_quoted_ones() -> None:
    text = (
        "                               LINKING AGREEMENT\n\nTHIS LINKING AGREEMENT ('Agreement') is made this 26th day "
        "of March, 1998\n('Effective Date'), by and among QUILLON, INC., a corporation organized under the\nlaws of "
        "Delaware ('Quillon'), WREN'S TRIPOD, INC., a corporation organized under the laws\nof Delaware ('Tripod') and "
        "a wholly owned subsidiary of Quillon, and HARBOURNOW, INC.,\na corporation organized under the laws of "
        "Pennsylvania ('HarbourNow').\n\n                                   RECITALS\n"
    )
    definitions = _definitions(text)
    assert definitions["Quillon"] == "QUILLON, INC."
    assert definitions["Tripod"] == "WREN'S TRIPOD, INC."
    assert definitions["HarbourNow"] == "HARBOURNOW, INC."
    assert bound_party_names(text) == {"QUILLON, INC.", "WREN'S TRIPOD, INC.", "HARBOURNOW, INC."}


def test_a_partys_group_and_an_address_with_a_country_close_its_clause() -> None:
    text = (
        "SUPPLY AGREEMENT\n|1.\n|Preamble\nThis is an Agreement for Quillon Tire Co. Ltd., 647-15 Yeoksam-dong, "
        "Gangnam-gu, Seoul 135-723 Korea, its affiliates and subsidiaries (hereafter called \u201cQuillon\u201d) to purchase "
        "synthetic rubbers from Wrenfield Europe GmbH, Bachtobelstrasse 3, CH-8810 Horgen, Switzerland (hereafter called "
        "\u201cWrenfield\u201d).\nWhereas, both parties agreed upon their further cooperation.\n"
    )
    definitions = _definitions(text)
    assert definitions["Quillon"] == "Quillon Tire Co. Ltd."
    assert definitions["Wrenfield"] == "Wrenfield Europe GmbH"
    assert bound_party_names(text) == {"Quillon Tire Co. Ltd.", "Wrenfield Europe GmbH"}


def test_a_party_letter_in_a_labels_aside_names_the_party() -> None:
    text = (
        "Exhibit 10.3\nAgreement NO: HB-2008-JS-147\nTechnological Services Agreement\nServices Consignor (Party A): "
        "Quillon Huabei Oil Field Company\nLegal Address: Renqiu City, Hebei Province, PRC\nContact Person: CAO Lan\n"
        "Services Provider (Party B): Tianjin Wrenfield Science Development Co., Ltd.\nLegal Address: Dagang "
        "Development Zone, Tianjin City, PRC\n1 General Introduction\n"
    )
    assert [(s.term, s.name.text) for s in label_slots(text)] == [
        ("Party A", "Quillon Huabei Oil Field Company"),
        ("Party B", "Tianjin Wrenfield Science Development Co., Ltd."),
    ]


def test_an_agreement_dated_for_reference_has_a_preamble() -> None:
    text = (
        "EXHIBIT 4.119\n\n\nTHIS AGREEMENT dated for reference and made effective  ________\n\nBETWEEN:\n\n         "
        "QUILLON CHALICE RESOURCES INC., a company  incorporated  pursuant to the\n         laws of  British  Columbia\n\n"
        "         (\"QCR\")\n\nAND:\n\n         WRENFIELD  GOLD  CORP.,  a company  incorporated  pursuant  to the laws of\n"
        "         British  Columbia\n\n         (\"WGX\")\n\n\nWHEREAS:\n"
    )
    assert {" ".join(n.split()) for n in bound_party_names(text)} == {"QUILLON CHALICE RESOURCES INC.", "WRENFIELD GOLD CORP."}


def test_a_joint_venture_between_others_in_a_recital_names_no_party() -> None:
    text = (
        "EXHIBIT 10.57 SECOND AMENDED AND RESTATED GRAPE PURCHASE AGREEMENT This SECOND AMENDED AND RESTATED GRAPE "
        "PURCHASE AGREEMENT (the \"Agreement\") is made and entered into as of this ____ day of June, 2002, by and "
        "between QUILLON VINEYARD CO., INC. (\"Grower\"), and WREN VALLEY VINEYARD, a Joint Venture (\"Buyer\"). "
        "RECITALS A. Grower is a Nevada corporation operating vineyards in Westport, California. B. Buyer is a joint "
        "venture between The Harbour Wine Group Ltd., a California corporation, and Grower (the \"Joint Venture\"), "
        "organized under that certain Joint Venture Agreement dated as of January 1, 1991.\n"
    )
    assert bound_party_names(text) == {"QUILLON VINEYARD CO., INC.", "WREN VALLEY VINEYARD"}


def test_a_capitalised_acronym_inside_a_name_is_no_clause_word() -> None:
    assert party_name_problem("Geo IS Tech Group") is None
    # In a name written in capitals the word is prose's own.
    assert party_name_problem("THE FOREGOING IS UNDERSTOOD AND AGREED TO BY") == "clause"
    text = (
        "JOINT  VENTURE AGREEMENT\n\nThis JOINT VENTURE AGREEMENT (this \"Agreement\") dated April 17, 2011 is entered "
        "into by and among:\n\n1.  Quillon Mining Co., Ltd., a limited liability company organized under the laws of "
        "Hong Kong (the \"Quillon\");\n\n2.   Geo IS Wren Group - under the laws of USA (the \"Geowren\"); and\n\n3.   "
        "Jane Harbour Roe an individual holding Mexico Passport (\"Jane\").\n\nRECITALS:\n"
    )
    assert {" ".join(n.split()) for n in bound_party_names(text)} == {"Quillon Mining Co., Ltd.", "Geo IS Wren Group", "Jane Harbour Roe"}


def test_a_line_break_inside_a_labels_party_letter() -> None:
    text = (
        "General\nAgent Agreement\nSupplier ( Party A): Hainan\nQuillon Pharmaceutical Co. Ltd.\nAddress:\nNo.168 Nanhai "
        "Street,\nHaikou, Free Trade Zone.\nPurchaser(Party\nB): Beijing\nWrenfield Pharmaceutical Limited.\nAddress: 922, "
        "Floor 9, Building1,\nXicheng District, Beijing\nIn\naccordance with the Contract Law, the Parties have entered "
        "into the Agreement.\n"
    )
    assert [(s.term, " ".join(s.name.text.split())) for s in label_slots(text)] == [
        ("Supplier", "Hainan Quillon Pharmaceutical Co. Ltd."),
        ("Party B", "Beijing Wrenfield Pharmaceutical Limited"),
    ]


def test_names_the_contract_says_are_its_parties() -> None:
    text = (
        "DISTRIBUTION AGREEMENT\n\nThis Distribution Agreement (\"Agreement\") is entered into by and between\nQuillon "
        "Corporation, a corporation duly organized under the laws of California, hereinafter referred to as "
        "\"Quillon\", and WRENFIELD.COM, INC., a corporation organized under the laws of the State of Delaware, "
        "hereinafter referred to as \"Content Partner\". Harbour\nNews/Starwave Partners (which operates the "
        "HarbourNews.com U.S. Internet site referred to herein as \"HarbourNews.com\") and WSPN/Starwave Partners (also "
        "referred to as \"EIV\") are parties to this Agreement only with respect to those provisions herein that "
        "reference them.\n\nWITNESSETH\n"
    )
    assert {" ".join(n.split()) for n in bound_party_names(text)} == {
        "Quillon Corporation", "WRENFIELD.COM, INC.", "Harbour News/Starwave Partners", "WSPN/Starwave Partners",
    }
    # A party's role as the subject names no one new.
    role = text.replace(
        "Harbour\nNews/Starwave Partners (which operates the HarbourNews.com U.S. Internet site referred to herein as "
        "\"HarbourNews.com\") and WSPN/Starwave Partners (also referred to as \"EIV\") are parties",
        "The Guarantor is a party",
    )
    assert bound_party_names(role) == {"Quillon Corporation", "WRENFIELD.COM, INC."}


def test_an_ordinal_alone_above_an_amendment_heading_is_part_of_it() -> None:
    text = (
        "SECOND\nAMENDMENT TO MINERAL RIGHT OPTION AGREEMENT\nThis Second Amendment to the Mineral\nRight Option "
        "Agreement (the \u201cSecond Amendment\u201d) is made and entered into as of\nthe 3rd day of February, 2010, by "
        "and between Quillon Investments\nInc., a company (hereinafter referred to as \u201cOptionor\u201d), and Wrenfield "
        "Goldsands Ltd., a\ncompany (hereinafter referred to as \u201cOptionee\u201d).\n"
    )
    assert _title(text) == ("SECOND AMENDMENT TO MINERAL RIGHT OPTION AGREEMENT", 0, 50)
    # An ordinal over a heading that is no amendment stays apart.
    other = text.replace("SECOND\nAMENDMENT TO MINERAL RIGHT OPTION AGREEMENT", "SECOND\nMINERAL RIGHT OPTION AGREEMENT")
    assert find_title(other).text == "MINERAL RIGHT OPTION AGREEMENT"


def test_a_pointed_name_row_is_looked_for_within_its_window() -> None:
    pointer = "by and between Quillon & Company, Inc. (\"Shipper\") and the following named carrier (\"Carrier\"):"

    def slots(gap: int) -> list[tuple[str, str]]:
        text = "TRANSPORTATION AGREEMENT\n\nThis Agreement is entered into " + pointer + "\n" + "x\n" * (gap // 2)
        text += "Name:     WRENFIELD FREIGHT LOGISTICS\n\nAddress:     2233 RIDGE ROAD\n"
        return [(s.term, s.name.text) for s in label_slots(text)]

    # The row may open at most _FOLLOWING_NAME_ROW_CHARS (200) characters after the pointer.
    assert slots(_FOLLOWING_NAME_ROW_CHARS - 2) == [("Carrier", "WRENFIELD FREIGHT LOGISTICS")]
    assert slots(_FOLLOWING_NAME_ROW_CHARS + 2) == []


def test_a_sentence_about_a_party_is_read_no_further_back_than_its_window() -> None:
    opening = (
        "SPONSORSHIP AGREEMENT\nThis Sponsorship Agreement is dated December 5th, 2022, by and between Quillon "
        "Basketball, LP (\"Owner\"), and Wrenfield Energies Corp. (\"Sponsor\").\n"
    )

    def about_a_party(filler_words: int) -> bool:
        text = opening + "Owner is the owner " + "and operator " * filler_words + "of the Quillon Aces (\"Team\").\n"
        earlier = [d for d in find_definitions(text) if d.term in ("Owner", "Sponsor")]
        return _in_party_predicate(text, text.index("Quillon Aces"), earlier)

    # Within _PREDICATE_SENTENCE_CHARS (1,000) of the name the sentence's subject is read ...
    assert about_a_party(60) is True
    # ... beyond it the sentence is not judged (the scan per definition stays bounded).
    assert about_a_party(80) is False


_STATED_OPENING = (
    "DISTRIBUTION AGREEMENT\n\nThis Distribution Agreement is entered into by and between Quillon Corporation "
    "(\"Quillon\") and Wrenfield, Inc. (\"Wrenfield\").\n"
)


def test_a_sentence_naming_parties_is_read_back_no_further_than_its_window() -> None:
    def stated(window_chars: int) -> list[str]:
        # The window holds the ".\n" ending the sentence before and the subject up to " are parties".
        head = "Harbour Partners, L.P. ("
        tail = ") and Orchard Labs, LLC"
        subject = head + "x" * (window_chars - 2 - len(head) - len(tail)) + tail
        text = _STATED_OPENING + subject + " are parties to this Agreement only as to Section 9.\n"
        assert text.index(" are parties") - text.index(".\nHarbour") == window_chars
        return [name.text for name in _stated_party_names(text)]

    # The sentence's start may lie at most _STATED_WINDOW_CHARS (600) before "are parties".
    assert stated(_STATED_WINDOW_CHARS) == ["Harbour Partners, L.P.", "Orchard Labs, LLC"]
    # Beyond it no sentence start is seen, and nothing is read.
    assert stated(_STATED_WINDOW_CHARS + 1) == []


def test_a_sentence_naming_more_parties_than_its_limit_names_none() -> None:
    def stated(count: int) -> int:
        names = [f"Harbour{chr(65 + i)} Partners, L.P." for i in range(count)]
        text = _STATED_OPENING + ", ".join(names[:-1]) + " and " + names[-1] + " are parties to this Agreement.\n"
        return len(_stated_party_names(text))

    assert stated(_STATED_NAMES_LIMIT) == _STATED_NAMES_LIMIT
    # A subject with one name more is not read whole, so no part of it is taken.
    assert stated(_STATED_NAMES_LIMIT + 1) == 0


def test_a_signer_signs_in_at_most_its_limit_of_capacities() -> None:
    def companies(count: int) -> list[str]:
        capacities = ",\n  and as ".join(f"Managing Member of Wren{chr(65 + i)} GP, LLC" for i in range(count))
        text = (
            "JOINT FILING AGREEMENT\n\nThe undersigned acknowledge and agree that the foregoing statement on Schedule "
            "13D is filed on behalf of each of the undersigned.\n\n  /s/ Jane Q. Quillon\n  Jane Q. Quillon, "
            "individually, and as\n  " + capacities + "\n"
        )
        return [company.text for company in _capacity_companies(text)]

    assert companies(_CAPACITIES_LIMIT) == [f"Wren{chr(65 + i)} GP, LLC" for i in range(_CAPACITIES_LIMIT)]
    # The capacity past the limit is not read.
    assert companies(_CAPACITIES_LIMIT + 1) == [f"Wren{chr(65 + i)} GP, LLC" for i in range(_CAPACITIES_LIMIT)]


def test_a_partys_group_closes_its_clause_only_within_its_window() -> None:
    def defined(tail_chars: int) -> str | None:
        group = ", its affiliates, subsidiaries, successors and permitted assigns, successors, successors"
        tail = group + " " * (tail_chars - len(group))
        text = (
            "SUPPLY AGREEMENT\nThis is an Agreement for Quillon Tire Co. Ltd., 647-15 Yeoksam-dong, Gangnam-gu, Seoul "
            "135-723 Korea" + tail + "(hereafter called \u201cQuillon\u201d) to purchase rubbers.\n"
        )
        return _definitions(text)["Quillon"]

    # The group may start at most _GROUP_TAIL_CHARS (120) before the definition.
    assert defined(_GROUP_TAIL_CHARS) == "Quillon Tire Co. Ltd."
    assert defined(_GROUP_TAIL_CHARS + 1) is None


def test_an_agreement_that_is_by_and_between_its_parties_has_a_preamble() -> None:
    text = (
        "QUILLON CORPORATION - 8-K - Current Report Date Filed: 2/8/2002 ______________ AGREEMENT This Agreement, "
        "made and effective as of January 24, 2002 (\"the Effective Date\") is by and between: WRENFIELD UNIVERSITY "
        "(hereinafter \"WU\"), a corporation organized under the laws of the State of New York AND Quillon Corporation "
        "(hereinafter \"CORPORATION\"), a corporation organized under the laws of the State of Indiana. RECITALS "
        "WHEREAS, WU is willing to perform the WU Research Project;"
    )
    assert has_agreement_preamble(text)
    assert bound_party_names(text) == {"WRENFIELD UNIVERSITY", "Quillon Corporation"}
    # Each shape alone opens a preamble ...
    assert has_agreement_preamble("This Agreement is by and between Quillon Corporation and Wren LLC.")
    assert has_agreement_preamble("This License Agreement, made and effective as of May 1, 2001, by Quillon Corporation")
    # ... but a text that merely mentions an agreement between others has none.
    assert not has_agreement_preamble("The agreement between Quillon Corporation and Wren LLC expires in May.")
    assert not has_agreement_preamble("Under the agreement, the dispute is between Quillon Corporation and Wren LLC.")


def test_the_name_after_a_closing_and_owns_the_definition_right_after_it() -> None:
    text = (
        "TRANSFER AGENCY AGREEMENT\nAGREEMENT, dated as of April 5, 1988 between Quillon Income Fund Inc. a\ncorporation "
        "organized under the laws of Maryland and having its principal place\nof business at 12 Main Street, New York, "
        "NY 10001, and WRENFIELD SAFE\nDEPOSIT AND TRUST COMPANY (the \"Agent\"), a Massachusetts trust company with\n"
        "principal offices at 1 Elm Street, Boston, MA 02110.\nW I T N E S S E T H:\n"
    )
    assert _definitions(text) == {"Agent": "WRENFIELD SAFE\nDEPOSIT AND TRUST COMPANY"}
    assert bound_party_names(text) == {"Quillon Income Fund Inc.", "WRENFIELD SAFE DEPOSIT AND TRUST COMPANY"}
    # Without the closing comma the clause is one party's, and its first name keeps the term.
    open_clause = text.replace("NY 10001, and WRENFIELD SAFE\nDEPOSIT AND TRUST COMPANY", "NY 10001 and Elm Road")
    assert _definitions(open_clause)["Agent"] == "Quillon Income Fund Inc."


def test_a_firms_list_of_names_ending_in_company_and_its_clipped_acronym() -> None:
    text = (
        "EXHIBIT 10.4 TRANSPORTATION CONTRACT ICC-CR-C-4553 THIS TRANSPORTATION CONTRACT (hereinafter \"Contract\") is "
        "made this 28th day of September, 1987 by and between QUILLON RAIL CORPORATION, a Pennsylvania corporation, "
        "(hereinafter \"QR\"), ALGOMA, WRENFIELD & WESTERN RAILWAY COMPANY, an Indiana corporation (hereinafter \"AWW\" "
        "or \"RAILROAD\"), and HARBOUR POWER & LIGHT COMPANY, an Indiana corporation (hereinafter \"HPL\"). WHEREAS, "
        "the parties wish to contract."
    )
    assert name_at(text, text.index("ALGOMA"), len(text)).text == "ALGOMA, WRENFIELD & WESTERN RAILWAY COMPANY"
    assert bound_party_names(text) == {
        "QUILLON RAIL CORPORATION", "ALGOMA, WRENFIELD & WESTERN RAILWAY COMPANY", "HARBOUR POWER & LIGHT COMPANY",
    }
    # No "&" closes the list: the commas separate names ("Boston, Massachusetts ...").
    assert name_at("Algoma, Wrenfield Western Railway Company", 0, 41).text == "Algoma"
    # An acronym leaves out at most one word before the legal form.
    assert _is_name_derived("QHW", "Quillon Harbour Western Railway Company")
    assert not _is_name_derived("QH", "Quillon Harbour Western Railway Company")


def test_an_agreement_executed_this_day_has_a_preamble() -> None:
    text = (
        "        AGREEMENT FOR AN EXCLUSIVE ALLIANCE TO DEVELOP, MANUFACTURE AND\n             MARKET A CHIP-BASED "
        "SCREENING SYSTEM FOR CELL ANALYSIS\n\nThis is an agreement executed this Twenty-sixth day of October, 1999,\n"
        "hereinafter the \"Effective Date\") between Quillon, Inc., 635 William Pitt\nWay, Pittsburgh, PA. 15238 "
        "(hereinafter QUILLON) and WRENFIELD BioSciences Inc.\n1288 Pear Avenue, Mountain View, CA 94043-1432 "
        "(hereinafter WRENFIELD).\n\n                                    RECITALS\n"
    )
    assert has_agreement_preamble(text)
    assert bound_party_names(text) == {"Quillon, Inc.", "WRENFIELD BioSciences Inc."}


def test_a_cover_heading_cut_short_yields_to_the_heading_the_preamble_repeats_whole() -> None:
    text = (
        "AGREEMENT FOR INFORMATION\n\n                               TECHNOLOGY SERVICES\n\n                    BETWEEN\n\n"
        "                 QUILLON FEDERAL BANK\n\n                    AND\n\n          WRENFIELD DATA SYSTEMS CORPORATION\n\n\n\n"
        "                  AGREEMENT FOR INFORMATION TECHNOLOGY SERVICES\n\n         THIS AGREEMENT FOR INFORMATION "
        "TECHNOLOGY SERVICES (\"Agreement\") is\nbetween Wrenfield Data Systems Corporation (\"WDS\"), a Delaware "
        "corporation, and QUILLON FEDERAL BANK (\"CUSTOMER\").\n\n         WHEREAS, Customer desires services.\n"
    )
    start = text.index("AGREEMENT FOR INFORMATION TECHNOLOGY SERVICES\n")
    assert _title(text) == ("AGREEMENT FOR INFORMATION TECHNOLOGY SERVICES", start, start + 45)


def test_an_agreement_a_recital_cites_is_no_title_without_a_blank_line() -> None:
    text = (
        "This Agreement (this \"Agreement\") is made as of this 26th day of\nJanuary, 2000, by and among Quillon "
        "Network Systems, Inc., a Delaware corporation (\"QNS\"), and Wrenfield Leasing, LLC, a Delaware\nlimited "
        "liability company (\"Owner\").\nWHEREAS, QNS has agreed that Owner shall be its preferred source pursuant to "
        "that certain Financial\nServices Agreement, dated as of the date hereof (the \"Financial Services\n"
        "Agreement\"), among QNS and Owner.\n"
    )
    # The preamble calls the document only "Agreement": it has no title of its own words.
    assert find_title(text) is None
    assert bound_party_names(text) == {"Quillon Network Systems, Inc.", "Wrenfield Leasing, LLC"}


def test_a_caps_qualifier_with_a_slash_after_a_heading_is_part_of_the_title() -> None:
    def titled(qualifier: str) -> str | None:
        text = (
            f"DATABASE LICENSE AGREEMENT ({qualifier})\n\nTHIS IS AN AGREEMENT, dated as of January 13, 1999 by and "
            "between Quillon & Taylor, Inc. (\"Q&T\"), a Delaware corporation, and Wrenfield Guide, LLC (\"Licensee\").\n"
        )
        title = find_title(text)
        return title.text if title else None

    assert titled("SINGLE SERVER/INTERNET") == "DATABASE LICENSE AGREEMENT (SINGLE SERVER/INTERNET)"
    # A qualifier holds at most 31 characters inside its parentheses.
    assert titled("S" * 31) == f"DATABASE LICENSE AGREEMENT ({'S' * 31})"
    assert titled("S" * 32) == "DATABASE LICENSE AGREEMENT"


def test_one_instrument_amending_two_agreements_names_both_amendments() -> None:
    heading = "THIRD AMENDMENT TO SOFTWARE LICENSE AGREEMENT AND SECOND AMENDMENT TO SUPPORT AND MAINTENANCE AGREEMENT"
    text = heading + "\n\nThis Amendment is made as of May 1, 2001 by and between Quillon Inc. and Wrenfield LLC.\n"
    assert _title(text) == (heading, 0, len(heading))
    # The binding goes to the first agreement amended, never to a parent run on into the second.
    assert amendment_of(heading).parent == "SOFTWARE LICENSE AGREEMENT"
    # Sixteen words: two titles' length is allowed for the pair.
    numbered = "AMENDMENT NO. 2 TO THE SUPPLY AGREEMENT AND AMENDMENT NO. 1 TO THE LICENSE AGREEMENT"
    assert _title(numbered + text[len(heading) :]) == (numbered, 0, len(numbered))
    # One amendment whose parent has "and" in its name keeps it whole.
    assert amendment_of("AMENDMENT NO. 2 TO THE SUPPLY AND DISTRIBUTION AGREEMENT").parent == "SUPPLY AND DISTRIBUTION AGREEMENT"


def test_a_cover_stacks_an_organisation_named_by_its_head_noun() -> None:
    text = (
        "EXHIBIT 10.16\nHo Chi Minh City, January 23, 2008\nQUILLON VN LIMITED LIABILITY COMPANY\nAND\n"
        "WRENFIELD SOFTWARE CITY DEVELOPMENT COMPANY\nBUSINESS CO-OPERATION AGREEMENT\nCONTENTS\nPage\nPART I\n"
        "LEGAL BASIS AND PARTIES\n"
    )
    assert bound_party_names(text) == {"QUILLON VN LIMITED LIABILITY COMPANY", "WRENFIELD SOFTWARE CITY DEVELOPMENT COMPANY"}
    # A heading's words above the separator name no one, so nothing is stacked.
    heading = text.replace("QUILLON VN LIMITED LIABILITY COMPANY", "INTELLECTUAL PROPERTY")
    assert "WRENFIELD SOFTWARE CITY DEVELOPMENT COMPANY" not in bound_party_names(heading)


def test_a_name_read_down_from_the_title_line_starts_on_the_line_below() -> None:
    text = (
        "\uff08 Format No.3 \uff0d \uff11\uff09\nCollaborative Research Agreement\nNational University Corporation Quillon "
        "University (hereinafter referred to as \"Party A\") and Dr. Wrenfield Co. Ltd. (hereinafter referred to as "
        "\"Party B\") shall enter into a collaborative research agreement (hereinafter referred to as this "
        "\"Agreement\") based on the following conditions.\n"
    )
    assert _definitions(text)["Party A"] == "National University Corporation Quillon University"
    assert bound_party_names(text) == {"National University Corporation Quillon University", "Dr. Wrenfield Co. Ltd."}


def test_a_professional_association_is_a_legal_form() -> None:
    text = (
        "STOCKHOLDER NON-COMPETITION AGREEMENT\n\nTHIS STOCKHOLDER NON-COMPETITION AGREEMENT (the \"Agreement\") is\n"
        "entered into as of December 23, 1996, by and\namong QUILLON SPINAL CLINIC, P.A., a Texas professional "
        "association (the \"Medical Group\"), and WRENFIELD BONE, INC., a Delaware corporation (\"WBI\").\n"
    )
    assert has_legal_suffix("QUILLON SPINAL CLINIC, P.A.") and has_legal_suffix("Quillon Orthopaedics, P.L.L.C.")
    assert bound_party_names(text) == {"QUILLON SPINAL CLINIC, P.A.", "WRENFIELD BONE, INC."}
    # The state's abbreviation written without stops is no legal form.
    assert not has_legal_suffix("Pittsburgh PA")


def test_a_recitals_label_and_article_before_a_partys_term_name_no_new_party() -> None:
    text = (
        "STOCKHOLDER NON-COMPETITION AGREEMENT\n\nTHIS STOCKHOLDER NON-COMPETITION AGREEMENT (the \"Agreement\") is\n"
        "entered into as of December 23, 1996, by and\namong QUILLON SPINAL CLINIC, P.A., a (the \"Medical Group\"), "
        "the individual\nidentified on the signature page hereof (the \"Stockholder\"), and WRENFIELD BONE, INC., a "
        "Delaware corporation (\"WBI\"), with reference to the following\nfacts:\nA. The Medical Group is engaged in "
        "the business of providing\northopedic medical and surgical services (the \"Medical Services\") to the "
        "general public.\n"
    )
    assert bound_party_names(text) == {"QUILLON SPINAL CLINIC, P.A.", "WRENFIELD BONE, INC."}


def test_a_letters_pronoun_names_no_one_and_the_name_by_the_definition_is_read() -> None:
    text = (
        "March 17, 2009\nJane Roe, CEO\nQuillon Energy, Inc.\n4450 Belden Village St., Suite 800\nCanton, Ohio 44718\n"
        "Re: Quillon Energy, Inc. (\u201cClient\u201d)\nDear Ms. Roe:\nWe are pleased your firm is retaining Wrenfield"
        "Keys, LLC (\u201cWK\u201d or the \u201cFirm\u201d). The purpose of this letter is to set forth our mutual "
        "understanding.\n"
    )
    definitions = _definitions(text)
    assert definitions["WK"] == definitions["Firm"] == "WrenfieldKeys, LLC"


def test_a_term_holding_and_carries_the_name_back_over_its_own_and() -> None:
    text = (
        "October 11, 2006\nBill Glaser\nQuillon Corporation\n770 Broadway, 2nd Floor\nNew York, NY 10003\nRe: Fee "
        "Agreement\nDear Bill:\nWe are writing to set forth our agreement regarding compensation which you "
        "(\u201cClient\u201d) shall pay to Wren and House Public Relations (\u201cWren and House\u201d) for our public "
        "relations services.\n"
    )
    assert _definitions(text)["Wren and House"] == "Wren and House Public Relations"
    # A term without the "and" leaves the name where it was read.
    plain = text.replace("(\u201cWren and House\u201d)", "(\u201cHouse\u201d)")
    assert _definitions(plain)["House"] == "House Public Relations"


def test_a_label_naming_the_partys_part_and_an_organisation_filling_its_slot() -> None:
    text = (
        "Exhibit 10.27\nTechnology Development Contract\n(2003 Edition)\nProject name: The production technology of "
        "powder\nConsignor: Quillon Water Purifying Agent Co.,Ltd.,\n( Party A)\nResearch and Development Party: "
        "Wrenfield University\n(Party B)\nSigning Place :\nPengjiang (District)\n"
    )
    assert [(s.term, s.name.text) for s in label_slots(text)] == [
        ("Consignor", "Quillon Water Purifying Agent Co.,Ltd."),
        ("Research and Development Party", "Wrenfield University"),
    ]
    institution = (
        "Medicine Research and Development Agreement\nParty A: Quillon Jiali Pharmaceuticals Co., Ltd\nParty B: "
        "Wrenfield Research Institution of Chinese Traditional Medicines\nLocation: Xi\u2019an\n"
    )
    assert [(s.term, s.name.text) for s in label_slots(institution)] == [
        ("Party A", "Quillon Jiali Pharmaceuticals Co., Ltd"),
        ("Party B", "Wrenfield Research Institution of Chinese Traditional Medicines"),
    ]
    # A label that is no party's part ("Signing Place") names no one.
    assert "Pengjiang" not in {s.name.text for s in label_slots(text)}


def test_a_contracts_title_naming_its_company_is_no_party_and_a_section_number_no_word() -> None:
    text = (
        "EXHIBIT 10.7\nSino-foreign Joint Venture Contract for\nQuillon New Dragon Asia Food Company Limited\nArticle 1 "
        "Introduction\n1.1 Wrenfield Longfeng Group Company (as \"Party A\") and Harbour General Limited\n(as \"Party "
        "B\"), based on the principal of equality, agreed to jointly establish the Quillon New\nDragon Asia Food Company "
        "Limited according to the law. The joint\nventure is regulated by this contract.\n"
    )
    assert party_name_problem("Sino-foreign Joint Venture Contract for Quillon New Dragon Asia Food Company Limited") == "document"
    assert party_name_problem("Contract Manufacturing Services Ltd.") is None
    assert _definitions(text)["Party A"] == "Wrenfield Longfeng Group Company"
    assert bound_party_names(text) == {"Wrenfield Longfeng Group Company", "Harbour General Limited"}


def test_the_preamble_subjects_words_before_is_between_stay_within_their_bound() -> None:
    def opens(filler_chars: int) -> bool:
        # The characters between "Agreement" and " is by and between" (no period, colon or line break).
        return has_agreement_preamble("This Agreement" + "," + "x" * (filler_chars - 1) + " is by and between Quillon Inc. and Wren LLC")

    # At most 200 such characters ...
    assert opens(200) is True
    # ... and no more: the scan per "this ... agreement" stays bounded.
    assert opens(201) is False


def test_a_names_own_and_is_looked_for_within_its_lookback() -> None:
    def defined(spaces: int) -> str | None:
        text = (
            "Dear Bill:\nWe are writing to set forth our agreement regarding compensation which you (\u201cClient\u201d) "
            "shall pay to Wren and" + " " * spaces + "House Public Relations (\u201cWren and House\u201d) for our services.\n"
        )
        return _definitions(text)["Wren and House"]

    # "Wren and " may start at most _OWN_AND_LOOKBACK (60) characters before the name read.
    assert defined(_OWN_AND_LOOKBACK - len("Wren and")) == "Wren and" + " " * (_OWN_AND_LOOKBACK - len("Wren and")) + "House Public Relations"
    assert defined(_OWN_AND_LOOKBACK - len("Wren and") + 1) == "House Public Relations"
