"""API errors and their mapping to one JSON body.

Every error response, whatever raised it, has the body::

    {"error": {"code": "<snake_case>", "message": "<for a human>", "request_id": "<id>"}}

This module is the ONE place where errors become HTTP statuses. Every family of the
``AttestError`` tree (``ingest/errors.py``) maps to one status:

    InvalidInputError   422 validation_error
    NotFoundError       404 not_found (always the one message of ``document_not_found``:
                            absent and forbidden stay indistinguishable)
    ConflictError       409 conflict
    UnavailableError    503 unavailable, with ``Retry-After`` (store outage, queue full,
                            request deadline)
    InternalError       500 internal_error (logged with its traceback; the body says only to
                            quote the request id)

A store failure outside every family (a bare ``StoreError``: a write or read the backend did
not complete, for a reason the adapter could not classify) is 503 ``unavailable`` with
``Retry-After`` and a fixed message (its own may name indexes or requests), logged with its
traceback; a store record that cannot be read back (``StoreCorrupt``) is internal: 500. Anything
that is no ``AttestError`` at all is a bug: 500.

The API's own errors are ``ApiError`` subclasses, each also in its family::

    ApiError(AttestError)         one HTTP status and code per subclass
    ├── Unauthorized              401: no key, or a key that is not configured
    ├── Forbidden                 403: a valid key without the needed role (audit: admin only)
    ├── NotFound                  404: absent, or present but not visible to the caller
    ├── Conflict                  409: the doc_id is taken by a document the caller cannot see
    ├── PayloadTooLarge           413: the upload exceeds ``Settings.max_file_bytes``
    ├── UnsupportedMediaType      415: the upload's extension or magic bytes are not supported
    ├── InvalidInput              422: well-formed but unusable input (bad JSON in a form field)
    └── ServiceUnavailable        503: the ingest queue is full (with ``Retry-After``)

Handlers are registered per base class (``AttestError``, Starlette's ``HTTPException``,
FastAPI's ``RequestValidationError`` and, last, ``Exception``), so every family maps here.
"""

from __future__ import annotations

from typing import Any

import structlog
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from ingest.deadline import DeadlineExceeded
from ingest.errors import (
    AttestError,
    ConflictError,
    InternalError,
    InvalidInputError,
    NotFoundError,
    UnavailableError,
)
from ingest.store.port import StoreError

log = structlog.get_logger(__name__)

NOT_FOUND_MESSAGE = "document not found"
INTERNAL_MESSAGE = "internal error; quote the request id"
STORE_MESSAGE = "the document store could not complete the request; retry later"


class ApiError(AttestError):
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


class NotFound(ApiError, NotFoundError):
    status_code = 404
    code = "not_found"


class Conflict(ApiError, ConflictError):
    status_code = 409
    code = "conflict"


class PayloadTooLarge(ApiError, InvalidInputError):
    status_code = 413
    code = "payload_too_large"


class UnsupportedMediaType(ApiError, InvalidInputError):
    status_code = 415
    code = "unsupported_media_type"


class InvalidInput(ApiError, InvalidInputError):
    status_code = 422
    code = "validation_error"


class ServiceUnavailable(ApiError, UnavailableError):
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


# family -> (status, code); the first match wins, so subclasses of two families map by the first.
FAMILY_STATUS: tuple[tuple[type[AttestError], int, str], ...] = (
    (InvalidInputError, 422, "validation_error"),
    (NotFoundError, 404, "not_found"),
    (ConflictError, 409, "conflict"),
    (UnavailableError, 503, "unavailable"),
    (InternalError, 500, "internal_error"),
)


def status_for(exc: AttestError) -> tuple[int, str]:
    """The HTTP status and error code of any Attest error."""
    if isinstance(exc, ApiError):
        return exc.status_code, exc.code
    if isinstance(exc, DeadlineExceeded):
        return 503, "deadline_exceeded"  # the code the deadline middleware answers with
    for family, status, code in FAMILY_STATUS:
        if isinstance(exc, family):
            return status, code
    for family, status, code in FAMILY_STATUS:
        if exc.fallback_family is family:  # a bare StoreError: an unclassified store failure
            return status, code
    return 500, "internal_error"


async def _attest_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, AttestError)
    status, code = status_for(exc)
    headers: dict[str, str] = dict(exc.headers) if isinstance(exc, ApiError) else {}
    if isinstance(exc, ApiError):
        message = exc.message
    elif status == 404:
        message = NOT_FOUND_MESSAGE  # byte-identical to every other document 404
    elif status >= 500 and status != 503:
        message = INTERNAL_MESSAGE
    elif isinstance(exc, StoreError) and not isinstance(exc, UnavailableError):
        message = STORE_MESSAGE
    else:
        message = exc.message or code
    if status == 503:
        headers.setdefault("Retry-After", str(getattr(exc, "retry_after", 5)))
    if isinstance(exc, DeadlineExceeded):
        # An expected stop at a cancellation point, not a fault: no traceback to render.
        log.warning("request_stopped_at_deadline", status=status)
    elif status >= 500:
        log.error("request_failed", status=status, error_type=type(exc).__name__, exc_info=exc)
    return error_response(request, status, code, message, headers or None)


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
    log.error("request_unhandled_error", error_type=type(exc).__name__, exc_info=exc)
    return error_response(request, 500, "internal_error", INTERNAL_MESSAGE)


def register_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(AttestError, _attest_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(Exception, _unexpected)
