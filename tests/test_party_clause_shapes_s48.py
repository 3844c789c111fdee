"""Party clause and title shapes read from the misses of real contract openings (issue 9, stop 48:
the cases of the reading sets realZ, realE, realL and realJ that no CUAD contract shares a party
with). Names are invented and texts rewritten from the shapes. Each test but the guards fails on
the code before its rule.
"""

from __future__ import annotations

from ingest.agreements import find_title
from ingest.names import party_name_problem
from tests.helpers import bound_party_names, defined_terms


def test_a_caps_title_wrapped_after_its_first_word_opens_the_preamble() -> None:
    # Before, the run-in "AGREEMENT (...)" was no title and the cited "Purchase Agreement" won.
    text = (
        "Exhibit 10.1\nESCROW\nAGREEMENT (\"Agreement\") dated February 2, 2010 by and among HARBOUR FORTUNE\n"
        "INVESTMENT LTD, a British Virgin Islands corporation (\"Shareholder\"), QUILL ACQUISITION CORP.\n"
        "(\"Purchaser\"), and Kestrel Stock Transfer & Trust Company, as escrow agent (the \"Escrow Agent\").\n"
        "Shareholder and Purchaser are the parties to a Stock Purchase\nAgreement dated as of October 6, 2009 "
        "(the \"Purchase Agreement\").\n"
    )
    title = find_title(text)
    assert title is not None and (title.text, title.start, title.end) == ("ESCROW AGREEMENT", 13, 29)
    wrapped = "SECURITIES\nESCROW AGREEMENT, dated as of May 1, 2011 (\"Agreement\") by and among Quill Corp. and Roe LLC.\n"
    title = find_title(wrapped)
    assert title is not None and (title.text, title.start, title.end) == ("SECURITIES ESCROW AGREEMENT", 0, 27)


def test_guard_a_heading_line_or_a_legend_above_a_run_in_title_opens_no_title() -> None:
    heading = "ESCROW AGREEMENT\nTHIS AGREEMENT, dated as of May 1, 2011 by and among Quill Corp. and Roe LLC.\n"
    title = find_title(heading)
    assert title is not None and title.text == "ESCROW AGREEMENT"
    legend = "CONFIDENTIAL\nESCROW AGREEMENT, dated as of May 1, 2011 by and among Quill Corp. and Roe LLC.\n"
    title = find_title(legend)
    assert title is not None and title.text == "ESCROW AGREEMENT"
    company = "QUILL CORP.\nESCROW AGREEMENT, dated as of May 1, 2011 by and among Quill Corp. and Roe LLC.\n"
    title = find_title(company)
    assert title is not None and title.text == "ESCROW AGREEMENT"


def test_a_sentence_on_who_are_parties_to_another_agreement_ends_the_party_clause() -> None:
    # Before, the target company the recital names was bound as a third party.
    text = (
        "ESCROW AGREEMENT (\"Agreement\") dated February 2, 2010 by and among HARBOUR FORTUNE INVESTMENT LTD, a\n"
        "British Virgin Islands corporation (\"Shareholder\"), QUILL ACQUISITION CORP. (\"Purchaser\"), and\n"
        "Kestrel Stock Transfer & Trust Company, as escrow agent (the \"Escrow Agent\").\nShareholder,\n"
        "Purchaser and Asia Harbour & Resort Limited, a Hong Kong corporation and subsidiary of Shareholder\n"
        "(\"AHRL\"), are the parties to a Stock Purchase Agreement dated as of October 6, 2009 (the \"Purchase\n"
        "Agreement\").\n1. Escrow.\n"
    )
    assert bound_party_names(text) == {
        "HARBOUR FORTUNE INVESTMENT LTD", "QUILL ACQUISITION CORP.", "Kestrel Stock Transfer & Trust Company",
    }


def test_an_acronym_of_the_agreement_a_recital_names_defines_the_document() -> None:
    # Before, "B. Company and HARROW & NEPHEW, INC." was bound as a party under the term "EDA".
    text = (
        "EXCLUSIVE DISTRIBUTION AGREEMENT\nThis Exclusive Distribution Agreement (the \"Agreement\") is made by "
        "and between QUILLVENTUS LLC, a Delaware limited liability company (\"Distributor\") and KESTREL "
        "CORPORATION, a Japanese corporation (\"Company\").\n\nRECITALS\n\nA. Company has developed a product.\n\n"
        "B. Company and HARROW & NEPHEW, INC. entered into an Exclusive Distribution Agreement on January 1, 1999 "
        "(\"EDA\") and amended it.\n"
    )
    assert bound_party_names(text) == {"QUILLVENTUS LLC", "KESTREL CORPORATION"}
    assert defined_terms(text)["EDA"] is None


def test_a_role_word_and_its_and_before_a_name_are_no_part_of_the_defined_name() -> None:
    # Before, the antecedent of "Smart Start" was "Licensor and IA Quill Start, LLC".
    text = (
        "ADDENDUM TO EXCLUSIVE LICENSE AGREEMENT\nTHIS ADDENDUM (this \"Addendum\") dated April 24, 2018 by and "
        "between Harbour Technology Corporation, a Nevada corporation (the \"Licensee\"), and Kestrel, Inc., a "
        "Massachusetts corporation (the \"Kestrel\") amends the Exclusive License Agreement.\nRECITALS\n"
        "WHEREAS, Licensor intends to enter into an Asset Purchase Agreement between Licensor and IA Quill Start, "
        "LLC (\"Quill Start\"), pursuant to which Licensor shall sell assets.\n"
    )
    assert defined_terms(text)["Quill Start"] == "IA Quill Start, LLC"
    assert "Licensor and IA Quill Start, LLC" not in bound_party_names(text)


def test_one_capitalised_word_opening_a_sentences_prose_is_no_antecedent() -> None:
    # Before, "Prior" was bound as a party under the term "Company".
    text = (
        "EMPLOYMENT AGREEMENT\n\nTHIS EMPLOYMENT AGREEMENT (this \"Agreement\") dated May 1, 2011 by and between "
        "QuillBio Energy, Inc., a Colorado corporation (the \"Company\"), and Clayton Roe (the \"Executive\").\n\n"
        "RECITALS:\n\nA.\n\nPrior to the date hereof, the Executive was a director of QuillBio Energy, Inc., a "
        "Colorado corporation (\"Company\"); the Executive has participated in the business.\n"
    )
    assert bound_party_names(text) == {"QuillBio Energy, Inc.", "Clayton Roe"}
    assert "Prior" not in defined_terms(text).values()


def test_a_name_over_a_blank_line_and_its_of_address_with_the_definition_below_is_the_party() -> None:
    # Before, the places "Tel Aviv" and "Yavne" were bound and the lessor split at its "AND".
    text = (
        "Unprotected Lease Agreement\n\nEntered into and executed in Tel Aviv as of this 13th day of July 2023\n\n"
        "Between:\nQUILL-TECH BUSINESS AND ASSETS LTD (Company Reg. No. 51-152477-9)\n\n"
        "Of 24 Shai Agnon St. (apt. 28), Tel Aviv\n(Hereinafter: the \"Lessor\")\n\nThe first party;\n\n"
        "And between:\nHARROWOUND LTD, Company Reg. No. 512894940\n\nOf 42 HaYarkon St., Yavne\n"
        "(Hereinafter: the \"Lessee\")\n\nThe second party;\n\nWhereas:\nThe Lessor is the owner of a lot.\n"
    )
    assert bound_party_names(text) == {"QUILL-TECH BUSINESS AND ASSETS LTD", "HARROWOUND LTD"}
    assert defined_terms(text)["Lessor"] == "QUILL-TECH BUSINESS AND ASSETS LTD"
    assert defined_terms(text)["Lessee"] == "HARROWOUND LTD"


def test_a_document_label_is_no_party() -> None:
    # Before, the letter's label was bound as a borrower under a role row.
    text = (
        "Ref: 17801/202502011/SFGS\nCustomer Name: Man Quill Jewellery Limited (the \"Borrower\" or \"you\")\n"
        "PRIVATE & CONFIDENTIAL\nDate: 5 March 2025\nMan Quill Jewellery Limited\nKowloon Bay\nKowloon\n"
        "Dear Sirs,\nRe : Banking Facilities\nWe, Harbour Bank Limited (the \"Bank\"), are pleased to inform you "
        "that we are prepared to make available banking facilities to you subject to the terms set out in this "
        "Facility Letter.\n"
    )
    assert bound_party_names(text) == {"Man Quill Jewellery Limited", "Harbour Bank Limited"}
    assert party_name_problem("PRIVATE & CONFIDENTIAL") == "label"
    assert party_name_problem("CONFIDENTIAL MATERIAL DELETED") == "label"
    assert party_name_problem("Confidential Holdings") is None


def test_an_inline_recitals_heading_with_its_first_letter_closes_the_party_clause() -> None:
    # Before, a run-in "RECITALS: A." did not close the opening, and an institution a recital names
    # was bound as a third party.
    text = (
        "RESEARCH AND DEVELOPMENT AGREEMENT EFFECTIVE DATE: April 10, 1995 PARTIES: Quillon Biotechnology, Inc. "
        "Box 3004 Pine Brook, New Jersey, USA 07058 (\"QUILLON\") Harrow Diagnostic Systems, Inc. 614 McKinley "
        "Place NE Minneapolis, Minnesota, USA 55413 (\"HDS\") RECITALS: A. QUILLON has an exclusive license from "
        "the Kestrel Medical Center Hospitals, Inc., Quill University and Harbour College (the \"Institutions\") "
        "to make, use and sell products. B. HDS desires to support QUILLON.\n"
    )
    assert bound_party_names(text) == {"Quillon Biotechnology, Inc.", "Harrow Diagnostic Systems, Inc."}


def test_a_dash_and_a_six_digit_pin_close_an_address_not_a_name() -> None:
    # Before, "India - 110046" was the definition's antecedent and the consultant was lost.
    text = (
        "THIS AGREEMENT FOR services to develop an application (\"Agreement\") is concluded on the 22nd day of "
        "December 2015 between:\n\nM/S. Quillsoft Technologies Private Limited, a Company incorporated under the "
        "Companies Act, 1956, having its corporate office at 76A, J&K Block, Laxmi Nagar, Delhi - 110092 (India).\n\n"
        "(\"Company\" which expression shall include its successors)\n\n\nHarrowia Technologies Pvt. Ltd., "
        "(CIN: U72200DL2012PTC241478) having its registered\n\noffice at 58-61, Basement, Vashist Park, New Delhi, "
        "India - 110046 (\"Consultant\" which expression shall include its successors)\n\n"
        "Company & consultant are collectively referred to as \"Parties\".\n"
    )
    assert defined_terms(text)["Consultant"] == "Harrowia Technologies Pvt. Ltd."
    assert party_name_problem("India - 110046") == "address"


def test_a_the_appositive_describes_the_name_before_it() -> None:
    # Before, the antecedent of "Principal" was the term the appositive ends in, "Representative".
    text = (
        "SALES REPRESENTATIVE AGREEMENT\nThis is a Sales Representative Agreement (the \"Agreement\") effective "
        "January 1, 2006, between (i) QUILL LIFT, INC., a Delaware corporation (\"Manufacturer\"); and (ii) "
        "HARROW MARKETING, INC., a Florida corporation (\"Representative\"), and joined in by MICHAEL ROEFILL, "
        "the principal shareholder of the Representative (the \"Principal\").\nRecitals\nA. Manufacturer makes "
        "lifts.\n"
    )
    assert defined_terms(text)["Principal"] == "MICHAEL ROEFILL"
    assert bound_party_names(text) == {"QUILL LIFT, INC.", "HARROW MARKETING, INC.", "MICHAEL ROEFILL"}


def test_letter_spaced_between_and_and_open_the_party_slots() -> None:
    # Before, "B E T W E E N" and "N D" were read as the parties' names (the representation
    # clause's party is the name before its lead).
    text = (
        "MEMORANDUM OF AGREEMENT MADE AND ENTERED INTO THIS ELEVENTH DAY OF DECEMBER 1998.\n"
        "B E T W E E N: QUILL MERCHANDISING AND MANUFACTURING INC., a body politic and\ncorporate, duly "
        "incorporated and having its office at 10 Main Street, Montreal, herein acting\nthrough and represented "
        "by JANE ROE, its PRESIDENT,\nhereunto duly authorized as he so declares,\nHereinafter called the "
        "\"COMPANY\"\nOF THE FIRST PART\nA N D: THE HARROW CORPORATION CANADA INC., a body politic and\n"
        "corporate, duly incorporated and having its office at 20 Elm Street, Toronto, herein acting through\n"
        "and represented by JOHN ROE, its PRESIDENT, hereunto\nduly authorized as he so declares,\nHereinafter "
        "called the \"MANUFACTURER\"\nOF THE SECOND PART\nWHEREAS the Company makes mats;\n"
    )
    assert defined_terms(text)["COMPANY"] == "QUILL MERCHANDISING AND MANUFACTURING INC."
    assert defined_terms(text)["MANUFACTURER"] == "THE HARROW CORPORATION CANADA INC."


def test_a_shouted_name_with_and_inside_before_the_lists_own_and_is_one_name() -> None:
    # Before, the cover sheet's party was split at its own "AND" into a "person" and a company.
    text = (
        "COVER SHEET\nEXCLUSIVE LONG-TERM HOG PROCUREMENT AGREEMENT\nTHIS DOCUMENT IS A LEGAL CONTRACT BETWEEN\n"
        "QUILLAN\nHARROW SLAUGHTER AND PACKAGING PORK CO., LTD. AND YOU.\nREAD\nYOUR CONTRACT CAREFULLY.\n"
    )
    assert "QUILLAN\nHARROW SLAUGHTER AND PACKAGING PORK CO., LTD." in {
        n.text for n in _between(text)
    }
    # (The person-and-company split still reads an untagged shouted "person" before the "AND":
    # "PIERS ROE AND WILMINGTON TRUST (UK) LIMITED AND ..." is two parties in such a list.)
    listed = "BY AND AMONG JOHN ROE AND PIERS QUILL AND HARROW TRUST (UK) LIMITED AND HARROW TRUST CORPORATION\n"
    assert "JOHN ROE AND PIERS QUILL AND HARROW TRUST (UK) LIMITED" not in {n.text for n in _between(listed)}


def _between(text: str) -> list:
    from ingest.annotate import _between_names
    from ingest.definitions import preamble_windows

    return _between_names(text, preamble_windows(text))


def test_two_adjectives_joined_by_and_inside_a_name_open_no_party() -> None:
    # Before, "Beijing Quill Scientific" and "Technological Development Corporation" were two names.
    text = (
        "COOPERATION AGREEMENT THIS COOPERATION AGREEMENT made as of March 1, 2000 AMONG Harrow Machinery "
        "Group Institute No. 2 Telecommunication Station, of Beijing (\"Party A\") AND Beijing Quill Scientific "
        "and Technological Development Corporation, a company incorporated under the laws of the PRC (\"Party "
        "B\") AND Beijing Kestrel Technologies Co., Ltd., a wholly-owned foreign enterprise (\"Party C\") "
        "WHEREAS: A. Party A is a division.\n"
    )
    assert defined_terms(text)["Party B"] == "Beijing Quill Scientific and Technological Development Corporation"
    assert "Beijing Quill Scientific and Technological Development Corporation" in bound_party_names(text)


def test_two_adjectives_are_a_coordinated_pair_and_a_noun_before_and_is_none() -> None:
    from ingest.definitions import coordinated_words

    assert coordinated_words("Financial", "Economic")
    assert not coordinated_words("Galacticomm", "Horst")
    assert not coordinated_words("Holdings", "Beta")
    # (A noun in "-al" is none: "Acme Capital and Dynamic Partners LLC" may be two parties.)
    assert not coordinated_words("Capital", "Dynamic")


def test_an_address_tail_alone_in_its_paragraph_goes_on_from_the_party_above() -> None:
    # Before, the city that opens the address's last paragraph ("Surrey") was the antecedent.
    text = (
        "CONSULTING AGREEMENT\n\nTHIS AGREEMENT made and dated for reference the 1st day of April 2005.\n\n"
        "BETWEEN:  QUILL SHOW MARKETING COMPANY LTD \n  11359 - 162nd Street \n \nSurrey, B.C. \n  Canada V4N 4P5 \n"
        "  (the \"Company\") \n\n    OF THE FIRST PART\n\nAND:  HARROW 101 INCORPORATED \n\n425 Southborough Drive, \n"
        "  West Vancouver,  \n  British Columbia \n\nCanada V7S 1M3 \n\n(the \"Consultant\") \n\nOF THE SECOND PART\n\n"
        "WHEREAS\n\nA.\nThe Company wishes to develop a franchise model.\n"
    )
    assert defined_terms(text)["Company"] == "QUILL SHOW MARKETING COMPANY LTD"
    assert bound_party_names(text) == {"QUILL SHOW MARKETING COMPANY LTD", "HARROW 101 INCORPORATED"}


def test_a_term_naming_a_jurisdiction_defines_no_party() -> None:
    # Before, "PRC" was a party's alias: the place's clause read back to the last company, whose
    # inner initials spell the term.
    text = (
        "TECHNOLOGY\nLICENSE AGREEMENT\nThis\nTechnology License Agreement (\"Agreement\") is entered into on June "
        "24, 2005,\n(the \"Effective Date\") among the following parties:\nPARTY\nA: TAIYUAN QUILL BUSINESS "
        "CONSULTING CO., LTD.\nLEGAL\nADDRESS: 426 Xuefu Street, Taiyuan, Shanxi Province, China\nPARTY\nB: SHANXI "
        "PEARL RESOURCES\nCO., LTD.\nLEGAL\nADDRESS: 426 Xuefu Street, Taiyuan, Shanxi Province, China\nWHEREAS,\n"
        "Party A\nis a wholly foreign owned enterprise registered in The People's Republic\nof\nChina (the \"PRC\") "
        "under the laws of the PRC;\n"
    )
    assert bound_party_names(text) == {"TAIYUAN QUILL BUSINESS CONSULTING CO., LTD.", "SHANXI PEARL RESOURCES CO., LTD."}
    from ingest.definitions import find_definitions

    assert [d.is_party_alias for d in find_definitions(text) if d.term == "PRC"] == [False]


def test_guard_a_company_named_after_a_place_keeps_the_place_as_its_term() -> None:
    text = (
        "AGREEMENT AND PLAN OF MERGER\nThis Agreement and Plan of Merger (this \"Plan\") is made by and among "
        "QUILL PACKAGING, INC., a Delaware corporation (\"Quill\"), NEW JERSEY ACQUISITION, INC., a Delaware "
        "corporation (\"New Jersey\"), and NEW JERSEY MERGER SUB, INC., a Delaware corporation (\"Merger Sub\").\n"
        "RECITALS\n"
    )
    assert bound_party_names(text) == {
        "QUILL PACKAGING, INC.", "NEW JERSEY ACQUISITION, INC.", "NEW JERSEY MERGER SUB, INC."
    }


def test_guard_a_partys_own_line_ending_in_a_postcode_is_no_address_tail() -> None:
    text = (
        "SERVICE AGREEMENT\n\nTHIS AGREEMENT is dated 4 January 2021\n\nPARTIES\n\n(1)   QUILL GENOMICS LIMITED "
        "incorporated and registered in England and Wales with company number 10234567 whose registered office "
        "is at 3 Hills Road, Cambridge CB2 1PH (Company).\n\n(2)   FIONA MARGARET ROE of 17 Mill Lane, Great "
        "Shelford, Cambridge CB22 5LD (Employee).\n\nAGREED TERMS\n"
    )
    assert bound_party_names(text) == {"QUILL GENOMICS LIMITED", "FIONA MARGARET ROE"}
