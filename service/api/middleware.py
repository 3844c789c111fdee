"""ASGI middleware: request ids, access logs and metrics, the per-request deadline, and the
upload body limit.

Pure ASGI (no ``BaseHTTPMiddleware``), so the request id bound in contextvars stays visible to
the handlers, and streaming bodies are never buffered here.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
import uuid
from typing import Any, Callable

import structlog
from starlette.datastructures import Headers, MutableHeaders
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ingest.deadline import clear_deadline, deadline_message, set_deadline
from service.api.errors import error_body
from service.api.metrics import Metrics

log = structlog.get_logger("service.api")

_SANE_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:-]{8,128}$")
MULTIPART_OVERHEAD = 1024 * 1024  # form fields and part headers around the file


def choose_request_id(supplied: str | None) -> str:
    """Always a fresh uuid4 hex, issued by the server: a client can never reuse another
    request's id in the audit. The client's own X-Request-ID is kept apart
    (:func:`client_request_id`)."""
    return uuid.uuid4().hex


def client_request_id(supplied: str | None) -> str | None:
    """The client's X-Request-ID when it is a sane token (recorded as ``client_request_id``)."""
    if supplied and _SANE_REQUEST_ID.match(supplied):
        return supplied
    return None


def _route_template(scope: Scope) -> str:
    route = scope.get("route")
    path = getattr(route, "path", None)
    return path if isinstance(path, str) else "unmatched"


class RequestContextMiddleware:
    """Binds ``request_id`` (into contextvars and ``request.state``), adds ``X-Request-ID`` to
    every response, logs one ``request_finished`` event and feeds the metrics. An exception that
    escapes every handler becomes the standard 500 body here, with the request id."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        request_id = choose_request_id(headers.get("x-request-id"))
        client_id = client_request_id(headers.get("x-request-id"))
        state: dict[str, Any] = scope.setdefault("state", {})
        state["request_id"] = request_id
        state["client_request_id"] = client_id
        structlog.contextvars.clear_contextvars()
        structlog.contextvars.bind_contextvars(request_id=request_id)
        if client_id:
            structlog.contextvars.bind_contextvars(client_request_id=client_id)
        start = time.perf_counter()
        status_holder = {"status": 500, "started": False}

        async def send_with_id(message: Message) -> None:
            if message["type"] == "http.response.start":
                status_holder["status"] = message["status"]
                status_holder["started"] = True
                MutableHeaders(scope=message)["X-Request-ID"] = request_id
                if client_id:
                    MutableHeaders(scope=message)["X-Client-Request-ID"] = client_id
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        except Exception as exc:  # noqa: BLE001 - the last line of defence: one body shape
            log.error("request_unhandled_error", error_type=type(exc).__name__, exc_info=exc)
            if not status_holder["started"]:
                body = json.dumps(
                    error_body("internal_error", "internal error; quote the request id", request_id)
                ).encode()
                await send_with_id(
                    {
                        "type": "http.response.start",
                        "status": 500,
                        "headers": [(b"content-type", b"application/json"),
                                    (b"content-length", str(len(body)).encode())],
                    }
                )
                await send_with_id({"type": "http.response.body", "body": body})
        finally:
            elapsed = time.perf_counter() - start
            route = _route_template(scope)
            status = int(status_holder["status"])
            self.metrics.observe_request(scope["method"], route, status, elapsed)
            log.info(
                "request_finished",
                method=scope["method"],
                route=route,
                status=status,
                latency_ms=round(elapsed * 1000, 2),
                principal=state.get("principal"),
            )
            structlog.contextvars.clear_contextvars()


class DeadlineMiddleware:
    """Gives every request ``seconds`` to start its answer; past that the client gets 503
    ``deadline_exceeded`` with ``Retry-After``, and the late answer is dropped. The handler's
    thread cannot be killed, so the deadline is also set in a context variable that
    :func:`ingest.deadline.check_deadline` reads at every store call, search, embedding batch
    and state transition: the abandoned thread stops at the next one. ``exempt`` requests
    (uploads, whose time grows with the client's bandwidth) have no deadline."""

    def __init__(
        self, app: ASGIApp, seconds: float, exempt: Callable[[Scope], bool] = lambda scope: False
    ) -> None:
        self.app = app
        self.seconds = seconds
        self.exempt = exempt

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or self.exempt(scope):
            await self.app(scope, receive, send)
            return
        progress = {"started": False, "abandoned": False}

        async def guarded_send(message: Message) -> None:
            if progress["abandoned"]:
                return
            if message["type"] == "http.response.start":
                progress["started"] = True
            await send(message)

        token = set_deadline(self.seconds)
        try:
            task = asyncio.ensure_future(self.app(scope, receive, guarded_send))
        finally:
            clear_deadline(token)
        try:
            done, _ = await asyncio.wait({task}, timeout=self.seconds)
        except asyncio.CancelledError:
            task.cancel()
            raise
        if task in done or progress["started"]:
            await task  # finished, or already answering: let it finish (and raise, if it did)
            return
        progress["abandoned"] = True
        task.add_done_callback(_log_abandoned)
        request_id = scope.get("state", {}).get("request_id", "")
        log.warning("request_deadline_exceeded", path=scope.get("path"), seconds=self.seconds)
        body = json.dumps(
            error_body(
                "deadline_exceeded",
                deadline_message(self.seconds),
                request_id,
            )
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 503,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()),
                            (b"retry-after", b"5")],
            }
        )
        await send({"type": "http.response.body", "body": body})


def _log_abandoned(task: "asyncio.Future[None]") -> None:
    if task.cancelled():
        return
    exc = task.exception()
    if exc is not None:  # DeadlineExceeded: it stopped at a cancellation point
        log.info("request_abandoned_finished", error_type=type(exc).__name__)
    else:
        log.info("request_abandoned_finished", error_type=None)


class _BodyTooLarge(StarletteHTTPException):
    def __init__(self, limit: int) -> None:
        super().__init__(413, f"upload exceeds the limit of {limit} bytes")


class UploadLimitMiddleware:
    """Refuses an upload body larger than ``max_file_bytes`` plus form overhead: up front from
    Content-Length, or while streaming (chunked bodies). The handler checks the file's exact
    size as it streams it to disk."""

    def __init__(self, app: ASGIApp, max_file_bytes: int, paths: tuple[str, ...]) -> None:
        self.app = app
        self.max_file_bytes = max_file_bytes
        self.limit = max_file_bytes + MULTIPART_OVERHEAD
        self.paths = paths

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST" or scope["path"] not in self.paths:
            await self.app(scope, receive, send)
            return
        length = Headers(scope=scope).get("content-length")
        if length is not None and length.isdigit() and int(length) > self.limit:
            request_id = scope.get("state", {}).get("request_id", "")
            body = json.dumps(
                error_body(
                    "payload_too_large",
                    f"upload exceeds the limit of {self.max_file_bytes} bytes",
                    request_id,
                )
            ).encode()
            await send(
                {
                    "type": "http.response.start",
                    "status": 413,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode()),
                                (b"connection", b"close")],
                }
            )
            await send({"type": "http.response.body", "body": body})
            return
        seen = 0

        async def limited_receive() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise _BodyTooLarge(self.max_file_bytes)
            return message

        await self.app(scope, limited_receive, send)
