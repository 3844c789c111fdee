"""The FastAPI app factory.

``create_app(settings, store=None, embedder=None)`` builds the app; nothing heavy happens until
its lifespan starts: then the store is opened (unless given), the embedding model loaded (unless
given), the persisted job queue recovered and the ingest worker started. Tests pass their own
store and embedder; ``attest serve`` passes neither.
"""

from __future__ import annotations

from contextlib import asynccontextmanager
from typing import Any, AsyncIterator

import structlog
from fastapi import FastAPI

from ingest.embedder import Embedder
from ingest.settings import Settings, get_settings
from ingest.statuses import DocStatus, JobState
from ingest.store.port import Principal, Store
from service.api.auth import load_keyring
from service.api.context import ApiContext
from service.api.errors import register_error_handlers
from service.api.ingest_lock import IngestLock
from service.api.ingest_runner import job_done, job_runner, job_settle
from service.api.jobs import IngestWorker, open_job_queue
from service.api.metrics import Metrics
from service.api.middleware import (
    DeadlineMiddleware,
    RequestContextMiddleware,
    UploadLimitMiddleware,
)
from service.api.routes import (
    audit,
    documents,
    evidence,
    health,
    me,
    portal,
    search,
    subjects,
    table,
)
from service.api.routes import sweeps as sweeps_routes

log = structlog.get_logger(__name__)

API_VERSION = "1"
DOC_STATUSES = tuple(DocStatus)
# Counts documents per status for /metrics (admin only). Aggregates only; no read path uses it.
_METRICS_READER = Principal(name="system:metrics", admin=True, unrestricted=True)


def _register_gauges(ctx: ApiContext) -> None:
    def queue_depth():
        yield {}, float(ctx.jobs.depth()) if ctx.jobs else 0.0

    def jobs_by_state():
        counts = ctx.jobs.counts() if ctx.jobs else {}
        for state in JobState:
            yield {"state": state}, float(counts.get(state, 0))

    def documents_by_status():
        store = ctx.store
        for status in DOC_STATUSES:
            total = 0
            if store is not None:
                _, total = store.list_documents(_METRICS_READER, status=status, limit=0)
            yield {"status": status}, float(total)

    ctx.metrics.gauge("attest_ingest_queue_depth", "Ingest jobs waiting.", queue_depth)
    ctx.metrics.gauge("attest_ingest_jobs", "Ingest jobs by state.", jobs_by_state)
    ctx.metrics.gauge("attest_documents", "Documents by status.", documents_by_status)


def _is_upload(scope: dict[str, Any]) -> bool:
    """Uploads take as long as the client's bandwidth; their size limit bounds them instead."""
    return scope.get("method") == "POST" and scope.get("path") == "/v1/documents"


def create_app(
    settings: Settings | None = None,
    store: Store | None = None,
    embedder: Embedder | None = None,
) -> FastAPI:
    settings = settings or get_settings()
    ctx = ApiContext(
        settings=settings,
        keyring=load_keyring(settings),
        metrics=Metrics(),
        store=store,
        embedder=embedder,
    )
    if not len(ctx.keyring):
        log.warning("no_api_keys_configured", effect="every request is refused with 401")

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if ctx.store is None:
            from ingest.store import open_store

            ctx.store = open_store(settings)
            ctx.owns_store = True
        if ctx.embedder is None:
            from ingest.embedder import default_embedder, ingest_embedder

            ctx.embedder = default_embedder()
            if settings.ingest_in_api:  # ingest threads run under the worker budget
                ctx.ingest_embedder = ingest_embedder()
        if ctx.ingest_embedder is None:  # an embedder handed to create_app serves both
            ctx.ingest_embedder = ctx.embedder
        ctx.jobs = open_job_queue(settings)
        # Several API processes (attest serve --workers N): one of them ingests; none does when
        # ingestion runs in `attest worker` processes (ATTEST_INGEST_IN_API=false).
        ingest_lock = (
            IngestLock(settings.data_dir)
            if settings.ingest_in_api and settings.api_workers > 1
            else None
        )
        if settings.ingest_in_api and (ingest_lock is None or ingest_lock.acquire()):
            ctx.worker = IngestWorker(
                ctx.jobs, job_runner(ctx), job_done(ctx), settle=job_settle(ctx),
                threads=settings.ingest_workers,
                max_upload_bytes=settings.max_file_bytes,
            )
            ctx.worker.start()
        log.info("api_started", data_dir=str(settings.data_dir), keys=len(ctx.keyring),
                 ingest_in_api=settings.ingest_in_api)
        try:
            yield
        finally:
            if ctx.worker is not None:
                ctx.worker.stop(timeout=10.0)  # a job still running resumes at the next start
            ctx.worker = None
            if ingest_lock is not None:
                ingest_lock.release()
            shutdown = getattr(ctx.jobs, "shutdown", None)  # the Elasticsearch queue's client
            if shutdown is not None:
                shutdown()
            if ctx.owns_store and ctx.store is not None:
                ctx.store.close()
                ctx.store = None
            log.info("api_stopped")

    app = FastAPI(
        title="Attest",
        version=API_VERSION,
        description="Evidence-first enterprise search: answers only from what your documents "
        "say, with exact citations. Authenticate with `Authorization: Bearer <API key>`.",
        docs_url="/docs",
        openapi_url="/openapi.json",
        redoc_url=None,
        lifespan=lifespan,
    )
    app.state.ctx = ctx
    register_error_handlers(app)
    for module in (documents, search, evidence, subjects, audit, health, table, me, portal):
        app.include_router(module.router)
    app.include_router(sweeps_routes.router)
    _register_gauges(ctx)
    from service.mcp import mount_mcp  # here, not at the top: service.mcp imports service.api

    mount_mcp(app, ctx)
    app.add_middleware(
        UploadLimitMiddleware, max_file_bytes=settings.max_file_bytes, paths=("/v1/documents",)
    )
    app.add_middleware(
        DeadlineMiddleware, seconds=settings.request_timeout_seconds, exempt=_is_upload
    )
    app.add_middleware(RequestContextMiddleware, metrics=ctx.metrics)
    return app
