"""The chunk schema and the other records that ``ingest/`` writes and ``service/`` reads.

Offsets are always into the extracted text of one revision: ``revision_text[char_start:char_end]``.
"""

from __future__ import annotations

import copy
import hashlib
from dataclasses import asdict, dataclass, field, fields
from typing import Any, Literal, TypedDict

DocStatus = Literal["received", "extracting", "indexing", "indexed", "failed", "unchanged"]
PUBLIC_ACL = "*"


class EntityMention(TypedDict):
    text: str
    label: str
    entity_id: str
    char_start: int
    char_end: int


class RelationMention(TypedDict):
    subject_id: str
    relation: str
    object_id: str
    role: str | None
    char_start: int
    char_end: int


class SentenceSpan(TypedDict):
    char_start: int
    char_end: int
    entity_ids: list[str]


@dataclass(slots=True)
class Chunk:
    chunk_id: str
    doc_id: str
    revision: str
    ordinal: int
    title: str
    filename: str
    mime: str
    page: int | None
    section: list[str]
    element_index: int
    line_start: int
    line_end: int
    char_start: int
    char_end: int
    text: str
    acl: list[str]
    collection: str
    ingested_at: str
    embedding: list[float] | None = None
    entities: list[EntityMention] = field(default_factory=list)
    entity_ids: list[str] = field(default_factory=list)
    relations: list[RelationMention] = field(default_factory=list)
    relation_keys: list[str] = field(default_factory=list)
    sentences: list[SentenceSpan] = field(default_factory=list)
    # The sentence units the evidence machine cites ([char_start, char_end] pairs, see
    # ``ingest/units.py``) and their vectors (packed float16 rows, in unit order), both computed
    # at ingest. None: a chunk written before units were stored (the query side computes them).
    units: list[list[int]] | None = None
    unit_vectors: bytes | None = None

    def to_dict(self, with_embedding: bool = False) -> dict[str, Any]:
        """The chunk as plain JSON-able data, in field order, sharing no mutable value with the
        chunk (a caller may change the dict freely). ``unit_vectors`` (bytes) are left out: each
        store keeps them beside the record; ``embedding`` only ``with_embedding``.

        Not ``dataclasses.asdict``: it deep-copies every leaf with ``copy.deepcopy``, so the
        record's lists of mention dicts cost a third of a bulk write (and copying the 384-float
        embedding only to drop it was 85 % before). Strings and numbers are immutable and shared;
        lists and dicts are copied as deep as they nest (``_plain_copy``)."""
        data: dict[str, Any] = {}
        for name in _CHUNK_FIELDS:
            if name == "embedding":
                if with_embedding:
                    data[name] = None if self.embedding is None else list(self.embedding)
                continue
            value = getattr(self, name)
            data[name] = value if type(value) in _IMMUTABLE else _plain_copy(value)
        return data


# Chunk.to_dict: the fields in declaration order, without the packed unit vectors.
_CHUNK_FIELDS = tuple(f.name for f in fields(Chunk) if f.name != "unit_vectors")
_IMMUTABLE = frozenset({str, int, float, bool, type(None)})


def _plain_copy(value: Any) -> Any:
    """A copy of ``value`` sharing no list or dict with it (what ``asdict`` gave for the
    chunk's fields: lists of strings, of TypedDicts, of int pairs); immutable leaves are
    shared; anything else is deep-copied as ``asdict`` would."""
    kind = type(value)
    if kind in _IMMUTABLE:
        return value
    if kind is list:
        return [item if type(item) in _IMMUTABLE else _plain_copy(item) for item in value]
    if kind is dict:
        return {key: item if type(item) in _IMMUTABLE else _plain_copy(item)
                for key, item in value.items()}
    if kind is tuple:
        return tuple(_plain_copy(item) for item in value)
    return copy.deepcopy(value)


def chunk_id_for(doc_id: str, revision: str, ordinal: int) -> str:
    """Deterministic, so a retry after a crash overwrites instead of duplicating."""
    digest = hashlib.sha256(f"{doc_id}\x00{revision}\x00{ordinal}".encode()).hexdigest()
    return digest[:32]


def relation_key(relation: str, subject_id: str, object_id: str) -> str:
    return f"{relation}|{subject_id}|{object_id}"


@dataclass(slots=True)
class Binding:
    """A subject bound to a parent entity, with where the document says so."""

    relation: str
    object_id: str
    object_name: str
    role: str | None
    doc_id: str
    revision: str
    char_start: int
    char_end: int


@dataclass(slots=True)
class SubjectRecord:
    """One subject as one revision of one document knows it. The registry merges these per
    ``subject_id`` over the current revisions a principal may read."""

    subject_id: str
    name: str
    type: str
    doc_id: str
    revision: str
    aliases: list[str] = field(default_factory=list)
    attributes: dict[str, Any] = field(default_factory=dict)
    bindings: list[Binding] = field(default_factory=list)
    char_start: int | None = None
    char_end: int | None = None


@dataclass(slots=True)
class Subject:
    """A registry answer: a subject merged over the documents the principal can read."""

    subject_id: str
    name: str
    type: str
    aliases: list[str]
    attributes: dict[str, Any]
    bindings: list[Binding]
    mentions: list[dict[str, Any]]  # {doc_id, revision, char_start, char_end}

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(slots=True)
class RevisionInfo:
    revision: str
    filename: str
    mime: str
    size: int
    status: str
    created_at: str
    n_chunks: int = 0


@dataclass(slots=True)
class DocumentRecord:
    doc_id: str
    status: str
    stage: str | None
    error: str | None
    current_revision: str | None
    title: str
    filename: str
    acl: list[str]
    collection: str
    metadata: dict[str, Any]
    updated_at: str
    revisions: list[RevisionInfo] = field(default_factory=list)
    # A random id given to the document row when it is created. A delete ends it; a writer that
    # read one incarnation can never write into the next (see ``DocumentDeleted``).
    incarnation: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)
