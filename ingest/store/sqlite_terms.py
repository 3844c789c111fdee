"""FTS5's BM25 for an OR of words, assembled from per-word scores kept per process.

FTS5's ``bm25()`` of an OR query is, per chunk, ``-(c_1 + c_2 + ...)`` summed in phrase order
from 0.0, where ``c_i`` depends only on word i (its IDF over the whole index, its frequency in
the chunk, the chunk's length against the average), and a word absent from the chunk adds
exactly 0.0. A one-word query returns ``-c_i`` for every chunk holding the word. So summing the
one-word scores in the same order, in float64 like FTS5, gives the OR query's scores bit for bit,
and each word's scores can be kept and reused by every query that has the word, until the index
changes: every chunk row written or deleted moves ``meta.terms_version`` in its own transaction
(FTS5's statistics change with it), and a new version starts the cache over.

What this saves is FTS5 scoring the same posting lists again for every question: CUAD questions
share most of their words. Reading a word's whole posting list into Python costs more than FTS5
ranking it inside the OR query, so a query with a word not kept yet runs FTS5's OR query as
before and leaves the missing words to be read by a helper thread, off the query's path.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections import OrderedDict

import numpy as np

CACHE_POSTINGS = 4_000_000  # kept (rowid, score) pairs per process, about 64 MB; LRU by word
# Words are read only once the index has kept one terms_version this long: during continuous
# ingestion every chunk write starts the cache over, and reading would be work thrown away.
QUIET_SECONDS = 2.0
FILL_BATCH = 512  # rows the helper reads between two yields of the GIL


class TermScores:
    """Per word: the rowids of the chunks holding it and ``bm25()`` of the one-word query."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._version = -1
        self._words: OrderedDict[str, tuple[np.ndarray, np.ndarray]] = OrderedDict()
        self._postings = 0
        self._newest_seen = (-1, 0.0)  # (terms_version, monotonic time it was first seen)

    def settled(self, version: int) -> bool:
        """Whether ``version`` has been the newest seen for ``QUIET_SECONDS``."""
        now = time.monotonic()
        with self._lock:
            if version > self._newest_seen[0]:
                self._newest_seen = (version, now)
            return version == self._newest_seen[0] and now - self._newest_seen[1] >= QUIET_SECONDS

    def missing(self, version: int, words: list[str]) -> list[str]:
        """The words whose scores are not kept for ``version``."""
        with self._lock:
            if version != self._version:
                return list(words)
            return [w for w in words if w not in self._words]

    def fill(self, db: sqlite3.Connection, words: list[str]) -> None:
        """Read and keep the scores of ``words`` (a helper thread; ``db`` in a read transaction).
        It yields the GIL between batches of rows, so that queries of other threads wait for
        it as little as possible."""
        version = int(db.execute("SELECT value FROM meta WHERE key = 'terms_version'").fetchone()[0])
        for word in self.missing(version, words):
            self._word(db, version, word, batch=FILL_BATCH)
            time.sleep(0)

    def ranked(self, db: sqlite3.Connection, version: int, words: list[str]) -> tuple[np.ndarray, np.ndarray]:
        """(rowids, ranks) of every chunk matching any of ``words``, rank as FTS5's ``bm25()``
        of ``"w1" OR "w2" ...`` in this order (lower is better), rowids ascending. ``version``
        is ``meta.terms_version`` in ``db``'s snapshot."""
        per_word = [self._word(db, version, w) for w in words]
        rowids = np.unique(np.concatenate([r for r, _ in per_word])) if per_word else np.zeros(0, np.int64)
        total = np.zeros(rowids.size, dtype=np.float64)
        for word_rowids, scores in per_word:  # phrase order, as FTS5 sums
            total[np.searchsorted(rowids, word_rowids)] += scores
        return rowids, -total

    def _word(self, db: sqlite3.Connection, version: int, word: str, batch: int = 0) -> tuple[np.ndarray, np.ndarray]:
        with self._lock:
            if version == self._version:
                kept = self._words.get(word)
                if kept is not None:
                    self._words.move_to_end(word)
                    return kept
        cursor = db.execute(
            "SELECT rowid, bm25(chunks_fts) FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY rowid",
            (f'"{word}"',),
        )
        if batch:
            rows = []
            while part := cursor.fetchmany(batch):
                rows.extend(part)
                time.sleep(0)  # let a waiting query thread take the GIL
        else:
            rows = cursor.fetchall()
        rowids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
        # bm25() is -c: keep c, the word's addition to an OR query's sum.
        scores = -np.fromiter((r[1] for r in rows), dtype=np.float64, count=len(rows))
        with self._lock:
            if version > self._version:  # the index moved on: start over
                self._version, self._postings = version, 0
                self._words.clear()
            if version == self._version and word not in self._words:
                self._words[word] = (rowids, scores)
                self._postings += rowids.size
                while self._postings > CACHE_POSTINGS and len(self._words) > 1:
                    _, (old, _) = self._words.popitem(last=False)
                    self._postings -= old.size
        return rowids, scores
