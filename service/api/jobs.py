"""The persisted ingest queue: one SQLite file (``<data_dir>/jobs.sqlite3``) and one worker thread.

An upload is streamed to ``<data_dir>/uploads/<sha256>`` and recorded as a ``queued`` job before
the API answers 202, so an accepted upload survives a crash. The worker claims the oldest queued
job, runs :meth:`Ingestor.ingest_bytes` and records the result. On start, jobs left ``running``
by a killed process are queued again (a rerun is idempotent: chunk ids are deterministic and a
revision only becomes current after all its chunks are written); after ``MAX_ATTEMPTS`` they are
marked ``failed`` with the reason, and a job whose upload file has gone is failed too. No job is
dropped silently. The queue is bounded by ``Settings.ingest_queue_size`` queued jobs.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

import structlog

from ingest.store.sqlite import utc_now

log = structlog.get_logger(__name__)

MAX_ATTEMPTS = 3

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
    updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS jobs_state ON jobs(state, seq);
CREATE INDEX IF NOT EXISTS jobs_doc ON jobs(doc_id, seq);
"""

ACTIVE_STATES = ("queued", "running")


class QueueFull(Exception):
    """More than ``ingest_queue_size`` jobs are waiting."""


@dataclass(slots=True)
class Job:
    job_id: str
    doc_id: str
    revision: str
    filename: str
    title: str | None
    acl: list[str] | None
    collection: str
    metadata: dict[str, Any] | None
    principal: str
    request_id: str
    state: str
    stage: str | None
    result: dict[str, Any] | None
    error: str | None
    attempts: int
    created_at: str
    updated_at: str

    def public(self) -> dict[str, Any]:
        return {
            "job_id": self.job_id,
            "revision": self.revision,
            "state": self.state,
            "stage": self.stage,
            "error": self.error,
            "created_at": self.created_at,
            "updated_at": self.updated_at,
        }


class JobStore:
    """The jobs table and the upload files. Thread-safe: one connection per thread."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = Path(data_dir)
        self.uploads = self.data_dir / "uploads"
        self.uploads.mkdir(parents=True, exist_ok=True)
        self.path = self.data_dir / "jobs.sqlite3"
        self._local = threading.local()
        self._db().executescript(_SCHEMA)

    def _db(self) -> sqlite3.Connection:
        db = getattr(self._local, "db", None)
        if db is None:
            db = sqlite3.connect(self.path, timeout=30.0, isolation_level=None)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA busy_timeout=30000")
            db.row_factory = sqlite3.Row
            self._local.db = db
        return db

    def close(self) -> None:
        db = getattr(self._local, "db", None)
        if db is not None:
            db.close()
            self._local.db = None

    def upload_path(self, sha256: str) -> Path:
        return self.uploads / sha256

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
    ) -> Job:
        """Record a queued job whose bytes are already at ``upload_path(revision)``. Raises
        :class:`QueueFull` (and records nothing) when ``limit`` jobs are already queued."""
        now = utc_now()
        job_id = uuid.uuid4().hex
        db = self._db()
        db.execute("BEGIN IMMEDIATE")
        try:
            if limit is not None:
                queued = db.execute("SELECT count(*) FROM jobs WHERE state='queued'").fetchone()[0]
                if queued >= limit:
                    raise QueueFull(f"{queued} jobs are waiting")
            db.execute(
                "INSERT INTO jobs(job_id, doc_id, revision, filename, title, acl, collection, "
                "metadata, principal, request_id, state, stage, created_at, updated_at) "
                "VALUES (?,?,?,?,?,?,?,?,?,?,'queued','received',?,?)",
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
                ),
            )
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
        job = self.get(job_id)
        assert job is not None
        return job

    def get(self, job_id: str) -> Job | None:
        row = self._db().execute("SELECT * FROM jobs WHERE job_id=?", (job_id,)).fetchone()
        return self._job(row) if row else None

    def for_document(self, doc_id: str, limit: int = 20) -> list[Job]:
        rows = self._db().execute(
            "SELECT * FROM jobs WHERE doc_id=? ORDER BY seq DESC LIMIT ?", (doc_id, limit)
        ).fetchall()
        return [self._job(r) for r in rows]

    def depth(self) -> int:
        return int(self._db().execute("SELECT count(*) FROM jobs WHERE state='queued'").fetchone()[0])

    def counts(self) -> dict[str, int]:
        rows = self._db().execute("SELECT state, count(*) AS n FROM jobs GROUP BY state").fetchall()
        return {r["state"]: int(r["n"]) for r in rows}

    def claim(self) -> Job | None:
        """Take the oldest queued job and mark it running (one attempt more)."""
        db = self._db()
        db.execute("BEGIN IMMEDIATE")
        try:
            row = db.execute(
                "SELECT * FROM jobs WHERE state='queued' ORDER BY seq LIMIT 1"
            ).fetchone()
            if row is not None:
                db.execute(
                    "UPDATE jobs SET state='running', attempts=attempts+1, updated_at=? "
                    "WHERE job_id=?",
                    (utc_now(), row["job_id"]),
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

    def cancel_for_document(self, doc_id: str, reason: str) -> int:
        cur = self._db().execute(
            "UPDATE jobs SET state='cancelled', error=?, updated_at=? "
            "WHERE doc_id=? AND state='queued'",
            (reason, utc_now(), doc_id),
        )
        return cur.rowcount

    def recover(self) -> dict[str, int]:
        """After a restart: requeue interrupted jobs, fail those out of attempts or bytes."""
        db = self._db()
        requeued = failed = 0
        db.execute("BEGIN IMMEDIATE")
        try:
            rows = db.execute(
                "SELECT job_id, revision, attempts, state FROM jobs "
                "WHERE state IN ('queued','running') ORDER BY seq"
            ).fetchall()
            now = utc_now()
            for row in rows:
                if not self.upload_path(row["revision"]).exists():
                    db.execute(
                        "UPDATE jobs SET state='failed', error=?, updated_at=? WHERE job_id=?",
                        ("upload file missing after restart; upload the document again", now,
                         row["job_id"]),
                    )
                    failed += 1
                elif row["state"] == "running" and row["attempts"] >= MAX_ATTEMPTS:
                    db.execute(
                        "UPDATE jobs SET state='failed', error=?, updated_at=? WHERE job_id=?",
                        (f"interrupted {row['attempts']} times; giving up", now, row["job_id"]),
                    )
                    failed += 1
                elif row["state"] == "running":
                    db.execute(
                        "UPDATE jobs SET state='queued', updated_at=? WHERE job_id=?",
                        (now, row["job_id"]),
                    )
                    requeued += 1
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
        return {"requeued": requeued, "failed": failed}

    def release_upload(self, revision: str) -> None:
        """Delete the upload file once no active job needs it."""
        busy = self._db().execute(
            "SELECT 1 FROM jobs WHERE revision=? AND state IN ('queued','running') LIMIT 1",
            (revision,),
        ).fetchone()
        if busy is None:
            self.upload_path(revision).unlink(missing_ok=True)


JobRunner = Callable[[Job, bytes, Callable[[str], None]], dict[str, Any]]
JobDone = Callable[[Job, dict[str, Any]], None]


class IngestWorker:
    """One daemon thread that drains the job table. ``run_job`` does the ingestion and returns
    a result dict with at least ``status``; ``on_done`` is told about every finished job."""

    def __init__(self, jobs: JobStore, run_job: JobRunner, on_done: JobDone | None = None) -> None:
        self.jobs = jobs
        self.run_job = run_job
        self.on_done = on_done or (lambda job, result: None)
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.busy = False

    def start(self) -> None:
        recovered = self.jobs.recover()
        if recovered["requeued"] or recovered["failed"]:
            log.info("ingest_jobs_recovered", **recovered)
        self._thread = threading.Thread(target=self._loop, name="attest-ingest", daemon=True)
        self._thread.start()
        self._wake.set()

    def notify(self) -> None:
        self._wake.set()

    def stop(self, timeout: float = 30.0) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def _loop(self) -> None:
        while not self._stop.is_set():
            self._wake.wait(timeout=1.0)
            self._wake.clear()
            while not self._stop.is_set():
                job = self.jobs.claim()
                if job is None:
                    break
                self._run(job)
        self.jobs.close()

    def _run(self, job: Job) -> None:
        self.busy = True
        structlog.contextvars.bind_contextvars(request_id=job.request_id, job_id=job.job_id)
        try:
            path = self.jobs.upload_path(job.revision)
            try:
                data = path.read_bytes()
            except OSError as exc:
                result = {"status": "failed", "stage": "received",
                          "error": f"upload file unreadable: {exc.strerror}"}
            else:
                try:
                    result = self.run_job(job, data, lambda stage: self.jobs.set_stage(job.job_id, stage))
                except Exception as exc:  # noqa: BLE001 - a job ends failed, never kills the worker
                    log.error("ingest_job_crashed", error_type=type(exc).__name__, exc_info=exc)
                    result = {"status": "failed", "stage": "received",
                              "error": f"internal error: {type(exc).__name__}"}
            state = "failed" if result.get("status") == "failed" else "done"
            self.jobs.finish(job.job_id, state, result=result, error=result.get("error"))
            self.jobs.release_upload(job.revision)
            try:
                self.on_done(job, result)
            except Exception as exc:  # noqa: BLE001
                log.error("ingest_job_callback_failed", error_type=type(exc).__name__)
            log.info("ingest_job_finished", doc_id=job.doc_id, status=result.get("status"))
        finally:
            self.busy = False
            structlog.contextvars.unbind_contextvars("request_id", "job_id")
