"""bench/synthetic_eval.py on two of its contracts: the real pipeline (spaCy, MiniLM, SQLite) and
the bench's scoring, with a known hit (the supply agreement as written) and a known miss (the same
contract asked under a title it does not carry, which the gate must refuse)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench import synthetic_eval as se



def test_phrase_in_reads_through_ocr_hyphenation_and_white_space() -> None:
    assert se.phrase_in("laws of the State of New Jersey", "shall be gov-\nerned by the  laws of the\nState of New Jersey.")
    assert not se.phrase_in("laws of the State of New York", "the laws of the State of New Jersey")


def test_bench_counts_a_known_hit_and_a_known_miss(tmp_path: Path) -> None:
    rows = se.load_gold(["s01_supply_us.txt", "s24_distribution_kk.txt"])
    assert [r["file"] for r in rows] == ["s01_supply_us.txt", "s24_distribution_kk.txt"]
    from ingest.embedder import MiniLMEmbedder

    embedder = MiniLMEmbedder()
    store, settings = se.build_store(rows, tmp_path, embedder)
    try:
        supply = rows[0]
        # The known miss: the supply agreement's own parties under a title it does not carry.
        wrong = dict(supply, title="Lease Agreement")
        res = se.Results()
        se.score_registry(store, [supply, wrong], res)
        assert (res.titles.passed, res.titles.asked) == (1, 2)
        assert res.titles.misses == ["s01_supply_us: title 'Lease Agreement', registry ['SUPPLY AGREEMENT']"]
        assert (res.recall.passed, res.recall.asked) == (4, 4)
        to_answer = se.score_gate(store, [supply, wrong], res)
        # Four phrasings each: the right title passes all four, the wrong title none.
        assert (res.in_kb.passed, res.in_kb.asked) == (4, 8)
        assert len(res.in_kb.misses) == 4 and all("Lease Agreement" in m for m in res.in_kb.misses)
        assert to_answer == {"s01_supply_us": se.phrasings(supply)[0]}
        # Not in the KB: an absent company and three stray tails after the title, for both rows
        # (both are one contract, so no other contract's party is asked).
        refused = {kind: (t.passed, t.asked) for kind, t in res.not_in_kb.items()}
        assert refused == {
            "absent company": (2, 2), "stray ', D' after the title": (2, 2),
            "stray '(' after the title": (2, 2), "stray ']' after the title": (2, 2),
        }
        se.score_answers(store, embedder, settings, [supply], to_answer, res)
        assert (res.cites.passed, res.cites.asked) == (1, 1)
        lines = se.report_lines(res, show_misses=True)
        assert "  title accuracy 0.500 (1/2)" in lines
        assert any(line.startswith("    [in-KB] s01_supply_us: What law governs the Lease Agreement between") for line in lines)
    finally:
        store.close()
