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


def worker(
    threads: Annotated[
        int | None,
        typer.Option("--threads", help="Worker threads, 1 to 32 (default: ATTEST_INGEST_WORKERS).", show_default=False),
    ] = None,
) -> int:
    """Run ingestion jobs from the queue, without the API."""
    from ingest.embedder import default_embedder
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
    store = open_store(settings)
    jobs = open_job_queue(settings)
    ctx = WorkerContext(settings=settings, store=store, embedder=default_embedder())
    runner = IngestWorker(jobs, job_runner(ctx), job_done(ctx), settle=job_settle(ctx), threads=threads,
                          max_upload_bytes=settings.max_file_bytes)
    runner.start()
    log.warning("worker_started", threads=threads, owner=getattr(jobs, "owner", None),
                backend="elasticsearch" if settings.elasticsearch_url else "sqlite")
    try:
        while not stop.wait(1.0):
            pass
    finally:
        runner.stop(timeout=30.0)  # a job still running is taken over once its lease expires
        store.close()
        log.warning("worker_stopped")
    return 0
