"""What an Elasticsearch search may see, as a pure filter inside the query (issue 14).

Until stop 9 every search first paged through the documents index for the ``rev_key`` of every
readable document and sent them all back as a ``terms`` filter: per-query work that grew with the
number of documents. Now every chunk and subject copy carries its own visibility, versioned by
one **generation** number, so that a query needs one realtime GET (the generation) and then
filters on fields of the copies alone:

* ``vis_from`` / ``vis_to``: the copy is current for readers at generation ``G`` iff
  ``vis_from <= G < vis_to``. A copy that was never current has ``vis_from = NEVER``.
* ``acl`` / ``collection`` hold the document's ACL and collection from generation ``meta_gen``
  on; ``acl_prev`` / ``collection_prev`` what readers before ``meta_gen`` see.

Every change of what is visible (activating a revision, an ACL or collection change, a delete)
runs under the **generation lease** (:class:`GenerationLease`, one small document in the
``{prefix}-visibility`` index): the holder read generation ``G``; it changes the documents index
(the truth), rewrites the copies of that one document so that readers at ``G`` see exactly what
they saw and readers at ``G + 1`` see the new truth (:func:`settled_fields`), refreshes, and then
publishes ``G + 1`` with one conditional write, which also releases the lease. Publishing is a
single-document write, so the switch stays atomic: a reader sees all of the old state or all of
the new one. ``snapshot()`` pins one generation for a whole block, which keeps working while
switches land. A holder that dies leaves its lease to expire (:data:`LEASE_MS`); the next holder
first re-settles the document the dead one named, which erases its unpublished values.
"""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass
from typing import Any, Sequence

import structlog

from ingest.store.port import StoreUnavailable

_log = structlog.get_logger(__name__)

NEVER = 2**62  # vis_from of a copy never made current; vis_to of a copy current now
LEASE_MS = 60_000  # a holder that has not published by then is taken over (and repaired)
WAIT_S = 75.0  # how long a switch waits for the lease before answering "retry later"
STATE_ID = "state"  # the one document of the visibility index
# The fields that settle a copy: read from and written to every chunk and subject copy.
COPY_FIELDS = ("rev_key", "vis_from", "vis_to", "meta_gen", "acl", "acl_prev", "collection",
               "collection_prev")


@dataclass(frozen=True, slots=True)
class Truth:
    """What the documents index says one document shows: its current ``rev_key`` (None: no
    current revision, or deleted), ACL and collection."""

    rev_key: str | None
    acl: tuple[str, ...]
    collection: str
    exists: bool

    @classmethod
    def of(cls, source: dict[str, Any] | None) -> "Truth":
        if source is None:
            return cls(None, (), "", False)
        return cls(source.get("rev_key") or None, tuple(sorted(set(source.get("acl") or ()))),
                   source.get("collection") or "", True)


def fresh_copy_fields(acl: Sequence[str], collection: str) -> dict[str, Any]:
    """The visibility fields of a newly written copy: current for nobody until a switch."""
    tokens = sorted(set(acl))
    return {"vis_from": NEVER, "vis_to": NEVER, "meta_gen": 0, "acl": tokens, "acl_prev": tokens,
            "collection": collection, "collection_prev": collection}


def _acl(value: Any) -> tuple[str, ...]:
    return tuple(sorted(set(value or ())))


def _number(value: Any, default: int) -> int:
    return default if value is None else int(value)


def settled_fields(source: dict[str, Any], truth: Truth, gen: int) -> dict[str, Any] | None:
    """The partial update that makes one copy (its ``COPY_FIELDS`` in ``source``) show ``truth``
    to readers at ``gen`` and later, while readers at ``gen - 1`` see it as before; None when it
    already does. Values above ``gen - 1`` left by a holder that died are overwritten (they were
    never published, so no reader saw them). A copy without the fields (an index written before
    them) counts as never current."""
    before = gen - 1
    vis_from = _number(source.get("vis_from"), NEVER)
    vis_to = _number(source.get("vis_to"), NEVER)
    meta_gen = _number(source.get("meta_gen"), 0)
    acl, acl_prev = _acl(source.get("acl")), _acl(source.get("acl_prev", source.get("acl")))
    collection = source.get("collection") or ""
    collection_prev = source.get("collection_prev", collection) or ""
    visible = vis_from <= before < vis_to
    shown = (acl, collection) if meta_gen <= before else (acl_prev, collection_prev)
    should = truth.rev_key is not None and source.get("rev_key") == truth.rev_key
    want: dict[str, Any] = {}
    if visible and should:
        want["vis_to"] = NEVER
        if shown != (truth.acl, truth.collection):  # readers before `gen` keep the old pair
            want.update(acl_prev=list(shown[0]), collection_prev=shown[1], meta_gen=gen)
        else:
            want.update(acl_prev=list(truth.acl), collection_prev=truth.collection, meta_gen=0)
        want.update(acl=list(truth.acl), collection=truth.collection)
    elif visible:  # current before `gen`, not from it on
        want["vis_to"] = gen
        want.update(acl=list(shown[0]), acl_prev=list(shown[0]), collection=shown[1],
                    collection_prev=shown[1], meta_gen=0)
    else:
        if should:
            want.update(vis_from=gen, vis_to=NEVER)
        elif vis_from > before:  # never current, or an unpublished value of a dead holder
            want.update(vis_from=NEVER, vis_to=NEVER)
        # Invisible to readers before `gen`: the document's pair applies directly (a copy of an
        # old revision then reads back with the document's ACL, as revision_chunks promises).
        pair = (truth.acl, truth.collection) if truth.exists else shown
        want.update(acl=list(pair[0]), acl_prev=list(pair[0]), collection=pair[1],
                    collection_prev=pair[1], meta_gen=0)
    changed = {
        k: v for k, v in want.items()
        if (list(_acl(source.get(k))) if k in ("acl", "acl_prev") else source.get(k)) != v
        or k not in source
    }
    return changed or None


def visibility_clauses(
    gen: int,
    *,
    acl_tokens: Sequence[str] | None,
    collections: Sequence[str] = (),
    terms: Any,
) -> list[dict[str, Any]]:
    """The filter clauses that admit exactly the copies current at ``gen`` whose ACL (at
    ``gen``) meets ``acl_tokens`` (None: unrestricted) and whose collection is one of
    ``collections`` (empty: any). ``terms(field, values)`` builds a (split) ``terms`` clause."""
    clauses: list[dict[str, Any]] = [
        {"range": {"vis_from": {"lte": gen}}},
        {"range": {"vis_to": {"gt": gen}}},
    ]
    if acl_tokens is not None or collections:
        clauses.append(meta_clause(gen, acl_tokens=acl_tokens, collections=collections, terms=terms))
    return clauses


def meta_clause(
    gen: int, *, acl_tokens: Sequence[str] | None, collections: Sequence[str] = (), terms: Any
) -> dict[str, Any]:
    """Copies whose ACL and collection at ``gen`` meet the principal and the filter: the pair
    from ``meta_gen`` on, the previous pair before it."""

    def branch(acl_field: str, collection_field: str, meta: dict[str, Any]) -> dict[str, Any]:
        inner: list[dict[str, Any]] = [{"range": {"meta_gen": meta}}]
        if acl_tokens is not None:
            inner.append({"terms": {acl_field: list(acl_tokens)}})
        if collections:
            inner.append(terms(collection_field, collections))
        return {"bool": {"filter": inner}}

    return {"bool": {"should": [
        branch("acl", "collection", {"lte": gen}),
        branch("acl_prev", "collection_prev", {"gt": gen}),
    ], "minimum_should_match": 1}}


@dataclass(frozen=True, slots=True)
class Held:
    """A held generation lease: readers are at ``gen``; the holder publishes ``gen + 1``."""

    gen: int
    owner: str
    version: dict[str, int]
    stale_doc: str | None  # the document a dead holder was switching (to re-settle first)


class GenerationLease:
    """The ``state`` document of ``{prefix}-visibility``: ``gen`` (what readers see) and
    ``lock`` (the holder, its document and its expiry). Read with realtime GETs, written with
    ``if_seq_no``/``if_primary_term``, so no refresh is needed."""

    def __init__(self, es: Any, index: str) -> None:
        self.es = es
        self.index = index

    def _read(self) -> tuple[dict[str, Any], dict[str, int]] | None:
        from elasticsearch import NotFoundError

        try:
            body = self.es.get(index=self.index, id=STATE_ID, realtime=True).body
        except NotFoundError:
            return None
        if not body.get("found"):
            return None
        return body["_source"], {"if_seq_no": body["_seq_no"], "if_primary_term": body["_primary_term"]}

    def generation(self) -> int:
        """The generation readers use now (0 before the first switch)."""
        found = self._read()
        return int(found[0].get("gen", 0)) if found else 0

    def acquire(self, doc_id: str) -> Held:
        """Take the lease for a switch of ``doc_id``; waits for a live holder (up to
        :data:`WAIT_S`, then :class:`StoreUnavailable`) and takes over an expired one."""
        from elasticsearch import ConflictError

        owner = uuid.uuid4().hex
        deadline = time.monotonic() + WAIT_S
        pause = 0.005
        while True:
            now_ms = int(time.time() * 1000)
            lock = {"owner": owner, "doc_id": doc_id, "until_ms": now_ms + LEASE_MS}
            found = self._read()
            try:
                if found is None:
                    response = self.es.create(index=self.index, id=STATE_ID,
                                              document={"gen": 0, "lock": lock})
                    return Held(0, owner, _version(response.body), None)
                source, version = found
                held = source.get("lock")
                if held and held.get("owner") == owner:  # our write landed; its reply was lost
                    return Held(int(source.get("gen", 0)), owner, version, None)
                if not held or int(held.get("until_ms", 0)) <= now_ms:
                    stale = held.get("doc_id") if held else None
                    if held:
                        _log.warning("es_visibility_lease_taken_over", doc_id=stale)
                    gen = int(source.get("gen", 0))
                    response = self.es.index(index=self.index, id=STATE_ID,
                                             document={"gen": gen, "lock": lock}, **version)
                    return Held(gen, owner, _version(response.body), stale)
            except ConflictError:
                continue  # someone else wrote the state in between: read again
            if time.monotonic() > deadline:
                raise StoreUnavailable("another visibility switch holds the index; retry later")
            time.sleep(pause)
            pause = min(pause * 2, 0.1)

    def publish(self, held: Held) -> int:
        """Make ``held.gen + 1`` the generation of every reader and release the lease."""
        from elasticsearch import ConflictError

        gen = held.gen + 1
        try:
            self.es.index(index=self.index, id=STATE_ID, document={"gen": gen, "lock": None},
                          **held.version)
        except ConflictError:
            found = self._read()
            if found and int(found[0].get("gen", 0)) == gen and not found[0].get("lock"):
                return gen  # our write landed and a retry of it conflicted with itself
            raise StoreUnavailable(
                "the visibility lease expired before the switch was published; retry"
            ) from None
        return gen

    def release(self, held: Held) -> None:
        """Give the lease back without publishing (nothing of ``held.gen + 1`` is visible)."""
        from elasticsearch import ConflictError

        try:
            self.es.index(index=self.index, id=STATE_ID,
                          document={"gen": held.gen, "lock": None}, **held.version)
        except ConflictError:
            pass  # taken over meanwhile: the new holder repairs


def _version(body: dict[str, Any]) -> dict[str, int]:
    return {"if_seq_no": body["_seq_no"], "if_primary_term": body["_primary_term"]}
