"""One ingest worker per data dir, however many API processes serve it.

``attest serve --workers N`` runs N identical uvicorn processes. They share the SQLite store
(WAL: many readers, one writer at a time) and the job queue file, and any of them may take an
upload; but only the process holding this lock runs the ingest worker (and recovers
interrupted jobs at start), so a job is never recovered from under a live worker. The lock is
``flock`` on ``<data_dir>/ingest-worker.lock``: the kernel releases it when its holder dies,
and the process uvicorn starts in its place takes it over.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path


class IngestLock:
    def __init__(self, data_dir: Path) -> None:
        self.path = Path(data_dir) / "ingest-worker.lock"
        self._fd: int | None = None

    def acquire(self) -> bool:
        """True when this process now holds the lock; never blocks."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return False
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._fd = fd
        return True

    def release(self) -> None:
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None
