"""Elasticsearch index administration: versioned indexes behind aliases, creation, drops and
migrations, and the one bulk writer both the admin and the query adapter use.

Kept apart from the query adapter (``ingest/store/elastic.py``) so that reads and writes of
records do not share a module with cluster-level operations. ``ElasticStore`` delegates its
``init_indexes`` / ``current_indices`` / ``migrate`` / ``drop_all`` to :class:`IndexAdmin`.
"""

from __future__ import annotations

import itertools
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any, Callable, Iterable, Iterator

import mappings
from ingest.store import es_bm25
from ingest.store.port import StoreError

BULK_CHUNK = 500  # actions per _bulk request (streaming_bulk's chunk_size)
MAX_SHARDS = 64  # ATTEST_ELASTICSEARCH_SHARDS bound
SCAN_PAGE = 1000  # documents per scroll page in migrations


def es_hosts(url: str) -> list[str]:
    """The node URLs of ``ATTEST_ELASTICSEARCH_URL``: one URL, or several separated by commas.
    With several, the client spreads requests over them and retries a request that meets a
    dead node on the next one (how a multi-node cluster survives losing a node)."""
    hosts = list(dict.fromkeys(part.strip() for part in url.split(",") if part.strip()))
    if not hosts:
        raise StoreError(f"no Elasticsearch URL in {url!r}")
    return hosts


def bulk_write(
    es: Any,
    actions: Iterable[dict[str, Any]],
    *,
    refresh: Any,
    conflicts: list[dict[str, Any]] | None = None,
    chunk_size: int = BULK_CHUNK,
    succeeded: list[tuple[str, str]] | None = None,
    before_batch: Callable[[], None] | None = None,
) -> int:
    """Send ``actions`` (``elasticsearch.helpers`` format: ``_op_type``, ``_index``, ``_id``,
    ``_source`` or ``doc``) through ``helpers.streaming_bulk`` in requests of ``BULK_CHUNK``.

    ``refresh`` is the store's policy for writes a search must see: ``True`` refreshes the
    touched indexes once after the last request (not once per request), ``"wait_for"`` waits on
    each request, ``False`` does neither. A delete of a missing document is not an error (a
    retried delete); any other failed item raises :class:`StoreError` after the whole stream was
    sent. With ``conflicts`` given, a version conflict (409: a conditional write lost a race) is
    appended there instead of failing. With ``succeeded`` given, the (concrete index, id) of every
    item written is appended there (what a caller undoes when the stream failed). With
    ``before_batch`` given, the actions go in batches of ``chunk_size`` (one request each, unless
    its byte bound splits it) and ``before_batch()`` runs before each batch, once the previous
    batch's requests have returned; whatever it raises stops the stream there, the batches
    before it written (a worker that lost its job stops: ``write_revision``). Returns the number
    of actions written."""
    from elasticsearch import helpers

    touched: set[str] = set()

    def tracked(batch: Iterable[dict[str, Any]]) -> Iterable[dict[str, Any]]:
        for action in batch:
            touched.add(action["_index"])
            yield action

    def batches() -> Iterator[Iterable[dict[str, Any]]]:
        if before_batch is None:
            yield actions
            return
        stream = iter(actions)
        while batch := list(itertools.islice(stream, chunk_size)):
            before_batch()
            yield batch

    failures: list[dict[str, Any]] = []
    written = 0
    per_request = {"refresh": "wait_for"} if refresh == "wait_for" else {}
    for batch in batches():
        for ok, item in helpers.streaming_bulk(
            es,
            tracked(batch),
            chunk_size=chunk_size,
            max_chunk_bytes=100 * 2**20,
            raise_on_error=False,
            raise_on_exception=True,
            **per_request,
        ):
            written += 1
            op, result = next(iter(item.items()))
            if ok:
                if succeeded is not None:
                    succeeded.append((result["_index"], result["_id"]))
                continue
            if op == "delete" and result.get("status") == 404:
                continue
            if conflicts is not None and result.get("status") == 409:
                conflicts.append(item)
                continue
            failures.append(item)
    if refresh is True and touched:
        es.indices.refresh(index=",".join(sorted(touched)))
    if failures:
        raise StoreError(f"Elasticsearch bulk write failed: {failures[:3]}")
    return written


def _with_term_fields(hits: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Chunk hits of a migration with the per-principal BM25 fields (es_bm25.term_fields)
    added where the copy predates them (written to a chunks index below
    ``es_bm25.TERMS_VERSION``), counted in batches of ``BULK_CHUNK``."""
    stream = iter(hits)
    while batch := list(itertools.islice(stream, BULK_CHUNK)):
        missing = [hit["_source"] for hit in batch
                   if any(field not in hit["_source"] for field in es_bm25.FIELDS)]
        for source, fields in zip(missing, es_bm25.term_fields([s.get("text") or "" for s in missing])):
            source.update(fields)
        yield from batch


class IndexAdmin:
    """The indexes of one prefix: ``{prefix}-{kind}-v{N}`` behind the alias ``{prefix}-{kind}``."""

    def __init__(self, es: Any, prefix: str, *, shards: int | None = None) -> None:
        if shards is not None and not 1 <= shards <= MAX_SHARDS:
            raise StoreError(f"shards must be between 1 and {MAX_SHARDS}, not {shards}")
        self.es = es
        self.prefix = prefix
        self.shards = shards

    def settings_of(self, kind: str, body: dict[str, Any]) -> dict[str, Any] | None:
        """Index settings of a new ``kind`` index: the mapping file's, with the configured
        primary-shard count for the chunks index (the one that grows with the corpus; the
        others stay at one shard). Replicas follow the mapping (``auto_expand_replicas``)."""
        settings = dict(body.get("settings") or {})
        if kind == "chunks" and self.shards is not None:
            settings["number_of_shards"] = self.shards
        return settings or None

    def alias(self, kind: str) -> str:
        return f"{self.prefix}-{kind}"

    def index_name(self, kind: str, version: int) -> str:
        return f"{self.prefix}-{kind}-v{version}"

    def version_of(self, index: str, kind: str) -> int | None:
        head = f"{self.prefix}-{kind}-v"
        tail = index[len(head):]
        return int(tail) if index.startswith(head) and tail.isdigit() else None

    def all_indices(self) -> dict[str, dict[str, list[str]]]:
        """kind -> {concrete ``{prefix}-{kind}-vN`` index: its aliases}, in one request."""
        patterns = ",".join(f"{self.prefix}-{kind}-v*" for kind in mappings.KINDS)
        found = self.es.indices.get_alias(index=patterns, allow_no_indices=True).body
        out: dict[str, dict[str, list[str]]] = {kind: {} for kind in mappings.KINDS}
        for name, body in found.items():
            for kind in mappings.KINDS:
                if self.version_of(name, kind) is not None:
                    out[kind][name] = sorted(body.get("aliases", {}))
        return out

    def current_indices(self) -> dict[str, str | None]:
        """kind -> the concrete index behind its alias (None when not created yet)."""
        out: dict[str, str | None] = {}
        for kind, indices in self.all_indices().items():
            behind = [n for n, aliases in indices.items() if self.alias(kind) in aliases]
            out[kind] = behind[0] if behind else None
        return out

    def create_index(self, kind: str, version: int, *, alias: bool) -> str:
        """Create ``{prefix}-{kind}-v{version}``; returns ``created <name>`` or ``exists <name>``."""
        from elasticsearch import BadRequestError

        name = self.index_name(kind, version)
        body = mappings.load(kind, version)
        try:
            self.es.indices.create(
                index=name,
                settings=self.settings_of(kind, body),
                mappings=body["mappings"],
                aliases={self.alias(kind): {"is_write_index": True}} if alias else None,
                wait_for_active_shards="1",
            )
            return f"created {name}"
        except BadRequestError as exc:
            if exc.error != "resource_already_exists_exception":
                raise StoreError(f"cannot create index {name}: {exc}") from exc
            if alias:  # created concurrently, or left without its alias by an interrupted init
                self.es.indices.put_alias(index=name, name=self.alias(kind))
            return f"exists {name}"

    def init_indexes(self) -> dict[str, str]:
        """Create every missing index (at the newest mapping version) behind its alias.
        Idempotent: returns kind -> ``created <index>`` or ``exists <index>``."""
        current = self.current_indices()
        report = {kind: f"exists {name}" for kind, name in current.items() if name}
        missing = [kind for kind, name in current.items() if not name]
        if missing:
            # In parallel: the master batches the cluster-state updates (5x faster than serial).
            with ThreadPoolExecutor(max_workers=len(missing)) as pool:
                results = pool.map(
                    lambda k: self.create_index(k, mappings.latest_version(k), alias=True), missing
                )
                report.update(zip(missing, results))
        return {kind: report[kind] for kind in mappings.KINDS}

    def segment_count(self, kind: str) -> int:
        """Lucene segments of the index behind ``kind``'s alias (primaries and replicas)."""
        body = self.es.indices.segments(index=self.alias(kind)).body
        return sum(
            len(shard["segments"])
            for index in body["indices"].values()
            for copies in index["shards"].values()
            for shard in copies
        )

    def optimize(self, kind: str = "chunks", max_segments: int = 1) -> dict[str, int]:
        """Force-merge ``kind``'s index to at most ``max_segments`` segments and refresh.

        Why: filtered kNN runs per segment, and a segment whose admitted documents are few
        compared with ``num_candidates`` (or whose graph search would visit about as many) is
        searched exactly. An index grown by many small refreshed writes (one per ingested
        document) is made of dozens of small segments, so most of its vectors are compared
        exactly; one merged segment keeps filtered kNN on the HNSW graph. Run after a bulk
        load or a large re-ingest; it is I/O heavy but online (searches keep answering)."""
        if max_segments < 1:
            raise StoreError(f"max_segments must be at least 1, not {max_segments}")
        before = self.segment_count(kind)
        self.es.options(request_timeout=3600).indices.forcemerge(
            index=self.alias(kind), max_num_segments=max_segments
        )
        self.es.indices.refresh(index=self.alias(kind))
        return {"segments_before": before, "segments_after": self.segment_count(kind)}

    @contextmanager
    def loading(self, kinds: Iterable[str] = ("chunks", "revisions", "documents")) -> Iterator[None]:
        """A bulk load: no scheduled refresh (``refresh_interval: -1``) and no replica for
        ``kinds`` while the block runs (each replica would index every vector again), then the
        settings they had. Writers that need a refresh still ask for one (the store's switches
        do)."""
        names = ",".join(self.alias(kind) for kind in kinds)
        keys = ("refresh_interval", "auto_expand_replicas", "number_of_replicas")
        before = self.es.indices.get_settings(index=names, name=[f"index.{k}" for k in keys],
                                              flat_settings=True).body
        self.es.indices.put_settings(index=names, settings={
            "index.refresh_interval": "-1", "index.auto_expand_replicas": "false",
            "index.number_of_replicas": 0,
        })
        try:
            yield
        finally:
            for index, body in before.items():
                settings = body.get("settings", {})
                self.es.indices.put_settings(index=index, settings={
                    f"index.{k}": settings.get(f"index.{k}") for k in keys
                })

    def drop_all(self) -> None:
        """Delete every index of this prefix (all kinds, all versions). For tests and resets."""
        names = [name for indices in self.all_indices().values() for name in indices]
        for start in range(0, len(names), 20):
            self.es.indices.delete(index=",".join(names[start : start + 20]), ignore_unavailable=True)

    def migrate(
        self,
        to_version: int | None = None,
        *,
        delete_old: bool = False,
        chunks_meta: Callable[[], dict[str, Any]],
        vector_source_kwargs: Callable[[], dict[str, Any]],
    ) -> dict[str, str]:
        """Copy every index whose version is below ``to_version`` (default: the newest mapping
        version) into ``{prefix}-{kind}-v{to_version}`` client-side (scroll + bulk), then move
        all aliases in ONE ``_aliases`` call. The old index is write-blocked during the copy
        so that no write can be lost (writers fail loudly instead), and kept afterwards unless
        ``delete_old``; it still holds the data for a rollback. ``chunks_meta`` gives the
        chunks index ``_meta`` (the embedding model travels along); ``vector_source_kwargs``
        the search options that return vectors in ``_source``."""
        from elasticsearch import helpers

        target = to_version if to_version is not None else mappings.latest_version()
        current = self.current_indices()
        report: dict[str, str] = {}
        alias_actions: list[dict[str, Any]] = []
        moved: list[tuple[str, str]] = []
        for kind in mappings.KINDS:
            old = current[kind]
            assert old is not None
            version = self.version_of(old, kind) or 0
            if version >= target:
                report[kind] = f"at {old}"
                continue
            new = self.index_name(kind, target)
            body = mappings.load(kind, target)
            if kind == "chunks":
                meta = chunks_meta()
                for field in ("embedding_model", "embedding_dim"):
                    if meta.get(field) is not None:
                        body["mappings"]["_meta"][field] = meta[field]
            if self.es.indices.exists(index=new):
                self.es.indices.delete(index=new)  # a leftover of an interrupted migration
            self.es.indices.create(
                index=new,
                settings=self.settings_of(kind, body),
                mappings=body["mappings"],
                wait_for_active_shards="1",
            )
            self.es.indices.add_block(index=old, block="write")
            # Writes made with refresh=False (audit appends) are invisible to a scan until a
            # refresh: without this, they would be left behind in the old index.
            self.es.indices.refresh(index=old)
            scan_kwargs = vector_source_kwargs() if kind == "chunks" else {}
            hits = helpers.scan(
                self.es, index=old, query={"query": {"match_all": {}}}, size=SCAN_PAGE,
                preserve_order=False, **scan_kwargs,
            )
            if kind == "chunks" and target >= es_bm25.TERMS_VERSION:
                hits = _with_term_fields(hits)
            copied = bulk_write(
                self.es,
                (
                    {
                        "_op_type": "create" if kind == "audit" else "index",
                        "_index": new,
                        "_id": hit["_id"],
                        "_source": hit["_source"],
                    }
                    for hit in hits
                ),
                refresh=True,
            )
            alias_actions.append({"remove": {"index": old, "alias": self.alias(kind)}})
            alias_actions.append(
                {"add": {"index": new, "alias": self.alias(kind), "is_write_index": True}}
            )
            moved.append((kind, old))
            report[kind] = f"{old} -> {new} ({copied} docs)"
        if alias_actions:
            self.es.indices.update_aliases(actions=alias_actions)
        for kind, old in moved:
            if delete_old:
                self.es.indices.delete(index=old)
        return report
