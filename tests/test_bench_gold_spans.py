"""bench/cuad_eval.py's gold spans: where the hit rate of issue 10 looks for a cited answer."""

from __future__ import annotations

from bench.cuad_eval import gold_spans


def test_identical_texts_keep_the_annotated_offsets() -> None:
    text = "Term. Two years. Term. Two years."
    row = {"answers": [{"text": "Two years.", "answer_start": 23, "answer_end": 33}]}
    assert gold_spans(row, text, text) == [(23, 33)]


def test_a_repeated_answer_is_found_wherever_the_revision_text_writes_it() -> None:
    file_text = "Renewal: one\r\nyear.  Renewal: one year."
    revision_text = "Renewal: one\nyear.  Renewal: one year."
    row = {"answers": [{"text": "one year.", "answer_start": 9, "answer_end": 19}]}
    assert gold_spans(row, file_text, revision_text) == [(9, 18), (29, 38)]


def test_an_answer_the_revision_does_not_hold_has_no_span() -> None:
    row = {"answers": [{"text": "three years", "answer_start": 0, "answer_end": 11}, {"text": "  ", "answer_start": 0, "answer_end": 2}]}
    assert gold_spans(row, "a", "b") == []
