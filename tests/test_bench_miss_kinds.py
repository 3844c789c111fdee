"""The benches' aggregate miss kinds (stop 22): ``bench/ner_eval.py`` says how each missed party
name the contract writes was missed, and how each title was missed, without naming a case, so
the report split can be read in aggregate. Invented names only."""

from __future__ import annotations

import pytest

from bench.ner_eval import written_miss_kind
from ingest.normalize import normalise_org


@pytest.mark.parametrize(
    ("name", "recorded", "bound", "kind"),
    [
        ("Quorvane Widgets, Inc.", False, set(), "no agreement record"),
        ("Quorvane Widgets, Inc.", True, set(), "nothing bound"),
        # "Quorvane" bound for "Quorvane Widgets", and the other way round.
        ("Quorvane Widgets, Inc.", True, {normalise_org("Quorvane"), normalise_org("Tallisk Foods LLC")}, "read at another boundary"),
        ("Quorvane, Inc.", True, {normalise_org("Quorvane Widgets Group")}, "read at another boundary"),
        ("Quorvane Widgets, Inc.", True, {normalise_org("Widgets Direct Ltd")}, "words shared in part"),
        ("Quorvane Widgets, Inc.", True, {normalise_org("Tallisk Foods LLC")}, "not read"),
    ],
)
def test_a_missed_written_name_is_counted_by_how_it_was_missed(name: str, recorded: bool, bound: set[str], kind: str) -> None:
    assert written_miss_kind(name, recorded, bound) == kind
