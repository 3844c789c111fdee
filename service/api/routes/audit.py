"""/v1/audit: the append-only audit log, for admins only."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from ingest.store.port import AuditQuery
from service.api.deps import AdminPrincipal, StoreDep
from service.api.schemas import ERROR_RESPONSES, AuditList, ErrorBody

router = APIRouter(prefix="/v1", tags=["audit"], responses=ERROR_RESPONSES)

Timestamp = Annotated[str | None, Query(max_length=64, description="ISO 8601, UTC")]


@router.get(
    "/audit",
    response_model=AuditList,
    responses={403: {"model": ErrorBody, "description": "Not an admin key"}},
)
def list_audit(
    store: StoreDep,
    admin: AdminPrincipal,
    principal: Annotated[str | None, Query(max_length=200)] = None,
    request_id: Annotated[str | None, Query(max_length=128)] = None,
    since: Timestamp = None,
    until: Timestamp = None,
    offset: Annotated[int, Query(ge=0, le=10_000_000)] = 0,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
) -> AuditList:
    """Entries in append order, filtered by principal, request id and time."""
    entries = store.list_audit(
        AuditQuery(
            principal=principal,
            request_id=request_id,
            since=since,
            until=until,
            limit=limit,
            offset=offset,
        )
    )
    return AuditList(entries=entries, offset=offset, limit=limit)
