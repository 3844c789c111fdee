"""/v1/me: who the caller's API key says they are (the portal shows it on every page)."""

from __future__ import annotations

from fastapi import APIRouter
from pydantic import BaseModel

from service.api.deps import CurrentPrincipal
from service.api.schemas import ERROR_RESPONSES

router = APIRouter(prefix="/v1", tags=["me"], responses=ERROR_RESPONSES)


class Me(BaseModel):
    principal: str
    groups: list[str]
    admin: bool


@router.get("/me", response_model=Me)
def me(principal: CurrentPrincipal) -> Me:
    """The caller's principal, groups (sorted) and admin flag. Not audited: it reads no document."""
    return Me(principal=principal.name, groups=sorted(principal.groups), admin=principal.admin)
