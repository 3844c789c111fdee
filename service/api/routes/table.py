"""/v1/table: the class-level review grid (one row per agreement, one cell per attribute), run
as the caller. Rows are the agreements the caller may read; every cell cites its clause or says
"not stated" with ``sufficient: false``. Each call is audited with its input and the cited spans.
"""

from __future__ import annotations

from typing import Annotated, Any

import structlog
from fastapi import APIRouter, Query
from pydantic import ValidationError

from ingest.embedder import Embedder
from ingest.settings import Settings
from ingest.store.port import Principal, Store
from service.api.deps import Audit, Auditor, CurrentPrincipal, EmbedderDep, SettingsDep, StoreDep
from service.api.errors import InvalidInput
from service.api.schemas import ERROR_RESPONSES
from service.evidence.table import MAX_ATTRIBUTES, MAX_PAGE_SIZE, TableRequest, build_table

log = structlog.get_logger(__name__)
router = APIRouter(prefix="/v1", tags=["table"], responses=ERROR_RESPONSES)


@router.get("/table")
def review_table(
    store: StoreDep,
    embedder: EmbedderDep,
    settings: SettingsDep,
    principal: CurrentPrincipal,
    audit: Audit,
    attribute: Annotated[list[str], Query(max_length=MAX_ATTRIBUTES, description="attribute keys, repeated")],
    type: Annotated[str, Query(max_length=50)] = "agreement",
    page: Annotated[int, Query(ge=1, le=100_000)] = 1,
    page_size: Annotated[int, Query(ge=1, le=MAX_PAGE_SIZE)] = 50,
) -> dict[str, Any]:
    """`{"type", "attributes", "page", "page_size", "total", "rows": [{"subject_id", "name",
    "doc_id", "title", "cells": {"<attribute>": {"value", "sufficient", "evidence": [...]}}}]}`"""
    try:
        request = TableRequest(type=type, attributes=attribute, page=page, page_size=page_size)
    except ValidationError as exc:
        raise InvalidInput("; ".join(e["msg"] for e in exc.errors())) from exc
    return serve_table(request, principal, audit, store=store, embedder=embedder, settings=settings)


def serve_table(
    request: TableRequest,
    principal: Principal,
    audit: Auditor,
    *,
    store: Store,
    embedder: Embedder,
    settings: Settings,
) -> dict[str, Any]:
    """Build the grid as ``principal`` and audit it (shared with the MCP ``table`` tool)."""
    result = build_table(request, principal, store=store, embedder=embedder, settings=settings).to_dict()
    audit.record(
        "table_query",
        input=request.model_dump(mode="json"),
        total=result["total"],
        cells=[
            {"subject_id": r["subject_id"], "attribute": k, "sufficient": c["sufficient"],
             "evidence": [(e["doc_id"], e["revision"], e["char_start"], e["char_end"]) for e in c["evidence"]]}
            for r in result["rows"] for k, c in r["cells"].items()
        ],
    )
    log.info("table_served", rows=len(result["rows"]), total=result["total"], n_attributes=len(request.attributes))
    return result
