"""``attest worker``: run ingestion without the API.

Opens the store, the embedding model and the job queue of the current settings (on
Elasticsearch the shared jobs index; see ``service/api/jobs_elastic.py``) and drains the queue
with ``--threads`` (default ``ATTEST_INGEST_WORKERS``) threads until SIGTERM or SIGINT. Run the
API with ``ATTEST_INGEST_IN_API=false`` and as many workers as the ingest load needs; they must
use the same upload store as the API: the same bucket (``ATTEST_UPLOAD_STORE=s3``) or the same
mounted ``ATTEST_UPLOADS_DIR``.
"""

from __future__ import annotations

import signal
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated

import structlog
import typer

if TYPE_CHECKING:  # the real modules load models and clients: imported in worker() only
    from ingest.embedder import Embedder
    from ingest.settings import Settings
    from ingest.store.port import Store

log = structlog.get_logger(__name__)


@dataclass(slots=True)
class WorkerContext:
    """The parts of an API context a job runner uses."""

    settings: "Settings"
    store: "Store"
    embedder: "Embedder"

    def require_store(self) -> "Store":
        return self.store

    def require_embedder(self) -> "Embedder":
        return self.embedder

    def require_ingest_embedder(self) -> "Embedder":
        return self.embedder


def load_models(settings: "Settings", embedder: "Embedder") -> None:
    """Load what every job needs before the first job is claimed, so the first job's time
    budget (ATTEST_INGEST_JOB_SECONDS) is not spent loading spaCy: the embedding session's
    first run, and the spaCy pipeline here or in the NLP pool's processes."""
    embedder.embed(["The parties agree.", "This Agreement is governed by the laws of Delaware."])
    if settings.ingest_nlp_processes:
        from ingest.nlp_pool import warm_pool

        warm_pool(settings.ingest_nlp_processes, settings.ingest_worker_cores)
    else:
        import ingest.nlp_model  # noqa: F401 - offline, no-telemetry environment before spaCy
        from ingest.annotate import annotation_pipeline

        annotation_pipeline()


def worker(
    threads: Annotated[
        int | None,
        typer.Option("--threads", help="Worker threads, 1 to 32 (default: ATTEST_INGEST_WORKERS).", show_default=False),
    ] = None,
) -> int:
    """Run ingestion jobs from the queue, without the API."""
    from threadpoolctl import threadpool_limits

    from ingest.embedder import ingest_embedder
    from ingest.errors import InvalidInputError
    from ingest.settings import get_settings
    from ingest.store import open_store
    from service.api.ingest_runner import job_done, job_runner, job_settle
    from service.api.jobs import IngestWorker, open_job_queue

    settings = get_settings()
    threads = settings.ingest_workers if threads is None else threads
    if not 1 <= threads <= 32:
        raise InvalidInputError(f"--threads: {threads} is outside 1..32")
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    # Each worker thread gets ATTEST_INGEST_WORKER_CORES cores: its embedding session's threads
    # (ingest_embedder) and BLAS here; the NLP pool's processes apply the same limit.
    threadpool_limits(limits=settings.ingest_worker_cores, user_api="blas")
    store = open_store(settings)
    jobs = open_job_queue(settings)
    ctx = WorkerContext(settings=settings, store=store, embedder=ingest_embedder())
    load_models(settings, ctx.embedder)
    runner = IngestWorker(jobs, job_runner(ctx), job_done(ctx), settle=job_settle(ctx), threads=threads,
                          max_upload_bytes=settings.max_file_bytes)
    runner.start()
    log.warning("worker_started", threads=threads, cores_per_thread=settings.ingest_worker_cores,
                owner=getattr(jobs, "owner", None),
                backend="elasticsearch" if settings.elasticsearch_url else "sqlite")
    try:
        while not stop.wait(1.0):
            pass
    finally:
        runner.stop(timeout=30.0)  # a job still running is taken over once its lease expires
        store.close()
        log.warning("worker_stopped")
    return 0
