"""The embedded store's vector matrix, kept in step with the store incrementally.

Every current-revision chunk vector sits in one float32 matrix that kNN scores in one pass. The
store's ``live_log`` table records, in commit order, the rowid of every ``live_chunks`` row a
write adds or removes (triggers, same transaction as the write). A reader whose matrix is behind
its snapshot's log position reads only the touched rowids: their rows are retired (masked out,
not moved) and those still current are appended. Rows ``[0, count)`` of the shared buffers never
change once written, so every published :class:`VectorView` stays valid while later rows are
appended behind it; each view owns its ``alive`` mask. A full read of the matrix happens at the
first query of a process, when the log no longer reaches back to the matrix (pruned), or when
most rows changed; retired rows are dropped in memory once they are a quarter of the matrix.
"""

from __future__ import annotations

import functools
import sqlite3
import threading
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np
import structlog
from threadpoolctl import threadpool_limits

LOG_KEEP = 200_000  # live_log entries kept; a matrix further behind than this is read in full
COMPACT_SHARE = 0.25  # retired rows above this share of the matrix are dropped (in memory)
RECENT_VIEWS = 4  # views kept for readers whose snapshot is older than the newest view
HEADROOM = 0.125  # spare rows allocated at a full read, so small writes append without a copy
MIN_HEADROOM = 1024

# Rows of the current revisions with a vector, in rowid order (the full read's layout).
_LIVE_ROWS = (
    "SELECT c.rowid, c.chunk_id, c.doc_id, c.embedding FROM live_chunks l "
    "JOIN chunks c ON c.rowid = l.rowid WHERE c.embedding IS NOT NULL"
)


@dataclass(frozen=True, slots=True)
class VectorView:
    """The matrix as of log position ``seq``: ``count`` rows, of which ``alive`` are current.
    ``chunk_ids`` and ``doc_positions`` are shared and only ever appended to: entries past
    ``count`` (or documents that no row of this view names) belong to later views."""

    seq: int
    count: int
    matrix: np.ndarray  # (count, dim) float32
    rowids: np.ndarray  # (count,) int64, the chunks' rowids
    doc_index: np.ndarray  # (count,) int32, positions in doc_positions
    alive: np.ndarray  # (count,) bool, False for rows retired since they were appended
    live: int  # alive.sum()
    chunk_ids: list[str]
    doc_positions: dict[str, int]

    def doc_mask(self, doc_ids: set[str]) -> np.ndarray:
        """Alive rows of these documents."""
        allowed = [self.doc_positions[d] for d in doc_ids if d in self.doc_positions]
        return np.isin(self.doc_index, np.array(allowed, dtype=np.int32)) & self.alive

    def rowid_mask(self, rowids: np.ndarray) -> np.ndarray:
        """Alive rows of these chunk rowids (a retired row may share a rowid with a new one)."""
        return np.isin(self.rowids, rowids) & self.alive


class _Buffers:
    """Append-only storage behind the views; one set per full read or compaction."""

    def __init__(self, dim: int, capacity: int) -> None:
        self.matrix = np.empty((capacity, dim), dtype=np.float32)
        self.rowids = np.empty(capacity, dtype=np.int64)
        self.doc_index = np.empty(capacity, dtype=np.int32)
        self.chunk_ids: list[str] = []
        self.doc_positions: dict[str, int] = {}
        self.position: dict[int, int] = {}  # rowid -> its alive row in the newest view
        self.count = 0

    def ensure(self, extra: int) -> None:
        """Room for ``extra`` more rows; growing copies into new arrays, so the views already
        published keep the old ones untouched."""
        need = self.count + extra
        if need <= self.matrix.shape[0]:
            return
        capacity = max(need, int(self.count * (1 + HEADROOM)) + MIN_HEADROOM)
        for name in ("matrix", "rowids", "doc_index"):
            old = getattr(self, name)
            grown = np.empty((capacity, *old.shape[1:]), dtype=old.dtype)
            grown[: self.count] = old[: self.count]
            setattr(self, name, grown)

    def append(self, rows: list[sqlite3.Row] | list[tuple]) -> None:
        if not rows:
            return
        self.ensure(len(rows))
        start, end = self.count, self.count + len(rows)
        self.matrix[start:end] = np.frombuffer(b"".join(r[3] for r in rows), dtype=np.float32).reshape(
            len(rows), -1
        )
        self.rowids[start:end] = [r[0] for r in rows]
        self.doc_index[start:end] = [
            self.doc_positions.setdefault(r[2], len(self.doc_positions)) for r in rows
        ]
        self.chunk_ids.extend(r[1] for r in rows)
        for offset, row in enumerate(rows):
            self.position[row[0]] = start + offset
        self.count = end

    def view(self, seq: int, alive: np.ndarray) -> VectorView:
        n = self.count
        return VectorView(
            seq=seq, count=n, matrix=self.matrix[:n], rowids=self.rowids[:n],
            doc_index=self.doc_index[:n], alive=alive, live=int(np.count_nonzero(alive)),
            chunk_ids=self.chunk_ids, doc_positions=self.doc_positions,
        )


@functools.cache
def single_threaded_blas() -> None:
    """Run the process's BLAS on one thread (once per process). kNN's matrix-vector product is
    memory-bound: OpenBLAS's second thread buys nothing on an idle box and, on a busy one, its
    spinning threads compete with BM25 and other requests (50k x 384 took 2-4x longer with two
    threads than with one on the shared 2-core box). The scores are bitwise the same: each
    output is one row's dot product either way. Requests run in parallel across threads and
    processes instead."""
    threadpool_limits(limits=1, user_api="blas")


def log_position(db: sqlite3.Connection) -> tuple[int, int]:
    """(head, floor) of the live_log in this connection's snapshot: the last entry, and the
    highest entry pruned (a matrix at or past ``floor`` can catch up from the log)."""
    head, floor = db.execute(
        "SELECT (SELECT max(seq) FROM live_log), "
        "(SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'live_log_floor')"
    ).fetchone()
    return int(head or 0), int(floor or 0)


def prune_log(db: sqlite3.Connection) -> None:
    """Inside a write transaction: keep the newest ``LOG_KEEP`` entries, and record the cut."""
    head, _ = log_position(db)
    cut = head - LOG_KEEP
    if cut > 0 and db.execute("DELETE FROM live_log WHERE seq <= ?", (cut,)).rowcount:
        db.execute(
            "INSERT OR REPLACE INTO meta(key, value) VALUES ('live_log_floor', ?)", (str(cut),)
        )


class VectorMatrix:
    """The process's matrix; :meth:`view` gives the one matching a reader's snapshot."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._buffers: _Buffers | None = None
        self._recent: OrderedDict[int, VectorView] = OrderedDict()
        self.latest: VectorView | None = None  # read without the lock by prepare_knn
        self.full_reads = 0  # how many times the whole matrix was read (tests, benchmarks)

    def view(self, db: sqlite3.Connection) -> VectorView:
        """The matrix of the current revisions as ``db``'s open read transaction sees them."""
        head, floor = log_position(db)
        with self._lock:
            latest = self.latest
            if latest is not None and latest.seq == head:
                return latest
            if head in self._recent:
                return self._recent[head]
            if latest is not None and head < latest.seq:
                # A snapshot older than the newest view, and older than the views kept: read it
                # for this reader alone, leaving the shared matrix where it is.
                return self._full_read(db, head, publish=False)
            if latest is not None and latest.seq >= floor:
                caught_up = self._catch_up(db, latest, head)
                if caught_up is not None:
                    return self._publish(caught_up)
            return self._publish(self._full_read(db, head, publish=True))

    def _publish(self, view: VectorView) -> VectorView:
        self.latest = view
        self._recent[view.seq] = view
        while len(self._recent) > RECENT_VIEWS:
            self._recent.popitem(last=False)
        return view

    def _full_read(self, db: sqlite3.Connection, head: int, *, publish: bool) -> VectorView:
        self.full_reads += 1
        rows = db.execute(f"{_LIVE_ROWS} ORDER BY c.rowid").fetchall()
        dim = len(rows[0][3]) // 4 if rows else 0
        buffers = _Buffers(dim, len(rows) + (max(MIN_HEADROOM, int(len(rows) * HEADROOM)) if publish else 0))
        buffers.append(rows)
        if publish:
            self._buffers = buffers
            self._recent.clear()
        structlog.get_logger(__name__).debug("vector_matrix_read", rows=len(rows), seq=head)
        return buffers.view(head, np.ones(buffers.count, dtype=bool))

    def _catch_up(self, db: sqlite3.Connection, latest: VectorView, head: int) -> VectorView | None:
        """The view at ``head`` from ``latest`` and the log entries after it; None when so many
        rows changed that a full read is cheaper."""
        buffers = self._buffers
        assert buffers is not None and buffers.count == latest.count
        touched = [
            r[0] for r in db.execute(
                "SELECT DISTINCT chunk_rowid FROM live_log WHERE seq > ? AND seq <= ?",
                (latest.seq, head),
            )
        ]
        if len(touched) > max(MIN_HEADROOM, latest.count // 2):
            return None
        # The touched rows' state as of this snapshot: current ones come back, the rest stay out.
        rows = db.execute(
            f"{_LIVE_ROWS} AND l.rowid IN (SELECT DISTINCT chunk_rowid FROM live_log "
            "WHERE seq > ? AND seq <= ?) ORDER BY c.rowid",
            (latest.seq, head),
        ).fetchall()
        if rows and buffers.count and len(rows[0][3]) != 4 * buffers.matrix.shape[1]:
            return None  # vectors of another width (a store that was emptied and refilled)
        alive = np.concatenate([latest.alive, np.ones(len(rows), dtype=bool)])
        try:  # no reads past this point: the buffers change only below
            for rowid in touched:
                position = buffers.position.pop(rowid, None)
                if position is not None:
                    alive[position] = False
            if not buffers.count and rows:
                buffers = self._buffers = _Buffers(len(rows[0][3]) // 4, len(rows) + MIN_HEADROOM)
            buffers.append(rows)
        except BaseException:
            # Half-applied: forget the matrix, so the next reader reads it in full.
            self._buffers, self.latest = None, None
            self._recent.clear()
            raise
        retired = buffers.count - int(np.count_nonzero(alive))
        if retired > COMPACT_SHARE * buffers.count:
            return self._compact(buffers, alive, head)
        return buffers.view(head, alive)

    def _compact(self, old: _Buffers, alive: np.ndarray, head: int) -> VectorView:
        """Drop retired rows, in memory: the alive rows keep their order."""
        keep = np.flatnonzero(alive)
        buffers = _Buffers(old.matrix.shape[1], len(keep) + max(MIN_HEADROOM, int(len(keep) * HEADROOM)))
        n = len(keep)
        buffers.matrix[:n] = old.matrix[keep]
        buffers.rowids[:n] = old.rowids[keep]
        buffers.doc_index[:n] = old.doc_index[keep]
        buffers.chunk_ids = [old.chunk_ids[i] for i in keep]
        buffers.doc_positions = old.doc_positions
        buffers.position = {int(r): i for i, r in enumerate(buffers.rowids[:n])}
        buffers.count = n
        self._buffers = buffers
        return buffers.view(head, np.ones(n, dtype=bool))
