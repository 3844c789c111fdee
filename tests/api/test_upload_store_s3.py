"""Uploads on an S3-compatible object store (issue 14 item 4): the upload-storage port on both
adapters, and the API and `attest worker` sharing uploads through a bucket instead of a volume.

The object store is outside the project, so a stand-in serves it: moto's standalone S3 server
(``tests/s3_fixtures.py``), spoken to over the real S3 protocol by the real boto3 client. Every
part of Attest is real: SQLite files, the MiniLM embedder, spaCy, the pipeline, a real
`attest worker` subprocess."""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from structlog.testing import capture_logs

from ingest.errors import InvalidInputError
from ingest.settings import Settings
from ingest.store.port import StoreUnavailable
from service.api.upload_store import LocalUploadStore, UploadLost, UploadRef
from tests.api.conftest import ADMIN, ALICE, ALICE_TEXT, BOB_TEXT, REPO, upload, wait_for
from tests.s3_fixtures import (  # noqa: F401 - fixtures
    S3Server,
    own_s3_server,
    s3_credentials,
    s3_env_vars,
    s3_overrides,
    s3_server,
)

DATA = b"The Supplier shall deliver the goods within thirty (30) days."
OUTAGE = "the upload store cannot be used now: it is unreachable or failing; retry later"


def _ref(job_id: str, data: bytes = DATA, doc_id: str = "alice~lease", incarnation: str = "inc-1"):
    return UploadRef(job_id=job_id, doc_id=doc_id, incarnation=incarnation,
                     revision=hashlib.sha256(data).hexdigest())


def _s3_store(server: S3Server, bucket: str, staging: Path):
    from service.api.jobs import open_upload_store

    return open_upload_store(Settings(data_dir=staging.parent, uploads_dir=staging,
                                      elasticsearch_url=None, **s3_overrides(server, bucket)))


@pytest.fixture(params=["local", "s3"])
def upload_store(request, tmp_path, s3_server, s3_credentials):
    if request.param == "local":
        return LocalUploadStore(tmp_path / "uploads")
    return _s3_store(s3_server, s3_server.new_bucket(), tmp_path / "staging")


def _overwrite(store, ref: UploadRef, data: bytes) -> None:
    """Damage a stored upload behind the store's back (a disk or bucket that lost bytes)."""
    if isinstance(store, LocalUploadStore):
        store.path(ref).write_bytes(data)
    else:
        store.client.put_object(Bucket=store.bucket, Key=store.key(ref), Body=data)


def _stage(store, data: bytes = DATA, name: str = ".incoming-test") -> Path:
    staged = store.staging / name
    staged.write_bytes(data)
    return staged


# -- the port, on both adapters -----------------------------------------------------------------
def test_put_read_delete_and_the_checks_on_read(upload_store):
    ref = _ref("job-1")
    assert not upload_store.exists(ref)
    staged = _stage(upload_store)
    upload_store.put(ref, staged)
    assert not staged.exists()  # consumed: the stored copy is the only one
    assert upload_store.exists(ref)
    assert upload_store.read(ref, max_bytes=len(DATA)) == DATA  # exactly at the bound
    with pytest.raises(UploadLost, match=rf"^upload is larger than the limit of {len(DATA) - 1} bytes; upload again$"):
        upload_store.read(ref, max_bytes=len(DATA) - 1)
    _overwrite(upload_store, ref, DATA.replace(b"thirty (30)", b"ninety (90)"))
    with pytest.raises(UploadLost, match=r"^upload content does not match its hash \(corrupted in storage\); upload the document again$"):
        upload_store.read(ref, max_bytes=len(DATA) + 10)
    upload_store.delete(ref)
    assert not upload_store.exists(ref)
    with pytest.raises(UploadLost, match="missing"):
        upload_store.read(ref, max_bytes=len(DATA))
    upload_store.delete(ref)  # nothing left to delete is fine


def test_delete_document_removes_its_incarnation_only(upload_store):
    refs = {
        "mine-1": _ref("mine-1"), "mine-2": _ref("mine-2"),
        "next-owner": _ref("next-owner", incarnation="inc-2"),
        "other-doc": _ref("other-doc", doc_id="bob~lease"),
    }
    for name, ref in refs.items():
        upload_store.put(ref, _stage(upload_store, name=f".incoming-{name}"))
    assert upload_store.delete_document("alice~lease", "inc-1", ["mine-1", "mine-2"]) == 2
    assert {name: upload_store.exists(ref) for name, ref in refs.items()} == {
        "mine-1": False, "mine-2": False, "next-owner": True, "other-doc": True,
    }


def test_s3_keys_hold_no_document_name_and_a_stray_object_goes_with_its_document(
    tmp_path, s3_server, s3_credentials
):
    bucket = s3_server.new_bucket()
    store = _s3_store(s3_server, bucket, tmp_path / "staging")
    ref = _ref("job-1", doc_id="alice~Acme merger memo")
    store.put(ref, _stage(store))
    doc_key = hashlib.sha256(b"alice~Acme merger memo").hexdigest()[:32]
    assert s3_server.keys(bucket) == [f"attest/uploads/{doc_key}/inc-1/job-job-1"]
    head = s3_server.client().head_object(Bucket=bucket, Key=store.key(ref))
    assert head["Metadata"] == {"sha256": ref.revision} and head["ContentLength"] == len(DATA)
    # A crash between the PUT and the job record leaves an object no job names: the
    # document's delete still finds it under the document's prefix.
    stray = _ref("never-recorded", doc_id="alice~Acme merger memo")
    store.put(stray, _stage(store))
    assert store.delete_document("alice~Acme merger memo", "inc-1", []) == 2
    assert s3_server.keys(bucket) == []


def test_s3_outage_and_a_missing_bucket_are_store_unavailable(tmp_path, own_s3_server, s3_credentials):
    bucket = own_s3_server.new_bucket()
    store = _s3_store(own_s3_server, bucket, tmp_path / "staging")
    ref = _ref("job-1")
    store.put(ref, _stage(store))
    own_s3_server.stop()
    staged = _stage(store, name=".incoming-during-outage")
    for call in (lambda: store.put(_ref("job-2"), staged), lambda: store.read(ref, 1000),
                 lambda: store.exists(ref), lambda: store.delete(ref), store.check,
                 lambda: store.delete_document("alice~lease", "inc-1", [])):
        with pytest.raises(StoreUnavailable, match=f"^{OUTAGE}$"):
            call()
    assert staged.read_bytes() == DATA  # a failed put leaves the staged file to its caller
    own_s3_server.start()
    assert store.read(ref, 1000) == DATA  # nothing was lost
    missing = _s3_store(own_s3_server, "attest-no-such-bucket", tmp_path / "staging")
    with pytest.raises(StoreUnavailable, match="^the upload store cannot be used now: its bucket does not exist; retry later$"):
        missing.check()


def test_upload_errors_are_in_the_one_tree():
    from ingest.errors import NotFoundError, UnavailableError

    assert issubclass(UploadLost, NotFoundError)  # the job's bytes are gone: upload again
    assert issubclass(StoreUnavailable, UnavailableError)  # 503 with Retry-After


def test_s3_settings_that_cannot_work_are_refused(tmp_path):
    from service.api.jobs import open_upload_store

    with pytest.raises(InvalidInputError, match="^ATTEST_S3_BUCKET is required with ATTEST_UPLOAD_STORE=s3$"):
        open_upload_store(Settings(data_dir=tmp_path, upload_store="s3"))
    with pytest.raises(InvalidInputError, match=r"^ATTEST_MAX_FILE_BYTES: at most 5368709120 with"):
        open_upload_store(Settings(data_dir=tmp_path, upload_store="s3", s3_bucket="attest-uploads",
                                   max_file_bytes=5 * 1024**3 + 1))
    with pytest.raises(ValueError, match="upload_store"):
        Settings(data_dir=tmp_path, upload_store="nfs")
    with pytest.raises(ValueError, match="s3_bucket"):
        Settings(data_dir=tmp_path, s3_bucket="Not_A_Bucket")


# -- through the API ---------------------------------------------------------------------------
def _wait_for_status(client, doc_id: str, status: str, timeout: float = 60.0) -> dict:
    """The job ends before its document is marked (the report follows the job's end)."""
    body = wait_for(client, ALICE, doc_id, timeout=timeout)
    deadline = time.monotonic() + timeout
    while body["status"] != status and time.monotonic() < deadline:
        time.sleep(0.1)
        body = client.get(f"/v1/documents/{doc_id}", headers=ALICE).json()
    return body


def _doc_prefix(doc_id: str, incarnation: str) -> str:
    return f"attest/uploads/{hashlib.sha256(doc_id.encode()).hexdigest()[:32]}/{incarnation}/"


def _incarnation(client, doc_id: str) -> str:
    return client.app.state.ctx.store.get_document(doc_id).incarnation


def test_delete_removes_the_documents_uploads_from_the_bucket(
    tmp_path, app_factory, s3_server, s3_credentials
):
    bucket = s3_server.new_bucket()
    client = app_factory(ingest_in_api=False, **s3_overrides(s3_server, bucket))
    with capture_logs() as logs:
        accepted = upload(client, ALICE, ALICE_TEXT, "msa.txt", doc_id="msa")
        assert accepted.status_code == 202, accepted.text
        doc_id, job_id = accepted.json()["doc_id"], accepted.json()["job_id"]
        prefix = _doc_prefix(doc_id, _incarnation(client, doc_id))
        assert s3_server.keys(bucket) == [f"{prefix}job-{job_id}"]  # stored before the 202
        assert not any((tmp_path / "uploads").iterdir())  # the staged copy is gone
        # An object a crashed request left under the document's prefix (PUT done, no job).
        s3_server.client().put_object(Bucket=bucket, Key=f"{prefix}job-orphan", Body=b"orphan")
        deleted = client.delete(f"/v1/documents/{doc_id}", headers=ALICE)
        assert deleted.status_code == 200, deleted.text
    assert s3_server.keys(bucket) == []
    job = client.app.state.ctx.jobs.get(job_id)
    assert (job.state, job.error) == ("cancelled", "document deleted")
    entries = client.get("/v1/audit", headers=ADMIN,
                         params={"request_id": deleted.headers["X-Request-ID"]}).json()["entries"]
    assert [(e["action"], e["doc_id"], e["cancelled_jobs"], e["removed_uploads"]) for e in entries] == [
        ("delete", doc_id, 1, 1)  # the job's object went with its cancelled job, then the orphan
    ]
    stored = [e for e in logs if e["event"] == "upload_stored"]
    assert [(e["job_id"], e["size"]) for e in stored] == [(job_id, len(ALICE_TEXT.encode()))]
    assert [e["removed"] for e in logs if e["event"] == "upload_store_document_deleted"] == [1]
    text_words = ("Zephyrion", "Quillfeather", "Orbitrex")
    assert not [e for e in logs if any(w in repr(e) for w in text_words)]  # no document text


def test_an_upload_store_outage_is_503_with_retry_after_and_leaves_nothing_behind(
    tmp_path, app_factory, own_s3_server, s3_credentials
):
    bucket = own_s3_server.new_bucket()
    client = app_factory(ingest_in_api=False, **s3_overrides(own_s3_server, bucket))
    own_s3_server.stop()
    refused = upload(client, ALICE, ALICE_TEXT, "msa.txt", doc_id="msa")
    assert refused.status_code == 503, refused.text
    assert refused.headers["Retry-After"] == "5"
    assert refused.json()["error"]["code"] == "unavailable"
    assert refused.json()["error"]["message"] == OUTAGE
    assert client.get("/v1/documents", headers=ALICE).json()["total"] == 0  # no stray `received`
    assert client.get("/v1/documents/msa", headers=ALICE).status_code == 404
    assert not any((tmp_path / "uploads").iterdir())
    assert client.app.state.ctx.jobs.counts() == {}

    own_s3_server.start()
    accepted = upload(client, ALICE, ALICE_TEXT, "msa.txt", doc_id="msa")
    assert accepted.status_code == 202, accepted.text
    own_s3_server.stop()
    refused = client.delete("/v1/documents/msa", headers=ALICE)
    assert refused.status_code == 503 and refused.headers["Retry-After"] == "5"
    assert refused.json()["error"]["message"] == OUTAGE
    assert client.get("/v1/documents/msa", headers=ALICE).status_code == 200  # delete again later
    own_s3_server.start()
    assert len(own_s3_server.keys(bucket)) == 1
    assert client.delete("/v1/documents/msa", headers=ALICE).status_code == 200
    assert own_s3_server.keys(bucket) == []


def test_a_worker_that_cannot_reach_the_upload_store_fails_the_job_with_the_reason(
    tmp_path, app_factory, own_s3_server, s3_credentials
):
    """The API instance that queued (no ingest threads), and a second instance over the same
    store whose worker takes the job while the object store is down."""
    bucket = own_s3_server.new_bucket()
    s3 = s3_overrides(own_s3_server, bucket)
    api = app_factory(ingest_in_api=False, uploads_dir=tmp_path / "api-staging", **s3)
    accepted = upload(api, ALICE, ALICE_TEXT, "msa.txt", doc_id="msa").json()
    own_s3_server.stop()
    worker = app_factory(uploads_dir=tmp_path / "worker-staging", **s3)
    body = _wait_for_status(worker, accepted["doc_id"], "failed")
    reason = f"upload unreadable: {OUTAGE}"
    assert (body["status"], body["error"]) == ("failed", reason)
    assert [(j["state"], j["error"]) for j in body["jobs"]] == [("failed", reason)]
    assert body == api.get(f"/v1/documents/{accepted['doc_id']}", headers=ALICE).json()
    # The worker writes the job's audit entry after it ends the job (and drops its upload, which
    # waits out the outage's connection errors): the entry follows the status, so wait for it.
    entries = _wait_for_audit(api, accepted_request(api, accepted), "ingest")
    assert [(e["action"], e.get("status"), e.get("error")) for e in entries][-1] == ("ingest", "failed", reason)


def _wait_for_audit(client, request_id: str, action: str, timeout: float = 30.0) -> list[dict]:
    deadline = time.monotonic() + timeout
    while True:
        entries = client.get("/v1/audit", headers=ADMIN, params={"request_id": request_id}).json()["entries"]
        if any(e["action"] == action for e in entries) or time.monotonic() > deadline:
            return entries
        time.sleep(0.1)


def accepted_request(client, accepted: dict) -> str:
    return client.app.state.ctx.jobs.get(accepted["job_id"]).request_id


def test_a_worker_refuses_bytes_that_are_not_the_upload(tmp_path, app_factory, s3_server, s3_credentials):
    bucket = s3_server.new_bucket()
    s3 = s3_overrides(s3_server, bucket)
    api = app_factory(ingest_in_api=False, uploads_dir=tmp_path / "api-staging", **s3)
    accepted = upload(api, ALICE, BOB_TEXT, "consulting.txt", doc_id="consulting").json()
    [key] = s3_server.keys(bucket)
    s3_server.client().put_object(Bucket=bucket, Key=key, Body=BOB_TEXT.encode() + b" tampered")
    worker = app_factory(uploads_dir=tmp_path / "worker-staging", **s3)
    body = _wait_for_status(worker, accepted["doc_id"], "failed")
    reason = "upload content does not match its hash (corrupted in storage); upload the document again"
    assert (body["status"], body["error"], body["current_revision"]) == ("failed", reason, None)
    assert s3_server.keys(bucket) == []  # a failed job releases its object too


def test_an_s3_upload_is_ingested_by_attest_worker_and_reported_by_a_second_api(
    tmp_path, app_factory, s3_server, s3_credentials
):
    """Two API instances and one `attest worker` process, each with its own local staging
    directory: the bytes travel only through the bucket (no shared uploads volume)."""
    bucket = s3_server.new_bucket()
    s3 = s3_overrides(s3_server, bucket)
    one = app_factory(ingest_in_api=False, uploads_dir=tmp_path / "api-1", **s3)
    two = app_factory(ingest_in_api=False, uploads_dir=tmp_path / "api-2", **s3)
    accepted = upload(one, ALICE, ALICE_TEXT, "msa.txt", doc_id="msa").json()
    assert len(s3_server.keys(bucket)) == 1
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ATTEST_", "AWS_"))}
    env.update(s3_credentials)
    env.update(s3_env_vars(s3_server, bucket))
    env.update({"ATTEST_DATA_DIR": str(tmp_path), "ATTEST_UPLOADS_DIR": str(tmp_path / "worker"),
                "ATTEST_LOG_LEVEL": "INFO", "PYTHONPATH": str(REPO)})
    log_path = tmp_path / "worker.log"
    with open(log_path, "wb") as log_file:
        worker = subprocess.Popen([sys.executable, "-m", "service.cli", "worker", "--threads", "1"],
                                  cwd=REPO, env=env, stdout=log_file, stderr=subprocess.STDOUT)
        try:
            body = wait_for(two, ALICE, accepted["doc_id"], timeout=240)
            assert body["status"] == "indexed", log_path.read_text()[-2000:]
            assert body["current_revision"] == accepted["revision"]
            assert [(j["job_id"], j["state"]) for j in body["jobs"]] == [(accepted["job_id"], "done")]
            assert body == one.get(f"/v1/documents/{accepted['doc_id']}", headers=ALICE).json()
            hits = two.post("/v1/search", headers=ALICE, json={"query": "Orbitrex compressor units"})
            assert hits.status_code == 200 and hits.json()["hits"][0]["doc_id"] == accepted["doc_id"]
            assert s3_server.keys(bucket) == []  # released once ingested
            assert not (tmp_path / "uploads").exists()  # nobody used the default directory
            worker_log = log_path.read_text()
            assert "upload_store_opened" in worker_log and f"s3://{bucket}/attest/uploads/" in worker_log
            assert "Zephyrion" not in worker_log  # the document's text never reaches the log
            worker.send_signal(signal.SIGTERM)
            assert worker.wait(timeout=40) == 0
        finally:
            if worker.poll() is None:
                worker.kill()
                worker.wait()


def test_an_upload_at_the_size_bound_is_stored_and_one_byte_over_never_reaches_the_bucket(
    tmp_path, app_factory, s3_server, s3_credentials
):
    bucket = s3_server.new_bucket()
    data = ALICE_TEXT.encode()
    client = app_factory(ingest_in_api=False, max_file_bytes=len(data), **s3_overrides(s3_server, bucket))
    accepted = upload(client, ALICE, data, "msa.txt", doc_id="at-bound")
    assert accepted.status_code == 202, accepted.text
    [key] = s3_server.keys(bucket)
    assert s3_server.client().head_object(Bucket=bucket, Key=key)["ContentLength"] == len(data)
    over = upload(client, ALICE, data + b"x", "msa.txt", doc_id="over-bound")
    assert over.status_code == 413, over.text
    assert over.json()["error"]["message"] == f"upload exceeds the limit of {len(data)} bytes"
    assert s3_server.keys(bucket) == [key]  # nothing of the refused upload was stored
    assert not [p for p in (tmp_path / "uploads").iterdir()]  # nor left in staging
    assert client.get("/v1/documents/over-bound", headers=ALICE).status_code == 404


def test_no_credentials_in_the_standard_chain_is_an_outage_that_says_so(
    tmp_path, s3_server, s3_credentials, monkeypatch
):
    bucket = s3_server.new_bucket()
    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"):
        monkeypatch.delenv(name)  # the files and instance metadata are off too (s3_credentials)
    store = _s3_store(s3_server, bucket, tmp_path / "staging")
    staged = _stage(store)
    with pytest.raises(StoreUnavailable, match="^the upload store cannot be used now: no credentials were found; retry later$"):
        store.put(_ref("job-1"), staged)
    assert staged.exists() and s3_server.keys(bucket) == []
