"""What an ingest worker does with a claimed job, shared by the API's worker threads and
``attest worker``: run the pipeline on the job's bytes, put a failure the pipeline could not
record on the document *before* the job is finished (``job_settle``: a client that sees the job
finished sees the document's final status too), and give every finished job its ``ingest``
audit entry (``job_done``)."""

from __future__ import annotations

from typing import Any, Callable, Protocol

from ingest.embedder import Embedder
from ingest.settings import Settings
from ingest.clock import utc_now
from ingest.statuses import DocStatus, IngestOutcome
from ingest.store.port import Store
from service.api.jobs import Job, JobHold


class IngestContext(Protocol):
    """What a runner needs: the API's ``ApiContext`` or the worker's own."""

    settings: Settings

    def require_store(self) -> Store: ...
    def require_embedder(self) -> Embedder: ...
    def require_ingest_embedder(self) -> Embedder: ...


def job_runner(ctx: IngestContext) -> Callable[[Job, bytes, Any], dict[str, Any]]:
    from ingest.pipeline import Ingestor

    def run(job: Job, data: bytes, hold: JobHold | Callable[[str], None]) -> dict[str, Any]:
        # Every write of the document is preceded by a conditional write of the job (its
        # stage) or a check that this worker still holds it: a worker that lost the job stops.
        # (A plain stage callback, outside a queue, checks nothing.)
        ingestor = Ingestor(
            ctx.require_store(), ctx.require_ingest_embedder(), ctx.settings,
            on_stage=hold, check_held=hold.check if isinstance(hold, JobHold) else None,
        )
        result = ingestor.ingest_bytes(
            data,
            filename=job.filename,
            doc_id=job.doc_id,
            title=job.title,
            acl=job.acl,
            collection=job.collection,
            metadata=job.metadata,
            incarnation=job.incarnation,
            budget_seconds=ctx.settings.ingest_job_seconds,
        )
        return result.to_dict()

    return run


def mark_failed(store: Store, job: Job, result: dict[str, Any]) -> None:
    """A job that failed outside the pipeline (its bytes were lost, it was interrupted too
    often, the store was down) still ends its document ``failed`` with the reason, so a client
    polling "until indexed or failed" finishes. Only the job's own incarnation is touched, and
    never a document already indexed at the job's revision (another worker that took the job
    over finished it; its result stands)."""
    record = store.get_document(job.doc_id)
    if record is None or (job.incarnation is not None and record.incarnation != job.incarnation):
        return
    if record.status == DocStatus.INDEXED and record.current_revision == job.revision:
        return
    record.status = DocStatus.FAILED
    record.stage = result.get("stage") or DocStatus.RECEIVED
    record.error = result.get("error") or "ingest failed"
    record.updated_at = utc_now()
    store.save_document(record)


def job_settle(ctx: IngestContext) -> Callable[[Job, dict[str, Any]], None]:
    """Runs before the job is marked finished: a failure the pipeline did not record goes on
    the document first. When that write fails (the store is down) the worker logs it and still
    finishes the job ``failed`` with its reason: a failed job is never left running."""

    def settle(job: Job, result: dict[str, Any]) -> None:
        if result.get("status") == IngestOutcome.FAILED and result.get("recorded") is False:
            mark_failed(ctx.require_store(), job, result)

    return settle


def job_done(ctx: IngestContext) -> Callable[[Job, dict[str, Any]], None]:
    """Runs once the job is finished: its ``ingest`` audit entry."""

    def done(job: Job, result: dict[str, Any]) -> None:
        store = ctx.require_store()
        store.append_audit(
            {
                "action": "ingest",
                "request_id": job.request_id,
                "principal": job.principal,
                "job_id": job.job_id,
                "doc_id": job.doc_id,
                "revision": job.revision,
                "status": result.get("status"),
                "stage": result.get("stage"),
                "error": result.get("error"),
                "n_chunks": result.get("n_chunks"),
            }
        )

    return done
