"""The party readers' bounds, each tested at the bound: the representation clause's step back
(two clauses found, a third not), its look-back for a lead (300 characters), where the note
reader looks for a promise (the first 6,000 characters) and where the English preamble's
registered-office clause is looked for (the first 15,000). Invented names only."""

from __future__ import annotations

import pytest

from ingest.annotate import _MAKER_LOOKBACK, _PROMISE_SCAN_CHARS, _REGISTERED_SCAN_CHARS, _promise_names, _registered_office_names
from ingest.definitions import _REPRESENTATION_HOPS, find_definitions
from ingest.names import _REPRESENTATION_LOOKBACK, representation_lead

# A party represented by a company that is itself represented: each "...:\n" opens a clause of
# its own, so reaching the party named first takes one step back per representative.
REPRESENTED = {
    1: "ACME S.A., acting by:\n",
    2: "ACME S.A., represented by:\nBETA INC., acting by:\n",
    3: "ACME S.A., represented by:\nBETA INC., acting through:\nGAMMA LLC, acting by:\n",
}


@pytest.mark.parametrize(("steps", "found"), [(1, True), (2, True), (3, False)])
def test_the_representation_clause_steps_back_at_most_two_clauses(steps: int, found: bool) -> None:
    assert _REPRESENTATION_HOPS == 2
    text = f'between {REPRESENTED[steps]}Jane Roe (the "Company"), and Delta LLC (the "Buyer").'
    names = {d.term: (d.name.text if d.name else None) for d in find_definitions(text)}
    # Past the bound the definition names no one: never the representative it stands after.
    assert names == {"Company": "ACME S.A." if found else None, "Buyer": "Delta LLC"}


@pytest.mark.parametrize(("distance", "found"), [(300, True), (301, False)])
def test_a_representation_lead_is_looked_for_exactly_300_characters_back(distance: int, found: bool) -> None:
    assert _REPRESENTATION_LOOKBACK == 300
    head = "ACME GMBH, vertreten durch "
    text = head + "x" * (distance - len(head) + len("ACME GMBH, ") - 1) + " Jane Roe"
    jane = text.index("Jane")
    assert jane - text.index("vertreten") == distance
    lead = representation_lead(text, jane)
    assert (lead.group() if lead else None) == ("vertreten durch" if found else None)


@pytest.mark.parametrize(("end", "read"), [(6_000, True), (6_001, False)])
def test_a_promise_is_read_when_it_ends_by_the_scan_bound(end: int, read: bool) -> None:
    # The promise ("promises to pay ") must end within the first 6,000 characters.
    assert _PROMISE_SCAN_CHARS == 6_000
    lead = "FOR VALUE RECEIVED, Pellingham Pumps, Inc. "
    promise = "promises to pay "
    text = "x" * (end - len(lead) - len(promise) - 1) + "\n" + lead + promise + "Gorse Lane Capital, Ltd. the sum."
    assert text.index(promise) + len(promise) == end
    found = [(n.text, n.start) for n in _promise_names(text)]
    expected = [("Pellingham Pumps, Inc.", text.index("Pellingham")), ("Gorse Lane Capital, Ltd.", text.index("Gorse"))]
    assert found == (expected if read else [])


@pytest.mark.parametrize(("end", "read"), [(15_000, True), (15_001, False)])
def test_a_registered_office_clause_is_read_when_it_ends_by_the_scan_bound(end: int, read: bool) -> None:
    assert _REGISTERED_SCAN_CHARS == 15_000
    clause = "ORRIN TOOLS LIMITED (company no 1234567) whose registered office"
    text = "x" * (end - len(clause) - 1) + "\n" + clause + " is at 1 Mill Lane."
    assert text.index(clause) + len(clause) == end
    assert [(n.text, n.start) for n in _registered_office_names(text)] == ([("ORRIN TOOLS LIMITED", end - len(clause))] if read else [])


@pytest.mark.parametrize(("distance", "maker"), [(600, True), (601, False)])
def test_a_makers_lead_is_looked_for_exactly_600_characters_back(distance: int, maker: bool) -> None:
    # Past the bound the lead is unseen and the maker's sentence starts before the look-back:
    # no maker is read (never a name cut at the bound, "OR VALUE RECEIVED, Pellingham ...").
    assert _MAKER_LOOKBACK == 600
    lead = "FOR VALUE RECEIVED, Pellingham Pumps, Inc., a Delaware corporation with offices at "
    text = "Note 1.\n" + lead + "x" * (distance - len(lead) - 1) + " promises to pay Gorse Lane Capital, Ltd. the sum."
    assert text.index("promises") - text.index("FOR VALUE") == distance
    found = [(n.text, n.start) for n in _promise_names(text)]
    payee = ("Gorse Lane Capital, Ltd.", text.index("Gorse"))
    assert found == ([("Pellingham Pumps, Inc.", text.index("Pellingham")), payee] if maker else [payee])
