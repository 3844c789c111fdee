"""Quality floors for entity/relation tagging, set a little under what bench/ner_eval.py
measures (see its output for the current values). Corpus tests read ../shared and skip when it
is absent."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bench.ner_eval import (
    CUAD_DIR,
    GOLD_RELATIONS,
    HELDOUT_RELATIONS,
    evaluate_corpus,
    evaluate_relations,
    load_index,
    overall,
)

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(__file__).resolve().parents[2] / "shared"
# Every 4th contract by sorted doc_id: the whole corpus takes several minutes on 2 cores.
CORPUS_EVERY = 4


def test_entity_patterns_file_matches_the_lexicons() -> None:
    result = subprocess.run(
        [sys.executable, "scripts/build_entity_patterns.py", "--check"],
        cwd=REPO, env={"PYTHONPATH": str(REPO)}, capture_output=True, text=True,
    )
    assert result.returncode == 0, result.stderr


def test_development_relations_quality() -> None:
    scores, errors = evaluate_relations(GOLD_RELATIONS)
    total = overall(scores)
    assert total.precision >= 0.95, errors
    assert total.recall >= 0.9, errors
    for kind, score in scores.items():
        assert score.precision >= 0.9, (kind, errors)


def test_heldout_relations_quality() -> None:
    scores, errors = evaluate_relations(HELDOUT_RELATIONS)
    total = overall(scores)
    assert total.precision >= 0.9, errors
    assert total.recall >= 0.6, errors


@pytest.fixture(scope="module")
def corpus_result():
    if not (SHARED / "eval" / "cuad-dev").exists() or not CUAD_DIR.exists():
        pytest.skip("cuad-dev evaluation data (../shared) is not available")
    return evaluate_corpus(load_index(every=CORPUS_EVERY))


@pytest.mark.slow
def test_agreement_title_accuracy(corpus_result) -> None:
    assert corpus_result.title_accuracy >= TITLE_ACCURACY_FLOOR, corpus_result.misses


@pytest.mark.slow
def test_party_recall(corpus_result) -> None:
    assert corpus_result.party_recall >= PARTY_RECALL_FLOOR, corpus_result.misses


TITLE_ACCURACY_FLOOR = 0.83
PARTY_RECALL_FLOOR = 0.81
