"""CONCLUDED (and SUBJECT_NOT_FOUND): claims bound to evidence ids, conflicts, sufficiency,
confidence, risk signals, next actions and the evidence bundle hash.

Confidence rules (report level):
  * ``low``: not sufficient, or any conflict, or any possible prompt injection in the evidence.
  * ``high``: sufficient, and at least one supporting unit is ``high`` (a text cue of the
    attribute plus embedding similarity to its description above ``similarity.high``), and, when
    the attribute has a value type other than presence, a normalised value was extracted, and no
    ``single_source`` signal.
  * ``medium``: every other sufficient answer.
Unit confidence: ``high`` as above; ``medium`` states the attribute by cue or similarity alone;
``low`` otherwise (only seen in rejected evidence).

``single_source`` is raised for entity subjects whose supporting evidence all comes from one
document. It is not raised for agreement attributes: the agreement itself is the authoritative
source of its own terms.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from typing import Any, Iterable, Sequence

from ingest.errors import InternalError
from ingest.normalize import legal_form_words, normalise_org
from ingest.statuses import Confidence
from service.evidence.data import asked_value_type, cues
from service.evidence.gate import Candidate, GateResult
from service.evidence.models import (
    AttributeConflict,
    Claim,
    ConflictValue,
    EvidenceItem,
    RejectedEvidence,
)
from service.evidence.risk_signals import RiskSignal
from service.evidence.subject_class import SubjectClass
from service.evidence.relevance import relevance_model
from service.evidence.verify import Assessed

MAX_EVIDENCE = 5
MAX_REJECTED = 20
OPEN_ATTRIBUTE = "question"  # the attribute key of a question the phrasebook does not know


class UnknownEvidenceId(InternalError, KeyError):
    """A claim cited an evidence id that is not in the evidence list."""

    def __str__(self) -> str:  # KeyError's default repr-quotes the message
        return str(self.args[0])


def resolve_sources(claim_ids: Iterable[str], evidence: Sequence[Any]) -> list[Any]:
    """The evidence entries a claim cites, in citation order; duplicate ids collapse to one entry.
    An id that is not in ``evidence`` raises :class:`UnknownEvidenceId`: a claim citing nothing
    real must never reach a user. ``evidence`` items may be models or dicts with an ``id``."""
    by_id = {(e["id"] if isinstance(e, dict) else e.id): e for e in evidence}
    out: list[Any] = []
    seen: set[str] = set()
    for cid in claim_ids:
        if cid not in by_id:
            raise UnknownEvidenceId(f"unknown evidence id {cid!r}; known: {', '.join(sorted(by_id)) or 'none'}")
        if cid not in seen:
            seen.add(cid)
            out.append(by_id[cid])
    return out


def source_url(doc_id: str, revision: str, char_start: int, char_end: int) -> str:
    from urllib.parse import quote

    return (
        f"/v1/documents/{quote(doc_id, safe='')}/revisions/{revision}/text"
        f"?char_start={char_start}&char_end={char_end}"
    )


def bundle_hash(evidence: Sequence[EvidenceItem]) -> str:
    """sha256 over canonical JSON of what was cited (document, revision, span, text); scores and
    timestamps are left out so the hash only moves when the cited content does."""
    return bundle_hash_of([e.model_dump(include=set(_BUNDLE_FIELDS)) for e in evidence])


_BUNDLE_FIELDS = ("doc_id", "revision", "char_start", "char_end", "excerpt")


def bundle_hash_of(evidence: Sequence[dict[str, Any]]) -> str:
    """:func:`bundle_hash` over citations as dicts (a sweep's stored evidence)."""
    payload = [{k: e[k] for k in _BUNDLE_FIELDS} for e in evidence]
    canonical = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def _item_fields(unit: Assessed, item_id: str, retrieved_at: str) -> dict[str, Any]:
    c = unit.chunk
    return {
        "id": item_id,
        "doc_id": c.doc_id,
        "revision": c.revision,
        "title": c.title,
        "page": c.page,
        "section": list(c.section),
        "line_start": unit.line_start,
        "line_end": unit.line_end,
        "char_start": unit.char_start,
        "char_end": unit.char_end,
        "excerpt": unit.excerpt,
        "score": unit.score,
        "confidence": unit.confidence,
        "retrieved_at": retrieved_at,
        "source_url": source_url(c.doc_id, c.revision, unit.char_start, unit.char_end),
        "attribute_match": dict(unit.attribute_match),
        "value": unit.value,
    }


VALUE_FIRST_TYPES = frozenset({"date"})  # attributes whose answer is a date the clause states


def value_first(sc: SubjectClass, question: str = "") -> bool:
    """Whether a unit stating a value of the asked attribute ranks above one that does not: for
    date-valued attributes (effective date, agreement date) the preamble's "dated as of
    <date>" is the canonical evidence, and the many clauses that merely use the defined term
    ("within 30 days after the Effective Date") carry its text cue but no date. The same holds
    for an open question that asks for a date in its own words ("what is the start date of
    ...": ``open_value_type``; ``question`` is the whole question)."""
    attribute = cues().attributes.get(sc.attribute or "")
    if attribute is not None:
        return attribute.value_type in VALUE_FIRST_TYPES
    return open_value_type(sc, question) in VALUE_FIRST_TYPES


def open_value_type(sc: SubjectClass, question: str) -> str | None:
    """The value type an open question asks for in its own words (``date`` for "what is the start
    date of ...", "when did ... begin"), read from the whole question: the question is not
    reinterpreted, its answer is only typed. Known attributes keep their own value type."""
    return asked_value_type(question) if sc.attribute == OPEN_ATTRIBUTE and question else None


def prefer_independent(units: Sequence[Assessed], *, values_first: bool = False) -> list[Assessed]:
    """Best unit of every document first, then the second of every document, ...: independent
    sources rank above a second passage of the same one. A unit a known attribute's typed rule
    accepted ranks above one accepted by relevance alone (``by_relevance``); with
    ``values_first`` (``value_first``), a unit stating a value ranks above one that does not.
    Ties: score, document, offset."""

    def rank(u: Assessed) -> tuple[bool, bool, float, tuple[str, str, int, int]]:
        return (u.by_relevance, values_first and u.value is None, -u.score, u.sort_key)

    by_score = sorted(units, key=rank)
    position: dict[str, int] = defaultdict(int)
    keyed = []
    for u in by_score:
        keyed.append((position[u.doc_id], *rank(u), u))
        position[u.doc_id] += 1
    return [k[-1] for k in sorted(keyed, key=lambda k: k[:5])]


def build_evidence(
    units: Sequence[Assessed], retrieved_at: str, *, values_first: bool = False
) -> tuple[list[Assessed], list[EvidenceItem], list[Assessed], list[RejectedEvidence]]:
    supporting = prefer_independent(
        [u for u in units if u.reason is None and u.states_attribute], values_first=values_first
    )[:MAX_EVIDENCE]
    # Verification failures first (they explain what was turned away), then off-attribute ones.
    failed = sorted(
        (u for u in units if u.reason is not None),
        key=lambda u: (u.reason is not None and u.reason.startswith("off_attribute"), -u.score, u.sort_key),
    )[:MAX_REJECTED]
    evidence = [EvidenceItem(**_item_fields(u, f"E{i}", retrieved_at)) for i, u in enumerate(supporting, 1)]
    rejected = [
        RejectedEvidence(**_item_fields(u, f"R{i}", retrieved_at), reason=u.reason or "")
        for i, u in enumerate(failed, 1)
    ]
    return supporting, evidence, failed, rejected


def _display(value: dict[str, Any] | None) -> str:
    if not value:
        return ""
    if value["type"] == "entity":
        return value["name"]
    return str(value["value"])


def _stated_name(c: Candidate, sc: SubjectClass) -> str:
    """The name a claim states for its subject: the entity's registry name, or the name as asked
    when the question asks it in another legal form. One registry key holds namesakes in
    different forms, and the gate kept only documents that may write the asked one
    (``gate.legal_person_docs``): the registry's spelling may be the other company's."""
    s = c.subject
    if s.type != "agreement" and sc.name and normalise_org(sc.name) == normalise_org(s.name) and (
        legal_form_words(sc.name) != legal_form_words(s.name)
    ):
        return sc.name
    return s.name


def build_claims(sc: SubjectClass, supporting: Sequence[Assessed], evidence: Sequence[EvidenceItem]) -> tuple[list[Claim], list[AttributeConflict]]:
    ids = {id(u): e.id for u, e in zip(supporting, evidence)}
    groups: dict[tuple[str, str, str], list[Assessed]] = defaultdict(list)
    for u in supporting:
        assert u.candidate is not None
        value_key = json.dumps(
            {"type": u.value["type"], "value": u.value["value"]} if u.value else None, sort_keys=True
        )
        groups[(u.candidate.subject_id, sc.attribute or "", value_key)].append(u)
    claims: list[Claim] = []
    # Claims in the order of their best evidence (E1's claim first); the group key breaks no tie
    # because every unit is in exactly one group.
    order = sorted(groups, key=lambda k: min(int(ids[id(u)][1:]) for u in groups[k]))
    for n, key in enumerate(order, start=1):
        members = groups[key]
        u = members[0]
        c = u.candidate
        assert c is not None
        name = _stated_name(c, sc)
        value = {"type": u.value["type"], "value": u.value["value"], **({"name": u.value["name"]} if "name" in u.value else {})} if u.value else None
        label = sc.attribute_label or sc.attribute or "attribute"
        if sc.kind == "entity_role" and c.parent is not None:
            statement = f"{name} is {label} of {c.parent.name}"
        elif sc.attribute == OPEN_ATTRIBUTE:
            stated = f"; the date they state: {_display(value)}" if value and value["type"] == "date" else ""
            statement = f"{name}: the cited passage(s) answer the question{stated}"
        elif value and value["type"] != "presence":
            statement = f"{label} of {name}: {_display(value)}"
        else:
            statement = f"{name}: the cited passage(s) state the {label}"
        evidence_ids = sorted({ids[id(m)] for m in members}, key=lambda x: int(x[1:]))
        claims.append(
            Claim(id=f"C{n}", subject_id=c.subject_id, attribute=sc.attribute or "", statement=statement, value=value, evidence_ids=evidence_ids)
        )
    # Every claim must cite real evidence: fail loudly here rather than ship a dangling id.
    for claim in claims:
        resolve_sources(claim.evidence_ids, evidence)
    conflicts: list[AttributeConflict] = []
    multi_valued = sc.kind == "entity_role"  # co-founders and several directors do not conflict
    if not multi_valued:
        by_subject: dict[tuple[str, str], list[Claim]] = defaultdict(list)
        # Only high-confidence units (cue and similarity both) take part: a duration picked out
        # of a medium-confidence passage is too weak to claim the documents disagree.
        strong = {ids[id(u)] for u in supporting if u.confidence == Confidence.HIGH}
        for claim in claims:
            # An open question's dates are what each cited passage states (a contract states
            # several): they are reported, never set against each other as a conflict.
            if sc.attribute == OPEN_ATTRIBUTE:
                continue
            if claim.value and claim.value["type"] != "presence" and strong & set(claim.evidence_ids):
                by_subject[(claim.subject_id, claim.attribute)].append(claim)
        for (subject_id, attribute), group in sorted(by_subject.items()):
            if len({(c.value or {}).get("value") for c in group}) > 1:
                conflicts.append(
                    AttributeConflict(
                        subject_id=subject_id,
                        attribute=attribute,
                        values=[ConflictValue(value=c.value or {}, evidence_ids=c.evidence_ids) for c in group],
                    )
                )
    return claims, conflicts


def assess(
    sc: SubjectClass,
    supporting: Sequence[Assessed],
    claims: Sequence[Claim],
    conflicts: Sequence[AttributeConflict],
    evidence: Sequence[EvidenceItem],
    failed: Sequence[Assessed],
    rejected: Sequence[RejectedEvidence],
    candidates: Sequence[Candidate],
) -> tuple[bool, str, list[str], list[str]]:
    """(sufficient, confidence, risk_signals, suggested_next_actions) of a concluded query."""
    data = cues()
    # Sufficient: a claim, and (except for a role held through a registry binding) a supporting
    # unit whose relevance reaches the threshold calibrated on the tune split. Instruction-like
    # units never support anything (verify.assess_units), so they can never make it true.
    best = max((u.relevance for u in supporting if not u.injection), default=0.0)
    role = sc.kind == "entity_role"
    threshold = relevance_model().sufficient(sc.attribute == OPEN_ATTRIBUTE)
    sufficient = bool(sc.understood and claims and (role or best >= threshold))
    risks: set[str] = set()
    actions: list[str] = []
    attribute = data.attributes.get(sc.attribute or "")
    subject_names = ", ".join(c.subject.name for c in candidates)
    if not sc.understood:
        risks.add(RiskSignal.QUESTION_NOT_UNDERSTOOD)
        actions.append(
            "Rephrase the question (e.g. 'What law governs the <agreement title> between <party A> and "
            "<party B>?', 'Who is the founder of <entity>?') or pass a structured `subject` with kind "
            "and attribute; supported attributes: " + ", ".join(sorted(data.attributes)) + "."
        )
    if not sufficient:
        risks.add(RiskSignal.INSUFFICIENT_EVIDENCE)
        if sc.understood:
            if sc.kind == "entity_role":
                missing = data.role_attribute["missing"].format(role=sc.role, parent=sc.parent_entity)
            else:
                missing = attribute.missing if attribute else "a document that answers the question"
            if claims:
                actions.append(
                    f"Review the cited passages for {subject_names}: none is relevant enough to the question "
                    "to count as an answer; or ingest " + missing + "."
                )
            else:
                actions.append(f"Ingest {missing} for {subject_names}: no retrieved passage states the {sc.attribute_label}.")
    if conflicts:
        risks.add(RiskSignal.CONFLICTING_EVIDENCE)
        for conflict in conflicts:
            values = "; ".join(f"{v.value.get('value')} ({', '.join(v.evidence_ids)})" for v in conflict.values)
            actions.append(
                f"Review the conflicting passages for {conflict.attribute} of {conflict.subject_id} ({values}) "
                "and check for a later amendment or superseding document; the conflict was not resolved."
            )
    if sufficient and sc.kind != "agreement_attribute" and len({u.doc_id for u in supporting}) == 1:
        risks.add(RiskSignal.SINGLE_SOURCE)
        actions.append(
            f"Corroborate with an independent document (only {supporting[0].doc_id} states this), "
            "e.g. a filing, register extract or board minutes."
        )
    # Rejected passages count too: they were retrieved, so their text reached this process.
    flagged = [e.id for e, u in zip(evidence, supporting) if u.injection] + [
        r.id for r, u in zip(rejected, failed) if u.injection
    ]
    if flagged:
        risks.add(RiskSignal.POSSIBLE_PROMPT_INJECTION)
        actions.append(
            f"Review passages {', '.join(flagged)}: they contain instruction-like text, which was treated as document data and not followed."
        )
    if len(candidates) > 1 and sc.kind == "agreement_attribute":
        # Duplicate filings or executed copies: separate candidates, never merged.
        risks.add(RiskSignal.MULTIPLE_CANDIDATES)
    if len(candidates) > 1 and sc.kind != "entity_role":
        risks.add(RiskSignal.AMBIGUOUS_SUBJECT)
        actions.append(
            "Several subjects passed the gate (" + ", ".join(c.subject_id for c in candidates)
            + "); name the parties or restrict scope.doc_ids to choose one."
        )
    if not sufficient or conflicts or RiskSignal.POSSIBLE_PROMPT_INJECTION in risks:
        confidence = Confidence.LOW
    else:
        needs_value = attribute is not None and attribute.value_type != "presence"
        strong = any(
            u.confidence == Confidence.HIGH and (not needs_value or u.value is not None) for u in supporting
        ) or (sc.kind == "entity_role" and any(str(u.attribute_match.get("cue", "")).startswith("relation") for u in supporting))
        confidence = Confidence.HIGH if strong and RiskSignal.SINGLE_SOURCE not in risks else Confidence.MEDIUM
    return sufficient, confidence, sorted(risks), actions


def not_found_actions(sc: SubjectClass, gate: GateResult) -> list[str]:
    data = cues()
    actions: list[str] = []
    for failure in gate.failures:
        actions.append(f"The question's subject could not be read, so no subject was looked up: {failure}.")
    for suggestion in gate.suggestions:
        actions.append(f"Did you mean {suggestion!r}? (a registry name close to one you gave; not used to answer)")
    for name in gate.unresolved:
        actions.append(
            f"No subject named {name!r} is visible to you in the registry: check the spelling or the "
            f"exact legal name, or ingest a document that names {name}."
        )
    for rejection in gate.rejected[:5]:
        actions.append(f"The registry has {rejection['subject_id']} but it was rejected: {rejection['reason']}.")
    if sc.kind == "entity_role" and sc.understood:
        missing = data.role_attribute["missing"].format(role=sc.role, parent=sc.parent_entity)
        actions.append(f"Ingest {missing}: no subject is bound to {sc.parent_entity} as its {sc.role}.")
    elif sc.kind == "agreement_attribute":
        parties = f" between {' and '.join(sc.parties)}" if sc.parties else ""
        actions.append(
            f"Ingest the signed {sc.agreement_title}{parties} (with the preamble naming the parties), "
            "or check its exact title."
        )
    elif sc.kind == "entity_attribute":
        attribute = data.attributes.get(sc.attribute or "")
        if attribute:
            actions.append(f"Ingest {attribute.missing} for {sc.name}.")
    if not sc.understood:
        actions.append(
            "The question was not understood; rephrase it or pass a structured `subject` (kind, name, role, "
            "parent_entity, agreement_title, parties, attribute)."
        )
    return actions
