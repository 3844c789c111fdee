"""Processes opening a new SQLite file at the same moment, as the workers of `attest serve
--workers 2` do with a fresh data directory: each file (the store, the ingest job queue, the
sweep runs) opens in both, and neither fails.

Before, about 1 open in 20 failed: "database is locked" from ``PRAGMA journal_mode=WAL`` (SQLite
answers at once, without the busy timeout, while another connection turns the file to WAL), or
"database schema has changed" while the other process created the tables. A worker whose store
failed to open exited, and uvicorn's supervisor stopped the whole server. Real files, real
processes (spawned, so no thread state of the test process is copied)."""

from __future__ import annotations

import multiprocessing
from pathlib import Path

ROUNDS = 40  # per kind of file; at the old failure rate, 40 rounds all passing has odds < 1 in 10


def _open_in_rounds(rounds: list[tuple[str, str]], barrier, results) -> None:  # type: ignore[no-untyped-def]
    from ingest.store.sqlite import SqliteStore
    from service.api.jobs import JobStore
    from service.sweeps.runstore import SqliteRunStore

    openers = {
        "store": lambda d: SqliteStore(Path(d) / "attest.sqlite3"),
        "jobs": lambda d: JobStore(Path(d)),
        "sweep_runs": lambda d: SqliteRunStore(Path(d) / "sweeps.sqlite3"),
    }
    for kind, directory in rounds:
        barrier.wait(timeout=120)
        try:
            opened = openers[kind](directory)
            opened.close()
            results.put((kind, directory, "opened"))
        except Exception as exc:  # reported to the test, which names it
            results.put((kind, directory, f"{type(exc).__name__}: {exc}"))


def test_two_processes_open_each_new_sqlite_file_together(tmp_path: Path) -> None:
    rounds = []
    for kind in ("store", "jobs", "sweep_runs"):
        for i in range(ROUNDS):
            directory = tmp_path / f"{kind}-{i}"
            directory.mkdir()
            rounds.append((kind, str(directory)))
    spawn = multiprocessing.get_context("spawn")
    barrier = spawn.Barrier(2)
    results = spawn.Queue()
    processes = [spawn.Process(target=_open_in_rounds, args=(rounds, barrier, results)) for _ in range(2)]
    for process in processes:
        process.start()
    outcomes = [results.get(timeout=300) for _ in range(2 * len(rounds))]
    for process in processes:
        process.join(60)
    failed = sorted(o for o in outcomes if o[2] != "opened")
    assert failed == []
    assert len(outcomes) == 2 * len(rounds)
    assert [p.exitcode for p in processes] == [0, 0]


def test_turning_on_wal_waits_at_most_its_timeout_then_raises(tmp_path: Path) -> None:
    """The retry of ``write_ahead_logging`` is bounded: while another connection holds the file
    locked past the timeout, it raises SQLite's own error, after about the timeout."""
    import sqlite3
    import time

    import pytest

    from ingest.sqlite_db import write_ahead_logging

    path = tmp_path / "held.sqlite3"
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("CREATE TABLE t (x)")
    holder.execute("BEGIN EXCLUSIVE")  # a rollback-journal file, locked
    waiting = sqlite3.connect(path, timeout=0, isolation_level=None)
    try:
        started = time.monotonic()
        with pytest.raises(sqlite3.OperationalError, match="database is locked"):
            write_ahead_logging(waiting, 0.3)
        assert 0.2 <= time.monotonic() - started < 5
    finally:
        waiting.close()
        holder.execute("ROLLBACK")
        holder.close()
