"""The exit codes of every ``attest`` command, in one table.

The error families map to codes in ``ingest/errors.py`` (``EXIT_CODES``); this table adds what
each code means to a user, including the commands that use a code for an outcome rather than an
error (``ask``: not sufficient; ``sweep run``: findings; ``audit verify``: a broken chain). The
top-level ``--help`` shows it, and the README's "Exit codes" table must match it
(``tests/test_cli_tree.py``).
"""

from __future__ import annotations

from ingest.errors import (
    EXIT_CODES,
    ConflictError,
    InternalError,
    InvalidInputError,
    NotFoundError,
    UnavailableError,
)

# (code, meaning), by code. Plain text: it is printed by --help and copied into the README.
EXIT_CODE_TABLE: tuple[tuple[int, str], ...] = tuple(sorted([
    (0, "success"),
    (EXIT_CODES[InternalError], "internal error (a bug: report it), or audit verify found a broken chain"),
    (EXIT_CODES[InvalidInputError],
     "invalid input: a bad flag or setting, a missing --acl for new documents, a document that "
     "failed to ingest, a sweep or revalidation that could not run"),
    (EXIT_CODES[NotFoundError],
     "not found (a document id); ask: the answer is not sufficient; sweep run: findings; "
     "audit revalidate: mismatches"),
    (EXIT_CODES[ConflictError],
     "conflict: the request clashes with the stored state (a doc-id collision in a folder, "
     "a different embedding model)"),
    (EXIT_CODES[UnavailableError],
     "unavailable: the store (SQLite file locked or unreadable, Elasticsearch unreachable) "
     "cannot serve now; retry later"),
]))


def exit_codes_epilog() -> str:
    """The table for ``attest --help``: one line per code."""
    return "\n".join(["Exit codes:", *(f"{code}  {meaning}" for code, meaning in EXIT_CODE_TABLE)])
