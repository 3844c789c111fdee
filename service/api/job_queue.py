"""The ingest queue port: the job record, the :class:`JobQueue` protocol both adapters
implement (:class:`service.api.jobs.JobStore` on SQLite, ``service.api.jobs_elastic.ElasticJobQueue``
on Elasticsearch), and what they share. A leaf of ``service.api`` (it imports only the
upload-storage port): both adapters import it, and ``service.api.jobs.open_job_queue`` picks an
adapter, so no adapter imports another. Either queue keeps its jobs' bytes in an
:class:`service.api.upload_store.UploadStore` (a local directory or an S3-compatible bucket)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Protocol

from ingest.errors import ConflictError, UnavailableError
from ingest.settings import Settings
from service.api.upload_store import UploadRef, UploadStore, staging_dir

__all__ = ["MAX_ATTEMPTS", "Job", "JobLost", "JobQueue", "QueueFull", "uploads_dir"]

MAX_ATTEMPTS = 3


class QueueFull(UnavailableError):
    """Raised by :meth:`JobStore.add` when ``ingest_queue_size`` jobs are already waiting."""


class JobLost(ConflictError):
    """Raised inside a running job when its worker no longer holds it (another worker took it
    over, or recovery failed it): the pipeline stops before its next write of the document."""


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
    incarnation: str | None = None

    def upload_ref(self) -> UploadRef:
        """What names this job's bytes in the upload store."""
        return UploadRef(job_id=self.job_id, doc_id=self.doc_id, incarnation=self.incarnation,
                         revision=self.revision)

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


class JobQueue(Protocol):
    """The ingest queue port (SQLite: :class:`JobStore`; Elasticsearch: ``ElasticJobQueue``).

    ``claim`` hands a job to exactly one worker. Every later write of the job by its worker is
    conditional on still holding it: ``set_stage`` and ``finish`` return False, and write
    nothing, when the claimer no longer holds the job (another worker took it over, or recovery
    failed it); ``still_holds`` asks that before the worker writes on the job's document, and
    the worker stops the job (:class:`JobLost`) at the first refusal.
    ``lease_seconds`` is None for a queue without leases; otherwise the worker calls
    ``renew_leases`` well within it. ``recover`` may run at any time, and every live worker
    runs it each ``recover_seconds`` (``periodic=True``): it hands the jobs of dead workers to
    live ones and fails the jobs nobody can finish; its ``before_fail`` is told each such job
    before the queue shows it failed, while recovery holds the job, so no worker claims it in
    between.

    ``add(upload=...)`` stores the staged file in ``upload_store`` *before* it records the job,
    so a job never exists without its bytes; ``read_upload`` returns them checked against the
    job's revision (their SHA-256); ``release_upload`` removes them once the job is finished."""

    uploads: Path  # the local staging directory incoming uploads are streamed to
    upload_store: UploadStore
    lease_seconds: float | None
    recover_seconds: float  # how often every live worker runs ``recover(periodic=True)``

    def add(self, **fields: Any) -> Job: ...
    def get(self, job_id: str) -> Job | None: ...
    def for_document(self, doc_id: str, incarnation: str | None = None, limit: int = 20) -> list[Job]: ...
    def depth(self) -> int: ...
    def counts(self) -> dict[str, int]: ...
    def claim(self) -> Job | None: ...
    def set_stage(self, job_id: str, stage: str) -> bool: ...
    def finish(self, job_id: str, state: str, *, result: dict[str, Any] | None = None,
               error: str | None = None) -> bool: ...
    def renew_leases(self) -> int: ...
    def still_holds(self, job_id: str) -> bool: ...
    def cancel_for_document(self, doc_id: str, reason: str) -> int: ...
    def recover(self, before_fail: Callable[[Job], None] | None = None, *,
                periodic: bool = False) -> dict[str, Any]: ...
    def read_upload(self, job: Job, max_bytes: int) -> bytes: ...
    def release_upload(self, job: Job) -> None: ...
    def close(self) -> None: ...


def uploads_dir(settings: Settings) -> Path:
    """``ATTEST_UPLOADS_DIR`` (default ``<data_dir>/uploads``); see :func:`staging_dir`."""
    return staging_dir(settings)
