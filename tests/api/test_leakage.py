"""Leakage suite: what bob sees must not depend on alice's documents existing.

Bob sends adversarial requests naming alice's doc ids, revisions, offsets and subject names. Each
request goes to two apps: one where alice's document exists (forbidden to bob) and one where it
was never ingested. The responses must be equal byte for byte (status, headers, body) apart from
the request id. A positive control shows alice does get data for the same requests, so the suite
cannot pass vacuously.
"""

from __future__ import annotations

import json
import re
from typing import Any, Iterator

import pytest
from fastapi.testclient import TestClient

from tests.api.conftest import ALICE, ALICE_TEXT, BOB, BOB_TEXT, ingest, make_settings

ALICE_DOC = "alice~alice-supply"  # doc ids chosen at upload are in the uploader's namespace
IGNORED_HEADERS = {"x-request-id", "date"}
# Wall-clock stamps (updated_at, created_at, retrieved_at) differ between two apps by nature.
TIMESTAMP = re.compile(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)")
# Strings of alice's document that bob never sends himself.
ALICE_SECRETS = ["40,000", "Delaware", "Quillfeather", "Orbitrex", "five (5) years", "alice"]


@pytest.fixture(scope="module")
def worlds(tmp_path_factory, embedder) -> Iterator[dict[str, Any]]:
    from service.api import create_app

    full = TestClient(create_app(make_settings(tmp_path_factory.mktemp("full")), embedder=embedder),
                      raise_server_exceptions=False)
    bob_only = TestClient(create_app(make_settings(tmp_path_factory.mktemp("bob")), embedder=embedder),
                          raise_server_exceptions=False)
    with full, bob_only:
        alice = ingest(full, ALICE, ALICE_TEXT, filename="alice-supply.txt", doc_id=ALICE_DOC,
                       collection="contracts")
        for client in (full, bob_only):
            ingest(client, BOB, BOB_TEXT, filename="bob-consulting.txt", doc_id="bob-consulting",
                   collection="contracts")
        yield {"full": full, "bob_only": bob_only, "alice_revision": alice["revision"]}


def adversarial_requests(rev: str) -> list[tuple[str, str, dict[str, Any]]]:
    start = ALICE_TEXT.index("40,000")
    text = f"/v1/documents/{ALICE_DOC}/revisions/{rev}/text"
    return [
        ("GET", f"/v1/documents/{ALICE_DOC}", {}),
        ("GET", "/v1/documents", {}),
        ("GET", "/v1/documents", {"params": {"collection": "contracts"}}),
        ("GET", "/v1/documents", {"params": {"status": "indexed", "limit": 1, "offset": 1}}),
        ("GET", text, {}),
        ("GET", text, {"params": {"char_start": start, "char_end": start + 6}}),
        ("GET", text, {"params": {"char_start": 0, "char_end": 10**9}}),
        ("GET", text, {"params": {"char_start": 50, "char_end": 10}}),
        ("GET", f"/v1/documents/bob-consulting/revisions/{rev}/text", {}),
        ("DELETE", f"/v1/documents/{ALICE_DOC}", {}),
        ("PUT", f"/v1/documents/{ALICE_DOC}/acl", {"json": {"acl": ["bob"]}}),
        ("PUT", f"/v1/documents/{ALICE_DOC}/acl", {"json": {"acl": ["bad entry!"]}}),
        ("GET", "/v1/subjects", {}),
        ("GET", "/v1/subjects", {"params": {"name": "Zephyrion Holdings, Inc."}}),
        ("GET", "/v1/subjects", {"params": {"name": "Company"}}),
        ("GET", "/v1/subjects", {"params": {"type": "org"}}),
        ("GET", "/v1/subjects", {"params": {"type": "agreement"}}),
        ("GET", "/v1/subjects", {"params": {"role": "Distributor"}}),
        ("POST", "/v1/search", {"json": {"query": "Zephyrion Holdings supply agreement units"}}),
        ("POST", "/v1/search", {"json": {"query": "governing law term", "filters": {"doc_ids": [ALICE_DOC]}}}),
        ("POST", "/v1/search", {"json": {"query": "agreement", "filters": {"collections": ["contracts"]}}}),
        ("POST", "/v1/search", {"json": {"query": "monthly retainer consultant", "k": 50}}),
        ("POST", "/v1/evidence/query", {"json": {"question": "What is the governing law of the Master Supply Agreement?"}}),
        ("POST", "/v1/evidence/query", {"json": {"question": "Who is the distributor of Zephyrion Holdings, Inc.?"}}),
        ("POST", "/v1/evidence/query", {"json": {"question": "What is the term of the agreement?", "scope": {"doc_ids": [ALICE_DOC]}}}),
        ("POST", "/v1/evidence/query", {"json": {"question": "What is the monthly retainer under the Consulting Agreement?"}}),
        ("GET", "/v1/audit", {}),
        ("GET", "/metrics", {}),
    ]


def scrub(response) -> tuple[int, list[tuple[str, str]], bytes]:
    rid = response.headers["x-request-id"].encode()
    body = TIMESTAMP.sub(b"<time>", response.content.replace(rid, b"<request-id>"))
    headers = sorted(
        (k, v) for k, v in response.headers.items() if k.lower() not in IGNORED_HEADERS
    )
    return response.status_code, headers, body


RANKED_PATHS = {"/v1/search", "/v1/evidence/query"}
RANK_FIELDS = {"score", "bm25_rank", "knn_rank", "id", "confidence"}


def unranked(body: bytes) -> Any:
    """A ranked response without its order and scores: which passages, not in what order."""

    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k not in RANK_FIELDS}
        if isinstance(value, list):
            return sorted((strip(v) for v in value), key=lambda v: json.dumps(v, sort_keys=True))
        return value

    return strip(json.loads(body))


def test_bob_sees_the_same_whether_or_not_alice_exists(worlds):
    """Byte-identical, ranked endpoints included: the embedded store's BM25 statistics are
    bob's own visible chunks (ingest/store/sqlite_bm25.py), so alice's document moves neither
    the scores nor the order of bob's passages; and the set of passages, states, counts and
    everything else is identical too."""
    rev = worlds["alice_revision"]
    for method, path, kwargs in adversarial_requests(rev):
        seen = [
            scrub(worlds[world].request(method, path, headers=BOB, **kwargs))
            for world in ("full", "bob_only")
        ]
        assert seen[0][0] < 500, (method, path, seen[0])
        assert seen[0][0] == seen[1][0], (method, path, kwargs)
        if path in RANKED_PATHS and seen[0][0] == 200:  # the passages first: a clearer failure
            assert unranked(seen[0][2]) == unranked(seen[1][2]), (method, path, kwargs)
        assert seen[0] == seen[1], f"{method} {path} {kwargs} differs:\n{seen[0]}\n{seen[1]}"
        for secret in ALICE_SECRETS + [rev]:
            assert secret.encode() not in seen[0][2], (method, path, secret)


def test_forbidden_and_absent_are_byte_identical(worlds):
    """Within one app: alice's doc (exists, forbidden) vs a doc id that never existed."""
    client, rev = worlds["full"], worlds["alice_revision"]
    for method, suffix, kwargs in [
        ("GET", "", {}),
        ("DELETE", "", {}),
        ("PUT", "/acl", {"json": {"acl": ["bob"]}}),
        ("GET", f"/revisions/{rev}/text", {"params": {"char_start": 0, "char_end": 5}}),
        ("GET", f"/revisions/{rev}/text", {}),
    ]:
        real = scrub(client.request(method, f"/v1/documents/{ALICE_DOC}{suffix}", headers=BOB, **kwargs))
        ghost = scrub(client.request(method, f"/v1/documents/ghost-doc-00{suffix}", headers=BOB, **kwargs))
        assert real[0] == 404 and real == ghost, (method, suffix)
    # and the forbidden document is untouched by bob's delete and ACL attempts
    assert client.get(f"/v1/documents/{ALICE_DOC}", headers=ALICE).json()["acl"] == ["alice"]


def test_positive_control_alice_sees_her_data(worlds):
    client, rev = worlds["full"], worlds["alice_revision"]
    assert client.get(f"/v1/documents/{ALICE_DOC}", headers=ALICE).status_code == 200
    names = [s["name"] for s in client.get("/v1/subjects", headers=ALICE).json()["subjects"]]
    assert "Zephyrion Holdings, Inc." in names
    hits = client.post("/v1/search", headers=ALICE, json={"query": "Zephyrion Holdings supply agreement units"}).json()["hits"]
    assert any(h["doc_id"] == ALICE_DOC for h in hits)
    report = client.post("/v1/evidence/query", headers=ALICE,
                         json={"question": "What is the governing law of the Master Supply Agreement?"}).json()
    assert report["state"] == "CONCLUDED" and report["evidence"]
    assert report["evidence"][0]["doc_id"] == ALICE_DOC
    # bob's view of the same question is "not found", exactly as for a subject that never existed
    bob = client.post("/v1/evidence/query", headers=BOB,
                      json={"question": "What is the governing law of the Master Supply Agreement?"}).json()
    assert bob["state"] == "SUBJECT_NOT_FOUND" and bob["risk_signals"] == ["subject_not_found"]
    # alice's source view works with the same URL bob was refused
    view = client.get(f"/v1/documents/{ALICE_DOC}/revisions/{rev}/text", headers=ALICE)
    assert view.status_code == 200 and "40,000" in view.json()["passage"]


def test_acl_change_and_delete_take_effect_everywhere(app_factory):
    client = app_factory()
    ingest(client, ALICE, ALICE_TEXT, filename="a.txt", doc_id="shared")
    query = {"query": "Orbitrex compressor units"}

    def bob_sees() -> tuple[bool, bool, bool]:
        doc = client.get("/v1/documents/alice~shared", headers=BOB).status_code == 200
        hits = any(h["doc_id"] == "alice~shared" for h in client.post("/v1/search", headers=BOB, json=query).json()["hits"])
        subj = bool(client.get("/v1/subjects", headers=BOB, params={"name": "Zephyrion Holdings, Inc."}).json()["subjects"])
        return doc, hits, subj

    assert bob_sees() == (False, False, False)
    assert client.put("/v1/documents/alice~shared/acl", headers=ALICE, json={"acl": ["alice", "sales"]}).status_code == 200
    assert bob_sees() == (True, True, True)  # bob is in group "sales"
    assert client.put("/v1/documents/alice~shared/acl", headers=BOB, json={"acl": ["alice"]}).status_code == 200
    assert bob_sees() == (False, False, False)
    # admins manage any document (but read only by ACL)
    assert client.get("/v1/documents/alice~shared", headers={"Authorization": "Bearer admin-key-0123456789abcdef"}).status_code == 404
    assert client.delete("/v1/documents/alice~shared", headers={"Authorization": "Bearer admin-key-0123456789abcdef"}).status_code == 200
    assert client.get("/v1/documents/alice~shared", headers=ALICE).status_code == 404
    assert client.post("/v1/search", headers=ALICE, json=query).json()["hits"] == []


def test_upload_to_someone_elses_doc_id_makes_the_callers_own_document(app_factory):
    """Doc ids chosen at upload are names in the uploader's namespace: bob's "taken" is
    bob~taken, alice's document is neither refused to him (which told him the name was taken)
    nor overwritten (tests/security/test_doc_id_namespaces.py has the whole model)."""
    client = app_factory()
    ingest(client, ALICE, ALICE_TEXT, filename="a.txt", doc_id="taken")
    response = client.post("/v1/documents", headers=BOB, files={"file": ("x.txt", b"bob's text")},
                           data={"doc_id": "taken"})
    assert response.status_code == 202 and response.json()["doc_id"] == "bob~taken"
    assert b"Zephyrion" not in response.content
    body = client.get("/v1/documents/taken", headers=ALICE).json()
    assert body["doc_id"] == "alice~taken"
    assert len(body["revisions"]) == 1 and body["acl"] == ["alice"]
