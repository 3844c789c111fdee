"""The ingest queue on Elasticsearch (issue 14 item 4): leases claimed with if_seq_no /
if_primary_term, expiry and takeover, deterministic job ids, and status read through two API
instances. Real Elasticsearch node (ATTEST_ELASTICSEARCH_URL), real SQLite, real models; nothing
mocked. Skipped without the node (failed under CI=true, like every ES test)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest

from tests.conftest import _ES_URL_AT_START, ES_URL_ENV, REPO
from tests.helpers import stop_processes
from tests.s3_fixtures import aws_env, s3_env_vars, s3_overrides, s3_server  # noqa: F401 - fixture

KEY = "ops-key-0123456789abcdefgh"
KEYS = {KEY: {"principal": "ops", "groups": [], "admin": True}}
AUTH = {"Authorization": f"Bearer {KEY}"}


def _url() -> str:
    if not _ES_URL_AT_START:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{ES_URL_ENV} is not set in CI: the Elasticsearch test node must run")
        pytest.skip(f"*** Elasticsearch job queue SKIPPED: {ES_URL_ENV} is not set. ***")
    return _ES_URL_AT_START


@pytest.fixture
def prefix() -> str:
    return f"attest-test-{uuid.uuid4().hex[:10]}"


@pytest.fixture
def make_queue(tmp_path: Path, prefix: str):
    from service.api.jobs_elastic import ElasticJobQueue

    made: list[ElasticJobQueue] = []

    def make(lease_seconds: float = 60.0) -> ElasticJobQueue:
        queue = ElasticJobQueue(_url(), tmp_path / "uploads", prefix=prefix, lease_seconds=lease_seconds)
        made.append(queue)
        return queue

    yield make
    if made:
        made[0].drop()
    for queue in made:
        queue.shutdown()


def _add(queue, doc_id: str, principal: str = "alice", request_id: str | None = None):
    upload = queue.uploads / f"tmp-{uuid.uuid4().hex}"
    upload.write_bytes(b"The Supplier shall deliver the goods.")
    return queue.add(doc_id=doc_id, revision="ab" * 32, filename="a.txt", principal=principal,
                     request_id=request_id or uuid.uuid4().hex, incarnation="inc-1", upload=upload)


def test_two_concurrent_claimers_never_hold_the_same_job(make_queue):
    a, b = make_queue(), make_queue()
    assert a.owner != b.owner
    for round_ in range(6):
        job = _add(a, f"doc-{round_}")
        barrier = threading.Barrier(2)
        got: dict[str, object] = {}

        def claim(name, queue):
            barrier.wait()
            got[name] = queue.claim()

        threads = [threading.Thread(target=claim, args=(n, q)) for n, q in (("a", a), ("b", b))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        winners = [name for name, claimed in got.items() if claimed is not None]
        assert len(winners) == 1, got  # exactly one lease per job
        holder = a if winners[0] == "a" else b
        stored = a._get_raw(job.job_id)[0]
        assert stored["state"] == "running" and stored["attempts"] == 1
        assert stored["lease_owner"] == holder.owner
        assert holder.finish(job.job_id, "done", result={"status": "indexed"}) is True
    assert a.counts() == {"done": 6}


def test_an_expired_lease_is_taken_over_and_the_old_holder_cannot_finish(make_queue):
    a, b = make_queue(lease_seconds=1.0), make_queue(lease_seconds=1.0)
    job = _add(a, "doc-x")
    assert a.claim().job_id == job.job_id
    assert b.claim() is None  # the lease is live: nobody else gets the job
    time.sleep(1.3)  # a stops renewing (as a dead worker would); the lease expires
    taken = b.claim()
    assert taken is not None and taken.job_id == job.job_id and taken.attempts == 2
    assert a.renew_leases() == 0  # a lost it
    assert a.finish(job.job_id, "failed", error="late") is False
    assert b.finish(job.job_id, "done", result={"status": "indexed", "stage": "indexed"}) is True
    final = b.get(job.job_id)
    assert (final.state, final.stage, final.error, final.attempts) == ("done", "indexed", None, 2)


def test_renewed_lease_is_not_taken_over(make_queue):
    a, b = make_queue(lease_seconds=1.0), make_queue(lease_seconds=1.0)
    job = _add(a, "doc-r")
    assert a.claim().job_id == job.job_id
    for _ in range(4):
        time.sleep(0.4)
        assert a.renew_leases() == 1
        assert b.claim() is None


def test_out_of_attempts_an_expired_job_is_failed_with_the_reason(make_queue):
    from service.api.jobs import MAX_ATTEMPTS

    queue = make_queue(lease_seconds=0.2)
    job = _add(queue, "doc-dead")
    for attempt in range(1, MAX_ATTEMPTS + 1):
        claimed = queue.claim()
        assert claimed is not None and claimed.attempts == attempt
        queue._held.clear()  # the worker "dies": it never renews nor finishes
        time.sleep(0.3)
    assert queue.claim() is None  # no attempts left: nobody takes it again
    recovered = queue.recover()
    assert [j.job_id for j in recovered["failed_jobs"]] == [job.job_id]
    assert queue.get(job.job_id).error == f"interrupted {MAX_ATTEMPTS} times; giving up"


def test_recovery_holds_the_job_before_its_document_is_told_so_no_claim_slips_in(make_queue):
    # The job's bytes are gone, so recovery fails it. While recovery tells the document (its
    # ``before_fail``), another worker tries to claim the still-queued job: before the fix it
    # got it and ran it under a document already marked failed.
    recovering, claimer = make_queue(), make_queue()
    job = _add(recovering, "doc-lost")
    recovering.job_upload_path(job).unlink()
    seen: list[tuple[str, str, object]] = []

    def before_fail(failing) -> None:
        stored = claimer._get_raw(failing.job_id)[0]
        seen.append((stored["state"], stored["lease_owner"], claimer.claim()))

    recovered = recovering.recover(before_fail=before_fail)
    assert seen == [("running", recovering.owner, None)]  # held by recovery: nothing to claim
    assert [j.job_id for j in recovered["failed_jobs"]] == [job.job_id]
    final = recovering._get_raw(job.job_id)[0]
    assert (final["state"], final["error"], final["attempts"], final["lease_expires_ms"]) == (
        "failed", "upload file missing; upload the document again", 0, None)
    assert claimer.claim() is None and recovering._held == {}


def test_a_holder_that_renews_first_keeps_its_job_and_recovery_leaves_it_alone(make_queue):
    from service.api.jobs import MAX_ATTEMPTS

    holder, recovering = make_queue(lease_seconds=0.3), make_queue(lease_seconds=0.3)
    job = _add(holder, "doc-paused")
    for _ in range(MAX_ATTEMPTS - 1):
        assert holder.claim().job_id == job.job_id
        holder._held.clear()  # that attempt's worker died
        time.sleep(0.4)
    assert holder.claim().attempts == MAX_ATTEMPTS
    time.sleep(0.4)  # the last holder pauses past its lease; recovery finds it out of attempts
    # The holder wakes up and renews while recovery is telling the document: one of the two
    # writes wins and the other side knows it.
    renewed: list[int] = []
    recovered = recovering.recover(before_fail=lambda failing: renewed.append(holder.renew_leases()))
    assert renewed == [0]  # recovery took the lease first: the paused holder lost it
    assert [j.job_id for j in recovered["failed_jobs"]] == [job.job_id]
    assert holder.still_holds(job.job_id) is False
    assert holder.finish(job.job_id, "done", result={"status": "indexed"}) is False
    assert holder.get(job.job_id).state == "failed"

    # The other order: the holder renews before recovery writes, recovery leaves the job alone.
    other = _add(holder, "doc-renewed")
    for _ in range(MAX_ATTEMPTS):
        assert holder.claim().job_id == other.job_id
        holder._held.clear()
        time.sleep(0.4)
    stale = recovering._search({"term": {"job_id": other.job_id}}, size=1, seq_no_primary_term=True)
    holder._held[other.job_id] = (stale[0]["_seq_no"], stale[0]["_primary_term"])
    assert holder.renew_leases() == 1  # it comes back in time, after recovery's read
    assert recovering._hold_for_recovery(stale[0]) is False  # so it never tells the document
    assert holder.still_holds(other.job_id) is True
    assert recovering.get(other.job_id).state == "running"


def test_a_worker_that_lost_its_job_does_not_write_the_outcome_on_the_document(make_queue):
    # A worker paused past its lease (no heartbeat runs here) ends its run after another worker
    # took the job over: it must not put its failure on the document the new holder is
    # ingesting. ``settle`` and ``on_done`` record their calls: they are the worker's hooks
    # (the document write and the audit), asserted never to run.
    from service.api.jobs import IngestWorker

    from ingest.pipeline import revision_of

    paused, taker = make_queue(lease_seconds=0.5), make_queue(lease_seconds=60.0)
    upload = paused.uploads / "tmp-taken"
    upload.write_bytes(b"The Supplier shall deliver the goods.")
    job = paused.add(doc_id="doc-taken", revision=revision_of(upload.read_bytes()), filename="a.txt",
                     principal="alice", request_id="r-taken", incarnation="inc-1", upload=upload)
    settled: list[str] = []
    reported: list[str] = []

    def run(claimed, data: bytes, on_stage) -> dict:
        time.sleep(0.7)
        assert taker.claim().job_id == claimed.job_id  # the lease expired: taken over
        return {"status": "failed", "stage": "parsing", "recorded": False, "error": "late failure"}

    worker = IngestWorker(paused, run, lambda j, r: reported.append(j.job_id),
                          settle=lambda j, r: settled.append(j.job_id))
    worker._run(paused.claim())
    assert settled == [] and reported == []
    stored = taker._get_raw(job.job_id)[0]
    assert (stored["state"], stored["lease_owner"], stored["attempts"]) == ("running", taker.owner, 2)
    assert taker.job_upload_path(job).exists()  # the new holder still needs the bytes


def test_a_retried_request_makes_one_job_and_a_document_runs_one_job_at_a_time(make_queue):
    a, b = make_queue(), make_queue()
    first = _add(a, "doc-1", request_id="req-1")
    again = _add(b, "doc-1", request_id="req-1")
    assert again.job_id == first.job_id and a.depth() == 1
    assert sorted(p.name for p in a.uploads.iterdir()) == [f"job-{first.job_id}"]
    second = _add(a, "doc-1", request_id="req-2")
    assert a.depth() == 2
    assert a.claim().job_id == first.job_id
    assert b.claim() is None  # doc-1 has a running job: its next job waits
    assert a.finish(first.job_id, "done", result={"status": "indexed"}) is True
    assert b.claim().job_id == second.job_id


def test_cancel_for_document_cancels_queued_jobs_only(make_queue):
    queue = make_queue()
    running = _add(queue, "doc-c")
    queued = _add(queue, "doc-c")
    assert queue.claim().job_id == running.job_id
    assert queue.cancel_for_document("doc-c", "document deleted") == 1
    assert queue.get(queued.job_id).state == "cancelled"
    assert not queue.job_upload_path(queued).exists()
    assert queue.get(running.job_id).state == "running"


# -- two API instances, workers out of process --------------------------------------------------
# Uploads shared either through one directory (a shared volume) or through an S3-compatible
# bucket (moto's standalone server, tests/s3_fixtures.py: the object store is outside the
# project), with a local staging directory per process and no shared directory at all.
@pytest.fixture(params=["volume", "s3"])
def uploads(request, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict:
    """How API instances and workers share uploads: ``settings(name)`` and ``env(name)`` give
    one process's upload settings, ``left()`` the uploads still stored."""
    if request.param == "volume":
        shared = tmp_path / "shared-uploads"
        return {
            "settings": lambda name: {"uploads_dir": shared},
            "env": lambda name: {"ATTEST_UPLOADS_DIR": str(shared)},
            "left": lambda: sorted(p.name for p in shared.iterdir() if p.is_file()),
        }
    server = request.getfixturevalue("s3_server")
    bucket = server.new_bucket()
    credentials = aws_env(tmp_path)
    for key, value in credentials.items():
        monkeypatch.setenv(key, value)
    return {
        "settings": lambda name: {"uploads_dir": tmp_path / name / "staging",
                                  **s3_overrides(server, bucket)},
        "env": lambda name: {"ATTEST_UPLOADS_DIR": str(tmp_path / name / "staging"),
                             **s3_env_vars(server, bucket), **credentials},
        "left": lambda: server.keys(bucket),
    }


def _api(tmp_path: Path, name: str, prefix: str, embedder, uploads: dict):
    from fastapi.testclient import TestClient

    from ingest.settings import Settings
    from ingest.store.elastic import ElasticStore
    from service.api import create_app

    settings = Settings(
        data_dir=tmp_path / name, api_keys=json.dumps(KEYS), elasticsearch_url=_url(),
        elasticsearch_prefix=prefix, ingest_in_api=False, **uploads["settings"](name),
    )
    store = ElasticStore(_url(), prefix=prefix)
    client = TestClient(create_app(settings, store=store, embedder=embedder),
                        raise_server_exceptions=False)
    client.__enter__()
    return client, store


@pytest.fixture
def two_apis(tmp_path: Path, prefix: str, embedder, uploads):
    one, store = _api(tmp_path, "api-1", prefix, embedder, uploads)
    two, store_two = _api(tmp_path, "api-2", prefix, embedder, uploads)
    yield one, two, store
    jobs = one.app.state.ctx.jobs
    for client in (two, one):  # both apps stop before their indexes go
        client.__exit__(None, None, None)
    store.es.indices.delete(index=jobs.index, ignore_unavailable=True)
    store.drop_all()
    store.close()
    store_two.close()


def _view(client, doc_id: str) -> dict:
    response = client.get(f"/v1/documents/{doc_id}", headers=AUTH)
    assert response.status_code == 200, response.text
    return response.json()


def test_any_api_instance_reports_any_document_and_job(two_apis, uploads):
    one, two, _ = two_apis
    for client in (one, two):  # ready without in-process workers: `attest worker`s ingest
        ready = client.get("/readyz")
        assert ready.status_code == 200, ready.text
        assert ready.json()["checks"] == {"store": True, "embedder": True, "ingest_worker": True}
    accepted = one.post("/v1/documents", headers=AUTH, data={"doc_id": "shared-doc"},
                        files={"file": ("a.txt", b"The Supplier shall deliver the goods.")})
    assert accepted.status_code == 202, accepted.text
    job_id = accepted.json()["job_id"]
    seen_one, seen_two = _view(one, "shared-doc"), _view(two, "shared-doc")
    assert seen_one == seen_two
    assert seen_two["status"] == "received"
    assert [(j["job_id"], j["state"]) for j in seen_two["jobs"]] == [(job_id, "queued")]
    assert [name.rsplit("/", 1)[-1] for name in uploads["left"]()] == [f"job-{job_id}"]
    # Deleting through the other replica cancels the job the first one queued.
    assert two.delete("/v1/documents/shared-doc", headers=AUTH).status_code == 200
    assert one.get("/v1/documents/shared-doc", headers=AUTH).status_code == 404
    assert one.app.state.ctx.jobs.get(job_id).state == "cancelled"
    assert uploads["left"]() == []  # the upload went with the document


def _start_worker(tmp_path: Path, prefix: str, name: str, uploads: dict) -> tuple[subprocess.Popen, Path]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ATTEST_", "AWS_"))}
    env.update({
        ES_URL_ENV: _url(), "ATTEST_ELASTICSEARCH_PREFIX": prefix,
        "ATTEST_DATA_DIR": str(tmp_path / name), **uploads["env"](name),
        "ATTEST_INGEST_LEASE_SECONDS": "3", "ATTEST_INGEST_WORKERS": "1", "ATTEST_LOG_LEVEL": "INFO",
        "PYTHONPATH": str(REPO),
    })
    log_path = tmp_path / f"{name}.log"
    proc = subprocess.Popen([sys.executable, "-m", "service.cli", "worker"], cwd=REPO, env=env,
                            stdout=open(log_path, "wb"), stderr=subprocess.STDOUT)
    return proc, log_path


@pytest.mark.slow
def test_a_worker_killed_mid_job_is_replaced_by_the_other_without_duplicates(tmp_path, prefix, two_apis,
                                                                             uploads):
    one, two, store = two_apis
    jobs = one.app.state.ctx.jobs
    workers = [_start_worker(tmp_path, prefix, f"worker-{n}", uploads) for n in (1, 2)]
    try:
        text = "\n\n".join(
            f"{i}. The Supplier shall deliver lot {i} of the Orbitrex compressor to the Distributor "
            f"within {i + 3} days of each purchase order, at the price in Schedule {i}."
            for i in range(1, 400)
        )
        accepted = one.post("/v1/documents", headers=AUTH, data={"doc_id": "big-doc"},
                            files={"file": ("big.txt", text.encode())})
        assert accepted.status_code == 202, accepted.text
        job_id = accepted.json()["job_id"]
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:  # wait until a worker holds the job, then kill it
            job = jobs._get_raw(job_id)[0]
            if job["state"] == "running":
                break
            time.sleep(0.05)
        else:
            pytest.fail("no worker claimed the job: " + workers[0][1].read_text()[-2000:])
        assert job["state"] == "running", job
        victim_pid = int(job["lease_owner"].split(":")[1])
        victim = next(p for p, _ in workers if p.pid == victim_pid)
        survivor = next(p for p, _ in workers if p.pid != victim_pid)
        victim.send_signal(signal.SIGKILL)
        victim.wait(timeout=10)
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            job = jobs._get_raw(job_id)[0]
            if job["state"] not in ("queued", "running"):
                break
            time.sleep(0.2)
        logs = "\n".join(path.read_text(errors="replace")[-1500:] for _, path in workers)
        assert job["state"] == "done", (job, logs)
        assert job["attempts"] == 2 and int(job["lease_owner"].split(":")[1]) == survivor.pid
        assert survivor.poll() is None
        # The raw read above is a realtime GET: it can see the worker's last write before that
        # write's refresh reaches search, which the document view reads (a few milliseconds, once
        # seen in CI). Wait, bounded, until search shows the finished job too, then compare.
        deadline = time.monotonic() + 10
        seen_one = _view(one, "big-doc")
        while seen_one["jobs"][0]["state"] != "done" and time.monotonic() < deadline:
            time.sleep(0.05)
            seen_one = _view(one, "big-doc")
        seen_two = _view(two, "big-doc")
        assert seen_one == seen_two and seen_one["status"] == "indexed"
        revision = accepted.json()["revision"]
        chunks = store.revision_chunks(accepted.json()["doc_id"], revision)  # the uploader's namespace
        assert len(chunks) == job["result"]["n_chunks"] > 1
        assert len({c.chunk_id for c in chunks}) == len(chunks)
        assert uploads["left"]() == []  # released by the job's finisher
    finally:
        stop_processes([proc for proc, _ in workers])


def test_the_queue_bound_refuses_the_job_past_it_and_keeps_the_upload(make_queue):
    from service.api.jobs import QueueFull

    queue = make_queue()
    _add(queue, "doc-q1")
    upload = queue.uploads / "tmp-pending"
    upload.write_bytes(b"bytes")
    second = queue.add(doc_id="doc-q2", revision="cd" * 32, filename="b.txt", principal="bob",
                       request_id="r2", limit=2, upload=upload)  # at the bound: accepted
    assert second.state == "queued" and queue.depth() == 2
    upload.write_bytes(b"bytes")
    with pytest.raises(QueueFull, match="2 jobs are waiting"):
        queue.add(doc_id="doc-q3", revision="ef" * 32, filename="c.txt", principal="bob",
                  request_id="r3", limit=2, upload=upload)
    assert upload.read_bytes() == b"bytes" and queue.depth() == 2


def test_an_unreachable_cluster_is_an_outage_not_a_crash(tmp_path):
    from ingest.store.port import StoreUnavailable
    from service.api.jobs_elastic import ElasticJobQueue

    queue = ElasticJobQueue("http://127.0.0.1:9", tmp_path / "uploads")  # nothing listens there
    with pytest.raises(StoreUnavailable, match="the Elasticsearch job queue is unreachable"):
        queue.depth()
    with pytest.raises(StoreUnavailable):
        queue.claim()
    queue.shutdown()
