"""Elasticsearch-only behaviour: versioned indexes behind aliases, the model in ``_meta``,
``attest es init`` / ``migrate``, readiness. Skipped loudly without the test node."""

from __future__ import annotations

import io
import json
import uuid
from contextlib import redirect_stdout

import numpy as np
import pytest

import mappings
from ingest.store.port import AuditQuery, Principal, SearchFilters
from tests.test_store_contract import axis, ids, put

pytestmark = pytest.mark.es
OPERATOR = Principal.local_operator()
# A new store creates each kind at its newest mapping version; a migration goes one past all.
NEXT = mappings.latest_version() + 1


def test_indexes_are_versioned_behind_aliases(es_store):
    report = es_store.init_indexes()
    assert set(report) == set(mappings.KINDS)
    aliases = es_store.es.indices.get_alias(name=f"{es_store.prefix}-*").body
    for kind in mappings.KINDS:
        index = es_store.index_name(kind, mappings.latest_version(kind))
        assert report[kind] == f"created {index}"
        assert f"{es_store.prefix}-{kind}" in aliases[index]["aliases"]


def test_chunks_mapping_and_meta_hold_the_embedding_model(es_store):
    es_store.ensure_embedding_model("model-x", 384)
    body = es_store.es.indices.get_mapping(index=es_store.alias("chunks")).body
    (index, mapping), = body.items()
    assert index == es_store.index_name("chunks", mappings.latest_version("chunks"))
    meta = mapping["mappings"]["_meta"]
    assert (meta["embedding_model"], meta["embedding_dim"]) == ("model-x", 384)
    vector = mapping["mappings"]["properties"]["embedding"]
    assert (vector["type"], vector["dims"], vector["similarity"]) == ("dense_vector", 384, "cosine")
    assert vector["index"] is True and vector["index_options"]["type"] == "hnsw"
    assert mapping["mappings"]["properties"]["text"].get("analyzer", "standard") == "standard"
    assert es_store.embedding_model() == {"model": "model-x", "dim": 384}


def test_vectors_round_trip_through_revision_chunks(es_store):
    vector = np.random.default_rng(1).normal(size=384).astype(np.float32)
    vector /= np.linalg.norm(vector)
    put(es_store, "d", "r", ["some text"], [vector.tolist()])
    (chunk,) = es_store.revision_chunks("d", "r")
    assert chunk.embedding is not None
    assert np.allclose(np.asarray(chunk.embedding, dtype=np.float32), vector, atol=1e-6)


def _cli(*argv: str) -> tuple[int, dict]:
    from service.cli import main

    out = io.StringIO()
    with redirect_stdout(out):
        code = main(list(argv))
    return code, json.loads(out.getvalue())


def test_attest_es_init_is_idempotent(es_store):
    args = ("--url", es_store.url, "--prefix", es_store.prefix, "--json")
    code, first = _cli("es", "init", *args)
    assert code == 0
    assert all(v.startswith("created ") for v in first["indexes"].values())
    code, second = _cli("es", "init", *args)
    assert code == 0
    assert second["indexes"] == {k: v.replace("created", "exists") for k, v in first["indexes"].items()}
    code, status = _cli("es", "status", *args)
    assert code == 0 and status["ready"] is True
    assert status["indexes"]["chunks"] == es_store.index_name("chunks", mappings.latest_version("chunks"))


def test_migrate_moves_data_to_the_next_version_and_swaps_aliases(es_store):
    es_store.ensure_embedding_model("model-x", 384)
    chunks, text = put(es_store, "a", "r", ["governing law of Delaware", "term of ten years"],
                       [axis(0), axis(1)], acl=["alice"])
    es_store.activate_revision("a", "r")
    es_store.append_audit({"request_id": "q1", "principal": "alice", "action": "search"})
    everyone = SearchFilters(principal=OPERATOR)
    before_bm25 = es_store.bm25("delaware term", everyone, 10)
    before_knn = es_store.knn(np.array(axis(1)), everyone, 10)

    code, report = _cli("es", "migrate", "--to-version", str(NEXT), "--url", es_store.url,
                        "--prefix", es_store.prefix, "--json")
    assert code == 0
    old_chunks = es_store.index_name("chunks", mappings.latest_version("chunks"))
    assert report["indexes"]["chunks"].startswith(f"{old_chunks} -> {es_store.index_name('chunks', NEXT)}")
    assert es_store.current_indices() == {k: es_store.index_name(k, NEXT) for k in mappings.KINDS}
    # The old index is kept (write-blocked) for a rollback; the alias is only on the new one.
    aliases = es_store.es.indices.get_alias(index=f"{es_store.prefix}-chunks-v*").body
    assert aliases[old_chunks]["aliases"] == {}
    # Everything still answers the same through the aliases, and the model travelled along.
    assert es_store.bm25("delaware term", everyone, 10) == before_bm25
    assert es_store.knn(np.array(axis(1)), everyone, 10) == before_knn
    assert es_store.revision_text("a", "r") == text
    assert es_store.revision_chunks("a", "r")[0].embedding is not None
    assert es_store.embedding_model() == {"model": "model-x", "dim": 384}
    assert [e["request_id"] for e in es_store.list_audit(AuditQuery())] == ["q1"]
    # Writes go to the new indexes.
    new, _ = put(es_store, "b", "r", ["another Delaware clause"], [axis(2)])
    es_store.activate_revision("b", "r")
    assert new[0].chunk_id in ids(es_store.bm25("delaware", everyone, 10))
    # Migrating again to the same version is a no-op.
    assert set(es_store.migrate(NEXT).values()) == {f"at {es_store.index_name(k, NEXT)}" for k in mappings.KINDS}


def test_readiness_uses_cluster_health(es_store):
    assert es_store.ping() is True
    from ingest.store.elastic import ElasticStore

    dead = ElasticStore("http://127.0.0.1:9", prefix=f"x-{uuid.uuid4().hex[:6]}", max_retries=0,
                        request_timeout=2)
    try:
        assert dead.ping() is False
    finally:
        dead.close()
