"""The embedded store's denormalised visibility (``live_chunks``) and the kNN scored ahead in a
helper thread: real SQLite files, hand-made records (the contract suite's helpers)."""

from __future__ import annotations

import sqlite3

import numpy as np
import pytest

from ingest.store.port import Principal, SearchFilters
from ingest.store.sqlite import SqliteStore
from tests.test_store_contract import axis, ids, put

OPERATOR = Principal.local_operator()
JOIN = (
    "SELECT c.rowid, c.doc_id, c.chunk_id FROM chunks c JOIN documents d "
    "ON d.doc_id = c.doc_id AND d.current_revision = c.revision ORDER BY c.rowid"
)


def live(store: SqliteStore) -> list[tuple]:
    return [tuple(r) for r in store._db().execute(
        "SELECT rowid, doc_id, chunk_id FROM live_chunks ORDER BY rowid")]


def joined(store: SqliteStore) -> list[tuple]:
    return [tuple(r) for r in store._db().execute(JOIN)]


def test_live_chunks_always_equal_the_current_revision_join(tmp_path) -> None:
    store = SqliteStore(tmp_path / "s.sqlite3")
    put(store, "a", "r1", ["one", "two"], [axis(0), axis(1)])
    assert live(store) == joined(store) == []  # written, not current
    store.activate_revision("a", "r1")
    assert len(live(store)) == 2 and live(store) == joined(store)
    put(store, "a", "r2", ["three"], [axis(2)])
    assert live(store) == joined(store) and {r[2] for r in live(store)} == {
        c for c in ids(store.bm25("one two", SearchFilters(principal=OPERATOR), 10))}
    store.activate_revision("a", "r2")
    assert len(live(store)) == 1 and live(store) == joined(store)
    put(store, "a", "r2", ["three", "four"], [axis(2), axis(3)])  # rewrite of the current one
    assert len(live(store)) == 2 and live(store) == joined(store)
    put(store, "b", "r", ["five"], [axis(4)])
    store.activate_revision("b", "r")
    assert store.delete_document("a") is True
    assert live(store) == joined(store) and [r[1] for r in live(store)] == ["b"]
    store.close()


def test_a_file_from_before_live_chunks_is_filled_at_open(tmp_path) -> None:
    path = tmp_path / "old.sqlite3"
    store = SqliteStore(path)
    put(store, "a", "r", ["one", "two"], [axis(0), axis(1)])
    store.activate_revision("a", "r")
    store.close()
    db = sqlite3.connect(path)  # make it look like a file of the previous schema
    db.executescript(
        "DROP TRIGGER live_chunks_switch; DROP TRIGGER live_chunks_new_document; "
        "DROP TRIGGER live_chunks_gone_document; DROP TRIGGER live_chunks_new_chunk; "
        "DROP TRIGGER live_chunks_gone_chunk; DROP TABLE live_chunks; "
        "DELETE FROM meta WHERE key = 'live_chunks';"
    )
    db.close()
    reopened = SqliteStore(path)
    assert len(live(reopened)) == 2 and live(reopened) == joined(reopened)
    assert len(reopened.bm25("one two", SearchFilters(principal=OPERATOR), 10)) == 2
    reopened.close()


def test_knn_scored_ahead_is_used_only_for_the_same_matrix(tmp_path) -> None:
    store = SqliteStore(tmp_path / "s.sqlite3")
    everyone = SearchFilters(principal=OPERATOR)
    old, _ = put(store, "a", "r1", ["x", "y"], [axis(0), axis(1)])
    store.activate_revision("a", "r1")
    query = np.array(axis(0, 2), dtype=np.float32)
    plain = store.knn(query, everyone, 5)  # also loads the matrix
    store.prepare_knn(query)
    assert store.knn(query, everyone, 5) == plain
    # Scored ahead on r1's matrix, then r2 becomes current: knn must not use the stale scores.
    store.prepare_knn(query)
    new, _ = put(store, "a", "r2", ["z"], [axis(2)])
    store.activate_revision("a", "r2")
    ranked = store.knn(query, everyone, 5)
    assert ids(ranked) == [new[0].chunk_id]
    assert abs(ranked[0].score - float(np.dot(query, axis(2)))) < 1e-6
    # A prepared vector that is not the one asked for is ignored as well.
    store.prepare_knn(np.array(axis(1), dtype=np.float32))
    assert ids(store.knn(query, everyone, 5)) == [new[0].chunk_id]
    store.close()


def test_import_documents_is_one_transaction_per_batch(tmp_path) -> None:
    from ingest.store.port import StoreError
    from tests.test_store_contract import _import_item

    store = SqliteStore(tmp_path / "s.sqlite3")
    generation = store.registry_generation()
    gen_row = "SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'generation'"
    before = store._db().execute(gen_row).fetchone()[0]
    items = [_import_item(d, "r", [f"{d} one", f"{d} two"], [axis(0), axis(1)]) for d in "abc"]
    assert store.import_documents(items, batch_chunks=4) == 6  # a + b, then c
    assert store._db().execute(gen_row).fetchone()[0] == before + 2  # one switch per batch
    assert len(live(store)) == 6 and live(store) == joined(store)
    assert store.registry_generation() != generation
    # A batch naming a document twice is rolled back whole: d, written before the repeat, too.
    repeat = [_import_item("d", "r", ["d one"], [axis(2)]), _import_item("d", "r2", ["d two"], [axis(3)])]
    with pytest.raises(StoreError, match="^bulk write failed: document d already exists; "
                       "import_documents only creates documents$"):
        store.import_documents(repeat)
    assert store.get_document("d") is None and store.revision_text("d", "r") is None
    assert len(live(store)) == 6 and live(store) == joined(store)
    with pytest.raises(StoreError, match="^batch_chunks must be at least 1, got 0$"):
        store.import_documents(items[:1], batch_chunks=0)
    assert store.import_documents([_import_item("e", "r", ["e one"], [axis(4)])], batch_chunks=1) == 1
    store.close()
