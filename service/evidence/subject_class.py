"""SUBJECT_CLASS_IDENTIFIED: read the question (or take the structured subject) into a fixed
subject class. Question shapes, role nouns and constraint phrases are data
(``service/data/question_patterns.json``); no model runs here, so the same question always gives
the same class. A question that fits no shape is ``understood=False`` and keeps only the names it
contains, which the hard gate then checks as they are: no guessing."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import Any

from ingest.lexicons import lexicons
from ingest.normalize import name_words, normalise_jurisdiction, normalise_plain, straighten_quotes
from service.evidence.data import cues, question_patterns
from service.evidence.models import EvidenceRequest, SubjectSpec

_QUESTION_WORDS = frozenset(
    "who what which when where why how is are was were does do did list under in the a an".split()
)


@dataclass(slots=True)
class SubjectClass:
    understood: bool
    kind: str | None = None  # entity_role | agreement_attribute | entity_attribute
    subject_type: str | None = None  # person/org (role holder), agreement, org (entity attribute)
    name: str | None = None  # the entity asked about (entity_attribute) or the focus party
    role: str | None = None  # canonical role, e.g. "founder", "chief executive officer"
    relation: str | None = None  # the binding the answer must have to the parent: founder_of
    inverse_relation: str | None = None  # the same fact stated from the parent: parent_of
    parent_entity: str | None = None
    agreement_title: str | None = None
    parties: list[str] = field(default_factory=list)
    attribute: str | None = None
    attribute_label: str | None = None
    document_type: str | None = None  # agreement kind from the title, e.g. "distribution"
    period: dict[str, str] | None = None  # {"start": ISO date, "end": ISO date}
    jurisdiction: str | None = None  # canonical key, e.g. "delaware"
    names: list[str] = field(default_factory=list)  # every name the question contains
    pattern: str | None = None
    source: str = "question"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


# -- lexicon helpers ------------------------------------------------------------------------


def _role_variants() -> dict[str, str]:
    """Normalised surface form -> canonical role, from ner_models/roles.json (shared with NER)."""
    from ingest.lexicons import load_json

    out: dict[str, str] = {}
    for canonical, entry in sorted(load_json("roles.json")["titles"].items()):
        out.setdefault(normalise_plain(canonical), canonical)
        for variant in entry["variants"]:
            out.setdefault(normalise_plain(variant), canonical)
    return out


def resolve_role(text: str) -> tuple[str, str, str | None] | None:
    """(canonical role, relation, inverse relation) for a role phrase, or None if unknown. Only
    lexicon entries count: a role that merely looks similar is not the role."""
    words = name_words(text)
    while words and words[0] in ("the", "a", "an", "all", "its", "their"):
        words = words[1:]
    phrase = " ".join(words)
    nouns = {normalise_plain(k): v for k, v in question_patterns()["role_nouns"].items() if not k.startswith("_")}
    titles = lexicons().role_titles
    variants = _role_variants()
    for candidate in (phrase, phrase[:-1] if phrase.endswith("s") else None):
        if not candidate:
            continue
        if candidate in nouns:
            entry = nouns[candidate]
            return candidate, entry["relation"], entry.get("inverse")
        if candidate in variants:
            canonical = variants[candidate]
            return canonical, titles[canonical].relation, None
    return None


def agreement_kind(title: str) -> str | None:
    """The kind of an agreement title by the very rule ingest used for the registry's ``kind``
    attribute (``ingest.agreements.agreement_kind``), so the two can be compared."""
    from ingest.agreements import agreement_kind as ingest_kind

    kind = ingest_kind(title)
    return None if kind == "other" else kind


def expand_abbreviations(title: str) -> str:
    abbreviations = {k.casefold(): v for k, v in lexicons().agreement_abbreviations.items()}
    words = []
    for word in name_words(title):
        words.extend(name_words(abbreviations.get(word, word)))
    return " ".join(words)


def clean_title(title: str) -> str:
    words = name_words(title)
    while words and words[0] in ("the", "this", "that", "a", "an"):
        words = words[1:]
    return " ".join(words)


def split_parties(text: str) -> list[str]:
    """Split 'A, Inc. and B Corp' into names; a comma before a legal suffix ('Acme, Inc.') does
    not split."""
    suffixes = set(lexicons().strippable_suffixes)
    parts: list[str] = []
    for piece in re.split(r"\s+(?:and|&)\s+|\s*;\s*", text.strip()):
        fragments = [f.strip() for f in piece.split(",")]
        merged: list[str] = []
        for fragment in fragments:
            if not fragment:
                continue
            if merged and tuple(name_words(fragment)) in suffixes:
                merged[-1] = f"{merged[-1]}, {fragment}"
            else:
                merged.append(fragment)
        parts.extend(merged)
    return [p.strip() for p in parts if p.strip(" .")]


def _strip_article(text: str) -> str:
    return re.sub(r"^(?:the|a|an)\s+", "", text.strip(), flags=re.IGNORECASE)


def _cut_tail(parties: str) -> str:
    tails = question_patterns()["tail_verbs"]
    best = len(parties)
    for verb in tails:
        m = re.search(rf"\s+{re.escape(verb)}\b", parties, re.IGNORECASE)
        if m and m.start() < best:
            best = m.start()
    return parties[:best].strip(" ,")


def detect_attribute(text: str) -> str | None:
    for key, attribute in cues().attributes.items():
        if any(p.search(text) for p in attribute.question_cues):
            return key
    return None


def find_names(question: str) -> list[str]:
    """Capitalised name spans, without leading question words: what an un-understood question
    can still be gated on."""
    names = []
    for match in question_patterns()["_name_span"].finditer(question):
        words = match.group(0).split()
        while words and words[0].casefold() in _QUESTION_WORDS:
            words = words[1:]
        span = re.sub(r"(?:'s|’s)$", "", " ".join(words)).strip(" ?.,;:") if words else ""
        if span and span not in names:
            names.append(span)
    return names


# -- constraints ----------------------------------------------------------------------------


def _cut_constraints(question: str) -> tuple[str, dict[str, str] | None, str | None]:
    patterns = question_patterns()
    period = None
    jurisdiction = None
    for pattern in patterns["_period"]:
        m = pattern.search(question)
        if m:
            start = m.group("year")
            end = m.groupdict().get("year_end") or start
            period = {"start": f"{start}-01-01", "end": f"{end}-12-31"}
            question = (question[: m.start()] + question[m.end() :]).strip()
            break
    for pattern in patterns["_jurisdiction"]:
        m = pattern.search(question)
        if m:
            raw = m.group("jurisdiction")
            jurisdiction = normalise_jurisdiction(raw) or normalise_plain(raw)
            question = (question[: m.start()] + question[m.end() :]).strip()
            break
    return question, period, jurisdiction


# -- the step -------------------------------------------------------------------------------


def from_spec(spec: SubjectSpec) -> SubjectClass:
    attribute = spec.attribute
    role = relation = inverse = None
    if spec.role:
        resolved = resolve_role(spec.role)
        if resolved:
            role, relation, inverse = resolved
    period = None
    if spec.period_start or spec.period_end:
        period = {
            "start": (spec.period_start or spec.period_end).isoformat(),  # type: ignore[union-attr]
            "end": (spec.period_end or spec.period_start).isoformat(),  # type: ignore[union-attr]
        }
    understood = {
        "entity_role": bool(spec.parent_entity and relation),
        "agreement_attribute": bool(spec.agreement_title and attribute in cues().attributes),
        "entity_attribute": bool(spec.name and attribute in cues().attributes),
        "entity_relation": bool(spec.parent_entity and relation),
    }[spec.kind]
    kind = "entity_role" if spec.kind == "entity_relation" else spec.kind
    names = [n for n in (spec.name, spec.parent_entity, *spec.parties) if n]
    return SubjectClass(
        understood=understood,
        kind=kind,
        subject_type=spec.type or {"agreement_attribute": "agreement"}.get(kind),
        name=spec.name,
        role=role or spec.role,
        relation=relation,
        inverse_relation=inverse,
        parent_entity=spec.parent_entity,
        agreement_title=spec.agreement_title,
        parties=list(spec.parties),
        attribute=attribute,
        attribute_label=cues().attributes[attribute].label if attribute in cues().attributes else None,
        document_type=agreement_kind(spec.agreement_title) if spec.agreement_title else None,
        period=period,
        jurisdiction=(normalise_jurisdiction(spec.jurisdiction) or normalise_plain(spec.jurisdiction))
        if spec.jurisdiction
        else None,
        names=names,
        pattern="structured",
        source="structured",
    )


def identify(request: EvidenceRequest) -> SubjectClass:
    if request.subject is not None:
        return from_spec(request.subject)
    return parse_question(request.question)


def parse_question(question: str) -> SubjectClass:
    text = straighten_quotes(question).strip()
    text = re.sub(r"\s+", " ", text).rstrip(" ?.!")
    body, period, jurisdiction = _cut_constraints(text)
    body = body.rstrip(" ?.!,")
    for structure in question_patterns()["_structures"]:
        m = structure["_re"].match(body)
        if not m:
            continue
        groups = {k: (v.strip() if v else None) for k, v in m.groupdict().items()}
        built = _build(structure, groups, body, m)
        if built is None:
            continue
        built.period = period
        built.jurisdiction = jurisdiction
        built.names = find_names(text)
        return built
    return SubjectClass(
        understood=False,
        period=period,
        jurisdiction=jurisdiction,
        names=find_names(text),
        pattern=None,
    )


def _build(structure: dict[str, Any], g: dict[str, str | None], body: str, m: re.Match[str]) -> SubjectClass | None:
    kind = structure["kind"]
    if kind == "entity_role":
        if not g.get("role") or not g.get("parent"):
            return None
        resolved = resolve_role(g["role"])
        if resolved is None:
            return None
        role, relation, inverse = resolved
        return SubjectClass(
            understood=True,
            kind=kind,
            subject_type=None,  # a role may be held by a person or an organisation
            role=role,
            relation=relation,
            inverse_relation=inverse,
            parent_entity=_strip_article(g["parent"]),
            attribute="role",
            attribute_label=role,
            pattern=structure["id"],
        )
    if kind == "entity_attribute":
        attribute = structure["attribute"]
        return SubjectClass(
            understood=True,
            kind=kind,
            subject_type="org",
            name=_strip_article(g["entity"] or ""),
            attribute=attribute,
            attribute_label=cues().attributes[attribute].label,
            pattern=structure["id"],
        )
    # agreement_attribute
    title = g.get("title")
    if not title or not clean_title(title):
        return None
    parties = split_parties(_cut_tail(g["parties"])) if g.get("parties") else []
    focus = _strip_article(g["entity"]) if g.get("entity") else None
    if focus and all(normalise_plain(focus) != normalise_plain(p) for p in parties):
        parties = [focus, *parties]
    attribute = structure.get("attribute")
    if attribute is None:
        # Cue words are looked for outside the title and party names ("LICENSE AGREEMENT" must
        # not make every question about it a license-grant question).
        outside = body[: m.start("title")] + " " + body[m.end("title") :]
        if g.get("parties"):
            outside = body[: m.start("title")] + " " + body[m.end("parties") :]
            outside += " " + (g["parties"] or "")[len(_cut_tail(g["parties"] or "")) :]
        attribute = detect_attribute(outside)
    understood = attribute is not None
    return SubjectClass(
        understood=understood,
        kind=kind,
        subject_type="agreement",
        name=focus,
        agreement_title=clean_title(title).upper() if title.isupper() else title.strip(),
        parties=parties,
        attribute=attribute,
        attribute_label=cues().attributes[attribute].label if attribute else None,
        document_type=agreement_kind(title),
        pattern=structure["id"],
    )
