"""The one error tree of Attest.

Every exception Attest raises on purpose descends from :class:`AttestError`. The tree is small
on purpose: a caller decides what to do from the family alone::

    AttestError                 the root; never raised itself
    ├── InvalidInputError       the input cannot be used as given (HTTP 422, exit 2)
    ├── NotFoundError           the thing asked for does not exist, or is not visible (404, exit 3)
    ├── ConflictError           the request clashes with the current state (409, exit 4)
    ├── UnavailableError        a dependency (store, queue) is down or busy: retry later
    │                           (503 with Retry-After, exit 5)
    └── InternalError           a broken invariant: a bug, never the caller's fault (500, exit 1)

Existing families subclass one of these (``StoreError`` and its children in
``ingest/store/port.py``, ``ExtractionError`` in ``ingest/guards.py``, ``IngestFailure`` in
``ingest/pipeline.py``, ``ApiError`` in ``service/api/errors.py``, ``UploadLost`` in
``service/api/upload_store.py``, ...). Errors from libraries
(sqlite3, elasticsearch, OSError) are translated where they enter Attest and chained with
``raise ... from exc``, so the original traceback stays in the log.

An error in no family is internal, unless its class names a ``fallback_family`` (a bare
``StoreError``, a store failure its adapter could not classify, is handled as unavailable).

The two mappings live in one place each: HTTP statuses in ``service/api/errors.py``
(``status_for``), CLI exit codes here (:func:`exit_code_for`, documented in the README). This
module is a leaf: it imports nothing from Attest, so ``ingest/`` and ``service/`` can both use it.
"""

from __future__ import annotations

__all__ = [
    "AttestError",
    "ConflictError",
    "InternalError",
    "InvalidInputError",
    "NotFoundError",
    "UnavailableError",
    "EXIT_CODES",
    "exit_code_for",
]


class AttestError(Exception):
    """The root of every error Attest raises on purpose. ``message`` is fit for a user."""

    # The family an error of no family is handled as (both mappings below and in
    # service/api/errors.py): None means internal. A bare StoreError sets UnavailableError.
    fallback_family: "type[AttestError] | None" = None

    def __init__(self, message: str = "", **context: object) -> None:
        super().__init__(message)
        self.message = message
        # Context as attributes (doc_id, stage, ...), for logs and handlers.
        for key, value in context.items():
            setattr(self, key, value)


class InvalidInputError(AttestError):
    """Raised when input (a file, a form field, a flag, a setting) cannot be used as given."""


class NotFoundError(AttestError):
    """Raised when what was asked for does not exist or is not visible to the caller."""


class ConflictError(AttestError):
    """Raised when a request clashes with the current state (e.g. the document was deleted)."""


class UnavailableError(AttestError):
    """Raised when a dependency (the store, the ingest queue) cannot serve now; retry later."""

    retry_after: int = 5


class InternalError(AttestError):
    """Raised when an invariant is broken: a bug in Attest, never the caller's fault."""


# CLI exit codes, one per family (README, "Exit codes"). 0 is success; the CLI uses 2 for
# usage errors, which are input errors too.
EXIT_CODES: dict[type[AttestError], int] = {
    InvalidInputError: 2,
    NotFoundError: 3,
    ConflictError: 4,
    UnavailableError: 5,
    InternalError: 1,
}


def exit_code_for(exc: BaseException) -> int:
    """The CLI exit code of an exception: by family, 1 for anything else."""
    for family, code in EXIT_CODES.items():
        if isinstance(exc, family):
            return code
    fallback = getattr(exc, "fallback_family", None)
    return EXIT_CODES.get(fallback, 1) if fallback is not None else 1
