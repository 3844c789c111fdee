"""Audit log, metrics, the persisted job queue across restarts, evidence wiring, concurrency."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from tests.api.conftest import ADMIN, ALICE, ALICE_TEXT, BOB, REPO, SAMPLES, ingest, make_settings, upload, wait_for


# -- audit --------------------------------------------------------------------------------------
def test_every_audited_action_lands_with_its_request_id(client):
    accepted = ingest(client, ALICE, ALICE_TEXT, filename="a.txt", doc_id="aud")
    rev = accepted["revision"]
    calls = {
        "search": client.post("/v1/search", headers=ALICE, json={"query": "governing law"}),
        "evidence_query": client.post(
            "/v1/evidence/query", headers=ALICE,
            json={"question": "What is the governing law of the Master Supply Agreement?"},
        ),
        "source_expanded": client.get(
            f"/v1/documents/aud/revisions/{rev}/text", headers=ALICE,
            params={"char_start": 0, "char_end": 20},
        ),
        "subject_lookup": client.get("/v1/subjects", headers=ALICE, params={"name": "Company"}),
        "acl_change": client.put("/v1/documents/aud/acl", headers=ALICE, json={"acl": ["alice", "legal"]}),
        "delete": client.delete("/v1/documents/aud", headers=ALICE),
    }
    for action, response in calls.items():
        assert response.status_code == 200, (action, response.text)
        rid = response.headers["x-request-id"]
        entries = client.get("/v1/audit", headers=ADMIN, params={"request_id": rid}).json()["entries"]
        assert [e["action"] for e in entries] == [action], action
        assert entries[0]["principal"] == "alice" and entries[0]["request_id"] == rid
    evidence = client.get("/v1/audit", headers=ADMIN, params={
        "request_id": calls["evidence_query"].headers["x-request-id"]}).json()["entries"][0]
    report = calls["evidence_query"].json()
    assert evidence["evidence_bundle_hash"] == report["evidence_bundle_hash"]
    assert evidence["evidence"] == report["evidence"] and evidence["evidence"]
    assert [t["state"] for t in evidence["trace"]] == [t["state"] for t in report["trace"]]
    assert evidence["input"]["question"].startswith("What is the governing law")
    expanded = client.get("/v1/audit", headers=ADMIN, params={
        "request_id": calls["source_expanded"].headers["x-request-id"]}).json()["entries"][0]
    assert (expanded["doc_id"], expanded["revision"], expanded["char_start"], expanded["char_end"]) == ("alice~aud", rev, 0, 20)
    # the upload request has two entries: queued, then the ingest outcome from the worker
    ingest_entries = client.get("/v1/audit", headers=ADMIN, params={"principal": "alice"}).json()["entries"]
    by_action = {e["action"]: e for e in ingest_entries}
    assert by_action["ingest"]["status"] == "indexed"
    assert by_action["ingest"]["request_id"] == by_action["ingest_queued"]["request_id"]
    # time filters
    all_entries = client.get("/v1/audit", headers=ADMIN).json()["entries"]
    assert client.get("/v1/audit", headers=ADMIN, params={"since": "2999-01-01"}).json()["entries"] == []
    assert len(client.get("/v1/audit", headers=ADMIN, params={"until": "2999-01-01"}).json()["entries"]) == len(all_entries)


def test_audit_log_is_append_only(client):
    client.post("/v1/search", headers=ALICE, json={"query": "anything"})
    store = client.app.state.ctx.store
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        store._db().execute("UPDATE audit SET principal = 'mallory'")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        store._db().execute("DELETE FROM audit")
    # and the API offers no way to change it
    assert client.delete("/v1/audit", headers=ADMIN).status_code == 405
    assert client.put("/v1/audit", headers=ADMIN, json={}).status_code == 405


# -- metrics ------------------------------------------------------------------------------------
def test_metrics_exposition(client):
    ingest(client, ALICE, ALICE_TEXT, filename="m.txt", doc_id="m")
    client.post("/v1/search", headers=ALICE, json={"query": "term"})
    client.get("/v1/documents/nope", headers=ALICE)
    assert client.get("/metrics", headers=ALICE).status_code == 403
    response = client.get("/metrics", headers=ADMIN)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain; version=0.0.4")
    text = response.text
    assert "# TYPE attest_http_requests_total counter" in text
    assert 'attest_http_requests_total{method="POST",route="/v1/search",status="200"} 1' in text
    assert 'attest_http_requests_total{method="GET",route="/v1/documents/{doc_id}",status="404"} 1' in text
    assert "# TYPE attest_http_request_duration_seconds histogram" in text
    assert 'attest_http_request_duration_seconds_bucket{le="+Inf",method="POST",route="/v1/search"} 1' in text
    assert 'attest_http_request_duration_seconds_count{method="POST",route="/v1/search"} 1' in text
    assert "attest_ingest_queue_depth 0" in text
    assert 'attest_documents{status="indexed"} 1' in text
    assert 'attest_ingest_jobs{state="done"} 1' in text
    for line in text.splitlines():  # every sample line parses as name{labels} value
        if line and not line.startswith("#"):
            name_labels, value = line.rsplit(" ", 1)
            float(value)
            assert name_labels.startswith("attest_")


# -- the persisted job queue ----------------------------------------------------------------------
def test_restart_resumes_persisted_jobs(tmp_path, app_factory):
    from ingest.pipeline import revision_of
    from service.api.jobs import JobStore

    jobs = JobStore(tmp_path)
    queued = ALICE_TEXT.encode()
    crashed = ALICE_TEXT.replace("Delaware", "New York").encode()
    lost = b"bytes whose upload file will be gone"
    for data in (queued, crashed, lost):
        jobs.upload_path(revision_of(data)).write_bytes(data)
    jobs.add(doc_id="resume-queued", revision=revision_of(queued), filename="q.txt",
             principal="alice", request_id="req-queued-0001", acl=["alice"])
    jobs.add(doc_id="resume-running", revision=revision_of(crashed), filename="r.txt",
             principal="alice", request_id="req-running-001", acl=["alice"])
    jobs.add(doc_id="resume-lost", revision=revision_of(lost), filename="l.txt",
             principal="alice", request_id="req-lost-000001", acl=["alice"])
    # The old process claims the first job and the second, and dies: "running" with an owner
    # whose lock went with it (a live owner's job would not be interrupted).
    claimer = ("import sys; from pathlib import Path; from service.api.jobs import JobStore; "
               "j = JobStore(Path(sys.argv[1])); j.claim(); j.claim()")
    subprocess.run([sys.executable, "-c", claimer, str(tmp_path)], check=True, cwd=REPO)
    claimed = jobs.for_document("resume-running")[0]
    assert claimed.state == "running" and claimed.attempts == 1
    jobs.upload_path(revision_of(lost)).unlink()
    jobs.close()

    client = app_factory(tmp_path)  # a new app instance over the same data dir
    for doc_id, data in (("resume-queued", queued), ("resume-running", crashed)):
        body = wait_for(client, ALICE, doc_id, revision_of(data))
        assert body["status"] == "indexed" and body["current_revision"] == revision_of(data)
    states = {j.doc_id: (j.state, j.error) for j in
              (client.app.state.ctx.jobs.for_document(d)[0] for d in ("resume-queued", "resume-running", "resume-lost"))}
    assert states["resume-lost"][0] == "failed" and "upload file missing" in states["resume-lost"][1]
    audit = client.get("/v1/audit", headers=ADMIN, params={"request_id": "req-running-001"}).json()["entries"]
    assert [e["action"] for e in audit] == ["ingest"] and audit[0]["status"] == "indexed"
    assert not any(client.app.state.ctx.jobs.uploads.iterdir())  # finished uploads are released


def test_full_queue_is_503_with_retry_after(app_factory, tmp_path):
    client = app_factory(ingest_queue_size=1)
    ctx = client.app.state.ctx
    ctx.worker.stop()  # nothing drains the queue
    assert upload(client, ALICE, "first document text", "a.txt").status_code == 202
    response = upload(client, ALICE, "second document text", "b.txt", doc_id="second")
    assert response.status_code == 503
    assert response.headers["retry-after"] == "30"
    assert response.json()["error"]["code"] == "unavailable"
    assert client.get("/v1/documents/second", headers=ALICE).status_code == 404


def test_delete_cancels_queued_jobs(app_factory):
    client = app_factory()
    client.app.state.ctx.worker.stop()
    accepted = upload(client, ALICE, "queued text", "q.txt", doc_id="q").json()
    assert client.get("/v1/documents/q", headers=ALICE).json()["status"] == "received"
    assert client.delete("/v1/documents/q", headers=ALICE).status_code == 200
    job = client.app.state.ctx.jobs.get(accepted["job_id"])
    assert job.state == "cancelled"


# -- evidence wiring --------------------------------------------------------------------------------
def test_evidence_query_endpoint(two_tenants):
    client, _ = two_tenants
    response = client.post("/v1/evidence/query", headers=ALICE,
                           json={"question": "What is the governing law of the Master Supply Agreement?"})
    assert response.status_code == 200, response.text
    report = response.json()
    assert report["request_id"] == response.headers["x-request-id"]
    assert report["state"] == "CONCLUDED"
    item = report["evidence"][0]
    view = client.get(item["source_url"], headers=ALICE).json()  # the UI hook resolves
    assert view["passage"] == item["excerpt"] or item["excerpt"] in view["passage"]
    bad = client.post("/v1/evidence/query", headers=ALICE, json={"question": ""})
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "validation_error"
    bad = client.post("/v1/evidence/query", headers=ALICE, json={"question": "x", "subject": {"kind": "nope"}})
    assert bad.status_code == 422


# -- concurrency ----------------------------------------------------------------------------------
def test_concurrent_queries_during_a_revision_switch(tmp_path, embedder):
    """8 clients query /v1/search over real HTTP while a new revision of the queried document is
    ingested: no errors, and every response's hits for that document share one revision."""
    from service.api import create_app
    from service.api.server import serve_in_thread

    sample = next(p for p in sorted(SAMPLES.glob("*.txt")))
    old = sample.read_bytes()
    new = old.replace(b"Agreement", b"Contract")
    app = create_app(make_settings(tmp_path), embedder=embedder)
    with serve_in_thread(app) as base, httpx.Client(base_url=base, timeout=60) as http:
        def up(data: bytes) -> dict:
            r = http.post("/v1/documents", headers=ALICE, files={"file": (sample.name, data)},
                          data={"doc_id": "switch"})
            assert r.status_code == 202, r.text
            return r.json()

        first = up(old)
        while http.get("/v1/documents/switch", headers=ALICE).json()["status"] not in ("indexed", "failed"):
            time.sleep(0.2)
        second = up(new)
        done = threading.Event()
        revisions_seen: set[str] = set()
        errors: list[str] = []

        def hammer(worker: int) -> int:
            n = 0
            with httpx.Client(base_url=base, timeout=60) as own:
                while not done.is_set() or n < 3:
                    query = ["term of the agreement", "termination notice", "payment fees"][n % 3]
                    r = own.post("/v1/search", headers=ALICE, json={"query": query, "k": 20})
                    if r.status_code != 200:
                        errors.append(f"{r.status_code} {r.text[:200]}")
                        break
                    revs = {h["revision"] for h in r.json()["hits"] if h["doc_id"] == "alice~switch"}
                    if len(revs) > 1:
                        errors.append(f"torn read: {revs}")
                    revisions_seen.update(revs)
                    n += 1
            return n

        with ThreadPoolExecutor(8) as pool:
            futures = [pool.submit(hammer, i) for i in range(8)]
            deadline = time.monotonic() + 300
            while time.monotonic() < deadline:
                body = http.get("/v1/documents/switch", headers=ALICE).json()
                if body["current_revision"] == second["revision"] or body["status"] == "failed":
                    break
                time.sleep(0.2)
            time.sleep(1.0)  # a few more queries on the new revision
            done.set()
            counts = [f.result() for f in futures]
        assert body["current_revision"] == second["revision"], body
        assert errors == []
        assert sum(counts) >= 24
        assert revisions_seen == {first["revision"], second["revision"]}
