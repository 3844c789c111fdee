"""The embedded store's registry read cache: decoded ``subjects.record`` rows.

``SqliteStore.find_subjects`` selects the keys of the rows a principal may see in SQL (current
revision and ACL, in the query, every call) and asks this cache for their records, so each
record's JSON is decoded once per **registry generation** instead of once per look-up. The
generation is a ``meta`` counter that triggers move in the same transaction as every write that
can change a registry answer (``sqlite.py``'s schema); the caller reads it in the same snapshot
as the keys. The cache decides nothing about visibility: a record is only ever returned for a
key that the caller's own query selected.

Restoring an older copy of the database file in place, under a running process, is not supported
(as for the kNN matrix): the counter could come back to a value this cache has seen.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections import OrderedDict
from typing import Sequence

from ingest.schema import SubjectRecord
from ingest.store.common import subject_kwargs

REGISTRY_CACHE_RECORDS = 50_000  # decoded records kept per store, least recently used out
_BATCH = 300  # keys per SELECT of missing records (3 parameters each)

Key = tuple[str, str, str]  # (doc_id, revision, subject_id): the subjects table's primary key


class RecordCache:
    """Decoded subject records of one registry generation, thread-safe and bounded. Records are
    shared between callers: read-only (``merge_subject_records`` copies what it changes)."""

    def __init__(self, size: int = REGISTRY_CACHE_RECORDS) -> None:
        self.size = size
        self._generation = -1
        self._records: OrderedDict[Key, SubjectRecord] = OrderedDict()
        self._lock = threading.Lock()

    def records(self, db: sqlite3.Connection, generation: int, keys: Sequence[Key]) -> list[SubjectRecord]:
        """The records of ``keys``, in their order: rows the caller selected in the snapshot it
        read ``generation`` in (and still holds), decoded from ``db`` when not kept."""
        found: dict[Key, SubjectRecord] = {}
        with self._lock:
            if self._generation == generation:
                for key in keys:
                    record = self._records.get(key)
                    if record is not None:
                        self._records.move_to_end(key)
                        found[key] = record
        missing = sorted({key for key in keys if key not in found})
        decoded: dict[Key, SubjectRecord] = {}
        for start in range(0, len(missing), _BATCH):
            batch = missing[start : start + _BATCH]
            rows = db.execute(
                "SELECT doc_id, revision, subject_id, record FROM subjects "
                f"WHERE (doc_id, revision, subject_id) IN (VALUES {','.join(['(?,?,?)'] * len(batch))})",
                [part for key in batch for part in key],
            ).fetchall()
            for doc_id, revision, subject_id, record in rows:
                decoded[(doc_id, revision, subject_id)] = SubjectRecord(**subject_kwargs(json.loads(record)))
        if decoded:
            with self._lock:
                if self._generation < generation:  # the registry moved on: start again
                    self._generation = generation
                    self._records.clear()
                if self._generation == generation:  # (records read in an older snapshot are not kept)
                    self._records.update(decoded)
                    while len(self._records) > self.size:
                        self._records.popitem(last=False)
        found.update(decoded)
        return [found[key] for key in keys if key in found]
