"""The Elasticsearch store: the same port as the embedded SQLite store, on versioned indexes.

Indexes (``mappings/{kind}.v{N}.json``), each ``{prefix}-{kind}-v{N}`` behind the alias
``{prefix}-{kind}``; every read and write goes through the alias:

* ``documents``  one document per ``doc_id``: status, ACL, collection, ``current_revision`` and
  ``rev_key`` (``doc_id#current_revision``).
* ``revisions``  one per ``doc_id#revision``: the extracted text and the revision's status.
* ``chunks``     one per ``chunk_id``: text (``standard`` analyzer), filter keywords, ``rev_key``
  and the 384-dim ``dense_vector`` (HNSW, cosine). The embedding model is in the index ``_meta``.
* ``subjects``   one per (doc_id, revision, subject_id): name norms, and bindings as ``nested``.
* ``audit``      append-only, ``op_type=create`` with a monotonically increasing ``seq``; one
  hash chain for all writer processes through a conditionally written head document
  (``AUDIT_HEAD_ID``, see ``append_audit``).

**Atomic revision visibility** (``ingest/store/es_visibility.py``). Every chunk and subject
copy carries its own visibility, versioned by one generation number: a search reads the
generation (one realtime GET) and filters on the copies' ``vis_from``/``vis_to`` and versioned
ACL and collection inside the query, so it never reads the documents index and its work does not
grow with the number of documents. Every change of what searches show (activation, ACL or
collection change, delete, rewrite of a revision that has been current) is a switch under the
generation lease: the documents index (the truth) first, then the document's copies are settled
so that readers at G see what they saw and readers at G + 1 the new truth, then G + 1 is
published with one single-document write: a search sees all of the old state or all of the new.
``snapshot()`` pins one generation for the whole block.

**ACL.** Copies carry the document's ACL (versioned as above); searches filter on it with the
principal's tokens. ``set_acl`` is a switch, so a revocation holds for every query that starts
after it returns, and (through the copy's ACL as last written) for the next query of a running
snapshot.

**Deletes** are a switch (the document, then its copies become invisible), after which the ids
are searched (``search_after`` on a unique keyword) and ``_bulk`` deleted. No
``_delete_by_query`` is used: the bare test node has no reindex module.

**On a cluster.** ``url`` may name several nodes (comma-separated); the client sends each
request to one of them and retries a request that meets a dead node on the next one. The chunks
index gets ``shards`` primaries (``ATTEST_ELASTICSEARCH_SHARDS``); every index has one replica as
soon as a second node exists (``auto_expand_replicas: 0-1``). Searches refuse partial results
(``allow_partial_search_results=false``): while a node is lost, a shard with no live copy fails
the query (retried, then 503) instead of quietly dropping that shard's hits.
``tests/test_es_cluster.py`` stops one node of three under load.

Ranking parity with SQLite: BM25 sorts by ``[_score desc, chunk_id asc]``; kNN hits are sorted
client-side by ``(-score, chunk_id)`` and the cosine is recovered from Elasticsearch's
``(1 + cos) / 2``. Fusion (RRF) happens client-side in ``service/retrieval.py`` for both stores.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import math
import threading
import time
import uuid
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Iterable, Iterator, Sequence

import numpy as np
import structlog

from ingest.clock import utc_now
from ingest.deadline import deadline_error, deadline_passed, remaining_seconds
from ingest.schema import Chunk, DocumentRecord, RevisionInfo, Subject, SubjectRecord
from ingest.statuses import DocStatus, RevisionStatus
from ingest.store import es_bm25
from ingest.store.es_admin import IndexAdmin, bulk_write, es_hosts
from ingest.store.es_bm25 import term_fields
from ingest.store.sqlite import prune_words
from ingest.store.es_visibility import (
    COPY_FIELDS,
    NEVER,
    GenerationLease,
    Held,
    Truth,
    fresh_copy_fields,
    settled_fields,
    visibility_clauses,
)
from ingest.store.sqlite_bm25 import fts_term
from ingest.store.port import (
    AuditQuery,
    DocumentDeleted,
    DocumentNotFound,
    EmbeddingModelMismatch,
    ImportItem,
    Principal,
    RankedId,
    SearchFilters,
    StoreError,
    StoreUnavailable,
    import_batches,
)
# Shared with the SQLite adapter so that the same records give the same answers: the name and
# role keys, the query words, and the merge of per-document subject records.
from ingest.store.common import (
    chain_entry,
    merge_subject_records,
    name_key,
    query_words,
    role_key,
    subject_kwargs,
    translate_errors,
)

_log = structlog.get_logger(__name__)
_PAGE = 1000  # search_after page size for id sweeps and state loads
_TERMS_MAX = 65536  # index.max_terms_count default: larger sets are split into several clauses
_MAX_WINDOW = 10000  # index.max_result_window default
# The per-principal BM25 fields of a chunk copy (es_bm25.py): read by BM25 only, never returned.
_BM25_FIELDS = es_bm25.FIELDS
# The audit chain's head: one document in the audit index holding the last audit document; every
# append moves it with a conditional write, so concurrent writer processes extend one chain.
AUDIT_HEAD_ID = "chain-head"
AUDIT_APPEND_ATTEMPTS = 200  # conflicting appends one append survives before it gives up
AUDIT_MAX_BATCH = 32  # audit entries one head move carries (the head document holds them all)


@dataclass(slots=True)
class _PendingAudit:
    """One caller's audit entry waiting for its batch's leader (``ElasticStore.append_audit``)."""

    entry: dict[str, Any]
    body: dict[str, Any]
    done: threading.Event = field(default_factory=threading.Event)
    error: BaseException | None = None
# A revision's source and its copies as (kind, _id, source): ElasticStore._revision_sources.
_RevisionSources = tuple[dict[str, Any], list[tuple[str, str, dict[str, Any]]]]


def rev_key(doc_id: str, revision: str) -> str:
    """``doc_id#revision``; revisions are content hashes (hex), so the last ``#`` splits it."""
    return f"{doc_id}#{revision}"


def _subject_key(doc_id: str, revision: str, subject_id: str) -> str:
    raw = f"{doc_id}\x00{revision}\x00{subject_id}".encode()
    return hashlib.sha256(raw).hexdigest()[:32]


def es_store_error(exc: Exception, *, source: str, request: str) -> StoreError | None:
    """The store error an Elasticsearch client error becomes, or None for any other exception.
    Elasticsearch errors enter Attest here (the document store and the job queue both use it):
    no connection, timeouts, 429 and 5xx answers become :class:`StoreUnavailable` (HTTP 503,
    retry later); any other refusal is a :class:`StoreError` with Elasticsearch's reason.
    ``source`` names what was unreachable, ``request`` what was refused."""
    from elastic_transport import TransportError
    from elasticsearch import ApiError

    if isinstance(exc, TransportError):  # connection refused, timeout, TLS
        return StoreUnavailable(f"{source} is unreachable: {type(exc).__name__}")
    if isinstance(exc, ApiError):
        if exc.meta.status == 429 or exc.meta.status >= 500:
            return StoreUnavailable(f"{source} cannot serve now (HTTP {exc.meta.status})")
        return StoreError(f"Elasticsearch refused {request}: {exc.message}")
    return None


def _translate_es_errors(method: Any) -> Any:
    """Runs a store method with its Elasticsearch errors translated (:func:`es_store_error`)."""

    @functools.wraps(method)
    def wrapper(self: "ElasticStore", *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except StoreError:
            raise
        except Exception as exc:
            if deadline_passed() and es_store_error(exc, source="", request="") is not None:
                # The search's request_timeout or Elasticsearch's own timeout was the request's
                # remaining deadline (_bounded): the deadline ended it, not an outage.
                raise deadline_error() from exc
            translated = es_store_error(
                exc, source=f"Elasticsearch at {self.url}", request="the request"
            )
            if translated is None:
                raise
            raise translated from exc

    return wrapper


_translated = translate_errors(_translate_es_errors)


# (client, extra search parameters) of one search under the request deadline: ElasticStore._bounded
_Bounded = tuple[Any, dict[str, Any]]


class _NeedsSwitch(Exception):
    """A plain write found that it changes what searches show: redo it as a switch."""


def _changes_visibility(
    found: tuple[dict[str, Any], dict[str, Any]] | None, record: DocumentRecord, acl: list[str]
) -> bool:
    """Whether saving ``record`` over ``found`` changes what searches show: a new document that
    names a current revision, or a new ACL or collection of an existing one."""
    if found is None:
        return bool(record.current_revision)
    source = found[0]
    return sorted(set(source.get("acl") or [])) != acl or (
        (source.get("collection") or "") != (record.collection or "")
    )


@_translated
class ElasticStore:
    """The Store port on Elasticsearch 9.x (see the module docstring).

    ``refresh`` is the refresh policy of every write that a search must see (default ``True``:
    refresh at once, so a write is visible when the call returns; ``"wait_for"`` waits for the
    next scheduled refresh instead: fewer segments, up to ``refresh_interval`` more latency).
    ``url`` is one node's URL or several separated by commas (requests fail over between them).
    ``shards`` is the primary-shard count of a new chunks index (default: the mapping's one).
    ``client`` injects a ready ``Elasticsearch`` client; ``client_options`` go to its constructor
    (``api_key=...``, ``ca_certs=...``, ``request_timeout=...``).
    """

    def __init__(
        self,
        url: str,
        *,
        prefix: str = "attest",
        refresh: str | bool = True,
        shards: int | None = None,
        client: Any = None,
        **client_options: Any,
    ) -> None:
        from elasticsearch import Elasticsearch

        if not prefix or prefix != prefix.lower() or any(c in prefix for c in ' "*\\<|,>/?#'):
            raise StoreError(f"invalid Elasticsearch index prefix: {prefix!r}")
        self.url = url
        self.prefix = prefix
        self.refresh = refresh
        options = {"request_timeout": 30, "retry_on_timeout": True, "max_retries": 3}
        options.update(client_options)
        self.es = client if client is not None else Elasticsearch(es_hosts(url), **options)
        self.admin = IndexAdmin(self.es, prefix, shards=shards)
        self.lease = GenerationLease(self.es, self.alias("visibility"))
        self._knn_pool: Any = None  # created on first prepare_knn
        self._ready = False
        self._ready_lock = threading.Lock()
        self._local = threading.local()
        self._chain_lock = threading.Lock()  # held by the one batch leader of this process
        self._audit_queue_lock = threading.Lock()
        self._audit_queue: list[_PendingAudit] = []  # appends waiting for a leader, in order
        self._audit_stored = -1  # seq of the last audit document this process created
        # (batch, version) of the head this process wrote last; only the leader reads or sets it.
        self._audit_head: tuple[list[dict[str, Any]], tuple[int, int]] | None = None
        self._exclude_vectors_param: bool | None = None
        self._bm25_fields = False  # the chunks index carries es_bm25's fields (checked once)
        # Optional instrumentation (benchmarks): called with ("bm25" | "knn", Elasticsearch's
        # own ``took`` in ms) after each search of the hybrid query. Not part of the port.
        self.on_took: Callable[[str, int], None] | None = None

    # -- searches under the request deadline ------------------------------------------------
    def _bounded(self) -> "_Bounded":
        """The client and extra search parameters of one search under the current request's
        deadline: the remaining time is the client's ``request_timeout`` (without a retry on
        timeout: it could only start past the deadline) and Elasticsearch's own search
        ``timeout``, so a running search ends at the deadline (DeadlineExceeded, see
        _translate_es_errors). Outside a request: the plain client and its settings."""
        remaining = remaining_seconds()
        if remaining is None:
            return self.es, {}
        if remaining <= 0:
            raise deadline_error()
        client = self.es.options(request_timeout=remaining, retry_on_timeout=False)
        return client, {"timeout": f"{max(1, math.ceil(remaining * 1000))}ms"}

    def _search(self, bounded: "_Bounded | None" = None, **params: Any) -> Any:
        client, extra = bounded if bounded is not None else self._bounded()
        response = client.search(**params, **extra)
        if extra and response.body.get("timed_out"):
            raise deadline_error()  # partial results past the deadline are never used
        return response

    # -- names and administration (ingest/store/es_admin.py) -------------------------------
    def alias(self, kind: str) -> str:
        return self.admin.alias(kind)

    def index_name(self, kind: str, version: int) -> str:
        return self.admin.index_name(kind, version)

    def current_indices(self) -> dict[str, str | None]:
        """kind -> the concrete index behind its alias (None when not created yet)."""
        return self.admin.current_indices()

    def init_indexes(self) -> dict[str, str]:
        """Create every missing index (at the newest mapping version) behind its alias.
        Idempotent: returns kind -> ``created <index>`` or ``exists <index>``."""
        report = self.admin.init_indexes()
        self._backfill_visibility()
        self._ready = True
        return report

    def _ensure(self) -> None:
        if self._ready:
            return
        with self._ready_lock:
            if not self._ready:
                self.init_indexes()

    def drop_all(self) -> None:
        """Delete every index of this prefix (all kinds, all versions). For tests and resets."""
        self.admin.drop_all()
        self._ready = False

    def close(self) -> None:
        if self._knn_pool is not None:
            self._knn_pool.shutdown(wait=True)
        self.es.close()

    def ping(self) -> bool:
        """Ready when the cluster answers ``_cluster/health`` with yellow or green (the bare test
        node has no ``GET /``; yellow is a single node with replicas unassigned)."""
        try:
            health = self.es.cluster.health(timeout="5s")
        except Exception as exc:  # noqa: BLE001 - any transport or server failure means not ready
            _log.warning("store_ping_failed", backend="elasticsearch", error_type=type(exc).__name__)
            return False
        return health.body.get("status") in ("yellow", "green")

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """Reads inside see one state of the index: one generation (es_visibility), read once
        per block, so switches published meanwhile stay out of the block."""
        depth = getattr(self._local, "depth", 0)
        if depth == 0:
            self._local.gen = _translate_es_errors(ElasticStore._read_generation)(self)
        self._local.depth = depth + 1
        try:
            yield
        finally:
            self._local.depth -= 1
            if self._local.depth == 0:
                self._local.gen = None
                self._local.pending_knn = None  # never carried into another snapshot

    # -- low-level helpers ----------------------------------------------------------------
    def _write(self, actions: Iterable[dict[str, Any]], *, refresh: Any = None) -> None:
        """Bulk-write ``helpers`` actions with the store's refresh policy (es_admin.bulk_write)."""
        bulk_write(self.es, actions, refresh=self.refresh if refresh is None else refresh)

    def _sweep(
        self,
        kind: str,
        query: dict[str, Any],
        sort_field: str,
        *,
        source: Any = False,
        extra_sort: Sequence[str] = (),
        limit: int | None = None,
        versions: bool = False,
    ) -> Iterator[dict[str, Any]]:
        """Every hit of ``query`` in ``sort_field`` order (unique keyword), by search_after;
        with ``versions``, each hit has its ``_seq_no`` and ``_primary_term``."""
        sort = [{f: "asc"} for f in (*extra_sort, sort_field)]
        after: list[Any] | None = None
        seen = 0
        while True:
            size = _PAGE if limit is None else min(_PAGE, limit - seen)
            if size <= 0:
                return
            kwargs: dict[str, Any] = {}
            if after is not None:
                kwargs["search_after"] = after
            if versions:
                kwargs["seq_no_primary_term"] = True
            response = self._search(
                index=self.alias(kind),
                query=query,
                sort=sort,
                size=size,
                source=source,
                track_total_hits=False,
                allow_partial_search_results=False,
                **kwargs,
            ).body
            hits = response["hits"]["hits"]
            yield from hits
            seen += len(hits)
            if len(hits) < size:
                return
            after = hits[-1]["sort"]

    def _ids(self, kind: str, query: dict[str, Any], sort_field: str) -> list[str]:
        return [hit["_id"] for hit in self._sweep(kind, query, sort_field)]

    def _vector_source_kwargs(self) -> dict[str, Any]:
        """Elasticsearch >= 9.2 leaves dense vectors out of ``_source`` by default
        (``index.mapping.exclude_source_vectors``); ask for them back with the request body's
        ``_source.exclude_vectors`` (works with client 8.x and 9.x). Older servers always return
        them and would reject the option, so it is sent only to 9.2+."""
        if self._exclude_vectors_param is None:
            try:
                nodes = self.es.nodes.info(
                    node_id="_all", metric="_none", filter_path="nodes.*.version"
                ).body
                versions = [n["version"] for n in nodes.get("nodes", {}).values()]
                self._exclude_vectors_param = bool(versions) and min(
                    tuple(int(x) for x in v.split(".")[:2]) for v in versions
                ) >= (9, 2)
            except Exception:  # noqa: BLE001 - version unknown: do not send the option
                self._exclude_vectors_param = False
        return {"source": {"exclude_vectors": False}} if self._exclude_vectors_param else {}

    @staticmethod
    def _terms(field: str, values: Sequence[str]) -> dict[str, Any]:
        values = list(values)
        if len(values) <= _TERMS_MAX:
            return {"terms": {field: values}}
        parts = [
            {"terms": {field: values[i : i + _TERMS_MAX]}} for i in range(0, len(values), _TERMS_MAX)
        ]
        return {"bool": {"should": parts, "minimum_should_match": 1}}

    # -- index metadata -------------------------------------------------------------------
    def _chunks_meta(self) -> tuple[str, dict[str, Any]]:
        self._ensure()
        response = self.es.indices.get_mapping(index=self.alias("chunks")).body
        index, body = next(iter(response.items()))
        return index, dict(body["mappings"].get("_meta") or {})

    def embedding_model(self) -> dict[str, Any] | None:
        _, meta = self._chunks_meta()
        if not meta.get("embedding_model"):
            return None
        return {"model": meta["embedding_model"], "dim": meta.get("embedding_dim")}

    def ensure_embedding_model(self, model: str, dim: int) -> None:
        index, meta = self._chunks_meta()
        stored_model, stored_dim = meta.get("embedding_model"), meta.get("embedding_dim")
        if not stored_model:
            if stored_dim is not None and stored_dim != dim:
                raise EmbeddingModelMismatch(
                    f"the index {index} holds {stored_dim}-dimensional vectors but {model} "
                    f"({dim} dimensions) is configured; reindex into a new index with a mapping "
                    f"of {dim} dimensions (vectors of two models are never mixed)"
                )
            meta.update({"embedding_model": model, "embedding_dim": dim})
            self.es.indices.put_mapping(index=index, meta=meta)
            return
        if stored_model != model or stored_dim != dim:
            raise EmbeddingModelMismatch(
                f"the index was built with embedding model {stored_model} "
                f"({stored_dim} dimensions) but {model} ({dim} dimensions) is configured; "
                "reindex into a new data dir or index (vectors of two models are never mixed)"
            )

    # -- documents ------------------------------------------------------------------------
    def _revisions_of(
        self, doc_ids: Sequence[str], incarnations: dict[str, str] | None = None
    ) -> dict[str, list[RevisionInfo]]:
        """Revisions per document; with ``incarnations``, only those written for the document's
        current incarnation (a deleted predecessor's leftovers never show)."""
        out: dict[str, list[RevisionInfo]] = {d: [] for d in doc_ids}
        if not doc_ids:
            return out
        hits = self._sweep(
            "revisions",
            {"bool": {"filter": [self._terms("doc_id", doc_ids)]}},
            "rev_key",
            source={"excludes": ["text"]},
        )
        for hit in hits:
            s = hit["_source"]
            if incarnations is not None and s.get("incarnation", "") != incarnations.get(
                s["doc_id"], ""
            ):
                continue
            out[s["doc_id"]].append(
                RevisionInfo(
                    revision=s["revision"],
                    filename=s.get("filename", ""),
                    mime=s.get("mime", ""),
                    size=int(s.get("size", 0)),
                    status=s["status"],
                    created_at=s["created_at"],
                    n_chunks=int(s.get("n_chunks", 0)),
                )
            )
        for revisions in out.values():
            revisions.sort(key=lambda r: (r.created_at, r.revision))
        return out

    @staticmethod
    def _record(source: dict[str, Any], revisions: list[RevisionInfo]) -> DocumentRecord:
        return DocumentRecord(
            doc_id=source["doc_id"],
            status=source["status"],
            stage=source.get("stage"),
            error=source.get("error"),
            current_revision=source.get("current_revision"),
            title=source.get("title", ""),
            filename=source.get("filename", ""),
            acl=sorted(set(source.get("acl") or [])),
            collection=source.get("collection", ""),
            metadata=source.get("metadata") or {},
            updated_at=source["updated_at"],
            revisions=revisions,
            incarnation=source.get("incarnation", ""),
        )

    def _get_source(self, kind: str, _id: str, **kwargs: Any) -> dict[str, Any] | None:
        from elasticsearch import NotFoundError

        self._ensure()
        try:
            response = self.es.get(index=self.alias(kind), id=_id, **kwargs)
        except NotFoundError:
            return None
        return response.body.get("_source") if response.body.get("found") else None

    def _revisions_for(self, sources: Sequence[dict[str, Any]]) -> dict[str, list[RevisionInfo]]:
        return self._revisions_of(
            [s["doc_id"] for s in sources],
            {s["doc_id"]: s.get("incarnation", "") for s in sources},
        )

    def get_document(self, doc_id: str) -> DocumentRecord | None:
        source = self._get_source("documents", doc_id)
        if source is None:
            return None
        return self._record(source, self._revisions_for([source])[doc_id])

    @staticmethod
    def _may_read(principal: Principal, acl: Iterable[str]) -> bool:
        return principal.unrestricted or bool(set(acl) & set(principal.acl_tokens()))

    def visible_document(self, doc_id: str, principal: Principal) -> DocumentRecord | None:
        source = self._get_source("documents", doc_id)
        if source is None or not self._may_read(principal, source.get("acl") or []):
            return None
        return self._record(source, self._revisions_for([source])[doc_id])

    def list_documents(
        self,
        principal: Principal,
        *,
        status: str | None = None,
        collection: str | None = None,
        offset: int = 0,
        limit: int = 50,
    ) -> tuple[list[DocumentRecord], int]:
        self._ensure()
        filters: list[dict[str, Any]] = []
        if not principal.unrestricted:
            filters.append({"terms": {"acl": principal.acl_tokens()}})
        if status:
            filters.append({"term": {"status": status}})
        if collection:
            filters.append({"term": {"collection": collection}})
        query = {"bool": {"filter": filters}}
        total = int(self.es.count(index=self.alias("documents"), query=query).body["count"])
        if limit <= 0 or offset >= total:
            return [], total
        if offset + limit <= _MAX_WINDOW:
            hits = self._search(
                index=self.alias("documents"),
                query=query,
                sort=[{"doc_id": "asc"}],
                from_=offset,
                size=limit,
                track_total_hits=False,
            ).body["hits"]["hits"]
        else:
            hits = list(self._sweep("documents", query, "doc_id", source=True, limit=offset + limit))
            hits = hits[offset:]
        sources = [h["_source"] for h in hits]
        revisions = self._revisions_for(sources)
        return [self._record(s, revisions[s["doc_id"]]) for s in sources], total

    def _get_versioned(self, doc_id: str) -> tuple[dict[str, Any], dict[str, Any]] | None:
        """The document's source and its ``if_seq_no``/``if_primary_term``, or None."""
        from elasticsearch import NotFoundError

        self._ensure()
        try:
            body = self.es.get(index=self.alias("documents"), id=doc_id).body
        except NotFoundError:
            return None
        if not body.get("found"):
            return None
        return body["_source"], {"if_seq_no": body["_seq_no"], "if_primary_term": body["_primary_term"]}

    def _check_alive(self, doc_id: str, incarnation: str | None) -> tuple[dict[str, Any], dict[str, Any]]:
        found = self._get_versioned(doc_id)
        if found is None or (incarnation and found[0].get("incarnation", "") != incarnation):
            raise DocumentDeleted(
                f"document {doc_id} was deleted; its revision was not written", doc_id=doc_id
            )
        return found

    def save_document(self, record: DocumentRecord) -> None:
        """Create or update the document (see the SQLite adapter for the incarnation rules).
        Every update is conditional on the version read (``if_seq_no``), so a delete or a new
        owner in between is never overwritten. An update that changes what searches show (the
        ACL or the collection of a document, or a new document that names a current revision)
        is a visibility switch (``_switch``); any other update is a plain write."""
        try:
            self._save_document(record, switching=False)
        except _NeedsSwitch:
            with self._switch(record.doc_id):
                self._save_document(record, switching=True)

    def _save_document(self, record: DocumentRecord, *, switching: bool) -> None:
        from elasticsearch import ConflictError, NotFoundError

        acl = sorted(set(record.acl))
        fields = {
            "doc_id": record.doc_id,
            "status": record.status,
            "stage": record.stage,
            "error": record.error,
            "title": record.title,
            "filename": record.filename,
            "acl": acl,
            "collection": record.collection,
            "metadata": record.metadata,
            "updated_at": record.updated_at or utc_now(),
        }
        for _ in range(20):
            found = self._get_versioned(record.doc_id)
            if record.incarnation and (
                found is None or found[0].get("incarnation", "") != record.incarnation
            ):
                raise DocumentDeleted(
                    f"document {record.doc_id} was deleted; nothing was written",
                    doc_id=record.doc_id,
                )
            if not switching and _changes_visibility(found, record, acl):
                raise _NeedsSwitch
            try:
                if found is None:
                    incarnation = uuid.uuid4().hex
                    self.es.create(
                        index=self.alias("documents"),
                        id=record.doc_id,
                        document={
                            **fields,
                            "current_revision": record.current_revision,
                            "rev_key": rev_key(record.doc_id, record.current_revision)
                            if record.current_revision
                            else None,
                            "incarnation": incarnation,
                        },
                        refresh=self.refresh,
                    )
                else:
                    source, version = found
                    incarnation = source.get("incarnation", "")
                    # Like the SQLite upsert, an existing document keeps its current revision.
                    self.es.update(
                        index=self.alias("documents"),
                        id=record.doc_id,
                        doc=fields,
                        refresh=self.refresh,
                        **version,
                    )
            except (ConflictError, NotFoundError):
                continue  # changed, created or deleted since we read it: read again
            record.incarnation = incarnation
            return
        raise StoreUnavailable(f"document {record.doc_id} keeps changing; retry later")

    def set_acl(self, doc_id: str, acl: Sequence[str]) -> None:
        """A visibility switch: the document's ACL, then every copy of it (``_switch``)."""
        from elasticsearch import NotFoundError

        self._ensure()
        tokens = sorted(set(acl))
        with self._switch(doc_id):
            try:
                self.es.update(
                    index=self.alias("documents"),
                    id=doc_id,
                    doc={"acl": tokens, "updated_at": utc_now()},
                    refresh=self.refresh,
                    retry_on_conflict=3,
                )
            except NotFoundError:
                raise DocumentNotFound(f"document not found: {doc_id}", doc_id=doc_id) from None

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
        """Write the revision's text, chunks and subjects, invisible to searches until a switch.
        A revision that has ever been current (a rewrite) keeps each copy's visibility and is
        written under the visibility lease; a new one is written with conditional operations
        (``create``, ``if_seq_no``), so that a switch of the same revision racing with it sends
        it under the lease too instead of being overwritten. ``check_held()`` runs before each
        batch of ``BULK_CHUNK`` writes (one bulk request); what it raises stops the write there. What was
        written stays: it is not current, and a new holder of the job writes the same ids and
        content (deleting it could delete that holder's copies)."""
        self._ensure()

        def sources(document_incarnation: str) -> _RevisionSources:
            return self._revision_sources(
                doc_id, revision, text, chunks, subjects, info, document_incarnation
            )

        try:
            self._write_revision(doc_id, revision, sources, incarnation, check_held, switching=False)
        except _NeedsSwitch:
            with self._switch(doc_id):
                self._write_revision(doc_id, revision, sources, incarnation, check_held, switching=True)

    def _write_revision(
        self,
        doc_id: str,
        revision: str,
        sources: Callable[[str], _RevisionSources],
        incarnation: str | None,
        check_held: Callable[[], None] | None,
        *,
        switching: bool,
    ) -> None:
        """One attempt of ``write_revision``: plain (conditional operations; raises
        ``_NeedsSwitch`` when the lease is needed) or, with ``switching``, under the lease.
        ``sources`` makes the revision's source and copies for the document's incarnation."""
        key = rev_key(doc_id, revision)
        document, _ = self._check_alive(doc_id, incarnation)
        if self.refresh is not True:  # the copies already written must be found below
            self.es.indices.refresh(index=f"{self.alias('chunks')},{self.alias('subjects')}")
        revision_filter = {"bool": {"filter": [{"term": {"rev_key": key}}]}}
        existing = {
            kind: {h["_id"]: h for h in self._sweep(kind, revision_filter, sort_field,
                                                    source=list(COPY_FIELDS), versions=True)}
            for kind, sort_field in (("chunks", "chunk_id"), ("subjects", "key"))
        }
        if not switching and any(
            h["_source"].get("vis_from", NEVER) != NEVER for by_id in existing.values()
            for h in by_id.values()
        ):
            raise _NeedsSwitch  # a rewrite of a revision that has been current
        fresh = fresh_copy_fields(document.get("acl") or [], document.get("collection") or "")

        def copy_op(kind: str, _id: str, source: dict[str, Any]) -> dict[str, Any]:
            hit = existing[kind].get(_id)
            carried = {k: hit["_source"][k] for k in COPY_FIELDS if hit and k in hit["_source"]}
            source.update(fresh)
            source.update(carried)
            source["rev_key"] = key
            op: dict[str, Any] = {"_op_type": "index", "_index": self.alias(kind), "_id": _id,
                                  "_source": source}
            if not switching:
                if hit is None:
                    op["_op_type"] = "create"
                else:
                    op.update(if_seq_no=hit["_seq_no"], if_primary_term=hit["_primary_term"])
            return op
        revision_source, copies = sources(document.get("incarnation", ""))
        ops: list[dict[str, Any]] = [
            {"_op_type": "index", "_index": self.alias("revisions"), "_id": key,
             "_source": revision_source},
            *(copy_op(kind, _id, source) for kind, _id, source in copies),
        ]
        chunk_ids = {_id for kind, _id, _ in copies if kind == "chunks"}
        subject_keys = {_id for kind, _id, _ in copies if kind == "subjects"}
        kept = {"chunks": chunk_ids, "subjects": subject_keys}
        for kind, by_id in existing.items():
            for _id, hit in by_id.items():
                if _id not in kept[kind]:
                    op = {"_op_type": "delete", "_index": self.alias(kind), "_id": _id}
                    if not switching:
                        op.update(if_seq_no=hit["_seq_no"], if_primary_term=hit["_primary_term"])
                    ops.append(op)
        conflicts: list[dict[str, Any]] = []
        bulk_write(self.es, ops, refresh=self.refresh, conflicts=None if switching else conflicts,
                   before_batch=check_held)
        if conflicts:
            raise _NeedsSwitch  # a switch of this revision wrote its copies meanwhile
        # A delete that ran while the bulk was written may have swept before our writes were
        # visible: look again, and take back what we wrote if the document is gone.
        try:
            now, _ = self._check_alive(doc_id, document.get("incarnation", ""))
        except DocumentDeleted:
            self._drop_written(doc_id, revision)
            raise
        if not switching and now.get("rev_key") == key:
            # Activated while we wrote it (a duplicate job): copies that arrived after its
            # switch are not current yet, so settle the document again.
            with self._switch(doc_id):
                pass

    @staticmethod
    def _revision_sources(
        doc_id: str,
        revision: str,
        text: str,
        chunks: Sequence[Chunk],
        subjects: Sequence[SubjectRecord],
        info: dict[str, Any],
        incarnation: str,
    ) -> tuple[dict[str, Any], list[tuple[str, str, dict[str, Any]]]]:
        """The revision's source and its copies as (kind, _id, source), without the
        visibility fields (es_visibility.COPY_FIELDS), which the writer adds."""
        key = rev_key(doc_id, revision)
        revision_source = {
            "doc_id": doc_id,
            "revision": revision,
            "rev_key": key,
            "filename": info.get("filename", ""),
            "mime": info.get("mime", ""),
            "size": int(info.get("size", 0)),
            "status": RevisionStatus.WRITTEN,
            "created_at": info.get("created_at") or utc_now(),
            "n_chunks": len(chunks),
            "text": text,
            "incarnation": incarnation,
        }
        copies: list[tuple[str, str, dict[str, Any]]] = []
        # Each chunk's words as the embedded store counts them: the per-principal BM25's
        # lengths, terms and frequencies (es_bm25.py).
        terms = term_fields([chunk.text for chunk in chunks])
        for chunk, chunk_terms in zip(chunks, terms):
            source = chunk.to_dict()
            source.update(chunk_terms)
            source["doc_id"], source["revision"], source["rev_key"] = doc_id, revision, key
            if chunk.embedding is not None:
                source["embedding"] = np.asarray(chunk.embedding, dtype=np.float32).tolist()
            if chunk.unit_vectors is not None:  # a `binary` field: stored, never indexed
                source["unit_vectors"] = base64.b64encode(chunk.unit_vectors).decode("ascii")
            copies.append(("chunks", chunk.chunk_id, source))
        for subject in subjects:
            skey = _subject_key(doc_id, revision, subject.subject_id)
            names = {name_key(subject.name), *(name_key(a) for a in subject.aliases)}
            copies.append(("subjects", skey, {
                "key": skey,
                "subject_id": subject.subject_id,
                "doc_id": doc_id,
                "revision": revision,
                "rev_key": key,
                "type": subject.type,
                "name": subject.name,
                "name_norms": sorted(n for n in names if n),
                "bindings": [
                    {
                        "relation": b.relation,
                        "object_id": b.object_id,
                        "role_norm": role_key(b.role) if b.role else None,
                    }
                    for b in subject.bindings
                ],
                "record": asdict(subject),
            }))
        return revision_source, copies

    def import_documents(
        self,
        items: Iterable[ImportItem],
        *,
        batch_chunks: int = 10_000,
        request_chunks: int = 2_000,
    ) -> int:
        """Bulk load of **new** documents, each current at once at its revision: ``items`` are
        (record, revision, text, chunks). For loads of many documents (``bench/scale.py``),
        where one switch per document would dominate; ingestion goes through the port. Each
        batch of about ``batch_chunks`` chunks is one visibility switch: its documents,
        revisions and copies (current from the next generation) are written in ``_bulk``
        requests of ``request_chunks`` actions, refreshed, and the generation is published.
        Everything is created, never overwritten: a batch with an existing id is refused before
        any write, and a batch whose bulk fails (an id created meanwhile, a document the index
        rejects) is undone, so it keeps none of its documents (``_undo_import``). Returns the
        chunks written."""
        self._ensure()
        written = 0

        def flush(batch: list[ImportItem]) -> None:
            held = self.lease.acquire("*import*")
            gen = held.gen + 1
            ops: list[dict[str, Any]] = []
            documents: list[dict[str, Any]] = []  # written last: a document exists only
            for record, revision, text, chunks in batch:  # once all its copies do
                key, acl = rev_key(record.doc_id, revision), sorted(set(record.acl))
                incarnation = uuid.uuid4().hex
                info = {"filename": record.filename, "size": len(text.encode()),
                        "mime": chunks[0].mime if chunks else ""}
                revision_source, copies = self._revision_sources(
                    record.doc_id, revision, text, chunks, [], info, incarnation
                )
                revision_source["status"] = RevisionStatus.CURRENT
                documents.append({"_op_type": "create", "_index": self.alias("documents"),
                                  "_id": record.doc_id, "_source": {
                                "doc_id": record.doc_id, "status": DocStatus.INDEXED,
                                "stage": DocStatus.INDEXED, "error": None,
                                "title": record.title, "filename": record.filename, "acl": acl,
                                "collection": record.collection, "metadata": record.metadata,
                                "updated_at": record.updated_at or utc_now(),
                                "current_revision": revision, "rev_key": key,
                                "incarnation": incarnation}})
                ops.append({"_op_type": "create", "_index": self.alias("revisions"), "_id": key,
                            "_source": revision_source})
                for kind, _id, source in copies:
                    source.update(fresh_copy_fields(acl, record.collection))
                    source.update(vis_from=gen, vis_to=NEVER)
                    ops.append({"_op_type": "create", "_index": self.alias(kind), "_id": _id,
                                "_source": source})
            succeeded: list[tuple[str, str]] = []
            try:
                bulk_write(self.es, [*ops, *documents], refresh=True, chunk_size=request_chunks,
                           succeeded=succeeded)
            except BaseException as exc:
                self._undo_import(batch, succeeded, held)
                if isinstance(exc, StoreError):
                    raise StoreError(f"{exc.message}; none of the batch's {len(batch)} "
                                     "documents was kept") from exc
                raise
            self.lease.publish(held)

        for batch in import_batches(items, batch_chunks):
            existing = self.es.mget(index=self.alias("documents"), ids=[r.doc_id for r, *_ in batch],
                                    source=False, realtime=True)["docs"]
            taken = sorted(d["_id"] for d in existing if d.get("found"))
            if taken:  # refused before anything of the batch is written
                raise StoreError(f"Elasticsearch bulk write failed: import_documents only creates "
                                 f"documents; already stored: {', '.join(taken[:5])}")
            flush(batch)
            written += sum(len(chunks) for *_, chunks in batch)
        return written

    def _undo_import(self, batch: list[ImportItem], succeeded: list[tuple[str, str]], held: Any) -> None:
        """A failed import batch keeps none of its documents: delete every item its bulk wrote
        (the documents first, so no document outlives its copies), settle what searches see from
        the documents index, publish. Nothing it did not write is touched (every item was a
        create). If the undo itself fails (the cluster went away), the leftovers are not
        current: their documents are settled to what the documents index says."""
        documents = self.es.indices.get_alias(name=self.alias("documents")).body
        ops = [{"_op_type": "delete", "_index": index, "_id": _id}
               for index, _id in sorted(succeeded, key=lambda s: (s[0] not in documents, s))]
        try:
            bulk_write(self.es, ops, refresh=True)
        finally:
            for record, *_ in batch:  # the truth decides what the generation shows
                self._settle(record.doc_id, held)
            self.lease.publish(held)

    def _drop_written(self, doc_id: str, revision: str) -> None:
        query = {"bool": {"filter": [{"term": {"rev_key": rev_key(doc_id, revision)}}]}}
        ops: list[dict[str, Any]] = [
            {"_op_type": "delete", "_index": self.alias("revisions"), "_id": rev_key(doc_id, revision)}
        ]
        for kind, sort_field in (("chunks", "chunk_id"), ("subjects", "key")):
            for _id in self._ids(kind, query, sort_field):
                ops.append({"_op_type": "delete", "_index": self.alias(kind), "_id": _id})
        self._write(ops)

    def activate_revision(
        self, doc_id: str, revision: str, *, incarnation: str | None = None
    ) -> None:
        from elasticsearch import ConflictError, NotFoundError

        self._ensure()
        key = rev_key(doc_id, revision)
        self._check_alive(doc_id, incarnation)
        written = self._get_source("revisions", key, source_includes=["status", "incarnation"])
        if written is None:
            raise StoreError(f"revision {revision} of {doc_id} was never written")
        # The document's new current revision, conditional on the version in which it was seen
        # alive (a delete in between wins), then its copies (``_switch``): searches see the new
        # revision from the generation the switch publishes, all of it at once.
        with self._switch(doc_id):
            for _ in range(20):
                source, version = self._check_alive(doc_id, incarnation)
                if written.get("incarnation", "") != source.get("incarnation", ""):
                    raise DocumentDeleted(
                        f"revision {revision} of {doc_id} belongs to a deleted document",
                        doc_id=doc_id,
                    )
                try:
                    self.es.update(
                        index=self.alias("documents"),
                        id=doc_id,
                        doc={
                            "current_revision": revision,
                            "rev_key": key,
                            "status": DocStatus.INDEXED,
                            "stage": DocStatus.INDEXED,
                            "error": None,
                            "updated_at": utc_now(),
                        },
                        refresh=self.refresh,
                        **version,
                    )
                    break
                except (ConflictError, NotFoundError):
                    continue
            else:
                raise StoreUnavailable(f"document {doc_id} keeps changing; retry later")
        # Bookkeeping of revision statuses; not on any search path.
        ops: list[dict[str, Any]] = []
        query = {
            "bool": {
                "filter": [
                    {"term": {"doc_id": doc_id}},
                    {"terms": {"status": [RevisionStatus.WRITTEN, RevisionStatus.CURRENT]}},
                ]
            }
        }
        for hit in self._sweep("revisions", query, "rev_key", source=["revision", "status"]):
            status = RevisionStatus.CURRENT if hit["_source"]["revision"] == revision else RevisionStatus.SUPERSEDED
            if status != hit["_source"]["status"]:
                ops.append({"_op_type": "update", "_index": self.alias("revisions"),
                            "_id": hit["_id"], "doc": {"status": status}})
        self._write(ops)

    def delete_document(self, doc_id: str) -> bool:
        from elasticsearch import NotFoundError

        self._ensure()
        # First the document and, in the same switch, its copies: from the generation the
        # switch publishes no search path sees it. The copies are deleted after.
        with self._switch(doc_id):
            try:
                self.es.delete(index=self.alias("documents"), id=doc_id, refresh=self.refresh)
            except NotFoundError:
                return False
        query = {"term": {"doc_id": doc_id}}
        ops: list[dict[str, Any]] = []
        for kind, sort_field in (("chunks", "chunk_id"), ("subjects", "key"), ("revisions", "rev_key")):
            for _id in self._ids(kind, query, sort_field):
                ops.append({"_op_type": "delete", "_index": self.alias(kind), "_id": _id})
        self._write(ops)
        return True

    def revision_text(self, doc_id: str, revision: str) -> str | None:
        document = self._get_source("documents", doc_id, source_includes=["incarnation"])
        source = self._get_source(
            "revisions", rev_key(doc_id, revision), source_includes=["text", "incarnation"]
        )
        if document is None or source is None:
            return None
        if source.get("incarnation", "") != document.get("incarnation", ""):
            return None  # a deleted predecessor's leftover
        return source.get("text")

    @staticmethod
    def _chunk(source: dict[str, Any], with_embedding: bool) -> Chunk:
        fields = {name: source[name] for name in Chunk.__slots__ if name in source}
        fields.pop("embedding", None)
        fields.pop("unit_vectors", None)
        chunk = Chunk(**fields)
        if source.get("unit_vectors"):
            chunk.unit_vectors = base64.b64decode(source["unit_vectors"])
        if with_embedding and source.get("embedding") is not None:
            chunk.embedding = [float(x) for x in source["embedding"]]
        return chunk

    def revision_chunks(self, doc_id: str, revision: str) -> list[Chunk]:
        self._ensure()
        query = {"bool": {"filter": [{"term": {"rev_key": rev_key(doc_id, revision)}}]}}
        chunks: list[Chunk] = []
        after: list[Any] | None = None
        while True:
            kwargs: dict[str, Any] = {"search_after": after} if after is not None else {}
            hits = self._search(
                index=self.alias("chunks"),
                query=query,
                sort=[{"ordinal": "asc"}, {"chunk_id": "asc"}],
                size=_PAGE,
                track_total_hits=False,
                allow_partial_search_results=False,
                **self._vector_source_kwargs(),
                **kwargs,
            ).body["hits"]["hits"]
            chunks.extend(self._chunk(h["_source"], True) for h in hits)
            if len(hits) < _PAGE:
                return chunks
            after = hits[-1]["sort"]

    def chunks_by_id(self, chunk_ids: Sequence[str]) -> dict[str, Chunk]:
        if not chunk_ids:
            return {}
        self._ensure()
        response = self.es.mget(
            index=self.alias("chunks"),
            ids=list(dict.fromkeys(chunk_ids)),
            source_excludes=["embedding", "rev_key", *_BM25_FIELDS],
        ).body
        return {
            d["_id"]: self._chunk(d["_source"], False) for d in response["docs"] if d.get("found")
        }

    # -- visibility (ingest/store/es_visibility.py) -----------------------------------------
    def _read_generation(self) -> int:
        self._ensure()
        return self.lease.generation()

    def _generation(self) -> int:
        """The snapshot's generation inside ``snapshot()``, else the published one now."""
        gen = getattr(self._local, "gen", None)
        return self._read_generation() if gen is None else gen

    @contextmanager
    def _switch(self, doc_id: str) -> Iterator[None]:
        """A visibility switch of one document: the block changes the documents index (the
        truth), then every copy of the document is settled to it and the next generation is
        published. Switches are serialised by the generation lease. If the block raises, what
        it changed is settled and published all the same (the truth decides)."""
        self._ensure()
        held = self.lease.acquire(doc_id)
        try:
            if held.stale_doc is not None:
                self._repair(held)
            yield
        except BaseException:
            try:
                self._settle(doc_id, held)
                self.lease.publish(held)
            except Exception as exc:  # noqa: BLE001 - the lease expires; the next holder repairs
                _log.warning("es_visibility_settle_failed", doc_id=doc_id,
                             error_type=type(exc).__name__)
            raise
        self._settle(doc_id, held)
        self.lease.publish(held)

    def _settle(self, doc_id: str, held: Held) -> None:
        """Rewrite the copies of ``doc_id`` so that readers at ``held.gen + 1`` see what the
        documents index says and readers at ``held.gen`` what they saw (``settled_fields``);
        refreshed before the generation is published, whatever the store's refresh policy."""
        indexes = f"{self.alias('chunks')},{self.alias('subjects')}"
        if self.refresh is not True:
            self.es.indices.refresh(index=indexes)  # every copy written so far is found
        from elasticsearch import NotFoundError

        try:  # realtime: the truth as just written, refreshed or not
            body = self.es.get(index=self.alias("documents"), id=doc_id).body
        except NotFoundError:
            body = {}
        truth = Truth.of(body.get("_source") if body.get("found") else None)
        gen = held.gen + 1
        ops: list[dict[str, Any]] = []
        for kind, sort_field in (("chunks", "chunk_id"), ("subjects", "key")):
            for hit in self._sweep(kind, {"term": {"doc_id": doc_id}}, sort_field,
                                   source=list(COPY_FIELDS)):
                fields = settled_fields(hit["_source"], truth, gen)
                if fields:
                    ops.append({"_op_type": "update", "_index": self.alias(kind),
                                "_id": hit["_id"], "doc": fields})
        bulk_write(self.es, ops, refresh=False if self.refresh == "wait_for" else True)
        if self.refresh == "wait_for" and ops:
            self.es.indices.refresh(index=indexes)

    def _repair(self, held: Held) -> None:
        """After taking over a dead holder's lease: settle every document with a copy that
        carries a value above the published generation (the dead switch's or import's
        unpublished writes; no reader saw them), so that publishing ``held.gen + 1`` shows the
        truth and nothing half-written."""
        unpublished = {"bool": {"should": [
            {"range": {"vis_from": {"gt": held.gen, "lt": NEVER}}},
            {"range": {"vis_to": {"gt": held.gen, "lt": NEVER}}},
            {"range": {"meta_gen": {"gt": held.gen}}},
        ], "minimum_should_match": 1}}
        self.es.indices.refresh(index=f"{self.alias('chunks')},{self.alias('subjects')}")
        doc_ids: set[str] = set()
        for kind, sort_field in (("chunks", "chunk_id"), ("subjects", "key")):
            doc_ids.update(h["_source"]["doc_id"] for h in self._sweep(
                kind, unpublished, sort_field, source=["doc_id"]))
        if held.stale_doc and not held.stale_doc.startswith("*"):
            doc_ids.add(held.stale_doc)
        for doc_id in sorted(doc_ids):
            self._settle(doc_id, held)
        _log.info("es_visibility_repaired", documents=len(doc_ids))

    def _backfill_visibility(self) -> None:
        """Indexes written before the per-copy visibility fields (no ``visibility`` in the
        documents index ``_meta``) get the fields' mappings and every document settled once,
        under one lease (``attest es init``, or the first use of the store)."""
        documents = self.alias("documents")
        meta = next(iter(self.es.indices.get_mapping(index=documents).body.values()))
        meta = dict(meta["mappings"].get("_meta") or {})
        if meta.get("visibility"):
            return
        import mappings

        for kind in ("chunks", "subjects"):
            properties = mappings.load(kind)["mappings"]["properties"]
            self.es.indices.put_mapping(index=self.alias(kind), properties={
                field: properties[field] for field in COPY_FIELDS if field in properties
            })
        held = self.lease.acquire("*")
        doc_ids = self._ids("documents", {"match_all": {}}, "doc_id")
        for doc_id in doc_ids:
            self._settle(doc_id, held)
        self.lease.publish(held)
        self.es.indices.put_mapping(index=documents, meta={**meta, "visibility": 1})
        _log.info("es_visibility_backfilled", documents=len(doc_ids))

    def _visibility(
        self, principal: Principal, collections: Sequence[str] = (), gen: int | None = None
    ) -> list[dict[str, Any]]:
        """The copies current at the generation (es_visibility.visibility_clauses) that the
        principal may read. Inside a snapshot the copy's ACL as last written must admit the
        principal as well: a revocation made while the block runs takes effect in its next
        search, as the chunks' ACL did when the current-revision set was pinned, while a grant
        waits for the next block. No read of the documents index: the work does not grow with
        the number of documents."""
        tokens = None if principal.unrestricted else principal.acl_tokens()
        clauses = visibility_clauses(self._generation() if gen is None else gen, acl_tokens=tokens,
                                     collections=collections, terms=self._terms)
        if tokens is not None and getattr(self._local, "gen", None) is not None:
            clauses.append({"terms": {"acl": list(tokens)}})
        return clauses

    def _chunk_filters(self, filters: SearchFilters, gen: int | None = None) -> list[dict[str, Any]]:
        """The filter clauses shared by BM25 and kNN: visibility (``_visibility``) and the
        request's filters."""
        clauses = self._visibility(filters.principal, filters.collections, gen)
        if filters.doc_ids:
            clauses.append(self._terms("doc_id", filters.doc_ids))
        if filters.entity_ids:
            clauses.append(self._terms("entity_ids", filters.entity_ids))
        if filters.relation_keys:
            clauses.append(self._terms("relation_keys", filters.relation_keys))
        return clauses

    # -- search ---------------------------------------------------------------------------
    def bm25(self, query: str, filters: SearchFilters, n: int) -> list[RankedId]:
        """BM25 with the statistics (chunk count, document frequencies, average length) of the
        chunks ``filters.principal`` may read only, scored client-side with the embedded store's
        formula (es_bm25.py): no score or order depends on documents outside that set. Two
        searches at one generation: the statistics, then the candidates. Ties break on the
        chunk id."""
        words = query_words(query)
        if not words or n <= 0:
            return []
        self._ensure()
        self._require_bm25_fields()
        gen = self._generation()
        # The statistics' population is the principal's visible chunks; the request's other
        # filters narrow the candidates, never the statistics (as in the embedded store).
        stats_body = es_bm25.stats_request(
            self._visibility(filters.principal, gen=gen),
            sorted({fts_term(w) for w in words}),
        )
        response = self._search(index=self.alias("chunks"), allow_partial_search_results=False,
                                **stats_body).body
        took = response["took"]
        stats = es_bm25.statistics(response, words)
        if not stats.rows:
            return []
        if not filters.doc_ids:
            words = prune_words(words, stats.df, stats.rows)
        window = min(max(n, es_bm25.DOC_FILTERED_WINDOW if filters.doc_ids else es_bm25.WINDOW),
                     _MAX_WINDOW)
        hits: list[dict[str, Any]] = []
        exhaustive = True
        if any(stats.df.get(w, 0) for w in words):
            body = es_bm25.candidates_request(self._chunk_filters(filters, gen), words, stats, window)
            response = self._search(index=self.alias("chunks"), allow_partial_search_results=False,
                                    **body).body
            took += response["took"]
            hits = response["hits"]["hits"]
            total = response["hits"]["total"]
            exhaustive = total["relation"] == "eq" and total["value"] <= window
        if self.on_took is not None:
            self.on_took("bm25", took)
        plan = es_bm25.Plan.of(words, stats)
        candidates: list[tuple[str, int, dict[str, int]]] = []
        capped: dict[str, list[str]] = {}
        for hit in hits:
            chunk_id = hit["fields"]["chunk_id"][0]
            tf, at_cap = es_bm25.frequencies(hit, plan)
            candidates.append((chunk_id, int(hit["fields"].get("text_tokens", [0])[0]), tf))
            if at_cap:
                capped[chunk_id] = at_cap
        if capped:
            self._exact_frequencies(capped, {c: tf for c, _, tf in candidates})
        ranked = sorted(((es_bm25.score(tf, length, plan), chunk_id)
                         for chunk_id, length, tf in candidates),
                        key=lambda pair: (-pair[0], pair[1]))
        if not exhaustive and not es_bm25.window_is_exact(
            [s for s, _ in ranked], n, len(hits), exhaustive, float(hits[-1]["sort"][0])
        ):
            # The top n is the window's: chunks outside it were left unscored (docs/
            # ARCHITECTURE-es.md, "BM25 statistics per principal").
            _log.debug("es_bm25_window_unproven", window=window, n=n, words=len(words))
        return [RankedId(chunk_id, s) for s, chunk_id in ranked[:n]]

    def _exact_frequencies(self, capped: dict[str, list[str]], tfs: dict[str, dict[str, int]]) -> None:
        """Frequencies at the candidates query's mark cap (es_bm25.TF_CLAUSES), read from the
        copies' ``text_tf`` (``mget`` of those entries only, in the request body: a long query's
        terms do not fit in a URL; ``_PAGE`` chunks per request) into ``tfs``. Rare for short
        questions (a word repeated more than the cap in one chunk); a long doc-filtered query
        asks fewer marks per word (es_bm25.tf_clauses) and reads more here."""
        ids = sorted(capped)
        for start in range(0, len(ids), _PAGE):
            docs = self.es.mget(index=self.alias("chunks"), docs=[
                {"_id": chunk_id, "_source": {"includes": [f"text_tf.{t}" for t in capped[chunk_id]]}}
                for chunk_id in ids[start : start + _PAGE]
            ]).body["docs"]
            for doc in docs:
                if not doc.get("found"):  # deleted since the candidates query: the cap stays
                    _log.info("es_bm25_capped_frequency_gone", chunk_id=doc["_id"])
                    continue
                exact = doc["_source"].get("text_tf") or {}
                for term in capped[doc["_id"]]:
                    tfs[doc["_id"]][term] = int(exact.get(term, tfs[doc["_id"]][term]))

    def _require_bm25_fields(self) -> None:
        """Refuse BM25 on a chunks index older than ``es_bm25.TERMS_VERSION``: its copies carry
        no per-principal BM25 fields, and Lucene's own scores would leak other principals'
        documents through the order of a principal's hits. Fail-safe: an error naming the
        migration, never a silently leaking fallback. Checked once per process after it
        passes (an index never moves back to an older version)."""
        if self._bm25_fields:
            return
        index = self.current_indices().get("chunks") or ""
        version = self.admin.version_of(index, "chunks") or 0
        if version < es_bm25.TERMS_VERSION:
            _log.error("es_bm25_index_too_old", index=index, version=version,
                       needed=es_bm25.TERMS_VERSION)
            raise StoreError(
                f"the chunks index {index} (mapping v{version}) has no per-principal BM25 fields; "
                f"run `attest es migrate` (to v{es_bm25.TERMS_VERSION} or later) before searching"
            )
        self._bm25_fields = True

    def knn_request(
        self, vector: np.ndarray, filters: SearchFilters, n: int
    ) -> dict[str, Any] | None:
        """The search body of :meth:`knn` (None when nothing can match): also what
        ``bench/search.py`` profiles to count exact-search fallbacks."""
        if n <= 0:
            return None
        query = np.asarray(vector, dtype=np.float32).reshape(-1)
        if not np.any(query):
            return None
        clauses = self._chunk_filters(filters)
        # A few extra neighbours so that ties at the cut are broken by chunk id, as in SQLite.
        k = min(n + 10, _MAX_WINDOW)
        return {
            "knn": {
                "field": "embedding",
                "query_vector": query.tolist(),
                "k": k,
                "num_candidates": min(max(100, 2 * k), _MAX_WINDOW),
                "filter": clauses,
            },
            "size": k,
        }

    def _knn_search(self, body: dict[str, Any], bounded: "_Bounded | None" = None) -> dict[str, Any]:
        return self._search(
            bounded, index=self.alias("chunks"), source=False, track_total_hits=False,
            allow_partial_search_results=False, **body,
        ).body

    def prepare_knn(self, vector: np.ndarray, filters: SearchFilters, n: int) -> None:
        """Send the kNN request of ``knn(vector, filters, n)`` now, from a helper thread, so it
        runs in Elasticsearch while this thread's BM25 request does. The body is built here,
        in the caller's snapshot (same current-revision set); the next ``knn`` call of this
        thread uses the response only for the very same body, and searches itself otherwise."""
        body = self.knn_request(vector, filters, n)
        if body is None:
            return
        with self._ready_lock:
            if self._knn_pool is None:
                from concurrent.futures import ThreadPoolExecutor

                self._knn_pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="attest-knn")
        # The deadline is read here: the helper thread does not carry the request's context.
        bounded = self._bounded()
        self._local.pending_knn = (body, self._knn_pool.submit(self._knn_search, body, bounded))

    def knn(self, vector: np.ndarray, filters: SearchFilters, n: int) -> list[RankedId]:
        body = self.knn_request(vector, filters, n)
        pending = getattr(self._local, "pending_knn", None)
        self._local.pending_knn = None
        if body is None:
            return []
        if pending is not None and pending[0] == body:
            response = pending[1].result()
        else:
            response = self._knn_search(body)
        if self.on_took is not None:
            self.on_took("knn", response["took"])
        hits = response["hits"]["hits"]
        # Elasticsearch scores cosine as (1 + cos) / 2; expose the cosine itself.
        ranked = sorted(
            ((2.0 * float(h["_score"]) - 1.0, h["_id"]) for h in hits),
            key=lambda pair: (-pair[0], pair[1]),
        )[:n]
        return [RankedId(chunk_id, score) for score, chunk_id in ranked]

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
        if limit <= 0:
            return []
        clauses = self._visibility(principal)
        if type:
            clauses.append({"term": {"type": type}})
        if subject_ids:
            clauses.append(self._terms("subject_id", subject_ids))
        if name is not None:
            clauses.append({"term": {"name_norms": name_key(name)}})
        if role or parent_id or relation:
            inner: list[dict[str, Any]] = []
            if role:
                inner.append({"term": {"bindings.role_norm": role_key(role)}})
            if parent_id:
                inner.append({"term": {"bindings.object_id": parent_id}})
            if relation:
                inner.append({"term": {"bindings.relation": relation}})
            clauses.append(
                {"nested": {"path": "bindings", "query": {"bool": {"filter": inner}}}}
            )
        records: list[SubjectRecord] = []
        distinct: set[str] = set()
        for hit in self._sweep(
            "subjects",
            {"bool": {"filter": clauses}},
            "key",
            source=["record"],
            extra_sort=("subject_id", "doc_id"),
        ):
            record = SubjectRecord(**subject_kwargs(dict(hit["_source"]["record"])))
            if record.subject_id not in distinct:
                if len(distinct) >= limit:
                    break  # sorted by subject_id: every record of the first `limit` is in
                distinct.add(record.subject_id)
            records.append(record)
        return merge_subject_records(records, limit)

    # -- audit ----------------------------------------------------------------------------
    def _chain_head(self) -> tuple[list[dict[str, Any]], tuple[int, int] | None]:
        """The audit documents of the last append batch (the chain ends with the last one) and
        the head document's version (seq_no, primary_term) to move it from; ([last entry],
        None) on an index without a head yet (new, or written by a version without one),
        ([], None) on an empty log."""
        from elasticsearch import NotFoundError

        try:
            got = self.es.get(index=self.alias("audit"), id=AUDIT_HEAD_ID, realtime=True)
        except NotFoundError:
            self.es.indices.refresh(index=self.alias("audit"))
            hits = self._search(
                index=self.alias("audit"), size=1, sort=[{"seq": "desc"}],
                query={"bool": {"must_not": [{"ids": {"values": [AUDIT_HEAD_ID]}}]}},
                track_total_hits=False,
            ).body["hits"]["hits"]
            return [hits[0]["_source"]] if hits else [], None
        return got["_source"]["batch"], (got["_seq_no"], got["_primary_term"])

    def _store_audit_docs(self, docs: list[dict[str, Any]]) -> None:
        """Create the audit documents a head names, once each (an id is its seq: a second
        create, by whoever completes a batch another writer left half done, is a no-op)."""
        # list_audit refreshes before it reads; the API path does not wait.
        bulk_write(self.es, ({"_op_type": "create", "_index": self.alias("audit"),
                              "_id": str(doc["seq"]), "_source": doc} for doc in docs),
                   refresh=False, conflicts=[])  # a 409: already written, the same document

    def append_audit(self, entry: dict[str, Any]) -> None:
        """One chain for every writer process, with group commit inside a process. The
        callers waiting meanwhile form a batch (at most ``AUDIT_MAX_BATCH``); its leader moves
        the head document (``AUDIT_HEAD_ID``, which holds the batch's audit documents) with a
        write conditioned on the version it read (``if_seq_no``/``if_primary_term``), retried
        on conflict, and then creates the entries under their ``seq``. Before moving the head,
        a leader creates the entries the head holds if they are missing (their writer died
        between the two writes), so the log never misses a link and never holds one twice."""
        self._ensure()
        at = entry.get("at") or utc_now()
        body = {k: v for k, v in entry.items() if k not in ("prev_hash", "hash", "seq")}
        mine = _PendingAudit(entry, {**body, "at": at})
        with self._audit_queue_lock:
            self._audit_queue.append(mine)
        while not mine.done.is_set():
            with self._chain_lock:  # one leader per process: conflicts only across processes
                if mine.done.is_set():
                    break
                with self._audit_queue_lock:
                    batch = self._audit_queue[:AUDIT_MAX_BATCH]
                    del self._audit_queue[:AUDIT_MAX_BATCH]
                try:
                    self._append_batch(batch)
                except BaseException as exc:  # every caller of the batch gets the error
                    for pending in batch:
                        pending.error = exc
                finally:
                    for pending in batch:
                        pending.done.set()
        if mine.error is not None:
            raise mine.error

    def _append_batch(self, batch: list["_PendingAudit"]) -> None:
        from elasticsearch import ConflictError

        cached, self._audit_head = self._audit_head, None
        for _ in range(AUDIT_APPEND_ATTEMPTS):
            # The head this process wrote last, if it wrote the last one (else the conditional
            # write below conflicts and the head is read): one request less per batch.
            last_batch, version = cached or self._chain_head()
            cached = None
            if last_batch and last_batch[-1]["seq"] != self._audit_stored:
                self._store_audit_docs(last_batch)  # complete a batch its writer left half done
            last = last_batch[-1] if last_batch else None
            prev_hash = (last.get("entry") or {}).get("hash", "") if last else ""
            prev_seq = last["seq"] if last else 0
            docs = []
            for pending in batch:
                seq = max(time.time_ns() // 1000, prev_seq + 1)
                chained = chain_entry(prev_hash, pending.body)
                docs.append({
                    "seq": seq,
                    "at": pending.body["at"],
                    "request_id": pending.entry.get("request_id", ""),
                    "principal": pending.entry.get("principal", ""),
                    "action": pending.entry.get("action", ""),
                    "entry": chained,
                })
                prev_hash, prev_seq = chained["hash"], seq
            try:
                if version is None:
                    moved = self.es.create(index=self.alias("audit"), id=AUDIT_HEAD_ID,
                                           document={"batch": docs}, refresh=False)
                else:
                    moved = self.es.index(index=self.alias("audit"), id=AUDIT_HEAD_ID,
                                          document={"batch": docs}, if_seq_no=version[0],
                                          if_primary_term=version[1], refresh=False)
            except ConflictError:
                continue  # another writer appended first: link to its entries instead
            self._store_audit_docs(docs)
            self._audit_stored = docs[-1]["seq"]
            self._audit_head = (docs, (moved["_seq_no"], moved["_primary_term"]))
            return
        raise StoreError(
            f"could not append to the audit log: {AUDIT_APPEND_ATTEMPTS} conflicting appends"
        )

    def list_audit(self, query: AuditQuery) -> list[dict[str, Any]]:
        self._ensure()
        self.es.indices.refresh(index=self.alias("audit"))
        clauses: list[dict[str, Any]] = []
        if query.principal:
            clauses.append({"term": {"principal": query.principal}})
        if query.request_id:
            clauses.append({"term": {"request_id": query.request_id}})
        if query.since or query.until:
            bounds = {}
            if query.since:
                bounds["gte"] = query.since
            if query.until:
                bounds["lte"] = query.until
            clauses.append({"range": {"at": bounds}})
        es_query = {"bool": {"filter": clauses,
                             "must_not": [{"ids": {"values": [AUDIT_HEAD_ID]}}]}}  # not an entry
        if query.limit <= 0:
            return []
        if query.offset + query.limit <= _MAX_WINDOW:
            hits = self._search(
                index=self.alias("audit"),
                query=es_query,
                sort=[{"seq": "asc"}],
                from_=query.offset,
                size=query.limit,
                source=["seq", "entry"],
                track_total_hits=False,
            ).body["hits"]["hits"]
        else:
            hits = list(
                self._sweep(
                    "audit", es_query, "seq", source=["seq", "entry"],
                    limit=query.offset + query.limit,
                )
            )[query.offset :]
        return [{"seq": h["_source"]["seq"], **h["_source"]["entry"]} for h in hits]

    # -- migration (ingest/store/es_admin.py) -----------------------------------------------
    def migrate(self, to_version: int | None = None, *, delete_old: bool = False) -> dict[str, str]:
        """See :meth:`IndexAdmin.migrate`: copy to ``to_version`` behind write blocks, then move
        every alias in one ``_aliases`` call."""
        self._ensure()
        return self.admin.migrate(
            to_version,
            delete_old=delete_old,
            chunks_meta=lambda: self._chunks_meta()[1],
            vector_source_kwargs=self._vector_source_kwargs,
        )
