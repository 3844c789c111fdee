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
    CorpusResult,
    score_parties,
    GOLD_RELATIONS,
    HELDOUT_RELATIONS,
    evaluate_corpus,
    evaluate_relations,
    load_index,
    overall,
)

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(__file__).resolve().parents[2] / "shared"
# Every 3rd contract of the tune split by sorted doc_id (50 contracts): the whole corpus takes
# several minutes on 2 cores. Only the tune split: a failure prints per-contract misses, and the
# report split's contracts are never read contract by contract.
CORPUS_EVERY = 3


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


def test_party_scoring_counts_false_parties() -> None:
    result = CorpusResult()
    score_parties(
        result, "doc", ["Acme Holdings, Inc.", "Beta LLC f/k/a Gamma LLC"],
        {"org:acme holdings": {"acme holdings", "company"}, "org:1707 toronto ont": {"1707 toronto ont"},
         "org:beta": {"beta"}},
    )
    assert (result.gold_parties, result.parties_found) == (2, 2)
    assert (result.parties_extracted, result.parties_correct, result.precision_documents) == (3, 2, 1)
    assert result.party_precision == 2 / 3 and result.false_parties_per_document == 1.0
    assert result.misses == ["false party 'org:1707 toronto ont' in doc gold ['Acme Holdings, Inc.', 'Beta LLC f/k/a Gamma LLC']"]
    # A document CUAD names no party for counts for neither.
    score_parties(result, "memo", [], {"org:acme holdings": {"acme holdings"}})
    assert (result.parties_extracted, result.precision_documents) == (3, 1)


def test_party_recall_on_names_written_in_the_contract() -> None:
    """CUAD's typo "Berkely" is not in the text: it counts for recall but not for the verbatim
    recall; a name must appear as whole words (case, spacing and quote style aside)."""
    text = "This Agreement is made between Berkeley Lights, Inc. and  GINKGO BIOWORKS, INC. and Reed’s, Inc."
    result = CorpusResult()
    score_parties(
        result, "doc", ["Berkely Lights, Inc.", "Ginkgo Bioworks, Inc.", "Reed's, Inc.", "Ginkgo Bio"],
        {"org:ginkgo bioworks": {"ginkgo bioworks"}}, text,
    )
    assert (result.gold_parties, result.parties_found) == (4, 1)
    assert (result.verbatim_parties, result.verbatim_found) == (2, 1)
    assert result.verbatim_recall == 0.5


@pytest.fixture(scope="module")
def corpus_result():
    if not (SHARED / "eval" / "cuad-dev").exists() or not CUAD_DIR.exists():
        pytest.skip("cuad-dev evaluation data (../shared) is not available")
    return evaluate_corpus(load_index(every=CORPUS_EVERY, split="tune"))


@pytest.mark.slow
def test_agreement_title_accuracy(corpus_result) -> None:
    assert corpus_result.title_accuracy >= TITLE_ACCURACY_FLOOR, corpus_result.misses


@pytest.mark.slow
def test_party_recall(corpus_result) -> None:
    assert corpus_result.party_recall >= PARTY_RECALL_FLOOR, corpus_result.misses


@pytest.mark.slow
def test_party_precision(corpus_result) -> None:
    # Extracted parties that match no CUAD party; the same run as the recall test.
    assert corpus_result.party_precision >= PARTY_PRECISION_FLOOR, corpus_result.misses


TITLE_ACCURACY_FLOOR = 0.94
PARTY_RECALL_FLOOR = 0.88
PARTY_PRECISION_FLOOR = 0.78
