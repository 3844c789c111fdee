"""API errors and their mapping to one JSON body.

Every error response, whatever raised it, has the body::

    {"error": {"code": "<snake_case>", "message": "<for a human>", "request_id": "<id>"}}

The tree::

    ApiError                      one HTTP status and code per subclass
    ├── Unauthorized              401: no key, or a key that is not configured
    ├── Forbidden                 403: a valid key without the needed role (audit: admin only)
    ├── NotFound                  404: absent, or present but not visible to the caller (the
    │                                  two are indistinguishable by design)
    ├── Conflict                  409: the doc_id is taken by a document the caller cannot see
    ├── PayloadTooLarge           413: the upload exceeds ``Settings.max_file_bytes``
    ├── UnsupportedMediaType      415: the upload's extension or magic bytes are not supported
    ├── InvalidInput              422: well-formed but unusable input (bad JSON in a form field)
    └── ServiceUnavailable        503: the ingest queue is full (with ``Retry-After``)

Handlers are registered per base class (``ApiError``, Starlette's ``HTTPException``, FastAPI's
``RequestValidationError`` and, last, ``Exception``), so every family maps in one place.
"""

from __future__ import annotations

from typing import Any

import structlog
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

log = structlog.get_logger(__name__)

NOT_FOUND_MESSAGE = "document not found"


class ApiError(Exception):
    status_code = 500
    code = "internal_error"

    def __init__(self, message: str, *, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.headers = headers or {}


class Unauthorized(ApiError):
    status_code = 401
    code = "unauthorized"

    def __init__(self, message: str = "a valid API key is required (Authorization: Bearer <key>)"):
        super().__init__(message, headers={"WWW-Authenticate": "Bearer"})


class Forbidden(ApiError):
    status_code = 403
    code = "forbidden"


class NotFound(ApiError):
    status_code = 404
    code = "not_found"


class Conflict(ApiError):
    status_code = 409
    code = "conflict"


class PayloadTooLarge(ApiError):
    status_code = 413
    code = "payload_too_large"


class UnsupportedMediaType(ApiError):
    status_code = 415
    code = "unsupported_media_type"


class InvalidInput(ApiError):
    status_code = 422
    code = "validation_error"


class ServiceUnavailable(ApiError):
    status_code = 503
    code = "unavailable"


def document_not_found() -> NotFound:
    """The one 404 of every document path: absent and forbidden give the same bytes."""
    return NotFound(NOT_FOUND_MESSAGE)


_HTTP_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    413: "payload_too_large",
    415: "unsupported_media_type",
    422: "validation_error",
}


def request_id_of(request: Request) -> str:
    return str(request.scope.get("state", {}).get("request_id", ""))


def error_body(code: str, message: str, request_id: str) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, "request_id": request_id}}


def error_response(
    request: Request, status: int, code: str, message: str, headers: dict[str, str] | None = None
) -> JSONResponse:
    return JSONResponse(
        error_body(code, message, request_id_of(request)), status_code=status, headers=headers
    )


def _describe_validation(exc: RequestValidationError) -> str:
    parts = []
    for error in exc.errors()[:5]:
        where = ".".join(str(p) for p in error.get("loc", ()) if p != "body") or "request"
        parts.append(f"{where}: {error.get('msg', 'invalid')}")
    more = len(exc.errors()) - 5
    if more > 0:
        parts.append(f"and {more} more")
    return "; ".join(parts) or "invalid request"


async def _api_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ApiError)
    return error_response(request, exc.status_code, exc.code, exc.message, exc.headers or None)


async def _http_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    code = _HTTP_CODES.get(exc.status_code, "error" if exc.status_code < 500 else "internal_error")
    message = exc.detail if isinstance(exc.detail, str) else "request failed"
    if exc.status_code == 404:
        message = "not found"
    return error_response(request, exc.status_code, code, message, getattr(exc, "headers", None))


async def _validation_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    return error_response(request, 422, "validation_error", _describe_validation(exc))


async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
    log.error("request.unhandled_error", error_type=type(exc).__name__, exc_info=exc)
    return error_response(request, 500, "internal_error", "internal error; quote the request id")


def register_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(ApiError, _api_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(Exception, _unexpected)
