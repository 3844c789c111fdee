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


@pytest.mark.parametrize(
    ("preamble", "members"),
    [
        (
            "This Guaranty is made by Harbor Holdings, Inc. and Cove Partners LLC (each a \"Guarantor\" "
            "and together the \"Guarantors\") in favor of First Coastal Bank, N.A. (the \"Lender\").",
            ["Cove Partners LLC", "Harbor Holdings, Inc."],
        ),
        (
            "This Agreement is made among Orchid Labs, Inc. (the \"Company\"), John Smith, Mary Jones and "
            "Robert Lee (each a \"Seller\" and collectively the \"Sellers\"), and First Coastal Bank, N.A. "
            "(the \"Lender\").",
            ["John Smith", "Mary Jones", "Robert Lee"],
        ),
    ],
)
def test_a_term_each_member_of_a_list_carries_is_no_alias_of_one_member(preamble: str, members: list[str]) -> None:
    # Before, "(each a "Guarantor")" made "Guarantor" an alias of the list member nearest to it
    # (or the first), as if that member alone were the guarantor. Every member stays a party.
    aliases = bound_party_aliases(f"GUARANTY\n\n{preamble}\n\n1. Terms.\n")
    assert all(aliases[member] == [] for member in members), aliases
    assert aliases["First Coastal Bank, N.A."] == ["Lender"]


def test_a_term_each_carries_after_one_name_is_that_names() -> None:
    # Guard: "(each a ...)" after a single name defines it ("Si Chen" alone on her side).
    text = (
        "PLEDGE AGREEMENT\n\nThis Pledge Agreement is made between Kestrel Bank Ltd. (the \"Pledgee\") and "
        "Sun Harbor Trading LLC (each a \"Pledgor\").\n\n1. Pledge.\n"
    )
    assert bound_party_aliases(text)["Sun Harbor Trading LLC"] == ["Pledgor"]
