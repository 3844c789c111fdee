"""Registry entity ids, parsed and formatted in one place.

An id is ``<type>:<key>`` (``org:acme holdings``, ``person:jane doe``, ``jurisdiction:delaware``,
``role:chief executive officer``); an agreement found in a document is
``agreement:<normalised title>@<doc_id>`` (titles repeat across documents, each agreement is its
own subject), and an agreement named only by its title (the parent an amendment names) is
``agreement:<normalised title>``.

Keys are normalised names (``ingest/normalize.py``): words only, so a key never holds ``@``; the
first ``@`` therefore ends the key, and a doc id may itself contain ``@`` or ``:``. A key may be
empty: ingest has always written ``<type>:`` for a name without a single word character, and ids
are read back as they were stored.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable

from ingest.errors import InvalidInputError

_TYPE = re.compile(r"[a-z][a-z_]*")
AGREEMENT = "agreement"


@dataclass(frozen=True, slots=True)
class EntityId:
    type: str
    key: str
    doc_id: str | None = None  # agreements found in a document only

    def __post_init__(self) -> None:
        problem = _problem(self.type, self.key, self.doc_id)
        if problem:
            raise InvalidInputError(f"not an entity id: {problem}")

    @classmethod
    def parse(cls, text: str) -> "EntityId":
        """The id's parts; :class:`InvalidInputError` says what is wrong with a malformed one."""
        type_, colon, rest = text.partition(":")
        if not colon:
            raise InvalidInputError(f"not an entity id: {text!r}: no '<type>:'")
        key, at, doc_id = rest.partition("@")
        problem = _problem(type_, key, doc_id if at else None)
        if problem:
            raise InvalidInputError(f"not an entity id: {text!r}: {problem}")
        return cls(type_, key, doc_id if at else None)

    @classmethod
    def try_parse(cls, text: str) -> "EntityId | None":
        try:
            return cls.parse(text)
        except InvalidInputError:
            return None

    def __str__(self) -> str:
        return f"{self.type}:{self.key}" + (f"@{self.doc_id}" if self.doc_id is not None else "")

    def title_level(self) -> "EntityId":
        """The same agreement named by its title alone (no document)."""
        return EntityId(self.type, self.key)


def _problem(type_: str, key: str, doc_id: str | None) -> str | None:
    if not _TYPE.fullmatch(type_):
        return f"type {type_!r} is not lowercase letters and '_'"
    if "@" in key:
        return f"key {key!r} holds '@'"
    if doc_id is not None:
        if type_ != AGREEMENT:
            return f"only agreement ids name a document, not {type_!r}"
        if not doc_id:
            return "empty doc id after '@'"
    return None


def of_type(ids: Iterable[str], type_: str) -> list[EntityId]:
    """The ids of one type, in the given order; ids that do not parse are skipped (they match no
    type)."""
    parsed = (EntityId.try_parse(i) for i in ids)
    return [e for e in parsed if e is not None and e.type == type_]
