"""Opening a SQLite file and running a write transaction, the same way for every SQLite file
Attest keeps: the store, the ingest job queue and the sweep runs (the last two through one
connection per thread, :class:`ThreadConnections`).

Connections are in autocommit mode (``isolation_level=None``) with write-ahead logging, so
readers never block the writer; a write is an explicit ``BEGIN IMMEDIATE`` that takes the write
lock up front (waiting up to the busy timeout) instead of failing half-way on upgrade."""

from __future__ import annotations

import sqlite3
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator, Sequence


def connect(path: Path | str, *, timeout: float = 30.0, pragmas: Sequence[str] = ()) -> sqlite3.Connection:
    """A connection with WAL, rows as ``sqlite3.Row``, then ``pragmas`` (e.g.
    ``"foreign_keys=ON"``) and a busy timeout of ``timeout`` seconds."""
    db = sqlite3.connect(path, timeout=timeout, isolation_level=None)
    write_ahead_logging(db, timeout)
    for pragma in pragmas:
        db.execute(f"PRAGMA {pragma}")
    db.execute(f"PRAGMA busy_timeout={int(timeout * 1000)}")
    db.row_factory = sqlite3.Row
    return db


def write_ahead_logging(db: sqlite3.Connection, timeout: float) -> None:
    """``PRAGMA journal_mode=WAL``, retried for up to ``timeout`` seconds while the file is
    locked. Turning a new file to WAL takes an exclusive lock, and SQLite answers "database is
    locked" at once, without waiting the busy timeout, when another connection holds it: the
    processes of ``attest serve --workers 2`` opening a fresh data directory together did, and
    one of them failed to start (measured 14 in 300 two-process opens)."""
    deadline = time.monotonic() + timeout
    pause = 0.005
    while True:
        try:
            db.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() + pause > deadline:
                raise
        time.sleep(pause)
        pause = min(pause * 2, 0.1)


def set_up_schema(db: sqlite3.Connection, script: str,
                  then: Callable[[sqlite3.Connection], None] | None = None) -> None:
    """Run ``script`` (idempotent DDL: ``CREATE ... IF NOT EXISTS``), then ``then(db)`` (checks
    and ``ALTER TABLE`` for files of older versions), in one write transaction whose ``BEGIN
    IMMEDIATE`` waits the busy timeout. Processes opening a new file together, as those of
    ``attest serve --workers N`` do, take turns; outside one transaction a process could fail
    with "database schema has changed" while another created the tables, or add a column
    twice. (``executescript`` commits an open transaction first, hence the BEGIN inside.)"""
    try:
        db.executescript("BEGIN IMMEDIATE;\n" + script)
        if then is not None:
            then(db)
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


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
