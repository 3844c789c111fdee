"""A job never shows finished before its document shows the outcome, on both job queues.

The worker records the outcome on the document before it finishes the job, and the status
route reads the document after the jobs it shows. Each test forces the widest interleaving a
polling client can hit: the worker finishes the job between the route's reads (first test), or a
reader looks at the document at the very moment the job turns ``failed`` (second test).

Real components throughout: the app over a real SQLite store or the real Elasticsearch node
(``ATTEST_ELASTICSEARCH_URL``; the ``store`` fixture skips, or fails under CI, without it), the
real job queue of that backend, the real pipeline and embedder. The only additions are thin
wrappers around the real queue and runner that *order* events (wait for one, then delegate);
nothing is answered by a stand-in.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest
from fastapi.testclient import TestClient

from tests.api.conftest import ALICE, ALICE_TEXT, make_settings, upload

FINISHED = ("done", "failed", "cancelled")
WAIT = 180.0


@pytest.fixture
def app(store, embedder, tmp_path: Path) -> Iterator[TestClient]:
    """The API over ``store`` with no ingest threads of its own (``attest worker``'s set-up):
    the test runs the worker itself. On Elasticsearch the job queue is the ES one."""
    from service.api import create_app

    overrides: dict[str, Any] = {"ingest_in_api": False}
    prefix = getattr(store, "prefix", None)
    if prefix is not None:
        overrides.update(elasticsearch_url=store.url, elasticsearch_prefix=prefix)
    settings = make_settings(tmp_path / "data", **overrides)
    client = TestClient(create_app(settings, store=store, embedder=embedder),
                        raise_server_exceptions=False)
    client.__enter__()
    jobs = client.app.state.ctx.jobs
    yield client
    client.__exit__(None, None, None)  # closes the ES job queue's client, not the store's
    if prefix is not None:
        store.es.indices.delete(index=jobs.index, ignore_unavailable=True)


class _Delegating:
    """The real queue, with one method ordered by the test."""

    def __init__(self, real: Any) -> None:
        self.real = real

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)


def _worker(client: TestClient, jobs: Any, gate: threading.Event | None = None,
            runner: Callable[..., dict[str, Any]] | None = None,
            after_settle: Callable[[Any], None] | None = None):
    """A started ingest worker over the app's store and ``jobs`` (as ``attest worker`` builds
    it); with ``gate``, each job's pipeline starts only once the gate is set; ``runner``
    replaces the pipeline; ``after_settle`` is called with the job right after the real
    ``job_settle`` has run for it."""
    from service.api.ingest_runner import job_done, job_runner, job_settle
    from service.api.jobs import IngestWorker
    from service.cli.worker import WorkerContext

    ctx = client.app.state.ctx
    wctx = WorkerContext(settings=ctx.settings, store=ctx.store, embedder=ctx.embedder)
    run = runner or job_runner(wctx)

    def gated(job: Any, data: bytes, on_stage: Callable[[str], None]) -> dict[str, Any]:
        assert gate is None or gate.wait(WAIT)
        return run(job, data, on_stage)

    settle = job_settle(wctx)

    def settled(job: Any, result: dict[str, Any]) -> None:
        settle(job, result)
        if after_settle is not None:
            after_settle(job)

    worker = IngestWorker(jobs, gated, job_done(wctx), settle=settled, threads=1)
    worker.start()
    return worker


def _wait_finished(jobs: Any, job_id: str) -> None:
    deadline = time.monotonic() + WAIT
    while jobs.get(job_id).state not in FINISHED:
        assert time.monotonic() < deadline, f"job {job_id} not finished within {WAIT}s"
        time.sleep(0.05)


def _wait_listed_finished(jobs: Any, doc_id: str, job_id: str) -> None:
    deadline = time.monotonic() + WAIT
    while not any(j.job_id == job_id and j.state in FINISHED for j in jobs.for_document(doc_id)):
        assert time.monotonic() < deadline, f"job {job_id} not listed finished within {WAIT}s"
        time.sleep(0.05)


def test_a_job_shown_done_comes_with_its_document_indexed_and_its_subjects_found(app):
    accepted = upload(app, ALICE, ALICE_TEXT, "msa.txt", acl="alice")
    assert accepted.status_code == 202, accepted.text
    doc_id, job_id, revision = (accepted.json()[k] for k in ("doc_id", "job_id", "revision"))
    real = app.app.state.ctx.jobs
    asked = threading.Event()

    class JobsReadWhileIngesting(_Delegating):
        """The route's first read of the jobs lets the worker start and returns once the job
        is finished: the worker finishes the job in the middle of the status request."""

        def for_document(self, *args: Any, **kwargs: Any) -> list:
            if not asked.is_set():
                asked.set()
                _wait_finished(self.real, job_id)
                # On Elasticsearch the job's real-time read can show the finishing write a
                # moment before the search this route reads does (the write's refresh is still
                # running): wait for the search too, so the worker has finished for every reader.
                _wait_listed_finished(self.real, doc_id, job_id)
            return self.real.for_document(*args, **kwargs)

    app.app.state.ctx.jobs = JobsReadWhileIngesting(real)
    worker = _worker(app, real, gate=asked)
    try:
        response = app.get(f"/v1/documents/{doc_id}", headers=ALICE)
    finally:
        worker.stop()
    assert response.status_code == 200, response.text
    body = response.json()
    assert [(j["job_id"], j["state"], j["error"]) for j in body["jobs"]] == [(job_id, "done", None)]
    assert (body["status"], body["stage"], body["error"]) == ("indexed", "indexed", None)
    assert body["current_revision"] == revision
    # The registry entry is there for the owner as soon as the job shows done.
    found = app.get("/v1/subjects", headers=ALICE, params={"name": "Quillfeather Logistics LLC"})
    assert found.status_code == 200, found.text
    assert doc_id in {b["doc_id"] for s in found.json()["subjects"] for b in s["bindings"]}, found.json()


def test_a_job_shown_failed_comes_with_its_document_failed_with_the_same_reason(app):
    accepted = upload(app, ALICE, ALICE_TEXT, "msa.txt", acl="alice")
    assert accepted.status_code == 202, accepted.text
    doc_id, job_id = accepted.json()["doc_id"], accepted.json()["job_id"]
    ctx = app.app.state.ctx
    real = ctx.jobs
    # Bytes damaged in storage: the worker fails the job outside the pipeline.
    real.job_upload_path(real.get(job_id)).write_bytes(b"not the uploaded bytes")
    seen: list[tuple[str, str | None]] = []

    class DocumentReadAsTheJobFails(_Delegating):
        def finish(self, job_id: str, state: str, **kwargs: Any) -> Any:
            finished = self.real.finish(job_id, state, **kwargs)
            record = ctx.store.get_document(doc_id)  # what any reader sees from now on
            seen.append((record.status, record.error))
            return finished

    worker = _worker(app, DocumentReadAsTheJobFails(real))
    try:
        _wait_finished(real, job_id)
    finally:
        worker.stop()
    reason = "upload content does not match its hash (corrupted in storage); upload the document again"
    assert seen == [("failed", reason)]
    body = app.get(f"/v1/documents/{doc_id}", headers=ALICE).json()
    assert [(j["state"], j["error"]) for j in body["jobs"]] == [("failed", reason)]
    assert (body["status"], body["stage"], body["error"]) == ("failed", "received", reason)


def test_a_result_the_pipeline_never_makes_ends_the_job_failed_never_done(app):
    """The worker's guard: only an indexed or unchanged outcome is ``done``. The runner here is
    the worker's injected dependency, replaced to return what the real pipeline never does."""
    accepted = upload(app, ALICE, ALICE_TEXT, "msa.txt", acl="alice")
    doc_id, job_id = accepted.json()["doc_id"], accepted.json()["job_id"]
    jobs = app.app.state.ctx.jobs
    worker = _worker(app, jobs, runner=lambda job, data, on_stage: {"stage": "received"})
    try:
        _wait_finished(jobs, job_id)
    finally:
        worker.stop()
    reason = "internal error: unexpected ingest result None"
    body = app.get(f"/v1/documents/{doc_id}", headers=ALICE).json()
    assert [(j["state"], j["error"]) for j in body["jobs"]] == [("failed", reason)]
    assert (body["status"], body["error"]) == ("failed", reason)


def test_a_job_failed_at_recovery_shows_failed_only_after_its_document(app):
    """A queued job whose bytes are gone when the worker starts is failed by ``recover``: the
    document is marked first, the queue after."""
    accepted = upload(app, ALICE, ALICE_TEXT, "msa.txt", acl="alice")
    doc_id, job_id = accepted.json()["doc_id"], accepted.json()["job_id"]
    ctx = app.app.state.ctx
    jobs = ctx.jobs
    jobs.job_upload_path(jobs.get(job_id)).unlink()
    seen: list[tuple[str, str]] = []

    def look(job: Any) -> None:  # the queue's and the document's state as the document settles
        seen.append((jobs.get(job.job_id).state, ctx.store.get_document(doc_id).status))

    worker = _worker(app, jobs, after_settle=look)
    try:
        _wait_finished(jobs, job_id)
    finally:
        worker.stop()
    assert seen == [("running", "failed")]  # held by recovery, not yet failed
    body = app.get(f"/v1/documents/{doc_id}", headers=ALICE).json()
    reason = body["jobs"][0]["error"]
    assert reason.startswith("upload file missing") and reason.endswith("upload the document again")
    assert [j["state"] for j in body["jobs"]] == ["failed"]
    assert (body["status"], body["error"]) == ("failed", reason)
