"""Party precision and name bounds (issue 9, falseparty): a description after a party's name is
no part of it, a restated name is a definition's antecedent, a quoted token opens a name, and the
places, parents and prose the readers must not bind. Invented names, the real spaCy pipeline;
each case asserts the exact names bound.
"""

from __future__ import annotations

import pytest

from ingest.definitions import find_definitions
from ingest.names import name_at
from tests.helpers import bound_party_names

NAME_AT: list[tuple[str, str]] = [
    # An article after the comma opens a description, even shouted.
    ("HARBOUR ROAD, A REGISTERED LIMITED PARTNERSHIP\n(PARTNERSHIP NO. 12)", "HARBOUR ROAD"),
    ("Wrenfield Row, An Ontario Limited Partnership,", "Wrenfield Row"),
    # ... but an article before the legal form alone is the form as written.
    ("FIRST KESTREL BANK, A F.S.B., a savings bank", "FIRST KESTREL BANK, A F.S.B."),
    # ", and" is a list's last joint, never a comma inside one name.
    ("Landlord, and QUILLON\nVENTURES, LLC, a California", "Landlord"),
    # The comma reading still holds a name's own commas.
    ("Stratton, Cheeseman & Walsh-Nevada, Inc. (", "Stratton, Cheeseman & Walsh-Nevada, Inc."),
]


@pytest.mark.parametrize(("text", "expected"), NAME_AT)
def test_name_at_stops_before_a_description(text: str, expected: str) -> None:
    found = name_at(text, 0, len(text))
    assert found is not None and found.text == expected


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
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_party_shape_binds_exactly_its_parties(shape: str) -> None:
    text, expected = SHAPES[shape]
    assert {" ".join(n.split()) for n in bound_party_names(text)} == expected
