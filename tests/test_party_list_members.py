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

