"""Who is calling an MCP tool, and the audit entry every call leaves.

The transport decides the principal (the API key's over HTTP, the one named on the command line
over stdio) and the request id (the HTTP request's, echoed in ``X-Request-ID``, or a fresh one per
stdio call). :class:`AuditMiddleware` resolves both once per ``tools/call`` and ``resources/read``,
makes them the current :class:`Caller` for the tool body (a context variable, which the SDK's
worker threads inherit) and, whatever the outcome, appends one ``mcp_tool_call`` or
``mcp_resource_read`` entry to the store's audit log. The service functions a tool reuses write
their own entries (``evidence_query``, ``search``, ...) under the same request id, exactly as over
HTTP.
"""

from __future__ import annotations

import hashlib
import json
import time
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Callable, Protocol

import anyio
import structlog
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_REQUEST
from pydantic import BaseModel

from ingest.embedder import Embedder
from ingest.errors import InternalError
from ingest.settings import Settings
from ingest.statuses import CallOutcome
from ingest.store.port import Principal, Store
from service.api.deps import Auditor

log = structlog.get_logger(__name__)

AUDITED_METHODS = {"tools/call": "mcp_tool_call", "resources/read": "mcp_resource_read"}
MAX_AUDITED_ARGUMENT_CHARS = 8192  # larger arguments are audited by size and hash
MAX_AUDITED_ERROR_CHARS = 500


@dataclass(frozen=True, slots=True)
class Caller:
    principal: Principal
    request_id: str
    transport: str  # "http" or "stdio"
    client_request_id: str | None = None  # the client's X-Request-ID, kept apart (issue 11)

    def auditor(self, store: Store) -> Auditor:
        return Auditor(store, self.request_id, self.principal, self.client_request_id)


class Services(Protocol):
    """What the tools read through: the same store, model and settings as the HTTP API."""

    settings: Settings

    def store(self) -> Store: ...

    def embedder(self) -> Embedder: ...

    def jobs(self) -> Any | None:
        """The API's ingest job queue (``service.api.jobs.JobStore``), or None over stdio."""
        ...


# Given the transport's request object (None over stdio), the caller, or None when unknown.
CallerResolver = Callable[[Any], "Caller | None"]

_current: ContextVar[Caller | None] = ContextVar("attest_mcp_caller", default=None)


def current_caller() -> Caller:
    caller = _current.get()
    if caller is None:  # only reachable if a tool is run outside AuditMiddleware
        raise InternalError("no MCP caller is bound")  # a bug, never the caller's fault
    return caller


def _bounded_arguments(arguments: Any) -> Any:
    try:
        text = json.dumps(arguments, sort_keys=True, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        text = repr(arguments)
    if len(text) <= MAX_AUDITED_ARGUMENT_CHARS:
        return arguments
    return {
        "_truncated": True,
        "chars": len(text),
        "sha256": hashlib.sha256(text.encode("utf-8")).hexdigest(),
    }


def _outcome(result: Any) -> tuple[CallOutcome, str | None]:
    data = result.model_dump(by_alias=True) if isinstance(result, BaseModel) else result
    if isinstance(data, dict) and data.get("isError"):
        texts = [c.get("text", "") for c in data.get("content") or [] if isinstance(c, dict)]
        return CallOutcome.ERROR, " ".join(texts)[:MAX_AUDITED_ERROR_CHARS]
    return CallOutcome.OK, None


class AuditMiddleware:
    """SDK server middleware: binds the caller and audits every tool call and resource read."""

    def __init__(self, services: Services, resolve: CallerResolver) -> None:
        self.services = services
        self.resolve = resolve

    async def __call__(self, ctx: Any, call_next: Callable[[Any], Any]) -> Any:
        action = AUDITED_METHODS.get(ctx.method)
        if action is None:
            return await call_next(ctx)
        caller = self.resolve(ctx.request)
        if caller is None:
            raise MCPError(code=INVALID_REQUEST, message="unauthorized: no principal for this call")
        token = _current.set(caller)
        try:
            with structlog.contextvars.bound_contextvars(
                request_id=caller.request_id, principal=caller.principal.name
            ):
                return await self._audited(ctx, call_next, caller, action)
        finally:
            _current.reset(token)

    async def _audited(
        self, ctx: Any, call_next: Callable[[Any], Any], caller: Caller, action: str
    ) -> Any:
        params = dict(ctx.params or {})
        target = params.get("name") if action == "mcp_tool_call" else params.get("uri")
        outcome, error = CallOutcome.ERROR, "internal error"
        start = time.perf_counter()
        try:
            result = await call_next(ctx)
            outcome, error = _outcome(result)
            return result
        except MCPError as exc:
            error = str(exc)[:MAX_AUDITED_ERROR_CHARS]
            raise
        finally:
            entry = {
                "action": action,
                "request_id": caller.request_id,
                "principal": caller.principal.name,
                "groups": list(caller.principal.groups),
                "transport": caller.transport,
                "client_request_id": caller.client_request_id,
                "mcp_request_id": None if ctx.request_id is None else str(ctx.request_id),
                "tool" if action == "mcp_tool_call" else "uri": str(target)[:2048],
                "outcome": outcome,
                "error": error,
            }
            if action == "mcp_tool_call":
                entry["arguments"] = _bounded_arguments(params.get("arguments") or {})
            # Written even when the call failed or was cancelled: every attempt is on record.
            with anyio.CancelScope(shield=True):
                await anyio.to_thread.run_sync(self.services.store().append_audit, entry)
            log.info(
                "mcp_call_served",
                action=action,
                target=str(target)[:200],
                outcome=outcome,
                transport=caller.transport,
                latency_ms=round((time.perf_counter() - start) * 1000, 2),
            )
