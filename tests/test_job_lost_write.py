"""A worker that loses its job while ``write_revision`` runs stops writing the revision
(``check_held`` between chunk batches, both stores).

The takeover is real each time: SQLite, a second process takes the job over through the owner
check (the old holder's owner file was removed); Elasticsearch, the old holder's lease really
expires and a second queue claims the job. Real SQLite files, the real test node, the real
pipeline and embedding model. The tests only choose *when* the takeover happens: at the
``writing`` stage hook (just before ``write_revision``) or at the second batch check, by
running the takeover and then the real check.
"""

from __future__ import annotations

import subprocess
import sys
import time
import uuid
from pathlib import Path

import numpy as np
import pytest

from ingest.pipeline import Ingestor, revision_of
from ingest.settings import Settings
from ingest.store.es_admin import BULK_CHUNK
from service.api.job_queue import JobLost
from service.api.jobs import JobHold, JobStore
from tests.conftest import _ES_URL_AT_START, require_es
from tests.test_job_lost import REPO, TAKER, TEXT, _stage
from tests.test_store_contract import make_chunks

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _save(store, doc_id: str) -> None:
    from ingest.schema import DocumentRecord

    store.save_document(DocumentRecord(
        doc_id=doc_id, status="indexing", stage="indexing", error=None, current_revision=None,
        title=doc_id, filename=f"{doc_id}.txt", acl=["alice"], collection="", metadata={},
        updated_at="2026-01-01T00:00:00.000+00:00"))


def _ingest(store, embedder, tmp_path: Path, hold: JobHold, on_writing) -> None:
    """The real pipeline with the worker's hooks; ``on_writing`` runs once the ``writing``
    stage was recorded (the job is still held then), right before ``write_revision``."""

    def on_stage(stage: str) -> None:
        hold(stage)
        if stage == "writing":
            on_writing()

    ingestor = Ingestor(store, embedder, Settings(data_dir=tmp_path / "data"),
                        on_stage=on_stage, check_held=hold.check)
    ingestor.ingest_bytes(TEXT, filename="lost.txt", doc_id="lost", acl=["alice"])


def test_sqlite_a_job_lost_during_write_revision_commits_nothing_of_it(tmp_path, sqlite_store, embedder):
    data = tmp_path / "data"
    old = JobStore(data)
    old.add(doc_id="lost", revision=revision_of(TEXT), filename="lost.txt", principal="alice",
            request_id="r-lost", acl=["alice"], upload=_stage(tmp_path))
    job = old.claim()
    assert job is not None

    def taken_over() -> None:
        (data / "ingest-owners" / f"{old.owner}.lock").unlink()
        taker = subprocess.run([sys.executable, "-c", TAKER, str(data), str(REPO)], cwd=REPO,
                               capture_output=True, text=True, timeout=120, check=True)
        assert taker.stdout.split()[1] == job.job_id

    with pytest.raises(JobLost, match=f"job {job.job_id} is no longer held by this worker"):
        _ingest(sqlite_store, embedder, tmp_path, JobHold(old, job), taken_over)
    db = sqlite_store._db()
    # The revision's transaction was rolled back: no revision row, no chunk (the old code
    # committed them and only stopped at the ``written`` stage).
    assert db.execute("SELECT count(*) FROM revisions WHERE doc_id='lost'").fetchone()[0] == 0
    assert db.execute("SELECT count(*) FROM chunks WHERE doc_id='lost'").fetchone()[0] == 0
    assert sqlite_store.get_document("lost").current_revision is None


def test_sqlite_write_revision_checks_the_hold_every_batch_and_before_its_commit(sqlite_store):
    from ingest.store.sqlite import HOLD_CHECK_CHUNKS

    _save(sqlite_store, "d")
    n = 2 * HOLD_CHECK_CHUNKS + 1
    chunks, text = make_chunks("d", "r", [f"clause {i}" for i in range(n)],
                               [[1.0] + [0.0] * 383] * n, ["*"])
    calls: list[int] = []

    def check() -> None:  # counts the checks; refuses at the last (a job lost before commit)
        calls.append(sqlite_store._db().execute("SELECT count(*) FROM chunks").fetchone()[0])
        if len(calls) == 3:
            raise JobLost("lost")

    with pytest.raises(JobLost):
        sqlite_store.write_revision("d", "r", text=text, chunks=chunks, subjects=[], info={},
                                    check_held=check)
    # Between batches of HOLD_CHECK_CHUNKS (inside the transaction) and before the commit.
    assert calls == [HOLD_CHECK_CHUNKS, 2 * HOLD_CHECK_CHUNKS, n]
    assert sqlite_store._db().execute("SELECT count(*) FROM chunks").fetchone()[0] == 0


def _es_queues(tmp_path: Path):
    from service.api.jobs_elastic import ElasticJobQueue

    url = _ES_URL_AT_START or require_es()
    prefix = f"attest-test-{uuid.uuid4().hex[:10]}"
    return (ElasticJobQueue(url, tmp_path / "uploads", prefix=prefix, lease_seconds=1.0),
            ElasticJobQueue(url, tmp_path / "uploads", prefix=prefix, lease_seconds=1.0))


def _es_chunks(store, doc_id: str) -> int:
    store.es.indices.refresh(index=store.alias("chunks"))
    return store.es.count(index=store.alias("chunks"), query={"term": {"doc_id": doc_id}})["count"]


def test_elasticsearch_a_lease_lost_before_write_revision_writes_no_chunk(tmp_path, es_store, embedder):
    old, new = _es_queues(tmp_path)
    try:
        old.add(doc_id="lost", revision=revision_of(TEXT), filename="lost.txt", principal="alice",
                request_id="r-lost", acl=["alice"], upload=_stage(old.uploads))
        job = old.claim()
        assert job is not None

        def taken_over() -> None:
            time.sleep(1.3)  # the old holder stops renewing (paused); its lease expires
            taken = new.claim()
            assert taken is not None and taken.job_id == job.job_id and taken.attempts == 2

        with pytest.raises(JobLost, match=f"job {job.job_id} is no longer held by this worker"):
            _ingest(es_store, embedder, tmp_path, JobHold(old, job), taken_over)
        assert _es_chunks(es_store, "lost") == 0  # the old code wrote the revision's chunks
        assert es_store.get_document("lost").current_revision is None
        assert new.still_holds(job.job_id) is True
    finally:
        old.drop()
        old.shutdown()
        new.shutdown()


def test_elasticsearch_write_revision_stops_at_the_next_batch_after_a_takeover(tmp_path, es_store):
    old, new = _es_queues(tmp_path)
    try:
        old.add(doc_id="big", revision="r" * 64, filename="big.txt", principal="alice",
                request_id="r-big", acl=["alice"], upload=_stage(old.uploads))
        job = old.claim()
        hold = JobHold(old, job)
        _save(es_store, "big")
        n = 2 * BULK_CHUNK + 10  # three bulk requests: the revision + 499 chunks, 500, 11
        vector = (np.ones(384) / np.sqrt(384)).tolist()
        chunks, text = make_chunks("big", "r" * 64, [f"clause {i}" for i in range(n)],
                                   [vector] * n, ["alice"])
        checks: list[int] = []

        def check() -> None:
            checks.append(_es_chunks(es_store, "big"))
            if len(checks) == 2:  # after the first request: the lease expires, a peer claims
                time.sleep(1.3)
                assert new.claim() is not None
            hold.check()

        with pytest.raises(JobLost):
            es_store.write_revision("big", "r" * 64, text=text, chunks=chunks, subjects=[],
                                    info={}, check_held=check)
        assert checks == [0, BULK_CHUNK - 1]  # before each request; the second one refused
        assert _es_chunks(es_store, "big") == BULK_CHUNK - 1  # no request after the takeover
    finally:
        old.drop()
        old.shutdown()
        new.shutdown()
