"""SUBJECT_CLASS_IDENTIFIED: read the question (or take the structured subject) into a fixed
subject class. Question shapes, role nouns and constraint phrases are data
(``service/data/question_patterns.json``); no model runs here, so the same question always gives
the same class. A question that fits no shape is ``understood=False`` and keeps only the names it
contains, which the hard gate then checks as they are: no guessing."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from typing import Any

from ingest.lexicons import lexicons
from ingest.normalize import normalise_jurisdiction, normalise_plain
from ingest.text import name_words, straighten_quotes
from service.evidence.data import cues, question_patterns
from service.evidence.models import EvidenceRequest, SubjectSpec
from service.evidence.titles import clean_title, known_agreement_kind

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
    # The party list as pieces between separators (legal-suffix fragments already re-attached)
    # and the separators themselves; the gate may re-join neighbours ("Stratton, Cheeseman &
    # Walsh-Nevada, Inc."). Empty separators: each piece is a whole name (structured subject).
    party_separators: list[str] = field(default_factory=list)
    attribute: str | None = None
    attribute_label: str | None = None
    document_type: str | None = None  # agreement kind from the title, e.g. "distribution"
    period: dict[str, str] | None = None  # {"start": ISO date, "end": ISO date}
    jurisdiction: str | None = None  # canonical key, e.g. "delaware"
    names: list[str] = field(default_factory=list)  # every name the question contains
    pattern: str | None = None
    source: str = "question"
    # Why the question's subject cannot be read safely; any entry makes the gate fail closed.
    failures: list[str] = field(default_factory=list)

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


@dataclass(frozen=True, slots=True)
class PartyList:
    pieces: list[str]
    separators: list[str]  # separators[i] joins pieces[i] and pieces[i + 1]
    failures: list[str]


@dataclass(frozen=True, slots=True)
class _PartyGrammar:
    keyword: re.Pattern[str]  # opens a party list right after the title
    keyword_inside: re.Pattern[str]  # a party keyword further on
    gap: re.Pattern[str]  # words that may continue a title up to the party keyword
    separator: re.Pattern[str]
    stray: re.Pattern[str]
    description: re.Pattern[str]  # "and its Affiliates": says who else, names no one
    max_join: int


@lru_cache(maxsize=1)
def party_grammar() -> _PartyGrammar:
    raw = question_patterns()
    word = raw["title_gap_word"]
    phrases = "|".join(re.escape(p).replace(r"\ ", r"\s+") for p in raw["gap_phrases"])
    return _PartyGrammar(
        keyword=re.compile(raw["party_keyword"], re.IGNORECASE),
        keyword_inside=re.compile(raw["party_keyword_inside"], re.IGNORECASE),
        gap=re.compile(rf"(?:\s*,?\s*(?:{phrases})\b|\s+{word})+\s*,?\s*"),
        separator=re.compile(raw["separator"], re.IGNORECASE),
        stray=re.compile("[" + re.escape(raw["stray_characters"]) + "]"),
        description=re.compile(raw["party_description"], re.IGNORECASE),
        max_join=int(raw["max_join"]),
    )


def limits() -> dict[str, int]:
    return dict(question_patterns()["limits"])


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a party name as written, or None. Stray punctuation is never
    skipped over: a name the parser cannot read is a question the gate cannot answer."""
    stripped = name.strip()
    if len(stripped) > limits()["name_chars"]:
        return f"party name longer than {limits()['name_chars']} characters: {stripped[:40]!r}..."
    stray = party_grammar().stray.search(stripped)
    if stray:
        return f"stray {stray.group()!r} in party name {stripped!r}"
    depth = 0
    for char in stripped:
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth < 0:
            break
    if depth != 0:
        return f"unbalanced parenthesis in party name {stripped!r}"
    if sum(c.isalpha() for c in stripped) < 2:
        return f"{stripped!r} is not a name"
    return None


def read_party_list(text: str) -> PartyList:
    """Split a question's party list into pieces at the separators of question_patterns.json,
    re-attaching legal-suffix fragments ("Acme, Inc."), and check every piece. Linear in the
    length of ``text``; more pieces than the limit is a failure, not a truncation."""
    suffixes = set(lexicons().strippable_suffixes)
    pieces: list[str] = []
    separators: list[str] = []
    failures: list[str] = []
    text = party_grammar().description.sub("", text)
    position = 0
    raw: list[tuple[str, str]] = []  # (piece, separator before it)
    previous_separator = ""
    for match in party_grammar().separator.finditer(text):
        raw.append((text[position : match.start()], previous_separator))
        previous_separator = match.group()
        position = match.end()
    raw.append((text[position:], previous_separator))
    for piece, separator in raw:
        piece = piece.strip()
        if not piece:
            failures.append(f"empty party name in {text.strip()!r}")
            continue
        if pieces and "," in separator and tuple(name_words(piece)) in suffixes:
            pieces[-1] = f"{pieces[-1]}{separator}{piece}"
            continue
        if pieces:
            separators.append(separator)
        pieces.append(piece)
    cap = limits()["parties"]
    if len(pieces) > cap:
        return PartyList([], [], [f"too many party names ({len(pieces)} > {cap}); name at most {cap}"])
    for piece in pieces:
        problem = name_problem(piece)
        if problem:
            failures.append(problem)
    return PartyList(pieces, separators, failures)


def _strip_article(text: str) -> str:
    return re.sub(r"^(?:the|a|an)\s+", "", text.strip(), flags=re.IGNORECASE)


def _cut_tail(parties: str) -> str:
    tails = question_patterns()["tail_verbs"]
    best = len(parties)
    for verb in tails:
        # Case-sensitive: "First State Bank" and "Provident Has Ltd." are names, not tails.
        m = re.search(rf"\s+{re.escape(verb)}\b", parties)
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
    failures: list[str] = []
    cap = limits()["parties"]
    if len(spec.parties) > cap:
        failures.append(f"too many party names ({len(spec.parties)} > {cap}); name at most {cap}")
    else:
        failures.extend(p for p in (name_problem(n) for n in spec.parties) if p)
    names = [n for n in (spec.name, spec.parent_entity, *spec.parties[:cap]) if n]
    return _check_subject_names(SubjectClass(
        understood=understood,
        kind=kind,
        subject_type=spec.type or {"agreement_attribute": "agreement"}.get(kind),
        name=spec.name,
        role=role or spec.role,
        relation=relation,
        inverse_relation=inverse,
        parent_entity=spec.parent_entity,
        agreement_title=spec.agreement_title,
        parties=list(spec.parties) if not failures else [],
        attribute=attribute,
        attribute_label=cues().attributes[attribute].label if attribute in cues().attributes else None,
        document_type=known_agreement_kind(spec.agreement_title) if spec.agreement_title else None,
        period=period,
        jurisdiction=(normalise_jurisdiction(spec.jurisdiction) or normalise_plain(spec.jurisdiction))
        if spec.jurisdiction
        else None,
        names=names,
        pattern="structured",
        source="structured",
        failures=failures,
    ))


def identify(request: EvidenceRequest) -> SubjectClass:
    if request.subject is not None:
        return from_spec(request.subject)
    return parse_question(request.question)


def title_problem(title: str) -> str | None:
    """Why an agreement title cannot be matched as written: stray characters or an unbalanced
    parenthesis ("/" is allowed: "Affiliate Program / Premium Affiliate Management ...")."""
    stray = party_grammar().stray.search(title)
    if stray:
        return f"stray {stray.group()!r} in agreement title {title.strip()!r}"
    if title.count("(") != title.count(")"):
        return f"unbalanced parenthesis in agreement title {title.strip()!r}"
    return None


def _check_subject_names(sc: SubjectClass) -> SubjectClass:
    """Fail closed on the entity, parent and title names too, not only on party lists."""
    problems = [name_problem(n) for n in (sc.name, sc.parent_entity) if n]
    if sc.agreement_title:
        problems.append(title_problem(sc.agreement_title))
    for problem in problems:
        if problem and problem not in sc.failures:
            sc.failures.append(problem)
    if sc.failures:
        sc.parties, sc.party_separators = [], []
    return sc


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
        return _check_subject_names(built)
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
    failures: list[str] = []
    party_text = g.get("parties")
    title_end = m.end("title")
    rest = g.get("rest")
    if rest is not None and party_text is None:
        title, party_text, tail_start, failures = _read_rest(body, m.start("title"), title_end)
        if party_text is not None:
            title_end = tail_start
    party_list = read_party_list(_cut_tail(party_text)) if party_text else PartyList([], [], [])
    failures.extend(party_list.failures)
    parties = list(party_list.pieces)
    separators = list(party_list.separators)
    focus = _strip_article(g["entity"]) if g.get("entity") else None
    if focus and all(normalise_plain(focus) != normalise_plain(p) for p in parties):
        parties = [focus, *parties]
        # The focus party is a name of its own: never joined with the first listed party.
        separators = ["; ", *separators] if len(parties) > 1 else separators
    attribute = structure.get("attribute")
    if attribute is None:
        # Cue words are looked for outside the title and party names ("LICENSE AGREEMENT" must
        # not make every question about it a license-grant question).
        outside = body[: m.start("title")] + " " + body[title_end:]
        if party_text:
            cut = _cut_tail(party_text)
            outside = body[: m.start("title")] + " " + party_text[len(cut) :]
        attribute = detect_attribute(outside)
    understood = attribute is not None
    return SubjectClass(
        understood=understood,
        kind=kind,
        subject_type="agreement",
        name=focus,
        agreement_title=clean_title(title).upper() if title.isupper() else title.strip(),
        parties=parties if not failures else [],
        party_separators=separators if not failures else [],
        attribute=attribute,
        attribute_label=cues().attributes[attribute].label if attribute else None,
        document_type=known_agreement_kind(title),
        pattern=structure["id"],
        failures=failures,
    )


def _read_rest(body: str, title_start: int, title_end: int) -> tuple[str, str | None, int, list[str]]:
    """What follows an agreement title: nothing, a party list ("between A and B"), more title
    words before one ("Service Agreement For Transfer Agent Services between ..."), or the rest
    of the question. Returns (title, party list text or None, where the title's clause ends,
    failures). Text that is neither title nor party list before a party keyword fails closed:
    "Intellectual Property Agreement, D between ..." is never read as a title-only question."""
    grammar = party_grammar()
    rest = body[title_end:]
    title = body[title_start:title_end]
    opening = grammar.keyword.match(rest)
    if opening:
        return title, rest[opening.end() :], title_end, []
    inside = grammar.keyword_inside.search(rest)
    if inside is None:
        return title, None, title_end, []
    gap = rest[: inside.start()]
    after = rest[inside.end() :]
    if grammar.gap.fullmatch(gap):
        # Phrases such as "entered into" are not title words; capitalised words are.
        extension = re.match(r"(?:\s+" + question_patterns()["title_gap_word"] + r")*", gap)
        extended = title + (gap[: extension.end()] if extension else "")
        return extended, after, title_end + len(gap), []
    return title, None, title_end, [
        f"the question names parties after {title!r}, but {gap.strip()!r} between the title and "
        "the party list is neither title nor party names"
    ]
