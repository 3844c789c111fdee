"""CANDIDATE_SUBJECT_DISCOVERED: the hard gate.

A candidate is valid only when the registry (``store.find_subjects``, ACL-filtered inside the
store) has a subject of the right type that holds the asked role through an explicit binding to
the asked parent. Nothing here is fuzzy: names meet after normalisation or not at all, a role
must be the lexicon's role (not one that looks similar), and an agreement named with its parties
must have every one of them bound to it by ``party_to``.

Agreement title rule (precise):
  * ``tq`` = the question's title, articles dropped, abbreviations expanded (MSA -> master services
    agreement), normalised to words; ``ta`` = the registry title (``attributes.title`` or name)
    normalised the same way.
  * exact match: ``tq == ta`` ("title exact"), or ``tq`` equals one of the agreement's title
    aliases normalised the same way ("title alias": the names the contract gives itself,
    recorded at ingest with their spans, ``ingest.agreements.title_aliases``).
  * a title reading (``sc.title_readings``: the title extended over a party list of its own,
    "... AGREEMENT BETWEEN A AND B between A and B, Inc.") passes only on an exact or alias match.
  * kind match: only when at least one party is named; ``kind(tq) == attributes.kind`` and every
    word of ``tq`` other than "agreement"/"contract" occurs in ``ta`` ("the distribution
    agreement" -> "EXCLUSIVE DISTRIBUTION AGREEMENT").
  * either way, when parties are named, every named party must be a subject with a ``party_to``
    binding whose object is this agreement; a title match alone is then not enough.
  * an amendment, addendum or schedule is an agreement of its own: it never matches a question
    about the agreement it amends, nor the other way round, nor one with another number
    (``titles.amendment_key``: "First" = "No. 1" = "1" = "I"). An agreement any of whose names
    (title or alias) is an amendment is an amendment; an amendment question meets only the
    names with its number.
  * amendment match: only when at least one party is named; the same word and number, and the
    question either names no parent or the same parent ("First Amendment" -> "AMENDMENT 1 TO
    DEVELOPMENT AGREEMENT").

Fail closed: a subject class with ``failures`` (a party list the parser could not read, stray
punctuation, more names than the limit) gets no candidate and its reasons. Party matching is
linear: the question's pieces are re-joined at most ``max_join`` at a time and each joined name
is looked up in a set of the agreement's normalised party names.

Near misses: when nothing passes, registry names within a small edit distance of an unresolved
name are offered in ``suggestions`` (rapidfuzz, ``near_misses.py``). They are advice for the
caller only.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from typing import Any

from ingest.entity_id import EntityId
from ingest.lexicons import lexicons
from ingest.normalize import legal_form_words, normalise_org, normalise_person, normalise_plain
from ingest.schema import Binding, Subject
from ingest.store.port import Principal, Store
from service.evidence.data import question_patterns
from service.evidence.models import Scope
from service.evidence.near_misses import near_misses
from service.evidence.subject_class import (
    SubjectClass,
    _role_variants,
    limits,
    party_grammar,
)
from service.evidence.titles import (
    amendment_key, clean_title, expand_abbreviations, known_agreement_kind, names_inner_amendment, parent_key,
)
from service.evidence.written_names import WrittenName, binding_spans, written_around, written_names

REGISTRY_LIMIT = 10_000
SUGGESTION_SCAN = 2_000  # registry subjects compared with an unresolved name
SUGGESTION_NAMES = 5  # unresolved names that get suggestions
SUGGESTIONS_PER_NAME = 3
_GENERIC_TITLE_WORDS = frozenset({"agreement", "agreements", "contract", "contracts"})
_EXACT_TITLE_MATCHES = ("title exact", "title alias")


@dataclass(slots=True)
class Candidate:
    subject: Subject
    match: str  # why it passed the gate, e.g. "role binding", "title exact + parties"
    parent: Subject | None = None
    binding: Binding | None = None  # the explicit binding to the parent (or the focus party's)
    doc_ids: tuple[str, ...] = ()  # documents the subject is scoped to (an agreement's own doc)
    focus: Subject | None = None  # the party an agreement question is about ("X's obligations")
    # Documents whose agreements write the entity only in another legal form than the question
    # asks ("Kestrel GmbH" asked, "Kestrel, Inc." written): another legal person under one key.
    excluded_docs: tuple[str, ...] = ()
    parties: list[dict[str, Any]] = field(default_factory=list)  # {subject_id, name, role, aliases}

    @property
    def subject_id(self) -> str:
        return self.subject.subject_id


@dataclass(slots=True)
class GateResult:
    candidates: list[Candidate]
    rejected: list[dict[str, str]]  # {subject_id, reason}: what the gate turned away and why
    unresolved: list[str]  # names the registry does not know (for this principal)
    failures: list[str] = field(default_factory=list)  # why the question could not be gated
    suggestions: list[str] = field(default_factory=list)  # near-miss registry names, advice only


# -- registry look-ups ----------------------------------------------------------------------


def _type_ok(subject: Subject, types: tuple[str, ...]) -> bool:
    return not types or subject.type.casefold() in types


def resolve_entity(
    store: Store, principal: Principal, name: str, types: tuple[str, ...]
) -> list[Subject]:
    """Subjects whose name or alias equals ``name`` after normalisation, or whose id is the id
    ingest would give that name (``org:<normalised>``/``person:<normalised>``)."""
    ids = sorted({f"org:{normalise_org(name)}", f"person:{normalise_person(name)}"})
    found: dict[str, Subject] = {}
    for subject in store.find_subjects(principal, name=name, limit=REGISTRY_LIMIT):
        found.setdefault(subject.subject_id, subject)
    for subject in store.find_subjects(principal, subject_ids=ids, limit=REGISTRY_LIMIT):
        found.setdefault(subject.subject_id, subject)
    return [found[k] for k in sorted(found) if _type_ok(found[k], types)]


def _forms_agree(asked: frozenset[str], written: list[frozenset[str]]) -> bool:
    """Whether a name asked with legal forms ``asked`` can be a subject written with ``written``:
    yes when either side names no form, or one spelling's forms hold the other's ("Acme Co., Ltd."
    and "Acme Ltd."); no when they differ ("Acme GmbH" asked, only "Acme, Inc." written): one
    registry key, two legal persons, and the gate never takes one for the other."""
    return not asked or not written or any(asked <= w or w <= asked for w in written)


def _written_forms(agreement: Subject | None, party_id: str) -> list[frozenset[str]]:
    """The legal forms ``agreement``'s own document writes party ``party_id`` with (its
    ``party_forms`` record); empty when nothing readable was recorded (ingested before stop 21,
    or damaged): then the registry key alone decides, as before."""
    recorded = agreement.attributes.get("party_forms") if agreement is not None else None
    if not isinstance(recorded, dict) or not isinstance(recorded.get(party_id), list):
        return []
    return [frozenset(f) for f in recorded[party_id] if isinstance(f, list) and f]


def legal_person_docs(
    store: Store, principal: Principal, subject: Subject, name: str
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(the documents of entity ``subject`` that may write it as ``name``, the documents whose
    agreements write it only in another legal form). One registry key holds namesakes in
    different legal forms ("Kestrel GmbH" and "Kestrel, Inc." are both ``org:kestrel``); a
    document whose every visible agreement records the entity's forms, none agreeing with the
    form ``name`` asks, is about another legal person. A name asked without a form, and a
    document that records no forms for it, exclude nothing."""
    docs = _docs_of(subject)
    asked = legal_form_words(name)
    ids = sorted({b.object_id for b in subject.bindings if b.relation == "party_to"})
    if not asked or subject.type == "agreement" or not ids:
        return docs, ()
    agrees: dict[str, bool] = {}
    # Every agreement is judged, a page at a time: one left unread would leave its document in
    # scope. The subject's own bindings bound the pages.
    for page in range(0, len(ids), REGISTRY_LIMIT):
        chunk = ids[page : page + REGISTRY_LIMIT]
        for agreement in store.find_subjects(principal, subject_ids=chunk, type="agreement", limit=len(chunk)):
            ok = _forms_agree(asked, _written_forms(agreement, subject.subject_id))
            for doc_id in _docs_of(agreement):
                agrees[doc_id] = agrees.get(doc_id, False) or ok
    excluded = tuple(sorted(d for d, ok in agrees.items() if not ok))
    return tuple(d for d in docs if d not in excluded), excluded


def form_refusal(name: str) -> str:
    """Why an entity asked as ``name`` was turned away when every document of the registry
    subject with its key writes it in another legal form."""
    return (f"every document that names {name!r} under this key writes it only in another legal form; "
            "a namesake is not this entity")


def _names_of(subject: Subject) -> set[str]:
    names = {subject.name, *subject.aliases}
    keys = {normalise_org(n) for n in names} | {normalise_person(n) for n in names}
    keys.add(EntityId.parse(subject.subject_id).key)
    return {k for k in keys if k}


def _docs_of(subject: Subject) -> tuple[str, ...]:
    if (doc_id := EntityId.parse(subject.subject_id).doc_id) is not None:  # an agreement
        return (doc_id,)
    return tuple(sorted({m["doc_id"] for m in subject.mentions}))


def _canonical_role(role: str | None) -> str | None:
    if not role:
        return None
    return _role_variants().get(normalise_plain(role), normalise_plain(role))


def _role_ok(sc: SubjectClass, binding: Binding) -> bool:
    """A binding's role must be the asked role itself. Generic plural nouns ("officers",
    "directors") accept any title of the relation; a binding without a role counts only when the
    relation has a single title (founder_of is always "founder")."""
    nouns = {normalise_plain(k) for k in question_patterns()["role_nouns"] if not k.startswith("_")}
    if sc.role is None or normalise_plain(sc.role) in nouns:
        return True
    titles = [t for t in lexicons().role_titles.values() if t.relation == binding.relation]
    if binding.role is None:
        return len(titles) <= 1 or (sc.role == binding.relation.split("_")[0])
    return _canonical_role(binding.role) == sc.role


# -- the gates ------------------------------------------------------------------------------


def _entity_types(sc: SubjectClass) -> tuple[str, ...]:
    if sc.subject_type:
        return (sc.subject_type.casefold(),)
    return tuple(t.casefold() for t in question_patterns()["entity_types"])


def gate_role(store: Store, principal: Principal, sc: SubjectClass) -> GateResult:
    assert sc.parent_entity and sc.relation
    entity_types = tuple(t.casefold() for t in question_patterns()["entity_types"])
    parents = resolve_entity(store, principal, sc.parent_entity, entity_types)
    if not parents:
        return GateResult([], [], [sc.parent_entity])
    holder_types = _entity_types(sc)
    candidates: dict[str, Candidate] = {}
    rejected: list[dict[str, str]] = []
    for parent in parents:
        # "the CEO of Kestrel GmbH": only the documents that may write the parent in that form.
        parent_docs, excluded = legal_person_docs(store, principal, parent, sc.parent_entity)
        if excluded and not parent_docs:
            rejected.append({"subject_id": parent.subject_id, "reason": form_refusal(sc.parent_entity)})
            continue
        holders = store.find_subjects(
            principal, relation=sc.relation, parent_id=parent.subject_id, limit=REGISTRY_LIMIT
        )
        for holder in holders:
            bindings = [
                b
                for b in holder.bindings
                if b.relation == sc.relation and b.object_id == parent.subject_id and b.doc_id not in excluded
            ]
            good = [b for b in bindings if _role_ok(sc, b)]
            if not _type_ok(holder, holder_types):
                rejected.append({"subject_id": holder.subject_id, "reason": f"type {holder.type} is not {'/'.join(holder_types)}"})
            elif not bindings:
                continue  # bound to the parent only in a namesake's documents
            elif not good:
                roles = sorted({b.role or "" for b in bindings})
                rejected.append({"subject_id": holder.subject_id, "reason": f"role {roles} is not {sc.role!r} of {parent.subject_id}"})
            elif holder.subject_id not in candidates:
                candidates[holder.subject_id] = Candidate(
                    holder, "role binding", parent, good[0], tuple(sorted({b.doc_id for b in good})),
                    excluded_docs=excluded,
                )
        if sc.inverse_relation:
            # The same fact stated from the parent's side: "X is the parent of Y".
            inverse = [b for b in parent.bindings if b.relation == sc.inverse_relation and b.doc_id not in excluded]
            ids = sorted({b.object_id for b in inverse})
            for child in store.find_subjects(principal, subject_ids=ids, limit=REGISTRY_LIMIT) if ids else []:
                if child.subject_id in candidates or not _type_ok(child, holder_types):
                    continue
                binding = next(b for b in inverse if b.object_id == child.subject_id)
                candidates[child.subject_id] = Candidate(
                    child, "inverse role binding", parent, binding, (binding.doc_id,), excluded_docs=excluded,
                )
    ordered = [candidates[k] for k in sorted(candidates)]
    return GateResult(ordered, rejected, [])


def _title_match(sc: SubjectClass, agreement: Subject) -> str | None:
    tq = expand_abbreviations(clean_title(sc.agreement_title or ""))
    ta_raw = str(agreement.attributes.get("title") or agreement.name)
    # The agreement's names: its title and the aliases ingest recorded from its own text (the
    # heading line, the title without "FORM OF", the preamble's "This X Agreement" and the term
    # it defines), each compared exactly after normalisation, never fuzzily.
    names = list(dict.fromkeys((ta_raw, agreement.name, *agreement.aliases)))
    keys = {name: amendment_key(name) for name in names}
    amendment_q = amendment_key(sc.agreement_title or "")
    # "Amendment No. 2 to X" is its own agreement: never X, never "Amendment No. 1 to X". An
    # agreement any of whose names is an amendment is an amendment (an alias never makes it
    # answer for the agreement it amends); an amendment question meets only names with its number.
    if amendment_q is None:
        if any(key is not None for key in keys.values()):
            # The amendment's own heading, its amendment word inside ("Apple Corporate Alliance
            # Program Addendum to the Authorized Apple Dealer Sales Agreement", with the alias
            # "Addendum to the ..."), names the amendment itself: exactly its title, never the
            # title of the agreement it amends.
            own = {expand_abbreviations(clean_title(t)) for t in (ta_raw, agreement.name)}
            parents = {key.parent for key in keys.values() if key is not None}
            if tq and tq in own and names_inner_amendment(sc.agreement_title or "") and tq not in parents:
                return "title exact"
            return None
        comparable = names
    else:
        comparable = [n for n in names if keys[n] is not None and keys[n].number == amendment_q.number]  # type: ignore[union-attr]
        if not comparable:
            return None
    titles = {expand_abbreviations(clean_title(t)): t for t in reversed(comparable)}
    if tq and tq in titles:
        return "title exact" if titles[tq] in (ta_raw, agreement.name) else "title alias"
    if not sc.parties:
        return None
    if amendment_q is not None:
        # "First Amendment" (no parent named) is "AMENDMENT 1 TO DEVELOPMENT AGREEMENT" when
        # every named party is bound to it: same word, same number, the same parent if named.
        # A title that names no parent ("AMENDMENT NO. 1") has the parent ingest read from the
        # amendment's opening prose, if any (attributes.amendment.parent, cited by ``amends``).
        recorded = agreement.attributes.get("amendment")
        recorded_parent = parent_key(recorded.get("parent")) if isinstance(recorded, dict) else None
        for name in comparable:
            amendment_a = keys[name]
            assert amendment_a is not None
            same = amendment_q.word == amendment_a.word and amendment_q.number is not None
            if same and amendment_q.parent in (None, amendment_a.parent or recorded_parent):
                return "amendment number"
        return None
    kind_q = known_agreement_kind(sc.agreement_title or "")
    kind_a = agreement.attributes.get("kind") or known_agreement_kind(ta_raw)
    words_q = set(tq.split()) - _GENERIC_TITLE_WORDS
    words_a = set(expand_abbreviations(clean_title(ta_raw)).split())
    if kind_q and kind_q == kind_a and words_q <= words_a:
        return "title kind"
    return None


def _party_keys(party: Subject) -> set[str]:
    return _names_of(party)


@dataclass(frozen=True, slots=True)
class _BoundNames:
    """The names that account for a question's party: the bound parties' normalised names, and
    per name the legal forms its spellings carry in the agreement's own document (the
    agreement's ``party_forms`` attribute). A party without recorded forms (an agreement ingested
    before they were recorded, or a subject that is no agreement) is matched by key alone: the
    registry's merged subject keeps one document's spelling, so its names cannot say which forms
    the other documents wrote."""

    keys: frozenset[str]
    forms: dict[str, list[frozenset[str]]]
    # The bound names where the agreement's party clauses write them: a question's name written
    # there over a bound name, wider than it, names that party (``written_names``).
    written: tuple[WrittenName, ...] = ()

    def accounts(self, name: str) -> bool:
        matched = _keys(name) & self.keys
        if matched and any(_forms_agree(legal_form_words(name), self.forms.get(k, [])) for k in matched):
            return True
        return written_around(name, self.written)

    def form_note(self, missing: list[str]) -> str:
        """Why a refused name failed, when its words are a bound party's but its legal form is not."""
        clashes = [m for m in missing if _keys(m) & self.keys]
        if not clashes:
            return ""
        return (" (" + ", ".join(repr(m) for m in clashes) + ": the agreement's own document writes that "
                "name only in another legal form; a namesake is not this party)")


def _bound_names(
    parties: list[Subject], agreement: Subject | None, bindings: list[tuple[Subject, Binding]] | None = None
) -> _BoundNames:
    keys: set[str] = set()
    forms: dict[str, list[frozenset[str]]] = {}
    for party in parties:
        party_keys = _party_keys(party)
        keys |= party_keys
        written = _written_forms(agreement, party.subject_id)
        for key in party_keys:
            forms.setdefault(key, []).extend(written)
    clause_names: tuple[WrittenName, ...] = ()
    if agreement is not None and bindings:
        docs = _docs_of(agreement)
        clause_names = written_names(
            agreement.attributes.get("party_clauses"), binding_spans(bindings, docs[0] if len(docs) == 1 else None)
        )
    return _BoundNames(frozenset(keys), forms, clause_names)


@dataclass(frozen=True, slots=True)
class _Segment:
    start: int  # first piece
    end: int  # one past the last piece
    name: str  # the pieces joined with their own separators: text the question contains


def _segments(pieces: list[str], separators: list[str]) -> list[_Segment]:
    """Every run of at most ``max_join`` neighbouring pieces, as the question spells it. A
    structured subject (no separators) and a ';' never join: each is one name."""
    limit = party_grammar().max_join if separators else 1
    out: list[_Segment] = []
    for start in range(len(pieces)):
        name = pieces[start]
        out.append(_Segment(start, start + 1, name))
        for end in range(start + 2, min(len(pieces), start + limit) + 1):
            separator = separators[end - 2]
            if ";" in separator:
                break
            name = f"{name}{separator}{pieces[end - 1]}"
            out.append(_Segment(start, end, name))
    return out


def _keys(name: str) -> set[str]:
    return {k for k in (normalise_org(name), normalise_person(name)) if k}


def _unbound_parties(pieces: list[str], segments: list[_Segment], bound: _BoundNames) -> list[str]:
    """Pieces of the question's party list that no ``party_to``-bound name accounts for. Dynamic
    programming over the pieces, each step trying the (at most ``max_join``) segments that start
    there: linear in the number of pieces. The segmentation with the fewest unbound pieces wins,
    ties going to fewer, longer names."""
    n = len(pieces)
    starting: dict[int, list[_Segment]] = {}
    for segment in segments:
        if bound.accounts(segment.name):
            starting.setdefault(segment.start, []).append(segment)
    # best[i] = (unbound pieces, segments) for pieces[i:]
    best: list[tuple[int, int, list[str]]] = [(0, 0, [])] * (n + 1)
    for i in range(n - 1, -1, -1):
        rest_unbound, rest_segments, rest_missing = best[i + 1]
        option = (rest_unbound + 1, rest_segments + 1, [pieces[i], *rest_missing])
        for segment in starting.get(i, []):
            unbound, count, missing = best[segment.end]
            option = min(option, (unbound, count + 1, missing), key=lambda o: (o[0], o[1]))
        best[i] = option
    return best[0][2]


def _near_misses(
    store: Store, principal: Principal, names: list[str], types: tuple[str, ...]
) -> list[str]:
    """Registry names within a small edit distance of each unresolved name (after
    normalisation), for suggested_next_actions only: against a name index built once per
    registry generation and principal view (``near_misses.py``)."""
    return near_misses(
        store, principal, names, types,
        scan=SUGGESTION_SCAN, max_names=SUGGESTION_NAMES, per_name=SUGGESTIONS_PER_NAME,
    )


def gate_agreement(
    store: Store, principal: Principal, sc: SubjectClass, scope: Scope | None, *, suggest: bool = True,
    exact_title: bool = False,
) -> GateResult:
    if sc.failures:
        # Fail closed on every path that reaches here (registry questions too): a subject whose
        # party list could not be read is never gated on its title alone.
        return GateResult([], [], [], failures=list(sc.failures))
    title = sc.agreement_title or ""
    pool: dict[str, Subject] = {}
    for name in sorted({title, clean_title(title), expand_abbreviations(clean_title(title))}):
        if not name:
            continue
        for s in store.find_subjects(principal, name=name, type="agreement", limit=REGISTRY_LIMIT):
            pool.setdefault(s.subject_id, s)
    entity_types = tuple(t.casefold() for t in question_patterns()["entity_types"])
    pieces = list(sc.parties)
    segments = _segments(pieces, sc.party_separators)
    covered: set[int] = set()
    for segment in segments:
        subjects = resolve_entity(store, principal, segment.name, entity_types)
        if subjects:
            covered.update(range(segment.start, segment.end))
        ids = sorted({b.object_id for s in subjects for b in s.bindings if b.relation == "party_to"})
        if ids:
            for s in store.find_subjects(principal, subject_ids=ids, type="agreement", limit=REGISTRY_LIMIT):
                pool.setdefault(s.subject_id, s)
    unresolved = [piece for index, piece in enumerate(pieces) if index not in covered]
    candidates: list[Candidate] = []
    rejected: list[dict[str, str]] = []
    for agreement_id in sorted(pool):
        agreement = pool[agreement_id]
        match = _title_match(sc, agreement)
        if exact_title and match not in _EXACT_TITLE_MATCHES:
            match = None
        if match is None:
            rejected.append({"subject_id": agreement_id, "reason": f"title {agreement.name!r} does not match {title!r}"})
            continue
        docs = _docs_of(agreement)
        if scope and scope.doc_ids and not set(docs) & set(scope.doc_ids):
            rejected.append({"subject_id": agreement_id, "reason": "outside the requested scope.doc_ids"})
            continue
        parties = store.find_subjects(
            principal, relation="party_to", parent_id=agreement_id, limit=REGISTRY_LIMIT
        )
        party_bindings: list[tuple[Subject, Binding]] = [
            (p, b) for p in parties for b in p.bindings
            if b.relation == "party_to" and b.object_id == agreement_id
        ]
        bound = _bound_names([p for p, _ in party_bindings], agreement, party_bindings)
        # Only party_to bindings count: a name is a bound party's, or that bound name as its
        # party clause writes it wider ("X Inc., doing business as Y" for "X Inc."). A reader of
        # any name in the recorded party clauses was measured (docs/ARCHITECTURE.md): as a binding
        # it accepted 2 of 723 non-party names on the held-out report split; as a second check it
        # refused in-KB parties it could not read.
        missing = _unbound_parties(pieces, segments, bound)
        if missing:
            rejected.append({
                "subject_id": agreement_id,
                "reason": "no party_to binding to this agreement for " + ", ".join(repr(m) for m in missing)
                + bound.form_note(missing),
            })
            continue
        focus = focus_binding = None
        if sc.name:
            for p, b in party_bindings:
                if _bound_names([p], agreement).accounts(sc.name):
                    focus, focus_binding = p, b
                    break
        candidates.append(
            Candidate(
                agreement,
                match + (" + parties" if sc.parties else ""),
                focus,
                focus_binding,
                docs,
                focus=focus,
                parties=_party_list(party_bindings),
            )
        )
    if not pool and not unresolved:
        unresolved.append(title)
    result = GateResult(candidates, rejected, unresolved)
    if not candidates and suggest:
        names = [n for n in unresolved if n != title]
        result.suggestions = _near_misses(store, principal, names, entity_types) if names else []
        if title in unresolved or not pool:
            result.suggestions += _near_misses(store, principal, [title], ("agreement",))
    return result


def gate_agreement_readings(
    store: Store, principal: Principal, sc: SubjectClass, scope: Scope | None
) -> GateResult:
    """The agreement gate over the readings of the question's party list, longest first: the
    first reading whose every piece is bound to an agreement wins, and becomes ``sc.parties``.
    When none passes, the result of the shortest reading (the parser's ``sc.parties``) is
    returned: its unresolved names are the ones the question most likely meant. Each reading is gated in full (title, every piece
    bound, amendments): a shorter reading is never a looser match."""
    for reading in sc.title_readings:
        # The title holds a party list of its own ("... AGREEMENT BETWEEN A AND B between A and
        # B, Inc."): only an exact title or alias match counts, with every party bound.
        trial = replace(
            sc, agreement_title=reading["title"], parties=list(reading["parties"]),
            party_separators=list(reading["separators"]), party_readings=[], title_readings=[],
        )
        result = gate_agreement(store, principal, trial, scope, suggest=False, exact_title=True)
        if result.candidates:
            sc.agreement_title, sc.parties, sc.party_separators = trial.agreement_title, trial.parties, trial.party_separators
            sc.party_readings, sc.title_readings = [], []
            return result
    sc.title_readings = []
    readings = [(list(r["parties"]), list(r["separators"])) for r in sc.party_readings]
    readings.append((list(sc.parties), list(sc.party_separators)))
    for index, (pieces, separators) in enumerate(readings):
        sc.parties, sc.party_separators = pieces, separators
        # Near-miss suggestions (a registry scan) only for the reading that is reported.
        result = gate_agreement(store, principal, sc, scope, suggest=index == len(readings) - 1)
        if result.candidates:
            break
    sc.party_readings = []
    return result


def _party_list(party_bindings: list[tuple[Subject, Binding]]) -> list[dict[str, Any]]:
    """The agreement's extracted parties, each citing its first ``party_to`` binding's span."""
    out: dict[str, dict[str, Any]] = {}
    for party, binding in sorted(party_bindings, key=lambda pb: (pb[0].subject_id, pb[1].char_start)):
        entry = out.setdefault(
            party.subject_id,
            {
                "subject_id": party.subject_id, "name": party.name, "roles": [], "aliases": list(party.aliases),
                "source": {
                    "binding": "party_to", "doc_id": binding.doc_id, "revision": binding.revision,
                    "char_start": binding.char_start, "char_end": binding.char_end,
                },
            },
        )
        if binding.role and binding.role not in entry["roles"]:
            entry["roles"].append(binding.role)
    return [out[k] for k in sorted(out)]


def gate_party_name(
    store: Store, principal: Principal, name: str, types: tuple[str, ...], relations: tuple[str, ...] = ()
) -> GateResult:
    """The entities named exactly ``name`` (``resolve_entity``), each scoped to the documents
    that may write it in the legal form ``name`` asks (``legal_person_docs``): one whose every
    document writes another form is rejected, never answered for. ``relations``: the binding
    kinds whose first one (outside the excluded documents) is the candidate's binding."""
    subjects = resolve_entity(store, principal, name, types)
    if not subjects:
        return GateResult([], [], [name])
    out: list[Candidate] = []
    rejected: list[dict[str, str]] = []
    for s in subjects:
        docs, excluded = legal_person_docs(store, principal, s, name)
        if excluded and not docs:
            rejected.append({"subject_id": s.subject_id, "reason": form_refusal(name)})
            continue
        bindings = [b for b in s.bindings if b.relation in relations and b.doc_id not in excluded]
        out.append(Candidate(s, "entity name", None, bindings[0] if bindings else None, docs, excluded_docs=excluded))
    return GateResult(out, rejected, [])


def gate_entity(store: Store, principal: Principal, sc: SubjectClass) -> GateResult:
    assert sc.name
    attribute_relations = {"incorporation": ("incorporated_in", "organized_under")}.get(sc.attribute or "", ())
    return gate_party_name(store, principal, sc.name, _entity_types(sc), attribute_relations)


def gate_names(store: Store, principal: Principal, sc: SubjectClass) -> GateResult:
    """An un-understood question: gate on the names it contains, exactly as written. When it
    names parties (``sc.parties``: "between A and B", "A's", "Zeta Corp"), a candidate must be
    tied to every one of them: an agreement each is bound to by ``party_to``, or, when one party
    is named, that party itself. A party no registry subject has fails the question."""
    cap = limits()["names"]
    if len(sc.names) > cap:
        return GateResult([], [], [], failures=[f"too many names in the question ({len(sc.names)} > {cap})"])
    found: dict[str, Candidate] = {}
    unresolved = []
    form_rejected: list[dict[str, str]] = []
    for name in sc.names:
        named = gate_party_name(store, principal, name, ())
        unresolved.extend(named.unresolved)
        form_rejected.extend(named.rejected)
        for c in named.candidates:
            if c.subject_id in found:
                # One key named in two forms ("Kestrel GmbH and Kestrel, Inc."): two legal persons
                # asked about, so the documents of either, and excluded only what both exclude.
                kept = found[c.subject_id]
                c = replace(kept, doc_ids=tuple(sorted({*kept.doc_ids, *c.doc_ids})),
                            excluded_docs=tuple(sorted(set(kept.excluded_docs) & set(c.excluded_docs))))
            found[c.subject_id] = replace(c, match="name only (question not understood)", binding=None)
    if not sc.parties:
        return GateResult([found[k] for k in sorted(found)], form_rejected, unresolved)
    result = _named_parties_bound(store, principal, sc, found, unresolved)
    return replace(result, rejected=[*form_rejected, *result.rejected])


def _named_parties_bound(
    store: Store, principal: Principal, sc: SubjectClass, found: dict[str, Candidate], unresolved: list[str]
) -> GateResult:
    """The name-only candidates that every party the question names is tied to."""
    pieces = list(sc.parties)
    segments = _segments(pieces, sc.party_separators)
    entity_types = tuple(t.casefold() for t in question_patterns()["entity_types"])
    covered: set[int] = set()
    for segment in segments:
        # Known under its key and written in the form asked by some document (a namesake in
        # another legal form accounts for no one).
        if gate_party_name(store, principal, segment.name, entity_types).candidates:
            covered.update(range(segment.start, segment.end))
    missing = [p for i, p in enumerate(pieces) if i not in covered]
    if missing:
        return GateResult([], [], sorted(set(unresolved) | set(missing), key=str.casefold))
    candidates: list[Candidate] = []
    rejected: list[dict[str, str]] = []
    for subject_id in sorted(found):
        candidate = found[subject_id]
        if candidate.subject.type == "agreement":
            parties = store.find_subjects(principal, relation="party_to", parent_id=subject_id, limit=REGISTRY_LIMIT)
            tied = [
                party for party in parties
                if any(b.relation == "party_to" and b.object_id == subject_id for b in party.bindings)
            ]
            unbound = _unbound_parties(pieces, segments, _bound_names(tied, candidate.subject))
        else:
            unbound = _unbound_parties(pieces, segments, _bound_names([candidate.subject], None))
        if unbound:
            rejected.append({
                "subject_id": subject_id,
                "reason": "not tied to the named part" + ("y " if len(unbound) == 1 else "ies ")
                + ", ".join(repr(u) for u in unbound),
            })
            continue
        candidate.match = "name only + every named party bound"
        candidates.append(candidate)
    return GateResult(candidates, rejected, unresolved)


def discover(store: Store, principal: Principal, sc: SubjectClass, scope: Scope | None) -> GateResult:
    if sc.failures:
        # Fail closed: a subject the parser could not read fully is never gated on what is left.
        return GateResult([], [], [], failures=list(sc.failures))
    if sc.understood and sc.kind == "entity_role" and sc.parent_entity and sc.relation:
        return gate_role(store, principal, sc)
    if sc.kind == "agreement_attribute" and sc.agreement_title:
        # Gated even when the attribute was not understood: the subject must exist regardless.
        return gate_agreement_readings(store, principal, sc, scope)
    if sc.understood and sc.kind == "entity_attribute" and sc.name:
        return gate_entity(store, principal, sc)
    return gate_names(store, principal, sc)


# -- report view ----------------------------------------------------------------------------


def candidate_view(c: Candidate) -> dict[str, Any]:
    s = c.subject
    binding = None
    if c.binding is not None:
        binding = {**asdict(c.binding), "subject_id": s.subject_id if c.focus is None else c.focus.subject_id}
        if c.parent is not None:
            binding["parent_name"] = c.parent.name
    if c.binding is not None:
        location = {
            "doc_id": c.binding.doc_id,
            "revision": c.binding.revision,
            "char_start": c.binding.char_start,
            "char_end": c.binding.char_end,
        }
    else:
        mentions = sorted(s.mentions, key=lambda m: (m["doc_id"], m.get("char_start") or 0))
        location = dict(mentions[0]) if mentions else None
    return {
        "subject_id": s.subject_id,
        "name": s.name,
        "class_attributes": {
            "type": s.type,
            "aliases": list(s.aliases),
            "attributes": _attributes_view(s.attributes),
            "gate_match": c.match,
            "documents": list(c.doc_ids),
            "parties": c.parties,
        },
        "parent_entity_binding": binding,
        "source_location": location,
    }


def _attributes_view(attributes: dict[str, Any]) -> dict[str, Any]:
    """The subject's attributes for the report; party clauses by span only (their text is
    document text the report has no use for)."""
    out = dict(sorted(attributes.items()))
    clauses = out.get("party_clauses")
    if isinstance(clauses, list):
        out["party_clauses"] = [
            {k: c[k] for k in ("source", "char_start", "char_end") if k in c} for c in clauses if isinstance(c, dict)
        ]
    return out
