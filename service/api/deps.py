"""FastAPI dependencies as ``Annotated`` aliases, so handlers read like prose."""

from __future__ import annotations

from typing import Annotated, Any

import structlog
from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from ingest.embedder import Embedder
from ingest.settings import Settings
from ingest.store.port import Principal, Store
from service.api.context import ApiContext
from service.api.errors import Forbidden, Unauthorized, request_id_of
from service.api.jobs import JobQueue

_bearer = HTTPBearer(auto_error=False, description="An API key from ATTEST_API_KEYS.")


def get_context(request: Request) -> ApiContext:
    return request.app.state.ctx


Context = Annotated[ApiContext, Depends(get_context)]


def get_app_settings(ctx: Context) -> Settings:
    return ctx.settings


def get_store(ctx: Context) -> Store:
    return ctx.require_store()


def get_embedder(ctx: Context) -> Embedder:
    return ctx.require_embedder()


def get_jobs(ctx: Context) -> JobQueue:
    return ctx.require_jobs()


def get_request_id(request: Request) -> str:
    return request_id_of(request)


async def get_principal(
    request: Request,
    ctx: Context,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> Principal:
    """The caller, from ``Authorization: Bearer <key>``. Never unrestricted."""
    if credentials is None or not credentials.credentials:
        raise Unauthorized()
    principal = ctx.keyring.principal_for(credentials.credentials)
    if principal is None:
        raise Unauthorized("the API key is not valid")
    request.scope.setdefault("state", {})["principal"] = principal.name
    structlog.contextvars.bind_contextvars(principal=principal.name)
    return principal


CurrentPrincipal = Annotated[Principal, Depends(get_principal)]


async def require_admin(principal: CurrentPrincipal) -> Principal:
    if not principal.admin:
        raise Forbidden("this endpoint needs an admin key")
    return principal


AdminPrincipal = Annotated[Principal, Depends(require_admin)]
SettingsDep = Annotated[Settings, Depends(get_app_settings)]
StoreDep = Annotated[Store, Depends(get_store)]
EmbedderDep = Annotated[Embedder, Depends(get_embedder)]
JobsDep = Annotated[JobQueue, Depends(get_jobs)]
RequestId = Annotated[str, Depends(get_request_id)]


class Auditor:
    """Appends audit entries stamped with the request id and the principal."""

    def __init__(
        self,
        store: Store,
        request_id: str,
        principal: Principal,
        client_request_id: str | None = None,
    ) -> None:
        self.store = store
        self.request_id = request_id
        self.principal = principal
        self.client_request_id = client_request_id

    def record(self, action: str, **fields: Any) -> None:
        self.store.append_audit(
            {
                "action": action,
                "request_id": self.request_id,
                "principal": self.principal.name,
                "groups": list(self.principal.groups),
                # The server issues request_id; what the client sent is kept apart, unverified.
                "client_request_id": self.client_request_id,
                **fields,
            }
        )


def get_auditor(
    request: Request, store: StoreDep, request_id: RequestId, principal: CurrentPrincipal
) -> Auditor:
    client_id = request.scope.get("state", {}).get("client_request_id")
    return Auditor(store, request_id, principal, client_id)


Audit = Annotated[Auditor, Depends(get_auditor)]
