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


def _windowed(store: SqliteStore, monkeypatch, window: int) -> list:
    """Shrink the BM25 window to ``window`` and record what each windowed attempt returned."""
    import ingest.store.sqlite as sqlite_store

    monkeypatch.setattr(sqlite_store, "BM25_MIN_WINDOW", window)
    monkeypatch.setattr(sqlite_store, "BM25_WINDOW_FACTOR", 1)
    outcomes: list = []
    original = SqliteStore._bm25_windowed

    def spy(self, *args):  # type: ignore[no-untyped-def]
        outcomes.append(original(self, *args))
        return outcomes[-1]

    monkeypatch.setattr(SqliteStore, "_bm25_windowed", spy)
    return outcomes


def test_windowed_bm25_falls_back_when_hidden_hits_fill_the_window(tmp_path, monkeypatch) -> None:
    store = SqliteStore(tmp_path / "s.sqlite3")
    for n in range(3):  # bob's chunks say "delivery" most often: FTS5 ranks them first
        put(store, f"bob{n}", "r1", [f"delivery delivery delivery lot {n}"], [axis(0)], acl=["bob"])
        store.activate_revision(f"bob{n}", "r1")
    mine = []
    for n in range(3):
        chunks, _ = put(store, f"alice{n}", "r1", [f"delivery of lot {n} within thirty days"],
                        [axis(1)], acl=["alice"])
        store.activate_revision(f"alice{n}", "r1")
        mine.append(chunks[0].chunk_id)
    alice = SearchFilters(principal=Principal("alice"))
    outcomes = _windowed(store, monkeypatch, 3)
    assert ids(store.bm25("delivery", alice, 2)) == sorted(mine)[:2]  # equal scores: by chunk id
    assert outcomes[0] is None  # the window (bob's three) proved nothing: the full query ran
    outcomes.clear()
    monkeypatch.setattr("ingest.store.sqlite.BM25_MIN_WINDOW", 10)
    assert ids(store.bm25("delivery", alice, 2)) == sorted(mine)[:2]
    assert outcomes[0] is not None  # the window held every match: answered from it
    store.close()


def test_windowed_bm25_falls_back_on_a_tie_at_the_window_edge(tmp_path, monkeypatch) -> None:
    store = SqliteStore(tmp_path / "s.sqlite3")
    made = []
    for n in range(5):  # five identical texts: one BM25 score, order by chunk id
        chunks, _ = put(store, f"d{n}", "r1", ["governing law of Delaware"], [axis(0)])
        store.activate_revision(f"d{n}", "r1")
        made.append(chunks[0].chunk_id)
    everyone = SearchFilters(principal=OPERATOR)
    outcomes = _windowed(store, monkeypatch, 3)
    assert ids(store.bm25("delaware", everyone, 2)) == sorted(made)[:2]
    assert outcomes == [None]  # the 2nd hit ties with the window's last: not provable
    outcomes.clear()
    assert ids(store.bm25("delaware", everyone, 5)) == sorted(made)
    assert outcomes[0] is not None  # a window (5, factor 1) holding every match is exact
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
