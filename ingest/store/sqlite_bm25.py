"""BM25 over what one principal may read: the embedded store's statistics per visible set.

FTS5's ``bm25()`` takes its statistics from the whole FTS index: the row count, each word's
document frequency and the average length count every chunk ever written, old revisions and
other principals' documents included. A principal's scores (and so the order of their own hits)
then moved with documents they cannot read, and a change of score told them whether someone
else's documents hold a word. Here the same formula (FTS5's: ``k1 = 1.2``, ``b = 0.75``,
``idf = ln((N - df + 0.5) / (df + 0.5))``, at least 1e-6) is computed in numpy with ``N``,
``df`` and the average length taken over the chunks the principal may read (current revisions,
ACL), so nothing outside that set changes a score.

Two per-process caches, each exact for the ``live_log`` head read in the query's snapshot (the
log records, in commit order, every rowid a write added to or removed from the current chunks;
triggers write it in the writing transaction, whichever process writes). Both follow writes
from the log instead of being read again after each one:

- :class:`Postings`: per word, the rowids of the chunks holding it and its frequency in each
  (read from the FTS index through an ``fts5vocab`` instance table), at most ``CACHE_POSTINGS``
  pairs, least recently used word out. An entry is exact on every row that is current at its
  head (rows that are not may be missing or stale: a visible set holds current rows only). A
  reader at a newer head first adds the log entries since the cache's head to a window
  (:class:`_Recent`): every rowid touched, the head of its last touch, and the words of the
  touched rows current now, tokenized by FTS5 itself in a private in-memory table with the
  index's own ``tokenize`` option. A word is brought forward, when it is next asked for, by
  dropping the rows touched after its head and adding the window's rows of those for it: the
  same arrays a read of the index would give, on the current rows. Rows written but not current
  (a revision before its switch) move no head and need nothing. The cache starts over (every
  word read again) when the log was pruned past its head, when one catch-up would span more
  than ``DELTA_ROWS`` log entries, or when the index's tokenizer cannot be read from its
  schema; the window keeps at most ``DELTA_KEEP_ROWS`` rows (those touched longest ago go
  first), and a word whose head falls behind what it keeps is read again.
- :class:`VisibleSets`: per principal view (its ACL tokens, or unrestricted), the rowids of the
  current chunks it may read and their lengths in tokens (FTS5's own ``docsize`` counts), kept
  per (``live_log`` head, ``meta.visible_acl_version``), at most ``VIEW_CACHE``. A view at an
  older head and the same ACL version is brought forward by set difference: the rows the log
  touched since are dropped, and those of them the view may read now are read with their
  lengths. The ACL version moves with every ACL row of a document that has current rows; then
  the view's set is read again (no log says which documents' ACL rows moved); the unrestricted
  view reads no ACL row and keeps its set.

The decision of what is visible stays SQL's: a kept set is exactly what the snapshot's ACL query
answers, because its key is read in the same snapshot.
"""

from __future__ import annotations

import math
import re
import sqlite3
import threading
import unicodedata
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np
import structlog

K1 = 1.2  # FTS5's bm25() constants, so scores keep their scale
B = 0.75
MIN_IDF = 1e-6  # FTS5's floor for a word in more than half of the rows
CACHE_POSTINGS = 4_000_000  # kept (rowid, frequency) pairs per process, about 48 MB; LRU by word
VIEW_CACHE = 32  # visible sets kept per process (principal views x index states)
# Catching up from live_log: one catch-up spans at most DELTA_ROWS log entries (more, and the
# caches read again: a bulk import is cheaper to read once than to replay); the window of rows
# touched, kept for words that lag behind, holds at most DELTA_KEEP_ROWS rows (with their text,
# in one in-memory FTS table: about 23 MB for 20,000 CUAD chunks). Tokenizing costs about
# 45 us a chunk, so the largest catch-up (5,000 rows, about 0.2 s) stays below what dropping
# the caches costs the questions after it (each word and visible set read again).
DELTA_ROWS = 5_000
DELTA_KEEP_ROWS = 20_000
_TOKENIZE = re.compile(r"tokenize\s*=\s*'([^']*)'")


def idf(rows: int, df: int) -> float:
    """FTS5's BM25 IDF of a word in ``df`` of ``rows`` chunks, floored at ``MIN_IDF`` (one
    formula for both stores: es_bm25 scores with it too)."""
    value = math.log((rows - df + 0.5) / (df + 0.5))
    return value if value > 0.0 else MIN_IDF


def fts_term(word: str) -> str:
    """``word`` as FTS5's ``unicode61 remove_diacritics 2`` indexes it: lower case, marks
    removed (the words are already casefolded :func:`query_words`)."""
    decomposed = unicodedata.normalize("NFD", word.lower())
    return unicodedata.normalize("NFC", "".join(c for c in decomposed if not unicodedata.combining(c)))


def _varints(records: bytes) -> np.ndarray:
    """The SQLite varints of the concatenated ``docsize`` records of a one-column FTS5 table:
    one varint per record, each that chunk's length in tokens. Big-endian groups of 7 bits;
    every byte but a varint's last has its high bit set, so the last bytes mark the ends."""
    raw = np.frombuffer(records, dtype=np.uint8).astype(np.int64)
    if not raw.size:
        return np.zeros(0, dtype=np.float64)
    last = raw < 0x80
    varint = np.concatenate(([0], np.cumsum(last[:-1])))  # which varint each byte belongs to
    later = np.flatnonzero(last)[varint] - np.arange(raw.size)  # bytes after it in its varint
    return np.bincount(varint, weights=(raw & 0x7F) * np.exp2(7 * later))


def _csv_ints(text: str | None) -> np.ndarray:
    """The integers of a ``group_concat`` (empty for NULL: no rows)."""
    # numpy's text parser: 30x faster than int() per item (59k items: 13 -> 0.6 ms).
    return np.fromstring(text or "", dtype=np.int64, sep=",")


@dataclass(frozen=True, slots=True)
class VisibleSet:
    """The current chunks a principal may read: rowids ascending, their lengths in tokens."""

    rowids: np.ndarray  # int64
    lengths: np.ndarray  # float64, aligned with rowids

    @property
    def rows(self) -> int:
        return int(self.rowids.size)

    @property
    def average_length(self) -> float:
        return float(self.lengths.mean()) if self.rowids.size else 0.0

    def locate(self, rowids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(positions in this set, whether each of ``rowids`` is in it)."""
        if not self.rowids.size:
            return np.zeros(rowids.size, np.int64), np.zeros(rowids.size, bool)
        pos = np.minimum(np.searchsorted(self.rowids, rowids), self.rowids.size - 1)
        return pos, self.rowids[pos] == rowids


def _touched(db: sqlite3.Connection, start: int, end: int) -> np.ndarray:
    """The rowids the ``live_log`` entries after ``start`` up to ``end`` name, sorted, unique:
    every row added to or removed from the current chunks in between."""
    return np.unique(_csv_ints(db.execute(
        "SELECT group_concat(chunk_rowid) FROM live_log WHERE seq > ? AND seq <= ?", (start, end)
    ).fetchone()[0]))


def _without(rowids: np.ndarray, touched: np.ndarray) -> np.ndarray:
    """Which of ``rowids`` (sorted) are not in ``touched`` (sorted): a mask. A binary search
    per touched row, so the cost follows the write, not the set (np.isin sorts both)."""
    keep = np.ones(rowids.size, dtype=bool)
    if rowids.size and touched.size:
        pos = np.minimum(np.searchsorted(rowids, touched), rowids.size - 1)
        keep[pos[rowids[pos] == touched]] = False
    return keep


def _merged(rowids: np.ndarray, values: np.ndarray, more_rowids: np.ndarray,
            more_values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Two (sorted rowids, values) with no rowid in common, as one sorted pair."""
    if not more_rowids.size:
        return rowids, values
    at = np.searchsorted(rowids, more_rowids)
    return np.insert(rowids, at, more_rowids), np.insert(values, at, more_values)


def _read_visible(db: sqlite3.Connection, where: str,
                  args: list[object]) -> tuple[np.ndarray, np.ndarray]:
    """(rowids ascending, lengths) of the ``live_chunks l`` rows matching ``where``."""
    # Aggregated in SQL into two strings (the rowids; the docsize records in hex) and
    # decoded by numpy: one Python object per column instead of one per row (50k rows:
    # about 95 ms as rows, 30 ms as strings).
    rowids_csv, records_hex = db.execute(
        "SELECT group_concat(l.rowid), group_concat(hex(d.sz), '') "
        f"FROM live_chunks l JOIN chunks_fts_docsize d ON d.id = l.rowid WHERE {where}",
        args,
    ).fetchone()
    rowids = _csv_ints(rowids_csv)
    lengths = _varints(bytes.fromhex(records_hex or ""))
    if lengths.size != rowids.size:  # not one varint per record: not a one-column docsize
        raise sqlite3.DatabaseError("chunks_fts_docsize holds records of an unexpected shape")
    order = np.argsort(rowids, kind="stable")  # group_concat promises no order
    return rowids[order], lengths[order]


class VisibleSets:
    """Per-process visible sets, keyed by the caller's (principal view, live head, acl_version)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._kept: OrderedDict[tuple[object, ...], VisibleSet] = OrderedDict()
        self.full_reads = 0  # sets read whole rather than brought forward (tests, benchmarks)

    def get(self, db: sqlite3.Connection, key: tuple[object, ...], acl_sql: str,
            acl_args: list[object], floor: int) -> VisibleSet:
        """``key`` is (view, live_log head, acl_version) in ``db``'s snapshot, ``floor`` the
        highest pruned log entry; ``acl_sql`` is a condition on ``live_chunks l`` (the
        principal's ACL, or "1")."""
        view, head, acl_version = key
        with self._lock:
            kept = self._kept.get(key)
            if kept is not None:
                self._kept.move_to_end(key)
                return kept
            # The newest set of this view and ACL state the log still reaches from.
            bases = [(k[1], v) for k, v in self._kept.items()
                     if k[0] == view and k[2] == acl_version and isinstance(k[1], int)
                     and floor <= k[1] < head and head - k[1] <= DELTA_ROWS]
            base = max(bases, key=lambda pair: pair[0], default=None)
        if base is None:
            self.full_reads += 1
            rowids, lengths = _read_visible(db, acl_sql, acl_args)
        else:
            # Same ACL rows, so only the rows the log touched can have come or gone: drop them,
            # then add back those the view may read now (with the same ACL condition).
            start, old = base
            touched = _touched(db, start, head)
            new_rowids, new_lengths = _read_visible(
                db, f"({acl_sql}) AND l.rowid IN "
                "(SELECT chunk_rowid FROM live_log WHERE seq > ? AND seq <= ?)",
                [*acl_args, start, head])
            keep = _without(old.rowids, touched)
            rowids, lengths = _merged(old.rowids[keep], old.lengths[keep], new_rowids, new_lengths)
        found = VisibleSet(rowids=rowids, lengths=lengths)
        with self._lock:
            self._kept[key] = found
            while len(self._kept) > VIEW_CACHE:
                self._kept.popitem(last=False)
        return found


def _index_tokenizer(db: sqlite3.Connection) -> str | None:
    """The ``tokenize`` option ``chunks_fts`` was created with (None if it cannot be read, and
    then nothing is tokenized here: a different tokenizer would give different words)."""
    row = db.execute("SELECT sql FROM sqlite_master WHERE name = 'chunks_fts'").fetchone()
    found = _TOKENIZE.search(row[0] or "") if row else None
    return found.group(1) if found else None


class _Recent:
    """Every row the log touched since ``floor`` (sorted rowids, and the head of each one's last
    touch), and the words of those current at the newest head, indexed by FTS5 with the
    store's tokenizer in a private in-memory table. One table for the whole window: a word
    ``k`` writes behind costs one lookup, not ``k``."""

    def __init__(self, tokenizer: str, floor: int) -> None:
        self.floor = floor  # words at a head below this cannot be brought forward
        self.rowids = np.zeros(0, np.int64)
        self.touched_at = np.zeros(0, np.int64)
        self.words = sqlite3.connect(":memory:", check_same_thread=False)  # under Postings' lock
        self.words.execute(f"CREATE VIRTUAL TABLE recent USING fts5(text, tokenize='{tokenizer}')")
        self.words.execute("CREATE VIRTUAL TABLE recent_instances USING fts5vocab(recent, 'instance')")

    def close(self) -> None:
        self.words.close()

    def apply(self, touched: np.ndarray, head: int, current: list[tuple[int, str]]) -> None:
        """The rows ``touched`` (sorted) were touched by the log up to ``head``; ``current`` are
        those of them current there, with their text."""
        pos = np.minimum(np.searchsorted(self.rowids, touched), max(self.rowids.size - 1, 0))
        known = (self.rowids[pos] == touched) if self.rowids.size else np.zeros(touched.size, bool)
        self.words.executemany("DELETE FROM recent WHERE rowid = ?",
                               [(int(r),) for r in touched[known]])
        self.words.executemany("INSERT INTO recent(rowid, text) VALUES (?, ?)", current)
        self.touched_at[pos[known]] = head
        fresh = touched[~known]
        at = np.searchsorted(self.rowids, fresh)
        self.rowids = np.insert(self.rowids, at, fresh)
        self.touched_at = np.insert(self.touched_at, at, np.full(fresh.size, head, np.int64))

    def shrink(self, keep: int) -> None:
        """Forget the rows touched longest ago until at most ``keep`` remain; ``floor`` moves
        to the newest head forgotten."""
        if self.rowids.size <= keep:
            return
        order = np.argsort(self.touched_at, kind="stable")
        gone = np.sort(order[: self.rowids.size - keep])
        self.floor = max(self.floor, int(self.touched_at[gone].max()))
        self.words.executemany("DELETE FROM recent WHERE rowid = ?",
                               [(int(r),) for r in self.rowids[gone]])
        self.rowids = np.delete(self.rowids, gone)
        self.touched_at = np.delete(self.touched_at, gone)

    def since(self, at: int) -> np.ndarray:
        """The rows touched after head ``at`` (sorted)."""
        return self.rowids[self.touched_at > at]

    def postings(self, term: str, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(rowids, frequencies) of ``term`` in those of ``rows`` (sorted) current now."""
        docs = _csv_ints(self.words.execute(
            "SELECT group_concat(doc) FROM recent_instances WHERE term = ?", (term,)
        ).fetchone()[0])
        found, counts = np.unique(docs, return_counts=True)
        inside = ~_without(found, rows) if rows.size else np.zeros(found.size, bool)
        return found[inside], counts[inside].astype(np.float64)


class Postings:
    """Per word: (rowids ascending, frequency of the word in each), each exact at a ``live_log``
    head for the rows current there; brought forward from the log (see the module docstring).

    An entry is stored only at ``_head``, the newest head the window of touched rows is at
    (checked under the lock), so every entry's head is at least ``_recent.floor`` or the entry
    is dropped when the floor passes it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._head = -1  # the live_log head the window is at; -1: nothing known yet
        self._words: OrderedDict[str, tuple[np.ndarray, np.ndarray]] = OrderedDict()
        self._at: dict[str, int] = {}  # the head each word's entry is exact at
        self._postings = 0
        self._recent: _Recent | None = None
        self._tokenizer: str | None = None
        self.resets = 0  # times every word was dropped (tests, benchmarks)

    def sync(self, db: sqlite3.Connection, head: int, floor: int) -> None:
        """Know the log up to ``head`` (``db``'s snapshot; ``floor``: the highest entry pruned).
        Called once per query before :meth:`get`; a snapshot older than what is known needs
        nothing (its words are read, not kept)."""
        with self._lock:
            if head <= self._head:
                return
            if self._tokenizer is None:
                self._tokenizer = _index_tokenizer(db)
            if self._head < 0 or self._head < floor or head - self._head > DELTA_ROWS \
                    or self._tokenizer is None:
                # head - start bounds the entries (seq only grows): no need to count them.
                self._reset(head, "first" if self._head < 0 else "log_pruned" if self._head < floor
                            else "delta_too_large" if self._tokenizer else "tokenizer_unknown")
                return
            touched = _touched(db, self._head, head)
            current = db.execute(
                "SELECT l.rowid, c.text FROM live_chunks l JOIN chunks c ON c.rowid = l.rowid "
                "WHERE l.rowid IN (SELECT chunk_rowid FROM live_log WHERE seq > ? AND seq <= ?)",
                (self._head, head),
            ).fetchall()
            if self._recent is None:
                self._recent = _Recent(self._tokenizer, self._head)
            try:
                self._recent.apply(touched, head, current)
            except BaseException:
                self._reset(head, "error")  # half applied: nothing kept can be trusted
                raise
            self._head = head
            self._recent.shrink(DELTA_KEEP_ROWS)
            for term in [t for t, at in self._at.items() if at < self._recent.floor]:
                self._drop(term)  # rows it would need were forgotten: read again when asked

    def _reset(self, head: int, reason: str) -> None:
        if self._head >= 0:  # not the first query of this cache: words are dropped
            structlog.get_logger(__name__).debug(
                "bm25_postings_reset", reason=reason, words=len(self._words), head=head)
        if self._recent is not None:
            self._recent.close()
            self._recent = None
        self._words.clear()
        self._at.clear()
        self._postings = 0
        self._head = head
        self.resets += 1

    def _drop(self, term: str) -> None:
        rowids, _ = self._words.pop(term)
        del self._at[term]
        self._postings -= rowids.size

    def _keep(self, term: str, entry: tuple[np.ndarray, np.ndarray]) -> None:
        """Store ``entry`` as exact at ``_head`` (the caller checked), most recently used."""
        if term in self._words:
            self._drop(term)
        self._words[term] = entry
        self._at[term] = self._head
        self._postings += entry[0].size
        while self._postings > CACHE_POSTINGS and len(self._words) > 1:
            self._drop(next(iter(self._words)))

    def _forward(self, term: str, head: int) -> tuple[np.ndarray, np.ndarray] | None:
        """The kept entry of ``term`` at ``head``: as kept, or brought forward when ``head``
        is the window's; None when neither is exact. Under the lock."""
        entry = self._words.get(term)
        if entry is None:
            return None
        at = self._at[term]
        if at == head:
            return entry
        if head != self._head or at > head or self._recent is None or at < self._recent.floor:
            return None
        # Rows touched after the entry's head: their postings then are dropped, and those
        # current now come back with their words now (the window holds every such row).
        touched = self._recent.since(at)
        rowids, freq = entry
        keep = _without(rowids, touched)
        added, counts = self._recent.postings(term, touched)
        return _merged(rowids[keep], freq[keep], added, counts)

    def get(self, db: sqlite3.Connection, head: int, word: str) -> tuple[np.ndarray, np.ndarray]:
        """``head`` is the ``live_log`` head in ``db``'s snapshot (after :meth:`sync`)."""
        term = fts_term(word)
        with self._lock:
            kept = self._forward(term, head)
            if kept is not None:
                if head == self._head:
                    if self._at[term] == head:
                        self._words.move_to_end(term)
                    else:
                        self._keep(term, kept)
                return kept
        # One row per occurrence, joined into one string in SQL and counted here: a Python
        # tuple per occurrence cost 5x more ("agreement", 59k occurrences at 50k chunks: 84 ms
        # -> 16 ms), and a GROUP BY would sort them again in a temporary b-tree.
        docs = _csv_ints(db.execute(
            "SELECT group_concat(doc) FROM chunks_fts_instances WHERE term = ?", (term,)
        ).fetchone()[0])
        rowids, counts = np.unique(docs, return_counts=True)
        entry = (rowids, counts.astype(np.float64))
        with self._lock:
            if head == self._head:  # else the cache moved on (or this snapshot is older)
                self._keep(term, entry)
        return entry


def document_frequencies(db: sqlite3.Connection, postings: Postings, head: int,
                         visible: VisibleSet, words: list[str]) -> dict[str, int]:
    """How many of the visible chunks hold each word (``head``: see :meth:`Postings.get`)."""
    out: dict[str, int] = {}
    for word in words:
        rowids, _ = postings.get(db, head, word)
        out[word] = int(np.count_nonzero(visible.locate(rowids)[1]))
    return out


def scores(db: sqlite3.Connection, postings: Postings, head: int, visible: VisibleSet,
           words: list[str], allowed: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(rowids ascending, BM25 score, higher is better) of every visible chunk holding any of
    ``words`` (and in ``allowed``, sorted rowids, when given), with the statistics of
    ``visible`` only. Per word, in the given order, as FTS5 sums an OR query's phrases."""
    n_rows = visible.rows
    average = visible.average_length
    parts: list[tuple[np.ndarray, np.ndarray]] = []
    for word in words:
        rowids, freq = postings.get(db, head, word)
        pos, seen = visible.locate(rowids)
        df = int(np.count_nonzero(seen))
        if df == 0:
            continue
        weight = idf(n_rows, df)
        rowids, freq, lengths = rowids[seen], freq[seen], visible.lengths[pos[seen]]
        if allowed is not None:
            keep = np.isin(rowids, allowed, assume_unique=True)
            rowids, freq, lengths = rowids[keep], freq[keep], lengths[keep]
        parts.append((rowids, weight * freq * (K1 + 1.0) / (freq + K1 * (1.0 - B + B * lengths / average))))
    if not parts:
        return np.zeros(0, np.int64), np.zeros(0, np.float64)
    hit_rowids = np.unique(np.concatenate([r for r, _ in parts]))
    total = np.zeros(hit_rowids.size, dtype=np.float64)
    for rowids, addend in parts:
        total[np.searchsorted(hit_rowids, rowids)] += addend
    return hit_rowids, total
