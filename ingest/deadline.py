"""The per-request deadline, reachable from any code a request runs (a leaf: ``ingest/`` may
not import ``service/``, and the store checks it).

The API's ``DeadlineMiddleware`` sets the deadline of each request in a context variable
(copied into the worker thread that runs a sync handler). The middleware answers 503 when the
deadline passes, whatever the handler is doing. A thread cannot be killed, so cancellation is
cooperative: :func:`check_deadline` raises :class:`DeadlineExceeded` once the deadline has
passed, and it is called on entry to every public store method (``ingest/store/common.py:
translate_errors``), at every state transition of the evidence machine, before each half of a
hybrid search and before each batch of sentence embeddings. A store query that is already running
is bounded too: SQLite connections run a progress handler that aborts the statement once the
deadline has passed, and Elasticsearch searches carry the remaining time as their client
``request_timeout`` and server ``timeout``; both end in :class:`DeadlineExceeded`
(``ingest/store/sqlite.py``, ``elastic.py``). An abandoned request therefore stops within
moments of its deadline instead of pinning a core. Outside a request (CLI, ingest workers) there
is no deadline and the check does nothing.
"""

from __future__ import annotations

import time
from contextvars import ContextVar, Token

from ingest.errors import UnavailableError

__all__ = [
    "DeadlineExceeded",
    "check_deadline",
    "clear_deadline",
    "deadline_message",
    "deadline_error",
    "deadline_passed",
    "remaining_seconds",
    "set_deadline",
]

# (monotonic time the request must be answered by, the request's budget in seconds)
_Deadline = tuple[float, float]
_deadline: ContextVar[_Deadline | None] = ContextVar("attest_request_deadline", default=None)


class DeadlineExceeded(UnavailableError):
    """Raised by :func:`check_deadline` once the current request's deadline has passed."""


def deadline_message(seconds: float) -> str:
    """The one message of a request past its deadline (the middleware's 503 and this error's)."""
    return f"the request took longer than {seconds:g} s; narrow it or retry later"


def set_deadline(seconds: float) -> Token[_Deadline | None]:
    return _deadline.set((time.monotonic() + seconds, seconds))


def clear_deadline(token: Token[_Deadline | None]) -> None:
    _deadline.reset(token)


def deadline_passed() -> bool:
    deadline = _deadline.get()
    return deadline is not None and time.monotonic() > deadline[0]


def remaining_seconds() -> float | None:
    """Seconds left before the current request's deadline (negative once past); None outside a
    request."""
    deadline = _deadline.get()
    return None if deadline is None else deadline[0] - time.monotonic()


def deadline_error() -> DeadlineExceeded:
    """The error of the current request's deadline, with the one message (for a library error
    that the deadline caused, raised ``from`` it)."""
    deadline = _deadline.get()
    return DeadlineExceeded(deadline_message(deadline[1] if deadline is not None else 0.0))


def check_deadline() -> None:
    """Raise :class:`DeadlineExceeded` when the current request's deadline has passed."""
    deadline = _deadline.get()
    if deadline is not None and time.monotonic() > deadline[0]:
        raise DeadlineExceeded(deadline_message(deadline[1]))
