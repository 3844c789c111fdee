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

from ingest.lexicons import lexicons, load_json, phrase_alternation
from ingest.names import government_body_spans, local_government_or_unit
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
    # ``parties`` is the party list read up to the first place where the rest of the question
    # may begin ("... and B without consent"); these are the longer readings, which a name
    # holding a continuation word needs: [{"parties": [...], "separators": [...]}], longest
    # first. The gate takes the longest reading it can bind (``gate.discover``) and writes it
    # back into ``parties``.
    party_readings: list[dict[str, list[str]]] = field(default_factory=list)
    # A title may itself hold a party list ("AMENDMENT TO THE DISTRIBUTOR AGREEMENT BETWEEN
    # INGRAM MICRO AND NETGEAR between Ingram Micro and NETGEAR, Inc."): readings with the title
    # extended up to a later party keyword, [{"title": str, "parties": [...], "separators":
    # [...]}]. The gate tries them first and passes one only on an exact title or alias match
    # with every party bound, the names inside the extended title included.
    title_readings: list[dict[str, Any]] = field(default_factory=list)
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
    word_marks: re.Pattern[str]  # punctuation inside a word of a name ("E*TRADE", "Yahoo!")
    description: re.Pattern[str]  # "and its Affiliates": says who else, names no one
    continuation: re.Pattern[str]  # where the rest of the question may begin after a name
    max_join: int
    role_suffix: re.Pattern[str]  # "Beta LLC as counterparty": a lower-case role, no name
    enumerator: re.Pattern[str]  # "(1) Acme Inc.": a number before a listed party
    relative_gap: re.Pattern[str]  # "the X it signed with ...", "the X that Acme Inc. signed with ..."
    subject_gap: re.Pattern[str]  # "the Agreement for fully disclosed clearing services between ..."


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
        word_marks=re.compile(raw["word_marks"]),
        description=re.compile(raw["party_description"], re.IGNORECASE),
        continuation=_continuation_regex(tuple(raw["continuation_words"])),
        max_join=int(raw["max_join"]),
        role_suffix=re.compile(raw["party_role_suffix"], re.IGNORECASE),
        enumerator=re.compile(raw["party_enumerator"], re.IGNORECASE),
        relative_gap=re.compile(raw["relative_gap"], re.IGNORECASE),
        subject_gap=re.compile(raw["title_subject_gap"], re.IGNORECASE),
    )


def _continuation_regex(words: tuple[str, ...]) -> re.Pattern[str]:
    """A place where a party list may end: a space (or ',', ';', ':', a spaced dash), an optional
    'and'/'or'/'but', then a continuation word. Case-sensitive: in lower case only, so "First
    State Bank" or "Provident Has Ltd." never end there."""
    phrases = "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(words, key=len, reverse=True))
    return re.compile(rf"(?:\s*[,;:]\s*|\s+[-\u2013\u2014]\s+|\s+)(?:(?:and|or|but)\s+)?(?=(?:{phrases})\b)")


def limits() -> dict[str, int]:
    return dict(question_patterns()["limits"])


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a party name as written, or None. Stray punctuation is never
    skipped over: a name the parser cannot read is a question the gate cannot answer."""
    stripped = name.strip()
    if len(stripped) > limits()["name_chars"]:
        return f"party name longer than {limits()['name_chars']} characters: {stripped[:40]!r}..."
    # Curly double quotes are quotes too (a structured subject or registry name is not
    # straightened before it gets here).
    # A mark inside a word of the name ("E*TRADE", "Yahoo! Inc.") is the name's own spelling.
    stray = party_grammar().stray.search(party_grammar().word_marks.sub("", straighten_quotes(stripped)))
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
    text = party_grammar().role_suffix.sub("", text)
    position = 0
    raw: list[tuple[str, str]] = []  # (piece, separator before it)
    previous_separator = ""
    # ("HRPTA Officers (Homeroom Parents and Teachers Association) of Aroroy": a separator inside
    # brackets is the name's own word. The depth is kept as the scan goes, so the split stays
    # linear.)
    depth, counted = 0, 0
    # ("Ministry of Agriculture, Livestock and Irrigation of the Republic of Myanmar": a body named
    # for its portfolios keeps its commas and "and", as the party clause reader reads it.)
    bodies = government_body_spans(text)
    for match in party_grammar().separator.finditer(text):
        depth += text.count("(", counted, match.start()) - text.count(")", counted, match.start())
        counted = match.start()
        if depth > 0 or any(start < match.start() < end for start, end in bodies):
            continue
        raw.append((text[position : match.start()], previous_separator))
        previous_separator = match.group()
        position = match.end()
    raw.append((text[position:], previous_separator))
    for piece, separator in raw:
        piece = party_grammar().enumerator.sub("", piece.strip())
        if not piece:
            failures.append(f"empty party name in {text.strip()!r}")
            continue
        # ("Columbia Laboratories, (Bermuda) Ltd.": the place a legal form is registered in, in
        # brackets before it, is that form's.)
        placed = _PLACE_BEFORE_FORM.fullmatch(piece)
        form = placed.group(1) if placed is not None else piece
        # ("Kerr County, Texas", "City of Salina, Kansas": a local government's state after its
        # comma is part of its name, as the party clause writes it.)
        seated = pieces and "," in separator and _state_of_local_government(pieces[-1], piece)
        if pieces and "," in separator and (tuple(name_words(form)) in suffixes or _generation(form) or seated):
            pieces[-1] = f"{pieces[-1]}{separator}{piece}"
            continue
        if pieces:
            separators.append(separator)
        pieces.append(piece)
    pieces, separators = _join_initials(pieces, separators)
    cap = limits()["parties"]
    if len(pieces) > cap:
        return PartyList([], [], [f"too many party names ({len(pieces)} > {cap}); name at most {cap}"])
    for piece in pieces:
        problem = name_problem(piece)
        if problem:
            failures.append(problem)
    return PartyList(pieces, separators, failures)


def _generation(piece: str) -> bool:
    """Whether ``piece`` is a person's generation ("Jr.", "III"): part of the name before it."""
    words = name_words(piece)
    return len(words) == 1 and words[0] in question_patterns()["name_generations"]


def _state_of_local_government(before: str, piece: str) -> bool:
    """Whether ``piece`` is a state (or country) and ``before`` a local government's name."""
    bare = re.sub(r"^(?:the|The|THE)\s+", "", before.strip())
    return bool(normalise_jurisdiction(piece.strip())) and local_government_or_unit(bare)


_PLACE_BEFORE_FORM = re.compile(r"\([A-Z][\w .'’\-]{1,30}\)\s+(\S.*)")


def _is_initial(piece: str) -> bool:
    """A piece with fewer than two letters ("B", "A.", "3"): no name on its own."""
    return sum(c.isalpha() for c in piece) < 2


def _join_initials(pieces: list[str], separators: list[str]) -> tuple[list[str], list[str]]:
    """Re-attach an initial to the neighbour it is joined to by "&": "B & C General Warehouse
    Corporation LLC", "A & B Co." are one name each, not a letter and a name. Only "&" joins
    (a lone letter after "," or "and" stays a piece, which ``name_problem`` then refuses), and
    the joined text is the question's own, so it must still be bound exactly."""
    pieces, separators = list(pieces), list(separators)
    i = 0
    while len(pieces) > 1 and i < len(pieces):
        if not _is_initial(pieces[i]):
            i += 1
            continue
        if i + 1 < len(pieces) and separators[i].strip() == "&":
            pieces[i : i + 2] = [f"{pieces[i]}{separators[i]}{pieces[i + 1]}"]
            del separators[i]
        elif i > 0 and separators[i - 1].strip() == "&":
            pieces[i - 1 : i + 1] = [f"{pieces[i - 1]}{separators[i - 1]}{pieces[i]}"]
            del separators[i - 1]
            i -= 1
        else:
            i += 1
    return pieces, separators


def _strip_article(text: str) -> str:
    return re.sub(r"^(?:the|a|an)\s+", "", text.strip(), flags=re.IGNORECASE)


def party_readings(text: str) -> tuple[list[PartyList], int]:
    """Every reading of a question's party list: the whole text, then the text up to each place
    where the rest of the question may begin (``party_grammar().continuation``), longest first,
    at most ``limits()["party_readings"]`` of them (the whole text and the earliest ends: a
    name rarely holds a continuation word, so the true end is most often the first). Returns the
    readings and where the earliest one ends in ``text`` (the question's own words follow)."""
    cap = limits()["party_readings"]
    cuts = {m.start(): m.group() for m in party_grammar().continuation.finditer(text) if m.start() > 0}
    ends = sorted(cuts)[: cap - 1]
    readings = [read_party_list(text)]
    for end in reversed(ends):
        reading = _with_names_left_out(read_party_list(text[:end]), text[end:], re.search(r"[,;:\u2013\u2014-]", cuts[end]) is not None)
        if reading is not None:
            readings.append(reading)
    return readings, (ends[0] if ends else len(text))


def _with_names_left_out(reading: PartyList, rest: str, clause_break: bool) -> PartyList | None:
    """The reading, when every capitalised name in the words it leaves out refers to one of its
    pieces ("... and Beta LLC without Beta's consent"). A name that does not makes the reading
    drop a named party: after a clause break (the cut at ", must", "; does", " - can") the name
    is added as one more party that must be bound too ("... with NETGEAR, Inc., must Ingram
    Micro buy ...": "Ingram Micro"); after a plain space the reading is no reading ("Back to
    Basics, Inc. and Omega LLC" cut at "to"). None also when such a name is unreadable or the
    parties would exceed the limit."""
    words = [set(name_words(p)) for p in reading.pieces]
    pieces, separators = list(reading.pieces), list(reading.separators)
    for match in _COMPANY_RUN.finditer(rest):
        name = _trim_name(match.group(0))
        mentioned = set(name_words(name))
        if not mentioned or any(mentioned <= w for w in words) or _names_no_party(name):
            continue
        if not clause_break:
            return None
        # The whole capitalised run, commas included ("Cutanea Life Sciences, Inc."), read
        # like a listed one; a ';' keeps it apart from the list's own pieces.
        extra = read_party_list(name)
        if extra.failures or not extra.pieces:
            return None
        if pieces:
            separators.append("; ")
        pieces.extend(extra.pieces)
        separators.extend(extra.separators)
        words.extend(set(name_words(p)) for p in extra.pieces)
    if len(pieces) > limits()["parties"]:
        return None
    return PartyList(pieces, separators, list(reading.failures))


def detect_attribute(text: str) -> str | None:
    for key, attribute in cues().attributes.items():
        if any(p.search(text) for p in attribute.question_cues):
            return key
    return None


_LEAD_EXTRA = frozenset(
    "between among according pursuant please its their this that these those any all each both either neither".split()
)


def _is_lead_word(word: str) -> bool:
    """A word a capitalised run may start with that is never part of a name: question words,
    auxiliaries, prepositions and the words a question goes on with (``_not_name_words``),
    determiners, in any case ("THE", "After"), and the search's stop words unless in capitals
    ("US Bank", "IT": the name itself). "After the Endorsement Agreement" names the "Endorsement
    Agreement"; "What's" names nothing."""
    from ingest.store.common import stopwords

    bare = re.sub(r"(?:'s|'re|'d|'ll|'ve|'m|’s)$", "", word).casefold()
    if bare in _not_name_words() or bare in _LEAD_EXTRA:
        return True
    return bare in stopwords() and not (word.isupper() and len(word) > 1)


def find_names(question: str) -> list[str]:
    """Capitalised name spans, without the words before the name ("What", "After the", "Must"):
    what an un-understood question can still be gated on, and what the search drops as the
    subject phrase (``collect.query_question``)."""
    names = []
    for match in question_patterns()["_name_span"].finditer(question):
        words = match.group(0).split()
        while words and _is_lead_word(words[0]):
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
    if spec.parties and kind != "agreement_attribute":
        # Only an agreement binds parties (party_to); parties given for another kind would be
        # dropped by its gate, so the subject is refused instead.
        failures.append(f"parties are named for a {spec.kind} subject, which binds none; use kind agreement_attribute")
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
    stray = party_grammar().stray.search(straighten_quotes(title))
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
        sc.parties, sc.party_separators, sc.party_readings, sc.title_readings = [], [], [], []
    return sc


def _unquote_titles(text: str) -> str:
    """Drop a pair of double quotes around an agreement title ('the "Reseller Agreement" between
    ...'): the title is read, and must match, exactly as without them. Any other quote stays, and
    the parser refuses it as stray punctuation."""
    def unquote(m: re.Match[str]) -> str:
        inner = m.group(1)
        return inner if inner == inner.strip() and _title_name().search(inner) else m.group(0)

    return re.sub(r'"([^"]{1,200})"', unquote, text)


@lru_cache(maxsize=1)
def _dropped_phrases() -> tuple[re.Pattern[str], re.Pattern[str]]:
    raw = question_patterns()
    return (
        re.compile(raw["date_phrase"], re.IGNORECASE),
        re.compile(raw["definition_parenthetical"], re.IGNORECASE),
    )


def _first_question(text: str) -> tuple[str, str]:
    """The question up to its first "?" followed by more text, and that text ("... with Beta
    LLC? thanks", "... with Beta LLC? Is Zeta Corp bound too?"). The rest is not read into the
    subject, but every name it holds must be accounted for (``_check_tail``)."""
    m = re.search(r"\?+\s+(?=\S)", text)
    return (text[: m.start()], text[m.end() :]) if m else (text, "")


def _check_tail(sc: SubjectClass, tail: str) -> SubjectClass:
    """Fail closed on a name after the question's first "?" that its subject does not account
    for: it would otherwise be dropped (never a title-only or a narrower match)."""
    named = named_parties(tail)
    others = _other_names(tail)
    problems = [*named.failures, *others.failures]
    known = [*sc.parties, *([sc.name] if sc.name else []), *([sc.agreement_title] if sc.agreement_title else [])]
    known += [p for r in sc.party_readings for p in r["parties"]]
    for name in [*named.pieces, *others.pieces]:
        if not _accounted_for(name, known):
            problems.append(f"the question goes on after its '?' and names {name!r}, which its subject does not account for")
    for problem in problems:
        if problem not in sc.failures:
            sc.failures.append(problem)
    return _check_subject_names(sc)


def parse_question(question: str) -> SubjectClass:
    text = _unquote_titles(straighten_quotes(question).strip())
    text = re.sub(r"\s+", " ", text).rstrip(" ?.!")
    text, tail = _first_question(text)
    if tail:
        return _check_tail(parse_question(text), tail)
    # A date that qualifies the agreement and a defined term after its title name no one.
    dates, definitions = _dropped_phrases()
    text = definitions.sub("", dates.sub("", text))
    body, period, jurisdiction = _cut_constraints(text)
    body = body.rstrip(" ?.!,")
    # "X, LLC and its Affiliates's Supply Agreement": a description names no one, so it is
    # dropped everywhere (not only inside a party list), and the owner is "X, LLC".
    body = party_grammar().description.sub("", body)
    # The possessive shapes backtrack over every (start, owner end) pair: past a few "'s" they
    # are skipped (a bound on work, not a guess: the owners are still named parties, each to be
    # bound, on whatever path the question takes).
    possessives = len(re.findall(r"(?:'s|')(?!\w)", body))
    for structure in question_patterns()["_structures"]:
        if structure.get("possessive") and possessives > limits()["possessive_markers"]:
            continue
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
        if built.kind == "agreement_attribute":
            _bind_other_named_parties(built, body, m)
            _add_title_readings(built, body, m)
            _add_of_the_readings(built, body, m)
            _add_dash_readings(built, m.group("title"))
        return _check_subject_names(built)
    # No known shape: the names it contains are all the gate has, so every party the question
    # names must be bound to the candidate (``gate.gate_names``), never dropped.
    named = named_parties(body)
    titled = _named_agreement(text, period, jurisdiction, named)
    if titled is not None:
        return _check_subject_names(titled)
    return _check_subject_names(SubjectClass(
        understood=False,
        period=period,
        jurisdiction=jurisdiction,
        names=find_names(text),
        parties=named.pieces if not named.failures else [],
        party_separators=named.separators if not named.failures else [],
        pattern=None,
        failures=list(named.failures),
    ))


@lru_cache(maxsize=1)
def _title_name() -> re.Pattern[str]:
    """A name that ends in an agreement word or an instrument title ("Supply Agreement",
    "DISTRIBUTOR AGREEMENT", "Guaranty", "Statement of Work No. 4")."""
    from service.evidence.data import instrument_phrases

    raw = question_patterns()
    phrases = sorted({*(w.casefold() for w in raw["title_words"]), *instrument_phrases(raw)}, key=lambda p: (-len(p), p))
    words = "|".join(re.escape(p).replace(r"\ ", r"\s+") for p in phrases)
    return re.compile(rf"(?:^|\s)(?:{words})(?:\s+(?:no\.?|number|#)\s*[0-9a-z]{{1,6}}\.?|\s+[0-9]{{1,4}})?$", re.IGNORECASE)


@lru_cache(maxsize=1)
def _head_initial_title() -> re.Pattern[str]:
    """A head-initial title before the question's "between"/"among"/"with": a head of
    ``head_initial_titles`` (agreement_kinds.json) in title or upper case, a linking word of
    ``head_initial_openers`` ("de", "para", "d'"), then up to eight words."""
    data = load_json("agreement_kinds.json")
    heads = phrase_alternation([h.capitalize() for h in data["head_initial_titles"]] + [h.upper() for h in data["head_initial_titles"]], r"[ \t]+")
    openers = phrase_alternation([o for o in data["head_initial_openers"] if o[-1:] not in "'’"], r"[ \t]+")
    return re.compile(
        rf"(?<![\w'’])((?:{heads})[ \t]+(?:(?i:{openers})[ \t]+|(?i:d)['’])[\w'’\-]+(?:[ \t]+[\w'’\-]+){{0,8}}?)"
        r"(?=[ \t]+(?:between|among|with)\b)"
    )


def _named_agreement(
    text: str, period: dict[str, str] | None, jurisdiction: str | None, named: PartyList
) -> SubjectClass | None:
    """A question of no known shape that still names an agreement ("City of X and Y Corp: does
    their COOPERATION AGREEMENT ...", "Supply Agreement between A and B: which law governs?") is
    an agreement question: gated on that exact title and every named party, never on a party
    alone (the name-only gate passed any subject tied to the named parties, whatever agreement
    the question named). Two different agreement names, or unreadable parties, fail closed."""
    # "Acme Inc.'s Supply Agreement": the owner is a named party (``named``), the title follows.
    titles = [re.split(r"(?:'s|’s|')\s+", n)[-1] for n in find_names(text) if _title_name().search(n)]
    # ("the Convention de partenariat between ...": a French or Spanish title opens with its head
    # noun and writes its other words in lower case, so no capitalised name holds it.)
    head_initial = _head_initial_title().search(text) if not titles else None
    titles = titles or ([head_initial.group(1)] if head_initial is not None else [])
    if not titles:
        return None
    failures = list(named.failures)
    keys = {clean_title(t) for t in titles}
    if len(keys) > 1:
        failures.append("the question names more than one agreement: " + ", ".join(repr(t) for t in titles))
    title = titles[0]
    parties = [p for p in named.pieces if not _accounted_for(p, [title])] if not failures else []
    separators = named.separators if len(parties) == len(named.pieces) else ["; "] * max(0, len(parties) - 1)
    # Every other capitalised name outside the title is a party too ("Supply Agreement — Acme
    # Inc. v Zeta Partners: ..." once passed on Acme Inc. alone).
    at = text.rfind(title)
    outside = text[:at] + " . " + text[at + len(title) :] if at >= 0 else text
    others = _other_names(party_grammar().description.sub("", outside))  # "and its Affiliates" names no one
    failures.extend(f for f in others.failures if f not in failures)
    for name in others.pieces if not failures else []:
        if not _accounted_for(name, [*parties, title]):
            separators = [*separators, "; "] if parties else separators
            parties.append(name)
    sc = SubjectClass(
        understood=False,
        kind="agreement_attribute",
        subject_type="agreement",
        agreement_title=title,
        parties=parties,
        party_separators=separators if not failures else [],
        document_type=known_agreement_kind(title),
        period=period,
        jurisdiction=jurisdiction,
        names=find_names(text),
        pattern="named_agreement",
        failures=failures,
    )
    # "PivX Corporation / Detto Technologies Reseller Agreement": the name before a "/" or dash
    # and the title's first words may be two parties (title readings, passed only on an exact
    # title with every party bound).
    # The second name may have started before the title run ("A, Inc. / B, Inc. X AGREEMENT":
    # the run holding the title begins at "Inc.").
    before = re.search(
        r"(?:^|[^\w.&'-])(" + _COMPANY_RUN.pattern + r")\s*(?:/|[\u2013\u2014]|\s-)\s*(?:" + _COMPANY_RUN.pattern + r",\s*)?$",
        text[:at],
    ) if at > 0 else None
    if before and not failures:
        _add_dash_readings(sc, before.group(1) + text[before.end(1) : at] + title)
    # A title holding a comma ("COLLABORATIVE RESEARCH, DEVELOPMENT AND ... AGREEMENT") was read
    # from its last run: the run before the comma, when it holds no legal form, may open it (a
    # title reading, passed only on an exact title match with every other party bound).
    opening = re.search(r"(?:^|[^\w.&'-])(" + _COMPANY_RUN.pattern + r"),\s*$", text[:at]) if at > 0 else None
    if opening and not failures and not _names_a_company(name_words(opening.group(1))):
        head = _trim_name(opening.group(1))
        longer = head + text[opening.start(1) + opening.group(1).index(head) + len(head) : at] + title
        parties_left = [p for p in sc.parties if not _accounted_for(p, [head])]
        if head and not title_problem(longer) and parties_left:
            sc.title_readings.append({"title": longer, "parties": parties_left, "separators": ["; "] * (len(parties_left) - 1)})
    return sc


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
    if not structure.get("possessive") and _owner_inside(title):
        # "an exclusivity clause in Acme Inc. and Beta LLC's Supply Agreement": the title caught
        # an owner; the possessive structure reads it (as named parties).
        return None
    if re.search(question_patterns()["amendment_lead"], body[: m.start("title")], re.IGNORECASE):
        # "... First Amendment to the Supply Agreement": the question is about the amendment,
        # never the parent the title group caught; another structure reads the whole title.
        return None
    failures: list[str] = []
    party_text = g.get("parties")
    title_end = m.end("title")
    rest = g.get("rest")
    if rest is not None and party_text is None:
        title, party_text, tail_start, failures = _read_rest(body, m.start("title"), title_end)
        if party_text is not None:
            title_end = tail_start
    readings, rest_start = party_readings(party_text) if party_text else ([PartyList([], [], [])], 0)
    failures.extend(_lead_company_names(body, m).failures)
    # Fail closed: the readings are tried only when each of them is readable; otherwise the
    # whole list's failures stand ("B Corp (" is never rescued by a shorter reading).
    clean = [r for r in readings if not r.failures and r.pieces]
    if party_text and not clean:
        failures.extend(readings[0].failures or [f"no party names in {party_text.strip()!r}"])
    elif party_text:
        readings = clean
    owners = _owners(_strip_article(g["entity"])) if g.get("entity") else PartyList([], [], [])
    failures.extend(owners.failures)
    focus = owners.pieces[0] if owners.pieces else None
    lead_names = _lead_company_names(body, m)
    with_focus = [_with_focus(*_with_lead(r.pieces, r.separators, lead_names), owners) for r in readings]
    parties, separators = with_focus[-1]
    attribute = structure.get("attribute")
    if attribute is None:
        # Cue words are looked for outside the title and party names ("LICENSE AGREEMENT" must
        # not make every question about it a license-grant question).
        outside = body[: m.start("title")] + " " + body[title_end:]
        if party_text:
            outside = body[: m.start("title")] + " " + party_text[rest_start:]
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
        party_readings=[] if failures else [
            {"parties": pieces, "separators": seps} for pieces, seps in with_focus[:-1]
        ],
        attribute=attribute,
        attribute_label=cues().attributes[attribute].label if attribute else None,
        document_type=known_agreement_kind(title),
        pattern=structure["id"],
        failures=failures,
    )


# Marks inside a word of a name: a "*" between letters ("E*TRADE") and a "!" closing a word
# ("Yahoo! Inc."), the ``word_marks`` of question_patterns.json that the stray check skips.
_WORD_MARKS = question_patterns()["word_marks"]
# A capitalised run that may hold commas ("Acme Holdings, Inc. and Omega Retail LLC").
# It starts where a name starts, never inside a word ("iMine Corporation" is not "Mine Corporation").
_LEAD_NAME = re.compile(
    rf"(?<![\w.&'/*-])(?:[A-Z0-9]|[a-z](?=[A-Z.]))(?:[\w.&'/-]|{_WORD_MARKS})*"
    rf"(?:,?\s+(?:(?:of|and|&|de|du|la|von|van|der|the)\s+)?[A-Z0-9](?:[\w.&'/-]|{_WORD_MARKS})*)*"
)


def _lead_company_names(body: str, m: re.Match[str]) -> PartyList:
    """Company names before the agreement title ("Acme Inc and Beta LLC signed a Supply
    Agreement; ..."): parties the question names, so they must be bound like listed ones, not
    dropped into a title-only look-up. Only spans holding a legal form count ("Section 5" or
    "MFN" are not names of parties)."""
    end = m.start("title")
    lead = body[:end]
    if "entity" in m.re.groupindex and m.group("entity"):
        lead = body[: m.start("entity")] + " " + body[m.end("entity") : end]
    suffixes = set(lexicons().strippable_suffixes)
    pieces: list[str] = []
    separators: list[str] = []
    failures: list[str] = []
    for match in _LEAD_NAME.finditer(lead):
        words = match.group(0).split()
        while words and _is_lead_word(words[0]):  # "Can Acme Inc. terminate ...": "Acme Inc."
            words = words[1:]
        name = re.sub(r"(?:'s|’s)$", "", " ".join(words)).strip(" ,")
        words = name_words(name)
        # "the" closing a run ("WHAT LAW GOVERNS THE" before an upper-case title) is no legal form.
        if not any(s != ("the",) and tuple(words[i : i + len(s)]) == s for s in suffixes for i in range(len(words))):
            continue
        read = _read_names(name)
        failures.extend(read.failures)
        if pieces and read.pieces:
            separators.append("; ")
        pieces.extend(read.pieces)
        separators.extend(read.separators)
    return PartyList(pieces, separators, failures)


def _with_lead(pieces: list[str], separators: list[str], lead: PartyList) -> tuple[list[str], list[str]]:
    if not lead.pieces:
        return list(pieces), list(separators)
    keys = {normalise_plain(p) for p in pieces}
    if all(normalise_plain(p) in keys for p in lead.pieces):
        return list(pieces), list(separators)
    if not pieces:
        return list(lead.pieces), list(lead.separators)
    return [*lead.pieces, *pieces], [*lead.separators, "; ", *separators]


def _with_focus(pieces: list[str], separators: list[str], owners: PartyList) -> tuple[list[str], list[str]]:
    """The party list with the focus party or parties ("Acme's obligations under ...", "Acme
    Inc. and Beta LLC's Supply Agreement") in front, unless the list already names them."""
    pieces, separators = list(pieces), list(separators)
    keys = {normalise_plain(p) for p in pieces}
    if owners.pieces and not all(normalise_plain(o) in keys for o in owners.pieces):
        # The owners are names of their own: never joined with the first listed party.
        separators = [*owners.separators, *(["; "] if pieces else []), *separators]
        pieces = [*owners.pieces, *pieces]
    return pieces, separators


# Possessive markers between owners: "Beta's, Acme's", "Beta LLC's and Acme Inc.'s".
_OWNER_SPLIT = re.compile(r"(?:'s|\u2019s|')\s*(?:,\s*(?:and\s+)?|\s+and\s+|\s*&\s*)")


def _read_names(name: str) -> PartyList:
    """A capitalised run read like a party list; a list of possessives ("Beta's, Acme's") as
    its owners, never "Beta's" as a name."""
    return _owners(name) if _OWNER_SPLIT.search(name) else read_party_list(name)


def _owners(entity: str) -> PartyList:
    """The owners of a possessive ("Acme Inc.'s", "Acme Inc. and Beta LLC's", "Beta's, Acme's"),
    read like a party list: each owner is a named party. A piece is never a name with its "'s"."""
    pieces: list[str] = []
    separators: list[str] = []
    failures: list[str] = []
    for owner in _OWNER_SPLIT.split(entity):
        read = read_party_list(owner)
        failures.extend(read.failures)
        if read.pieces:
            if pieces:
                separators.append("; ")
            pieces.extend(read.pieces)
            separators.extend(read.separators)
    return PartyList(pieces, separators, failures)


_TITLE_FUNCTION_WORDS = frozenset("of and to for the on in under a an & with by".split())


def _owner_inside(title: str) -> bool:
    """A title holding a possessive whose owner is a name ("... in Acme Inc. and Beta LLC's
    Supply Agreement", "University of California's License Agreement"), not a role word of a
    title ("Manufacturer's Representative Agreement")."""
    m = re.search(r"(?:'s|\u2019s|s')\s", title)
    if m is None:
        return False
    owner = re.sub(r"(?:'s|\u2019s|')$", "", title[: m.end()].strip())
    if any(w.islower() and w not in _TITLE_FUNCTION_WORDS for w in owner.split()):
        return True  # lower-case words before the owner: no title of its own
    return not _names_no_party(owner)


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
    subject = _with_subject(rest, opening) if opening else None
    if subject is not None:
        # "PATENT LICENSE AGREEMENT WITH RESEARCH COMPONENT between A and B": capitalised words
        # after "with" and before "between" are more of the title, matched exactly.
        return title + rest[: subject.start("between")], rest[subject.end() :], title_end + subject.start("between"), []
    if opening:
        return title, rest[opening.end() :], title_end, []
    inside = grammar.keyword_inside.search(rest)
    if inside is None:
        return title, None, title_end, []
    gap = rest[: inside.start()]
    after = rest[inside.end() :]
    relative = grammar.relative_gap.match(gap)
    if relative:
        # "it signed with B": the pronoun names no one; "that A signed with B": A is a party too
        # (read with the list, so it must be bound like any listed name).
        subject = relative.group("subject")
        return title, (f"{subject}; {after}" if subject else after), title_end + len(gap), []
    if grammar.gap.fullmatch(gap):
        # Phrases such as "entered into" are not title words; capitalised words are.
        extension = re.match(r"(?:\s+" + question_patterns()["title_gap_word"] + r")*", gap)
        extended = title + (gap[: extension.end()] if extension else "")
        return extended, after, title_end + len(gap), []
    if grammar.subject_gap.fullmatch(gap) or _entity_gap(gap):
        # "the Agreement for fully disclosed clearing services between ...": the agreement's
        # subject in lower case is more of its title, matched exactly like the rest of it (a
        # subject no title has is refused there, never dropped).
        return title + gap.rstrip(), after, title_end + len(gap), []
    return title, None, title_end, [
        f"the question names parties after {title!r}, but {gap.strip()!r} between the title and "
        "the party list is neither title nor party names"
    ]


def _with_subject(rest: str, opening: re.Match[str]) -> re.Match[str] | None:
    """The title's own "with" subject when ``opening`` is "with" and only title words stand
    between it and a "between"/"among" that opens the party list ("WITH RESEARCH COMPONENT
    between ..."); else None. Group "between" spans that keyword."""
    if re.search(r"(?i)\bwith\s*$", opening.group()) is None:
        return None
    return _with_subject_regex().match(rest)


@lru_cache(maxsize=1)
def _with_subject_regex() -> re.Pattern[str]:
    """A title's "with" subject of title words, then the party list's keyword other than "with":
    "WITH RESEARCH COMPONENT between "."""
    word = question_patterns()["title_gap_word"]
    return re.compile(
        rf"\s*(?i:with)(?:\s+{word})+?(?P<between>\s+(?i:by\s+and\s+between|by\s+and\s+among|between|among)\s+)"
    )


# "... COMPANY AGREEMENT OF CHELSEA MARKET SYSTEMS, L.L.C. between ...": the company an
# agreement is the agreement *of*, its legal form after a comma.
_ENTITY_GAP = re.compile(r"\s+(?i:of)\s+(?P<name>[A-Z][^,]*?),\s*(?P<form>[A-Za-z][\w.]*(?:\s+[A-Za-z][\w.]*)?)\s*")


def _entity_gap(gap: str) -> bool:
    """Whether the text between a title and its party list is "of" and a company's name that
    ends in its legal form after a comma ("of Chelsea Market Systems, L.L.C."): more of the title,
    as ingest reads an entity's own agreement (``agreements._with_entity``), matched exactly. The
    name without its form must pass as a subject gap itself (no stray character, at most 16
    words); any other comma still fails closed."""
    entity = _ENTITY_GAP.fullmatch(gap)
    if entity is None or not party_grammar().subject_gap.fullmatch(gap[: entity.end("name")]):
        return False
    form = tuple(name_words(entity.group("form")))
    return form in _legal_forms()


# -- parties named anywhere -----------------------------------------------------------------

# A name's first word: capitalised, lower case before a capital ("iBio", "e.l.f."), or a
# lower-case domain name ("theglobe.com"); never the inside of a word.
# (A "/" between letters is inside a word: "Zealand Pharma A/S", "S/A"; no run opens after it.
# So are the ``_WORD_MARKS``.)
_NAME_START = r"(?<![\w.&'/*-])(?:[A-Z0-9]|[a-z](?=[A-Z.])|[a-z](?=[a-z0-9-]*\.[a-z]{2,}\b))"
_IN_WORD = rf"(?:[\w.&'-]|/(?=\w)|{_WORD_MARKS})"
# A capitalised run directly before a possessive "'s" / "'" ("Acme Holdings's", "Omega Retail'").
_POSSESSIVE = re.compile(
    _NAME_START + rf"(?:[\w.&-]|{_WORD_MARKS})*(?:,?\s+(?:(?:of|and|&|de|du|la|von|van|der|the)\s+){{0,2}}[A-Z0-9](?:[\w.&-]|{_WORD_MARKS})*)*(?:'s|')(?!\w)"
)
# A capitalised run that may hold commas and a legal form ("Acme Holdings, Inc. and Zeta Corp").
_COMPANY_RUN = re.compile(
    _NAME_START + _IN_WORD + r"*(?:,?\s+(?:(?:of|and|&|de|du|la|von|van|der|the)\s+)?[A-Z0-9]" + _IN_WORD + "*)*"
)


@lru_cache(maxsize=1)
def _not_name_words() -> frozenset[str]:
    """Words that are capitalised at the start of a question without being a name: question
    words and the words a question goes on with ("Does", "Under", "Can")."""
    continuation = {w for w in question_patterns()["continuation_words"] if " " not in w}
    return frozenset(_QUESTION_WORDS | continuation | {"let", "it", "that", "there", "here", "he", "she", "per", "for", "of", "on", "by", "and", "or", "v", "v.", "vs", "vs."})


def _names_a_company(words: list[str]) -> bool:
    """A legal form after at least one other word ("Zeta Corp", "Acme Holdings, Inc."), not a
    defined term alone ("the Company")."""
    return any(i > 0 and tuple(words[i : i + len(s)]) == s for s in _legal_forms() for i in range(len(words)))


@lru_cache(maxsize=1)
def _legal_forms() -> tuple[tuple[str, ...], ...]:
    """The legal forms as name words ("inc", "co ltd"), without the article the key drops too."""
    return tuple(s for s in lexicons().strippable_suffixes if s != ("the",))


def _trim_name(span: str) -> str:
    words = span.split()
    while words and (re.sub(r"(?:'s|')$", "", words[0]).casefold() in _not_name_words() or _is_lead_word(words[0])):
        words = words[1:]
    # An article or question word closing the run ("... LAW GOVERNS THE" before an upper-case
    # title) is no part of a name either.
    while len(words) > 1 and words[-1].isalpha() and words[-1].casefold() in _not_name_words():
        words = words[:-1]
    return re.sub(r"(?:'s|')$", "", " ".join(words)).strip(" ,")


# The words after a possessive that may still belong to its name: "Kohl's Corporation", "Papa
# John's International, Inc", "McDonald's Corporation's" (at most this many words).
_AFTER_POSSESSIVE_WORD = re.compile(r"[ \t]*,?[ \t]+([A-Z][\w.&-]*(?:'s|')?)")
_AFTER_POSSESSIVE_WORDS = 4


def _with_legal_form_after(text: str, possessive: re.Match[str]) -> str:
    """The possessive's text, or the company name it opens: "Kohl's" of "Kohl's Corporation" is
    no owner called "Kohl" but a name that runs on to its legal form (within
    ``_AFTER_POSSESSIVE_WORDS`` capitalised words, the first legal form; a second possessive ends
    it: "McDonald's Corporation's Supply Agreement")."""
    end = possessive.end()
    for _ in range(_AFTER_POSSESSIVE_WORDS):
        word = _AFTER_POSSESSIVE_WORD.match(text, end)
        if word is None:
            break
        end = word.end()
        candidate = re.sub(r"(?:'s|')$", "", text[possessive.start() : end])
        words = name_words(candidate)
        if any(len(words) > len(s) and tuple(words[-len(s) :]) == s for s in _legal_forms()):
            return candidate
        if word.group(1).endswith(("'s", "'")):
            break
    return possessive.group(0)


def named_parties(text: str) -> PartyList:
    """Every party a question names, wherever it stands: a party list after "between", "among"
    or "with" that starts with a capitalised word (read up to where the question may go on, the
    earliest end ``party_readings`` offers), a possessive owner ("Acme's"), and a capitalised name holding
    a legal form ("Zeta Corp"). A list the parser cannot read (stray punctuation, an unbalanced
    quote or bracket) is a failure, never skipped. Pieces appear once, in the order found."""
    grammar = party_grammar()
    pieces: list[str] = []
    separators: list[str] = []
    failures: list[str] = []

    def add(read: PartyList) -> None:
        failures.extend(f for f in read.failures if f not in failures)
        fresh = [p for p in read.pieces if all(normalise_plain(p) != normalise_plain(q) for q in pieces)]
        if not fresh or read.failures:
            return
        if pieces:
            separators.append("; ")
        if len(fresh) == len(read.pieces):
            separators.extend(read.separators)
        else:  # some were named already: the rest are names of their own
            separators.extend(["; "] * (len(fresh) - 1))
        pieces.extend(fresh)

    listed: list[tuple[int, int]] = []  # where the party lists read below stand in ``text``
    for keyword in grammar.keyword_inside.finditer(f" {text}"):
        after = f" {text}"[keyword.end() :]
        if not re.match(r"(?:the\s+)?[\"'(\[]*[A-Z0-9]", after):
            continue  # "with the termination", "between the parties": no name
        # Up to the first place the question may go on: names after it are found by the scans
        # below, so a shorter list never drops one. One pass per keyword over a bounded question.
        end = next((c.start() for c in grammar.continuation.finditer(after) if c.start() > 0), len(after))
        listed.append((keyword.end() - 1, keyword.end() - 1 + end))
        read = read_party_list(after[:end])
        add(read if read.pieces or read.failures else PartyList([], [], [f"no party names in {after.strip()!r}"]))
    def in_a_list(match: re.Match[str]) -> bool:
        # Words inside a list already read ("Papa John's Marketing Fund, Inc", "... and its
        # Affiliates and Qualigen, Inc.") are part of its names, not names of their own.
        return any(start <= match.start() and match.end() <= end for start, end in listed)

    for match in _POSSESSIVE.finditer(text):
        if in_a_list(match):
            continue
        name = _trim_name(_with_legal_form_after(text, match))
        if name and sum(c.isalpha() for c in name) >= 2:
            add(_read_names(name))
    for match in _COMPANY_RUN.finditer(text):
        if in_a_list(match):
            continue
        name = _trim_name(match.group(0))
        if name and _names_a_company(name_words(name)):
            add(_read_names(name))
    cap = limits()["parties"]
    if len(pieces) > cap:
        return PartyList([], [], [f"too many party names ({len(pieces)} > {cap}); name at most {cap}"])
    if failures:  # nothing is gated on the names that were readable
        return PartyList([], [], failures)
    return PartyList(pieces, separators, failures)


def _accounted_for(name: str, pieces: list[str]) -> bool:
    mentioned = set(name_words(name))
    return bool(mentioned) and any(mentioned <= set(name_words(p)) for p in pieces)


@lru_cache(maxsize=1)
def _not_party_words() -> frozenset[str]:
    return frozenset(w.casefold() for w in question_patterns()["not_party_words"])


def _names_no_party(name: str) -> bool:
    """A capitalised run made only of ``not_party_words``, question and continuation words and
    numbers ("Question", "LAW GOVERNS" in an upper-case question), or a known jurisdiction."""
    words = name_words(name)
    plain = _not_party_words() | _not_name_words()
    return all(w in plain or w.isdigit() for w in words) or bool(normalise_jurisdiction(name))


def _other_names(outside: str) -> PartyList:
    """Every capitalised run outside an agreement question's title ("Detto Technologies" in "Is
    exclusivity granted to Detto Technologies under ..."), read like a listed name, whether or
    not it holds a legal form: a name the gate cannot account for is never dropped. Runs made
    only of ``not_party_words`` (clause words, defined roles, months: "Section 5", "Licensee",
    "Effective Date") and known jurisdictions ("New York") name no party."""
    pieces: list[str] = []
    separators: list[str] = []
    failures: list[str] = []
    for match in _COMPANY_RUN.finditer(outside):
        name = _trim_name(match.group(0))
        words = name_words(name)
        if sum(c.isalpha() for c in name) < 2 or not words:
            continue
        if _names_no_party(name):
            continue
        read = _read_names(name)
        failures.extend(f for f in read.failures if f not in failures)
        if read.pieces and not read.failures:
            if pieces:
                separators.append("; ")
            pieces.extend(read.pieces)
            separators.extend(read.separators)
    return PartyList(pieces, separators, failures)


def _bind_other_named_parties(sc: SubjectClass, body: str, m: re.Match[str]) -> None:
    """Parties an agreement question names outside its title and party list ("... the Supply
    Agreement, signed by Zeta Corp", "... say about Zeta Corp's duties") must be bound like
    listed ones: each becomes a party of every reading. A name that is part of a listed name
    ("Acme's" for "Acme Holdings, Inc.") is the same party."""
    if sc.failures:
        return  # already refused, with the reason of the list it read
    title_end = m.end("title")
    if m.groupdict().get("rest") is not None and m.groupdict().get("parties") is None:
        title, _, _, _ = _read_rest(body, m.start("title"), title_end)
        title_end = m.start("title") + len(title)  # with the title words read after it
    # " . " stops a capitalised run: the words on either side of the title are not one name.
    outside = body[: m.start("title")] + " . " + body[title_end:]
    named = named_parties(outside)
    if named.failures:
        sc.failures.extend(named.failures)
        return
    others = _other_names(outside)
    if others.failures:
        sc.failures.extend(others.failures)
        return
    readings = [(sc.parties, sc.party_separators)] + [(r["parties"], r["separators"]) for r in sc.party_readings]
    for pieces, separators in readings:
        # Every other capitalised name must be bound too ("Is exclusivity granted to Detto
        # Technologies under the Reseller Agreement?" once looked the title up alone), unless
        # its words are all words of the listed names or of the focus party.
        listed = {w for p in [*pieces, *([sc.name] if sc.name else []), *named.pieces] for w in name_words(p)}
        for name in others.pieces:
            if not set(name_words(name)) <= listed:
                if pieces:
                    separators.append("; ")
                pieces.append(name)
                listed |= set(name_words(name))
        previous = -2  # index in ``named.pieces`` of the piece added last
        for i, name in enumerate(named.pieces):
            if not _accounted_for(name, pieces) and not (sc.name and _accounted_for(name, [sc.name])):
                if pieces:
                    # Neighbours in the question keep the separator between them, so the gate
                    # may re-join them ("LOUISVILLE GAS AND ELECTRIC COMPANY" read after
                    # "entered into by"); anything else stays a name of its own.
                    separators.append(named.separators[i - 1] if previous == i - 1 else "; ")
                pieces.append(name)
                previous = i


# At most this many title readings per question (one per later party keyword).
_TITLE_READINGS = 2


def _add_title_readings(sc: SubjectClass, body: str, m: re.Match[str]) -> None:
    """Readings in which the title runs up to a later party keyword: the party list read after
    the title's own "between" may be part of the title ("... DISTRIBUTOR AGREEMENT BETWEEN
    INGRAM MICRO AND NETGEAR between Ingram Micro and NETGEAR, Inc."). Each reading's parties
    are the list after that keyword, every name the extended title holds ("INGRAM MICRO",
    "NETGEAR": they must be bound too) and every name before the title. Only offered when the
    question is readable as a whole (no failures) and each part is readable."""
    if sc.failures or not sc.agreement_title or not sc.parties:
        return
    grammar = party_grammar()
    title_start = m.start("title")
    opening = grammar.keyword_inside.search(body, m.end("title") - 1)
    if opening is None:
        return
    lead = named_parties(body[:title_start])
    for inner in grammar.keyword_inside.finditer(body, opening.end() - 1):
        if len(sc.title_readings) >= _TITLE_READINGS:
            break
        title = body[title_start : inner.start()].strip()
        inside = named_parties(body[opening.start() : inner.start()])
        readings, _ = party_readings(body[inner.end() :])
        clean = [r for r in readings if r.pieces and not r.failures]
        if title_problem(title) or inside.failures or lead.failures or not clean:
            continue
        for reading in clean:
            pieces, separators = list(reading.pieces), list(reading.separators)
            for name in [*inside.pieces, *lead.pieces]:
                if not _accounted_for(name, pieces):
                    if pieces:
                        separators.append("; ")
                    pieces.append(name)
            sc.title_readings.append({"title": title, "parties": pieces, "separators": separators})


# "the CHAIRMAN OF THE BOARD AGREEMENT": a title never holds an article, so the structures read
# "BOARD AGREEMENT" and leave "CHAIRMAN" a name. The capitalised words (at most 6) between the
# article and "of the" right before the title may be the title's own first words.
_OF_THE_LEAD = re.compile(
    r"(?:^|\s)(?i:the|this|that|its|their)\s+(?P<run>[A-Z][\w.&'’-]*(?:\s+(?:[A-Z][\w.&'’-]*|of|and|&)){0,5})"
    r"\s+(?i:of)\s+(?i:the)\s+$"
)


def _add_of_the_readings(sc: SubjectClass, body: str, m: re.Match[str]) -> None:
    """A title reading with the capitalised words before "of the" as the title's first words
    ("CHAIRMAN OF THE BOARD AGREEMENT", "Memorandum of the Parties Agreement"), the names those
    words account for dropped from the parties. Like every title reading it goes to
    ``title_readings``, which the gate passes only on an exact title or alias match with every
    party bound; the structure's own reading stays the main one."""
    if sc.failures or not sc.agreement_title:
        return
    lead = _OF_THE_LEAD.search(body[: m.start("title")])
    if lead is None or any(_is_lead_word(w) for w in lead.group("run").split()[:1]):
        return
    title = f"{body[lead.start('run') : m.start('title')]}{sc.agreement_title}"
    if title_problem(title):
        return
    run_words = set(name_words(lead.group("run")))
    pieces: list[str] = []
    separators: list[str] = []
    kept_previous = False
    for i, piece in enumerate(sc.parties):
        if set(name_words(piece)) <= run_words:
            kept_previous = False  # words of the title, not a party
            continue
        if pieces:
            # Neighbours in the question keep their separator (the gate may re-join them).
            separators.append(sc.party_separators[i - 1] if kept_previous else "; ")
        pieces.append(piece)
        kept_previous = True
    if len(sc.title_readings) <= _TITLE_READINGS:
        sc.title_readings.append({"title": title, "parties": pieces, "separators": separators})


# "the PivX Corporation–Detto Technologies Reseller Agreement": two parties joined by a dash
# before the title. At most this many splits of the words after the dash are offered: enough for
# a list after the dash ("A–B, L.P. and C, LLC and D Research & Trading, LLC Agency Agreement"),
# each split one more exact-title look-up.
_DASH = re.compile(r"\s*[\u2013\u2014]\s*|\s+-\s+")
# "the A/B Supply Agreement", "A / B Supply Agreement": a slash pairs two parties the same way,
# tried only when the title has no dash (a "/" inside a name must not hide the dash).
_SLASH = re.compile(r"\s*/\s*")
_DASH_READINGS = 24


def _add_dash_readings(sc: SubjectClass, title: str) -> None:
    """Readings of a title that opens with party names joined by a dash ("A–B Supply Agreement",
    "A - B Supply Agreement", "A–B and C Supply Agreement"): A, the first words after the dash (a
    party list of their own) and the rest as the
    title, for each split. They go to ``title_readings``, which the gate passes only on an exact
    title or alias match with every party (A, B and any other named one) bound; the title as
    written stays the main reading. Only one dash, every part readable."""
    if sc.failures or not title:
        return
    dashes = list(_DASH.finditer(title)) or list(_SLASH.finditer(title))
    if len(dashes) != 1:
        return
    first = read_party_list(title[: dashes[0].start()].strip())
    after = title[dashes[0].end() :].split()
    if first.failures or not first.pieces:
        return
    for k in range(1, min(len(after) - 1, _DASH_READINGS) + 1):
        second = read_party_list(" ".join(after[:k]))
        rest = " ".join(after[k:])
        if second.failures or not second.pieces or title_problem(rest) or not _title_name().search(rest):
            continue
        pieces = [*first.pieces, *second.pieces]
        separators = [*first.separators, "; ", *second.separators]
        for name in sc.parties:
            if not _accounted_for(name, pieces):
                separators.append("; ")
                pieces.append(name)
        if len(pieces) <= limits()["parties"]:
            sc.title_readings.append({"title": rest, "parties": pieces, "separators": separators})

