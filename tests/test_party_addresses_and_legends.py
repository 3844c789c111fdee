"""Party and title readers, stop 24 (issue 9): shapes read from a fresh set of real openings
(realJ, then a reading set), each written here with invented names. An address closing one party
never runs into the next party's name over "and"; a state code read as a legal form before a ZIP
code is an address, not a company; a name's own lower-case "and" ("Import and Export") is not a
list joiner; "OF THE FIRST-PART" (hyphenated) closes a party's clause like "OF THE FIRST PART"; a
confidential-treatment legend run into the heading's line is not part of the title. From realL
(also a reading set): "At" opens a name in a party slot, a row labelled by its party's initials
names that party, a degree after a person's name is written with it, and an addressee's "&" is no
clause joiner. The real spaCy pipeline; each case asserts the exact names bound or the exact title
and span."""

from __future__ import annotations

from ingest.agreements import find_title
from ingest.annotate import _LEGEND_WINDOW, _in_legend, annotate_document
from ingest.definitions import find_definitions
from ingest.names import (
    _AMPERSAND_WORD_WINDOW,
    _post_nominal,
    after_non_party_lead,
    ampersand_inside_name,
    name_at,
    party_name_forms,
    party_name_problem,
)
from ingest.party_layout import _initials_label, label_slots
from tests.helpers import bound_party_names


def test_an_address_with_a_zip_code_does_not_run_into_the_next_party() -> None:
    text = (
        "MANUFACTURING AGREEMENT\n\nTHIS MANUFACTURING AGREEMENT dated September 1, 1997, is made by and among "
        "KESTREL POLYMERS, INC., a Florida corporation having a place of business at 1000 Oak Road, Lake Mary, "
        "Florida 32746 and KESTREL INTERNATIONAL, INC., a Tennessee corporation having a place of business at "
        "42 East Road, Memphis, Tennessee 38118 on the one hand (collectively the \"Buyer\") and QUILL, INC., a "
        "Florida corporation (hereafter referred to as \"Quill\") having a place of business of 1000 Oak Road, "
        "Lake Mary, Florida on the other hand.\n\nWHEREAS, Buyer owns technology.\n"
    )
    assert bound_party_names(text) == {"KESTREL POLYMERS, INC.", "KESTREL INTERNATIONAL, INC.", "QUILL, INC."}
    # The comma reading stops at the address; a comma name without one is still read whole.
    start = text.index("Lake Mary, Florida 32746")
    assert name_at(text, start, len(text)).text == "Lake Mary"
    firm = "Stratton, Cheeseman & Walsh-Nevada, Inc. and others"
    assert name_at(firm, 0, len(firm)).text == "Stratton, Cheeseman & Walsh-Nevada, Inc."


def test_a_state_code_before_a_zip_code_is_no_legal_form() -> None:
    text = (
        "DEVELOPMENT AGREEMENT\n\nThis development agreement is made as of May 17, 2001, by and between "
        "Quillon Tech, a Nevada corporation, with its principal place of business at 681 Edison Way, Reno NV "
        "89502 (\"QT\"), and Marlow Hats, Inc., with its principal place of business at 508 Island Ave. Reno NV "
        "89501 (\"MARLOW\"), each a \"Party\".\n\nRECITALS\n"
    )
    assert name_at(text, text.index("Reno NV 89502"), len(text)) is None
    # "N.V." written as a company's form, with no postal code after it, is still one.
    company = "Kestrel Holding NV, a Dutch company"
    assert name_at(company, 0, len(company)).text == "Kestrel Holding NV"
    assert bound_party_names(text) == {"Quillon Tech", "Marlow Hats, Inc."}


def test_a_names_own_and_is_not_a_list_joiner() -> None:
    text = (
        "DISTRIBUTION AGREEMENT\n\nThis Agreement is made and entered into as of the Effective Date by and "
        "between Oriel Quill Sciences, Inc., a California corporation (\"Company\"), and Tianjin Harbour Import "
        "and Export Company, Ltd, a Chinese limited liability company having a place of business at Unit H, "
        "Tianjin, China (\"Distributor\").\n\nWHEREAS Company has developed technology.\n"
    )
    definitions = {d.term: d.name.text for d in find_definitions(text)}
    assert definitions["Distributor"] == "Tianjin Harbour Import and Export Company, Ltd"
    assert bound_party_names(text) == {"Oriel Quill Sciences, Inc.", "Tianjin Harbour Import and Export Company, Ltd"}


def test_two_parties_joined_by_and_after_a_comma_stay_two() -> None:
    # Only a name reaching a legal form over its own "and" is read whole: two named companies
    # joined by "and" are two parties.
    text = (
        "SUPPLY AGREEMENT\n\nThis Agreement is made by and between Quorrel Labs, Inc. (\"Quorrel\"), and Wrenfield "
        "Systems Ltd. and Harbourline Foods, Inc. (together, \"Buyer\").\n\nRECITALS\n"
    )
    definitions = {d.term: d.name.text for d in find_definitions(text)}
    assert definitions["Buyer"] == "Harbourline Foods, Inc."


def test_of_the_first_part_hyphenated_names_no_party() -> None:
    text = (
        "Supply Agreement\n\nTHIS AGREEMENT made this 1st day of March, 1997. BETWEEN: 771234 ONTARIO LIMITED, a "
        "corporation duly incorporated under the laws of the Province of Ontario (hereinafter called the \"Seller\") "
        "OF THE FIRST-PART - and - QUILLON BRANDS, INC., a corporation having its registered office in Roseville, "
        "California, (hereinafter called the \"Buyer\") OF THE SECOND PART WHEREAS the Seller makes ice pops.\n"
    )
    assert bound_party_names(text) == {"771234 ONTARIO LIMITED", "QUILLON BRANDS, INC."}
    definitions = {d.term: d.name.text for d in find_definitions(text)}
    assert definitions["Buyer"] == "QUILLON BRANDS, INC."


def test_a_legend_run_into_the_heading_line_is_not_title_words() -> None:
    text = (
        "CERTAIN INFORMATION IN THIS DOCUMENT HAS BEEN OMITTED AND FILED SEPARATELY WITH THE SECURITIES AND "
        "EXCHANGE COMMISSION. CONFIDENTIAL TREATMENT HAS BEEN REQUESTED WITH RESPECT TO THE OMITTED PORTION "
        "SUPPLY AGREEMENT\nExhibit 10.2\nThis Supply Agreement (the \"Agreement\") is entered into as of October 13, "
        "2014 by and between Quillon Research Corporation (\"QRC\") and Harbour Nut Company, LLC (\"Supplier\").\n"
        "RECITALS\n"
    )
    title = find_title(text)
    assert title is not None and title.text == "SUPPLY AGREEMENT"
    assert text[title.start : title.end] == "SUPPLY AGREEMENT" and title.start == text.index("SUPPLY AGREEMENT")
    short = "TREATMENT REQUESTED COLLABORATIVE RESEARCH AGREEMENT\n\nThis Agreement is made between Quillon Inc and Wren Labs Inc.\n"
    assert find_title(short).text == "COLLABORATIVE RESEARCH AGREEMENT"
    annotations = annotate_document(text, [(0, len(text))], doc_id="doc", revision="rev")
    agreement = next(s for s in annotations.subjects if s.type == "agreement")
    assert agreement.name == "SUPPLY AGREEMENT"


def test_a_function_word_opens_a_name_in_the_party_slot() -> None:
    text = (
        "IP SERVICES AGREEMENT\n\nThis IP Access Agreement (the \"AGREEMENT\") is made and entered into as of "
        "September 15, 2000 by and between At Harbour Corporation, a Delaware corporation, with principal offices "
        "located at 450 Broadway Street, Redwood City, California 94063, by and through its @Work division, and "
        "Quillon Video Conferencing, Inc., a Delaware corporation (\"PARTNER\") (collectively, the \"PARTIES\").\n\n"
        "WHEREAS, @Work provides connectivity services;\n"
    )
    assert bound_party_names(text) == {"At Harbour Corporation", "Quillon Video Conferencing, Inc."}
    # Outside a slot, and without a legal form closing it, "At" still opens prose.
    assert name_at("At Harbour Corporation", 0, 22) is None


def test_an_addressees_ampersand_is_no_clause_joiner() -> None:
    # ``bench/party_shapes.py``'s neg_care_of shape: the firm after "c/o" is no party, nor is its
    # last words ("Lang LLP") read after its "&".
    text = (
        "CONSULTING AGREEMENT\n\nThis Agreement is made between Arbor Quill Holdings Inc., c/o Pruitt & Lang LLP, "
        "55 Water Street, New York, NY 10041 (\"Company\"), and Marcus Bellamy (\"Consultant\").\n\n1. Services.\n"
    )
    assert bound_party_names(text) == {"Arbor Quill Holdings Inc.", "Marcus Bellamy"}
    assert after_non_party_lead(text, text.index("Lang LLP"))
    # A party clause joined by "&" still names both parties.
    joined = (
        "SUPPLY AGREEMENT\n\nThis Agreement is made between Arbor Quill Holdings Inc. & Wrenfield Foods LLC.\n\n"
        "1. Supply.\n"
    )
    assert not after_non_party_lead(joined, joined.index("Wrenfield"))


def test_a_party_rows_label_may_be_its_initials() -> None:
    text = (
        "SOFTWARE INSTALLATION AGREEMENT\nTHIS SOFTWARE INSTALLATION AGREEMENT is made as of November 1, 1999, by and "
        "between:\nQW: QUILL-WRENFIELD COMPANY\n100 Main Street\nWestport, CA 90000\nand\nCOMPANY: HARBOURLINE, INC.\n"
        "200 Oak Street\nWestport, CA 90000\nQW and Harbourline, Inc. hereby agree as follows:\n1. DEFINITIONS\n"
    )
    assert bound_party_names(text) == {"QUILL-WRENFIELD COMPANY", "HARBOURLINE, INC."}
    assert _initials_label("IBM", "INTERNATIONAL BUSINESS MACHINES CORPORATION")
    assert not _initials_label("TEL", "QUILL-WRENFIELD COMPANY")
    assert not _initials_label("QW", "Quill Wrenfield")  # no legal form, no organisation head


def test_a_degree_after_a_persons_name_is_written_with_it() -> None:
    text = (
        "PATENT LICENSE AGREEMENT\n\nThis Patent License Agreement is made by and between Quillon Vision, Inc., a "
        "Delaware corporation (\"LICENSEE\"), and Robert M. Wrenfield, Jr., M.D., an individual (\"PATENT OWNER\").\n\n"
        "RECITALS\n"
    )
    assert bound_party_names(text) == {"Quillon Vision, Inc.", "Robert M. Wrenfield, Jr., M.D."}
    assert party_name_forms("Robert M. Wrenfield, Jr., M.D.") == ["Robert M. Wrenfield, Jr., M.D.", "Robert M. Wrenfield, Jr."]
    # "MD" alone is a state code, not read as a degree.
    assert _post_nominal().match(" MD 21201") is None
    assert _post_nominal().match(", M.D., an individual").group() == ", M.D."


def test_an_ampersand_inside_an_address_joins_no_party() -> None:
    # From realN (a reading set): the firm's name in its own street address.
    text = (
        "PATENT LICENSE AGREEMENT\n\nThis is a PATENT LICENSE AGREEMENT, dated October 2, 2001, between The Quillon & "
        "Wren Company, a corporation of the State of Ohio having a principal place of business at One Quillon & Wren "
        "Plaza, Cincinnati, OH 45202, U.S.A. (hereinafter known as \"Licensor\"), and Harbour Brands International, "
        "Inc., a corporation of the State of Virginia (hereinafter known as \"Licensee\").\n\nWHEREAS, the parties agree.\n"
    )
    assert bound_party_names(text) == {"The Quillon & Wren Company", "Harbour Brands International, Inc."}


def test_an_amendment_numbered_with_a_hash_keeps_its_number_in_the_title() -> None:
    text = (
        "AMENDMENT #1 TO MANUFACTURING AGREEMENT BY AND BETWEEN QUILLON OPTICAL MEDIA, INC. AND WRENCOM, INC. DATED "
        "JANUARY 1, 1995\n\nRECITALS: A. Wrencom had not fulfilled its obligations.\n"
    )
    title = find_title(text)
    assert title is not None and title.text == "AMENDMENT #1 TO MANUFACTURING AGREEMENT"
    assert (title.start, title.end) == (0, len("AMENDMENT #1 TO MANUFACTURING AGREEMENT"))
    assert bound_party_names(text) == {"QUILLON OPTICAL MEDIA, INC.", "WRENCOM, INC."}


def test_a_remark_on_a_partys_other_name_before_its_definition() -> None:
    # From realO (a reading set).
    text = (
        "RESTATED NONCOMPETITION AGREEMENT\n\nTHIS RESTATED NONCOMPETITION AGREEMENT (\"Agreement\") is made as of "
        "March 1, 1998, by and between QUILL HARBOUR CORPORATION, a Delaware corporation (\"Quill\"), and, subject to "
        "Section 5.14 hereof, WRENFIELD INTERNATIONAL, INC., a Delaware corporation (to be renamed Wrenfield Services, "
        "Inc.) (\"WSI\").\n\nWHEREAS, the parties agree.\n"
    )
    definitions = {d.term: d.name.text if d.name else None for d in find_definitions(text)}
    assert definitions["WSI"] == "WRENFIELD INTERNATIONAL, INC."
    assert bound_party_names(text) == {"QUILL HARBOUR CORPORATION", "WRENFIELD INTERNATIONAL, INC."}


def test_a_label_row_the_preamble_points_at_names_a_party() -> None:
    text = (
        "Exhibit 10.3\n\n                 REMARKETER/INTEGRATOR AGREEMENT\n\nRemarketer/Integrator:       Wrenfield "
        "Systems, Inc.\n\nThis Remarketer/Integrator Agreement (this \"Agreement\") between Quill Marketing\nL.P. "
        "(\"Quill\") and the entity named above (\"Remarketer/Integrator\") is effective as of the date signed by "
        "Quill.\n\n1.       Relationship\n"
    )
    slots = label_slots(text)
    assert [(s.term, s.name.text) for s in slots] == [("Remarketer/Integrator", "Wrenfield Systems, Inc.")]
    assert bound_party_names(text) == {"Quill Marketing L.P.", "Wrenfield Systems, Inc."}
    # A label the preamble never points at names no one ("Reseller/Agent:" is no role).
    other = text.replace("the entity named above (\"Remarketer/Integrator\")", "Wrenfield")
    assert label_slots(other) == []


def test_a_persons_address_after_of_is_no_part_of_the_name() -> None:
    # From realP (a reading set).
    text = (
        "SHARE SALE AGREEMENT\n\nTHIS AGREEMENT is made on 21st day of October, 1998 BETWEEN:\n\n(1) ROBERT ALBERT "
        "WRENFIELD of Blocks C-D, 2nd Floor, Quill Industrial Building, Hong Kong (the \"Vendor\"); and\n\n(2) HARBOUR "
        "INVESTMENT HOLDINGS LIMITED, a company incorporated in the British Virgin Islands (the \"Purchaser\").\n\n"
        "WHEREAS:\n"
    )
    start = text.index("ROBERT")
    assert name_at(text, start, len(text)).text == "ROBERT ALBERT WRENFIELD"
    assert {n.casefold() for n in bound_party_names(text)} == {"robert albert wrenfield", "harbour investment holdings limited"}
    # "of" and a street number end the name too; "Bank of the West" is untouched.
    numbered = "Jane Quill of 14 Elm Road, Westport"
    assert name_at(numbered, 0, len(numbered)).text == "Jane Quill"
    bank = "Bank of the West, a California banking corporation"
    assert name_at(bank, 0, len(bank)).text == "Bank of the West"


def test_a_title_with_its_party_keyword_run_into_a_name_is_no_party() -> None:
    assert party_name_problem("DISTRIBUTION COOPERATION CONTRACT Between JOYMAIN INTERNATIONAL DEVELOPMENT GROUP, INC.") == "clause"
    assert party_name_problem("JOYMAIN INTERNATIONAL DEVELOPMENT GROUP, INC.") is None


def test_gmbh_and_co_kg_without_its_period_is_one_legal_form() -> None:
    text = (
        "Distributor Agreement\n\nbetween\nQuillon GmbH & Co KG,\na company based in Senden, Germany (\"QUILLON\")\n\nand\n"
        "Wrenfield Biomedical, Inc., a Delaware corporation (\"WRENFIELD\").\n\n1. Appointment\n"
    )
    assert bound_party_names(text) == {"Quillon GmbH & Co KG", "Wrenfield Biomedical, Inc."}


def test_a_confidential_treatment_legend_names_no_party() -> None:
    legend = (
        "Distributor Agreement\nExhibit 10.5\nTHE COMPANY HAS REQUESTED AN ORDER FROM THE SECURITIES AND EXCHANGE "
        "COMMISSION (THE \u201cCOMMISSION\u201d) PURSUANT TO RULE 24B-2 OF THE SECURITIES EXCHANGE ACT OF 1934, GRANTING "
        "CONFIDENTIAL TREATMENT TO SELECTED PORTIONS IN THIS DOCUMENT. OMITTED PORTIONS ARE INDICATED WITH \u201c*****\u201d.\n"
    )
    clause = (
        "between\nQuillon Medical, Inc., a Delaware corporation (\"QUILLON\")\nand\nWrenfield Biomedical, Inc., a "
        "Delaware corporation (\"WRENFIELD\").\n\n1. Appointment\n"
    )
    assert bound_party_names(legend + clause) == {"Quillon Medical, Inc.", "Wrenfield Biomedical, Inc."}
    # A legend run into the preamble with no sentence end keeps the preamble's parties.
    run_in = (
        "SUPPLY AGREEMENT\nCONFIDENTIAL TREATMENT HAS BEEN REQUESTED WITH RESPECT TO THE OMITTED PORTION\nThis Supply "
        "Agreement is entered into as of October 13, 2014 by and between Quillon Research Corporation (\"QRC\") and "
        "Harbour Nut Company, LLC (\"Supplier\").\nRECITALS\n"
    )
    assert bound_party_names(run_in) == {"Quillon Research Corporation", "Harbour Nut Company, LLC"}


def test_a_legend_above_the_preamble_leaves_its_parties_alone() -> None:
    text = (
        "[*] = Certain information on this page has been omitted and filed separately with the Securities and Exchange "
        "Commission. Confidential treatment has been requested with respect to the omitted portions.\n\nAGREEMENT\n\n"
        "Effective as of February 1, 2002 (\u201cEffective Date\u201d), THE BOARD OF TRUSTEES OF THE QUILLON JUNIOR "
        "UNIVERSITY, a body having corporate powers under the laws of the State of California (\u201cQUILLON\u201d), and "
        "WRENVAX, INC. a Delaware corporation (\u201cLICENSEE\u201d), agree as follows.\n\n1. Definitions\n"
    )
    assert bound_party_names(text) == {"THE BOARD OF TRUSTEES OF THE QUILLON JUNIOR UNIVERSITY", "WRENVAX, INC."}


def test_a_legend_is_read_no_further_than_its_window() -> None:
    # The legend's sentence is read at most _LEGEND_WINDOW (400) characters before a definition:
    # a legend opening exactly there still holds the definition; one character further, it does not.
    opening = "CONFIDENTIAL TREATMENT "
    filler = "x " * ((_LEGEND_WINDOW - len(opening)) // 2)
    at_bound = opening + filler + '(THE "COMMISSION")'
    name = at_bound.index('THE "')
    assert name == _LEGEND_WINDOW
    assert _in_legend(at_bound, name) is True
    past_bound = opening + filler + ' (THE "COMMISSION")'
    assert _in_legend(past_bound, past_bound.index('THE "')) is False


def test_the_word_before_an_ampersand_is_looked_for_within_its_window() -> None:
    def inside(word: str) -> bool:
        text = f"and {word} & Gamble Plaza, Cincinnati, Ohio"
        ampersand = text.index(" & ")
        return ampersand_inside_name(text, ampersand, ampersand + 3, len(text))

    assert inside("Procter") is True
    assert inside("P" + "r" * (_AMPERSAND_WORD_WINDOW - 1)) is True
    # A word longer than the window is not seen, so the "&" is not taken for a name's own.
    assert inside("P" + "r" * _AMPERSAND_WORD_WINDOW) is False


def test_a_year_after_of_stays_in_the_name() -> None:
    trust = "The Quill Family Trust of 1998, a trust"
    assert name_at(trust, 0, len(trust)).text == "The Quill Family Trust of 1998"
    # A street number followed by its street across a comma still opens an address.
    person = "Jane Quill of 14, Elm Road, Westport"
    assert name_at(person, 0, len(person)).text == "Jane Quill"
