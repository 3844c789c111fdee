"""The persisted ingest queue: one SQLite file (``<data_dir>/jobs.sqlite3``) and worker threads.

An upload is streamed to a temporary file, stored in the upload store as the job's own object
(``<data_dir>/uploads/job-<job_id>`` by default; one per job, never shared: identical concurrent
uploads cannot delete each other's bytes) and then recorded as a ``queued`` job before the API
answers 202, so an accepted upload survives a crash.
``Settings.ingest_workers`` threads claim jobs: never two jobs of one document at once, and
between uploaders round-robin (the principal with the fewest running jobs, then the one served
longest ago), so a small document is not stuck behind another principal's large ones. Each job
runs :meth:`Ingestor.ingest_bytes` within ``Settings.ingest_job_seconds``.

On start, and every ``OWNER_CHECK_SECONDS`` in every running worker, jobs left ``running`` by a
killed process are queued again (a rerun is idempotent:
chunk ids are deterministic and a revision only becomes current after all its chunks are
written); after ``MAX_ATTEMPTS`` they are marked ``failed`` with the reason, and a job whose
upload file has gone is failed too; either way its document is marked ``failed`` and the
``ingest`` audit entry is written. No job is dropped silently. The queue is bounded by
``Settings.ingest_queue_size`` queued jobs.

Two adapters implement the :class:`JobQueue` port: :class:`JobStore` here (SQLite, the embedded
default: the API's worker or ``attest worker`` processes on the machine that holds the data dir;
a claimed job carries its process's owner id, and recovery requeues only the running jobs of
owners that are gone, see :meth:`JobStore.recover`) and
:class:`service.api.jobs_elastic.ElasticJobQueue` (a jobs index with leases, for several API
replicas and workers). :func:`open_job_queue` picks the one the store uses. The bytes live in the
upload store ``ATTEST_UPLOAD_STORE`` names (``service/api/upload_store.py``): files in
``Settings.uploads_dir`` (default ``<data_dir>/uploads``), or objects in an S3-compatible bucket.
"""

from __future__ import annotations

import fcntl
import json
import os
import sqlite3
import threading
import time
import uuid
from pathlib import Path
from typing import Any, Callable, Sequence

import structlog

from ingest.errors import AttestError, InvalidInputError, UnavailableError
from ingest.settings import Settings
from ingest.clock import utc_now
from ingest.sqlite_db import ThreadConnections, immediate, set_up_schema
from ingest.statuses import DocStatus, IngestOutcome, JobState
from service.api.job_queue import (  # the port; re-exported for the queue's users
    MAX_ATTEMPTS,
    Job,
    JobLost,
    JobQueue,
    QueueFull,
    uploads_dir,
)
from service.api.upload_store import (
    LocalUploadStore,
    UploadLost,
    UploadRef,
    UploadStore,
    staging_dir,
)

log = structlog.get_logger(__name__)

# How often a live worker looks for running jobs of dead owners on the SQLite queue: one query
# on the running jobs and one non-blocking flock per other owner, so a killed worker's job waits
# at most this long (plus a poll) for a live peer.
OWNER_CHECK_SECONDS = 5.0

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
    claimed_at TEXT,
    owner TEXT
);
CREATE INDEX IF NOT EXISTS jobs_state ON jobs(state, seq);
CREATE INDEX IF NOT EXISTS jobs_doc ON jobs(doc_id, seq);
CREATE INDEX IF NOT EXISTS jobs_principal ON jobs(principal, claimed_at);
"""
_ADDED_COLUMNS = {"incarnation": "TEXT", "claimed_at": "TEXT", "owner": "TEXT"}


def _add_missing_columns(db: sqlite3.Connection) -> None:
    columns = {r["name"] for r in db.execute("PRAGMA table_info(jobs)")}
    for name, kind in _ADDED_COLUMNS.items():
        if name not in columns:  # a queue created by an older version
            db.execute(f"ALTER TABLE jobs ADD COLUMN {name} {kind}")


def open_upload_store(settings: Settings) -> UploadStore:
    """The adapter ``ATTEST_UPLOAD_STORE`` names. Raises ``InvalidInputError`` for settings that
    cannot work (no bucket, a file bound over one PUT)."""
    if settings.upload_store == "local":
        return LocalUploadStore(staging_dir(settings))
    if not settings.s3_bucket:
        raise InvalidInputError("ATTEST_S3_BUCKET is required with ATTEST_UPLOAD_STORE=s3")
    try:
        from service.api.upload_store_s3 import S3_MAX_OBJECT_BYTES, S3UploadStore
    except ImportError as exc:  # boto3 is the optional extra `s3`
        raise InvalidInputError(
            "ATTEST_UPLOAD_STORE=s3 needs boto3: pip install 'attest[s3]'"
        ) from exc
    if settings.max_file_bytes > S3_MAX_OBJECT_BYTES:
        raise InvalidInputError(
            f"ATTEST_MAX_FILE_BYTES: at most {S3_MAX_OBJECT_BYTES} with ATTEST_UPLOAD_STORE=s3"
        )
    return S3UploadStore.from_settings(settings)


def open_job_queue(settings: Settings) -> JobQueue:
    """The queue in the store the deployment runs: Elasticsearch when configured (shared by every
    replica and worker), else ``<data_dir>/jobs.sqlite3``; the bytes in the upload store the
    settings name (``ATTEST_UPLOAD_STORE``)."""
    upload_store = open_upload_store(settings)
    log.info("upload_store_opened", upload_store=upload_store.describe())
    try:  # said at start, so an operator sees a wrong bucket or key before the first upload
        upload_store.check()
    except AttestError as exc:
        log.warning("upload_store_not_ready", upload_store=upload_store.describe(), error=exc.message)
    if settings.elasticsearch_url:
        from service.api.jobs_elastic import ElasticJobQueue

        return ElasticJobQueue(
            settings.elasticsearch_url, uploads_dir(settings),
            prefix=settings.elasticsearch_prefix, lease_seconds=settings.ingest_lease_seconds,
            upload_store=upload_store,
        )
    return JobStore(settings.data_dir, uploads=uploads_dir(settings), upload_store=upload_store)


def release_quietly(upload_store: UploadStore, ref: UploadRef) -> None:
    """Remove an upload nobody needs any more; an outage is logged, not raised (the document's
    delete removes whatever is left under its prefix)."""
    try:
        upload_store.delete(ref)
    except AttestError as exc:
        log.warning("ingest_upload_release_failed", job_id=ref.job_id,
                    error_type=type(exc).__name__, error=exc.message)


class JobStore:
    """The jobs table; the bytes in ``upload_store`` (default: files in ``uploads``).
    Thread-safe: one connection per thread.

    Several processes may ingest from one queue (``attest worker`` processes on the data dir's
    machine). Each one that claims a job first takes ``flock`` on its own file
    ``<data_dir>/ingest-owners/<owner>.lock`` and keeps it while it lives; its claims carry that
    owner id. The kernel drops the lock when the process dies, so "is this running job's owner
    gone" is a non-blocking lock attempt, with no lease to renew."""

    lease_seconds: float | None = None  # no leases: a dead owner is found through its flock

    def __init__(self, data_dir: Path, *, uploads: Path | None = None,
                 upload_store: UploadStore | None = None,
                 recover_seconds: float = OWNER_CHECK_SECONDS) -> None:
        self.recover_seconds = recover_seconds
        self.data_dir = Path(data_dir)
        self.upload_store: UploadStore = upload_store or LocalUploadStore(
            Path(uploads) if uploads is not None else self.data_dir / "uploads"
        )
        self.uploads = self.upload_store.staging
        self.path = self.data_dir / "jobs.sqlite3"
        self._connections = ThreadConnections(self.path)
        self.owner = uuid.uuid4().hex
        self._owners = self.data_dir / "ingest-owners"
        self._owner_fd: int | None = None
        self._owner_lock = threading.Lock()
        # The table, then what a queue of an older version lacks, then the indexes (which may
        # use the added columns): one write transaction each, so the processes of `attest serve
        # --workers N` opening a new queue together take turns.
        set_up_schema(self._db(), _SCHEMA.split("CREATE INDEX IF NOT EXISTS jobs_principal")[0],
                      _add_missing_columns)
        set_up_schema(self._db(), _SCHEMA)

    def _hold_owner_lock(self) -> None:
        """Take this queue's owner lock (once; held until the process exits)."""
        with self._owner_lock:
            if self._owner_fd is None:
                self._owners.mkdir(parents=True, exist_ok=True)
                fd = os.open(self._owners / f"{self.owner}.lock", os.O_RDWR | os.O_CREAT, 0o600)
                fcntl.flock(fd, fcntl.LOCK_EX)  # a new file of a fresh id: never waits
                self._owner_fd = fd

    def _owner_gone(self, owner: str | None) -> bool:
        """True when no live process holds ``owner``'s lock. A job without an owner was claimed
        by a version that ran one ingesting process: it is gone at any start."""
        if owner is None:
            return True
        path = self._owners / f"{owner}.lock"
        try:
            fd = os.open(path, os.O_RDWR)
        except FileNotFoundError:
            return True  # removed by an earlier recovery, after its owner died
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        finally:
            os.close(fd)  # releases the lock if it was taken
        return True

    def _db(self) -> sqlite3.Connection:
        return self._connections.get()

    def close(self) -> None:
        self._connections.close()

    def upload_path(self, sha256: str) -> Path:
        """Where versions before per-job files kept a job's bytes (by content hash; the local
        upload store only)."""
        return self.uploads / sha256

    def job_upload_path(self, job: Job) -> Path:
        """The job's own file in the local upload store; jobs queued by older versions share
        the content-addressed file."""
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
        """Record a queued job. ``upload`` (a staged file) is stored in the upload store as the
        job's own copy of the bytes first; without it the bytes must already be at
        ``upload_path(revision)`` (local store). Raises :class:`QueueFull` (and records nothing,
        leaving ``upload`` where it was) when ``limit`` jobs are already queued, and
        ``StoreUnavailable`` when the upload store cannot take the bytes."""
        now = utc_now()
        job_id = uuid.uuid4().hex
        ref = UploadRef(job_id=job_id, doc_id=doc_id, incarnation=incarnation, revision=revision)
        if limit is not None and (queued := self.depth()) >= limit:
            raise QueueFull(f"{queued} jobs are waiting")
        if upload is not None:
            # Before the row exists (and outside its write transaction: an object-store PUT
            # may take a while): a crash between the two leaves an orphan object, never a job
            # without its bytes.
            self.upload_store.put(ref, upload)
        db = self._db()
        try:
            with immediate(db):
                if limit is not None:
                    queued = db.execute("SELECT count(*) FROM jobs WHERE state='queued'").fetchone()[0]
                    if queued >= limit:
                        raise QueueFull(f"{queued} jobs are waiting")
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
        except BaseException:  # rolled back: the bytes stored for it go too
            if upload is not None:
                release_quietly(self.upload_store, ref)
            raise
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
        self._hold_owner_lock()
        db = self._db()
        with immediate(db):
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
                    "claimed_at=?, owner=? WHERE job_id=?",
                    (now, now, self.owner, row["job_id"]),
                )
        return self.get(row["job_id"]) if row is not None else None

    # Every write of a claimed job is conditioned on this process still running it: once a peer
    # requeued it (this owner looked gone) or recovery failed it, the old holder writes nothing.
    _HELD = "job_id=? AND state='running' AND owner=?"

    def set_stage(self, job_id: str, stage: str) -> bool:
        """Record the job's progress; False (nothing written) when this process no longer
        holds the job."""
        return self._db().execute(
            f"UPDATE jobs SET stage=?, updated_at=? WHERE {self._HELD}",
            (stage, utc_now(), job_id, self.owner),
        ).rowcount == 1

    def finish(
        self, job_id: str, state: str, *, result: dict[str, Any] | None = None, error: str | None = None
    ) -> bool:
        """End a held job; False (nothing written) when this process no longer holds it."""
        return self._db().execute(
            "UPDATE jobs SET state=?, result=?, error=?, updated_at=?, "
            f"stage=COALESCE(?, stage) WHERE {self._HELD}",
            (
                state,
                json.dumps(result, sort_keys=True) if result is not None else None,
                error,
                utc_now(),
                (result or {}).get("stage"),
                job_id,
                self.owner,
            ),
        ).rowcount == 1

    def renew_leases(self) -> int:
        return 0

    def still_holds(self, job_id: str) -> bool:
        """Whether this process still runs the job (recovery may have failed it meanwhile)."""
        row = self._db().execute(
            "SELECT 1 FROM jobs WHERE job_id=? AND state='running' AND owner=?", (job_id, self.owner)
        ).fetchone()
        return row is not None

    def cancel_for_document(self, doc_id: str, reason: str) -> int:
        """On delete: cancel the document's queued jobs and drop their bytes. A running job is not
        touched here: the store refuses its writes once the document is deleted."""
        db = self._db()
        with immediate(db):
            cancelled = [self._job(r) for r in db.execute(
                "SELECT * FROM jobs WHERE doc_id=? AND state='queued'", (doc_id,)
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
        for job in cancelled:
            release_quietly(self.upload_store, job.upload_ref())
        return len(cancelled)

    def recover(
        self, before_fail: Callable[[Job], None] | None = None, *, periodic: bool = False
    ) -> dict[str, Any]:
        """Requeue the running jobs of owners that are gone (a killed worker), and fail the jobs
        nobody can finish: out of attempts, or bytes gone. A running job whose owner process is
        alive (this one or another worker on this data dir) is left alone. Returns the counts
        and, under ``failed_jobs``, the jobs it failed (the audit must be told).

        At a start every queued job's bytes are checked too. ``periodic`` is the pass every
        live worker runs each ``recover_seconds``: only running jobs are read (as many as the
        workers' threads) and each other owner costs one non-blocking ``flock`` attempt, so a
        dead worker's job is taken over by a live one without waiting for a restart.

        ``before_fail`` is told each job (as it will read: ``failed``, with the reason) before
        the queue shows it failed, so its document can show the failure first. Recovery first
        makes the job its own (``running`` under this process's owner, through an update
        conditioned on the state and owner it read) and tells ``before_fail`` only then: a job
        a peer claimed since is left to that peer, and no peer claims it before it is failed.
        Requeues are conditioned the same way, so two workers recovering at once requeue a
        job once."""
        db = self._db()
        self._hold_owner_lock()  # a job recovery holds must not look abandoned to a peer
        states = "('running')" if periodic else "('queued','running')"
        rows = db.execute(f"SELECT * FROM jobs WHERE state IN {states} ORDER BY seq").fetchall()
        gone: dict[str | None, bool] = {self.owner: False}
        interrupted = []
        for row in rows:
            if row["state"] == JobState.RUNNING:
                if row["owner"] not in gone:
                    gone[row["owner"]] = self._owner_gone(row["owner"])
                if not gone[row["owner"]]:
                    continue  # a live worker is running it
            interrupted.append(row)
        if not interrupted:
            return {"requeued": 0, "failed": 0, "failed_jobs": []}
        # Which bytes are gone is asked outside any write transaction (an object store answers
        # over the network).
        missing = self._missing_uploads(interrupted)
        reasons: dict[str, str] = {}
        for row in interrupted:
            if row["job_id"] in missing:
                reasons[row["job_id"]] = "upload file missing after restart; upload the document again"
            elif row["state"] == JobState.RUNNING and row["attempts"] >= MAX_ATTEMPTS:
                reasons[row["job_id"]] = f"interrupted {row['attempts']} times; giving up"
        requeued = 0
        held: list[sqlite3.Row] = []
        with immediate(db):
            now = utc_now()
            for row in interrupted:
                unchanged = ("WHERE job_id=? AND state=? AND owner IS ? AND attempts=?",
                             (row["job_id"], row["state"], row["owner"], row["attempts"]))
                if row["job_id"] in reasons:
                    taken = db.execute("UPDATE jobs SET state='running', owner=?, updated_at=? "
                                       + unchanged[0], (self.owner, now, *unchanged[1]))
                    if taken.rowcount:
                        held.append(row)
                elif row["state"] == JobState.RUNNING:
                    requeued += db.execute("UPDATE jobs SET state='queued', updated_at=? "
                                           + unchanged[0], (now, *unchanged[1])).rowcount
        for row in held:
            if before_fail is not None:
                job = self._job(row)
                job.state, job.error = JobState.FAILED, reasons[row["job_id"]]
                before_fail(job)
        failed_ids: list[str] = []
        with immediate(db):
            now = utc_now()
            for row in held:
                if db.execute(
                    "UPDATE jobs SET state='failed', error=?, updated_at=? "
                    "WHERE job_id=? AND state='running' AND owner=?",
                    (reasons[row["job_id"]], now, row["job_id"], self.owner),
                ).rowcount:
                    failed_ids.append(row["job_id"])
        for owner, is_gone in gone.items():  # none of their jobs is running any more
            if is_gone and owner is not None:
                (self._owners / f"{owner}.lock").unlink(missing_ok=True)
        failed_jobs = [job for job in (self.get(i) for i in failed_ids) if job is not None]
        return {"requeued": requeued, "failed": len(failed_jobs), "failed_jobs": failed_jobs}

    def _missing_uploads(self, rows: list[sqlite3.Row]) -> set[str]:
        """Job ids whose bytes the upload store does not have. A store that cannot answer
        counts as having them: an outage never fails a job here."""
        missing: set[str] = set()
        for row in rows:
            job = self._job(row)
            try:
                if not self.upload_store.exists(job.upload_ref()):
                    missing.add(job.job_id)
            except AttestError as exc:
                log.warning("ingest_upload_check_failed", job_id=job.job_id,
                            error_type=type(exc).__name__, error=exc.message)
        return missing

    def read_upload(self, job: Job, max_bytes: int) -> bytes:
        """The job's bytes, checked against its revision (``UploadLost``, ``StoreUnavailable``)."""
        return self.upload_store.read(job.upload_ref(), max_bytes)

    def release_upload(self, job: Job) -> None:
        """Delete the job's bytes once it is finished. A legacy content-addressed file is
        deleted only when no active job needs it."""
        if not isinstance(self.upload_store, LocalUploadStore):
            release_quietly(self.upload_store, job.upload_ref())
            return
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


class JobHold:
    """What a running job's pipeline reports to and asks its queue: called with a stage, it
    records the job's progress; ``check()`` asks whether the worker still holds the job. Both
    raise :class:`JobLost` once the job is another worker's (or recovery failed it), so the
    pipeline stops before its next write of the document (``Ingestor`` calls them before each
    write)."""

    def __init__(self, jobs: JobQueue, job: Job) -> None:
        self.jobs = jobs
        self.job = job

    def __call__(self, stage: str) -> None:
        if not self.jobs.set_stage(self.job.job_id, stage):
            raise self._lost(stage)

    def check(self) -> None:
        if not self.jobs.still_holds(self.job.job_id):
            raise self._lost(None)

    def _lost(self, stage: str | None) -> JobLost:
        log.warning("ingest_job_lost", doc_id=self.job.doc_id, stage=stage)
        return JobLost(f"job {self.job.job_id} is no longer held by this worker; stopped")


JobRunner = Callable[[Job, bytes, JobHold], dict[str, Any]]
JobDone = Callable[[Job, dict[str, Any]], None]


# What a job's result makes of the job: only an outcome that left the document indexed is
# ``done``; anything else, a malformed result included, is ``failed`` with a reason.
_JOB_STATE = {
    IngestOutcome.INDEXED: JobState.DONE,
    IngestOutcome.UNCHANGED: JobState.DONE,
    IngestOutcome.CANCELLED: JobState.CANCELLED,
}


def job_state(result: dict[str, Any]) -> JobState:
    """The state a finished job ends in for ``result`` (see ``_JOB_STATE``)."""
    return _JOB_STATE.get(result.get("status"), JobState.FAILED)  # type: ignore[arg-type]


class IngestWorker:
    """``threads`` daemon threads that drain the job table. ``run_job`` does the ingestion and
    returns a result dict with at least ``status``. ``settle`` runs before a job is marked
    finished (it puts a failure the pipeline did not record, ``recorded: False``, on the
    document), so a client never sees a job finished before its document shows the outcome;
    ``on_done`` is told about every finished job after it is marked, including those
    :meth:`JobStore.recover` failed."""

    def __init__(
        self,
        jobs: JobQueue,
        run_job: JobRunner,
        on_done: JobDone | None = None,
        *,
        settle: JobDone | None = None,
        threads: int = 1,
        max_upload_bytes: int = Settings.model_fields["max_file_bytes"].default,
    ) -> None:
        self.jobs = jobs
        self.max_upload_bytes = max_upload_bytes
        self.run_job = run_job
        self.on_done = on_done or (lambda job, result: None)
        self.settle = settle or (lambda job, result: None)
        self.n_threads = max(1, threads)
        self._wake = threading.Condition()
        self._pending = False
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []

    def start(self) -> None:
        recovered = self.jobs.recover(before_fail=self._settle_recovered)
        if recovered["requeued"] or recovered["failed"]:
            log.info("ingest_jobs_recovered", requeued=recovered["requeued"], failed=recovered["failed"])
        for job in recovered["failed_jobs"]:
            self._release(job)
            self._recovered(job)
        for n in range(self.n_threads):
            thread = threading.Thread(target=self._loop, name=f"attest-ingest-{n}", daemon=True)
            self._threads.append(thread)
            thread.start()
        beat = threading.Thread(target=self._heartbeat, name="attest-ingest-lease", daemon=True)
        self._threads.append(beat)
        beat.start()
        self.notify()

    def _heartbeat(self) -> None:
        """Renew this process's leases every third of the lease (a queue with leases); every
        ``recover_seconds`` run the queue's periodic recovery, which hands a dead worker's job
        to the live ones (another worker may do it first: harmless) and fails the jobs dead
        workers left without attempts or bytes."""
        lease = self.jobs.lease_seconds
        every = self.jobs.recover_seconds
        period = min(lease / 3, every) if lease else every
        next_recover = time.monotonic() + every
        while not self._stop.wait(period):
            try:
                if lease:
                    self.jobs.renew_leases()
                if time.monotonic() >= next_recover:
                    next_recover = time.monotonic() + every
                    recovered = self.jobs.recover(before_fail=self._settle_recovered, periodic=True)
                    if recovered["requeued"] or recovered["failed"]:
                        log.info("ingest_jobs_recovered", requeued=recovered["requeued"],
                                 failed=recovered["failed"], periodic=True)
                    for job in recovered["failed_jobs"]:
                        self._release(job)
                        self._recovered(job)
                    if recovered["requeued"]:
                        self.notify()  # an idle thread takes the dead worker's job now
            except Exception as exc:  # noqa: BLE001 - an outage: the next beat tries again
                log.error("ingest_lease_renewal_failed", error_type=type(exc).__name__, exc_info=exc)

    def notify(self) -> None:
        with self._wake:
            self._pending = True
            self._wake.notify_all()

    def stop(self, timeout: float = 30.0) -> None:
        """Stop claiming jobs and wait up to ``timeout`` s for running ones. A job still running
        then is left ``running``: once this process has exited, a live worker's periodic
        recovery (or the next start) runs it again."""
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
            try:
                data = self.jobs.read_upload(job, self.max_upload_bytes)
            except AttestError as exc:
                # Missing, oversized or not the uploaded bytes (UploadLost), or the upload
                # store is down (StoreUnavailable): the job ends failed with the reason.
                log.error("ingest_upload_unreadable", doc_id=job.doc_id,
                          error_type=type(exc).__name__, error=exc.message)
                prefix = "" if isinstance(exc, UploadLost) else "upload unreadable: "
                result = {"status": IngestOutcome.FAILED, "stage": DocStatus.RECEIVED, "recorded": False,
                          "error": f"{prefix}{exc.message}"}
            else:
                try:
                    result = self.run_job(job, data, JobHold(self.jobs, job))
                except JobLost:
                    return  # another worker holds the job (or recovery failed it): it reports
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
            state = job_state(result)
            if state == JobState.FAILED and (status != IngestOutcome.FAILED or not result.get("error")):
                # Not a result the pipeline makes: a failure with a reason, on the document too.
                result = {**result, "status": IngestOutcome.FAILED, "recorded": False,
                          "error": result.get("error") or f"internal error: unexpected ingest result {status!r}"}
                status = result["status"]
            # The document first, then the job: whoever sees the job finished sees the
            # document's final status (the pipeline recorded a success or its own failure
            # already; ``settle`` records the rest). Only while this worker holds the job: once
            # another worker took it over (or recovery failed it), that one tells the document.
            if not self.jobs.still_holds(job.job_id):
                log.warning("ingest_job_lost_lease", doc_id=job.doc_id, status=status)
                return
            self._settle(job, result)
            if self.jobs.finish(job.job_id, state, result=result, error=result.get("error")) is False:
                # The lease expired and another worker took the job over: it reports it.
                log.warning("ingest_job_lost_lease", doc_id=job.doc_id, status=status)
                return
            self._release(job)
            self._report(job, result)
            log.info("ingest_job_finished", doc_id=job.doc_id, status=status)
        except Exception as exc:  # noqa: BLE001 - the jobs file itself failed: log, keep serving
            log.error("ingest_job_bookkeeping_failed", error_type=type(exc).__name__, exc_info=exc)
        finally:
            structlog.contextvars.unbind_contextvars("request_id", "job_id")

    def _release(self, job: Job) -> None:
        """Drop a finished job's bytes; a failure is logged and never stops the report."""
        try:
            self.jobs.release_upload(job)
        except Exception as exc:  # noqa: BLE001 - the document's delete removes what is left
            log.warning("ingest_upload_release_failed", job_id=job.job_id,
                        error_type=type(exc).__name__)

    @staticmethod
    def _recovered_result(job: Job) -> dict[str, Any]:
        return {"status": IngestOutcome.FAILED, "stage": job.stage or DocStatus.RECEIVED,
                "error": job.error, "recorded": False}

    def _settle_recovered(self, job: Job) -> None:
        """``recover``'s ``before_fail``: the document shows the failure before the job does."""
        self._settle(job, self._recovered_result(job))

    def _recovered(self, job: Job) -> None:
        """A job ``recover`` failed (its document was settled first): its audit entry."""
        self._report(job, self._recovered_result(job))

    def _settle(self, job: Job, result: dict[str, Any]) -> None:
        try:
            self.settle(job, result)
        except Exception as exc:  # noqa: BLE001 - the job still ends failed with its reason
            log.error("ingest_failure_not_recorded", doc_id=job.doc_id, job_id=job.job_id,
                      error_type=type(exc).__name__, exc_info=exc)

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
