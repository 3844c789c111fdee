"""Liveness, readiness and Prometheus metrics."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse, PlainTextResponse

from ingest.statuses import HealthStatus
from service.api.deps import AdminPrincipal, Context
from service.api.metrics import CONTENT_TYPE
from service.api.schemas import ErrorBody, Health

router = APIRouter(tags=["health"])


@router.get("/healthz", response_model=Health)
def healthz() -> Health:
    """The process is up."""
    return Health(status=HealthStatus.OK)


@router.get(
    "/readyz",
    response_model=Health,
    responses={503: {"model": Health, "description": "Not ready"}},
)
def readyz(ctx: Context) -> JSONResponse:
    """The store answers and the embedding model is loaded."""
    checks = {
        "store": bool(ctx.store is not None and ctx.store.ping()),
        "embedder": ctx.embedder is not None,
        # With ATTEST_INGEST_IN_API=false the `attest worker` processes ingest, not this one.
        "ingest_worker": ctx.worker is not None or not ctx.settings.ingest_in_api,
    }
    ready = all(checks.values())
    body = Health(status=HealthStatus.READY if ready else HealthStatus.NOT_READY, checks=checks)
    return JSONResponse(body.model_dump(), status_code=200 if ready else 503)


@router.get(
    "/metrics",
    response_class=PlainTextResponse,
    responses={
        200: {"content": {"text/plain": {}}, "description": "Prometheus text format 0.0.4"},
        401: {"model": ErrorBody, "description": "Missing or invalid API key"},
        403: {"model": ErrorBody, "description": "Not an admin key"},
    },
)
def metrics(ctx: Context, admin: AdminPrincipal) -> PlainTextResponse:
    """Request counts and latency per route template, ingest queue depth, documents by status.
    Admin key required: document counts span every tenant."""
    return PlainTextResponse(ctx.metrics.render(), media_type=CONTENT_TYPE)
