"""Opening a SQLite file and running a write transaction, the same way for every SQLite file
Attest keeps: the store, the ingest job queue and the sweep runs (the last two through one
connection per thread, :class:`ThreadConnections`).

Connections are in autocommit mode (``isolation_level=None``) with write-ahead logging, so
readers never block the writer; a write is an explicit ``BEGIN IMMEDIATE`` that takes the write
lock up front (waiting up to the busy timeout) instead of failing half-way on upgrade."""

from __future__ import annotations

import sqlite3
import threading
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


class ThreadConnections:
    """One :func:`connect` connection to ``path`` per thread, opened on first use: a sqlite3
    connection must stay in the thread that made it."""

    def __init__(self, path: Path | str, *, timeout: float = 30.0) -> None:
        self.path = Path(path)
        self.timeout = timeout
        self._local = threading.local()

    def get(self) -> sqlite3.Connection:
        db = getattr(self._local, "db", None)
        if db is None:
            db = connect(self.path, timeout=self.timeout)
            self._local.db = db
        return db

    def close(self) -> None:
        """Close this thread's connection (the next ``get`` opens another)."""
        db = getattr(self._local, "db", None)
        if db is not None:
            db.close()
            self._local.db = None
