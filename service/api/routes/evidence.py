"""/v1/evidence/query: the evidence state machine, run as the caller.

The machine sees only what the caller may read: a subject that appears only in documents the
caller cannot read gives ``SUBJECT_NOT_FOUND``, exactly as an unknown subject does. Each query is
audited with its input, state trace, full evidence bundle and the bundle's hash.
"""

from __future__ import annotations

import threading
from functools import lru_cache
from typing import Any, Callable

import structlog
from fastapi import APIRouter
from fastapi.responses import JSONResponse

from ingest.deadline import deadline_error, remaining_seconds
from ingest.embedder import Embedder
from ingest.settings import Settings
from ingest.store.port import Principal, Store
from service.api.doc_ids import expand_doc_ids
from service.api.deps import Audit, Auditor, CurrentPrincipal, EmbedderDep, SettingsDep, StoreDep
from service.api.schemas import ERROR_RESPONSES, ErrorBody
from service.evidence.models import EvidenceReport, EvidenceRequest

log = structlog.get_logger(__name__)
router = APIRouter(prefix="/v1/evidence", tags=["evidence"], responses=ERROR_RESPONSES)


def evidence_runner() -> Callable[..., EvidenceReport]:
    # Imported on first use: the machine loads the evidence data files, which the app's start-up
    # does not need.
    from service.evidence.machine import run_evidence_query

    return run_evidence_query


@router.post(
    "/query",
    response_model=EvidenceReport,
    responses={503: {"model": ErrorBody, "description": "Evidence engine unavailable"}},
)
def evidence_query(
    body: EvidenceRequest,
    store: StoreDep,
    embedder: EmbedderDep,
    settings: SettingsDep,
    principal: CurrentPrincipal,
    audit: Audit,
) -> JSONResponse:
    """Question (and optional structured subject and scope) -> evidence report with citations,
    conflicts, sufficiency and the evidence bundle hash."""
    _, dumped = answer_and_dump(body, principal, audit, store=store, embedder=embedder, settings=settings)
    # The report is a validated EvidenceReport already. Returned as a model, FastAPI would
    # validate it again and serialise it through its own encoder (about 1 ms of a request's
    # 10 ms of CPU); the same JSON is rendered from the model_dump the audit entry is built from
    # (docs/ARCHITECTURE.md, "Per-request overhead"). response_model keeps the OpenAPI schema.
    return JSONResponse(dumped)


@lru_cache(maxsize=None)
def evidence_slots(limit: int) -> threading.BoundedSemaphore:
    """The process's bound on evidence machines computing at once (``api_evidence_threads``).

    The machine is mostly Python (it holds the GIL); the route's thread pool would run up to 40
    of them in one process, taking turns on one core, each holding its memory, every one slower.
    A few (a machine waiting on SQLite or onnxruntime lets another run) keep the core busy; the
    others wait without CPU, up to their deadline. The audit commit is outside the bound: its
    fsync releases the GIL and must not hold a slot."""
    return threading.BoundedSemaphore(limit)


def answer_question(
    body: EvidenceRequest,
    principal: Principal,
    audit: Auditor,
    *,
    store: Store,
    embedder: Embedder,
    settings: Settings,
) -> EvidenceReport:
    """Run the evidence machine as ``principal`` and audit the report (shared with MCP)."""
    report, _ = answer_and_dump(body, principal, audit, store=store, embedder=embedder, settings=settings)
    return report


def answer_and_dump(
    body: EvidenceRequest,
    principal: Principal,
    audit: Auditor,
    *,
    store: Store,
    embedder: Embedder,
    settings: Settings,
) -> tuple[EvidenceReport, dict[str, Any]]:
    """:func:`answer_question`, also returning the report's JSON form (its ``model_dump``): the
    route renders the answer from it. The report is returned only after its audit entry is
    durable (the store's group commit)."""
    run = evidence_runner()
    asked = body
    if body.scope is not None and body.scope.doc_ids:  # bare ids: also the caller's own
        scope = body.scope.model_copy(update={"doc_ids": expand_doc_ids(principal, body.scope.doc_ids)})
        asked = body.model_copy(update={"scope": scope})
    slots = evidence_slots(settings.api_evidence_threads)
    wait = remaining_seconds()  # None outside a request (MCP over stdio): wait as long as it takes
    if not slots.acquire(timeout=max(0.0, wait) if wait is not None else None):
        raise deadline_error()
    try:
        report = run(
            asked, principal, store=store, embedder=embedder, settings=settings,
            request_id=audit.request_id,
        )
    finally:
        slots.release()
    dumped: dict[str, Any] = report.model_dump(mode="json")
    audit.record(
        "evidence_query",
        input=body.model_dump(mode="json"),
        state=report.state,
        trace=dumped["trace"],
        evidence=dumped["evidence"],
        rejected_evidence=dumped["rejected_evidence"],
        claims=dumped["claims"],
        conflicts=dumped["conflicts"],
        sufficient=report.sufficient,
        confidence=report.confidence,
        risk_signals=report.risk_signals,
        evidence_bundle_hash=report.evidence_bundle_hash,
    )
    log.info(
        "evidence_query_served",
        state=report.state,
        n_evidence=len(report.evidence),
        sufficient=report.sufficient,
    )
    return report, dumped
