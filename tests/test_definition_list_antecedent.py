"""Definitions after a party list or a description (issue 9, stop 31). A role defined right after
the last company of a party list, "among Marlow Korea Inc., Lotus Korea Inc. and Quartz Bank Ltd.
(the "Lender")", defines Quartz Bank Ltd. as the Lender; before, the definition went back to the
clause's first name, and "the Lender" became an alias of Marlow Korea Inc. A term made from a
parent's name after "a subsidiary of" is the parent's, no alias of the party. A plural term may
name the whole list and is left alone. Names are invented."""

from __future__ import annotations

import pytest

from ingest.definitions import find_definitions
from tests.helpers import bound_party_aliases


@pytest.mark.parametrize(
    "clause",
    [
        "among Marlow Korea Inc., Lotus Korea Inc. and Quartz Bank Ltd.",
        "between Marlow Korea Inc. and Quartz Bank Ltd.",
    ],
)
def test_a_role_after_the_last_listed_company_is_that_companys(clause: str) -> None:
    text = f"LOAN AGREEMENT\n\nThis Loan Agreement is made {clause} (the \"Lender\").\n\n1. Loan.\n"
    lender = next(d for d in find_definitions(text) if d.term == "Lender")
    start = text.index("Quartz")
    assert (lender.name.text, lender.name.start, lender.name.end) == ("Quartz Bank Ltd.", start, start + 16)
    aliases = bound_party_aliases(text)
    assert aliases["Quartz Bank Ltd."] == ["Lender"]
    assert aliases["Marlow Korea Inc."] == []



def test_a_term_made_from_a_parents_name_is_no_alias_of_the_party() -> None:
    # Stop 31: ("Cedar") after "a wholly owned subsidiary of Cedar Holdings Corp." went back to
    # the clause's first name, so Quartz Labs LLC was aliased "Cedar", and a question about an
    # agreement "between Harbor Light Inc. and Cedar" would have found this contract.
    text = (
        "SUPPLY AGREEMENT\n\nThis Agreement is made between Harbor Light Inc. (\"Harbor\") and Quartz Labs "
        "LLC, a wholly owned subsidiary of Cedar Holdings Corp. (\"Cedar\").\n\n1. Supply\n"
    )
    cedar = next(d for d in find_definitions(text) if d.term == "Cedar")
    assert (cedar.name.text, cedar.name.start) == ("Cedar Holdings Corp.", text.index("Cedar Holdings"))
    assert bound_party_aliases(text) == {"Harbor Light Inc.": ["Harbor"], "Quartz Labs LLC": []}
