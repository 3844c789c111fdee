"""Visibility on Elasticsearch as a pure filter (ingest/store/es_visibility.py, issue 14).

A search reads one generation and filters on fields of the copies: it never reads the documents
index. A switch whose holder dies is repaired by the next one; an index written before the
fields is backfilled; a revocation published inside a snapshot applies to its next search.
"""

from __future__ import annotations

import threading

import numpy as np
import pytest

from ingest.store.es_visibility import NEVER, Truth, settled_fields
from ingest.store.port import Principal, SearchFilters
from tests.test_store_contract import OPERATOR, axis, ids, put

pytestmark = pytest.mark.es
BOB = Principal("bob")


def _search_count(store) -> int:
    stats = store.es.indices.stats(index=store.alias("documents"), metric="search").body
    return int(stats["_all"]["total"]["search"]["query_total"])


def test_searches_never_read_the_documents_index(es_store):
    for n in range(3):
        put(es_store, f"d{n}", "r", [f"termination notice {n}"], [axis(n)], acl=["bob"])
        es_store.activate_revision(f"d{n}", "r")
    before = _search_count(es_store)
    bob = SearchFilters(principal=BOB)
    with es_store.snapshot():
        assert len(es_store.bm25("termination notice", bob, 10)) == 3
        assert len(es_store.knn(np.array(axis(0)), bob, 10)) == 3
    assert len(es_store.bm25("termination", SearchFilters(principal=BOB, doc_ids=["d1"]), 10)) == 1
    es_store.find_subjects(BOB, name="nobody")
    assert _search_count(es_store) == before


def test_a_switch_whose_holder_died_is_repaired_by_the_next_switch(es_store):
    old, _ = put(es_store, "doc", "r1", [f"supply clause {i} old" for i in range(4)],
                 [axis(i) for i in range(4)])
    es_store.activate_revision("doc", "r1")
    new, _ = put(es_store, "doc", "r2", [f"supply clause {i} new" for i in range(4)],
                 [axis(10 + i) for i in range(4)])
    put(es_store, "other", "r", ["unrelated text"], [axis(20)])
    everyone = SearchFilters(principal=OPERATOR)
    # A holder takes the lease, switches the truth to r2 and writes half of its copies'
    # values, then dies: nothing is published.
    held = es_store.lease.acquire("doc")
    es_store.es.update(index=es_store.alias("documents"), id="doc",
                       doc={"current_revision": "r2", "rev_key": "doc#r2"}, refresh=True)
    gen = held.gen + 1
    for chunk in old[:2]:
        es_store.es.update(index=es_store.alias("chunks"), id=chunk.chunk_id, doc={"vis_to": gen})
    for chunk in new[:2]:
        es_store.es.update(index=es_store.alias("chunks"), id=chunk.chunk_id, doc={"vis_from": gen})
    es_store.es.indices.refresh(index=es_store.alias("chunks"))
    # Readers stay on the published generation: all of r1.
    assert sorted(ids(es_store.bm25("supply clause", everyone, 10))) == sorted(c.chunk_id for c in old)
    # The lease expires (its holder is gone); the next switch, of another document, repairs.
    state = es_store.es.get(index=es_store.alias("visibility"), id="state").body
    es_store.es.index(index=es_store.alias("visibility"), id="state",
                      document={**state["_source"], "lock": {**state["_source"]["lock"], "until_ms": 0}},
                      if_seq_no=state["_seq_no"], if_primary_term=state["_primary_term"])
    es_store.activate_revision("other", "r")
    assert sorted(ids(es_store.bm25("supply clause", everyone, 10))) == sorted(c.chunk_id for c in new)
    assert sorted(ids(es_store.knn(np.array(axis(10)), everyone, 10))) == sorted(
        [c.chunk_id for c in new] + [c.chunk_id for c in es_store.revision_chunks("other", "r")])


def test_an_index_written_before_the_visibility_fields_is_backfilled(es_store, tmp_path):
    chunks, _ = put(es_store, "doc", "r1", ["royalty rate", "royalty audit"], [axis(0), axis(1)],
                    acl=["bob"])
    es_store.activate_revision("doc", "r1")
    # What an index of the previous version looks like: no fields, no marker.
    es_store.es.bulk(refresh=True, operations=[
        op for c in chunks for op in (
            {"update": {"_index": es_store.alias("chunks"), "_id": c.chunk_id}},
            {"doc": {f: None for f in ("vis_from", "vis_to", "meta_gen", "acl_prev",
                                       "collection_prev")}},
        )
    ])
    documents = es_store.alias("documents")
    meta = next(iter(es_store.es.indices.get_mapping(index=documents).body.values()))
    es_store.es.indices.put_mapping(index=documents, meta={
        k: v for k, v in meta["mappings"]["_meta"].items() if k != "visibility"})
    bob = SearchFilters(principal=BOB)
    assert es_store.bm25("royalty", bob, 10) == []  # the simulation took effect
    from ingest.store.elastic import ElasticStore

    reopened = ElasticStore(es_store.url, prefix=es_store.prefix)
    try:
        assert sorted(ids(reopened.bm25("royalty", bob, 10))) == sorted(c.chunk_id for c in chunks)
        assert reopened.bm25("royalty", SearchFilters(principal=Principal("eve")), 10) == []
    finally:
        reopened.close()


def test_a_revocation_published_inside_a_snapshot_applies_to_its_next_search(es_store):
    put(es_store, "doc", "r", ["indemnification cap"], [axis(0)], acl=["bob"])
    es_store.activate_revision("doc", "r")
    put(es_store, "late", "r", ["indemnification basket"], [axis(1)], acl=["carol"])
    es_store.activate_revision("late", "r")
    bob = SearchFilters(principal=BOB)
    with es_store.snapshot():
        assert len(es_store.bm25("indemnification", bob, 10)) == 1
        writer = threading.Thread(target=lambda: (es_store.set_acl("doc", ["carol"]),
                                                  es_store.set_acl("late", ["bob"])))
        writer.start()
        writer.join(30)
        assert not writer.is_alive()
        assert es_store.bm25("indemnification", bob, 10) == []  # revoked: at once
        assert es_store.knn(np.array(axis(1)), bob, 10) == []  # granted: not in this block
    assert [r.chunk_id for r in es_store.bm25("indemnification", bob, 10)] == [
        c.chunk_id for c in es_store.revision_chunks("late", "r")]


def _copy(**fields) -> dict:
    base = {"rev_key": "d#r1", "vis_from": 3, "vis_to": NEVER, "meta_gen": 0, "acl": ["a"],
            "acl_prev": ["a"], "collection": "c", "collection_prev": "c"}
    return {**base, **fields}


def test_settled_fields_keep_the_old_generation_and_show_the_truth_to_the_next():
    truth = Truth("d#r2", ("a",), "c", True)
    # The current copy of r1 stops at generation 5; a never-current copy of r2 starts there.
    assert settled_fields(_copy(), truth, 5) == {"vis_to": 5}
    assert settled_fields(_copy(rev_key="d#r2", vis_from=NEVER, vis_to=NEVER), truth, 5) == {
        "vis_from": 5}
    # An ACL change: readers before 5 keep ["a"] (acl_prev), from 5 on ["b"].
    assert settled_fields(_copy(rev_key="d#r2"), Truth("d#r2", ("b",), "c", True), 5) == {
        "acl": ["b"], "meta_gen": 5}
    # A dead holder's unpublished values (above gen - 1) are erased or undone.
    assert settled_fields(_copy(rev_key="d#r9", vis_from=5), truth, 5) == {"vis_from": NEVER}
    assert settled_fields(_copy(vis_to=4), Truth("d#r1", ("a",), "c", True), 4) == {"vis_to": NEVER}
    assert settled_fields(_copy(), Truth("d#r1", ("a",), "c", True), 4) is None
    # A deleted document: every current copy stops.
    assert settled_fields(_copy(), Truth.of(None), 7) == {"vis_to": 7}


def test_an_import_that_died_before_publishing_leaves_nothing_visible(es_store):
    put(es_store, "kept", "r", ["escrow release"], [axis(0)])
    es_store.activate_revision("kept", "r")
    held = es_store.lease.acquire("*import*")
    # The dead import's copy of a document it never got to create, current from gen + 1.
    es_store.es.index(index=es_store.alias("chunks"), id="orphan", refresh=True, document={
        "chunk_id": "orphan", "doc_id": "never-created", "rev_key": "never-created#r",
        "text": "escrow release orphan", "acl": ["*"], "acl_prev": ["*"], "meta_gen": 0,
        "vis_from": held.gen + 1, "vis_to": NEVER})
    state = es_store.es.get(index=es_store.alias("visibility"), id="state").body
    es_store.es.index(index=es_store.alias("visibility"), id="state",
                      document={**state["_source"], "lock": {**state["_source"]["lock"], "until_ms": 0}},
                      if_seq_no=state["_seq_no"], if_primary_term=state["_primary_term"])
    es_store.set_acl("kept", ["*"])  # any switch takes the expired lease over and repairs
    everyone = SearchFilters(principal=OPERATOR)
    assert ids(es_store.bm25("escrow release", everyone, 10)) == [
        c.chunk_id for c in es_store.revision_chunks("kept", "r")]


def test_import_documents_makes_each_batch_current_and_never_overwrites(es_store):
    from ingest.schema import DocumentRecord
    from ingest.store.port import StoreError
    from tests.test_store_contract import make_chunks

    def item(doc_id: str, words: str, n: int, acl=("carol",)):
        chunks, text = make_chunks(doc_id, "r", [f"{words} {i}" for i in range(n)],
                                   [axis(i) for i in range(n)], acl)
        record = DocumentRecord(doc_id=doc_id, status="indexing", stage="indexing", error=None,
                                current_revision=None, title=doc_id, filename=f"{doc_id}.txt",
                                acl=list(acl), collection="contracts", metadata={},
                                updated_at="2026-01-01T00:00:00.000+00:00")
        return record, "r", text, chunks

    es_store.init_indexes()
    gen = es_store.lease.generation()
    # Batches of at least 3 chunks: a (2) + b (2) is one, c (1) the next: two switches.
    written = es_store.import_documents(
        [item("a", "lease renewal", 2), item("b", "lease renewal", 2),
         item("c", "lease renewal", 1, acl=("bob",))], batch_chunks=3, request_chunks=2)
    assert written == 5 and es_store.lease.generation() == gen + 2
    bob = SearchFilters(principal=BOB)
    assert len(es_store.bm25("lease renewal", SearchFilters(principal=OPERATOR), 10)) == 5
    assert ids(es_store.bm25("lease renewal", bob, 10)) == [
        c.chunk_id for c in es_store.revision_chunks("c", "r")]
    assert es_store.get_document("a").current_revision == "r"
    # An existing id fails its batch; the document already there is untouched and still current.
    with pytest.raises(StoreError, match="bulk write failed"):
        es_store.import_documents([item("a", "other words", 1)])
    assert len(es_store.bm25("lease renewal", SearchFilters(principal=OPERATOR), 10)) == 5
    assert es_store.bm25("other words", SearchFilters(principal=OPERATOR), 10) == []
