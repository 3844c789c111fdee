"""Durable storage of sweep runs: a small port and one adapter per store backend.

Kept apart from the document store (``ingest/store``): sweep runs are the query side's records,
and the document store's classes stay as they are. ``open_run_store(store)`` picks the adapter
that matches the document store, so runs live next to the documents they cite:

* SQLite: tables ``sweep_runs`` and ``sweep_baselines`` in the same database file, on their own
  connection (WAL mode, so they never block the document store's readers);
* Elasticsearch: the index ``{prefix}-sweep-runs-v1`` behind the alias ``{prefix}-sweep-runs``
  (mapping in ``service/sweeps/data/``); the baseline pointer is a document of that index.

A run record is a JSON object with at least ``sweep``, ``run_id`` and ``started_at``; the
``summary`` is what run listings show.
"""

from __future__ import annotations

import json
import sqlite3
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Protocol

from ingest.sqlite_db import ThreadConnections, immediate, set_up_schema
from ingest.store.elastic import _translated as _es_translated
from ingest.store.port import Store, StoreError, StoreUnavailable
from ingest.store.sqlite import _translated as _sqlite_translated

MAX_LIST = 200


class SweepRunStore(Protocol):
    def save_run(self, record: dict[str, Any], summary: dict[str, Any]) -> None:
        """Store a finished run (idempotent per ``(sweep, run_id)``); visible to reads on return."""

    def get_run(self, sweep: str, run_id: str) -> dict[str, Any] | None:
        """The full record, or None."""

    def list_runs(self, sweep: str, *, offset: int = 0, limit: int = 50) -> tuple[list[dict[str, Any]], int]:
        """Summaries, newest first (``started_at`` then ``run_id``, both descending), and the total."""

    def baseline_run_id(self, sweep: str) -> str | None: ...

    def set_baseline(self, sweep: str, run_id: str) -> None: ...

    def close(self) -> None: ...


_SQLITE_SCHEMA = """
CREATE TABLE IF NOT EXISTS sweep_runs (
    sweep TEXT NOT NULL,
    run_id TEXT NOT NULL,
    started_at TEXT NOT NULL,
    summary TEXT NOT NULL,
    record TEXT NOT NULL,
    PRIMARY KEY (sweep, run_id)
);
CREATE INDEX IF NOT EXISTS sweep_runs_order ON sweep_runs(sweep, started_at, run_id);
CREATE TABLE IF NOT EXISTS sweep_baselines (sweep TEXT PRIMARY KEY, run_id TEXT NOT NULL);
"""


@_sqlite_translated  # sqlite3 errors become StoreUnavailable (503) / StoreCorrupt, as in the store
class SqliteRunStore:
    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self._connections = ThreadConnections(self.path)
        set_up_schema(self._db(), _SQLITE_SCHEMA)

    def _db(self) -> sqlite3.Connection:
        return self._connections.get()

    def save_run(self, record: dict[str, Any], summary: dict[str, Any]) -> None:
        with immediate(self._db()) as db:
            db.execute(
                "INSERT OR REPLACE INTO sweep_runs(sweep, run_id, started_at, summary, record) "
                "VALUES (?,?,?,?,?)",
                (record["sweep"], record["run_id"], record["started_at"],
                 json.dumps(summary, sort_keys=True), json.dumps(record, sort_keys=True)),
            )

    def get_run(self, sweep: str, run_id: str) -> dict[str, Any] | None:
        row = self._db().execute(
            "SELECT record FROM sweep_runs WHERE sweep=? AND run_id=?", (sweep, run_id)
        ).fetchone()
        return json.loads(row["record"]) if row else None

    def list_runs(self, sweep: str, *, offset: int = 0, limit: int = 50) -> tuple[list[dict[str, Any]], int]:
        limit = max(0, min(limit, MAX_LIST))
        db = self._db()
        total = db.execute("SELECT COUNT(*) FROM sweep_runs WHERE sweep=?", (sweep,)).fetchone()[0]
        rows = db.execute(
            "SELECT summary FROM sweep_runs WHERE sweep=? ORDER BY started_at DESC, run_id DESC "
            "LIMIT ? OFFSET ?",
            (sweep, limit, offset),
        ).fetchall()
        return [json.loads(r["summary"]) for r in rows], int(total)

    def baseline_run_id(self, sweep: str) -> str | None:
        row = self._db().execute("SELECT run_id FROM sweep_baselines WHERE sweep=?", (sweep,)).fetchone()
        return row["run_id"] if row else None

    def set_baseline(self, sweep: str, run_id: str) -> None:
        self._db().execute(
            "INSERT INTO sweep_baselines(sweep, run_id) VALUES (?, ?) "
            "ON CONFLICT(sweep) DO UPDATE SET run_id=excluded.run_id",
            (sweep, run_id),
        )

    def close(self) -> None:
        self._connections.close()


@lru_cache(maxsize=1)
def _es_index_body() -> dict[str, Any]:
    text = resources.files("service.sweeps").joinpath("data/sweep_runs.v1.json").read_text("utf-8")
    return json.loads(text)


@_es_translated  # no connection, 429, 5xx: StoreUnavailable (503), as in the document store
class ElasticRunStore:
    """Runs as documents ``run:<sweep>:<run_id>``; baselines as ``baseline:<sweep>``."""

    VERSION = 1

    def __init__(self, client: Any, prefix: str, url: str = "") -> None:
        self.es = client
        self.url = url  # named in StoreUnavailable messages
        self.alias = f"{prefix}-sweep-runs"
        self.index = f"{self.alias}-v{self.VERSION}"
        self._ready = False

    def _ensure(self) -> None:
        if self._ready:
            return
        from elasticsearch import BadRequestError

        body = _es_index_body()
        try:
            self.es.indices.create(
                index=self.index, settings=body["settings"], mappings=body["mappings"],
                aliases={self.alias: {"is_write_index": True}}, wait_for_active_shards="1",
            )
        except BadRequestError as exc:
            if exc.error != "resource_already_exists_exception":
                raise StoreError(f"cannot create index {self.index}: {exc}") from exc
        self._ready = True

    def save_run(self, record: dict[str, Any], summary: dict[str, Any]) -> None:
        self._ensure()
        self.es.index(
            index=self.alias,
            id=f"run:{record['sweep']}:{record['run_id']}",
            document={"kind": "run", "sweep": record["sweep"], "run_id": record["run_id"],
                      "started_at": record["started_at"], "summary": summary, "record": record},
            refresh=True,
        )

    def get_run(self, sweep: str, run_id: str) -> dict[str, Any] | None:
        from elasticsearch import NotFoundError

        self._ensure()
        try:
            doc = self.es.get(index=self.alias, id=f"run:{sweep}:{run_id}", source=["record"])
        except NotFoundError:
            return None
        return doc["_source"]["record"]

    def list_runs(self, sweep: str, *, offset: int = 0, limit: int = 50) -> tuple[list[dict[str, Any]], int]:
        self._ensure()
        limit = max(0, min(limit, MAX_LIST))
        if offset + limit > 10000:
            raise StoreError("sweep run listings go back at most 10000 runs")
        body = self.es.search(
            index=self.alias,
            query={"bool": {"filter": [{"term": {"kind": "run"}}, {"term": {"sweep": sweep}}]}},
            sort=[{"started_at": "desc"}, {"run_id": "desc"}],
            from_=offset, size=limit, source=["summary"], track_total_hits=True,
        ).body
        return [h["_source"]["summary"] for h in body["hits"]["hits"]], int(body["hits"]["total"]["value"])

    def baseline_run_id(self, sweep: str) -> str | None:
        from elasticsearch import NotFoundError

        self._ensure()
        try:
            doc = self.es.get(index=self.alias, id=f"baseline:{sweep}", source=["run_id"])
        except NotFoundError:
            return None
        return doc["_source"]["run_id"]

    def set_baseline(self, sweep: str, run_id: str) -> None:
        self._ensure()
        self.es.index(
            index=self.alias, id=f"baseline:{sweep}",
            document={"kind": "baseline", "sweep": sweep, "run_id": run_id}, refresh=True,
        )

    def drop(self) -> None:
        """Delete the index (tests and resets)."""
        self.es.indices.delete(index=self.index, ignore_unavailable=True)
        self._ready = False

    def close(self) -> None:
        """The client belongs to the document store, which closes it."""


def open_run_store(store: Store) -> SweepRunStore:
    """The run store that matches the document store's backend."""
    from ingest.store.sqlite import SqliteStore

    if isinstance(store, SqliteStore):
        try:
            return SqliteRunStore(store.path)
        except sqlite3.OperationalError as exc:  # the schema script runs outside the wrappers
            raise StoreUnavailable(f"the SQLite store is unavailable: {exc}") from exc
    from ingest.store.elastic import ElasticStore

    if isinstance(store, ElasticStore):
        return ElasticRunStore(store.es, store.prefix, store.url)
    raise StoreError(f"sweep runs cannot be stored on {type(store).__name__}")
