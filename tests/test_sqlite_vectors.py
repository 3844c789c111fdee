"""The embedded store's kNN matrix follows writes incrementally (``live_log``): after a small
write the next query appends and masks rows instead of reading every vector again, and answers
exactly what a fresh read of the file answers. Real SQLite files, hand-made records."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import ingest.store.sqlite_vectors as sqlite_vectors
from ingest.store.port import Principal, SearchFilters
from ingest.store.sqlite import SqliteStore
from tests.test_store_contract import DIM, ids, put

OPERATOR = Principal.local_operator()
ALICE = Principal("alice")
RNG = np.random.default_rng(14)
QUERIES = [RNG.standard_normal(DIM).astype(np.float32) for _ in range(6)]


def vectors(n: int) -> list[list[float]]:
    out = RNG.standard_normal((n, DIM)).astype(np.float32)
    return (out / np.linalg.norm(out, axis=1, keepdims=True)).tolist()


def add(store: SqliteStore, doc_id: str, revision: str, n: int, acl=("*",), entity=None) -> list[str]:
    chunks, _ = put(store, doc_id, revision, [f"{doc_id} {revision} chunk {i}" for i in range(n)],
                    vectors(n), acl=acl, entity_ids={0: [entity]} if entity else None)
    store.activate_revision(doc_id, revision)
    return [c.chunk_id for c in chunks]


FILTERS = [
    SearchFilters(principal=OPERATOR),
    SearchFilters(principal=ALICE),
    SearchFilters(principal=OPERATOR, doc_ids=("b", "c")),
    SearchFilters(principal=OPERATOR, entity_ids=("ent:1",)),
]


def answers(store: SqliteStore) -> list[list[tuple[str, float]]]:
    return [[(r.chunk_id, r.score) for r in store.knn(q, f, 8)] for q in QUERIES for f in FILTERS]


def assert_same_as_a_fresh_read(store: SqliteStore) -> None:
    fresh = SqliteStore(store.path)  # a new process's matrix: one full read of the file
    try:
        mine, theirs = answers(store), answers(fresh)
        assert [[c for c, _ in a] for a in mine] == [[c for c, _ in a] for a in theirs]
        # Scores agree to float32 rounding (a row's position in the matrix may differ).
        assert np.allclose([s for a in mine for _, s in a], [s for a in theirs for _, s in a],
                           rtol=0, atol=1e-6)
        assert fresh._vectors.full_reads == 1
    finally:
        fresh.close()


def test_a_small_write_appends_and_masks_rows_without_a_full_read(tmp_path) -> None:
    store = SqliteStore(tmp_path / "s.sqlite3")
    add(store, "a", "r1", 10, acl=["legal"])
    add(store, "b", "r1", 4, acl=["alice"], entity="ent:1")
    add(store, "c", "r1", 6, acl=["legal"])
    answers(store)
    assert store._vectors.full_reads == 1 and store._vectors.latest.count == 20
    new_b = add(store, "b", "r2", 2, acl=["alice"], entity="ent:1")  # switch: 4 retired, 2 appended
    assert_same_as_a_fresh_read(store)
    view = store._vectors.latest
    assert store._vectors.full_reads == 1 and (view.count, view.live) == (22, 18)
    alice = [ids(store.knn(q, SearchFilters(principal=ALICE), 8)) for q in QUERIES]
    assert all(sorted(found) == sorted(new_b) for found in alice)  # only b's current revision
    assert store.delete_document("c") is True
    add(store, "d", "r1", 3)
    assert_same_as_a_fresh_read(store)
    assert store._vectors.full_reads == 1
    store.close()


def test_a_reused_rowid_is_read_again(tmp_path) -> None:
    store = SqliteStore(tmp_path / "s.sqlite3")
    add(store, "a", "r1", 3)
    add(store, "z", "r1", 3)  # the highest rowids: deleting z frees them for the next insert
    answers(store)
    before = {r[0] for r in store._db().execute("SELECT rowid FROM chunks WHERE doc_id = 'z'")}
    store.delete_document("z")
    add(store, "y", "r1", 3)
    after = {r[0] for r in store._db().execute("SELECT rowid FROM chunks WHERE doc_id = 'y'")}
    assert before == after  # SQLite handed the same rowids to y's chunks
    assert_same_as_a_fresh_read(store)
    found = {r.chunk_id for q in QUERIES for r in store.knn(q, FILTERS[0], 10)}
    assert {c.doc_id for c in store.chunks_by_id(sorted(found)).values()} == {"a", "y"}
    assert store._vectors.full_reads == 1
    store.close()


def test_a_snapshot_older_than_the_matrix_sees_its_own_state(tmp_path) -> None:
    store = SqliteStore(tmp_path / "s.sqlite3")
    old = add(store, "a", "r1", 3)
    everyone = SearchFilters(principal=OPERATOR)
    answers(store)
    with store.snapshot():  # this thread's read transaction starts here
        assert sorted(ids(store.knn(QUERIES[0], everyone, 10))) == sorted(old)

        def write_and_read() -> None:  # another thread (connection) moves the matrix ahead
            add(store, "a", "r2", 2)
            store.knn(QUERIES[0], everyone, 10)

        worker = threading.Thread(target=write_and_read)
        worker.start()
        worker.join()
        assert sorted(ids(store.knn(QUERIES[0], everyone, 10))) == sorted(old)
    assert sorted(ids(store.knn(QUERIES[0], everyone, 10))) != sorted(old)
    assert_same_as_a_fresh_read(store)
    store.close()


def test_a_matrix_behind_the_pruned_log_is_read_in_full(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(sqlite_vectors, "LOG_KEEP", 4)
    store = SqliteStore(tmp_path / "s.sqlite3")
    add(store, "a", "r1", 3)
    answers(store)
    add(store, "b", "r1", 3)
    add(store, "a", "r2", 3)  # 9 log entries since the matrix: the first ones are pruned
    floor = store._db().execute("SELECT value FROM meta WHERE key = 'live_log_floor'").fetchone()[0]
    assert int(floor) > store._vectors.latest.seq
    assert_same_as_a_fresh_read(store)
    assert store._vectors.full_reads == 2
    store.close()


@pytest.mark.parametrize("rewrites", [1, 6])
def test_retired_rows_are_dropped_once_they_are_a_quarter(tmp_path, rewrites) -> None:
    store = SqliteStore(tmp_path / "s.sqlite3")
    for doc in "abcdefgh":
        add(store, doc, "r0", 4)
    answers(store)
    for n in range(rewrites):
        add(store, "abcdefgh"[n], "r1", 4)
        answers(store)
    view = store._vectors.latest
    if rewrites == 1:
        assert (view.count, view.live) == (36, 32)  # 4 of 36 retired: kept, masked
    else:
        assert view.count == view.live == 32  # compacted when 12 of 44 were retired
    assert_same_as_a_fresh_read(store)
    assert store._vectors.full_reads == 1
    store.close()


def test_a_kept_visibility_mask_never_outlives_an_acl_change(tmp_path) -> None:
    store = SqliteStore(tmp_path / "s.sqlite3")
    a = add(store, "a", "r1", 3, acl=["alice"])
    b = add(store, "b", "r1", 3, acl=["legal"])
    alice = SearchFilters(principal=ALICE)
    seen = lambda: sorted(ids(store.knn(QUERIES[0], alice, 10)))  # noqa: E731
    assert seen() == sorted(a) and seen() == sorted(a)  # the second answer comes from the kept mask
    view = store._vectors.latest
    store.set_acl("b", ["alice"])  # no current row changes: the matrix view stays the same
    assert seen() == sorted(a + b) and store._vectors.latest is view
    store.set_acl("a", ["bob"])
    assert seen() == sorted(b)
    record = store.get_document("b")
    record.acl = ["legal"]
    store.save_document(record)  # a status save that also changes the ACL
    assert seen() == []
    with store.snapshot():  # a write from another connection, committed before this snapshot
        other = SqliteStore(store.path)
        other.set_acl("a", ["alice"])
        other.close()
    assert seen() == sorted(a)
    store.close()


def test_a_large_matrix_scored_in_two_parts_ranks_as_one_product(tmp_path, monkeypatch) -> None:
    import ingest.store.sqlite as sqlite_store

    store = SqliteStore(tmp_path / "s.sqlite3")
    for doc in range(6):
        add(store, f"d{doc}", "r1", 500)
    everyone = SearchFilters(principal=OPERATOR)
    whole = [store.knn(q, everyone, 20) for q in QUERIES]
    monkeypatch.setattr(sqlite_store, "KNN_SPLIT_ROWS", 2048)  # 3000 rows: cut at 1024
    assert len(store._score_parts(store._vectors.latest.matrix, QUERIES[0])) == 2
    for q, expected in zip(QUERIES, whole):
        store.prepare_knn(q)
        for got in (store.knn(q, everyone, 20), store.knn(q, everyone, 20)):  # ahead, then not
            assert ids(got) == ids(expected)
            assert np.allclose([r.score for r in got], [r.score for r in expected], rtol=0, atol=1e-6)
    store.close()
