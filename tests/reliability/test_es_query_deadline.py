"""A running Elasticsearch search ends at the request's deadline, against the real test node
(``ATTEST_ELASTICSEARCH_URL``; skipped without it, failed under CI)."""

from __future__ import annotations

import time
import uuid

import pytest

from ingest.deadline import (
    DeadlineExceeded,
    clear_deadline,
    deadline_message,
    set_deadline,
)
from ingest.store import elastic as elastic_module
from ingest.store.elastic import ElasticStore
from ingest.store.port import Principal, SearchFilters
from tests.conftest import _ES_URL_AT_START, require_es

# A search that returns every one of DOCS documents of WORDS words: Elasticsearch works on it for
# tens of milliseconds before its first byte (about 40 ms on the shared test node), longer than
# the deadline below.
DOCS = 8000
WORDS = 400
BUDGET = 0.005
# Trials whose budget ran out before the request was sent, tried again (see the test).
ENTRY_EXPIRY_RETRIES = 4


@elastic_module._translated
class BigStore(ElasticStore):
    """The real store plus one public search that takes long in Elasticsearch (translated like
    every other public method: deadline check on entry, error translation)."""

    def fetch_everything(self, index: str) -> int:
        body = self._search(index=index, query={"match_all": {}}, size=DOCS).body
        return len(body["hits"]["hits"])


@pytest.fixture
def big_store():
    if not _ES_URL_AT_START:
        require_es()  # skips, or fails under CI
    store = BigStore(_ES_URL_AT_START or "", prefix=f"attest-test-{uuid.uuid4().hex[:10]}")
    index = f"{store.prefix}-big"
    store.es.indices.create(index=index, settings={"number_of_shards": 1, "number_of_replicas": 0})
    text = " ".join(f"w{i}" for i in range(WORDS))
    for first in range(0, DOCS, 1000):
        operations: list[dict[str, object]] = []
        for n in range(first, first + 1000):
            operations += [{"index": {"_index": index, "_id": str(n)}}, {"n": n, "text": text}]
        store.es.bulk(operations=operations)
    store.es.indices.refresh(index=index)
    try:
        yield store, index
    finally:
        store.es.indices.delete(index=index, ignore_unavailable=True)
        store.close()


def test_a_search_running_past_a_tiny_remaining_deadline_fails_with_the_deadline_error(big_store):
    store, index = big_store
    started = time.monotonic()
    assert store.fetch_everything(index) == DOCS  # no deadline: runs to its end
    full = time.monotonic() - started
    # On a loaded machine the tiny budget can run out before the request leaves (the deadline
    # check on entry raises then, with no transport error behind it): that trial says nothing
    # about a search cut while running, so it is tried again, a bounded number of times.
    causes: list[str] = []
    for _ in range(ENTRY_EXPIRY_RETRIES + 1):
        token = set_deadline(BUDGET)
        started = time.monotonic()
        try:
            with pytest.raises(DeadlineExceeded) as caught:
                store.fetch_everything(index)
        finally:
            clear_deadline(token)
        ended = time.monotonic() - started
        assert str(caught.value) == deadline_message(BUDGET)
        causes.append(type(caught.value.__cause__).__name__)
        if caught.value.__cause__ is not None:
            break
    # Cut while running: the client's request_timeout was the time left, so the error is the
    # transport's timeout, raised within moments of the deadline (the full search takes longer).
    # (Earlier trials, if any, ended at the entry check: the loop stops at the first transport error.)
    assert causes[-1] == "ConnectionTimeout", causes
    assert ended < BUDGET + 0.5, ended
    assert full > BUDGET, full
    # The client stays usable: without a deadline the same search answers in full.
    assert store.fetch_everything(index) == DOCS
    assert store.ping()


def test_a_real_bm25_half_under_an_expired_deadline_is_the_deadline_error(es_store):
    """The hybrid query's BM25 half on the real adapter: the exact deadline error, never a store
    outage; afterwards (no deadline) it answers. (A search cut while running: the test above.)"""
    es_store.init_indexes()
    reader = Principal("alice")
    for budget in (0.0,):
        token = set_deadline(budget)
        try:
            with pytest.raises(DeadlineExceeded) as caught:
                es_store.bm25("governing law florida", SearchFilters(reader), 10)
        finally:
            clear_deadline(token)
        assert str(caught.value) == deadline_message(budget)
    assert es_store.bm25("governing law florida", SearchFilters(reader), 10) == []
    assert es_store.ping()
