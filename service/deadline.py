"""The per-request deadline, reachable from any code a request runs.

The API's ``DeadlineMiddleware`` sets the deadline of each request in a context variable
(copied into the worker thread that runs a sync handler). The middleware answers 503 when the
deadline passes, whatever the handler is doing; code with loops whose length depends on the
input calls :func:`check_deadline` so that the abandoned work also stops soon after, instead of
pinning a core. Outside a request there is no deadline and the check does nothing.
"""

from __future__ import annotations

import time
from contextvars import ContextVar, Token

from ingest.errors import UnavailableError

__all__ = ["DeadlineExceeded", "check_deadline", "clear_deadline", "set_deadline"]

_deadline: ContextVar[float | None] = ContextVar("attest_request_deadline", default=None)


class DeadlineExceeded(UnavailableError):
    """Raised by :func:`check_deadline` once the current request's deadline has passed."""


def set_deadline(seconds: float) -> Token[float | None]:
    return _deadline.set(time.monotonic() + seconds)


def clear_deadline(token: Token[float | None]) -> None:
    _deadline.reset(token)


def check_deadline() -> None:
    deadline = _deadline.get()
    if deadline is not None and time.monotonic() > deadline:
        raise DeadlineExceeded("the request ran past its deadline; narrow it or retry later")
