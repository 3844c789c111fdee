"""Elasticsearch administration split out of the query adapter (ingest/store/es_admin.py):
streaming bulk writes and the force-merge that keeps filtered kNN on the HNSW graph. Real test
node; skipped loudly without it."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout

import numpy as np
import pytest

from ingest.store.es_admin import BULK_CHUNK, bulk_write
from ingest.store.port import Principal, SearchFilters, StoreError
from tests.conftest import _make_store
from tests.test_store_contract import axis, ids, put

pytestmark = pytest.mark.es
OPERATOR = Principal.local_operator()


def test_streaming_bulk_writes_across_requests_and_reports_failures(es_store):
    es_store.init_indexes()
    index = es_store.alias("audit")
    n = BULK_CHUNK + 7  # more than one _bulk request
    written = bulk_write(
        es_store.es,
        ({"_op_type": "create", "_index": index, "_id": str(i), "_source": {"seq": i}} for i in range(n)),
        refresh=True,
    )
    assert written == n
    assert es_store.es.count(index=index).body["count"] == n  # refreshed once, at the end
    # Deleting a missing document is a retried delete, not an error ...
    assert bulk_write(es_store.es, [{"_op_type": "delete", "_index": index, "_id": "nope"}],
                      refresh=True) == 1
    # ... but a create that conflicts fails loudly, after the rest of the stream went through.
    with pytest.raises(StoreError, match="bulk write failed"):
        bulk_write(es_store.es, [
            {"_op_type": "create", "_index": index, "_id": "0", "_source": {"seq": 0}},
            {"_op_type": "create", "_index": index, "_id": "new", "_source": {"seq": 1}},
        ], refresh=True)
    assert es_store.es.count(index=index).body["count"] == n + 1


def test_optimize_merges_segments_and_answers_stay_the_same(es_store):
    for doc in ("a", "b", "c"):  # every write refreshes: one segment each
        put(es_store, doc, "r", [f"supply terms {doc}"], [axis(ord(doc) - ord("a"))])
        es_store.activate_revision(doc, "r")
    everyone = SearchFilters(principal=OPERATOR)
    before = (es_store.bm25("supply", everyone, 10), es_store.knn(np.array(axis(0)), everyone, 10))
    assert es_store.admin.segment_count("chunks") >= 2
    from service.cli import main

    out = io.StringIO()
    with redirect_stdout(out):
        code = main(["es", "optimize", "--url", es_store.url, "--prefix", es_store.prefix, "--json"])
    assert code == 0
    report = json.loads(out.getvalue())["chunks"]
    assert report["segments_before"] >= 2 and report["segments_after"] == 1
    assert (es_store.bm25("supply", everyone, 10), es_store.knn(np.array(axis(0)), everyone, 10)) == before
    assert len(ids(before[1])) == 3
    with pytest.raises(StoreError, match="at least 1"):
        es_store.admin.optimize("chunks", 0)


def test_knn_sent_ahead_is_used_only_for_the_same_request(es_store):
    a, _ = put(es_store, "a", "r", ["alpha"], [axis(0)], acl=["alice"])
    b, _ = put(es_store, "b", "r", ["beta"], [axis(0, 1)], acl=["bob"])
    es_store.activate_revision("a", "r")
    es_store.activate_revision("b", "r")
    everyone = SearchFilters(principal=OPERATOR)
    bob = SearchFilters(principal=Principal("bob"))
    query = np.array(axis(0))
    plain = es_store.knn(query, everyone, 5)
    with es_store.snapshot():
        es_store.prepare_knn(query, everyone, 5)
        assert es_store.knn(query, everyone, 5) == plain
    with es_store.snapshot():
        # Sent ahead for everyone, asked for bob: bob's own request runs, a is never returned.
        es_store.prepare_knn(query, everyone, 5)
        assert ids(es_store.knn(query, bob, 5)) == [b[0].chunk_id]
    assert ids(plain) == [a[0].chunk_id, b[0].chunk_id]


def test_node_urls_are_split_on_commas_and_an_empty_list_is_refused():
    from ingest.store.es_admin import es_hosts

    assert es_hosts("http://a:9200") == ["http://a:9200"]
    assert es_hosts(" http://a:9200 ,http://b:9200,, ") == ["http://a:9200", "http://b:9200"]
    assert es_hosts("http://a:9200,http://a:9200") == ["http://a:9200"]  # the client refuses twins
    with pytest.raises(StoreError, match="no Elasticsearch URL in ' , '"):
        es_hosts(" , ")


def test_the_shard_count_is_bounded_and_applies_to_the_chunks_index_only():
    from ingest.store.es_admin import MAX_SHARDS, IndexAdmin

    assert IndexAdmin(None, "p", shards=MAX_SHARDS).shards == MAX_SHARDS  # at the bound
    for bad in (0, MAX_SHARDS + 1):
        with pytest.raises(StoreError, match=f"shards must be between 1 and 64, not {bad}"):
            IndexAdmin(None, "p", shards=bad)
    admin = IndexAdmin(None, "p", shards=3)
    body = {"settings": {"number_of_shards": 1, "auto_expand_replicas": "0-1"}}
    assert admin.settings_of("chunks", body) == {"number_of_shards": 3, "auto_expand_replicas": "0-1"}
    assert admin.settings_of("documents", body) == body["settings"]
    assert IndexAdmin(None, "p").settings_of("chunks", body) == body["settings"]


def test_a_store_with_several_shards_and_two_urls_searches_all_of_them(tmp_path):
    import uuid

    from ingest.store.elastic import ElasticStore
    from tests.conftest import _ES_URL_AT_START

    _make_store("es", tmp_path).close()  # skips (or fails under CI) without the node
    # two entries for the one node: the client rotates over them
    url = f"{_ES_URL_AT_START},{_ES_URL_AT_START.replace('127.0.0.1', 'localhost')}"
    store = ElasticStore(url, prefix=f"attest-test-{uuid.uuid4().hex[:10]}", shards=2)
    try:
        store.init_indexes()
        settings = store.es.indices.get_settings(index=store.alias("chunks")).body
        assert [v["settings"]["index"]["number_of_shards"] for v in settings.values()] == ["2"]
        docs = store.es.indices.get_settings(index=store.alias("documents")).body
        assert [v["settings"]["index"]["number_of_shards"] for v in docs.values()] == ["1"]
        expected = []
        for n in range(6):  # ids hash over both shards
            chunks, _ = put(store, f"d{n}", "r1", [f"clause {n} about delivery"], [axis(n % 4)])
            store.activate_revision(f"d{n}", "r1")
            expected.append(chunks[0].chunk_id)
        found = store.bm25("delivery", SearchFilters(OPERATOR), 10)
        assert sorted(ids(found)) == sorted(expected)
        near = store.knn(np.array(axis(1)), SearchFilters(OPERATOR), 10)
        assert len(near) == 6 and near[0].chunk_id in (expected[1], expected[5])
    finally:
        store.drop_all()
        store.close()


def test_loading_turns_refresh_and_replicas_off_and_restores_them(es_store):
    es_store.init_indexes()
    keys = ("index.refresh_interval", "index.auto_expand_replicas")

    def settings(kind: str) -> dict:
        body = es_store.es.indices.get_settings(index=es_store.alias(kind), flat_settings=True).body
        return {k: next(iter(body.values()))["settings"].get(k) for k in keys}

    before = {kind: settings(kind) for kind in ("chunks", "documents")}
    assert before["chunks"] == {"index.refresh_interval": "1s", "index.auto_expand_replicas": "0-1"}
    with es_store.admin.loading():
        for kind in ("chunks", "documents"):
            assert settings(kind) == {"index.refresh_interval": "-1", "index.auto_expand_replicas": "false"}
    assert {kind: settings(kind) for kind in ("chunks", "documents")} == before
