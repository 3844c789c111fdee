"""Auth, upload and status, input errors, search, source view, subjects, health."""

from __future__ import annotations

import json

import pytest

from tests.api.conftest import ADMIN, ALICE, ALICE_TEXT, BOB, SAMPLES, ingest, upload, wait_for


def assert_error(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"}
    assert set(body["error"]) == {"code", "message", "request_id"}
    assert body["error"]["code"] == code
    assert body["error"]["request_id"] == response.headers["x-request-id"]
    return body


# -- auth -------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "method,path",
    [
        ("get", "/v1/documents"),
        ("get", "/v1/documents/x"),
        ("delete", "/v1/documents/x"),
        ("post", "/v1/search"),
        ("post", "/v1/evidence/query"),
        ("get", "/v1/subjects"),
        ("get", "/v1/audit"),
        ("get", "/metrics"),
        ("get", "/v1/documents/x/revisions/" + "0" * 64 + "/text"),
    ],
)
@pytest.mark.parametrize("auth", [None, "Bearer wrong-key-0123456789abc", "Basic abc", "Bearer "])
def test_missing_or_invalid_key_is_401(client, method, path, auth):
    headers = {"Authorization": auth} if auth else {}
    response = getattr(client, method)(path, headers=headers)
    assert_error(response, 401, "unauthorized")
    assert response.headers["www-authenticate"] == "Bearer"


def test_no_keys_configured_refuses_everything(app_factory, tmp_path):
    client = app_factory(tmp_path / "nokeys", api_keys=None)
    assert_error(client.get("/v1/documents", headers=ALICE), 401, "unauthorized")
    assert client.get("/healthz").status_code == 200


def test_request_id_header(client):
    """The server issues the request id; a sane client value is echoed apart."""
    response = client.get("/healthz", headers={"X-Request-ID": "client-chosen-id-42"})
    assert len(response.headers["x-request-id"]) == 32
    assert response.headers["x-request-id"] != "client-chosen-id-42"
    assert response.headers["x-client-request-id"] == "client-chosen-id-42"
    response = client.get("/healthz", headers={"X-Request-ID": "bad id with spaces\t"})
    assert len(response.headers["x-request-id"]) == 32
    assert "x-client-request-id" not in response.headers


def test_non_admin_audit_is_403(client):
    assert_error(client.get("/v1/audit", headers=ALICE), 403, "forbidden")
    assert client.get("/v1/audit", headers=ADMIN).status_code == 200


# -- upload and status --------------------------------------------------------------------------
def test_upload_then_poll_until_indexed(client):
    response = upload(client, ALICE, ALICE_TEXT, "supply.txt", doc_id="supply", title="Supply",
                      collection="contracts", metadata='{"source": "test"}')
    assert response.status_code == 202, response.text
    accepted = response.json()
    assert accepted["doc_id"] == "alice~supply"
    assert accepted["status"] == "received"
    assert len(accepted["revision"]) == 64
    body = wait_for(client, ALICE, "supply", accepted["revision"])
    assert body["status"] == "indexed" and body["stage"] == "indexed" and body["error"] is None
    assert body["current_revision"] == accepted["revision"]
    assert body["acl"] == ["alice"]  # default ACL: the uploader
    assert body["title"] == "Supply" and body["collection"] == "contracts"
    assert body["metadata"] == {"source": "test"}
    assert [r["revision"] for r in body["revisions"]] == [accepted["revision"]]
    assert body["jobs"][0]["state"] == "done"
    listed = client.get("/v1/documents", headers=ALICE, params={"status": "indexed"}).json()
    assert listed["total"] == 1 and listed["documents"][0]["doc_id"] == "alice~supply"
    # Same bytes again: a job that ends unchanged, no new revision.
    again = upload(client, ALICE, ALICE_TEXT, "supply.txt", doc_id="supply").json()
    body = wait_for(client, ALICE, "supply", again["revision"])
    assert len(body["revisions"]) == 1


def test_upload_without_doc_id_gets_one(client):
    accepted = ingest(client, ALICE, "Plain words about the Orbitrex compressor.\n", filename="n.txt")
    assert accepted["doc_id"].startswith("doc-")


def test_failed_ingestion_is_visible(client):
    response = upload(client, ALICE, b"%PDF-1.7 this is not really a pdf", "broken.pdf", doc_id="broken")
    assert response.status_code == 202
    body = wait_for(client, ALICE, "broken")
    assert body["status"] == "failed"
    assert body["error"]


def test_cuad_sample_pdf_ingests(client):
    path = next(SAMPLES.glob("*.PDF"))
    accepted = ingest(client, ALICE, path.read_bytes(), filename=path.name, doc_id="cuad-pdf")
    hits = client.post("/v1/search", headers=ALICE, json={"query": "reseller agreement", "k": 3}).json()["hits"]
    assert hits and hits[0]["doc_id"] == "alice~cuad-pdf"
    assert hits[0]["revision"] == accepted["revision"]


def test_too_large_is_413(app_factory):
    client = app_factory(max_file_bytes=2000)
    assert_error(upload(client, ALICE, "x" * 2001, "big.txt"), 413, "payload_too_large")
    # exactly at the limit is fine
    assert upload(client, ALICE, "word " * 400, "ok.txt").status_code == 202
    # far over the limit: refused from Content-Length before the body is read
    response = upload(client, ALICE, b"y" * (3 * 1024 * 1024), "huge.txt")
    assert_error(response, 413, "payload_too_large")
    assert list((client.app.state.ctx.settings.data_dir / "uploads").glob(".incoming-*")) == []


@pytest.mark.parametrize(
    "filename,content",
    [
        ("virus.exe", b"MZ\x90\x00binary"),
        ("notes.txt", b"\x00\x01\x02\x03 binary under a text name"),
        ("sheet.xlsx", b"PK\x03\x04whatever"),
        ("noext", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1 ole"),
    ],
)
def test_unsupported_type_is_415(client, filename, content):
    body = assert_error(upload(client, ALICE, content, filename), 415, "unsupported_media_type")
    assert "unsupported type" in body["error"]["message"]


@pytest.mark.parametrize(
    "fields,message",
    [
        ({"acl": "[not json"}, "acl"),
        ({"acl": '{"a": 1}'}, "acl"),
        ({"acl": " , ,"}, "acl"),
        ({"metadata": "[1, 2]"}, "metadata"),
        ({"metadata": "{bad"}, "metadata"),
        ({"doc_id": "a/b"}, "doc_id"),
    ],
)
def test_bad_form_fields_are_422(client, fields, message):
    body = assert_error(upload(client, ALICE, "text", "a.txt", **fields), 422, "validation_error")
    assert message in body["error"]["message"]


def test_validation_errors_have_the_one_shape(client):
    assert_error(client.post("/v1/documents", headers=ALICE), 422, "validation_error")
    assert_error(client.post("/v1/documents", headers=ALICE, files={"file": ("e.txt", b"")}), 422, "validation_error")
    assert_error(client.post("/v1/search", headers=ALICE, json={}), 422, "validation_error")
    assert_error(client.post("/v1/search", headers=ALICE, json={"query": "x", "k": 0}), 422, "validation_error")
    assert_error(client.post("/v1/search", headers=ALICE, content=b"{not json",
                             ), 422, "validation_error")
    assert_error(client.get("/v1/documents", headers=ALICE, params={"limit": "many"}), 422, "validation_error")
    assert_error(client.get("/nowhere", headers=ALICE), 404, "not_found")
    assert_error(client.patch("/v1/search", headers=ALICE), 405, "method_not_allowed")


def test_acl_accepts_json_or_commas(client):
    a = upload(client, ALICE, "one", "a.txt", doc_id="a1", acl='["alice", "legal"]').json()
    b = upload(client, ALICE, "two", "b.txt", doc_id="b1", acl="alice, sales").json()
    assert wait_for(client, ALICE, a["doc_id"])["acl"] == ["alice", "legal"]
    assert wait_for(client, ALICE, b["doc_id"])["acl"] == ["alice", "sales"]


def test_new_revision_and_delete(client):
    first = ingest(client, ALICE, ALICE_TEXT, filename="s.txt", doc_id="s")
    second = ingest(client, ALICE, ALICE_TEXT.replace("five (5)", "seven (7)"), filename="s.txt", doc_id="s")
    body = client.get("/v1/documents/s", headers=ALICE).json()
    assert [r["revision"] for r in body["revisions"]] == [first["revision"], second["revision"]]
    hits = client.post("/v1/search", headers=ALICE, json={"query": "initial term years"}).json()["hits"]
    assert hits and {h["revision"] for h in hits} == {second["revision"]}
    # the old revision stays readable in the source view
    old = client.get(f"/v1/documents/s/revisions/{first['revision']}/text", headers=ALICE).json()
    assert "five (5)" in old["passage"] and old["current"] is False
    response = client.delete("/v1/documents/s", headers=ALICE)
    assert response.status_code == 200 and response.json() == {"doc_id": "alice~s", "deleted": True}
    assert client.get("/v1/documents/s", headers=ALICE).status_code == 404
    assert client.post("/v1/search", headers=ALICE, json={"query": "initial term years"}).json()["hits"] == []


# -- search, source view, subjects ------------------------------------------------------------------
def test_search_and_source_view_exact_passage(two_tenants):
    client, docs = two_tenants
    response = client.post("/v1/search", headers=ALICE, json={"query": "Orbitrex compressor units per year", "k": 5})
    assert response.status_code == 200
    hits = response.json()["hits"]
    assert hits and all(h["doc_id"] == "alice~alice-supply" for h in hits)
    hit = hits[0]
    assert set(hit) == {"chunk_id", "doc_id", "revision", "title", "page", "section", "line_start",
                        "line_end", "char_start", "char_end", "text", "score", "bm25_rank", "knn_rank"}
    needle = "The Distributor\nshall purchase at least 40,000 units"
    start = ALICE_TEXT.index(needle)
    end = start + len(needle)
    url = f"/v1/documents/alice-supply/revisions/{hit['revision']}/text"
    view = client.get(url, headers=ALICE, params={"char_start": start, "char_end": end, "context": 50})
    assert view.status_code == 200, view.text
    body = view.json()
    assert body["passage"] == needle
    assert body["context_before"] == ALICE_TEXT[start - 50 : start]
    assert body["context_after"] == ALICE_TEXT[end : end + 50]
    assert body["location"]["line_start"] == ALICE_TEXT[:start].count("\n") + 1
    assert body["location"]["line_end"] == body["location"]["line_start"] + 1
    assert body["location"]["section"] and body["location"]["chunk_ids"]
    assert body["current"] is True and body["text_length"] == len(ALICE_TEXT)
    # default context is 200 chars
    body = client.get(url, headers=ALICE, params={"char_start": start, "char_end": end}).json()
    assert body["context_start"] == max(0, start - 200)
    # the hit's own offsets give back its text
    own = client.get(url, headers=ALICE, params={"char_start": hit["char_start"], "char_end": hit["char_end"]}).json()
    assert own["passage"] == hit["text"]
    # out of range for a visible document: 422
    assert_error(client.get(url, headers=ALICE, params={"char_start": 5, "char_end": 10**6}), 422, "validation_error")
    assert_error(client.get(url, headers=ALICE, params={"char_start": 9, "char_end": 3}), 422, "validation_error")


def test_search_filters(two_tenants):
    client, _ = two_tenants
    q = {"query": "agreement term"}
    assert client.post("/v1/search", headers=ALICE, json={**q, "filters": {"collections": ["nope"]}}).json()["hits"] == []
    hits = client.post("/v1/search", headers=ALICE, json={**q, "filters": {"doc_ids": ["alice-supply"]}}).json()["hits"]
    assert hits and {h["doc_id"] for h in hits} == {"alice~alice-supply"}
    assert_error(client.post("/v1/search", headers=ALICE, json={**q, "filters": {"bogus": 1}}), 422, "validation_error")


def test_subjects_endpoint_shape(two_tenants):
    client, _ = two_tenants
    response = client.get("/v1/subjects", headers=ALICE)
    assert response.status_code == 200
    subjects = response.json()["subjects"]
    for s in subjects:
        assert set(s) == {"subject_id", "name", "type", "aliases", "attributes", "bindings"}
        assert all(b["doc_id"] == "alice~alice-supply" for b in s["bindings"])


# -- health -------------------------------------------------------------------------------------
def test_health_and_readiness(client):
    assert client.get("/healthz").json() == {"status": "ok", "checks": {}}
    ready = client.get("/readyz")
    assert ready.status_code == 200
    assert ready.json()["checks"] == {"store": True, "embedder": True, "ingest_worker": True}


def test_openapi_and_docs(client):
    spec = client.get("/openapi.json").json()
    assert "/v1/evidence/query" in spec["paths"]
    assert client.get("/docs").status_code == 200
    assert json.dumps(spec)  # serialisable
