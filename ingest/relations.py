"""Relation extraction from the data patterns in ``ner_models/relation_patterns.json``.

The patterns are regexes over a "slotted" rendering of a chunk in which every resolved entity
mention is a slot ``⟦ORG#3⟧``; so a binding can only ever connect named, resolved entities. A
role with no named parent ("the company's founder, Jane Doe", lower-case "company" resolving to
nothing) cannot match and yields no binding.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from ingest.entities import Mention
from ingest.lexicons import lexicons, load_json
from ingest.text import straighten_quotes

_SLOT_TYPE = {
    "ORG": "ORG",
    "PERSON": "PERSON",
    "ROLE": "ROLE",
    "JURISDICTION": "JUR",
    "AGREEMENT": "AGR",
    "PLACE": "PLACE",
}
_MACRO = re.compile(r"\{([A-Z_]+)(?::(\w+))?\}")
_SLOT_NAMES = {"ORG", "PERSON", "ROLE", "JUR", "AGR", "PLACE", "PARTY"}


@dataclass(frozen=True, slots=True)
class RelationPattern:
    pattern_id: str
    relation: str  # a relation kind, or "@role"
    regex: re.Pattern[str]


@dataclass(frozen=True, slots=True)
class Relation:
    subject_id: str
    relation: str
    object_id: str
    role: str | None
    start: int
    end: int
    pattern_id: str


def _expand(pattern: str, macros: dict[str, str]) -> str:
    def replace(match: re.Match[str]) -> str:
        name, group = match.group(1), match.group(2)
        if name in _SLOT_NAMES:
            types = "(?:ORG|PERSON)" if name == "PARTY" else name
            number = rf"(?P<{group}>\d+)" if group else r"\d+"
            return rf"⟦{types}#{number}⟧"
        if name not in macros:
            raise KeyError(f"unknown macro {{{name}}} in relation pattern")
        return _expand(macros[name], macros)

    return _MACRO.sub(replace, pattern)


@lru_cache(maxsize=1)
def relation_patterns() -> tuple[tuple[RelationPattern, ...], dict[str, frozenset[str]]]:
    data = load_json("relation_patterns.json")
    macros = data["macros"]
    compiled = tuple(
        RelationPattern(p["id"], p["relation"], re.compile(_expand(p["pattern"], macros), re.I))
        for p in data["patterns"]
    )
    subject_types = {k: frozenset(v) for k, v in data["subject_types"].items()}
    return compiled, subject_types


@dataclass(frozen=True, slots=True)
class _Slotted:
    text: str
    origin: list[int]  # character of ``text`` -> offset in the document


def _slotted(document_text: str, start: int, end: int, mentions: Sequence[Mention]) -> _Slotted:
    pieces: list[str] = []
    origin: list[int] = []
    cursor = start

    def add_text(upto: int) -> None:
        raw = straighten_quotes(document_text[cursor:upto])
        # Collapse whitespace but keep each character's origin.
        position = cursor
        for part in re.split(r"(\s+)", raw):
            if not part:
                continue
            if part.isspace():
                pieces.append(" ")
                origin.append(position)
            else:
                pieces.append(part)
                origin.extend(range(position, position + len(part)))
            position += len(part)

    for index, mention in enumerate(mentions):
        if mention.start < cursor:
            continue
        add_text(mention.start)
        slot = f"⟦{_SLOT_TYPE[mention.label]}#{index}⟧"
        pieces.append(slot)
        origin.extend([mention.start] * (len(slot) - 1) + [mention.end - 1])
        cursor = mention.end
    add_text(end)
    return _Slotted("".join(pieces), origin)


def extract_relations(
    document_text: str, start: int, end: int, mentions: Sequence[Mention]
) -> list[Relation]:
    """Relations among ``mentions`` (sorted, non-overlapping) of the span [start, end)."""
    slotted = _slotted(document_text, start, end, mentions)
    if "⟦" not in slotted.text:
        return []
    patterns, subject_types = relation_patterns()
    titles = lexicons().role_titles
    found: dict[tuple[str, str, str], Relation] = {}
    for pattern in patterns:
        for match in pattern.regex.finditer(slotted.text):
            groups = {k: v for k, v in match.groupdict().items() if v is not None}
            subjects = [mentions[int(groups[k])] for k in ("subj", "subj2") if k in groups]
            obj = mentions[int(groups["obj"])] if "obj" in groups else None
            if obj is None:
                continue
            roles = [mentions[int(groups[k])] for k in ("role", "role2") if k in groups]
            kinds: list[tuple[str, str | None]] = []
            if pattern.relation == "@role":
                for role in roles:
                    title = titles.get(role.entity_id.removeprefix("role:"))
                    if title is not None:
                        kinds.append((title.relation, title.display))
            else:
                kinds.append((pattern.relation, None))
            evidence_start = slotted.origin[match.start()]
            evidence_end = slotted.origin[match.end() - 1] + 1
            for subject in subjects:
                if subject.entity_id == obj.entity_id:
                    continue
                for relation, role_name in kinds:
                    allowed = subject_types.get(relation)
                    if allowed is not None and _SLOT_TYPE[subject.label] not in allowed and subject.label not in allowed:
                        continue
                    key = (relation, subject.entity_id, obj.entity_id)
                    candidate = Relation(
                        subject.entity_id, relation, obj.entity_id, role_name,
                        evidence_start, evidence_end, pattern.pattern_id,
                    )
                    current = found.get(key)
                    if current is None or (candidate.start, candidate.end) < (current.start, current.end):
                        found[key] = candidate
    return sorted(found.values(), key=lambda r: (r.start, r.end, r.relation, r.subject_id, r.object_id))
