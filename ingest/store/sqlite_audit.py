"""Group commit of audit entries for the SQLite store.

An audit entry must be on disk before the answer it records is sent, so its commit runs under
``synchronous=FULL`` (one fsync of the write-ahead log, about 4 ms on the shared box). One
transaction and one fsync per entry made concurrent requests queue behind the one SQLite writer,
each paying its own fsync, and a waiter in another process or thread polls for the write lock
with SQLite's sleeping busy handler. Here the entries of concurrent requests in one process share
a transaction:

- A caller queues its entry. If no thread of this process is committing audit entries, the caller
  becomes the *leader*: it takes every queued entry (up to :data:`MAX_BATCH`), writes them in one
  ``BEGIN IMMEDIATE`` transaction (reading the chain's last hash inside it, so entries of another
  process are chained correctly: the write lock serialises the batches of all processes) and
  commits with one fsync. Then it wakes the callers of that batch and, if entries queued up
  meanwhile, hands the leadership to the oldest one's caller, whose own entry is in the next batch
  (no thread serves other requests' entries for long).
- Every caller returns only after the batch holding its entry has committed, and raises if that
  batch failed: an answer is never sent without its entry, and a failed write fails every request
  of the batch (none of their entries were written: the transaction rolled back).

The batch runs on a connection of its own (``synchronous=FULL`` always, no request-deadline
progress handler: one request's deadline must not abort other requests' entries). A caller past
its deadline is still answered 503 by the API's deadline middleware while its entry commits.

**No WAL checkpoint on the answer path.** SQLite's automatic checkpoint runs inside the commit
that takes the write-ahead log past 1,000 pages, on the committing connection: here that was the
leader's, so every ~180 answers (an entry is ~22 KB) one batch of requests waited for the log to
be copied into the database file and fsynced. This connection has ``wal_autocheckpoint=0``;
after every ``CHECKPOINT_BYTES`` of entries committed, a daemon thread of its own
(:class:`_Checkpointer`) checkpoints on its own connection (``PASSIVE`` passes that never block a
writer, then one ``RESTART`` that gives up at once if a writer is busy; SQLite releases the GIL
while it copies). ``WAL_BOUND_BYTES`` bounds the log when the background keeps losing the race
with the appends. Other writers of the store (ingest, on their own connections) keep SQLite's
automatic checkpoint.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import structlog

from ingest.sqlite_db import immediate, write_ahead_logging
from ingest.store.common import chain_entry

__all__ = ["AuditGroupCommit", "CHECKPOINT_BYTES", "MAX_BATCH"]

log = structlog.get_logger(__name__)

# Entries per transaction at most: bounds how long one batch holds the write lock (each entry is
# one INSERT of a few KB of JSON; the evidence bundle is the large part).
MAX_BATCH = 64

# Entry bytes committed between two background checkpoints. SQLite's own automatic checkpoint
# (1,000 pages of 4 KiB) came after 81 entries of 22 KB (1.8 MB of entries; the table's index
# and page overhead make up the rest), so the write-ahead log stays about as small as before.
CHECKPOINT_BYTES = 2 * 2**20
# The bound, in bytes of the log file. A background checkpoint copies the whole log only if no
# append lands during its last pass, and only a commit that starts after such a pass starts the
# log over: under a steady stream of appends that race is lost and the log grows (34 MiB after
# 800 back-to-back appends, each append then paying to extend the file). The audit connection
# truncates the file to JOURNAL_LIMIT_BYTES whenever it starts the log over, so a file past
# WAL_BOUND_BYTES means the log was not started over for that long: the leader then checkpoints
# itself after waking its batch's callers, before the next batch commits, as SQLite did.
JOURNAL_LIMIT_BYTES = 4 * 2**20
WAL_BOUND_BYTES = 8 * 2**20
# Passes of one background checkpoint: each copies what was appended during the previous one,
# so the log is usually whole in the file after two or three (then the next commit resets it).
CATCH_UP_PASSES = 4


def checkpoint_passes(db: sqlite3.Connection, passes: int, *, restart: bool = False) -> bool:
    """Up to ``passes`` ``PASSIVE`` checkpoints (they never block a writer), until one copied the
    whole log. With ``restart``, then one ``RESTART`` checkpoint, which copies what is left (a few
    frames) holding the write lock and makes the next commit start the log over; on a connection
    without a busy timeout it gives up at once when a writer is busy. Whether the log ended
    whole in the file."""
    whole = False
    for _ in range(passes):
        busy, frames, copied = db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        log.debug("audit_wal_checkpoint", busy=busy, frames=frames, copied=copied)
        if not busy and copied >= frames:
            whole = True
            break
    if restart:
        busy, frames, copied = db.execute("PRAGMA wal_checkpoint(RESTART)").fetchone()
        log.debug("audit_wal_checkpoint", busy=busy, frames=frames, copied=copied, mode="restart")
        whole = not busy
    return whole


class _Checkpointer:
    """A daemon thread that runs ``PRAGMA wal_checkpoint(PASSIVE)`` on the store file when
    asked (:meth:`request`; requests while one runs fold into the next). ``checkpoints`` counts
    the checkpoints run, ``completed`` those that left the whole log copied into the file (the
    next commit then starts the log over); a failed one is logged and retried at the next
    request."""

    def __init__(self, path: Path, busy_timeout: float) -> None:
        self.path = path
        self.busy_timeout = busy_timeout
        self.checkpoints = 0
        self.completed = 0
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def request(self) -> None:
        with self._lock:
            # Started on first use, and again in a forked child (the parent's thread is not there).
            alive = self._thread is not None and self._thread.is_alive()
            if not alive and not self._stop.is_set():
                self._thread = threading.Thread(target=self._run, name="attest-wal-checkpoint",
                                                daemon=True)
                self._thread.start()
        self._wake.set()

    def close(self, timeout: float = 10.0) -> None:
        self._stop.set()
        self._wake.set()
        with self._lock:
            thread = self._thread
        if thread is not None:
            thread.join(timeout)

    def _run(self) -> None:
        # No busy timeout: the final RESTART pass never waits for a writer (it gives up instead).
        db = sqlite3.connect(self.path, timeout=0, isolation_level=None)
        try:
            db.execute("PRAGMA busy_timeout=0")
            while True:
                self._wake.wait()
                self._wake.clear()
                if self._stop.is_set():
                    return
                try:
                    whole = checkpoint_passes(db, CATCH_UP_PASSES, restart=True)
                except sqlite3.Error as exc:
                    log.warning("audit_wal_checkpoint_failed", error_type=type(exc).__name__)
                    continue
                self.checkpoints += 1
                self.completed += whole
        finally:
            db.close()


@dataclass
class _Queued:
    row: tuple[str, dict[str, Any], dict[str, Any]]  # (at, body without chain fields, entry)
    wake: threading.Event = field(default_factory=threading.Event)
    committed: bool = False
    error: BaseException | None = None
    leads: bool = False  # handed the leadership by the previous batch's leader


class AuditGroupCommit:
    """Queues audit entries and commits them in groups (see the module docstring).

    ``on_result(ok)`` is called after every committed batch (True) and every batch that failed
    for want of the database (False): the store keeps its ``write_failed`` flag, which
    ``/readyz`` reads. ``batches`` and ``entries`` count committed batches and entries."""

    def __init__(self, path: Path, busy_timeout: float, on_result: Callable[[bool], None]) -> None:
        self.path = path
        self.busy_timeout = busy_timeout
        self._on_result = on_result
        self._lock = threading.Lock()  # guards _queue and _leading
        self._queue: list[_Queued] = []
        self._leading = False
        self._db: sqlite3.Connection | None = None  # used by the current leader only
        self.batches = 0
        self.entries = 0
        self.checkpointer = _Checkpointer(path, busy_timeout)
        self._unchecked_bytes = 0  # entry bytes committed since the last checkpoint request
        self._wal_path = f"{path}-wal"
        self.bounded = 0  # checkpoints the leader ran itself (WAL_BOUND_BYTES)

    def append(self, at: str, body: dict[str, Any], entry: dict[str, Any]) -> None:
        """Return once ``entry`` is committed and on disk; raise the sqlite3 error of its batch."""
        queued = _Queued((at, body, entry))
        with self._lock:
            self._queue.append(queued)
            lead = not self._leading
            self._leading = True
        if lead:
            self._lead_one_batch()
        while not queued.committed and queued.error is None:
            queued.wake.wait()
            queued.wake.clear()
            if queued.leads and not queued.committed and queued.error is None:
                queued.leads = False
                self._lead_one_batch()
        if queued.error is not None:
            raise queued.error

    def queued(self) -> int:
        """Entries waiting for a batch (for tests)."""
        with self._lock:
            return len(self._queue)

    def close(self) -> None:
        self.checkpointer.close()
        with self._lock:
            db, self._db = self._db, None
        if db is not None:
            db.close()

    # -- the leader ---------------------------------------------------------------------------
    def _lead_one_batch(self) -> None:
        with self._lock:
            batch = self._queue[:MAX_BATCH]
            del self._queue[:MAX_BATCH]
        try:
            errors: list[BaseException | None] = list(self._commit([q.row for q in batch]))
            self._on_result(True)
        except BaseException as exc:  # noqa: BLE001 - handed to every caller of the batch
            errors = [exc] * len(batch)
            if isinstance(exc, sqlite3.OperationalError):
                self._on_result(False)
        with self._lock:
            for q, error in zip(batch, errors):
                q.committed, q.error = error is None, error
            written = errors.count(None)
            if written:
                self.batches += 1
                self.entries += written
        for q in batch:
            q.wake.set()
        if self._wal_size() > WAL_BOUND_BYTES:
            # This batch's callers are answered; the next batch waits. Still leading: the
            # checkpoint uses the batches' connection, and a leader chosen meanwhile would commit
            # on it while the checkpoint runs ("SQL statements in progress").
            self._bound_wal()
        with self._lock:
            successor = self._queue[0] if self._queue else None
            if successor is None:
                self._leading = False
            else:
                successor.leads = True
        if successor is not None:
            successor.wake.set()

    def _bound_wal(self) -> None:
        """The leader's own checkpoint when the background ones fell too far behind; no batch
        of this process commits meanwhile, so it copies the whole log (unless another process
        writes or a reader holds an old snapshot)."""
        try:
            checkpoint_passes(self._connection(), 1)
        except sqlite3.Error as exc:
            log.warning("audit_wal_checkpoint_failed", error_type=type(exc).__name__)
            return
        self.bounded += 1

    def _wal_size(self) -> int:
        try:
            return os.stat(self._wal_path).st_size
        except OSError:
            return 0

    def _connection(self) -> sqlite3.Connection:
        if self._db is None:
            # Leaders are different threads, one at a time (the _leading flag), hence
            # check_same_thread=False; the settings are those of ingest.sqlite_db.connect.
            db = sqlite3.connect(self.path, timeout=self.busy_timeout, isolation_level=None,
                                 check_same_thread=False)
            write_ahead_logging(db, self.busy_timeout)
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA wal_autocheckpoint=0")  # the checkpointer thread does it
            db.execute(f"PRAGMA journal_size_limit={JOURNAL_LIMIT_BYTES}")  # see WAL_BOUND_BYTES
            db.execute(f"PRAGMA busy_timeout={int(self.busy_timeout * 1000)}")
            self._db = db
        return self._db

    def _commit(self, rows: list[tuple[str, dict[str, Any], dict[str, Any]]]) -> list[Exception | None]:
        """Write ``rows`` in one transaction; return each row's own error (an entry that cannot
        be serialised is left out of the chain and fails only its caller). A sqlite3 error
        rolls the whole batch back and is raised."""
        db = self._connection()
        errors: list[Exception | None] = []
        size = 0
        try:
            with immediate(db):
                # Inside the write transaction: no other process can append meanwhile.
                last = db.execute("SELECT hash FROM audit ORDER BY seq DESC LIMIT 1").fetchone()
                prev_hash = (last[0] or "") if last else ""
                for at, body, entry in rows:
                    try:
                        chained = chain_entry(prev_hash, {**body, "at": at})
                        text = json.dumps(chained, sort_keys=True)
                    except (TypeError, ValueError) as exc:
                        errors.append(exc)
                        continue
                    db.execute(
                        "INSERT INTO audit(at, request_id, principal, action, entry, hash) "
                        "VALUES (?,?,?,?,?,?)",
                        (at, entry.get("request_id", ""), entry.get("principal", ""),
                         entry.get("action", ""), text, chained["hash"]),
                    )
                    prev_hash = chained["hash"]
                    errors.append(None)
                    size += len(text)
        except sqlite3.Error:
            if db.in_transaction:  # a COMMIT that failed leaves the transaction open
                db.execute("ROLLBACK")
            raise
        # One leader at a time runs this: the counter needs no lock.
        self._unchecked_bytes += size
        if self._unchecked_bytes >= CHECKPOINT_BYTES:
            self._unchecked_bytes = 0
            self.checkpointer.request()  # the callers of this batch do not wait for it
        return errors
