"""EVIDENCE_VERIFIED: check every unit against the fixed subject class, then decide whether it
states the asked attribute.

Subject checks use only ingest annotations (the unit's sentence entity ids, the chunk's relation
mentions, the registry's names, aliases and per-document party roles); no model reads the text
here. A unit failing a check gets a ``reason`` and goes to ``rejected_evidence``. Reasons start
with a fixed code: ``subject_mismatch``, ``subject_drift``, ``parent_binding``, ``period``,
``jurisdiction``, ``off_attribute``.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from typing import Any, Sequence

import numpy as np

from ingest.embedder import Embedder
from ingest.entity_id import AGREEMENT, of_type
from ingest.lexicons import is_instruction_like, load_json
from ingest.schema import Chunk
from ingest.statuses import Confidence
from ingest.store.common import stopwords
from service.evidence.data import Attribute, cues
from service.evidence.gate import Candidate
from service.evidence.relevance import relevance_model
from service.evidence.subject_class import SubjectClass
from service.evidence.units import Unit, generic_words
from service.evidence.values import extract_value

EMBED_MAX_UNITS = 32
MAX_QUERY_WORDS = 40  # content words of a question used by the lexical signal


_QUESTION_WORDS = frozenset(
    "what which who whom when where why how does there any clause agreement contract".split()
)


@lru_cache(maxsize=1)
def _stopwords() -> frozenset[str]:
    """The stop words BM25 drops (shared with both stores), question words, and the words
    nearly every contract sentence holds (``relevance.json: search.generic_words``: "party",
    "shall", "agreement"): in the lexical and BM25 signals they only reward sentences for being
    contract prose ("Either Party may be referred to as 'Party'" for "Must a party provide
    transition services?")."""
    return stopwords() | _QUESTION_WORDS | generic_words()

_WORDS = re.compile(r"\w+")
_YEAR = re.compile(r"\b(19\d{2}|20\d{2})\b")
_description_cache: OrderedDict[tuple[str, str], np.ndarray] = OrderedDict()
_cache_lock = threading.Lock()
DESCRIPTION_CACHE_SIZE = 2048  # questions are keys too: bounded, least recently used out


def description_vector(embedder: Embedder, key: str, text: str) -> np.ndarray:
    """Attribute descriptions (and questions) are embedded once per process and model."""
    cache_key = (embedder.model_name, key + "\x00" + text)
    with _cache_lock:
        vector = _description_cache.get(cache_key)
        if vector is not None:
            _description_cache.move_to_end(cache_key)
    if vector is None:
        vector = embedder.embed([text])[0]
        with _cache_lock:
            _description_cache[cache_key] = vector
            while len(_description_cache) > DESCRIPTION_CACHE_SIZE:
                _description_cache.popitem(last=False)
    return vector


@lru_cache(maxsize=1)
def _roles() -> dict[str, Any]:
    """ner_models/roles.json, read once per process (it was read per unit)."""
    return load_json("roles.json")


@lru_cache(maxsize=1)
def _generic_party_roles() -> frozenset[str]:
    return frozenset(r.casefold() for r in _roles()["party_roles"])


# -- names in text --------------------------------------------------------------------------


def _mentions_text(excerpt: str, names: Sequence[str]) -> bool:
    for name in names:
        if len(name) >= 2 and re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", excerpt, re.IGNORECASE if not name.isupper() or len(name) > 3 else 0):
            return True
    return False


def _surface_names(c_subject, doc_id: str, roles_in_doc: Sequence[str]) -> list[str]:
    """The subject's name, its aliases that are not generic party roles (a bare "Company" from
    another contract proves nothing here), and the defined roles it holds in *this* document."""
    generic = _generic_party_roles()
    names = [c_subject.name, *(a for a in c_subject.aliases if a.casefold() not in generic), *roles_in_doc]
    return sorted({n for n in names if n}, key=lambda n: (-len(n), n))


def _roles_in_doc(candidate: Candidate, subject_id: str, doc_id: str) -> list[str]:
    roles: list[str] = []
    for party in candidate.parties:
        if party["subject_id"] == subject_id:
            roles.extend(party["roles"])
    subject = candidate.focus if candidate.focus is not None and candidate.focus.subject_id == subject_id else None
    if subject is None and candidate.subject.subject_id == subject_id:
        subject = candidate.subject
    if subject is not None:
        roles.extend(b.role for b in subject.bindings if b.doc_id == doc_id and b.relation == "party_to" and b.role)
    return sorted(set(roles))


def _names_subject(unit: Unit, subject, candidate: Candidate) -> bool:
    if subject.subject_id in unit.entity_ids:
        return True
    return _mentions_text(unit.excerpt, _surface_names(subject, unit.doc_id, _roles_in_doc(candidate, subject.subject_id, unit.doc_id)))


# -- constraints ----------------------------------------------------------------------------


def _period_reason(unit: Unit, sc: SubjectClass, candidate: Candidate, as_of: date | None) -> str | None:
    period = dict(sc.period) if sc.period else None
    if period is None and as_of is not None:
        period = {"start": "0001-01-01", "end": as_of.isoformat()}
    if period is None:
        return None
    if candidate.subject.type == "agreement":
        attrs = candidate.subject.attributes
        dated = attrs.get("effective_date") or attrs.get("agreement_date")
        if dated and dated > period["end"]:
            return f"period: the agreement is dated {dated}, after the asked period ending {period['end']}"
    years = sorted({int(y) for y in _YEAR.findall(unit.excerpt)})
    end_year = int(period["end"][:4])
    if years and all(y > end_year for y in years):
        return f"period: the passage speaks of {', '.join(map(str, years))}, after the asked period ending {period['end']}"
    return None


def _jurisdiction_reason(unit: Unit, sc: SubjectClass) -> str | None:
    if not sc.jurisdiction:
        return None
    places = sorted({e.key for e in of_type(unit.entity_ids, "jurisdiction")})
    if places and sc.jurisdiction not in places:
        return f"jurisdiction: the passage concerns {', '.join(places)}, not {sc.jurisdiction}"
    return None


# -- per-unit verification ------------------------------------------------------------------


def _check(unit: Unit, sc: SubjectClass, c: Candidate, as_of: date | None) -> str | None:
    s = c.subject
    if s.type == "agreement":
        if unit.doc_id not in c.doc_ids:
            return f"subject_mismatch: the passage is from {unit.doc_id}, not the document of {s.subject_id}"
        others = sorted(str(e) for e in of_type(unit.entity_ids, AGREEMENT) if str(e) != s.subject_id)
        if others and s.subject_id not in unit.entity_ids:
            return f"subject_drift: the passage refers to {others[0]}, not {s.subject_id}"
        if c.focus is not None and not _names_subject(unit, c.focus, c):
            return f"subject_mismatch: the passage does not name {c.focus.name} ({c.focus.subject_id})"
    else:
        if unit.doc_id in c.excluded_docs:
            return (f"subject_mismatch: {unit.doc_id} writes {s.name} ({s.subject_id}) only in another legal form "
                    "than the question asks; a namesake is not this entity")
        if not _names_subject(unit, s, c):
            return f"subject_mismatch: the passage does not name {s.name} ({s.subject_id})"
        if c.parent is not None:
            bound = any(
                {r["subject_id"], r["object_id"]} == {s.subject_id, c.parent.subject_id} for r in unit.relations
            )
            if not bound and not _names_subject(unit, c.parent, c):
                return f"parent_binding: the passage does not tie {s.name} to {c.parent.name} ({c.parent.subject_id})"
    return _period_reason(unit, sc, c, as_of) or _jurisdiction_reason(unit, sc)


@dataclass(frozen=True, slots=True)
class Verified:
    """The output of the subject checks for one unit: the candidate it verified for, or why it
    failed (``reason``), never both."""

    unit: Unit
    candidate: Candidate | None
    reason: str | None


def verify_units(
    units: Sequence[Unit], sc: SubjectClass, candidates: Sequence[Candidate], as_of: date | None
) -> list[Verified]:
    """Bind each unit to the first candidate (by subject id) it verifies for; otherwise record the
    reason it failed for the first candidate whose documents it belongs to (or the first)."""
    ordered = sorted(candidates, key=lambda c: c.subject_id)
    out: list[Verified] = []
    for unit in units:
        first_reason: tuple[bool, str] | None = None
        for c in ordered:
            reason = _check(unit, sc, c, as_of)
            if reason is None:
                out.append(Verified(unit, c, None))
                break
            relevant = unit.doc_id in c.doc_ids or c.subject.type != "agreement"
            if first_reason is None or (relevant and first_reason[0] is False):
                first_reason = (relevant, reason)
        else:
            out.append(Verified(unit, None, first_reason[1] if first_reason else "subject_mismatch: no candidate"))
    return out


# -- does it state the attribute? -----------------------------------------------------------


def _role_phrases(sc: SubjectClass) -> list[str]:
    roles = _roles()["titles"]
    phrases = [sc.role or ""]
    if sc.role in roles:
        phrases.extend(roles[sc.role]["variants"])
    if sc.relation:
        phrases.append(sc.relation.split("_")[0])
    return sorted({p for p in phrases if p}, key=lambda p: (-len(p), p))


def _text_cue(unit: Unit, attribute: Attribute | None) -> str | None:
    if attribute is None:
        return None
    for pattern in attribute.text_cues:
        if pattern.search(unit.excerpt):
            return pattern.pattern
    return None


def question_words(question: str) -> frozenset[str]:
    """Content words of the question (stop words and question words dropped), for the cheap
    lexical pre-ranking of units before the relevance model runs."""
    stop = _stopwords()
    ordered = dict.fromkeys(w for w in (x.casefold() for x in _WORDS.findall(question)) if len(w) > 2 and w not in stop)
    return frozenset(list(ordered)[:MAX_QUERY_WORDS])  # the first ones, in question order: bounded work


def _overlap(unit: Unit, words: frozenset[str]) -> int:
    if not words:
        return 0
    have = {w.casefold() for w in _WORDS.findall(unit.excerpt)}
    # A six-letter prefix match counts ("assignment" in the question, "assignments" in the
    # clause). Set look-ups keep this linear in the words of the question and the unit.
    prefixes = {h[:6] for h in have if len(h) >= 6}
    return sum(1 for w in words if w in have or (len(w) >= 6 and w[:6] in prefixes))


def units_to_embed(
    verified: Sequence[Verified], sc: SubjectClass, words: frozenset[str], cap: int = EMBED_MAX_UNITS
) -> list[int]:
    """Indexes of the verified units worth a relevance score, at most ``EMBED_MAX_UNITS``:
    embedding every sentence of every retrieved chunk costs more than the rest of the query
    together. Units are pre-ranked by a text cue of a known attribute, then by how many of the
    question's content words they contain, then by retrieval rank; a unit outside the cap is
    not scored (relevance 0.0)."""
    attribute = cues().attributes.get(sc.attribute or "")
    keyed = []
    for i, v in enumerate(verified):
        if v.reason is not None:
            continue
        cue = _text_cue(v.unit, attribute) is not None or sc.kind == "entity_role"
        keyed.append((not cue, -_overlap(v.unit, words), v.unit.chunk_rank, v.unit.char_start, i))
    keyed.sort()
    return sorted(k[-1] for k in keyed[:cap])


@dataclass(frozen=True, slots=True)
class Targets:
    """What each unit is compared with: the question itself (always: the question is the
    attribute) and, for a known attribute, its description. Vectors are unit-normalised."""

    question: np.ndarray
    description: np.ndarray | None
    words: frozenset[str] = frozenset()  # the question's content words (lexical signal)
    text_cues: tuple[re.Pattern[str], ...] = ()  # an open question's clause type's text cues
    topic_words: frozenset[str] = frozenset()  # the attribute's or clause type's search words (BM25 signal)
    # The value type an open question asks for in its own words ("what is the start date":
    # ``date``; data.asked_value_type): a unit that states the attribute is read for it.
    value_type: str | None = None


@dataclass(frozen=True, slots=True)
class Assessed:
    """The output of EVIDENCE_VERIFIED for one unit: subject verdict, whether it answers the
    question, its relevance and normalised value."""

    unit: Unit
    candidate: Candidate | None
    reason: str | None
    states_attribute: bool
    relevance: float
    score: float
    confidence: Confidence
    attribute_match: dict[str, Any]
    value: dict[str, Any] | None
    injection: bool
    # A known attribute's unit that states it by relevance alone, its typed rule having turned
    # it away: cited after the units the rule accepted.
    by_relevance: bool = False

    # The location fields conclude.py reads, delegated to the unit.
    @property
    def chunk(self) -> Chunk:
        return self.unit.chunk

    @property
    def doc_id(self) -> str:
        return self.unit.doc_id

    @property
    def sort_key(self) -> tuple[str, str, int, int]:
        return self.unit.sort_key

    @property
    def char_start(self) -> int:
        return self.unit.char_start

    @property
    def char_end(self) -> int:
        return self.unit.char_end

    @property
    def line_start(self) -> int:
        return self.unit.line_start

    @property
    def line_end(self) -> int:
        return self.unit.line_end

    @property
    def excerpt(self) -> str:
        return self.unit.excerpt


def _role_cue(unit: Unit, sc: SubjectClass, candidate: Candidate | None) -> str | None:
    if candidate is None:
        return None
    rels = {sc.relation, sc.inverse_relation} - {None}
    for r in unit.relations:
        if r["relation"] in rels and candidate.subject_id in (r["subject_id"], r["object_id"]):
            return f"relation {r['relation']}"
    for phrase in _role_phrases(sc):
        if re.search(rf"(?<!\w){re.escape(phrase)}", unit.excerpt, re.IGNORECASE):
            return f"role word {phrase!r}"
    return None


def _attribute_cue(unit: Unit, attribute: Attribute, candidate: Candidate | None) -> str | None:
    cue = _text_cue(unit, attribute)
    if cue is None and attribute.relations and candidate is not None:
        for r in unit.relations:
            if r["relation"] in attribute.relations and r["subject_id"] == candidate.subject_id:
                return f"relation {r['relation']}"
    return cue


def _value(
    unit: Unit, sc: SubjectClass, attribute: Attribute | None, candidate: Candidate | None, asked_type: str | None = None
) -> dict[str, Any] | None:
    if sc.kind == "entity_role" and candidate is not None:
        return {"type": "entity", "value": candidate.subject_id, "name": candidate.subject.name}
    if attribute is None:
        # An open question that asks for a typed value (a date) gets the value the unit states.
        return extract_value(asked_type, unit.excerpt, list(unit.entity_ids), None) if asked_type else None
    # A relation ingest bound to this very subject beats reading the text again.
    for r in unit.relations:
        if (
            r["relation"] in attribute.relations
            and candidate is not None
            and r["subject_id"] == candidate.subject_id
            and (place := of_type([r["object_id"]], "jurisdiction"))
        ):
            return {"type": "jurisdiction", "value": place[0].key}
    return extract_value(attribute.value_type, unit.excerpt, list(unit.entity_ids), attribute.value_anchor)


BM25_K1 = 1.2
BM25_B = 0.75
LENGTH_WORDS = 40  # a unit this long or longer gets the whole length term


def _term(word: str) -> str:
    """A word as the BM25 signal counts it: case-folded, six-letter prefix for longer words, as
    ``_overlap`` matches ("assignment" and "assignments" are one term)."""
    word = word.casefold()
    return word[:6] if len(word) >= 6 else word


def bm25_scores(verified: Sequence[Verified], words: frozenset[str]) -> list[float]:
    """BM25 of ``words`` for each verified unit, with document frequencies counted among the
    verified units of the same candidate (so a word every clause of that contract holds weighs
    little), normalised to the candidate's best unit: in [0, 1]. Units failing verification
    score 0."""
    terms = frozenset(_term(w) for w in words if len(w) > 2)
    out = [0.0] * len(verified)
    if not terms:
        return out
    groups: dict[str, list[int]] = {}
    for i, v in enumerate(verified):
        if v.reason is None and v.candidate is not None:
            groups.setdefault(v.candidate.subject_id, []).append(i)
    for indexes in groups.values():
        bags = []
        for i in indexes:
            tokens = [_term(w) for w in _WORDS.findall(verified[i].unit.excerpt)]
            counts: dict[str, int] = {}
            for t in tokens:
                if t in terms:
                    counts[t] = counts.get(t, 0) + 1
            bags.append((len(tokens), counts))
        n = len(bags)
        avg = sum(length for length, _ in bags) / n or 1.0
        df = {t: sum(1 for _, c in bags if t in c) for t in terms}
        idf = {t: float(np.log(1.0 + (n - d + 0.5) / (d + 0.5))) for t, d in df.items()}
        raw = []
        for length, counts in bags:
            norm = BM25_K1 * (1 - BM25_B + BM25_B * length / avg)
            raw.append(sum(idf[t] * c * (BM25_K1 + 1) / (c + norm) for t, c in counts.items()))
        top = max(raw) or 1.0
        for i, value in zip(indexes, raw):
            out[i] = round(value / top, 5)
    return out


def context_scores(verified: Sequence[Verified], base: dict[int, float]) -> list[float]:
    """For each unit, the best ``base`` score of its neighbours (the units just before and after
    it in the same chunk): a sentence that continues or introduces a relevant one is usually part
    of the same clause. Units without a neighbour with a score get 0."""
    where = {(v.unit.chunk.chunk_id, v.unit.position): i for i, v in enumerate(verified) if v.unit.position >= 0}
    out = [0.0] * len(verified)
    for i, v in enumerate(verified):
        if v.unit.position < 0:
            continue
        near = [
            base[j]
            for j in (where.get((v.unit.chunk.chunk_id, v.unit.position + d)) for d in (-1, 1))
            if j is not None and j in base
        ]
        out[i] = max(near, default=0.0)
    return out


def assess_units(
    verified: Sequence[Verified], vectors: dict[int, np.ndarray], sc: SubjectClass, targets: Targets
) -> list[Assessed]:
    """Decide, per verified unit, whether it answers the question. One path for every question:

    * ``relevance`` is the relevance model's score (``relevance.py``): the unit's similarity to
      the question and to a description, its words, a text cue, its retrieval score, BM25 among
      the candidate's units (``bm25_scores``), its neighbours (``context_scores``), its length;
    * a known attribute (the 17 of ``attribute_cues.json``) adds its typed rules: text cues,
      a normalised value, and "no value, no answer" where the value is required; a unit the
      rule turns away still states the attribute from ``evidence_floor_known`` when no value is
      required (``by_relevance``: cited after the rule's units);
    * an open attribute (the question names a subject and asks something the phrasebook does
      not know) is answered by relevance alone, and the finding is the cited clause itself.

    A unit that does not answer is kept with ``off_attribute``; instruction-like text is kept as
    ``instruction_like`` and can never support an answer."""
    data = cues()
    model = relevance_model()
    attribute: Attribute | None = data.attributes.get(sc.attribute or "")
    role = sc.kind == "entity_role" and sc.understood
    max_chunk = max((v.unit.chunk_score for v in verified), default=0.0) or 1.0
    sims: dict[int, tuple[float, float | None]] = {}
    for index, vector in vectors.items():
        # Rounded: a vector from the per-process cache may have been computed in another batch
        # (other padding), which can move the last float bits; decisions must not depend on it.
        sims[index] = (
            round(float(vector @ targets.question), 5),
            round(float(vector @ targets.description), 5) if targets.description is not None else None,
        )
    base = {i: (q + (q if d is None else d)) / 2 for i, (q, d) in sims.items()}
    context = context_scores(verified, base)
    bm25 = bm25_scores(verified, targets.words | targets.topic_words)
    out: list[Assessed] = []
    for index, v in enumerate(verified):
        unit = v.unit
        vector = vectors.get(index)
        relevance_only = False
        sim_q, sim_d = sims.get(index, (0.0, None))
        if role:
            cue = _role_cue(unit, sc, v.candidate)
        elif attribute is not None:
            cue = _attribute_cue(unit, attribute, v.candidate)
        else:
            cue = next((p.pattern for p in targets.text_cues if p.search(unit.excerpt)), None)
        lexical = _overlap(unit, targets.words) / len(targets.words) if targets.words else 0.0
        n_words = len(_WORDS.findall(unit.excerpt))
        relevance = model.score(
            sim_q, sim_d, cue is not None, unit.chunk_score / max_chunk, lexical,
            bm25=bm25[index], context=context[index], length=min(n_words, LENGTH_WORDS) / LENGTH_WORDS,
        )
        short = n_words < data.min_words
        if role:
            states = cue is not None
        elif attribute is not None:
            sim = sim_d if sim_d is not None else 0.0
            typed = (cue is not None and sim >= data.sim_cue_floor) or sim >= data.sim_accept
            # The typed rule misses clauses worded without the attribute's usual words; the
            # relevance model, which reads the question too, still finds them (no value needed).
            by_relevance = (
                model.evidence_floor_known is not None and not attribute.value_required
                and vector is not None and relevance >= model.evidence_floor_known
            )
            states = (typed or by_relevance) and not short
            relevance_only = states and not typed
        else:
            states = vector is not None and relevance >= model.evidence_floor and not short
        sim_for_conf = sim_d if sim_d is not None else sim_q
        if cue is not None and sim_for_conf >= data.sim_high:
            confidence = Confidence.HIGH
        elif states:
            confidence = Confidence.MEDIUM
        else:
            confidence = Confidence.LOW
        match = {"cue": cue, "similarity": round(sim_d if sim_d is not None else sim_q, 4),
                 "question_similarity": round(sim_q, 4), "lexical": round(lexical, 4),
                 "bm25": round(bm25[index], 4), "context": round(context[index], 4), "relevance": round(relevance, 4),
                 **({"stated_by": "relevance"} if relevance_only else {})}
        injection = is_instruction_like(unit.excerpt)
        reason = v.reason
        value = None
        if reason is None and states:
            value = _value(unit, sc, attribute, v.candidate, targets.value_type)
            if value is None and attribute is not None and attribute.value_required:
                states, confidence = False, Confidence.LOW
                reason = (
                    f"off_attribute: the passage mentions {attribute.label} but states no "
                    f"{attribute.value_type} value"
                )
        if reason is None and not states:
            what = sc.attribute_label or "what the question asks"
            reason = f"off_attribute: the passage is about the subject but does not state {what}"
        if reason is None and injection:
            states, confidence = False, Confidence.LOW
            reason = "instruction_like: the passage contains instruction-like text; it is reported, never used as evidence"
        out.append(
            Assessed(
                unit=unit, candidate=v.candidate, reason=reason, states_attribute=states and reason is None,
                relevance=round(relevance, 6), score=round(relevance, 6), confidence=confidence,
                attribute_match=match, value=value if reason is None else None, injection=injection,
                by_relevance=relevance_only,
            )
        )
    return out
