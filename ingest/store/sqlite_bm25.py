"""BM25 over what one principal may read: the embedded store's statistics per visible set.

FTS5's ``bm25()`` takes its statistics from the whole FTS index: the row count, each word's
document frequency and the average length count every chunk ever written, old revisions and
other principals' documents included. A principal's scores (and so the order of their own hits)
then moved with documents they cannot read, and a change of score told them whether someone
else's documents hold a word. Here the same formula (FTS5's: ``k1 = 1.2``, ``b = 0.75``,
``idf = ln((N - df + 0.5) / (df + 0.5))``, at least 1e-6) is computed in numpy with ``N``,
``df`` and the average length taken over the chunks the principal may read (current revisions,
ACL), so nothing outside that set changes a score.

Two per-process caches, each keyed by counters that triggers move in the writing transaction:

- :class:`Postings`: per word, the rowids of the chunks holding it and its frequency in each
  (read from the FTS index through an ``fts5vocab`` instance table), kept for one
  ``meta.terms_version`` (every chunk row written or deleted moves it), at most
  ``CACHE_POSTINGS`` pairs, least recently used word out.
- :class:`VisibleSets`: per principal view (its ACL tokens, or unrestricted), the rowids of the
  current chunks it may read and their lengths in tokens (FTS5's own ``docsize`` counts), kept
  for one (``live_log`` head, ``meta.acl_version``): the head moves with every current row
  added or removed, the version with every ACL row. At most ``VIEW_CACHE`` views.

The decision of what is visible stays SQL's: a kept set is exactly what the snapshot's ACL query
answers, because its key is read in the same snapshot.
"""

from __future__ import annotations

import math
import sqlite3
import threading
import unicodedata
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np

K1 = 1.2  # FTS5's bm25() constants, so scores keep their scale
B = 0.75
MIN_IDF = 1e-6  # FTS5's floor for a word in more than half of the rows
CACHE_POSTINGS = 4_000_000  # kept (rowid, frequency) pairs per process, about 48 MB; LRU by word
VIEW_CACHE = 32  # visible sets kept per process (principal views x index states)


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


class VisibleSets:
    """Per-process visible sets, keyed by the caller's (principal view, live head, acl_version)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._kept: OrderedDict[tuple[object, ...], VisibleSet] = OrderedDict()

    def get(self, db: sqlite3.Connection, key: tuple[object, ...], acl_sql: str,
            acl_args: list[object]) -> VisibleSet:
        """``acl_sql`` is a condition on ``live_chunks l`` (the principal's ACL, or "1")."""
        with self._lock:
            kept = self._kept.get(key)
            if kept is not None:
                self._kept.move_to_end(key)
                return kept
        # Aggregated in SQL into two strings (the rowids; the docsize records in hex) and
        # decoded by numpy: one Python object per column instead of one per row (50k rows:
        # about 95 ms as rows, 30 ms as strings).
        rowids_csv, records_hex = db.execute(
            "SELECT group_concat(l.rowid), group_concat(hex(d.sz), '') "
            f"FROM live_chunks l JOIN chunks_fts_docsize d ON d.id = l.rowid WHERE {acl_sql}",
            acl_args,
        ).fetchone()
        rowids = _csv_ints(rowids_csv)
        lengths = _varints(bytes.fromhex(records_hex or ""))
        if lengths.size != rowids.size:  # not one varint per record: not a one-column docsize
            raise sqlite3.DatabaseError("chunks_fts_docsize holds records of an unexpected shape")
        order = np.argsort(rowids, kind="stable")  # group_concat promises no order
        found = VisibleSet(rowids=rowids[order], lengths=lengths[order])
        with self._lock:
            self._kept[key] = found
            while len(self._kept) > VIEW_CACHE:
                self._kept.popitem(last=False)
        return found


class Postings:
    """Per word: (rowids ascending, frequency of the word in each), for one terms_version."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._version = -1
        self._words: OrderedDict[str, tuple[np.ndarray, np.ndarray]] = OrderedDict()
        self._postings = 0

    def get(self, db: sqlite3.Connection, version: int, word: str) -> tuple[np.ndarray, np.ndarray]:
        """``version`` is ``meta.terms_version`` in ``db``'s snapshot."""
        term = fts_term(word)
        with self._lock:
            if version == self._version:
                kept = self._words.get(term)
                if kept is not None:
                    self._words.move_to_end(term)
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
            if version > self._version:  # the index moved on: start over
                self._version, self._postings = version, 0
                self._words.clear()
            if version == self._version and term not in self._words:
                self._words[term] = entry
                self._postings += rowids.size
                while self._postings > CACHE_POSTINGS and len(self._words) > 1:
                    _, (old, _) = self._words.popitem(last=False)
                    self._postings -= old.size
        return entry


def document_frequencies(db: sqlite3.Connection, postings: Postings, version: int,
                         visible: VisibleSet, words: list[str]) -> dict[str, int]:
    """How many of the visible chunks hold each word."""
    out: dict[str, int] = {}
    for word in words:
        rowids, _ = postings.get(db, version, word)
        out[word] = int(np.count_nonzero(visible.locate(rowids)[1]))
    return out


def scores(db: sqlite3.Connection, postings: Postings, version: int, visible: VisibleSet,
           words: list[str], allowed: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(rowids ascending, BM25 score, higher is better) of every visible chunk holding any of
    ``words`` (and in ``allowed``, sorted rowids, when given), with the statistics of
    ``visible`` only. Per word, in the given order, as FTS5 sums an OR query's phrases."""
    n_rows = visible.rows
    average = visible.average_length
    parts: list[tuple[np.ndarray, np.ndarray]] = []
    for word in words:
        rowids, freq = postings.get(db, version, word)
        pos, seen = visible.locate(rowids)
        df = int(np.count_nonzero(seen))
        if df == 0:
            continue
        idf = math.log((n_rows - df + 0.5) / (df + 0.5))
        idf = idf if idf > 0.0 else MIN_IDF
        rowids, freq, lengths = rowids[seen], freq[seen], visible.lengths[pos[seen]]
        if allowed is not None:
            keep = np.isin(rowids, allowed, assume_unique=True)
            rowids, freq, lengths = rowids[keep], freq[keep], lengths[keep]
        parts.append((rowids, idf * freq * (K1 + 1.0) / (freq + K1 * (1.0 - B + B * lengths / average))))
    if not parts:
        return np.zeros(0, np.int64), np.zeros(0, np.float64)
    hit_rowids = np.unique(np.concatenate([r for r, _ in parts]))
    total = np.zeros(hit_rowids.size, dtype=np.float64)
    for rowids, addend in parts:
        total[np.searchsorted(hit_rowids, rowids)] += addend
    return hit_rowids, total
