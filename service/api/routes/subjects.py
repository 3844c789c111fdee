"""/v1/subjects: the subject registry, merged over the documents the caller may read."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from ingest.store.port import Principal, Store
from service.api.deps import Audit, Auditor, CurrentPrincipal, StoreDep
from service.api.schemas import ERROR_RESPONSES, SubjectList, SubjectView

router = APIRouter(prefix="/v1", tags=["subjects"], responses=ERROR_RESPONSES)


@router.get("/subjects", response_model=SubjectList)
def find_subjects(
    store: StoreDep,
    principal: CurrentPrincipal,
    audit: Audit,
    name: Annotated[str | None, Query(max_length=500)] = None,
    type: Annotated[str | None, Query(max_length=100)] = None,
    role: Annotated[str | None, Query(max_length=200)] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> SubjectList:
    """Subjects by name (or alias / defined term), type and role. A subject that appears only in
    documents the caller cannot read is absent, exactly as if it did not exist."""
    return lookup_subjects(store, principal, audit, name=name, type=type, role=role, limit=limit)


def lookup_subjects(
    store: Store,
    principal: Principal,
    audit: Auditor,
    *,
    name: str | None,
    type: str | None,
    role: str | None,
    limit: int,
) -> SubjectList:
    """Registry look-up as ``principal``, audited (shared with MCP)."""
    subjects = store.find_subjects(principal, name=name, type=type, role=role, limit=limit)
    audit.record(
        "subject_lookup",
        input={"name": name, "type": type, "role": role, "limit": limit},
        subject_ids=[s.subject_id for s in subjects],
    )
    return SubjectList(subjects=[SubjectView.of(s) for s in subjects])
