"""The embedded store's BM25 takes its statistics (row count, document frequencies, average
length) from the chunks the principal may read only (``ingest/store/sqlite_bm25.py``): nothing
outside that set (other principals' documents, old revisions, deleted documents) may change a
principal's scores or order. Real SQLite files, hand-made records (the contract suite's
helpers)."""

from __future__ import annotations

import pytest

import ingest.store.sqlite_bm25 as sqlite_bm25
from ingest.store.port import Principal, SearchFilters
from ingest.store.sqlite import SqliteStore
from tests.test_store_contract import axis, ids, put

OPERATOR = Principal.local_operator()
BOB = SearchFilters(principal=Principal("bob"))
ALICE = SearchFilters(principal=Principal("alice"))
BOB_TEXTS = ["monthly retainer fee payable in advance", "payment schedule and late fee",
             "notice period of thirty days", "retainer retainer fee schedule"]


def scored(store: SqliteStore, query: str, filters: SearchFilters, n: int = 10) -> list[tuple[str, float]]:
    return [(r.chunk_id, r.score) for r in store.bm25(query, filters, n)]


def add(store: SqliteStore, doc_id: str, revision: str, texts: list[str], acl=("*",)) -> list[str]:
    chunks, _ = put(store, doc_id, revision, texts, [axis(i % 300) for i in range(len(texts))], acl=acl)
    store.activate_revision(doc_id, revision)
    return [c.chunk_id for c in chunks]


def test_a_word_only_in_alices_documents_leaves_bobs_scores_unchanged(tmp_path) -> None:
    store = SqliteStore(tmp_path / "s.sqlite3")
    add(store, "b", "r1", BOB_TEXTS, acl=["bob"])
    long_query = ("does the monthly retainer fee schedule payment notice period advance "
                  "payable late thirty days clause apply")
    before = [scored(store, q, BOB) for q in ("retainer fee", "payment schedule", long_query)]
    assert all(before) and before[0][0][0] == ids(store.bm25("retainer", BOB, 1))[0]
    # Alice's documents hold bob's query words, many times and in many chunks, and are long:
    # index-wide statistics would lower bob's IDFs and raise the average length.
    mine = add(store, "a", "r1", [f"retainer fee retainer schedule clause {i} " + "padding " * 40
                                  for i in range(30)], acl=["alice"])
    after = [scored(store, q, BOB) for q in ("retainer fee", "payment schedule", long_query)]
    assert after == before  # == on floats: bitwise the same scores, same order
    assert set(ids(store.bm25("retainer", ALICE, 50))) == set(mine)  # alice's own, by her statistics
    store.close()


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


def test_a_replaced_revision_or_a_deleted_document_counts_no_more(tmp_path) -> None:
    """Old revisions and deleted documents stay in FTS5's statistics until rows are removed;
    here they leave at once: the scores are exactly those of a file that never held them."""
    store = SqliteStore(tmp_path / "s.sqlite3")
    add(store, "b", "r1", BOB_TEXTS)
    alone = scored(store, "retainer fee schedule", BOB)
    add(store, "x", "r1", ["retainer fee retainer fee"] * 5)
    assert scored(store, "retainer fee schedule", BOB) != alone  # readable to bob: it counts
    add(store, "x", "r2", ["governing law of the state"])  # r1 replaced, still in the file
    clean = SqliteStore(tmp_path / "clean.sqlite3")
    add(clean, "b", "r1", BOB_TEXTS)
    add(clean, "x", "r2", ["governing law of the state"])
    expected = scored(clean, "retainer fee schedule", BOB)
    assert scored(store, "retainer fee schedule", BOB) == expected
    assert expected != alone  # x's r2 adds a row and its length
    assert store.delete_document("x")
    assert scored(store, "retainer fee schedule", BOB) == alone
    clean.close()
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


def test_ties_break_on_chunk_id_and_filters_do_not_change_a_score(tmp_path) -> None:
    store = SqliteStore(tmp_path / "s.sqlite3")
    made = [add(store, f"d{n}", "r1", ["governing law of Delaware", "other words here"])[0]
            for n in range(6)]
    everyone = SearchFilters(principal=OPERATOR)
    ranked = store.bm25("delaware law", everyone, 4)
    assert ids(ranked) == sorted(made)[:4] and len({r.score for r in ranked}) == 1
    assert store.bm25("delaware law", everyone, 4) == ranked  # same input, same output
    # A doc filter narrows the candidates, never the statistics: the same chunk, the same score.
    filtered = store.bm25("delaware law", SearchFilters(principal=OPERATOR, doc_ids=("d5", "d4")), 10)
    assert [r.score for r in filtered] == [ranked[0].score] * 2
    assert ids(filtered) == sorted(c for c in made if c in {made[4], made[5]})
    assert store.bm25("delaware", SearchFilters(principal=OPERATOR, doc_ids=("missing",)), 10) == []
    secret = add(store, "z", "r1", ["delaware delaware"], acl=["zed"])
    assert ids(store.bm25("delaware", SearchFilters(principal=Principal("zed")), 1)) == secret
    assert store.bm25("delaware", SearchFilters(principal=Principal("nobody")), 10) == \
        store.bm25("delaware", SearchFilters(principal=Principal("nobody")), 10)
    assert secret[0] not in ids(store.bm25("delaware", SearchFilters(principal=Principal("nobody")), 10))
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
