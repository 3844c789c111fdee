"""Opening a SQLite file and running a write transaction, the same way for every SQLite file
Attest keeps: the store, the ingest job queue and the sweep runs.

Connections are in autocommit mode (``isolation_level=None``) with write-ahead logging, so
readers never block the writer; a write is an explicit ``BEGIN IMMEDIATE`` that takes the write
lock up front (waiting up to the busy timeout) instead of failing half-way on upgrade."""

from __future__ import annotations

import sqlite3
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Sequence


def connect(path: Path | str, *, timeout: float = 30.0, pragmas: Sequence[str] = ()) -> sqlite3.Connection:
    """A connection with WAL, rows as ``sqlite3.Row``, then ``pragmas`` (e.g.
    ``"foreign_keys=ON"``) and a busy timeout of ``timeout`` seconds."""
    db = sqlite3.connect(path, timeout=timeout, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    for pragma in pragmas:
        db.execute(f"PRAGMA {pragma}")
    db.execute(f"PRAGMA busy_timeout={int(timeout * 1000)}")
    db.row_factory = sqlite3.Row
    return db


@contextmanager
def immediate(db: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One write transaction: committed when the block ends, rolled back if it raises."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")
