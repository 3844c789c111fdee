"""``/mcp``: the MCP server as streamable HTTP inside the FastAPI app, behind the API keys.

:func:`mount_mcp` adds one route and wraps the app's lifespan so the SDK's session manager runs
while the app does (a fresh manager per start: the SDK's cannot be restarted). The transport is
stateless with JSON responses: every POST is authenticated on its own, with the same
``Authorization: Bearer <key>`` as the rest of the API, so a call runs as that key's principal and
no server-side session can outlive or change its key. The request id is the HTTP request's (bound
by ``RequestContextMiddleware`` and echoed in ``X-Request-ID``).

The SDK's DNS-rebinding check is off: it guards servers that trust ambient credentials, and this
one trusts only a bearer key that a rebinding page cannot know. Host names are left to the
deployment.
"""

from __future__ import annotations

import json
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator

import structlog
from fastapi import FastAPI
from mcp.server.mcpserver import MCPServer
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from starlette.datastructures import Headers
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from ingest.embedder import Embedder
from ingest.settings import Settings
from ingest.store.port import Principal, Store
from service.api.context import ApiContext
from service.api.errors import Unauthorized, error_body
from service.mcp.caller import Caller
from service.mcp.server import build_server

MCP_PATH = "/mcp"
MAX_MCP_BODY_BYTES = 1024 * 1024  # tool arguments are small; questions are at most 2000 chars
_PRINCIPAL_KEY = "attest_principal"


class ApiServices:
    """The app's own store, model, settings and job queue (opened in its lifespan)."""

    def __init__(self, ctx: ApiContext) -> None:
        self.ctx = ctx
        self.settings: Settings = ctx.settings

    def store(self) -> Store:
        return self.ctx.require_store()

    def embedder(self) -> Embedder:
        return self.ctx.require_embedder()

    def jobs(self) -> Any | None:
        return self.ctx.jobs


def _caller_of(request: Any) -> Caller | None:
    """The principal the endpoint authenticated, from the request's scope."""
    state = getattr(request, "scope", {}).get("state", {}) if request is not None else {}
    principal = state.get(_PRINCIPAL_KEY)
    if not isinstance(principal, Principal):
        return None
    return Caller(principal=principal, request_id=str(state.get("request_id", "")), transport="http",
                  client_request_id=state.get("client_request_id"))


def _bearer_key(scope: Scope) -> str | None:
    value = Headers(scope=scope).get("authorization", "")
    scheme, _, key = value.partition(" ")
    return (key.strip() or None) if scheme.lower() == "bearer" else None


class McpEndpoint:
    """ASGI endpoint: the API key check, then the SDK's streamable HTTP transport."""

    def __init__(self, ctx: ApiContext) -> None:
        self.ctx = ctx
        self.manager: StreamableHTTPSessionManager | None = None
        self.route: Route | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        state: dict[str, Any] = scope.setdefault("state", {})
        scope["route"] = self.route  # Starlette sets it only for its own endpoints; metrics read it
        key = _bearer_key(scope)
        principal = self.ctx.keyring.principal_for(key) if key else None
        if principal is None:
            problem = Unauthorized() if key is None else Unauthorized("the API key is not valid")
            await _send_json(
                send, problem.status_code,
                error_body(problem.code, problem.message, str(state.get("request_id", ""))),
                extra=[(b"www-authenticate", b"Bearer")],
            )
            return
        state[_PRINCIPAL_KEY] = principal
        state["principal"] = principal.name  # for the request_finished log line
        structlog.contextvars.bind_contextvars(principal=principal.name)
        if self.manager is None:
            await _send_json(
                send, 503, error_body("unavailable", "the MCP server is not started", str(state.get("request_id", "")))
            )
            return
        await self.manager.handle_request(scope, receive, send)


async def _send_json(
    send: Send, status: int, body: dict[str, Any], extra: list[tuple[bytes, bytes]] | None = None
) -> None:
    raw = json.dumps(body).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(raw)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers + (extra or [])})
    await send({"type": "http.response.body", "body": raw})


def _new_manager(server: MCPServer) -> StreamableHTTPSessionManager:
    server.streamable_http_app(
        stateless_http=True,
        json_response=True,
        max_request_body_size=MAX_MCP_BODY_BYTES,
        transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
    )
    return server.session_manager


def mount_mcp(app: FastAPI, ctx: ApiContext) -> None:
    """Serve the MCP tools at ``/mcp`` for as long as ``app`` runs."""
    server = build_server(ApiServices(ctx), _caller_of)
    endpoint = McpEndpoint(ctx)
    endpoint.route = Route(MCP_PATH, endpoint=endpoint, methods=["GET", "POST", "DELETE"])
    app.router.routes.append(endpoint.route)
    app_lifespan = app.router.lifespan_context

    @asynccontextmanager
    async def lifespan(inner: Any) -> AsyncIterator[Any]:
        async with app_lifespan(inner) as state:
            endpoint.manager = _new_manager(server)
            try:
                async with endpoint.manager.run():
                    yield state
            finally:
                endpoint.manager = None

    app.router.lifespan_context = lifespan
