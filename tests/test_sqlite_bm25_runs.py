"""Document-filtered BM25 on SQLite reads FTS5 by rowid runs (``rowid BETWEEN``); it must rank
exactly as scoring rowid by rowid does, including documents interleaved with others."""

from __future__ import annotations

import numpy as np

import ingest.store.sqlite as sqlite_module
from ingest.store.port import Principal, SearchFilters
from ingest.store.sqlite import SqliteStore
from tests.test_store_contract import axis, put

OPERATOR = Principal.local_operator()


def test_rowid_runs_rank_like_rowid_seeks(tmp_path, monkeypatch) -> None:
    store = SqliteStore(tmp_path / "attest.sqlite3")
    texts = {
        "a": ["the supplier shall deliver goods", "payment within thirty days", "governing law of Delaware"],
        "b": ["the buyer shall pay for goods", "notice of termination in writing"],
        "c": ["goods delivered late incur a penalty", "payment of the penalty within ten days"],
    }
    for doc_id, chunk_texts in texts.items():
        put(store, doc_id, "r1", chunk_texts, [axis(i) for i in range(len(chunk_texts))])
        store.activate_revision(doc_id, "r1")
    queries = ["goods payment", "penalty days", "delaware law", "termination"]
    filters = [SearchFilters(OPERATOR, doc_ids=ids) for ids in (("a",), ("a", "c"), ("b", "c"), ("a", "b", "c"))]
    by_runs = [[(r.chunk_id, r.score) for r in store.bm25(q, f, 10)] for q in queries for f in filters]
    monkeypatch.setattr(sqlite_module, "BM25_MAX_RUNS", -1)  # every query falls back to rowid seeks
    by_rowid = [[(r.chunk_id, r.score) for r in store.bm25(q, f, 10)] for q in queries for f in filters]
    assert by_runs == by_rowid
    assert any(by_runs) and all(len(r) <= 10 for r in by_runs)
    assert store.bm25("goods", SearchFilters(OPERATOR, doc_ids=("missing",)), 10) == []
    store.close()
    assert np.isfinite([s for r in by_runs for _, s in r]).all()
