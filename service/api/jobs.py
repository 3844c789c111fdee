"""The persisted ingest queue: one SQLite file (``<data_dir>/jobs.sqlite3``) and worker threads.

An upload is streamed to a temporary file, moved to ``<data_dir>/uploads/<job_id>`` (one file per
job, never shared: identical concurrent uploads cannot delete each other's bytes) and recorded as
a ``queued`` job before the API answers 202, so an accepted upload survives a crash.
``Settings.ingest_workers`` threads claim jobs: never two jobs of one document at once, and
between uploaders round-robin (the principal with the fewest running jobs, then the one served
longest ago), so a small document is not stuck behind another principal's large ones. Each job
runs :meth:`Ingestor.ingest_bytes` within ``Settings.ingest_job_seconds``.

On start, jobs left ``running`` by a killed process are queued again (a rerun is idempotent:
chunk ids are deterministic and a revision only becomes current after all its chunks are
written); after ``MAX_ATTEMPTS`` they are marked ``failed`` with the reason, and a job whose
upload file has gone is failed too; either way its document is marked ``failed`` and the
``ingest`` audit entry is written. No job is dropped silently. The queue is bounded by
``Settings.ingest_queue_size`` queued jobs.

Two adapters implement the :class:`JobQueue` port: :class:`JobStore` here (SQLite, the embedded
default: one process ingests, the API or one ``attest worker``) and
:class:`service.api.jobs_elastic.ElasticJobQueue` (a jobs index with leases, for several API
replicas and workers). :func:`open_job_queue` picks the one the store uses. Upload files live in
``Settings.uploads_dir`` (default ``<data_dir>/uploads``).
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
import uuid
from pathlib import Path
from typing import Any, Callable, Sequence

import structlog

from ingest.errors import AttestError, UnavailableError
from ingest.settings import Settings
from ingest.clock import utc_now
from ingest.sqlite_db import connect
from ingest.statuses import DocStatus, IngestOutcome, JobState
from service.api.job_queue import (  # the port; re-exported for the queue's users
    MAX_ATTEMPTS,
    Job,
    JobQueue,
    QueueFull,
    uploads_dir,
)

log = structlog.get_logger(__name__)


_SCHEMA = """
CREATE TABLE IF NOT EXISTS jobs (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    job_id TEXT NOT NULL UNIQUE,
    doc_id TEXT NOT NULL,
    revision TEXT NOT NULL,
    filename TEXT NOT NULL,
    title TEXT,
    acl TEXT,
    collection TEXT NOT NULL DEFAULT '',
    metadata TEXT,
    principal TEXT NOT NULL,
    request_id TEXT NOT NULL,
    state TEXT NOT NULL,
    stage TEXT,
    result TEXT,
    error TEXT,
    attempts INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    incarnation TEXT,
    claimed_at TEXT
);
CREATE INDEX IF NOT EXISTS jobs_state ON jobs(state, seq);
CREATE INDEX IF NOT EXISTS jobs_doc ON jobs(doc_id, seq);
CREATE INDEX IF NOT EXISTS jobs_principal ON jobs(principal, claimed_at);
"""
_ADDED_COLUMNS = {"incarnation": "TEXT", "claimed_at": "TEXT"}

def open_job_queue(settings: Settings) -> JobQueue:
    """The queue in the store the deployment runs: Elasticsearch when configured (shared by every
    replica and worker), else ``<data_dir>/jobs.sqlite3``."""
    if settings.elasticsearch_url:
        from service.api.jobs_elastic import ElasticJobQueue

        return ElasticJobQueue(
            settings.elasticsearch_url, uploads_dir(settings),
            prefix=settings.elasticsearch_prefix, lease_seconds=settings.ingest_lease_seconds,
        )
    return JobStore(settings.data_dir, uploads=uploads_dir(settings))


class JobStore:
    """The jobs table and the upload files. Thread-safe: one connection per thread."""

    lease_seconds: float | None = None  # one ingesting process: recovery happens at its start

    def __init__(self, data_dir: Path, *, uploads: Path | None = None) -> None:
        self.data_dir = Path(data_dir)
        self.uploads = Path(uploads) if uploads is not None else self.data_dir / "uploads"
        self.uploads.mkdir(parents=True, exist_ok=True)
        self.path = self.data_dir / "jobs.sqlite3"
        self._local = threading.local()
        db = self._db()
        db.executescript(_SCHEMA.split("CREATE INDEX IF NOT EXISTS jobs_principal")[0])
        columns = {r["name"] for r in db.execute("PRAGMA table_info(jobs)")}
        for name, kind in _ADDED_COLUMNS.items():
            if name not in columns:  # a queue created by an older version
                db.execute(f"ALTER TABLE jobs ADD COLUMN {name} {kind}")
        db.executescript(_SCHEMA)

    def _db(self) -> sqlite3.Connection:
        db = getattr(self._local, "db", None)
        if db is None:
            db = connect(self.path, timeout=30.0)
            self._local.db = db
        return db

    def close(self) -> None:
        db = getattr(self._local, "db", None)
        if db is not None:
            db.close()
            self._local.db = None

    def upload_path(self, sha256: str) -> Path:
        """Where versions before per-job files kept a job's bytes (by content hash)."""
        return self.uploads / sha256

    def job_upload_path(self, job: Job) -> Path:
        """The job's own copy of the bytes; jobs queued by older versions share the
        content-addressed file."""
        own = self.uploads / f"job-{job.job_id}"
        return own if own.exists() or not self.upload_path(job.revision).exists() else self.upload_path(job.revision)

    @staticmethod
    def _job(row: sqlite3.Row) -> Job:
        return Job(
            job_id=row["job_id"],
            doc_id=row["doc_id"],
            revision=row["revision"],
            filename=row["filename"],
            title=row["title"],
            acl=json.loads(row["acl"]) if row["acl"] is not None else None,
            collection=row["collection"],
            metadata=json.loads(row["metadata"]) if row["metadata"] is not None else None,
            principal=row["principal"],
            request_id=row["request_id"],
            state=row["state"],
            stage=row["stage"],
            result=json.loads(row["result"]) if row["result"] else None,
            error=row["error"],
            attempts=row["attempts"],
            created_at=row["created_at"],
            updated_at=row["updated_at"],
            incarnation=row["incarnation"],
        )

    def add(
        self,
        *,
        doc_id: str,
        revision: str,
        filename: str,
        principal: str,
        request_id: str,
        title: str | None = None,
        acl: Sequence[str] | None = None,
        collection: str = "",
        metadata: dict[str, Any] | None = None,
        limit: int | None = None,
        incarnation: str | None = None,
        upload: Path | None = None,
    ) -> Job:
        """Record a queued job. ``upload`` (a file in ``uploads/``) becomes the job's own copy
        of the bytes, moved in the same step; without it the bytes must already be at
        ``upload_path(revision)``. Raises :class:`QueueFull` (and records nothing, leaving
        ``upload`` where it was) when ``limit`` jobs are already queued."""
        now = utc_now()
        job_id = uuid.uuid4().hex
        db = self._db()
        db.execute("BEGIN IMMEDIATE")
        try:
            if limit is not None:
                queued = db.execute("SELECT count(*) FROM jobs WHERE state='queued'").fetchone()[0]
                if queued >= limit:
                    raise QueueFull(f"{queued} jobs are waiting")
            if upload is not None:
                # Before the row commits: a crash between the two leaves an orphan file,
                # never a job without its bytes.
                os.replace(upload, self.uploads / f"job-{job_id}")
            db.execute(
                "INSERT INTO jobs(job_id, doc_id, revision, filename, title, acl, collection, "
                "metadata, principal, request_id, state, stage, created_at, updated_at, "
                "incarnation) VALUES (?,?,?,?,?,?,?,?,?,?,'queued','received',?,?,?)",
                (
                    job_id,
                    doc_id,
                    revision,
                    filename,
                    title,
                    json.dumps(list(acl)) if acl is not None else None,
                    collection,
                    json.dumps(metadata, sort_keys=True) if metadata is not None else None,
                    principal,
                    request_id,
                    now,
                    now,
                    incarnation,
                ),
            )
        except BaseException:
            db.execute("ROLLBACK")
            if upload is not None and (self.uploads / f"job-{job_id}").exists():
                os.replace(self.uploads / f"job-{job_id}", upload)
            raise
        db.execute("COMMIT")
        job = self.get(job_id)
        assert job is not None
        return job

    def get(self, job_id: str) -> Job | None:
        row = self._db().execute("SELECT * FROM jobs WHERE job_id=?", (job_id,)).fetchone()
        return self._job(row) if row else None

    def for_document(self, doc_id: str, incarnation: str | None = None, limit: int = 20) -> list[Job]:
        """The document's recent jobs. With ``incarnation``, only that incarnation's: the next
        owner of a deleted document's id never sees its predecessor's jobs."""
        if incarnation is None:
            rows = self._db().execute(
                "SELECT * FROM jobs WHERE doc_id=? ORDER BY seq DESC LIMIT ?", (doc_id, limit)
            ).fetchall()
        else:
            rows = self._db().execute(
                "SELECT * FROM jobs WHERE doc_id=? AND (incarnation=? OR incarnation IS NULL) "
                "ORDER BY seq DESC LIMIT ?",
                (doc_id, incarnation, limit),
            ).fetchall()
        return [self._job(r) for r in rows]

    def depth(self) -> int:
        return int(self._db().execute("SELECT count(*) FROM jobs WHERE state='queued'").fetchone()[0])

    def counts(self) -> dict[str, int]:
        rows = self._db().execute("SELECT state, count(*) AS n FROM jobs GROUP BY state").fetchall()
        return {r["state"]: int(r["n"]) for r in rows}

    def claim(self) -> Job | None:
        """Take the next queued job and mark it running (one attempt more). Fair between
        principals: the one with the fewest running jobs first, then the one whose last job
        was claimed longest ago, then the oldest job. A document with a running job waits."""
        db = self._db()
        db.execute("BEGIN IMMEDIATE")
        try:
            row = db.execute(
                "SELECT q.* FROM jobs q WHERE q.state='queued' AND NOT EXISTS "
                "(SELECT 1 FROM jobs r WHERE r.state='running' AND r.doc_id=q.doc_id) "
                "ORDER BY (SELECT count(*) FROM jobs r WHERE r.state='running' "
                "AND r.principal=q.principal), "
                "COALESCE((SELECT max(c.claimed_at) FROM jobs c WHERE c.principal=q.principal), ''), "
                "q.seq LIMIT 1"
            ).fetchone()
            if row is not None:
                now = utc_now()
                db.execute(
                    "UPDATE jobs SET state='running', attempts=attempts+1, updated_at=?, "
                    "claimed_at=? WHERE job_id=?",
                    (now, now, row["job_id"]),
                )
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
        return self.get(row["job_id"]) if row is not None else None

    def set_stage(self, job_id: str, stage: str) -> None:
        self._db().execute(
            "UPDATE jobs SET stage=?, updated_at=? WHERE job_id=?", (stage, utc_now(), job_id)
        )

    def finish(
        self, job_id: str, state: str, *, result: dict[str, Any] | None = None, error: str | None = None
    ) -> None:
        self._db().execute(
            "UPDATE jobs SET state=?, result=?, error=?, updated_at=?, "
            "stage=COALESCE(?, stage) WHERE job_id=?",
            (
                state,
                json.dumps(result, sort_keys=True) if result is not None else None,
                error,
                utc_now(),
                (result or {}).get("stage"),
                job_id,
            ),
        )

    def renew_leases(self) -> int:
        return 0

    def cancel_for_document(self, doc_id: str, reason: str) -> int:
        """On delete: cancel the document's queued jobs and drop their bytes. A running job is not
        touched here: the store refuses its writes once the document is deleted."""
        db = self._db()
        db.execute("BEGIN IMMEDIATE")
        try:
            ids = [r["job_id"] for r in db.execute(
                "SELECT job_id FROM jobs WHERE doc_id=? AND state='queued'", (doc_id,)
            )]
            db.execute(
                "UPDATE jobs SET state='cancelled', error=?, updated_at=? "
                "WHERE doc_id=? AND state='queued'",
                (reason, utc_now(), doc_id),
            )
            # Jobs queued before incarnations existed are tied to this (deleted) document now,
            # so a later owner of the id never sees them.
            db.execute(
                "UPDATE jobs SET incarnation='deleted' WHERE doc_id=? AND incarnation IS NULL",
                (doc_id,),
            )
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
        for job_id in ids:
            (self.uploads / f"job-{job_id}").unlink(missing_ok=True)
        return len(ids)

    def recover(self) -> dict[str, Any]:
        """After a restart: requeue interrupted jobs, fail those out of attempts or bytes.
        Returns the counts and, under ``failed_jobs``, the jobs it failed (their documents
        and the audit must be told)."""
        db = self._db()
        requeued = failed = 0
        failed_ids: list[str] = []
        db.execute("BEGIN IMMEDIATE")
        try:
            rows = db.execute(
                "SELECT * FROM jobs WHERE state IN ('queued','running') ORDER BY seq"
            ).fetchall()
            now = utc_now()
            for row in rows:
                reason = None
                if not self.job_upload_path(self._job(row)).exists():
                    reason = "upload file missing after restart; upload the document again"
                elif row["state"] == JobState.RUNNING and row["attempts"] >= MAX_ATTEMPTS:
                    reason = f"interrupted {row['attempts']} times; giving up"
                if reason is not None:
                    db.execute(
                        "UPDATE jobs SET state='failed', error=?, updated_at=? WHERE job_id=?",
                        (reason, now, row["job_id"]),
                    )
                    failed += 1
                    failed_ids.append(row["job_id"])
                elif row["state"] == JobState.RUNNING:
                    db.execute(
                        "UPDATE jobs SET state='queued', updated_at=? WHERE job_id=?",
                        (now, row["job_id"]),
                    )
                    requeued += 1
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
        failed_jobs = [job for job in (self.get(i) for i in failed_ids) if job is not None]
        return {"requeued": requeued, "failed": failed, "failed_jobs": failed_jobs}

    def release_upload(self, job: Job) -> None:
        """Delete the job's bytes once it is finished. A legacy content-addressed file is
        deleted only when no active job needs it."""
        own = self.uploads / f"job-{job.job_id}"
        if own.exists():
            own.unlink(missing_ok=True)
            return
        busy = self._db().execute(
            "SELECT 1 FROM jobs WHERE revision=? AND state IN ('queued','running') LIMIT 1",
            (job.revision,),
        ).fetchone()
        if busy is None:
            self.upload_path(job.revision).unlink(missing_ok=True)


JobRunner = Callable[[Job, bytes, Callable[[str], None]], dict[str, Any]]
JobDone = Callable[[Job, dict[str, Any]], None]


class IngestWorker:
    """``threads`` daemon threads that drain the job table. ``run_job`` does the ingestion and
    returns a result dict with at least ``status``; ``on_done`` is told about every finished
    job, including those :meth:`JobStore.recover` failed at start. A result the pipeline did
    not record on the document itself carries ``recorded: False``."""

    def __init__(
        self,
        jobs: JobQueue,
        run_job: JobRunner,
        on_done: JobDone | None = None,
        *,
        threads: int = 1,
    ) -> None:
        self.jobs = jobs
        self.run_job = run_job
        self.on_done = on_done or (lambda job, result: None)
        self.n_threads = max(1, threads)
        self._wake = threading.Condition()
        self._pending = False
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []

    def start(self) -> None:
        recovered = self.jobs.recover()
        if recovered["requeued"] or recovered["failed"]:
            log.info("ingest_jobs_recovered", requeued=recovered["requeued"], failed=recovered["failed"])
        for job in recovered["failed_jobs"]:
            self._report(job, {"status": IngestOutcome.FAILED, "stage": job.stage or DocStatus.RECEIVED,
                               "error": job.error, "recorded": False})
        for n in range(self.n_threads):
            thread = threading.Thread(target=self._loop, name=f"attest-ingest-{n}", daemon=True)
            self._threads.append(thread)
            thread.start()
        if self.jobs.lease_seconds:
            beat = threading.Thread(target=self._heartbeat, name="attest-ingest-lease", daemon=True)
            self._threads.append(beat)
            beat.start()
        self.notify()

    def _heartbeat(self) -> None:
        """Renew this process's leases every third of the lease; once a lease, fail the jobs
        that dead workers left without attempts (another worker may do it first: harmless)."""
        assert self.jobs.lease_seconds
        period = self.jobs.lease_seconds / 3
        next_recover = time.monotonic() + self.jobs.lease_seconds
        while not self._stop.wait(period):
            try:
                self.jobs.renew_leases()
                if time.monotonic() >= next_recover:
                    next_recover = time.monotonic() + self.jobs.lease_seconds
                    for job in self.jobs.recover()["failed_jobs"]:
                        self._report(job, {"status": IngestOutcome.FAILED, "stage": job.stage or DocStatus.RECEIVED,
                                           "error": job.error, "recorded": False})
            except Exception as exc:  # noqa: BLE001 - an outage: the next beat tries again
                log.error("ingest_lease_renewal_failed", error_type=type(exc).__name__, exc_info=exc)

    def notify(self) -> None:
        with self._wake:
            self._pending = True
            self._wake.notify_all()

    def stop(self, timeout: float = 30.0) -> None:
        """Stop claiming jobs and wait up to ``timeout`` s for running ones. A job still running
        then is left ``running`` and resumes at the next start."""
        self._stop.set()
        self.notify()
        for thread in self._threads:
            thread.join(timeout)

    def _loop(self) -> None:
        try:
            while not self._stop.is_set():
                with self._wake:
                    if not self._pending:
                        self._wake.wait(timeout=1.0)
                    self._pending = False
                while not self._stop.is_set():
                    try:
                        job = self.jobs.claim()
                    except Exception as exc:  # noqa: BLE001 - the queue's store is down: retry later
                        log.error("ingest_claim_failed", error_type=type(exc).__name__, exc_info=exc)
                        break
                    if job is None:
                        break
                    self.notify()  # another thread may take the next job now
                    self._run(job)
        finally:
            self.jobs.close()

    def _run(self, job: Job) -> None:
        structlog.contextvars.bind_contextvars(request_id=job.request_id, job_id=job.job_id)
        try:
            path = self.jobs.job_upload_path(job)
            try:
                data = path.read_bytes()
            except OSError as exc:
                log.error("ingest_upload_unreadable", doc_id=job.doc_id, error=exc.strerror)
                result = {"status": IngestOutcome.FAILED, "stage": DocStatus.RECEIVED, "recorded": False,
                          "error": f"upload file unreadable: {exc.strerror}"}
            else:
                try:
                    result = self.run_job(job, data, lambda stage: self.jobs.set_stage(job.job_id, stage))
                except AttestError as exc:
                    # Not the document's fault (a store outage, a configuration error): the
                    # job ends failed with the reason; the traceback goes to the log.
                    log.error("ingest_job_failed", error_type=type(exc).__name__, exc_info=exc)
                    retry = " (retry the upload later)" if isinstance(exc, UnavailableError) else ""
                    result = {"status": IngestOutcome.FAILED, "stage": DocStatus.RECEIVED, "recorded": False,
                              "error": f"{exc.message or type(exc).__name__}{retry}"}
                except Exception as exc:  # noqa: BLE001 - a job ends failed, never kills the worker
                    log.error("ingest_job_crashed", error_type=type(exc).__name__, exc_info=exc)
                    result = {"status": IngestOutcome.FAILED, "stage": DocStatus.RECEIVED, "recorded": False,
                              "error": f"internal error: {type(exc).__name__}"}
            status = result.get("status")
            state = {IngestOutcome.FAILED: JobState.FAILED, IngestOutcome.CANCELLED: JobState.CANCELLED}.get(str(status), JobState.DONE)
            if self.jobs.finish(job.job_id, state, result=result, error=result.get("error")) is False:
                # The lease expired and another worker took the job over: it reports it.
                log.warning("ingest_job_lost_lease", doc_id=job.doc_id, status=status)
                return
            self.jobs.release_upload(job)
            self._report(job, result)
            log.info("ingest_job_finished", doc_id=job.doc_id, status=status)
        except Exception as exc:  # noqa: BLE001 - the jobs file itself failed: log, keep serving
            log.error("ingest_job_bookkeeping_failed", error_type=type(exc).__name__, exc_info=exc)
        finally:
            structlog.contextvars.unbind_contextvars("request_id", "job_id")

    def _report(self, job: Job, result: dict[str, Any]) -> None:
        try:
            self.on_done(job, result)
        except Exception as exc:  # noqa: BLE001 - logged with its traceback, never dropped silently
            log.error(
                "ingest_job_report_failed",
                doc_id=job.doc_id,
                job_id=job.job_id,
                error_type=type(exc).__name__,
                exc_info=exc,
            )
