"""Elasticsearch ``import_documents``: a failing batch keeps none of its documents. One document
the index rejects (a vector of the wrong dimension) inside a batch of three, on the real test
node (ATTEST_ELASTICSEARCH_URL): the call fails with the reason, and afterwards none of the
batch's documents, revisions or copies is stored or visible; the batch before stays current.
Nothing mocked."""

from __future__ import annotations

import numpy as np
import pytest

from ingest.store.port import SearchFilters, StoreError
from tests.test_store_contract import OPERATOR, _import_item, axis, ids


def _stored_ids(es_store, kind: str, doc_ids: list[str]) -> list[str]:
    es_store.es.indices.refresh(index=es_store.alias(kind))
    hits = es_store.es.search(index=es_store.alias(kind), size=100,
                              query={"terms": {"doc_id": doc_ids}})["hits"]["hits"]
    return sorted(h["_id"] for h in hits)


def test_a_batch_with_one_rejected_document_keeps_none_of_its_documents(es_store):
    before = _import_item("before", "r0", ["escrow terms settled"], [axis(5)])
    assert es_store.import_documents([before]) == 1
    good_a = _import_item("good-a", "ra", ["novation terms one", "novation terms two"], [axis(0), axis(1)])
    good_b = _import_item("good-b", "rb", ["novation terms three"], [axis(2)])
    bad = _import_item("bad", "rx", ["novation terms four"], [axis(3)])
    bad[3][0].embedding = [0.5, 0.5, 0.5]  # 3 dimensions in a 384-dimension field: rejected
    with pytest.raises(StoreError) as raised:
        es_store.import_documents([good_a, bad, good_b], batch_chunks=100)

    everyone = SearchFilters(principal=OPERATOR)
    batch = ["good-a", "bad", "good-b"]
    for doc_id in batch:
        assert es_store.get_document(doc_id) is None
    assert es_store.list_documents(OPERATOR)[1] == 1  # only "before"
    assert es_store.bm25("novation", everyone, 10) == []
    assert ids(es_store.knn(np.array(axis(0)), everyone, 10)) == [before[3][0].chunk_id]
    for kind in ("revisions", "chunks", "documents"):
        assert _stored_ids(es_store, kind, batch) == []  # nothing of the batch is stored
    assert es_store.revision_text("good-a", "ra") is None
    # The batch before is untouched and current.
    assert es_store.get_document("before").current_revision == "r0"
    assert ids(es_store.bm25("escrow", everyone, 10)) == [before[3][0].chunk_id]
    assert "different number of dimensions [3]" in raised.value.message
    assert raised.value.message.endswith("; none of the batch's 3 documents was kept")
    # The same documents import cleanly afterwards (nothing left over blocks their ids).
    good_bad = _import_item("bad", "rx", ["novation terms four"], [axis(3)])
    assert es_store.import_documents([good_a, good_bad, good_b]) == 4
    assert len(es_store.bm25("novation", everyone, 10)) == 4
