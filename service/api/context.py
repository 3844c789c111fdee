"""What one app instance holds: settings, store, embedder, keys, the job queue and metrics.

Built by :func:`service.api.app.create_app`; heavy parts (the store, the embedding model, the
worker thread) are opened in the app's lifespan, never at import time.
"""

from __future__ import annotations

from dataclasses import dataclass

from ingest.embedder import Embedder
from ingest.settings import Settings
from ingest.store.port import Store
from service.api.auth import KeyRing
from service.api.jobs import IngestWorker, JobQueue
from service.api.metrics import Metrics


@dataclass(slots=True)
class ApiContext:
    settings: Settings
    keyring: KeyRing
    metrics: Metrics
    store: Store | None = None
    embedder: Embedder | None = None
    ingest_embedder: Embedder | None = None  # the ingest workers' (ATTEST_INGEST_WORKER_CORES)
    jobs: JobQueue | None = None
    worker: IngestWorker | None = None
    owns_store: bool = False

    def require_store(self) -> Store:
        if self.store is None:
            raise RuntimeError("the app is not started: use it inside its lifespan")
        return self.store

    def require_embedder(self) -> Embedder:
        if self.embedder is None:
            raise RuntimeError("the embedding model is not loaded")
        return self.embedder

    def require_ingest_embedder(self) -> Embedder:
        if self.ingest_embedder is None:
            raise RuntimeError("the ingest embedding model is not loaded")
        return self.ingest_embedder

    def require_jobs(self) -> JobQueue:
        if self.jobs is None:
            raise RuntimeError("the job queue is not started")
        return self.jobs
