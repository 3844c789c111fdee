"""The document-id namespaces of the API: every principal names documents in its own namespace.

A doc id a client chooses at upload is a *name* in the uploader's namespace: the document's id is
``<principal>~<name>`` (``alice~lease-2021``). So whether an upload creates a document depends
only on the uploader's own namespace and on what the uploader may read, never on documents
other principals hold: the same name from two principals makes two documents, and no status,
error, id, job id or later state tells one uploader whether another used the name.

Reading ids back (``GET /v1/documents/{doc_id}`` and the other document paths, search filters,
evidence scopes, MCP tools):

* a full id (``owner~name``) means that document;
* a bare id (no ``~``) means the document with exactly that id when the caller may read it
  (server-generated ``doc-<hex>`` ids, documents ingested with ``attest ingest``, documents
  uploaded before namespaces), else the caller's own ``<principal>~<id>``. In search filters and
  evidence scopes, where ids are filters rather than look-ups, a bare id matches both.

Uploading to a full id in another principal's namespace is a new revision of that document when
the caller may read it, and otherwise the 404 every unreadable document gets (absent and
forbidden alike). ``~`` is reserved for namespaces: a chosen name may not contain it.
"""

from __future__ import annotations

from typing import Iterable

from ingest.schema import DocumentRecord
from ingest.store.port import Principal, Store

__all__ = [
    "MAX_DOC_ID_CHARS",
    "NAMESPACE_SEPARATOR",
    "doc_id_candidates",
    "expand_doc_ids",
    "namespace_of",
    "own_doc_id",
    "resolve_readable",
]

NAMESPACE_SEPARATOR = "~"
MAX_DOC_ID_CHARS = 200  # the whole id, namespace included (path, filter and scope bounds)


def own_doc_id(principal: Principal, name: str) -> str:
    """The id of ``name`` in ``principal``'s namespace."""
    return f"{principal.name}{NAMESPACE_SEPARATOR}{name}"


def namespace_of(doc_id: str) -> str | None:
    """The principal whose namespace a full id is in; None for a bare id."""
    owner, sep, _ = doc_id.partition(NAMESPACE_SEPARATOR)
    return owner if sep else None


def doc_id_candidates(principal: Principal, raw: str) -> tuple[str, ...]:
    """The ids ``raw`` may mean for ``principal``, in the order they are tried."""
    if namespace_of(raw) is not None:
        return (raw,)
    return (raw, own_doc_id(principal, raw))


def expand_doc_ids(principal: Principal, ids: Iterable[str]) -> list[str]:
    """Filter ids as the store must see them: each bare id also as the caller's own."""
    out: list[str] = []
    for raw in ids:
        for candidate in doc_id_candidates(principal, raw):
            if candidate not in out:
                out.append(candidate)
    return out


def resolve_readable(store: Store, principal: Principal, raw: str) -> DocumentRecord | None:
    """The document ``raw`` names for ``principal`` among those it may read, or None."""
    for candidate in doc_id_candidates(principal, raw):
        if len(candidate) > MAX_DOC_ID_CHARS:
            continue
        record = store.visible_document(candidate, principal)
        if record is not None:
            return record
    return None


def resolve_any(store: Store, principal: Principal, raw: str) -> DocumentRecord | None:
    """For admins managing any document (delete, ACL change): readable first, then any."""
    record = resolve_readable(store, principal, raw)
    if record is not None or not principal.admin:
        return record
    for candidate in doc_id_candidates(principal, raw):
        if len(candidate) <= MAX_DOC_ID_CHARS:
            record = store.get_document(candidate)
            if record is not None:
                return record
    return None
