"""Issue 11, Medium 6: chunking is linear on whitespace-free text, and every ingest job has a
time budget that ends it ``failed`` with a clear reason. Real tokenizer, real pipeline."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from ingest.chunking import chunk_extraction
from ingest.extract import detect_type, extract
from ingest.pipeline import Ingestor
from ingest.settings import Settings
from ingest.store.sqlite import SqliteStore


def _chunk_seconds(embedder, n_chars: int) -> tuple[float, int]:
    data = ("x." * (n_chars // 2)).encode()
    extraction = extract(Path("run.txt"), data, detect_type(Path("run.txt"), data),
                         max_unpacked_bytes=10 * n_chars)
    started = time.process_time()
    spans = chunk_extraction(extraction, embedder.count_tokens, 200)
    elapsed = time.process_time() - started
    text = extraction.text
    assert spans[0].char_start == 0 and spans[-1].char_end == len(text)
    assert all(a.char_end == b.char_start for a, b in zip(spans, spans[1:]))  # no gaps, no overlap
    assert max(embedder.count_tokens(text[s.char_start : s.char_end]) for s in spans) <= 200
    return elapsed, len(spans)


def test_chunking_a_whitespace_free_run_is_linear(embedder):
    """Four times the text must cost about four times the CPU (the old bisection over the whole
    remaining run cost sixteen times: 2.2 s -> 35.9 s for 40 KB -> 160 KB)."""
    _chunk_seconds(embedder, 2_000)  # warm the tokenizer
    small, n_small = _chunk_seconds(embedder, 20_000)
    large, n_large = _chunk_seconds(embedder, 80_000)
    assert n_large == 4 * n_small
    assert large < 8 * small + 0.2, (small, large)


def test_a_job_past_its_time_budget_fails_with_the_reason(tmp_path, embedder):
    store = SqliteStore(tmp_path / "attest.sqlite3")
    ingestor = Ingestor(store, embedder, Settings(data_dir=tmp_path), annotate=False)
    result = ingestor.ingest_bytes(
        ("x." * 20_000).encode(), filename="run.txt", doc_id="slow", acl=["alice"],
        budget_seconds=1e-6,
    )
    assert (result.status, result.stage) == ("failed", "extracting")
    assert result.error == (
        "time budget of 1e-06 s exceeded during extracting; "
        "split the document or raise ATTEST_INGEST_JOB_SECONDS"
    )
    record = store.get_document("slow")
    assert (record.status, record.error, record.current_revision) == ("failed", result.error, None)
    assert record.revisions == []


def test_the_budget_also_stops_annotation():
    """Annotation (real spaCy) pulls the chunk spans through the budget: once the budget is
    spent it stops inside the stage, with the reason, instead of finishing a huge document."""
    from ingest.annotate import annotate_document
    from ingest.pipeline import IngestFailure, _Budget, _BudgetedSpans

    text = " ".join(f"Clause {i}. Acme Holdings Inc. shall deliver lot {i}." for i in range(100))
    spans = [(0, len(text) // 2), (len(text) // 2 + 1, len(text))]
    spent = _Budget(1e-9)
    time.sleep(0.001)
    with pytest.raises(IngestFailure) as caught:
        annotate_document(text, _BudgetedSpans(spans, spent), doc_id="d", revision="r")
    assert caught.value.stage == "indexing"
    assert caught.value.reason.startswith("time budget of 1e-09 s exceeded during indexing")
    fresh = annotate_document(text, _BudgetedSpans(spans, _Budget(600)), doc_id="d", revision="r")
    assert len(fresh.chunks) == 2
