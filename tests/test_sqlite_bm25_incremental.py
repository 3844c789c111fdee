"""The embedded store's BM25 caches follow writes from ``live_log`` instead of being dropped
(``ingest/store/sqlite_bm25.py``): after every kind of write the store's answer, computed from
caches brought forward, is bit for bit the answer of empty caches in the same snapshot. Real
SQLite files, writes from other connections and another process, invented text."""

from __future__ import annotations

import random
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import ingest.store.sqlite_bm25 as sqlite_bm25
import ingest.store.sqlite_vectors as sqlite_vectors
from ingest.store.port import Principal, RankedId, SearchFilters
from ingest.store.sqlite import SqliteStore
from ingest.store.sqlite_bm25 import Postings, VisibleSets
from ingest.schema import chunk_id_for
from tests.test_store_contract import axis, make_chunks, put

REPO = Path(__file__).resolve().parents[1]
OPERATOR = SearchFilters(principal=Principal.local_operator())
VIEWS = {
    "operator": OPERATOR,
    "quill": SearchFilters(principal=Principal("quill")),
    "varn": SearchFilters(principal=Principal("varn")),
    "two docs": SearchFilters(principal=Principal.local_operator(), doc_ids=("d0", "d3")),
}
# Invented words, some with marks (FTS5 removes them: the delta's tokenizer must too).
WORDS = ["zorvane", "plimmet", "quastle", "retainer", "indemnity", "brevor", "Résiliation",
         "naïve", "escrow", "tollage", "vendance", "fee", "schedule", "notice"]
QUERIES = ["zorvane plimmet", "retainer fee schedule", "resiliation naive escrow",
           "quastle brevor tollage vendance indemnity notice fee zorvane plimmet escrow retainer"]


def text(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 12)))


def add(store: SqliteStore, doc_id: str, revision: str, texts: list[str], acl=("*",)) -> None:
    put(store, doc_id, revision, texts, [axis(i % 300) for i in range(len(texts))], acl=acl)
    store.activate_revision(doc_id, revision)


def revise(store: SqliteStore, doc_id: str, revision: str, texts: list[str], activate=True) -> None:
    """A new revision of an existing document (its ACL unchanged), made current."""
    acl = store.get_document(doc_id).acl
    chunks, whole = make_chunks(doc_id, revision, texts, [axis(i) for i in range(len(texts))], acl)
    store.write_revision(doc_id, revision, text=whole, chunks=chunks, subjects=[],
                         info={"filename": f"{doc_id}.txt", "mime": "text/plain", "size": len(whole)})
    if activate:
        store.activate_revision(doc_id, revision)


def kept_and_cold(store: SqliteStore, query: str, filters: SearchFilters,
                  n: int = 20) -> tuple[list[RankedId], list[RankedId]]:
    """The answer from the store's kept caches and the answer of empty caches, in ONE snapshot
    (the same read transaction), so any difference is the caches'."""
    with store.snapshot():
        kept = store.bm25(query, filters, n)
        caches = store._postings, store._visible
        store._postings, store._visible = Postings(), VisibleSets()
        try:
            cold = store.bm25(query, filters, n)
        finally:
            store._postings, store._visible = caches
    return kept, cold


def assert_exact(store: SqliteStore) -> int:
    """Every query for every view: kept == cold, bitwise (== on the float scores). Returns how
    many answers were non-empty (so a test can tell it compared something)."""
    found = 0
    for query in QUERIES:
        for name, filters in VIEWS.items():
            kept, cold = kept_and_cold(store, query, filters)
            assert kept == cold, (query, name)
            found += bool(kept)
    return found


def head(store: SqliteStore) -> int:
    return int(store._db().execute("SELECT max(seq) FROM live_log").fetchone()[0] or 0)


def seeded(tmp_path: Path) -> SqliteStore:
    store = SqliteStore(tmp_path / "s.sqlite3")
    rng = random.Random(7)
    for n in range(5):
        add(store, f"d{n}", "r1", [text(rng) for _ in range(4)], acl=["quill"] if n % 2 else ["varn"])
    assert_exact(store)  # warm: every word and view kept
    return store


@pytest.mark.parametrize("write", ["new document", "new revision", "delete", "acl change",
                                   "revision written, not current", "older revision again"])
def test_each_kind_of_write_is_brought_forward_exactly(tmp_path, write) -> None:
    store = seeded(tmp_path)
    resets, full_reads = store._postings.resets, store._visible.full_reads
    words_before = dict(store._postings._at)
    if write == "new document":
        add(store, "d9", "r1", ["zorvane zorvane retainer", "plimmet escrow fee"], acl=["quill"])
    elif write == "new revision":
        revise(store, "d1", "r2", ["zorvane brevor", "retainer notice notice", "naïve résiliation"])
    elif write == "delete":
        assert store.delete_document("d2")
    elif write == "acl change":
        store.set_acl("d1", ["quill", "varn"])
    elif write == "revision written, not current":
        revise(store, "d3", "r2", ["zorvane zorvane zorvane"], activate=False)
    else:
        revise(store, "d1", "r2", ["zorvane brevor"])
        assert_exact(store)
        store.activate_revision("d1", "r1")  # r1's rows current again: same rowids come back
    assert assert_exact(store) >= 8
    # Brought forward, not read again: no postings reset, and visible sets read whole only when
    # the ACL rows moved (one per restricted view: quill and varn; the operator's is carried).
    assert store._postings.resets == resets
    expected_reads = 2 if write == "acl change" else 0
    assert store._visible.full_reads == full_reads + expected_reads
    assert all(at == head(store) for at in store._postings._at.values())
    assert store._postings._at.keys() >= words_before.keys()  # nothing dropped
    store.close()


def test_a_new_document_changes_the_answer_it_should(tmp_path) -> None:
    """The comparison can fail: a forward step that forgot the new rows would differ here."""
    store = seeded(tmp_path)
    before, _ = kept_and_cold(store, "kestrine tollage", OPERATOR)
    add(store, "d7", "r1", ["kestrine tollage"])
    after, cold = kept_and_cold(store, "kestrine tollage", OPERATOR)
    assert after == cold and after != before
    assert after[0].chunk_id == chunk_id_for("d7", "r1", 0)
    assert chunk_id_for("d7", "r1", 0) not in {r.chunk_id for r in before}
    store.close()


def test_a_reused_rowid_holds_its_new_words(tmp_path) -> None:
    """SQLite hands the highest rowid out again once its row is deleted: the new row's words
    replace the old row's, though the rowid is the same."""
    store = SqliteStore(tmp_path / "s.sqlite3")
    add(store, "a", "r1", ["plimmet escrow"])
    add(store, "z", "r1", ["zorvane zorvane zorvane"])
    assert_exact(store)
    old_rowid = store._db().execute("SELECT max(rowid) FROM chunks").fetchone()[0]
    assert store.delete_document("z")
    add(store, "y", "r1", ["escrow plimmet plimmet"])
    assert store._db().execute("SELECT max(rowid) FROM chunks").fetchone()[0] == old_rowid
    assert assert_exact(store) > 0
    assert kept_and_cold(store, "zorvane", OPERATOR)[0] == []
    store.close()


def test_a_write_from_another_process_is_applied(tmp_path) -> None:
    store = seeded(tmp_path)
    resets = store._postings.resets
    script = (
        "import sys; sys.path.insert(0, sys.argv[2])\n"
        "from ingest.store.sqlite import SqliteStore\n"
        "from tests.test_sqlite_bm25_incremental import add, revise\n"
        "s = SqliteStore(sys.argv[1])\n"
        "add(s, 'p1', 'r1', ['vendance vendance plimmet', 'retainer schedule'], acl=['varn'])\n"
        "revise(s, 'd0', 'r2', ['zorvane notice'])\n"
        "s.delete_document('d4')\n"
        "s.close()\n"
    )
    subprocess.run([sys.executable, "-c", script, str(store.path), str(REPO)], check=True,
                   cwd=REPO, timeout=120)
    assert assert_exact(store) >= 8
    assert store._postings.resets == resets
    assert kept_and_cold(store, "vendance", VIEWS["varn"])[0][0].chunk_id == chunk_id_for("p1", "r1", 0)
    store.close()


def test_concurrent_writers_and_a_reader_agree_with_cold_caches(tmp_path) -> None:
    store = seeded(tmp_path)
    failures: list[BaseException] = []

    def writer(name: str, seed: int) -> None:
        rng = random.Random(seed)
        other = SqliteStore(store.path)  # its own connection, as another process would have
        try:
            for i in range(12):
                doc_id = f"{name}{i % 4}"
                if other.get_document(doc_id) and rng.random() < 0.3:
                    other.delete_document(doc_id)
                else:
                    add(other, doc_id, f"r{i}", [text(rng) for _ in range(rng.randint(1, 4))],
                        acl=[rng.choice(["quill", "varn"])])
        except BaseException as exc:  # reported by the main thread
            failures.append(exc)
        finally:
            other.close()

    threads = [threading.Thread(target=writer, args=(n, s)) for n, s in (("w", 1), ("x", 2))]
    for thread in threads:
        thread.start()
    compared = 0
    while any(t.is_alive() for t in threads) or compared == 0:
        for query in QUERIES[:2]:
            kept, cold = kept_and_cold(store, query, VIEWS["quill"])
            assert kept == cold
            compared += 1
    for thread in threads:
        thread.join()
    assert not failures
    assert assert_exact(store) >= 8
    store.close()


def test_a_reader_in_an_older_snapshot_gets_its_own_state(tmp_path) -> None:
    """A snapshot behind the caches reads what it needs and keeps nothing: the newer readers'
    entries stay, and each answer equals the cold one of its own snapshot."""
    store = seeded(tmp_path)
    in_snapshot, go_on, result = threading.Event(), threading.Event(), {}

    def old_reader() -> None:
        with store.snapshot():
            result["before"] = kept_and_cold(store, "zorvane plimmet", OPERATOR)
            in_snapshot.set()
            go_on.wait(30)
            result["after"] = kept_and_cold(store, "zorvane plimmet", OPERATOR)

    thread = threading.Thread(target=old_reader)
    thread.start()
    assert in_snapshot.wait(30)
    other = SqliteStore(store.path)
    add(other, "n1", "r1", ["zorvane plimmet plimmet"])
    other.close()
    newer = kept_and_cold(store, "zorvane plimmet", OPERATOR)  # this thread: the new head
    at = dict(store._postings._at)
    go_on.set()
    thread.join()
    assert newer[0] == newer[1] and result["after"][0] == result["after"][1]
    assert result["after"][0] == result["before"][0] != newer[0]  # the old snapshot's answer
    assert store._postings._at == at  # the older reader kept nothing over the newer entries
    assert kept_and_cold(store, "zorvane plimmet", OPERATOR) == newer  # nor in them
    store.close()


def test_a_write_past_the_delta_bound_starts_over_and_at_the_bound_does_not(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(sqlite_bm25, "DELTA_ROWS", 3)
    store = seeded(tmp_path)
    resets = store._postings.resets
    add(store, "b3", "r1", ["zorvane"] * 3)  # 3 log entries: at the bound
    assert assert_exact(store) > 0 and store._postings.resets == resets
    add(store, "b4", "r1", ["plimmet"] * 4)  # 4 entries: past it, every word read again
    assert assert_exact(store) > 0 and store._postings.resets == resets + 1
    store.close()


def test_a_pruned_log_starts_over(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(sqlite_vectors, "LOG_KEEP", 2)
    store = seeded(tmp_path)
    resets, full_reads = store._postings.resets, store._visible.full_reads
    add(store, "q1", "r1", ["zorvane one", "zorvane two", "zorvane three"])  # prunes past the head
    assert assert_exact(store) > 0
    assert store._postings.resets == resets + 1 and store._visible.full_reads > full_reads
    store.close()


def test_the_window_of_touched_rows_is_bounded_and_a_lagging_word_is_read_again(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(sqlite_bm25, "DELTA_KEEP_ROWS", 4)
    store = seeded(tmp_path)
    postings = store._postings
    assert "tollage" in postings._at
    for n in range(4):  # every write is followed by a query that never asks for "tollage"
        add(store, f"k{n}", "r1", [f"tollage zorvane {n}", "plimmet"])
        assert kept_and_cold(store, "zorvane", OPERATOR)[0]
        assert postings._recent.rowids.size == min(2 * (n + 1), 4)  # the newest rows, at the bound
        assert postings._recent.rowids.size == postings._recent.touched_at.size
    assert "tollage" not in postings._at  # the rows it would need were let go: dropped
    assert "zorvane" in postings._at and postings._at["zorvane"] == head(store)
    assert assert_exact(store) > 0
    store.close()


def test_a_word_many_writes_behind_is_brought_forward_in_one_step(tmp_path) -> None:
    store = seeded(tmp_path)
    postings = store._postings
    at = postings._at["tollage"]
    for n in range(5):  # queries that never ask for "tollage"
        add(store, f"k{n}", "r1", [f"tollage vendance {n}"])
        if n == 2:
            assert store.delete_document("k1")
        assert kept_and_cold(store, "zorvane", OPERATOR)[0]
    assert postings._at["tollage"] == at < head(store)  # still behind, still kept
    resets = postings.resets
    assert assert_exact(store) > 0
    assert postings._at["tollage"] == head(store) and postings.resets == resets
    store.close()


def test_postings_and_visible_sets_hold_their_bounds_while_brought_forward(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(sqlite_bm25, "CACHE_POSTINGS", 12)
    monkeypatch.setattr(sqlite_bm25, "VIEW_CACHE", 2)
    store = seeded(tmp_path)
    rng = random.Random(3)
    for n in range(6):
        add(store, f"g{n}", "r1", [text(rng) for _ in range(3)], acl=[rng.choice(["quill", "varn"])])
        assert assert_exact(store) > 0
        postings = store._postings
        sizes = sum(r.size for r, _ in postings._words.values())
        assert sizes == postings._postings and postings._words.keys() == postings._at.keys()
        assert postings._postings <= 12 or len(postings._words) == 1  # a word over the bound stays
        assert len(store._visible._kept) <= 2
    store.close()


def test_random_writes_of_every_kind_stay_exact(tmp_path) -> None:
    store = SqliteStore(tmp_path / "s.sqlite3")
    other = SqliteStore(store.path)
    rng = random.Random(11)
    revisions: dict[str, int] = {}
    for step in range(40):
        writer = rng.choice([store, other])
        doc_id = f"d{rng.randrange(6)}"
        action = rng.random()
        if doc_id not in revisions:
            add(writer, doc_id, "r0", [text(rng) for _ in range(rng.randint(1, 4))],
                acl=[rng.choice(["quill", "varn", "*"])])
            revisions[doc_id] = 0
        elif action < 0.15:
            assert writer.delete_document(doc_id)
            del revisions[doc_id]
        elif action < 0.35:
            writer.set_acl(doc_id, rng.sample(["quill", "varn", "other"], rng.randint(1, 2)))
        elif action < 0.5 and revisions[doc_id] > 0:
            writer.activate_revision(doc_id, f"r{rng.randrange(revisions[doc_id])}")
        else:
            revisions[doc_id] += 1
            revise(writer, doc_id, f"r{revisions[doc_id]}", [text(rng) for _ in range(rng.randint(1, 4))],
                   activate=action < 0.9)
        if step % 3 == 0:  # some writes pile up between two queries
            assert_exact(store)
    assert assert_exact(store) > 0
    other.close()
    store.close()


def test_the_window_tokenizes_as_the_index_does_or_not_at_all(tmp_path, monkeypatch) -> None:
    store = seeded(tmp_path)
    assert sqlite_bm25._index_tokenizer(store._db()) == "unicode61 remove_diacritics 2"
    # A schema whose tokenizer cannot be read: no window, every write drops the postings.
    monkeypatch.setattr(sqlite_bm25, "_index_tokenizer", lambda db: None)
    fresh = SqliteStore(store.path)
    assert assert_exact(fresh) > 0
    resets = fresh._postings.resets
    add(store, "t1", "r1", ["naïve résiliation zorvane"])
    assert assert_exact(fresh) > 0
    assert fresh._postings.resets == resets + 1 and fresh._postings._recent is None
    fresh.close()
    store.close()
