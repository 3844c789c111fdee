"""What an ingest worker does with a claimed job, shared by the API's worker threads and
``attest worker``: run the pipeline on the job's bytes, and report every finished job (a failure
the pipeline could not record goes on the document; every job gets its ``ingest`` audit entry)."""

from __future__ import annotations

from typing import Any, Callable, Protocol

import structlog

from ingest.embedder import Embedder
from ingest.settings import Settings
from ingest.clock import utc_now
from ingest.statuses import DocStatus, IngestOutcome
from ingest.store.port import Store
from service.api.jobs import Job

log = structlog.get_logger(__name__)


class IngestContext(Protocol):
    """What a runner needs: the API's ``ApiContext`` or the worker's own."""

    settings: Settings

    def require_store(self) -> Store: ...
    def require_embedder(self) -> Embedder: ...
    def require_ingest_embedder(self) -> Embedder: ...


def job_runner(ctx: IngestContext) -> Callable[[Job, bytes, Callable[[str], None]], dict[str, Any]]:
    from ingest.pipeline import Ingestor

    def run(job: Job, data: bytes, on_stage: Callable[[str], None]) -> dict[str, Any]:
        ingestor = Ingestor(
            ctx.require_store(), ctx.require_ingest_embedder(), ctx.settings,
            on_stage=on_stage,
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
    polling "until indexed or failed" finishes. Only the job's own incarnation is touched."""
    record = store.get_document(job.doc_id)
    if record is None or (job.incarnation is not None and record.incarnation != job.incarnation):
        return
    record.status = DocStatus.FAILED
    record.stage = result.get("stage") or DocStatus.RECEIVED
    record.error = result.get("error") or "ingest failed"
    record.updated_at = utc_now()
    store.save_document(record)


def job_done(ctx: IngestContext) -> Callable[[Job, dict[str, Any]], None]:
    def done(job: Job, result: dict[str, Any]) -> None:
        store = ctx.require_store()
        if result.get("status") == IngestOutcome.FAILED and result.get("recorded") is False:
            try:
                mark_failed(store, job, result)
            except Exception as exc:  # noqa: BLE001 - logged; the audit entry below still goes
                log.error("ingest_failure_not_recorded", doc_id=job.doc_id,
                          error_type=type(exc).__name__, exc_info=exc)
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
