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
from datetime import date
from typing import Sequence

import numpy as np

from ingest.embedder import Embedder
from ingest.lexicons import load_json
from service.evidence.data import Attribute, cues, injection_patterns
from service.evidence.gate import Candidate
from service.evidence.subject_class import SubjectClass
from service.evidence.units import Unit
from service.evidence.values import extract_value

_WORDS = re.compile(r"\w+")
_YEAR = re.compile(r"\b(19\d{2}|20\d{2})\b")
_description_cache: dict[tuple[str, str], np.ndarray] = {}
_cache_lock = threading.Lock()


def description_vector(embedder: Embedder, key: str, text: str) -> np.ndarray:
    """Attribute descriptions are embedded once per process and model."""
    cache_key = (embedder.model_name, key + "\x00" + text)
    with _cache_lock:
        vector = _description_cache.get(cache_key)
    if vector is None:
        vector = embedder.embed([text])[0]
        with _cache_lock:
            _description_cache[cache_key] = vector
    return vector


# -- names in text --------------------------------------------------------------------------


def _mentions_text(excerpt: str, names: Sequence[str]) -> bool:
    for name in names:
        if len(name) >= 2 and re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", excerpt, re.IGNORECASE if not name.isupper() or len(name) > 3 else 0):
            return True
    return False


def _surface_names(c_subject, doc_id: str, roles_in_doc: Sequence[str]) -> list[str]:
    """The subject's name, its aliases that are not generic party roles (a bare "Company" from
    another contract proves nothing here), and the defined roles it holds in *this* document."""
    generic = {r.casefold() for r in load_json("roles.json")["party_roles"]}
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
    places = sorted({e.split(":", 1)[1] for e in unit.entity_ids if e.startswith("jurisdiction:")})
    if places and sc.jurisdiction not in places:
        return f"jurisdiction: the passage concerns {', '.join(places)}, not {sc.jurisdiction}"
    return None


# -- per-unit verification ------------------------------------------------------------------


def _check(unit: Unit, sc: SubjectClass, c: Candidate, as_of: date | None) -> str | None:
    s = c.subject
    if s.type == "agreement":
        if unit.doc_id not in c.doc_ids:
            return f"subject_mismatch: the passage is from {unit.doc_id}, not the document of {s.subject_id}"
        others = sorted(e for e in unit.entity_ids if e.startswith("agreement:") and e != s.subject_id)
        if others and s.subject_id not in unit.entity_ids:
            return f"subject_drift: the passage refers to {others[0]}, not {s.subject_id}"
        if c.focus is not None and not _names_subject(unit, c.focus, c):
            return f"subject_mismatch: the passage does not name {c.focus.name} ({c.focus.subject_id})"
    else:
        if not _names_subject(unit, s, c):
            return f"subject_mismatch: the passage does not name {s.name} ({s.subject_id})"
        if c.parent is not None:
            bound = any(
                {r["subject_id"], r["object_id"]} == {s.subject_id, c.parent.subject_id} for r in unit.relations
            )
            if not bound and not _names_subject(unit, c.parent, c):
                return f"parent_binding: the passage does not tie {s.name} to {c.parent.name} ({c.parent.subject_id})"
    return _period_reason(unit, sc, c, as_of) or _jurisdiction_reason(unit, sc)


def verify_units(units: Sequence[Unit], sc: SubjectClass, candidates: Sequence[Candidate], as_of: date | None) -> None:
    """Bind each unit to the first candidate (by subject id) it verifies for; otherwise record the
    reason it failed for the first candidate whose documents it belongs to (or the first)."""
    ordered = sorted(candidates, key=lambda c: c.subject_id)
    for unit in units:
        first_reason = None
        for c in ordered:
            reason = _check(unit, sc, c, as_of)
            if reason is None:
                unit.candidate, unit.reason = c, None
                break
            relevant = unit.doc_id in c.doc_ids or c.subject.type != "agreement"
            if first_reason is None or (relevant and first_reason[0] is False):
                first_reason = (relevant, reason)
        else:
            unit.reason = first_reason[1] if first_reason else "subject_mismatch: no candidate"


# -- does it state the attribute? -----------------------------------------------------------


def _role_phrases(sc: SubjectClass) -> list[str]:
    roles = load_json("roles.json")["titles"]
    phrases = [sc.role or ""]
    if sc.role in roles:
        phrases.extend(roles[sc.role]["variants"])
    if sc.relation:
        phrases.append(sc.relation.split("_")[0])
    return sorted({p for p in phrases if p}, key=lambda p: (-len(p), p))


EMBED_TOP_CHUNKS = 2
EMBED_MAX_UNITS = 24


def _text_cue(unit: Unit, attribute: Attribute | None) -> str | None:
    if attribute is None:
        return None
    for pattern in attribute.text_cues:
        if pattern.search(unit.excerpt):
            return pattern.pattern
    return None


def units_to_embed(units: Sequence[Unit], sc: SubjectClass) -> list[int]:
    """Indexes of the units worth a similarity score: verified units that carry a text cue or
    come from the best-ranked chunks. Embedding every sentence of every retrieved chunk costs
    more than the rest of the query together; a unit outside both sets could not be accepted
    (no cue, and retrieval ranked its chunk low), so its similarity is not computed (0.0)."""
    attribute = cues().attributes.get(sc.attribute or "")
    chosen = [
        i
        for i, u in enumerate(units)
        if u.reason is None and (u.chunk_rank <= EMBED_TOP_CHUNKS or _text_cue(u, attribute) or sc.kind == "entity_role")
    ]
    # Cue-bearing units first, then retrieval order; the cap bounds the query's cost.
    chosen.sort(key=lambda i: (_text_cue(units[i], attribute) is None, units[i].chunk_rank, units[i].char_start))
    return sorted(chosen[:EMBED_MAX_UNITS])


def assess_attribute(
    units: Sequence[Unit], vectors: dict[int, np.ndarray], sc: SubjectClass, embedder: Embedder
) -> None:
    """Mark verified units that state the asked attribute, with their score, confidence and
    normalised value. A verified unit that does not state it is moved out with ``off_attribute``."""
    data = cues()
    attribute: Attribute | None = data.attributes.get(sc.attribute or "")
    if sc.kind == "entity_role" and sc.understood:
        description = f"{sc.role} of {sc.parent_entity}. {data.role_attribute['description']}"
    elif attribute is not None:
        description = attribute.description
    else:
        description = ""
    target = description_vector(embedder, sc.attribute or "-", description) if description else None
    max_chunk = max((u.chunk_score for u in units), default=0.0) or 1.0
    for index, unit in enumerate(units):
        sim = float(vectors[index] @ target) if target is not None and index in vectors else 0.0
        cue = None
        if sc.kind == "entity_role" and sc.understood and unit.candidate is not None:
            rels = {sc.relation, sc.inverse_relation} - {None}
            for r in unit.relations:
                if r["relation"] in rels and unit.candidate.subject_id in (r["subject_id"], r["object_id"]):
                    cue = f"relation {r['relation']}"
                    break
            if cue is None:
                for phrase in _role_phrases(sc):
                    if re.search(rf"(?<!\w){re.escape(phrase)}", unit.excerpt, re.IGNORECASE):
                        cue = f"role word {phrase!r}"
                        break
            states = cue is not None
        elif attribute is not None:
            cue = _text_cue(unit, attribute)
            if cue is None and attribute.relations and unit.candidate is not None:
                for r in unit.relations:
                    if r["relation"] in attribute.relations and r["subject_id"] == unit.candidate.subject_id:
                        cue = f"relation {r['relation']}"
                        break
            states = (cue is not None and sim >= data.sim_cue_floor) or sim >= data.sim_accept
            if len(_WORDS.findall(unit.excerpt)) < data.min_words:
                states = False  # a heading names a topic, it states nothing
        else:
            states = False  # question not understood: nothing can state an unknown attribute
        unit.score = round(0.6 * sim + 0.3 * (cue is not None) + 0.1 * (unit.chunk_score / max_chunk), 6)
        unit.attribute_match = {"cue": cue, "similarity": round(sim, 4)}
        if unit.reason is not None:
            continue
        unit.states_attribute = states
        if cue is not None and sim >= data.sim_high:
            unit.confidence = "high"
        elif states:
            unit.confidence = "medium"
        else:
            unit.confidence = "low"
        if not states:
            what = sc.attribute_label or "the asked attribute"
            unit.reason = f"off_attribute: the passage is about the subject but does not state {what}"
            continue
        if sc.kind == "entity_role" and unit.candidate is not None:
            unit.value = {"type": "entity", "value": unit.candidate.subject_id, "name": unit.candidate.subject.name}
        elif attribute is not None:
            # A relation ingest bound to this very subject beats reading the text again.
            for r in unit.relations:
                if (
                    r["relation"] in attribute.relations
                    and unit.candidate is not None
                    and r["subject_id"] == unit.candidate.subject_id
                    and r["object_id"].startswith("jurisdiction:")
                ):
                    unit.value = {"type": "jurisdiction", "value": r["object_id"].split(":", 1)[1]}
                    break
            if unit.value is None:
                unit.value = extract_value(
                    attribute.value_type, unit.excerpt, unit.entity_ids, attribute.value_anchor
                )
            if unit.value is None and attribute.value_required:
                unit.states_attribute = False
                unit.confidence = "low"
                unit.reason = (
                    f"off_attribute: the passage mentions {attribute.label} but states no "
                    f"{attribute.value_type} value"
                )


def flag_injection(units: Sequence[Unit]) -> None:
    """Text in documents is data: instruction-like passages are flagged, never followed."""
    patterns = injection_patterns()
    for unit in units:
        unit.injection = any(p.search(unit.excerpt) for p in patterns)
