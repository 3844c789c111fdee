"""A worker that lost its job writes nothing more for it (both queues): after a real takeover the
old holder's stage write is refused, its pipeline stops before its first document write, and the
job's record shows only the new holder's progress.

SQLite: real ``jobs.sqlite3`` and store files; the new holder is a real second process that takes
the job over through the owner check (the old holder's owner file was removed, so it looks gone).
Elasticsearch: the real test node (ATTEST_ELASTICSEARCH_URL) for the jobs index and the document
store; the takeover is a real lease expiry. Real pipeline and embedding model; nothing mocked.
"""

from __future__ import annotations

import subprocess
import sys
import time
import uuid
from pathlib import Path

from ingest.pipeline import revision_of
from ingest.settings import Settings
from ingest.store.port import AuditQuery
from service.api.ingest_runner import job_done, job_runner, job_settle
from service.api.jobs import IngestWorker, JobStore
from service.cli.worker import WorkerContext
from tests.conftest import _ES_URL_AT_START, require_es

REPO = Path(__file__).resolve().parents[1]
TEXT = b"The Supplier shall deliver the goods within thirty (30) days of the Order."

TAKER = """
import sys
sys.path.insert(0, sys.argv[2])
from pathlib import Path
from service.api.jobs import JobStore
jobs = JobStore(Path(sys.argv[1]))
print(jobs.recover(periodic=True)["requeued"], flush=True)
job = jobs.claim()
jobs.set_stage(job.job_id, "extracting")
print(job.job_id, job.attempts, jobs.owner, flush=True)
"""


def _stage(tmp: Path, name: str = "staged") -> Path:
    staged = tmp / f"{name}-{uuid.uuid4().hex}"
    staged.write_bytes(TEXT)
    return staged


def _old_holder_runs(jobs, job, store, embedder, tmp_path: Path) -> None:
    """The old holder runs its (lost) job through the real worker and pipeline."""
    ctx = WorkerContext(settings=Settings(data_dir=tmp_path / "data"), store=store, embedder=embedder)
    IngestWorker(jobs, job_runner(ctx), job_done(ctx), settle=job_settle(ctx))._run(job)


def test_sqlite_a_worker_that_lost_its_job_writes_nothing_more(tmp_path, sqlite_store, embedder):
    data = tmp_path / "data"
    old = JobStore(data)
    added = old.add(doc_id="lost", revision=revision_of(TEXT), filename="lost.txt",
                    principal="alice", request_id="r-lost", acl=["alice"], upload=_stage(tmp_path))
    job = old.claim()
    assert job is not None and job.job_id == added.job_id and job.attempts == 1
    # The old holder's owner file disappears (an operator's clean-up): to its peers it is gone.
    (data / "ingest-owners" / f"{old.owner}.lock").unlink()
    taker = subprocess.run([sys.executable, "-c", TAKER, str(data), str(REPO)], cwd=REPO,
                           capture_output=True, text=True, timeout=120, check=True)
    requeued, line = taker.stdout.strip().splitlines()
    taken_id, attempts, new_owner = line.split()
    assert (requeued, taken_id, attempts) == ("1", job.job_id, "2")

    _old_holder_runs(old, job, sqlite_store, embedder, tmp_path)  # the old holder goes on
    record = old._db().execute("SELECT state, stage, owner, attempts, error, result FROM jobs "
                               "WHERE job_id=?", (job.job_id,)).fetchone()
    assert tuple(record) == ("running", "extracting", new_owner, 2, None, None)
    assert sqlite_store.get_document("lost") is None  # its pipeline wrote nothing
    assert sqlite_store._db().execute("SELECT count(*) FROM chunks").fetchone()[0] == 0
    assert sqlite_store.list_audit(AuditQuery()) == []  # and reported nothing
    # Each write it may still attempt is refused.
    assert old.still_holds(job.job_id) is False
    assert old.set_stage(job.job_id, "indexing") is False
    assert old.finish(job.job_id, "failed", error="late") is False
    assert tuple(old._db().execute("SELECT state, stage, owner, attempts, error, result FROM jobs "
                                   "WHERE job_id=?", (job.job_id,)).fetchone()) == tuple(record)


def test_elasticsearch_a_worker_that_lost_its_lease_writes_nothing_more(tmp_path, es_store, embedder):
    from service.api.jobs_elastic import ElasticJobQueue

    url = _ES_URL_AT_START or require_es()
    prefix = f"attest-test-{uuid.uuid4().hex[:10]}"
    old = ElasticJobQueue(url, tmp_path / "uploads", prefix=prefix, lease_seconds=1.0)
    new = ElasticJobQueue(url, tmp_path / "uploads", prefix=prefix, lease_seconds=1.0)
    try:
        added = old.add(doc_id="lost", revision=revision_of(TEXT), filename="lost.txt",
                        principal="alice", request_id="r-lost", acl=["alice"],
                        upload=_stage(old.uploads))
        job = old.claim()
        assert job is not None and job.job_id == added.job_id
        time.sleep(1.3)  # the old holder stops renewing (paused); its lease expires
        taken = new.claim()
        assert taken is not None and taken.job_id == job.job_id and taken.attempts == 2
        new.set_stage(job.job_id, "extracting")

        _old_holder_runs(old, job, es_store, embedder, tmp_path)  # the old holder goes on
        source, seq_no, _term = new._get_raw(job.job_id)
        assert (source["state"], source["stage"], source["lease_owner"], source["attempts"],
                source["error"], source["result"]) == ("running", "extracting", new.owner, 2, None, None)
        assert es_store.get_document("lost") is None  # its pipeline wrote nothing
        assert es_store.list_audit(AuditQuery()) == []  # and reported nothing
        # Each write it may still attempt is refused.
        assert old.still_holds(job.job_id) is False
        assert old.set_stage(job.job_id, "indexing") is False
        assert old.finish(job.job_id, "failed", error="late") is False
        assert new._get_raw(job.job_id)[1] == seq_no  # the job's record was not written again
    finally:
        old.drop()
        old.shutdown()
        new.shutdown()
