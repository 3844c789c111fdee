"""Persons and addresses in party clauses drafted outside the US (issue 9, personsD): South Asian
person descriptions by a relative ("S/o", "son of") and a clause that numbers its parties
"(1) ... (2) ... and (3) ..."; an Israeli block's care-of advocate ("C\\o Adv.") and its
signatory ("Through its signatory:"), who are no parties; Japanese address units ("-ku", "-shi")
that are no names. Invented names throughout; the real spaCy pipeline binds the parties.
"""

from __future__ import annotations

from ingest.names import lowercase_words, name_at, party_name_problem, representation_lead
from ingest.party_layout import layout_names
from tests.test_party_shapes_general import _bound_spans


NUMBERED_FAMILY = (
    "AGREEMENT TO LEASE\nThis Agreement to Lease is made this 4th day of May, 2011 BETWEEN (1) MR. RAVI MEHRA "
    "son of (Late) Shri Karan Mehra (2) MR. SUNIL MEHRA son of Shri Ravi Mehra, (3) MR. ANIL MEHRA son of "
    "Shri Ravi Mehra and (4) MR. AMIT MEHRA son of Shri Ravi Mehra all residing at 4 Mall Road, Shimla "
    "(hereinafter collectively referred to as the 'Lessor', which expression shall include their heirs and "
    "successors) of the FIRST PART AND M/S ORVELLE DATA SYSTEMS PRIVATE LIMITED, a company incorporated under "
    "the Companies Act, 1956 (hereinafter referred to as the 'Lessee') of the SECOND PART.\n"
)
SLASH_KIN = (
    "DEED OF LEASE\nThis deed is made BETWEEN MR. ARUN PATIL S/o Shri Vasant Patil, aged about 61 years, residing "
    "at 8 Lake Road, Nagpur (hereinafter the 'Lessor') AND NIRMAL TEXWARE PRIVATE LIMITED, a company "
    "registered under the Companies Act, 1956 (the 'Lessee').\n"
)
CARE_OF_BLOCK = (
    "SHARE PURCHASE AGREEMENT\nMade and entered into on the 3rd of May 2021\nBetween\nHold Fast Ltd., PCN 514422871\n"
    "Through its signatory: Noam Keret, I.D. no. 034455667\nOf 12 Hashita St., Herzliya\n(Hereinafter: \"Buyer\")\n"
    "The 1st party;\nAnd\nOrly Tamar Ben-Ezra, I.D. no. 204455668\nC\\o adv. Gil Sharon and\\or Dana Levi\n"
    "Of 7 Dekel St., Haifa\n(Hereinafter: \"Seller\")\nThe 2nd party;\nAnd\nT.R Dekel Ventures Ltd., PCN 515566771\n"
    "Through its signatory: Orly Tamar Ben-Ezra, I.D. no. 204455668\nC\\o adv. Gil Sharon and\\or Dana Levi\n"
    "Of 7 Dekel St., Haifa\n(Hereinafter: \"Company\")\nThe 3rd party;\nWhereas the Seller holds shares;\n"
)
TOKYO_ADDRESS = (
    "LICENSE AGREEMENT\nThis Agreement is made by and between Kabushiki Kaisha Hoshizora Denki, a Japanese "
    "corporation with offices at 3-4-5 Shin-Yokohama, Kohoku-ku, Yokohama-shi, Kanagawa-ken, Japan "
    "(\"Hoshizora\"), and Velmora Biologics Inc., a Delaware corporation (\"Velmora\").\n"
)


def test_a_numbered_clause_binds_every_numbered_person_and_the_company_after_them() -> None:
    bound = _bound_spans(NUMBERED_FAMILY)
    # The company after "... heirs and successors) of the FIRST PART AND": the "and" inside the
    # definition's parenthesis is the definition's, the clause joins at the capitals.
    assert set(bound) == {
        "MR. RAVI MEHRA", "MR. SUNIL MEHRA", "MR. ANIL MEHRA", "MR. AMIT MEHRA",
        "M/S ORVELLE DATA SYSTEMS PRIVATE LIMITED",
    }
    # Each person's binding starts at the person's own name.
    for person in ("MR. RAVI MEHRA", "MR. SUNIL MEHRA", "MR. ANIL MEHRA", "MR. AMIT MEHRA"):
        assert bound[person][0] == NUMBERED_FAMILY.index(person)


def test_a_numbered_run_stops_at_the_first_number_without_a_name() -> None:
    text = (
        "THIS AGREEMENT is made BETWEEN (1) Ravi Mehra, residing at 4 Mall Road, Shimla, (2) the persons named "
        "in the Schedule and (3) Omega Capital Private Limited (the 'Lessee').\n"
    )
    bound = _bound_spans(text)
    assert "Ravi Mehra" in bound and "Omega Capital Private Limited" in bound
    assert not any("persons" in name for name in bound)


def test_a_slash_kinship_word_ends_the_persons_name() -> None:
    start = SLASH_KIN.index("MR. ARUN")
    name = name_at(SLASH_KIN, start, len(SLASH_KIN))
    assert name is not None and (name.text, name.start) == ("MR. ARUN PATIL", start)
    assert set(_bound_spans(SLASH_KIN)) == {"MR. ARUN PATIL", "NIRMAL TEXWARE PRIVATE LIMITED"}


def test_a_care_of_advocate_and_a_signatory_are_no_parties() -> None:
    bound = _bound_spans(CARE_OF_BLOCK)
    # Each entry opens with its name and number on a line of its own: the person too.
    assert set(bound) == {"Hold Fast Ltd.", "Orly Tamar Ben-Ezra", "T.R Dekel Ventures Ltd."}
    assert bound["Orly Tamar Ben-Ezra"][0] == CARE_OF_BLOCK.index("Orly Tamar Ben-Ezra")
    assert representation_lead(CARE_OF_BLOCK, CARE_OF_BLOCK.index("Noam Keret")) is not None


def test_japanese_address_units_are_addresses() -> None:
    assert party_name_problem("Kohoku-ku") == "address"
    assert party_name_problem("Yokohama-shi") == "address"
    assert party_name_problem("Kanagawa-ken") == "address"
    # A hyphenated word that is no address unit stays a name; the ending needs a place before it.
    assert party_name_problem("Kenkyu-sho Labs") is None
    assert party_name_problem("Coca-Cola Bottlers") is None
    assert set(_bound_spans(TOKYO_ADDRESS)) == {"Kabushiki Kaisha Hoshizora Denki", "Velmora Biologics Inc."}


def test_a_building_name_without_a_legal_form_is_an_address() -> None:
    assert party_name_problem("Wing Fat Building") == "address"
    assert party_name_problem("Harbour View Mansion") == "address"
    assert party_name_problem("Wing Fat Building Ltd.") is None
    assert party_name_problem("Building Materials Holding") is None


def test_an_entry_line_needs_its_number_and_nothing_else() -> None:
    text = (
        "AGREEMENT\nBetween\nRina Galor, I.D. no. 022113344\nOf 3 Ort St., Holon\n(Hereinafter: \"Lender\")\nAnd\n"
        "Yarden Shemesh, a resident of Holon, I.D. no. 033224455\nOf 5 Ort St., Holon\n(Hereinafter: \"Borrower\")\n"
        "Whereas the Lender lends;\n"
    )
    laid_out = [(n.name.text, n.shape) for n in layout_names(text, lowercase_words(text))]
    # The second line holds more than a number after the name: no entry of this shape.
    assert laid_out == [("Rina Galor", "item")]


LABELLED_TARGET = (
    "Equity Pledge Agreement\n\nThis Equity Pledge Agreement is signed by the following parties in Hangzhou on "
    "May 2, 2019:\n\nParty A (Pledgee): Qinghe Lanting Consulting Co., Ltd.\n\nAddress:\n\nParty B (Pledgor): "
    "Jiaxing Morning Investment Co., Ltd.\n\nAddress:\n\nTarget Company: Hangzhou Beiyuan Data Technology Co., Ltd. "
    "(hereinafter referred to as \"Target Company\")\n\nAddress:\n\nWhereas:\n1. The Pledgee is a company.\n"
)


def test_a_label_its_definition_repeats_names_the_party_after_its_colon() -> None:
    bound = _bound_spans(LABELLED_TARGET)
    assert set(bound) == {
        "Qinghe Lanting Consulting Co., Ltd.",
        "Jiaxing Morning Investment Co., Ltd.",
        "Hangzhou Beiyuan Data Technology Co., Ltd.",
    }
    assert bound["Hangzhou Beiyuan Data Technology Co., Ltd."][0] == LABELLED_TARGET.index("Hangzhou Beiyuan")


def test_a_label_repeated_by_its_definition_without_a_value_is_no_party() -> None:
    # The label's value left blank, as a form not filled in.
    text = LABELLED_TARGET.replace("Target Company: Hangzhou Beiyuan Data Technology Co., Ltd. ", "Target Company: ")
    assert set(_bound_spans(text)) == {"Qinghe Lanting Consulting Co., Ltd.", "Jiaxing Morning Investment Co., Ltd."}


NUMBERED_AFTER_AND = (
    "Investment Agreement\n\nEntered into and signed on Monday, March 3, 2008\n\nBetween\n\nOrvanit Sensors Ltd.\n"
    "of 5 Hamelacha St., Karmiel\n(hereinafter: the \"Company\")\n\nAnd:\n\n1.\nGideon Harel\n\n2.\nRina Katz\n\n"
    "(hereinafter: the \"Founders\")\n\nWhereas\nthe Company develops sensors;\n"
)


def test_a_numbered_group_after_and_binds_each_person_on_its_own_line() -> None:
    bound = _bound_spans(NUMBERED_AFTER_AND)
    assert set(bound) == {"Orvanit Sensors Ltd.", "Gideon Harel", "Rina Katz"}
    assert bound["Gideon Harel"][0] == NUMBERED_AFTER_AND.index("Gideon Harel")


def test_the_next_number_is_looked_for_within_its_gap_and_the_run_has_a_limit() -> None:
    from ingest.annotate import _NUMBERED_SLOT_GAP, _NUMBERED_SLOTS_LIMIT, _numbered_slots

    def clause(gap: int) -> str:
        # The filler (lower case, no number) fills the gap up to the next number's marker "(2) ".
        head = "BETWEEN (1) Ravi Mehra"
        marker = " (2) "
        filler = "x" * (gap - len(marker))
        return head + "," + filler[1:] + marker + "Sunil Mehra, residing at Shimla."

    at_bound = clause(_NUMBERED_SLOT_GAP)
    past_bound = clause(_NUMBERED_SLOT_GAP + 1)
    first_end = len("BETWEEN (1) Ravi Mehra")
    assert [n.text for n in _numbered_slots(at_bound, "(1) ", first_end, len(at_bound))] == ["Sunil Mehra"]
    assert _numbered_slots(past_bound, "(1) ", first_end, len(past_bound)) == []
    many = "BETWEEN (1) Ravi Mehra" + "".join(
        f", ({n}) {first} Mehra" for n, first in enumerate(
            ["Anil", "Sunil", "Amit", "Vikas", "Rohan", "Kiran", "Arjun", "Dev", "Nikhil", "Om", "Pran", "Raj", "Sagar", "Tarun"],
            start=2,
        )
    ) + "."
    read = _numbered_slots(many, "(1) ", first_end, len(many))
    assert len(read) == _NUMBERED_SLOTS_LIMIT and read[0].text == "Anil Mehra"


def test_a_short_name_defined_as_itself_is_still_the_party() -> None:
    text = (
        "LICENSE AGREEMENT\nThis License Agreement is made between Velmoracorp (\"Velmoracorp\"), a Dutch company, "
        "and Tarnwick Medical, LLC, a Delaware limited liability company (\"Tarnwick\").\n"
    )
    assert set(_bound_spans(text)) == {"Velmoracorp", "Tarnwick Medical, LLC"}


def test_after_a_numbered_run_an_ampersand_joins_no_party() -> None:
    text = (
        "CONTENT LICENCE AGREEMENT\n\nTHIS AGREEMENT is made the 3rd day of May 2004.\n\nBETWEEN\n\n(1)  NORTHERN "
        "INFORMATION BUREAU OF WESTLAND PRESS, the organisation within Westland Press responsible for news, with "
        "offices at 5 Market Road, Westport (\"NIB\"); and\n\n(2)  HARBOUR DATA NETWORK LIMITED, a company "
        "incorporated in Hong Kong whose registered office is at Room 12, 4 Queen Road, Hong Kong (\"HDN\"),\n\n"
        "     (collectively referred to as \"PARTIES\"; individually, a \"PARTY\").\n\nSource: HARBOUR SPORTS & MEDIA "
        "LTD, F-1, 2/21/2007\n\nWHEREAS:\n\n(A) NIB owns content.\n"
    )
    assert set(_bound_spans(text)) == {"NORTHERN INFORMATION BUREAU OF WESTLAND PRESS", "HARBOUR DATA NETWORK LIMITED"}
