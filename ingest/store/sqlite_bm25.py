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
  reader at a newer head first turns the log entries since the cache's head into a
  :class:`_Delta`: the touched rowids, and the words of those that are current now, tokenized
  by FTS5 itself in a private in-memory table with the index's own ``tokenize`` option. A word
  is brought forward, when it is next asked for, by dropping the touched rowids and adding the
  delta's rows for it: the same arrays a read of the index would give for the current rows.
  Rows written but not current (a revision before its switch) move no head and need nothing.
  The cache starts over (every word read again) when the log was pruned past its head, when
  one delta would touch more than ``DELTA_ROWS`` rows, or when the index's tokenizer cannot be
  read from its schema; deltas are kept for lagging words up to ``DELTA_KEEP_ROWS`` touched
  rows and ``DELTA_KEEP`` deltas, and a word whose delta is gone is read again.
- :class:`VisibleSets`: per principal view (its ACL tokens, or unrestricted), the rowids of the
  current chunks it may read and their lengths in tokens (FTS5's own ``docsize`` counts), kept
  per (``live_log`` head, ``meta.acl_version``), at most ``VIEW_CACHE``. A view at an older head
  and the same ``acl_version`` is brought forward by set difference: the rows the log touched
  since are dropped, and those of them the view may read now are read with their lengths. A
  change of ``acl_version`` (any ACL row written) reads the view's set again: no log says which
  documents' ACL rows moved.

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
# Catching up from live_log: one delta touches at most DELTA_ROWS rows (more, and the caches
# read again: a bulk import is cheaper to read once than to replay); the deltas kept for words
# that lag behind hold at most DELTA_KEEP_ROWS touched rows (their in-memory FTS tables) and are
# at most DELTA_KEEP (one in-memory database each).
DELTA_ROWS = 5_000
DELTA_KEEP_ROWS = 20_000
DELTA_KEEP = 64
_TOKENIZE = re.compile(r"tokenize\s*=\s*'([^']*)'")


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


@dataclass(slots=True)
class _Delta:
    """What the ``live_log`` entries after one head up to ``end`` changed in the postings: the
    touched rowids (sorted), and the words of those current at ``end``, indexed by FTS5 with
    the store's tokenizer in a private in-memory table (``words``, contentless)."""

    end: int
    touched: np.ndarray
    words: sqlite3.Connection

    def postings(self, term: str) -> np.ndarray:
        """One rowid per occurrence of ``term`` in the delta's current rows."""
        return _csv_ints(self.words.execute(
            "SELECT group_concat(doc) FROM delta_instances WHERE term = ?", (term,)
        ).fetchone()[0])


def _index_tokenizer(db: sqlite3.Connection) -> str | None:
    """The ``tokenize`` option ``chunks_fts`` was created with (None if it cannot be read, and
    then no delta is made: a different tokenizer would give different words)."""
    row = db.execute("SELECT sql FROM sqlite_master WHERE name = 'chunks_fts'").fetchone()
    found = _TOKENIZE.search(row[0] or "") if row else None
    return found.group(1) if found else None


class Postings:
    """Per word: (rowids ascending, frequency of the word in each), each exact at a ``live_log``
    head for the rows current there; brought forward from the log (see the module docstring).

    Every entry is at ``_head`` or at the start of a kept delta: an entry is stored only at the
    head the deltas reach (checked under the lock), so the chain of deltas from an entry's head
    is complete or the entry is dropped."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._head = -1  # the live_log head the deltas reach; -1: nothing known yet
        self._words: OrderedDict[str, tuple[np.ndarray, np.ndarray]] = OrderedDict()
        self._at: dict[str, int] = {}  # the head each word's entry is exact at
        self._postings = 0
        self._deltas: OrderedDict[int, _Delta] = OrderedDict()  # by the head each starts from
        self._delta_rows = 0
        self._tokenizer: str | None = None
        self.resets = 0  # times every word was dropped (tests, benchmarks)

    def sync(self, db: sqlite3.Connection, head: int, floor: int) -> None:
        """Know the log up to ``head`` (``db``'s snapshot; ``floor``: the highest entry pruned).
        Called once per query before :meth:`get`; a snapshot older than what is known needs
        nothing (its words are read, not kept)."""
        with self._lock:
            if head <= self._head:
                return
            if self._head < 0 or self._head < floor or head - self._head > DELTA_ROWS:
                # head - start bounds the entries (seq only grows): no need to count them.
                self._reset(head, "first" if self._head < 0 else "log_pruned" if self._head < floor
                            else "delta_too_large")
                return
            if self._tokenizer is None:
                self._tokenizer = _index_tokenizer(db)
                if self._tokenizer is None:
                    self._reset(head, "tokenizer_unknown")
                    return
            delta = self._read_delta(db, self._head, head)
            self._deltas[self._head] = delta
            self._delta_rows += delta.touched.size
            self._head = head
            while self._deltas and (self._delta_rows > DELTA_KEEP_ROWS
                                    or len(self._deltas) > DELTA_KEEP):
                start, old = self._deltas.popitem(last=False)
                self._delta_rows -= old.touched.size
                old.words.close()
                for term in [t for t, at in self._at.items() if at == start]:  # cannot catch up
                    self._drop(term)

    def _read_delta(self, db: sqlite3.Connection, start: int, end: int) -> _Delta:
        touched = _touched(db, start, end)
        rows = db.execute(
            "SELECT l.rowid, c.text FROM live_chunks l JOIN chunks c ON c.rowid = l.rowid "
            "WHERE l.rowid IN (SELECT chunk_rowid FROM live_log WHERE seq > ? AND seq <= ?)",
            (start, end),
        ).fetchall()
        words = sqlite3.connect(":memory:", check_same_thread=False)  # used under self._lock
        try:
            words.execute("CREATE VIRTUAL TABLE delta USING fts5("
                          f"text, content='', tokenize='{self._tokenizer}')")
            words.execute("CREATE VIRTUAL TABLE delta_instances USING fts5vocab(delta, 'instance')")
            words.executemany("INSERT INTO delta(rowid, text) VALUES (?, ?)", rows)
        except BaseException:
            words.close()
            raise
        return _Delta(end=end, touched=touched, words=words)

    def _reset(self, head: int, reason: str) -> None:
        structlog.get_logger(__name__).debug(
            "bm25_postings_reset", reason=reason, words=len(self._words), head=head)
        for delta in self._deltas.values():
            delta.words.close()
        self._deltas.clear()
        self._words.clear()
        self._at.clear()
        self._postings = self._delta_rows = 0
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
        """The kept entry of ``term`` brought to ``head`` through the deltas, or None when the
        kept deltas do not lead exactly there. Under the lock."""
        entry = self._words.get(term)
        if entry is None:
            return None
        at = self._at[term]
        chain = []
        while at < head:
            delta = self._deltas.get(at)
            if delta is None:
                return None
            chain.append(delta)
            at = delta.end
        if at != head:
            return None
        rowids, freq = entry
        for delta in chain:
            keep = _without(rowids, delta.touched)
            added, counts = np.unique(delta.postings(term), return_counts=True)
            rowids, freq = _merged(rowids[keep], freq[keep], added, counts.astype(np.float64))
        return rowids, freq

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
