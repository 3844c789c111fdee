"""The embedded store: one SQLite file in WAL mode, BM25 over the FTS5 index with each
principal's own statistics (``sqlite_bm25.py``), and exact kNN in numpy.

Visibility is decided in SQL: a chunk is searchable when its revision is the document's
``current_revision`` and one of the document's ACL tokens belongs to the principal. Switching a
revision is one UPDATE, so a revision is wholly visible or not at all. kNN scores the candidate
rows in numpy (exact, and faster than an ANN index at the tens-of-thousands scale measured in
``bench/search.py``); the vector matrix is cached per process and kept in step with the
store's writes incrementally (``sqlite_vectors.py``).
"""

from __future__ import annotations

import functools
import json
import sqlite3
import threading
import uuid
from collections import OrderedDict
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import asdict
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence

import numpy as np
import structlog

from ingest.clock import utc_now
from ingest.deadline import deadline_error, deadline_passed
from ingest.sqlite_db import connect, immediate, set_up_schema
from ingest.schema import Chunk, DocumentRecord, RevisionInfo, Subject, SubjectRecord
from ingest.statuses import RevisionStatus
from ingest.store.sqlite_audit import AuditGroupCommit
from ingest.store.sqlite_registry import RecordCache
# Backend-neutral helpers, shared with the Elasticsearch adapter.
from ingest.store.common import (
    merge_subject_records,
    name_key,
    query_words,
    role_key,
    translate_errors,
)
from ingest.store.port import (
    AuditQuery,
    DocumentDeleted,
    DocumentNotFound,
    EmbeddingModelMismatch,
    ImportItem,
    Principal,
    RankedId,
    SearchFilters,
    StoreCorrupt,
    StoreError,
    StoreUnavailable,
    import_batches,
)
from ingest.store.sqlite_bm25 import Postings, VisibleSet, VisibleSets, document_frequencies
from ingest.store.sqlite_bm25 import scores as bm25_scores
from ingest.store.sqlite_vectors import (
    VectorMatrix,
    VectorView,
    log_position,
    prune_log,
    single_threaded_blas,
)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS documents (
    doc_id TEXT PRIMARY KEY,
    status TEXT NOT NULL,
    stage TEXT,
    error TEXT,
    current_revision TEXT,
    title TEXT NOT NULL DEFAULT '',
    filename TEXT NOT NULL DEFAULT '',
    collection TEXT NOT NULL DEFAULT '',
    metadata TEXT NOT NULL DEFAULT '{}',
    updated_at TEXT NOT NULL,
    incarnation TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS document_acl (
    doc_id TEXT NOT NULL REFERENCES documents(doc_id) ON DELETE CASCADE,
    token TEXT NOT NULL,
    PRIMARY KEY (doc_id, token)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS document_acl_token ON document_acl(token, doc_id);
CREATE TABLE IF NOT EXISTS revisions (
    doc_id TEXT NOT NULL,
    revision TEXT NOT NULL,
    filename TEXT NOT NULL,
    mime TEXT NOT NULL,
    size INTEGER NOT NULL,
    status TEXT NOT NULL,
    created_at TEXT NOT NULL,
    n_chunks INTEGER NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (doc_id, revision)
);
CREATE TABLE IF NOT EXISTS chunks (
    rowid INTEGER PRIMARY KEY,
    chunk_id TEXT NOT NULL UNIQUE,
    doc_id TEXT NOT NULL,
    revision TEXT NOT NULL,
    ordinal INTEGER NOT NULL,
    text TEXT NOT NULL,
    record TEXT NOT NULL,
    embedding BLOB,
    unit_vectors BLOB
);
CREATE INDEX IF NOT EXISTS chunks_revision ON chunks(doc_id, revision, ordinal);
CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts USING fts5(
    text, content='chunks', content_rowid='rowid', tokenize='unicode61 remove_diacritics 2'
);
CREATE TRIGGER IF NOT EXISTS chunks_fts_insert AFTER INSERT ON chunks BEGIN
    INSERT INTO chunks_fts(rowid, text) VALUES (new.rowid, new.text);
END;
CREATE TRIGGER IF NOT EXISTS chunks_fts_delete AFTER DELETE ON chunks BEGIN
    INSERT INTO chunks_fts(chunks_fts, rowid, text) VALUES ('delete', old.rowid, old.text);
END;
CREATE TABLE IF NOT EXISTS chunk_entities (
    entity_id TEXT NOT NULL,
    chunk_rowid INTEGER NOT NULL REFERENCES chunks(rowid) ON DELETE CASCADE,
    PRIMARY KEY (entity_id, chunk_rowid)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS chunk_entities_chunk ON chunk_entities(chunk_rowid);
CREATE TABLE IF NOT EXISTS chunk_relations (
    relation_key TEXT NOT NULL,
    chunk_rowid INTEGER NOT NULL REFERENCES chunks(rowid) ON DELETE CASCADE,
    PRIMARY KEY (relation_key, chunk_rowid)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS chunk_relations_chunk ON chunk_relations(chunk_rowid);
CREATE TABLE IF NOT EXISTS subjects (
    doc_id TEXT NOT NULL,
    revision TEXT NOT NULL,
    subject_id TEXT NOT NULL,
    name TEXT NOT NULL,
    type TEXT NOT NULL,
    record TEXT NOT NULL,
    PRIMARY KEY (doc_id, revision, subject_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS subjects_id ON subjects(subject_id);
CREATE INDEX IF NOT EXISTS subjects_type ON subjects(type);
CREATE TABLE IF NOT EXISTS subject_names (
    name_norm TEXT NOT NULL,
    subject_id TEXT NOT NULL,
    doc_id TEXT NOT NULL,
    revision TEXT NOT NULL,
    PRIMARY KEY (name_norm, subject_id, doc_id, revision)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS subject_names_doc ON subject_names(doc_id, revision);
CREATE TABLE IF NOT EXISTS bindings (
    subject_id TEXT NOT NULL,
    relation TEXT NOT NULL,
    object_id TEXT NOT NULL,
    object_name TEXT NOT NULL,
    role TEXT,
    role_norm TEXT,
    doc_id TEXT NOT NULL,
    revision TEXT NOT NULL,
    char_start INTEGER NOT NULL,
    char_end INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS bindings_subject ON bindings(subject_id);
CREATE INDEX IF NOT EXISTS bindings_object ON bindings(object_id, relation);
CREATE INDEX IF NOT EXISTS bindings_doc ON bindings(doc_id, revision);
CREATE TABLE IF NOT EXISTS audit (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    at TEXT NOT NULL,
    request_id TEXT NOT NULL,
    principal TEXT NOT NULL,
    action TEXT NOT NULL,
    entry TEXT NOT NULL,
    hash TEXT
);
CREATE INDEX IF NOT EXISTS audit_request ON audit(request_id);
CREATE INDEX IF NOT EXISTS audit_principal ON audit(principal, at);
-- Visibility, denormalised: one small row per chunk of a document's current revision. Triggers
-- keep it equal to "chunks JOIN documents ON current_revision" in the SAME transaction as the
-- write that changes either side (the revision switch is still one UPDATE of documents), so
-- searches read visibility from a narrow table instead of joining wide chunk rows.
CREATE TABLE IF NOT EXISTS live_chunks (
    rowid INTEGER PRIMARY KEY,
    doc_id TEXT NOT NULL,
    chunk_id TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS live_chunks_doc ON live_chunks(doc_id);
CREATE TRIGGER IF NOT EXISTS live_chunks_switch AFTER UPDATE OF current_revision ON documents
BEGIN
    DELETE FROM live_chunks WHERE doc_id = new.doc_id;
    INSERT INTO live_chunks(rowid, doc_id, chunk_id)
        SELECT rowid, doc_id, chunk_id FROM chunks
        WHERE doc_id = new.doc_id AND revision = new.current_revision;
END;
CREATE TRIGGER IF NOT EXISTS live_chunks_new_document AFTER INSERT ON documents
WHEN new.current_revision IS NOT NULL BEGIN
    INSERT OR REPLACE INTO live_chunks(rowid, doc_id, chunk_id)
        SELECT rowid, doc_id, chunk_id FROM chunks
        WHERE doc_id = new.doc_id AND revision = new.current_revision;
END;
CREATE TRIGGER IF NOT EXISTS live_chunks_gone_document AFTER DELETE ON documents BEGIN
    DELETE FROM live_chunks WHERE doc_id = old.doc_id;
END;
CREATE TRIGGER IF NOT EXISTS live_chunks_new_chunk AFTER INSERT ON chunks
WHEN EXISTS (SELECT 1 FROM documents d WHERE d.doc_id = new.doc_id
             AND d.current_revision = new.revision) BEGIN
    INSERT OR REPLACE INTO live_chunks(rowid, doc_id, chunk_id)
        VALUES (new.rowid, new.doc_id, new.chunk_id);
END;
CREATE TRIGGER IF NOT EXISTS live_chunks_gone_chunk AFTER DELETE ON chunks BEGIN
    DELETE FROM live_chunks WHERE rowid = old.rowid;
END;
-- Every change of live_chunks, in commit order: the rowid a write added or removed. The kNN
-- matrix catches up from it instead of reading every vector again (see sqlite_vectors.py);
-- pruned to the newest entries by activate_revision and delete_document.
CREATE TABLE IF NOT EXISTS live_log (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    chunk_rowid INTEGER NOT NULL
);
CREATE TRIGGER IF NOT EXISTS live_log_added AFTER INSERT ON live_chunks BEGIN
    INSERT INTO live_log(chunk_rowid) VALUES (new.rowid);
END;
CREATE TRIGGER IF NOT EXISTS live_log_removed AFTER DELETE ON live_chunks BEGIN
    INSERT INTO live_log(chunk_rowid) VALUES (old.rowid);
END;
-- Document frequencies of the FTS terms (kept for files and tools that read it).
CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts_vocab USING fts5vocab(chunks_fts, 'row');
-- Each word's chunks and frequencies, for BM25 over a principal's visible chunks (sqlite_bm25.py).
CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts_instances USING fts5vocab(chunks_fts, 'instance');
CREATE TRIGGER IF NOT EXISTS audit_no_update BEFORE UPDATE ON audit BEGIN
    SELECT RAISE(ABORT, 'audit log is append-only');
END;
CREATE TRIGGER IF NOT EXISTS audit_no_delete BEFORE DELETE ON audit BEGIN
    SELECT RAISE(ABORT, 'audit log is append-only');
END;
"""

# Version counters for the per-process caches, each bumped by triggers in the SAME transaction as
# the write that changes what the cache holds (a cache keyed by the old value is then stale):
# - registry_generation: every write that can change what find_subjects returns to anyone (a
#   subject row, a document's existence or current revision, an ACL token); the decoded subject
#   records of sqlite_registry.py;
# - acl_version: every ACL row written or removed; kNN's per-principal row masks;
# - terms_version: every chunk row written or removed, i.e. every change of FTS5's statistics
#   (BM25's postings follow live_log since they catch up incrementally: sqlite_bm25.py; the
#   counter stays for files and tools that read it);
# - visible_acl_version: every ACL row written or removed of a document that has current chunks,
#   i.e. every change of who may read a current row; BM25's visible sets (sqlite_bm25.py). A new
#   document's ACL rows, written before its revision is current, do not move it: its rows reach
#   the sets through live_log, read with the ACL of that moment.
_COUNTER_TRIGGERS: tuple[tuple[str, str, str], ...] = (
    ("registry_generation", "registry_generation_subject_insert", "AFTER INSERT ON subjects"),
    ("registry_generation", "registry_generation_subject_update", "AFTER UPDATE ON subjects"),
    ("registry_generation", "registry_generation_subject_delete", "AFTER DELETE ON subjects"),
    ("registry_generation", "registry_generation_document_insert", "AFTER INSERT ON documents"),
    ("registry_generation", "registry_generation_document_switch",
     "AFTER UPDATE OF doc_id, current_revision ON documents"),
    ("registry_generation", "registry_generation_document_delete", "AFTER DELETE ON documents"),
    ("registry_generation", "registry_generation_acl_insert", "AFTER INSERT ON document_acl"),
    ("registry_generation", "registry_generation_acl_update", "AFTER UPDATE ON document_acl"),
    ("registry_generation", "registry_generation_acl_delete", "AFTER DELETE ON document_acl"),
    ("acl_version", "acl_version_added", "AFTER INSERT ON document_acl"),
    ("acl_version", "acl_version_removed", "AFTER DELETE ON document_acl"),
    ("terms_version", "terms_version_added", "AFTER INSERT ON chunks"),
    ("terms_version", "terms_version_removed", "AFTER DELETE ON chunks"),
    ("visible_acl_version", "visible_acl_version_added",
     "AFTER INSERT ON document_acl WHEN EXISTS (SELECT 1 FROM live_chunks WHERE doc_id = new.doc_id)"),
    ("visible_acl_version", "visible_acl_version_removed",
     "AFTER DELETE ON document_acl WHEN EXISTS (SELECT 1 FROM live_chunks WHERE doc_id = old.doc_id)"),
    ("visible_acl_version", "visible_acl_version_changed", "AFTER UPDATE ON document_acl"),
)


def _counters_sql() -> str:
    """Each counter's row (a file from before the counters starts at 0, which differs from any
    cache's initial -1) and its triggers; names unchanged, so existing files keep theirs."""
    rows = [f"INSERT OR IGNORE INTO meta(key, value) VALUES ('{c}', '0');"
            for c in dict.fromkeys(counter for counter, _, _ in _COUNTER_TRIGGERS)]
    triggers = [
        f"CREATE TRIGGER IF NOT EXISTS {name} {event} BEGIN\n"
        f"    UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = '{counter}';\nEND;"
        for counter, name, event in _COUNTER_TRIGGERS
    ]
    return "\n".join(rows + triggers) + "\n"


def _stored_metadata(doc_id: str, raw: str) -> dict[str, Any]:
    """A stored metadata object; one unreadable record must never break a listing."""
    try:
        value = json.loads(raw)
    except (ValueError, RecursionError) as exc:
        structlog.get_logger(__name__).error(
            "stored_metadata_unreadable", doc_id=doc_id, error_type=type(exc).__name__
        )
        return {}
    return value if isinstance(value, dict) else {}


# Long queries (more than BM25_MAX_TERMS words) without a doc filter are pruned: words found in
# more than BM25_MAX_DF_SHARE of the principal's visible chunks are dropped (the IDF gives them
# next to nothing, yet their posting lists are most of the work: CUAD questions OR-matched 54 %
# of a 50k-chunk index), then the BM25_MAX_TERMS rarest words are kept (visible document
# frequency, then the word).
# Both were chosen with bench/bm25_prune.py on the 50k bench index and the CUAD `tune` questions
# (latency against answer recall@50; docs/ARCHITECTURE.md, "Embedded store"). Short queries and
# doc-filtered queries (the evidence path, whose cost follows the candidate documents) are never
# pruned.
BM25_MAX_TERMS = 10
BM25_MAX_DF_SHARE = 0.05
BM25_MIN_DF_CEILING = 1000  # below this many matches a word is cheap: never dropped for its df
# write_revision asks whether the worker still holds its job between batches of this many chunks
# (and before the commit), the batch size of the Elasticsearch writer's requests.
HOLD_CHECK_CHUNKS = 500
MASK_CACHE = 32  # kNN row masks kept per process (principals x matrix views)
KNN_SPLIT_ROWS = 65_536  # matrices of at least this many rows are scored by two threads
# Rows scored between two checks of the request deadline (a multiple of 1024; about 50 ms of one
# core at 384 dimensions): an abandoned request's kNN stops within a slice or two.
KNN_SLICE_ROWS = 262_144


def prune_words(words: list[str], df: dict[str, int], rows: int) -> list[str]:
    """Drop words in more than ``BM25_MAX_DF_SHARE`` of the principal's visible chunks, then
    keep the ``BM25_MAX_TERMS`` rarest (visible document frequency, then the word); queries
    of at most ``BM25_MAX_TERMS`` words are kept whole. The counts are the principal's own,
    so which words are kept does not depend on documents they cannot read. When every word
    is common, the rarest one stays, so a query never becomes empty. Both stores prune with
    this (``es_bm25`` on the counts of its statistics request)."""
    if len(words) <= BM25_MAX_TERMS:
        return words
    ceiling = max(BM25_MAX_DF_SHARE * rows, BM25_MIN_DF_CEILING)
    ordered = sorted(words, key=lambda w: (df.get(w, 0), w))
    kept = [w for w in ordered if df.get(w, 0) <= ceiling][:BM25_MAX_TERMS]
    return kept or ordered[:1]


# SQLite virtual-machine steps between two looks at the request deadline (the progress handler
# of every connection): about a millisecond of query work, so a running query stops within
# milliseconds of the deadline, and the check (a context-variable read and a clock read) costs
# well under 1 % of the query (bench/search.py p95, docs/ARCHITECTURE.md "Request deadline").
DEADLINE_CHECK_STEPS = 10_000


def _past_deadline() -> int:
    """The progress handler: non-zero aborts the running statement with SQLITE_INTERRUPT."""
    return 1 if deadline_passed() else 0


def _interrupted_by_deadline(exc: sqlite3.Error) -> bool:
    return getattr(exc, "sqlite_errorcode", None) == sqlite3.SQLITE_INTERRUPT and deadline_passed()


def fts_query(words: Sequence[str]) -> str | None:
    """Quote every word so user input can never be FTS5 syntax; any word may match (OR).
    BM25 itself no longer sends a MATCH (it reads postings by exact term): kept for
    ``bench/bm25_prune.py``'s match counts."""
    if not words:
        return None
    return " OR ".join(f'"{w}"' for w in words)


def _translate_sqlite_errors(method: Any) -> Any:
    """sqlite3 errors enter Attest here: a statement the progress handler stopped at the request
    deadline becomes :class:`DeadlineExceeded` (503 ``deadline_exceeded``); locked, read-only,
    full or unreachable files become :class:`StoreUnavailable` (503, retry later); a malformed
    file becomes :class:`StoreCorrupt`."""

    @functools.wraps(method)
    def wrapper(self: "SqliteStore", *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except sqlite3.OperationalError as exc:
            if _interrupted_by_deadline(exc):
                raise deadline_error() from exc
            raise StoreUnavailable(f"the SQLite store is unavailable: {exc}") from exc
        except (sqlite3.DatabaseError, sqlite3.InterfaceError) as exc:
            if isinstance(exc, sqlite3.IntegrityError):
                raise StoreCorrupt(f"the SQLite store refused a write: {exc}") from exc
            raise StoreCorrupt(f"the SQLite store cannot be read: {exc}") from exc

    return wrapper


_translated = translate_errors(_translate_sqlite_errors)


def _upgrade_file(db: sqlite3.Connection) -> None:
    """What a file made by an older version lacks, added inside the schema's transaction."""
    columns = {r["name"] for r in db.execute("PRAGMA table_info(documents)")}
    if "incarnation" not in columns:  # a store created before incarnations existed
        db.execute("ALTER TABLE documents ADD COLUMN incarnation TEXT NOT NULL DEFAULT ''")
    if "hash" not in {r["name"] for r in db.execute("PRAGMA table_info(audit)")}:
        db.execute("ALTER TABLE audit ADD COLUMN hash TEXT")  # the hash chain's link
    if "unit_vectors" not in {r["name"] for r in db.execute("PRAGMA table_info(chunks)")}:
        # A store from before sentence vectors were stored: its chunks keep NULL (their
        # units are embedded at query time) until the documents are ingested again.
        db.execute("ALTER TABLE chunks ADD COLUMN unit_vectors BLOB")
    db.execute("INSERT OR IGNORE INTO meta(key, value) VALUES ('generation', '0')")
    # A file made before live_chunks existed: fill it once from the join it replaces.
    db.execute("INSERT OR IGNORE INTO meta(key, value) VALUES ('live_chunks', '1')")
    if db.execute("SELECT changes()").fetchone()[0]:
        db.execute(
            "INSERT OR REPLACE INTO live_chunks(rowid, doc_id, chunk_id) "
            "SELECT c.rowid, c.doc_id, c.chunk_id FROM chunks c JOIN documents d "
            "ON d.doc_id = c.doc_id AND d.current_revision = c.revision"
        )


@_translated
class SqliteStore:
    """``busy_timeout`` is how long a write waits for a lock held by another process before
    the store answers :class:`StoreUnavailable` (HTTP 503)."""

    def __init__(self, path: Path | str, *, busy_timeout: float = 30.0) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.busy_timeout = busy_timeout
        self._records = RecordCache()  # decoded registry records (find_subjects)
        # Set when a write fails for want of the database, cleared by the next good write:
        # /readyz reads it through ping(), so a store that cannot append to the audit is
        # not ready even though it still answers reads.
        self.write_failed = False
        self._audit = AuditGroupCommit(self.path, busy_timeout, self._audit_written)
        self._local = threading.local()
        self._vectors = VectorMatrix()
        # kNN row masks per (principal's tokens, matrix view, acl_version): see _visible_rows.
        self._masks: OrderedDict[tuple[Any, ...], tuple[VectorView, np.ndarray]] = OrderedDict()
        self._masks_lock = threading.Lock()
        # BM25 statistics per principal (sqlite_bm25.py): each word's postings and each
        # principal view's visible chunks and their lengths, brought forward from live_log.
        self._postings = Postings()
        self._visible = VisibleSets()
        single_threaded_blas()
        # Helper threads score a query against the vector matrix while the caller's thread runs
        # BM25 (numpy and SQLite both release the GIL): see prepare_knn. A large matrix is
        # scored in two parts, one per thread (KNN_SPLIT_ROWS).
        self._scorer = ThreadPoolExecutor(max_workers=2, thread_name_prefix="attest-knn")
        try:
            set_up_schema(self._db(), _SCHEMA + _counters_sql(), _upgrade_file)
        except sqlite3.Error as exc:
            self._scorer.shutdown(wait=False)
            raise StoreUnavailable(f"cannot open the SQLite store at {self.path}: {exc}") from exc

    # -- connections ----------------------------------------------------------------------
    def _db(self) -> sqlite3.Connection:
        db = getattr(self._local, "db", None)
        if db is None:
            db = connect(self.path, timeout=self.busy_timeout, pragmas=("synchronous=NORMAL", "foreign_keys=ON"))
            # A running statement stops once the request's deadline has passed (none outside
            # a request): see _translate_sqlite_errors. The statement is reset, the connection
            # stays usable.
            db.set_progress_handler(_past_deadline, DEADLINE_CHECK_STEPS)
            self._local.db = db
            self._local.depth = 0
        return db

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        db = self._db()
        try:
            with immediate(db):
                yield db
        except sqlite3.OperationalError as exc:
            # Stopped at the request deadline: the file is fine, /readyz must stay ready.
            self.write_failed = self.write_failed or not _interrupted_by_deadline(exc)
            if db.in_transaction:  # a COMMIT that failed leaves the transaction open
                db.execute("ROLLBACK")
            raise
        self.write_failed = False

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """Reads inside see one consistent state of the store (one WAL read transaction)."""
        db = self._db()
        if self._local.depth == 0:
            db.execute("BEGIN")
        self._local.depth += 1
        try:
            yield
        finally:
            self._local.depth -= 1
            if self._local.depth == 0:
                self._local.pending = None  # never carried into another snapshot
                db.execute("COMMIT")

    def close(self) -> None:
        self._scorer.shutdown(wait=False)
        self._audit.close()
        db = getattr(self._local, "db", None)
        if db is not None:
            db.close()
            self._local.db = None

    def ping(self) -> bool:
        """Reads answer, and writes do too: after a failed write, a probe on a separate
        connection that never waits (``BEGIN IMMEDIATE`` then ``ROLLBACK``) decides."""
        log = structlog.get_logger(__name__)
        try:
            self._db().execute("SELECT 1").fetchone()
        except sqlite3.Error as exc:
            log.warning("store_ping_failed", backend="sqlite", error=str(exc))
            return False
        if self.write_failed:
            try:
                probe = sqlite3.connect(self.path, timeout=0, isolation_level=None)
                try:
                    probe.execute("BEGIN IMMEDIATE")
                    probe.execute("ROLLBACK")
                finally:
                    probe.close()
            except sqlite3.Error as exc:
                log.warning("store_ping_failed", backend="sqlite", check="write", error=str(exc))
                return False
            self.write_failed = False
        return True

    # -- index metadata -------------------------------------------------------------------
    def ensure_embedding_model(self, model: str, dim: int) -> None:
        with self._write() as db:
            row = db.execute("SELECT value FROM meta WHERE key='embedding'").fetchone()
            if row is None:
                value = json.dumps({"model": model, "dim": dim})
                db.execute("INSERT INTO meta(key, value) VALUES ('embedding', ?)", (value,))
                return
        stored = json.loads(row["value"])
        if stored["model"] != model or stored["dim"] != dim:
            raise EmbeddingModelMismatch(
                f"the index was built with embedding model {stored['model']} "
                f"({stored['dim']} dimensions) but {model} ({dim} dimensions) is configured; "
                "reindex into a new data dir or index (vectors of two models are never mixed)"
            )

    def embedding_model(self) -> dict[str, Any] | None:
        row = self._db().execute("SELECT value FROM meta WHERE key='embedding'").fetchone()
        return json.loads(row["value"]) if row else None

    def _bump_generation(self, db: sqlite3.Connection) -> None:
        db.execute(
            "UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'generation'"
        )
        prune_log(db)

    # -- documents ------------------------------------------------------------------------
    def _document_from_row(self, db: sqlite3.Connection, row: sqlite3.Row) -> DocumentRecord:
        acl = [
            r["token"]
            for r in db.execute(
                "SELECT token FROM document_acl WHERE doc_id=? ORDER BY token", (row["doc_id"],)
            )
        ]
        revisions = [
            RevisionInfo(
                revision=r["revision"],
                filename=r["filename"],
                mime=r["mime"],
                size=r["size"],
                status=r["status"],
                created_at=r["created_at"],
                n_chunks=r["n_chunks"],
            )
            for r in db.execute(
                "SELECT revision, filename, mime, size, status, created_at, n_chunks "
                "FROM revisions WHERE doc_id=? ORDER BY created_at, revision",
                (row["doc_id"],),
            )
        ]
        return DocumentRecord(
            doc_id=row["doc_id"],
            status=row["status"],
            stage=row["stage"],
            error=row["error"],
            current_revision=row["current_revision"],
            title=row["title"],
            filename=row["filename"],
            acl=acl,
            collection=row["collection"],
            metadata=_stored_metadata(row["doc_id"], row["metadata"]),
            updated_at=row["updated_at"],
            revisions=revisions,
            incarnation=row["incarnation"],
        )

    def get_document(self, doc_id: str) -> DocumentRecord | None:
        db = self._db()
        row = db.execute("SELECT * FROM documents WHERE doc_id=?", (doc_id,)).fetchone()
        return self._document_from_row(db, row) if row else None

    def _acl_clause(self, principal: Principal, alias: str) -> tuple[str, list[Any]]:
        if principal.unrestricted:
            return "1", []
        tokens = principal.acl_tokens()
        marks = ",".join("?" * len(tokens))
        return (
            f"EXISTS (SELECT 1 FROM document_acl a WHERE a.doc_id = {alias}.doc_id "
            f"AND a.token IN ({marks}))",
            tokens,
        )

    def visible_document(self, doc_id: str, principal: Principal) -> DocumentRecord | None:
        db = self._db()
        acl_sql, acl_args = self._acl_clause(principal, "d")
        row = db.execute(
            f"SELECT * FROM documents d WHERE d.doc_id=? AND {acl_sql}", [doc_id, *acl_args]
        ).fetchone()
        return self._document_from_row(db, row) if row else None

    def list_documents(
        self,
        principal: Principal,
        *,
        status: str | None = None,
        collection: str | None = None,
        offset: int = 0,
        limit: int = 50,
    ) -> tuple[list[DocumentRecord], int]:
        db = self._db()
        acl_sql, args = self._acl_clause(principal, "d")
        where = [acl_sql]
        if status:
            where.append("d.status = ?")
            args.append(status)
        if collection:
            where.append("d.collection = ?")
            args.append(collection)
        clause = " AND ".join(where)
        total = db.execute(f"SELECT count(*) FROM documents d WHERE {clause}", args).fetchone()[0]
        rows = db.execute(
            f"SELECT * FROM documents d WHERE {clause} ORDER BY d.doc_id LIMIT ? OFFSET ?",
            [*args, limit, offset],
        ).fetchall()
        return [self._document_from_row(db, r) for r in rows], int(total)

    def save_document(self, record: DocumentRecord) -> None:
        """Create or update the document row. A record with an ``incarnation`` updates only
        that incarnation of the document and raises :class:`DocumentDeleted` when it is gone;
        a record without one creates the document (or updates whichever incarnation exists)
        and learns the row's incarnation."""
        with self._write() as db:
            row = db.execute(
                "SELECT incarnation FROM documents WHERE doc_id=?", (record.doc_id,)
            ).fetchone()
            if record.incarnation and (row is None or row["incarnation"] != record.incarnation):
                raise DocumentDeleted(
                    f"document {record.doc_id} was deleted; nothing was written",
                    doc_id=record.doc_id,
                )
            incarnation = row["incarnation"] if row is not None else uuid.uuid4().hex
            db.execute(
                "INSERT INTO documents(doc_id, status, stage, error, current_revision, title, "
                "filename, collection, metadata, updated_at, incarnation) "
                "VALUES (?,?,?,?,?,?,?,?,?,?,?) "
                "ON CONFLICT(doc_id) DO UPDATE SET status=excluded.status, stage=excluded.stage, "
                "error=excluded.error, title=excluded.title, filename=excluded.filename, "
                "collection=excluded.collection, metadata=excluded.metadata, "
                "updated_at=excluded.updated_at",
                (
                    record.doc_id,
                    record.status,
                    record.stage,
                    record.error,
                    record.current_revision,
                    record.title,
                    record.filename,
                    record.collection,
                    json.dumps(record.metadata, sort_keys=True),
                    record.updated_at or utc_now(),
                    incarnation,
                ),
            )
            self._replace_acl(db, record.doc_id, record.acl)
        record.incarnation = incarnation

    def _check_alive(self, db: sqlite3.Connection, doc_id: str, incarnation: str | None) -> None:
        """Inside the writer's transaction: the document exists and is the one the writer
        read. A delete (or a delete and a new owner) since then makes the write fail."""
        row = db.execute("SELECT incarnation FROM documents WHERE doc_id=?", (doc_id,)).fetchone()
        if row is None or (incarnation and row["incarnation"] != incarnation):
            raise DocumentDeleted(
                f"document {doc_id} was deleted; its revision was not written", doc_id=doc_id
            )

    def _replace_acl(self, db: sqlite3.Connection, doc_id: str, acl: Sequence[str]) -> None:
        """Make the document's ACL rows ``acl``, writing only the tokens that change: every
        status update saves the document, and an ACL written again unchanged would move the
        registry generation (its triggers) and empty the caches keyed by it for nothing."""
        wanted = set(acl)
        held = {r[0] for r in db.execute("SELECT token FROM document_acl WHERE doc_id=?", (doc_id,))}
        db.executemany(
            "DELETE FROM document_acl WHERE doc_id=? AND token=?",
            [(doc_id, token) for token in sorted(held - wanted)],
        )
        db.executemany(
            "INSERT INTO document_acl(doc_id, token) VALUES (?, ?)",
            [(doc_id, token) for token in sorted(wanted - held)],
        )

    def set_acl(self, doc_id: str, acl: Sequence[str]) -> None:
        with self._write() as db:
            if db.execute("SELECT 1 FROM documents WHERE doc_id=?", (doc_id,)).fetchone() is None:
                raise DocumentNotFound(f"document not found: {doc_id}", doc_id=doc_id)
            self._replace_acl(db, doc_id, acl)
            db.execute(
                "UPDATE documents SET updated_at=? WHERE doc_id=?", (utc_now(), doc_id)
            )

    # -- revisions ------------------------------------------------------------------------
    def write_revision(
        self,
        doc_id: str,
        revision: str,
        *,
        text: str,
        chunks: Sequence[Chunk],
        subjects: Sequence[SubjectRecord],
        info: dict[str, Any],
        incarnation: str | None = None,
        check_held: Callable[[], None] | None = None,
    ) -> None:
        """One write transaction. ``check_held()`` runs every ``HOLD_CHECK_CHUNKS`` chunks and
        once more just before the commit; what it raises rolls the whole revision back (a
        worker that lost its job commits nothing of it)."""
        with self._write() as db:
            self._check_alive(db, doc_id, incarnation)
            self._drop_revision(db, doc_id, revision)
            self._insert_revision(db, doc_id, revision, text, len(chunks), info,
                                  RevisionStatus.WRITTEN)
            for start in range(0, len(chunks), HOLD_CHECK_CHUNKS):
                if check_held is not None and start:
                    check_held()
                self._insert_chunks(db, doc_id, revision, chunks[start:start + HOLD_CHECK_CHUNKS])
            for subject in subjects:
                self._insert_subject(db, doc_id, revision, subject)
            if check_held is not None:
                check_held()  # last: a job lost during the write commits nothing

    @staticmethod
    def _insert_revision(
        db: sqlite3.Connection, doc_id: str, revision: str, text: str, n_chunks: int,
        info: dict[str, Any], status: str,
    ) -> None:
        db.execute(
            "INSERT INTO revisions(doc_id, revision, filename, mime, size, status, "
            "created_at, n_chunks, text) VALUES (?,?,?,?,?,?,?,?,?)",
            (
                doc_id,
                revision,
                info.get("filename", ""),
                info.get("mime", ""),
                int(info.get("size", 0)),
                status,
                info.get("created_at") or utc_now(),
                n_chunks,
                text,
            ),
        )

    @staticmethod
    def _insert_chunks(
        db: sqlite3.Connection, doc_id: str, revision: str, chunks: Sequence[Chunk]
    ) -> None:
        for chunk in chunks:
            vector = None
            if chunk.embedding is not None:
                vector = np.asarray(chunk.embedding, dtype=np.float32).tobytes()
            cursor = db.execute(
                "INSERT INTO chunks(chunk_id, doc_id, revision, ordinal, text, record, "
                "embedding, unit_vectors) VALUES (?,?,?,?,?,?,?,?)",
                (
                    chunk.chunk_id,
                    doc_id,
                    revision,
                    chunk.ordinal,
                    chunk.text,
                    json.dumps(chunk.to_dict(), sort_keys=True),
                    vector,
                    chunk.unit_vectors,
                ),
            )
            rowid = cursor.lastrowid
            db.executemany(
                "INSERT OR IGNORE INTO chunk_entities(entity_id, chunk_rowid) VALUES (?, ?)",
                [(e, rowid) for e in chunk.entity_ids],
            )
            db.executemany(
                "INSERT OR IGNORE INTO chunk_relations(relation_key, chunk_rowid) "
                "VALUES (?, ?)",
                [(k, rowid) for k in chunk.relation_keys],
            )

    def import_documents(
        self,
        items: Iterable[ImportItem],
        *,
        batch_chunks: int = 10_000,
    ) -> int:
        """Bulk load of **new** documents, each current at once at its revision (see the port).
        Each batch of about ``batch_chunks`` chunks is ONE write transaction: its documents,
        ACL rows, revisions (``current``) and chunks, and one generation bump, so a reader sees
        all of a batch or none of it, and FTS5 and the WAL take one large write instead of three
        small ones per document (``bench/scale.py``: 256 chunks/s through the port). A
        document id that exists, or comes twice, rolls its whole batch back with
        :class:`StoreError`; batches before it stay. Returns the chunks written."""
        written = 0

        def flush(batch: list[ImportItem]) -> None:
            with self._write() as db:
                seen: set[str] = set()
                for record, revision, text, chunks in batch:
                    doc_id = record.doc_id
                    taken = db.execute("SELECT 1 FROM documents WHERE doc_id=?", (doc_id,)).fetchone()
                    if doc_id in seen or taken is not None:
                        raise StoreError(
                            f"bulk write failed: document {doc_id} already exists; "
                            "import_documents only creates documents"
                        )
                    seen.add(doc_id)
                    info = {"filename": record.filename, "size": len(text.encode()),
                            "mime": chunks[0].mime if chunks else ""}
                    self._insert_revision(db, doc_id, revision, text, len(chunks), info,
                                          RevisionStatus.CURRENT)
                    self._insert_chunks(db, doc_id, revision, chunks)
                    # Inserted with its current revision, after its chunks: the
                    # live_chunks_new_document trigger makes them searchable in this transaction.
                    db.execute(
                        "INSERT INTO documents(doc_id, status, stage, error, current_revision, "
                        "title, filename, collection, metadata, updated_at, incarnation) "
                        "VALUES (?,'indexed','indexed',NULL,?,?,?,?,?,?,?)",
                        (doc_id, revision, record.title, record.filename, record.collection,
                         json.dumps(record.metadata, sort_keys=True),
                         record.updated_at or utc_now(), uuid.uuid4().hex),
                    )
                    self._replace_acl(db, doc_id, record.acl)
                self._bump_generation(db)

        for batch in import_batches(items, batch_chunks):
            flush(batch)
            written += sum(len(chunks) for *_, chunks in batch)
        return written

    def _insert_subject(
        self, db: sqlite3.Connection, doc_id: str, revision: str, subject: SubjectRecord
    ) -> None:
        db.execute(
            "INSERT OR REPLACE INTO subjects(doc_id, revision, subject_id, name, type, record) "
            "VALUES (?,?,?,?,?,?)",
            (
                doc_id,
                revision,
                subject.subject_id,
                subject.name,
                subject.type,
                json.dumps(asdict(subject), sort_keys=True),
            ),
        )
        names = {name_key(subject.name), *(name_key(a) for a in subject.aliases)}
        db.executemany(
            "INSERT OR IGNORE INTO subject_names(name_norm, subject_id, doc_id, revision) "
            "VALUES (?,?,?,?)",
            [(n, subject.subject_id, doc_id, revision) for n in sorted(names) if n],
        )
        db.executemany(
            "INSERT INTO bindings(subject_id, relation, object_id, object_name, role, role_norm, "
            "doc_id, revision, char_start, char_end) VALUES (?,?,?,?,?,?,?,?,?,?)",
            [
                (
                    subject.subject_id,
                    b.relation,
                    b.object_id,
                    b.object_name,
                    b.role,
                    role_key(b.role) if b.role else None,
                    doc_id,
                    revision,
                    b.char_start,
                    b.char_end,
                )
                for b in subject.bindings
            ],
        )

    def _drop_revision(self, db: sqlite3.Connection, doc_id: str, revision: str) -> None:
        db.execute("DELETE FROM chunks WHERE doc_id=? AND revision=?", (doc_id, revision))
        db.execute("DELETE FROM revisions WHERE doc_id=? AND revision=?", (doc_id, revision))
        db.execute("DELETE FROM subjects WHERE doc_id=? AND revision=?", (doc_id, revision))
        db.execute("DELETE FROM subject_names WHERE doc_id=? AND revision=?", (doc_id, revision))
        db.execute("DELETE FROM bindings WHERE doc_id=? AND revision=?", (doc_id, revision))

    def activate_revision(
        self, doc_id: str, revision: str, *, incarnation: str | None = None
    ) -> None:
        with self._write() as db:
            self._check_alive(db, doc_id, incarnation)
            exists = db.execute(
                "SELECT 1 FROM revisions WHERE doc_id=? AND revision=?", (doc_id, revision)
            ).fetchone()
            if exists is None:
                raise StoreError(f"revision {revision} of {doc_id} was never written")
            db.execute(
                "UPDATE revisions SET status = CASE WHEN revision = ? THEN 'current' "
                "ELSE 'superseded' END WHERE doc_id = ? AND status IN ('written', 'current')",
                (revision, doc_id),
            )
            db.execute(
                "UPDATE documents SET current_revision=?, status='indexed', stage='indexed', "
                "error=NULL, updated_at=? WHERE doc_id=?",
                (revision, utc_now(), doc_id),
            )
            self._bump_generation(db)

    def delete_document(self, doc_id: str) -> bool:
        with self._write() as db:
            if db.execute("SELECT 1 FROM documents WHERE doc_id=?", (doc_id,)).fetchone() is None:
                return False
            for table in ("chunks", "revisions", "subjects", "subject_names", "bindings"):
                db.execute(f"DELETE FROM {table} WHERE doc_id=?", (doc_id,))
            db.execute("DELETE FROM documents WHERE doc_id=?", (doc_id,))
            self._bump_generation(db)
        return True

    def revision_text(self, doc_id: str, revision: str) -> str | None:
        row = self._db().execute(
            "SELECT text FROM revisions WHERE doc_id=? AND revision=?", (doc_id, revision)
        ).fetchone()
        return row["text"] if row else None

    def revision_chunks(self, doc_id: str, revision: str) -> list[Chunk]:
        rows = self._db().execute(
            "SELECT record, embedding, unit_vectors FROM chunks WHERE doc_id=? AND revision=? "
            "ORDER BY ordinal",
            (doc_id, revision),
        ).fetchall()
        return [self._chunk_from_row(r) for r in rows]

    @staticmethod
    def _chunk_from_row(row: sqlite3.Row) -> Chunk:
        data = json.loads(row["record"])
        chunk = Chunk(**data)
        if "embedding" in row.keys() and row["embedding"] is not None:
            chunk.embedding = np.frombuffer(row["embedding"], dtype=np.float32).tolist()
        if "unit_vectors" in row.keys():
            chunk.unit_vectors = row["unit_vectors"]
        return chunk

    def chunks_by_id(self, chunk_ids: Sequence[str]) -> dict[str, Chunk]:
        if not chunk_ids:
            return {}
        marks = ",".join("?" * len(chunk_ids))
        rows = self._db().execute(
            f"SELECT chunk_id, record, unit_vectors FROM chunks WHERE chunk_id IN ({marks})",
            list(chunk_ids),
        ).fetchall()
        return {r["chunk_id"]: self._chunk_from_row(r) for r in rows}

    # -- search ---------------------------------------------------------------------------
    def _live_filter(self, filters: SearchFilters, alias: str) -> tuple[str, list[Any]]:
        """Conditions on ``live_chunks`` rows ``alias`` (already current revisions only): ACL,
        doc ids, collections, entities, relations. Each is a subquery SQLite evaluates once into
        an ephemeral index, so the per-row cost is one lookup, and the ACL stays in the query."""
        where: list[str] = []
        args: list[Any] = []
        if not filters.principal.unrestricted:
            tokens = filters.principal.acl_tokens()
            where.append(
                f"{alias}.doc_id IN (SELECT doc_id FROM document_acl "
                f"WHERE token IN ({','.join('?' * len(tokens))}))"
            )
            args.extend(tokens)
        if filters.doc_ids:
            where.append(f"{alias}.doc_id IN ({','.join('?' * len(filters.doc_ids))})")
            args.extend(filters.doc_ids)
        if filters.collections:
            where.append(
                f"{alias}.doc_id IN (SELECT doc_id FROM documents "
                f"WHERE collection IN ({','.join('?' * len(filters.collections))}))"
            )
            args.extend(filters.collections)
        if filters.entity_ids:
            where.append(
                f"{alias}.rowid IN (SELECT chunk_rowid FROM chunk_entities "
                f"WHERE entity_id IN ({','.join('?' * len(filters.entity_ids))}))"
            )
            args.extend(filters.entity_ids)
        if filters.relation_keys:
            where.append(
                f"{alias}.rowid IN (SELECT chunk_rowid FROM chunk_relations "
                f"WHERE relation_key IN ({','.join('?' * len(filters.relation_keys))}))"
            )
            args.extend(filters.relation_keys)
        return (" AND ".join(where) or "1"), args

    def _bm25_state(self, db: sqlite3.Connection) -> tuple[int, int, int]:
        """(live_log head, live_log floor, visible_acl_version) in ``db``'s snapshot: the keys
        of the kept postings and visible sets, and how far back the log reaches
        (sqlite_bm25.py)."""
        head, floor = log_position(db)
        row = db.execute(
            "SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'visible_acl_version'").fetchone()
        return head, floor, (int(row[0] or 0) if row else 0)

    def _visible_set(self, db: sqlite3.Connection, principal: Principal, live_head: int,
                     acl_version: int, floor: int) -> VisibleSet:
        """The current chunks ``principal`` may read, with their lengths: the population of
        that principal's BM25 statistics."""
        view = None if principal.unrestricted else tuple(principal.acl_tokens())
        acl_sql, acl_args = self._live_filter(SearchFilters(principal=principal), "l")
        acl_key = 0 if view is None else acl_version  # the unrestricted view reads no ACL row
        return self._visible.get(db, (view, live_head, acl_key), acl_sql, acl_args, floor)

    def bm25(self, query: str, filters: SearchFilters, n: int) -> list[RankedId]:
        """BM25 with the statistics (row count, document frequencies, average length) of the
        chunks ``filters.principal`` may read only (sqlite_bm25.py): no score or order depends
        on documents outside that set. Ties break on the chunk id."""
        words = query_words(query)
        if not words or n <= 0:
            return []
        with self.snapshot():
            db = self._db()
            live_head, floor, acl_version = self._bm25_state(db)
            visible = self._visible_set(db, filters.principal, live_head, acl_version, floor)
            if not visible.rows:
                return []
            self._postings.sync(db, live_head, floor)
            if not filters.doc_ids:
                df = document_frequencies(db, self._postings, live_head, visible, words)
                words = prune_words(words, df, visible.rows)
            only_principal = not (filters.doc_ids or filters.collections or filters.entity_ids
                                  or filters.relation_keys)
            chunk_of: dict[int, str] | None = None
            allowed = None
            if not only_principal:
                # The other filters narrow the candidates, never the statistics (as on
                # Elasticsearch, where a filter does not change a score either).
                live_sql, live_args = self._live_filter(filters, "l")
                chunk_of = dict(db.execute(
                    f"SELECT l.rowid, l.chunk_id FROM live_chunks l WHERE {live_sql}", live_args
                ).fetchall())
                if not chunk_of:
                    return []
                allowed = np.array(sorted(chunk_of), dtype=np.int64)
            rowids, score = bm25_scores(db, self._postings, live_head, visible, words, allowed)
            if not rowids.size:
                return []
            take = min(n, rowids.size)
            kth = np.partition(-score, take - 1)[take - 1]
            top = np.flatnonzero(-score <= kth)  # every row tied with the n-th: exact tie-break
            if chunk_of is None:
                chunk_of = {}
                wanted = rowids[top].tolist()
                for start in range(0, len(wanted), 900):  # under SQLite's bound on variables
                    part = wanted[start : start + 900]
                    chunk_of.update(db.execute(
                        f"SELECT rowid, chunk_id FROM live_chunks WHERE rowid IN ({','.join('?' * len(part))})",
                        part,
                    ).fetchall())
        ranked = sorted(((float(score[i]), chunk_of[int(rowids[i])]) for i in top),
                        key=lambda pair: (-pair[0], pair[1]))[:take]
        return [RankedId(chunk_id, s) for s, chunk_id in ranked]

    def prepare_knn(
        self, vector: np.ndarray, filters: SearchFilters | None = None, n: int = 0
    ) -> None:
        """Start scoring ``vector`` against the newest matrix in the helper thread, so that the
        next :meth:`knn` of this thread only masks and ranks (the filters are applied there, so
        ``filters`` and ``n`` are not needed here). Purely an optimisation: ``knn``
        uses the result only when it was computed on the very matrix view that its own
        snapshot selects, and scores synchronously otherwise."""
        query = np.asarray(vector, dtype=np.float32).reshape(-1)
        view = self._vectors.latest
        if view is None or not view.live or view.matrix.shape[1] != query.size:
            return
        try:
            futures = self._score_parts(view.matrix, query)
        except RuntimeError:  # the store is closing: knn scores in its own thread
            return
        self._local.pending = (view, query, futures)

    def _score_parts(self, matrix: np.ndarray, query: np.ndarray) -> list[Future[np.ndarray]]:
        """``matrix @ query`` in the helper threads: in slices of ``KNN_SLICE_ROWS`` rows (so
        :meth:`_gather` can check the request deadline between them), each in two parts when it
        is large. Every cut is a multiple of 1024 rows: OpenBLAS scores rows in small aligned
        groups, so each row's score is bitwise the one of the undivided product."""
        parts: list[Future[np.ndarray]] = []
        for start in range(0, matrix.shape[0], KNN_SLICE_ROWS):
            part = matrix[start : start + KNN_SLICE_ROWS]
            if part.shape[0] < KNN_SPLIT_ROWS:
                parts.append(self._scorer.submit(np.matmul, part, query))
                continue
            cut = (part.shape[0] // 2) & ~1023
            parts += [self._scorer.submit(np.matmul, part[:cut], query),
                      self._scorer.submit(np.matmul, part[cut:], query)]
        return parts

    @staticmethod
    def _gather(parts: list[Future[np.ndarray]]) -> np.ndarray:
        """The scores of ``parts`` in order. The request deadline is checked between parts: past
        it, the parts not started yet are cancelled and ``DeadlineExceeded`` is raised, so an
        abandoned request's product stops within one slice instead of scoring every row."""
        out = []
        for i, part in enumerate(parts):
            if i and deadline_passed():
                for rest in parts[i:]:
                    rest.cancel()
                raise deadline_error()
            out.append(part.result())
        return out[0] if len(out) == 1 else np.concatenate(out)

    def knn(self, vector: np.ndarray, filters: SearchFilters, n: int) -> list[RankedId]:
        query = np.asarray(vector, dtype=np.float32).reshape(-1)
        if n <= 0 or not np.any(query):
            return []  # a zero vector has no direction (Elasticsearch rejects it as well)
        with self.snapshot():
            db = self._db()
            view = self._vectors.view(db)
            if not view.live:
                return []
            if (filters.principal.unrestricted and not filters.doc_ids
                    and not filters.collections and not filters.entity_ids
                    and not filters.relation_keys):
                mask = view.alive
            elif filters.entity_ids or filters.relation_keys:
                live_sql, live_args = self._live_filter(filters, "l")
                rowids = np.array(
                    [r[0] for r in db.execute(
                        f"SELECT l.rowid FROM live_chunks l WHERE {live_sql}", live_args)],
                    dtype=np.int64,
                )
                mask = view.rowid_mask(rowids)
            else:
                mask = self._visible_rows(db, view, filters)
        candidates = np.flatnonzero(mask)
        if candidates.size == 0:
            return []
        # One pass over the whole matrix is cheaper than gathering the candidate rows first.
        pending = getattr(self._local, "pending", None)
        self._local.pending = None
        all_scores = None
        if pending is not None and pending[0] is view and np.array_equal(pending[1], query):
            all_scores = self._gather(pending[2])  # scored ahead, against this very matrix
        elif pending is not None:
            for part in pending[2]:
                part.cancel()  # scored ahead for another view or vector: not needed
        if all_scores is None:
            try:
                parts = self._score_parts(view.matrix, query)
            except RuntimeError:  # the store is closing
                all_scores = view.matrix @ query
            else:
                all_scores = self._gather(parts)
        scores = all_scores[candidates]
        take = min(n, candidates.size)
        kth = np.partition(-scores, take - 1)[take - 1]
        # Every row tied with the n-th score stays in, so the chunk-id tie-break is exact.
        top = np.flatnonzero(-scores <= kth)
        ranked = sorted(
            ((float(scores[i]), view.chunk_ids[candidates[i]]) for i in top),
            key=lambda pair: (-pair[0], pair[1]),
        )[:take]
        return [RankedId(chunk_id, score) for score, chunk_id in ranked]

    def _visible_rows(self, db: sqlite3.Connection, view: VectorView, filters: SearchFilters) -> np.ndarray:
        """Rows of ``view`` in current documents that the principal may read (and that the
        filter's doc ids and collections name), decided by the ACL in SQL. Without doc ids or
        collections the mask is kept per (principal's tokens, view, acl_version): the view
        moves with every change of current rows and acl_version with every ACL row, both in
        the writing transaction, so a kept mask is exactly what this snapshot's SQL answers."""
        key = None
        if not filters.doc_ids and not filters.collections:
            acl_version = db.execute("SELECT value FROM meta WHERE key = 'acl_version'").fetchone()[0]
            key = (tuple(filters.principal.acl_tokens()), view.seq, acl_version)
            kept = self._masks.get(key)
            if kept is not None and kept[0] is view:
                return kept[1]
        # Visibility per document (few rows), expanded over the matrix.
        live_sql, live_args = self._live_filter(
            SearchFilters(principal=filters.principal, doc_ids=filters.doc_ids,
                          collections=filters.collections), "d")
        mask = view.doc_mask({
            r[0] for r in db.execute(
                "SELECT d.doc_id FROM documents d WHERE d.current_revision IS NOT NULL "
                f"AND {live_sql}", live_args)
        })
        if key is not None:
            mask.setflags(write=False)  # shared by every query of this key
            with self._masks_lock:
                self._masks[key] = (view, mask)
                while len(self._masks) > MASK_CACHE:
                    self._masks.popitem(last=False)
        return mask

    # -- subject registry -----------------------------------------------------------------
    def find_subjects(
        self,
        principal: Principal,
        *,
        name: str | None = None,
        type: str | None = None,
        role: str | None = None,
        parent_id: str | None = None,
        relation: str | None = None,
        subject_ids: Sequence[str] = (),
        limit: int = 100,
    ) -> list[Subject]:
        """The query is driven by its most selective index (the name key, the parent binding,
        the ids, the type) instead of a scan of every subject row, and selects only the
        matching rows' keys; their records are decoded once per registry generation
        (``sqlite_registry.RecordCache``). Visibility (current revision, ACL) stays in the SQL."""
        db = self._db()
        acl_sql, acl_args = self._acl_clause(principal, "d")
        source = "subjects s"  # the table the query is driven from
        where: list[str] = []
        args: list[Any] = []
        if name is not None:
            # subject_names' primary key starts with name_norm: a seek, not a scan of subjects.
            source = (
                "subject_names n CROSS JOIN subjects s ON s.doc_id = n.doc_id "
                "AND s.revision = n.revision AND s.subject_id = n.subject_id"
            )
            where.append("n.name_norm = ?")
            args.append(name_key(name))
        if role or parent_id or relation:
            # ``role``, ``parent_id`` and ``relation`` hold on ONE binding: one row of bindings
            # meets them all.
            cond, cond_args = [], []
            if role:
                cond.append("b.role_norm = ?")
                cond_args.append(role_key(role))
            if parent_id:
                cond.append("b.object_id = ?")
                cond_args.append(parent_id)
            if relation:
                cond.append("b.relation = ?")
                cond_args.append(relation)
            if parent_id and name is None:
                # The parent's bindings drive (bindings_object: object_id, relation). DISTINCT: a
                # subject bound twice the same way is one row.
                source = (
                    "(SELECT DISTINCT b.subject_id, b.doc_id, b.revision FROM bindings b "
                    f"WHERE {' AND '.join(cond)}) bb CROSS JOIN subjects s ON s.doc_id = bb.doc_id "
                    "AND s.revision = bb.revision AND s.subject_id = bb.subject_id"
                )
            else:
                where.append(
                    "EXISTS (SELECT 1 FROM bindings b WHERE b.subject_id = s.subject_id "
                    f"AND b.doc_id = s.doc_id AND b.revision = s.revision AND {' AND '.join(cond)})"
                )
            args.extend(cond_args)  # before type and ids: in the order the SQL text names them
        if type:
            where.append("s.type = ?")
            args.append(type)
        if subject_ids:
            where.append(f"s.subject_id IN ({','.join('?' * len(subject_ids))})")
            args.extend(subject_ids)
        with self.snapshot():  # the generation and the rows: one state of the store
            generation = self.registry_generation()
            keys = db.execute(
                f"SELECT s.subject_id, s.doc_id, s.revision FROM {source} "
                "JOIN documents d ON d.doc_id = s.doc_id AND d.current_revision = s.revision "
                f"WHERE {' AND '.join([*where, acl_sql])}",
                [*args, *acl_args],
            ).fetchall()
            records = self._records.records(
                db, generation, [(r["doc_id"], r["revision"], r["subject_id"]) for r in keys]
            )
        return merge_subject_records(records, limit)

    def registry_generation(self) -> int:
        """The registry's write generation: it moves with every committed write that can change
        what :meth:`find_subjects` returns to any principal (subjects, a document's existence or
        current revision, ACL tokens; any process's writes). Read inside a :meth:`snapshot` it belongs to the
        same state as that snapshot's registry reads, so a cache keyed by it (and by the
        principal's view) is exact."""
        row = self._db().execute("SELECT value FROM meta WHERE key='registry_generation'").fetchone()
        return int(row[0])

    # -- audit ----------------------------------------------------------------------------
    def append_audit(self, entry: dict[str, Any]) -> None:
        """Returns once the entry is committed with an fsync (``synchronous=FULL``), in one
        transaction with the entries other threads of this process append meanwhile (group
        commit, ``sqlite_audit.py``): an audit entry is on disk before the answer it records
        is sent, and concurrent answers share the fsync."""
        at = entry.get("at") or utc_now()
        body = {k: v for k, v in entry.items() if k not in ("prev_hash", "hash", "seq")}
        self._audit.append(at, body, entry)

    def _audit_written(self, ok: bool) -> None:
        self.write_failed = not ok

    def list_audit(self, query: AuditQuery) -> list[dict[str, Any]]:
        where, args = ["1"], []
        if query.principal:
            where.append("principal = ?")
            args.append(query.principal)
        if query.request_id:
            where.append("request_id = ?")
            args.append(query.request_id)
        if query.since:
            where.append("at >= ?")
            args.append(query.since)
        if query.until:
            where.append("at <= ?")
            args.append(query.until)
        rows = self._db().execute(
            f"SELECT seq, entry FROM audit WHERE {' AND '.join(where)} ORDER BY seq "
            "LIMIT ? OFFSET ?",
            [*args, query.limit, query.offset],
        ).fetchall()
        return [{"seq": r["seq"], **json.loads(r["entry"])} for r in rows]
