"""Party precision and name bounds (issue 9, falseparty): a description after a party's name is
no part of it, a restated name is a definition's antecedent, a quoted token opens a name, and the
places, parents and prose the readers must not bind. Invented names, the real spaCy pipeline;
each case asserts the exact names bound.
"""

from __future__ import annotations

import pytest

from ingest.definitions import find_definitions
from ingest.names import NameSpan, before_street_address, name_at
from tests.helpers import bound_party_names

NAME_AT: list[tuple[str, str]] = [
    # An article after the comma opens a description, even shouted.
    ("HARBOUR ROAD, A REGISTERED LIMITED PARTNERSHIP\n(PARTNERSHIP NO. 12)", "HARBOUR ROAD"),
    ("Wrenfield Row, An Ontario Limited Partnership,", "Wrenfield Row"),
    # ... but an article before the legal form alone is the form as written.
    ("FIRST KESTREL BANK, A F.S.B., a savings bank", "FIRST KESTREL BANK, A F.S.B."),
    # ", and" is a list's last joint, never a comma inside one name.
    ("Landlord, and QUILLON\nVENTURES, LLC, a California", "Landlord"),
    # A government body named for its portfolios, with its state after "of the".
    ("Ministry of Trade, Industry and Energy of the Republic of Westland (\"MTIE\")", "Ministry of Trade, Industry and Energy of the Republic of Westland"),
    ("Department of Health of the State of Westland, a", "Department of Health of the State of Westland"),
    # At most five portfolios before the last "and" (the bound): a sixth reads no body.
    ("Ministry of Alpha, Beta, Gamma, Delta, Epsilon and Zeta of the Republic of Westland (", "Ministry of Alpha, Beta, Gamma, Delta, Epsilon and Zeta of the Republic of Westland"),
    ("Ministry of Alpha, Beta, Gamma, Delta, Epsilon, Eta and Zeta of the Republic of Westland (", "Ministry of Alpha"),
    # ... but "of the" before no state or institution joins nothing.
    ("Department of Energy of the one part", "Department of Energy"),
    # The comma reading still holds a name's own commas.
    ("Stratton, Cheeseman & Walsh-Nevada, Inc. (", "Stratton, Cheeseman & Walsh-Nevada, Inc."),
]


@pytest.mark.parametrize(("text", "expected"), NAME_AT)
def test_name_at_stops_before_a_description(text: str, expected: str) -> None:
    found = name_at(text, 0, len(text))
    assert found is not None and found.text == expected


STREET: list[tuple[str, str]] = [
    ("Dr. Anton Kesselring Westheimer Strasse 77 70469 Westheim", "Dr. Anton Kesselring"),
    ("Jane Quill Wrenweg 8", "Jane Quill"),
    ("Jane Quill Harbour Street 12", "Jane Quill"),
    # A street that opens the run, or a number inside a name, is no address after a name.
    ("Main Street 12", "Main Street 12"),
    ("Harbour 5 Holdings", "Harbour 5 Holdings"),
]


@pytest.mark.parametrize(("text", "expected"), STREET)
def test_a_street_and_its_number_end_a_persons_name(text: str, expected: str) -> None:
    assert before_street_address(NameSpan(text, 0, len(text))).text == expected


def _antecedent(text: str, term: str) -> str | None:
    definition = next(d for d in find_definitions(text) if d.term == term)
    return definition.name.text if definition.name is not None else None


def test_a_restated_name_is_the_definitions_antecedent_not_the_pair() -> None:
    text = (
        "EXHIBIT 10 RELEASE AGREEMENT, DATED MAY 2, 1996, BETWEEN THE REGISTRANT AND JOHN QUILLAN, "
        "FORMERLY CHIEF OFFICER 2 RELEASE AGREEMENT 1. I, JOHN QUILLAN (\"Employee\"), accept the end of my "
        "employment with Wrenfield Partners, Inc. (\"Wrenfield\") effective May 2, 1996."
    )
    assert _antecedent(text, "Employee") == "JOHN QUILLAN"
    # A pair whose second name is not restated keeps the clause's reading.
    plain = "This Agreement is made between Harbour Mills Inc. and Kestrel Labs LLC (\"Kestrel\")."
    assert _antecedent(plain, "Kestrel") == "Kestrel Labs LLC"


def test_a_quoted_token_before_the_first_word_is_part_of_the_name() -> None:
    text = (
        "AGREEMENT ENTERED BETWEEN \"QUILLA Y SERVICIOS S.A. DE C.V.\" represented in this act by Mr. Juan "
        "Perez acting as legal representative, hereinafter \"QYS\" AND \"QX\" TECHNOLOGIES represented in this "
        "act by Mr. Ana Gomez acting as President, hereinafter \"QX\" in accordance with the following recitals."
    )
    assert _antecedent(text, "QX") == '"QX" TECHNOLOGIES'
    # A defined term in its parenthesis before a word opens nothing.
    other = "This Agreement is made between Harbour Mills Inc. (\"HM\") Northgate Widgets LLC (\"NW\")."
    assert _antecedent(other, "NW") == "Northgate Widgets LLC"


def test_the_name_after_on_the_one_hand_and_is_the_next_definitions_antecedent() -> None:
    text = (
        "RETAINER AGREEMENT\n\nThis agreement (\"Agreement\") is concluded between the Ministry of Trade, "
        "Industry and Energy of the Republic of Westland (\"MTIE\" or \"you\"), Harbourtown, Westland, on "
        "the one hand, and Quill & Wren LLP (the \"Firm\" or \"we\"), on the other.\n\n1. Scope.\n"
    )
    assert _antecedent(text, "MTIE") == "Ministry of Trade, Industry and Energy of the Republic of Westland"
    assert _antecedent(text, "Firm") == "Quill & Wren LLP"
    assert bound_party_names(text) == {
        "Ministry of Trade, Industry and Energy of the Republic of Westland", "Quill & Wren LLP",
    }


SHAPES: dict[str, tuple[str, set[str]]] = {
    "shouted_partnership_description": (
        "LEASE AGREEMENT\n\nMade and signed on the 2nd day of May 2002\n\nBETWEEN:\n\nHARBOUR ROAD, A "
        "REGISTERED LIMITED PARTNERSHIP\n(PARTNERSHIP NO. 12345)\nBy its Directors Messrs. Avi Quill and Dan "
        "Wren\n\nwhich is hereinafter called \"The Lessor\"\n\nOF THE ONE PART\n\n-AND-\n\nKESTREL IMAGING LTD. "
        "(COMPANY NO. 5555)\nwhich is hereinafter called \"The Lessee\"\n\nOF THE OTHER PART\n\nWHEREAS the "
        "lessor owns the land.\n",
        {"HARBOUR ROAD", "KESTREL IMAGING LTD."},
    ),
    "role_then_and_then_the_next_party": (
        "OFFICE LEASE\n\nPARTIES\n\nTHIS LEASE, made this 15th day of May, 1997, between QUILLON\nPARTNERS, LLC, "
        "a California limited liability company, Landlord, and WRENFIELD\nVENTURES, LLC, a California limited "
        "liability company, Tenant.\n\n1. Premises.\n",
        {"QUILLON PARTNERS, LLC", "WRENFIELD VENTURES, LLC"},
    ),
    # A person's name runs on into the street address without a comma; the street ends it.
    "person_then_street_address": (
        "MANAGING DIRECTOR SERVICE AGREEMENT between Quillwerk Biotech GmbH, Harbourstr. 30, 85354 Westheim, "
        "Germany, (the \"Company\"), here represented by its shareholder Quillwerk Biotech, Inc. (the "
        "\"Shareholder\"), here acting through the left signer Jane Wrenfield, on one side, and Dr. Anton "
        "Kesselring Westheimer Strasse 77 70469 Westheim (the \"Managing Director\") on the other side.\n"
        "Preamble\nBy resolution of the shareholders the Managing Director was appointed.\n",
        {"Quillwerk Biotech GmbH", "Dr. Anton Kesselring"},
    ),
    # A line opened by "Of" is the party's address; the party fills the line above it.
    "address_line_under_the_name": (
        "[Translation]\nCollaboration Agreement\nDrawn up and signed on 3 March 2020\nBETWEEN:\n|Kestrel systems "
        "Land Ltd.\n|Of the Harbour Industrial Park, Westport (Hereinafter \"Kestrel\")\n|As the First Party;\n"
        "AND BETWEEN:\n|Wrenfield Airborne Systems Ltd. (Registration 512345678)\n|Of 4 Quill Str. Harbour "
        "Bay 3900001 (Hereinafter \"Wrenfield\")\n|As the Second Party;\nIt has been agreed between the "
        "Parties as follows:\n|1.\n|Preamble\n",
        {"Kestrel systems Land Ltd.", "Wrenfield Airborne Systems Ltd."},
    ),
    # A sentence after the one that named both parties talks about a third company.
    "a_later_sentence_defines_no_party": (
        "EXECUTIVE EMPLOYMENT AGREEMENT\n\nTHIS AGREEMENT is made as of May 1, 2008, between Harbour Wren "
        "Group, Inc., a Nevada corporation (the \"Company\"), and Jane Quillan (the \"Executive\"). This "
        "Agreement becomes effective (the \"Effective Date\") upon the Company closing its merger with Harbour "
        "Wren, Inc. (\"HWI\").\n\nINTRODUCTION\n\nThe parties agree as follows.\n",
        {"Harbour Wren Group, Inc.", "Jane Quillan"},
    ),
    # ... while a later sentence that opens a party clause of its own still names a party.
    "a_later_sentence_with_its_own_party_clause": (
        "GUARANTEED SUPPLY AGREEMENT\n\nTHIS AGREEMENT is made as of May 1, 2008, between Harbour Wren Group, "
        "Inc. (the \"Buyer\"), and Quill Mills LLC (the \"Seller\"). Kestrel Holdings Corp. (the "
        "\"Guarantor\") is a party hereto as guarantor.\n\nWHEREAS the Seller makes goods.\n",
        {"Harbour Wren Group, Inc.", "Quill Mills LLC", "Kestrel Holdings Corp."},
    ),
    # A letter's shouted sentence after the clause's line-end period is no party clause.
    "a_shouted_sentence_after_the_clause": (
        "March 9, 2011\nHarbourline, Inc.\nAttn: Jane Quill\n12 Wren Plaza, Suite 5\nWestport, VA 20147\n"
        "Dear Ms. Quill:\nAs you asked, the Firm will advise Harbourline, Inc. "
        "(\"Client\") on its listing.\nThis Letter-Agreement (the \"Agreement\") sets out how the Client "
        "and the Firm will work together on that advice (the \"Work\").\nTHE FIRM TAKES ON THIS WORK "
        "UNDER THE CONDITIONS THAT FOLLOW:\n"
        "1. Fees.\n",
        {"Harbourline, Inc."},
    ),
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_party_shape_binds_exactly_its_parties(shape: str) -> None:
    text, expected = SHAPES[shape]
    assert {" ".join(n.split()) for n in bound_party_names(text)} == expected
