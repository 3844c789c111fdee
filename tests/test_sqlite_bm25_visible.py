"""The embedded store's BM25 takes its statistics (row count, document frequencies, average
length) from the chunks the principal may read only (``ingest/store/sqlite_bm25.py``): nothing
outside that set (other principals' documents, old revisions, deleted documents) may change a
principal's scores or order. Real SQLite files, hand-made records (the contract suite's
helpers).

The guarantees both stores share are in the contract suite (``tests/test_store_contract.py``);
this file holds the embedded side's own: FTS5 parity, another connection's writes, bounded caches."""

from __future__ import annotations

import pytest

import ingest.store.sqlite_bm25 as sqlite_bm25
from ingest.store.port import Principal, SearchFilters
from ingest.store.sqlite import SqliteStore
from tests.test_store_contract import BOB_TEXTS, add, axis, ids, put, scored

OPERATOR = Principal.local_operator()
BOB = SearchFilters(principal=Principal("bob"))



def test_scores_are_fts5s_when_the_principal_sees_the_whole_index(tmp_path) -> None:
    """With every chunk current and readable, the visible statistics are FTS5's own: the
    scores equal bm25() of the OR query (same formula; the product's order may differ in the
    last bit)."""
    store = SqliteStore(tmp_path / "s.sqlite3")
    texts = ["the licensee shall pay royalties quarterly", "royalties accrue on net sales",
             "termination for convenience on notice", "notice of termination and royalties due",
             "governing law is Delaware", "exclusive license granted to the licensee"]
    for n, text in enumerate(texts):
        add(store, f"d{n}", "r1", [text, f"{text} again and royalties royalties"])
    # Lengths of 1, 2 and 3 varint bytes in FTS5's docsize (below 128, 16,384 and above).
    add(store, "long", "r1", ["royalties notice " + "filler " * 300, "licensee " + "word " * 17_000])
    db = store._db()
    for words in (["royalties"], ["licensee", "notice", "royalties", "termination"], ["delaware", "law"]):
        match = " OR ".join(f'"{w}"' for w in words)
        fts5 = {r[0]: -r[1] for r in db.execute(
            "SELECT c.chunk_id, bm25(chunks_fts) FROM chunks_fts JOIN chunks c ON c.rowid = chunks_fts.rowid "
            "WHERE chunks_fts MATCH ?", (match,))}
        ours = dict(scored(store, " ".join(words), SearchFilters(principal=OPERATOR), 100))
        assert ours.keys() == fts5.keys() and len(ours) >= 2
        for chunk_id, score in ours.items():
            assert score == pytest.approx(fts5[chunk_id], rel=1e-12, abs=1e-15)
    store.close()


def test_an_acl_change_from_another_connection_moves_the_statistics(tmp_path) -> None:
    store = SqliteStore(tmp_path / "s.sqlite3")
    add(store, "b", "r1", BOB_TEXTS, acl=["bob"])
    add(store, "a", "r1", ["retainer retainer retainer fee"] * 3, acl=["alice"])
    hidden = scored(store, "retainer fee", BOB)
    other = SqliteStore(store.path)  # another process's write: only the file tells
    other.set_acl("a", ["alice", "bob"])
    shared = scored(store, "retainer fee", BOB)
    assert len(shared) == len(hidden) + 3 and dict(shared).keys() > dict(hidden).keys()
    assert [s for c, s in shared if c in dict(hidden)] != [s for _, s in hidden]
    other.set_acl("a", ["alice"])
    other.close()
    assert scored(store, "retainer fee", BOB) == hidden
    store.close()


def test_kept_visible_sets_are_bounded(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(sqlite_bm25, "VIEW_CACHE", 2)
    store = SqliteStore(tmp_path / "s.sqlite3")
    for name in ("p0", "p1", "p2", "p3"):
        add(store, name, "r1", [f"royalty clause for {name}"] * (1 + int(name[1])), acl=[name])
    answers = {}
    for _ in range(2):
        for name in ("p0", "p1", "p2", "p3"):
            got = scored(store, "royalty", SearchFilters(principal=Principal(name)))
            assert len(got) == 1 + int(name[1])
            assert answers.setdefault(name, got) == got
            assert len(store._visible._kept) <= 2
    store.close()


def test_kept_postings_are_bounded_and_follow_chunk_writes(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(sqlite_bm25, "CACHE_POSTINGS", 3)  # pairs kept: about one word here
    store = SqliteStore(tmp_path / "s.sqlite3")
    add(store, "b", "r1", BOB_TEXTS)
    everyone = SearchFilters(principal=OPERATOR)
    first = scored(store, "retainer fee schedule notice", everyone)
    assert scored(store, "retainer fee schedule notice", everyone) == first
    kept = store._postings._words
    assert store._postings._postings <= 3 or len(kept) == 1  # one word larger than the bound stays
    assert sum(r.size for r, _ in kept.values()) == store._postings._postings
    put(store, "c", "r1", ["retainer notice"], [axis(5)])  # written, not current: no score moves
    assert scored(store, "retainer fee schedule notice", everyone) == first
    # Not current, so no live_log entry: the kept postings stay (they answer for current rows).
    resets = store._postings.resets
    assert store._postings._head == int(store._db().execute("SELECT max(seq) FROM live_log").fetchone()[0])
    store.activate_revision("c", "r1")  # now current: brought forward, not read again
    assert scored(store, "retainer fee schedule notice", everyone) != first
    assert store._postings.resets == resets
    store.close()


def test_a_tie_wider_than_one_id_lookup_still_breaks_on_chunk_id(tmp_path) -> None:
    """Every row tied with the n-th score is looked up (in batches of 900 ids) before the cut."""
    store = SqliteStore(tmp_path / "s.sqlite3")
    made = add(store, "d", "r1", ["escrow account"] * 1000)
    ranked = store.bm25("escrow", SearchFilters(principal=OPERATOR), 3)
    assert ids(ranked) == sorted(made)[:3] and len({r.score for r in ranked}) == 1
    store.close()
