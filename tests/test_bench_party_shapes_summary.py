"""The party-shapes bench's aggregate lines (``bench/party_shapes.py --file F --summary``): a clean
held-out set is scored without its per-case lines, so the summary must say where its misses are.
Invented texts and names only."""

import json
from pathlib import Path

import pytest

from bench.party_shapes import main, probe_case_recorded

_BOUND = (
    "SUPPLY AGREEMENT\n\nThis Supply Agreement is made on 1 May 2020 by and between Quorvane "
    'Widgets, Inc., a Delaware corporation ("Seller"), and Tallisk Foods LLC, an Ohio limited '
    'liability company ("Buyer").\n'
)
# No heading, no party clause: the annotation records no agreement, so nothing can be bound.
_UNRECORDED = "Minutes of a meeting held on 3 June 2019. Present: Orvel Branke and Sima Dottery.\n"


def _write(tmp_path: Path) -> Path:
    cases = [
        {"id": "t1-bound", "text": _BOUND, "parties": ["Quorvane Widgets, Inc.", "Tallisk Foods LLC"],
         "not_parties": [], "title": "SUPPLY AGREEMENT"},
        # Tallisk Foods is bound but not listed here: one false party, one miss beside a bound party.
        {"id": "t2-half", "text": _BOUND, "parties": ["Quorvane Widgets, Inc.", "Pellor Mining Corp."],
         "not_parties": [], "title": "SUPPLY AGREEMENT"},
        {"id": "t3-none", "text": _UNRECORDED, "parties": ["Orvel Branke", "Sima Dottery"],
         "not_parties": [], "title": None},
    ]
    path = tmp_path / "set.json"
    path.write_text(json.dumps({"about": "invented", "cases": cases}), encoding="utf-8")
    return path


def test_a_text_without_an_agreement_record_is_reported_as_such(tmp_path: Path) -> None:
    from bench.party_shapes import load_fresh

    cases = load_fresh(_write(tmp_path))
    assert probe_case_recorded("t1-bound", cases) == ([], [], True)
    assert probe_case_recorded("t3-none", cases) == (["Orvel Branke", "Sima Dottery"], [], False)


def test_the_summary_counts_misses_by_where_they_are(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--file", str(_write(tmp_path)), "--summary"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines == [
        "1/3 shapes bound exactly; party recall 3/6; false parties 1",
        "missed parties: 2 in 1 cases with no agreement record, 0 in 0 cases with a record but no party "
        "bound, 1 beside bound parties",
        "missed parties by stage: 2 no review, 1 no candidate, 0 scored below 0.3, 0 scored below the add "
        "threshold, 0 scored above it",
        "missed beside bound parties: 0 read at another boundary, 0 words shared in part, 1 not read",
        "titles 2/2 exact",
        "title misses: 0 no title, 0 punctuation only, 0 words missing, 0 words added, 0 a generic title, 0 another title",
    ]


@pytest.mark.parametrize(
    ("want", "got", "kind"),
    [
        ("SUPPLY AGREEMENT", None, "no title"),
        ("Supply Agreement - Schedule A", "Supply Agreement – Schedule A", "punctuation only"),
        ("TERM LOAN AND REVOLVING CREDIT FACILITIES", "REVOLVING CREDIT FACILITIES", "words missing"),
        ("ASSET MANAGEMENT AGREEMENT", "ZARVIX ASSET MANAGEMENT AGREEMENT", "words added"),
        ("Factory Leasing Agreement", "Agreement", "a generic title"),
        ("OFFICE LEASE", "Sublease Agreement", "another title"),
    ],
)
def test_a_title_miss_is_counted_by_how_it_differs(want: str, got: str | None, kind: str) -> None:
    from bench.party_shapes import title_miss_kind

    assert title_miss_kind(want, got) == kind


def test_a_missed_name_the_review_saw_is_counted_by_its_score() -> None:
    from bench.party_shapes import miss_stages

    # A carrier named after the party clause is a review candidate the shipped weights score
    # between 0.3 and the add threshold; a name the text never holds is no candidate at all.
    text = _BOUND + "\nThe Seller shall ship through Harnwell Freight Corp. to the Buyer.\n"
    assert miss_stages(text, ["Harnwell Freight Corp.", "Pellor Mining Corp."]) == [
        "scored below the add threshold",
        "no candidate",
    ]
    assert miss_stages(_UNRECORDED, ["Orvel Branke"]) == ["no review"]
