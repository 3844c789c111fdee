"""The evidence state machine's driver: one function per state, advanced through the transition
table in :mod:`service.evidence.states`.

    INIT -> SUBJECT_CLASS_IDENTIFIED -> CANDIDATE_SUBJECT_DISCOVERED --(none)--> SUBJECT_NOT_FOUND
                                                                     \\--(some)--> EVIDENCE_RETRIEVAL
         -> EVIDENCE_EXTRACTION -> EVIDENCE_VERIFIED -> CONCLUDED

The same request on the same index gives the same report apart from ``request_id`` and
``retrieved_at``: every list is ordered by explicit keys, and nothing depends on time or chance.
"""

from __future__ import annotations

import re
import uuid
from datetime import datetime, timezone
from typing import Any

from ingest.embedder import Embedder
from ingest.settings import Settings
from ingest.store.port import Principal, Store
from service.evidence import conclude, gate, units, verify
from service.evidence.data import cues
from service.evidence.models import (
    CandidateSubject,
    EvidenceReport,
    EvidenceRequest,
    TraceStep,
)
from service.evidence.states import State, Tracker
from service.evidence.subject_class import SubjectClass, identify


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


def _class_detail(sc: SubjectClass) -> str:
    if not sc.understood:
        return f"not understood; names: {', '.join(sc.names) or 'none'}"
    if sc.kind == "entity_role":
        return f"{sc.role} ({sc.relation}) of {sc.parent_entity!r}"
    if sc.kind == "agreement_attribute":
        parties = f" between {' and '.join(repr(p) for p in sc.parties)}" if sc.parties else ""
        return f"{sc.attribute} of agreement {sc.agreement_title!r}{parties}"
    return f"{sc.attribute} of {sc.name!r}"


def _attribute_description(sc: SubjectClass) -> str:
    data = cues()
    if sc.kind == "entity_role" and sc.understood:
        return f"{sc.role} of {sc.parent_entity}"
    attribute = data.attributes.get(sc.attribute or "")
    return f"{attribute.description} {attribute.query}" if attribute else ""


def _query_question(sc: SubjectClass, question: str) -> str:
    """The question without the agreement title and party names: the search is already confined
    to the agreement's document, where those names are in nearly every chunk and would only drown
    the attribute's words (for BM25 and for the query vector alike)."""
    if sc.kind != "agreement_attribute":
        return question
    out = question
    for name in sorted([sc.agreement_title or "", *sc.parties], key=len, reverse=True):
        if name:
            out = re.sub(re.escape(name), " ", out, flags=re.IGNORECASE)
    return " ".join(out.split())


def run_evidence_query(
    request: EvidenceRequest,
    principal: Principal,
    *,
    store: Store,
    embedder: Embedder,
    settings: Settings,
    request_id: str | None = None,
) -> EvidenceReport:
    # INIT: the request model validated question length and the scope; the principal is typed.
    if not isinstance(principal, Principal):
        raise TypeError("principal must be an ingest.store.port.Principal")
    tracker = Tracker()
    request_id = request_id or uuid.uuid4().hex
    retrieved_at = _now()

    sc = identify(request)
    tracker.advance(State.SUBJECT_CLASS_IDENTIFIED, _class_detail(sc))
    scope = request.scope
    with store.snapshot():  # registry and search see one state of the index
        result = gate.discover(store, principal, sc, scope)
        tracker.advance(
            State.CANDIDATE_SUBJECT_DISCOVERED,
            f"{len(result.candidates)} candidate(s): "
            + (", ".join(c.subject_id for c in result.candidates) or "none")
            + (f"; {len(result.rejected)} rejected by the gate" if result.rejected else ""),
        )
        candidates_view = [CandidateSubject(**gate.candidate_view(c)) for c in result.candidates]
        if not result.candidates:
            tracker.advance(
                State.SUBJECT_NOT_FOUND,
                "; ".join(result.failures) if result.failures else "no registry subject passed the hard gate",
            )
            return _report(
                request, request_id, tracker, sc, candidates_view, [], [], [], [],
                sufficient=False, confidence="low", risks=["subject_not_found"],
                actions=conclude.not_found_actions(sc, result),
            )

        searches = units.plan_searches(
            sc, result.candidates, principal, scope, _attribute_description(sc),
            _query_question(sc, request.question),
        )
        hits = units.retrieve(
            store, embedder, searches, depth=settings.retrieval_depth, rrf_k=settings.rrf_k
        )
        attribute = cues().attributes.get(sc.attribute or "")
        if attribute is not None and attribute.opening:
            hits += units.opening_hits(
                store, principal, result.candidates, {h.chunk.chunk_id for h in hits}
            )
        tracker.advance(
            State.EVIDENCE_RETRIEVAL,
            f"{len(searches)} hybrid search(es), {len(hits)} chunk(s) from "
            f"{len({h.chunk.doc_id for h in hits})} document(s)",
        )
    extracted = units.extract_units(hits)
    tracker.advance(State.EVIDENCE_EXTRACTION, f"{len(extracted)} sentence unit(s)")

    as_of = scope.as_of if scope else None
    verify.verify_units(extracted, sc, result.candidates, as_of)
    chosen = verify.units_to_embed(extracted, sc)
    vectors = dict(zip(chosen, units.embed_units(embedder, [extracted[i] for i in chosen])))
    verify.assess_attribute(extracted, vectors, sc, embedder)
    verify.flag_injection(extracted)
    n_subject_ok = sum(1 for u in extracted if u.reason is None or u.reason.startswith("off_attribute"))
    n_states = sum(1 for u in extracted if u.reason is None)
    tracker.advance(
        State.EVIDENCE_VERIFIED,
        f"{n_subject_ok} unit(s) verified for the subject, {n_states} state the attribute, "
        f"{len(extracted) - n_subject_ok} rejected",
    )

    supporting, evidence, failed, rejected = conclude.build_evidence(extracted, retrieved_at)
    claims, conflicts = conclude.build_claims(sc, supporting, evidence)
    sufficient, confidence, risks, actions = conclude.assess(
        sc, supporting, claims, conflicts, evidence, failed, rejected, result.candidates
    )
    tracker.advance(
        State.CONCLUDED,
        f"{len(claims)} claim(s), {len(conflicts)} conflict(s), sufficient={str(sufficient).lower()}",
    )
    report = _report(
        request, request_id, tracker, sc, candidates_view, evidence, rejected, claims, conflicts,
        sufficient=sufficient, confidence=confidence, risks=risks, actions=actions,
    )
    if settings.generator_url and report.evidence:
        from service.evidence.generator import narrate

        report.narrative = narrate(report, settings)
        if report.narrative.error:
            report.risk_signals = sorted({*report.risk_signals, "generator_unavailable"})
        elif report.narrative.dropped_sentences:
            report.risk_signals = sorted({*report.risk_signals, "uncited_generated_text"})
    return report


def _report(
    request: EvidenceRequest,
    request_id: str,
    tracker: Tracker,
    sc: SubjectClass,
    candidates: list[CandidateSubject],
    evidence: list[Any],
    rejected: list[Any],
    claims: list[Any],
    conflicts: list[Any],
    *,
    sufficient: bool,
    confidence: str,
    risks: list[str],
    actions: list[str],
) -> EvidenceReport:
    return EvidenceReport(
        request_id=request_id,
        question=request.question,
        state=tracker.state.value,
        trace=[TraceStep(**t) for t in tracker.trace],
        subject_class=sc.to_dict(),
        candidate_subjects=candidates,
        evidence=evidence,
        rejected_evidence=rejected,
        claims=claims,
        conflicts=conflicts,
        sufficient=sufficient,
        confidence=confidence,  # type: ignore[arg-type]
        risk_signals=risks,
        suggested_next_actions=actions,
        evidence_bundle_hash=conclude.bundle_hash(evidence),
    )
