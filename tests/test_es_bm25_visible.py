"""Elasticsearch's BM25 takes its statistics (chunk count, document frequencies, average length)
from the chunks the principal may read only (``ingest/store/es_bm25.py``), with the embedded
store's formula and tokenizer: nothing outside that set (other principals' documents, old
revisions, deleted documents) may change a principal's scores or order, and the scores are the
embedded store's for the same corpus. Real Elasticsearch test node and real SQLite files,
hand-made records (the contract suite's helpers).

The guarantees both stores share (visible statistics, replaced revisions, ACL changes, ties)
are in the contract suite (``tests/test_store_contract.py``); this file holds the Elasticsearch
side's own: parity with the embedded store, the candidate window, term fields, migration."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Iterator

import pytest

import mappings
from ingest.store import es_bm25
from ingest.store.port import Principal, SearchFilters, StoreError
from ingest.store.sqlite import SqliteStore
from tests.conftest import _make_store
from tests.test_store_contract import BOB_TEXTS, LONG_QUERY, add, ids, scored

pytestmark = pytest.mark.es
OPERATOR = Principal.local_operator()
BOB = SearchFilters(principal=Principal("bob"))
ALICE = SearchFilters(principal=Principal("alice"))
EVERYONE = SearchFilters(principal=OPERATOR)


@pytest.fixture
def es_stores(tmp_path: Path) -> Iterator[SimpleNamespace]:
    """A factory of Elasticsearch stores (``es_stores.new()``), each under its own index
    prefix, all dropped afterwards (skips, or fails under CI, without the test node)."""
    made: list = []

    def new():
        made.append(_make_store("es", tmp_path))
        return made[-1]

    yield SimpleNamespace(new=new)
    for store in made:
        store.drop_all()
        store.close()


def test_scores_are_the_embedded_stores_on_the_same_corpus(es_stores, tmp_path: Path) -> None:
    """Same records in both stores: the same chunks, the same order and bitwise the same
    scores (same tokenizer, same statistics, same operations in the same order), for the
    operator, a restricted principal, a doc filter and a pruned long query."""
    es = es_stores.new()
    sqlite = SqliteStore(tmp_path / "s.sqlite3")
    corpus = {
        "d0": (["the licensee shall pay royalties quarterly", "royalties accrue on net sales"], ["*"]),
        "d1": (["termination for convenience on notice", "notice of termination and royalties due"], ["bob"]),
        "d2": (["governing law is Délaware, the Licensee's law", "exclusive license granted to the licensee"], ["alice"]),
        "d3": (["royalties notice " + "filler " * 300, "licensee " + "word " * 2_000], ["*"]),
        "d4": ([f"payment of royalties clause {i} notice period advance" for i in range(12)], ["bob"]),
    }
    for store in (es, sqlite):
        for doc_id, (texts, acl) in corpus.items():
            add(store, doc_id, "r1", texts, acl=acl)
    queries = ["royalties", "licensee notice royalties termination", "delaware law", LONG_QUERY,
               "missingword", "royalties delaware"]
    for filters in (EVERYONE, BOB, ALICE, SearchFilters(principal=Principal("bob"), doc_ids=("d1", "d3"))):
        for query in queries:
            ours, theirs = scored(es, query, filters, 50), scored(sqlite, query, filters, 50)
            assert ours == theirs, (query, filters)
    assert scored(es, "royalties", BOB, 50)  # not vacuous
    sqlite.close()


def test_the_candidate_window_is_bounded_and_exact_up_to_its_bound(es_stores, monkeypatch) -> None:
    """Matches beyond the window are not scored: the window takes the best by IDF sum (ties by
    chunk id). Up to the bound every match is scored (the exact answer); one past it, the last
    match by (IDF sum, chunk id) is left out; a small window can miss the best BM25 score."""
    store = es_stores.new()
    # "alpha" is rarer than "beta", so IDF(alpha) > IDF(beta) > 0; the chunk holding "beta"
    # many times in a short text has the best BM25 score but the lowest IDF sum.
    add(store, "u", "r1", [f"unrelated gamma {i}" for i in range(20)])
    add(store, "f", "r1", [f"filler {i} beta" for i in range(8)])
    wide = add(store, "w", "r1", ["alpha beta " + "padding " * 200, "alpha " + "padding " * 200])
    short = add(store, "s", "r1", ["beta beta beta beta"])
    matches = 11  # 8 fillers, 2 wide, 1 short
    full = scored(store, "alpha beta", EVERYONE, 50)
    assert len(full) == matches and full[0][0] == short[0]
    monkeypatch.setattr(es_bm25, "WINDOW", matches)
    assert scored(store, "alpha beta", EVERYONE, 50) == full  # at the bound: every match scored
    assert scored(store, "alpha beta", EVERYONE, 3) == full[:3]
    monkeypatch.setattr(es_bm25, "WINDOW", matches - 1)
    cut = scored(store, "alpha beta", EVERYONE, matches - 1)
    # Left out: the last by (IDF sum, chunk id) among the eight one-"beta" chunks and the short one.
    singles = sorted(c for c, _ in full if c not in wide)
    assert {c for c, _ in cut} == {c for c, _ in full} - {singles[-1]}
    assert cut == [(c, s) for c, s in full if c != singles[-1]]  # the scored ones unchanged
    monkeypatch.setattr(es_bm25, "WINDOW", 2)
    assert ids(store.bm25("alpha beta", EVERYONE, 2)) == sorted(wide, key=lambda c: -dict(full)[c])
    # n above the window widens it: every match is scored again.
    assert scored(store, "alpha beta", EVERYONE, matches) == full
    # The doc-filtered window has its own bound (the evidence path's documents).
    monkeypatch.setattr(es_bm25, "DOC_FILTERED_WINDOW", 1)
    only = SearchFilters(principal=OPERATOR, doc_ids=("w", "s"))
    assert scored(store, "alpha beta", only, 1) == [(wide[0], dict(full)[wide[0]])]
    monkeypatch.setattr(es_bm25, "DOC_FILTERED_WINDOW", 3)
    assert scored(store, "alpha beta", only, 1) == [(short[0], dict(full)[short[0]])]


def test_the_window_is_exact_when_no_left_out_chunk_can_reach_the_top() -> None:
    # A left-out chunk scores below (k1 + 1) x its IDF sum (at most the window's last).
    assert es_bm25.window_is_exact([5.0, 3.0], 2, 2, False, 1.0)  # 3.0 > 2.2 x 1.0
    assert not es_bm25.window_is_exact([5.0, 2.0], 2, 2, False, 1.0)
    assert not es_bm25.window_is_exact([5.0], 2, 1, False, 0.1)  # fewer than n scored
    assert es_bm25.window_is_exact([], 2, 0, True, 0.0)  # every match was taken


def test_term_fields_count_like_the_embedded_store() -> None:
    (fields,) = es_bm25.term_fields(["Governing law: Délaware, DON'T pay 1,000 écoles-ecoles"])
    assert fields["text_tokens"] == 10
    assert fields["text_tf"] == {"governing": 1, "law": 1, "delaware": 1, "don": 1, "t": 1,
                                 "pay": 1, "1": 1, "000": 1, "ecoles": 2}
    assert fields["text_terms"] == sorted(fields["text_tf"])
    assert fields["text_tf_terms"] == ["ecoles#2"]
    (many,) = es_bm25.term_fields(["fee " * 5 + "late late"])
    assert many["text_tf_terms"] == ["fee#2", "fee#3", "fee#4", "fee#5", "late#2"]
    assert es_bm25.term_fields(["", "x"]) == [
        {"text_tokens": 0, "text_terms": [], "text_tf": {}, "text_tf_terms": []},
        {"text_tokens": 1, "text_terms": ["x"], "text_tf": {"x": 1}, "text_tf_terms": []},
    ]


def test_frequencies_past_the_mark_cap_are_read_exactly(es_stores, tmp_path: Path, monkeypatch) -> None:
    """A word repeated more often than the marks the candidates query asks for
    (``TF_CLAUSES``) has its frequency read from ``_source``: the scores stay the embedded
    store's. The number of marks per word shrinks with long queries, never below 2."""
    monkeypatch.setattr(es_bm25, "TF_CLAUSES", 3)
    es = es_stores.new()
    sqlite = SqliteStore(tmp_path / "s.sqlite3")
    texts = ["royalty " * 9 + "fee", "royalty royalty royalty fee fee", "royalty fee", "unrelated words"]
    for store in (es, sqlite):
        add(store, "d", "r1", texts)
    for query in ("royalty", "royalty fee"):
        got = scored(es, query, EVERYONE)
        assert got == scored(sqlite, query, EVERYONE) and len(got) == 3
    sqlite.close()
    assert es_bm25.tf_clauses(1) == 3 and es_bm25.tf_clauses(es_bm25.MAX_CLAUSES) == 2
    monkeypatch.setattr(es_bm25, "TF_CLAUSES", 16)
    assert es_bm25.tf_clauses(64) == 16 and es_bm25.tf_clauses(65) == 15


def test_an_index_older_than_the_fields_is_refused_until_migrated(es_stores, tmp_path: Path) -> None:
    """Fail-safe: a chunks index below es_bm25.TERMS_VERSION has no per-principal fields, so
    BM25 refuses (naming the migration) instead of ranking with Lucene's leaking statistics;
    ``migrate`` adds the fields to the copies it moves, and the scores are then the embedded
    store's."""
    assert mappings.latest_version("chunks") >= es_bm25.TERMS_VERSION
    store = es_stores.new()
    store.admin.create_index("chunks", 1, alias=True)  # an index from before the fields
    add(store, "b", "r1", BOB_TEXTS, acl=["bob"])
    add(store, "a", "r1", ["retainer retainer fee"], acl=["alice"])
    # Copies written by the code before the fields: no BM25 fields in their source.
    for hit in store.es.search(index=store.alias("chunks"), size=100).body["hits"]["hits"]:
        source = {k: v for k, v in hit["_source"].items() if k not in es_bm25.FIELDS}
        store.es.index(index=hit["_index"], id=hit["_id"], document=source, refresh=True)
    with pytest.raises(StoreError, match=r"mapping v1\) has no per-principal BM25 fields; run `attest es migrate`"):
        store.bm25("retainer fee", BOB, 10)
    report = store.migrate()
    assert report["chunks"].startswith(f"{store.index_name('chunks', 1)} -> ")
    sqlite = SqliteStore(tmp_path / "s.sqlite3")
    add(sqlite, "b", "r1", BOB_TEXTS, acl=["bob"])
    add(sqlite, "a", "r1", ["retainer retainer fee"], acl=["alice"])
    for filters in (BOB, ALICE, EVERYONE):
        assert scored(store, "retainer fee schedule", filters) == scored(sqlite, "retainer fee schedule", filters)
    assert scored(store, "retainer fee schedule", BOB)
    sqlite.close()


def test_a_long_doc_filtered_query_is_scored_exactly(es_stores, tmp_path: Path) -> None:
    """A doc-filtered query is never pruned: 300 words ask 3 marks each (``MAX_CLAUSES``), so
    most repeated words are read back from ``_source`` (in the mget body: their names would
    overflow a URL); the scores stay the embedded store's."""
    words = [f"term{i:03d}x{'y' * 20}" for i in range(300)]
    assert es_bm25.tf_clauses(len(words)) == 3
    texts = [" ".join(words[j] for j in range(i, 300, 7)) * (1 + i % 4) for i in range(7)]
    es = es_stores.new()
    sqlite = SqliteStore(tmp_path / "s.sqlite3")
    for store in (es, sqlite):
        add(store, "d", "r1", texts)
        add(store, "e", "r1", ["unrelated"] * 3)
    only = SearchFilters(principal=OPERATOR, doc_ids=("d",))
    got = scored(es, " ".join(words), only)
    assert len(got) == 7 and got == scored(sqlite, " ".join(words), only)
    sqlite.close()
