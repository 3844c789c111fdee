"""Members of a comma-separated party list that carry their own defined terms (issue 9, party
lists): 'by and among A Co., Ltd. ("A"), B Inc. ("B"), C Inc. and D LLC ("D")'. Before, the
list reader stopped at the first member's defined term, and with two defined parties already
known an undefined member with a legal form in the middle of the list (C Inc.) was lost. Names
are invented."""

from __future__ import annotations

import pytest

from tests.helpers import bound_party_names

OPENING = "Joint Business Agreement\nThis Joint Business Agreement is made as of March 31, 2017, by and among "
TAIL = ".\nRECITALS\nA. The parties wish to cooperate.\n"


@pytest.mark.parametrize(
    "members",
    [
        "Quartz Thailand Co., Ltd. (\u201cQuartz\u201d), Marlow Korea Inc. (\u201cMarlow\u201d), Lotus Korea Inc. and Birch Holdings LLC (\u201cBirch\u201d)",
        "Quartz Thailand Co., Ltd. (the \u201cQuartz\u201d), Marlow Korea Inc. (\u201cMarlow\u201d), Lotus Korea Inc., a Delaware corporation, and Birch Holdings LLC (\u201cBirch\u201d)",
    ],
)
def test_an_undefined_member_between_defined_ones_is_a_party(members: str) -> None:
    assert bound_party_names(OPENING + members + TAIL) == {
        "Quartz Thailand Co., Ltd.", "Marlow Korea Inc.", "Lotus Korea Inc.", "Birch Holdings LLC",
    }



# Persons closing a list before its group definition (stop 31): the name reader reads the last
# two, joined by "and", as one name ("Mary Jones and Robert Lee"); before, that name was no
# person's shape, the list lost both, and only a definition's antecedent bound one of them.
PURCHASE = (
    "STOCK PURCHASE AGREEMENT\n\nThis Stock Purchase Agreement is entered into as of June 3, 2014 "
    "by and among Harbor Light Inc., a Nevada corporation (the \"Company\"), "
)


@pytest.mark.parametrize(
    ("sellers", "persons"),
    [
        ("John Smith, Mary Jones and Robert Lee (each a \"Seller\")", {"John Smith", "Mary Jones", "Robert Lee"}),
        ("and Mary Jones and Robert Lee (together, the \"Sellers\")", {"Mary Jones", "Robert Lee"}),
    ],
)
def test_persons_closing_a_group_list_are_each_a_party(sellers: str, persons: set[str]) -> None:
    assert bound_party_names(PURCHASE + sellers + ".\n\nRECITALS\n") == {"Harbor Light Inc.", *persons}


def test_a_firm_named_for_two_persons_stays_one_name() -> None:
    # One "X and Y" name that no model tags as two persons keeps its words together.
    text = (
        "LICENSE AGREEMENT\n\nThis Agreement is made between Harbor Light Inc. (\"Licensor\") and "
        "Smith and Jones Consulting (together, the \"Parties\").\n\n1. Grant\n"
    )
    assert bound_party_names(text) == {"Harbor Light Inc.", "Smith and Jones Consulting"}
