"""Party clause and title shapes of stop 53 (issue 9): a role defined after the last of two
parties when a description stands between, and run-in instrument headings that name their
subject. Names are invented. Each test but the guards fails on the code before its rule.
"""

from __future__ import annotations

from ingest.definitions import find_definitions
from tests.helpers import bound_party_aliases


def _antecedents(text: str) -> list[tuple[str, str]]:
    return [(d.term, d.name.text) for d in find_definitions(text) if d.name is not None]


def test_a_role_after_the_second_partys_description_is_the_second_partys() -> None:
    # Before, "Buyer" went to the first name of the clause, Quorvant Systems, Inc.
    text = 'This Agreement is made by and between Quorvant Systems, Inc. and Pellridge Inc., a Texas corporation ("Buyer").\n'
    assert _antecedents(text) == [("Buyer", "Pellridge Inc.")]
    assert bound_party_aliases(text) == {"Quorvant Systems, Inc.": [], "Pellridge Inc.": ["Buyer"]}


def test_a_role_after_the_second_partys_description_after_a_closing_comma_and() -> None:
    text = (
        "This Assignment is entered into this 1st day of August, 1991, by and between Quorvant Systems, Inc., a"
        " Delaware corporation, and E. Pellridge and Company, a Texas Corporation, having its principal place of"
        ' business at 5 Main Street, Austin, Texas 78731 (hereinafter "Assignee").\n'
    )
    assert _antecedents(text) == [("Assignee", "E. Pellridge and Company")]


def test_a_definition_of_a_group_after_the_last_party_is_no_role_of_that_party() -> None:
    # Guard: "each a Party" names both, so the rule leaves the definition to the reading before it.
    text = (
        'This Agreement is made by and between Quorvant Systems, Inc. and Pellridge Inc., each a Texas corporation'
        ' (each a "Party").\n'
    )
    assert "Pellridge Inc." not in {name for _, name in _antecedents(text)}
    # Guard: a role right after a party with its own role before stays each party's.
    both = (
        'This Agreement is made by and between Quorvant Systems, Inc., a Delaware corporation ("Assignor"), and'
        ' Pellridge Inc., a Texas corporation ("Assignee").\n'
    )
    assert _antecedents(both) == [("Assignor", "Quorvant Systems, Inc."), ("Assignee", "Pellridge Inc.")]
