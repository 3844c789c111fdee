"""The evidence state machine's driver: one function per state, advanced through the transition
table in :mod:`service.evidence.states`.

    INIT -> SUBJECT_CLASS_IDENTIFIED -> CANDIDATE_SUBJECT_DISCOVERED --(none)--> SUBJECT_NOT_FOUND
                                                                     \\--(some)--> EVIDENCE_RETRIEVAL
         -> EVIDENCE_EXTRACTION -> EVIDENCE_VERIFIED -> CONCLUDED

The same request on the same index gives the same report apart from ``request_id`` and
``retrieved_at``: every list is ordered by explicit keys, and nothing depends on time or chance.
"""

from __future__ import annotations

import uuid
from dataclasses import replace
from datetime import datetime, timezone
from typing import Any

from ingest.embedder import Embedder
from ingest.settings import Settings
from ingest.statuses import Confidence
from ingest.store.port import Principal, Store
from service.evidence import conclude, gate
from service.evidence.collect import collect, open_clause_type, query_question
from service.evidence.class_questions import ClassQuestion, answer_class_question, parse_class_question
from service.evidence.data import question_patterns
from service.evidence.registry_questions import ANSWERS as REGISTRY_ANSWERS
from service.evidence.registry_questions import RegistryQuestion, agreement_class, parse_registry_question, party_class
from service.evidence.models import (
    CandidateSubject,
    EvidenceReport,
    EvidenceRequest,
    Scope,
    TraceStep,
)
from service.evidence.risk_signals import RiskSignal
from service.evidence.states import State, Tracker
from service.evidence.subject_class import SubjectClass, identify


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


def with_open_attribute(sc: SubjectClass) -> SubjectClass:
    """The attribute is open: a question that names a subject (an agreement, or names the gate
    can check) but asks something the phrasebook does not know takes the question itself as its
    attribute. Only a question naming no subject stays not understood."""
    if sc.understood or sc.kind == "entity_role" or sc.attribute is not None:
        return sc
    if not (sc.agreement_title or sc.names):
        return sc
    return replace(
        sc, understood=True, attribute=conclude.OPEN_ATTRIBUTE,
        attribute_label="the answer to the question", pattern=sc.pattern or "open_attribute",
    )


GENERIC_ATTRIBUTES = frozenset({"obligations"})  # known attributes that only say "what must a party do"


def with_clause_type(sc: SubjectClass, question: str) -> SubjectClass:
    """A question the phrasebook reads as a known attribute but that names a narrower clause type
    of ``service/data/clause_types.json`` is an open question about that clause type: its
    description, cues and search words fit the question better. That holds for a generic
    attribute ("obligations", matched by words such as "must" or "commitment": "a minimum
    purchase commitment", "transition services after termination") and for an attribute the
    clause type names in its ``refines`` ("carve-outs from the non-compete" is not the
    non-compete; "is the licence irrevocable" is not the licence grant)."""
    if sc.kind != "agreement_attribute" or sc.attribute is None or sc.attribute == conclude.OPEN_ATTRIBUTE:
        return sc
    clause = open_clause_type(replace(sc, attribute=conclude.OPEN_ATTRIBUTE), query_question(sc, question))
    if clause is None or (sc.attribute not in GENERIC_ATTRIBUTES and sc.attribute not in clause.refines):
        return sc
    return replace(
        sc, attribute=conclude.OPEN_ATTRIBUTE, attribute_label="the answer to the question",
        pattern=sc.pattern or "open_attribute",
    )


def _named(sc: SubjectClass) -> str:
    return f"; named parties, each to be bound: {', '.join(repr(p) for p in sc.parties)}" if sc.parties else ""


def _not_found_detail(sc: SubjectClass, result: gate.GateResult) -> str:
    if result.failures:
        return "; ".join(result.failures)
    if sc.parties and sc.kind is None:  # the name-only gate (gate.gate_names)
        return "no registry subject passed the hard gate: none is tied to every named party (" + ", ".join(
            repr(p) for p in sc.parties
        ) + ")"
    return "no registry subject passed the hard gate"


def _class_detail(sc: SubjectClass) -> str:
    if sc.attribute == conclude.OPEN_ATTRIBUTE:
        where = f"agreement {sc.agreement_title!r}" if sc.agreement_title else ", ".join(repr(n) for n in sc.names)
        return f"open attribute (the question itself) of {where}{_named(sc)}"
    if not sc.understood:
        return f"not understood; names: {', '.join(sc.names) or 'none'}{_named(sc)}"
    if sc.kind == "entity_role":
        return f"{sc.role} ({sc.relation}) of {sc.parent_entity!r}"
    if sc.kind == "agreement_attribute":
        parties = f" between {' and '.join(repr(p) for p in sc.parties)}" if sc.parties else ""
        return f"{sc.attribute} of agreement {sc.agreement_title!r}{parties}"
    return f"{sc.attribute} of {sc.name!r}"


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

    if request.subject is None:
        registry_question = parse_registry_question(request.question)
        if registry_question is not None:
            return _answer_registry(request, registry_question, principal, tracker, request_id, retrieved_at, store)
        class_question = parse_class_question(request.question)
        if class_question is not None:
            return _answer_class(
                request, class_question, principal, tracker, request_id, retrieved_at,
                store=store, embedder=embedder, settings=settings,
            )
    sc = with_clause_type(with_open_attribute(identify(request)), request.question)
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
            return _not_found_report(request, request_id, tracker, sc, candidates_view, result)

        found = collect(
            sc, result.candidates, principal, scope, request.question,
            store=store, embedder=embedder, settings=settings,
        )
    tracker.advance(
        State.EVIDENCE_RETRIEVAL,
        f"{found.searches} hybrid search(es), {found.chunks} chunk(s) from {found.documents} document(s)",
    )
    tracker.advance(State.EVIDENCE_EXTRACTION, f"{found.units} sentence unit(s)")
    assessed = found.assessed
    n_subject_ok = sum(1 for a in assessed if a.reason is None or a.reason.startswith(("off_attribute", "instruction_like")))
    n_states = sum(1 for a in assessed if a.states_attribute)
    tracker.advance(
        State.EVIDENCE_VERIFIED,
        f"{n_subject_ok} unit(s) verified for the subject, {n_states} answer the question, "
        f"{len(assessed) - n_subject_ok} rejected",
    )

    supporting, evidence, failed, rejected = conclude.build_evidence(assessed, retrieved_at, values_first=conclude.value_first(sc, request.question))
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
            report.risk_signals = sorted({*report.risk_signals, RiskSignal.GENERATOR_UNAVAILABLE})
        elif report.narrative.dropped_sentences:
            report.risk_signals = sorted({*report.risk_signals, RiskSignal.UNCITED_GENERATED_TEXT})
    return report


def _not_found_report(
    request: EvidenceRequest,
    request_id: str,
    tracker: Tracker,
    sc: SubjectClass,
    candidates: list[CandidateSubject],
    result: gate.GateResult,
) -> EvidenceReport:
    """SUBJECT_NOT_FOUND: no evidence, the gate's reason in the trace, what to try next."""
    tracker.advance(State.SUBJECT_NOT_FOUND, _not_found_detail(sc, result))
    return _report(
        request, request_id, tracker, sc, candidates, [], [], [], [],
        sufficient=False, confidence=Confidence.LOW,
        risks=sorted({RiskSignal.SUBJECT_NOT_FOUND, *(() if sc.understood else (RiskSignal.QUESTION_NOT_UNDERSTOOD,))}),
        actions=conclude.not_found_actions(sc, result),
    )


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
    confidence: Confidence,
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


def _answer_class(
    request: EvidenceRequest,
    cq: ClassQuestion,
    principal: Principal,
    tracker: Tracker,
    request_id: str,
    retrieved_at: str,
    *,
    store: Store,
    embedder: Embedder,
    settings: Settings,
) -> EvidenceReport:
    sc = cq.subject_class()
    condition = cq.jurisdiction or (f"{cq.period['start']}..{cq.period['end']}" if cq.period else "stated")
    tracker.advance(
        State.SUBJECT_CLASS_IDENTIFIED,
        f"class-level: every {cq.type} the caller may read; {sc.attribute or 'no attribute'} = {condition}",
    )
    answer = answer_class_question(
        cq, principal, tracker, store=store, embedder=embedder, settings=settings, retrieved_at=retrieved_at
    )
    if tracker.state != State.SUBJECT_NOT_FOUND:
        tracker.advance(
            State.CONCLUDED,
            f"{len(answer.claims)} matching {cq.type}(s) of {len(answer.rows)} examined, sufficient={str(answer.sufficient).lower()}",
        )
    report = _report(
        request, request_id, tracker, answer.sc, [CandidateSubject(**c) for c in answer.candidates],
        answer.evidence, [], answer.claims, [], sufficient=answer.sufficient,
        confidence=Confidence.MEDIUM if answer.sufficient else Confidence.LOW, risks=answer.risks, actions=answer.actions,
    )
    report.table = answer.rows if tracker.state == State.CONCLUDED else None
    return report


def _answer_registry(
    request: EvidenceRequest,
    rq: RegistryQuestion,
    principal: Principal,
    tracker: Tracker,
    request_id: str,
    retrieved_at: str,
    store: Store,
) -> EvidenceReport:
    """Registry questions walk the same states; retrieval reads registry bindings instead of
    searching text, and every claim cites a binding's source span."""
    sc = agreement_class(rq) if rq.ask in ("parties", "amendments_of", "title") else party_class(rq)
    if sc is None:  # the agreement phrase has no title to gate on: say so, never guess
        sc = SubjectClass(understood=False, attribute=rq.ask, pattern=rq.shape, names=[rq.target])
    tracker.advance(State.SUBJECT_CLASS_IDENTIFIED, f"registry question {rq.ask} of {rq.target!r}")
    with store.snapshot():
        if sc.failures:
            # Fail closed: a party list or name the parser could not read is never looked up.
            result = gate.GateResult([], [], [], failures=list(sc.failures))
        elif sc.kind == "agreement_attribute":
            # The same guarded gate as any agreement question (failures, readings, every party).
            result = gate.discover(store, principal, sc, request.scope)
        elif sc.kind == "entity_attribute":
            entity_types = tuple(t.casefold() for t in question_patterns()["entity_types"])
            result = gate.gate_party_name(store, principal, rq.target, entity_types)
        else:
            result = gate.GateResult([], [], [rq.target])
        tracker.advance(
            State.CANDIDATE_SUBJECT_DISCOVERED,
            f"{len(result.candidates)} candidate(s): " + (", ".join(c.subject_id for c in result.candidates) or "none")
            + (f"; {len(result.rejected)} rejected by the gate" if result.rejected else ""),
        )
        candidates_view = [CandidateSubject(**gate.candidate_view(c)) for c in result.candidates]
        if not result.candidates:
            return _not_found_report(request, request_id, tracker, sc, candidates_view, result)
        answer = REGISTRY_ANSWERS[rq.ask](store, principal, result.candidates, retrieved_at)
    tracker.advance(State.EVIDENCE_RETRIEVAL, f"registry bindings of {len(result.candidates)} subject(s)")
    tracker.advance(State.EVIDENCE_EXTRACTION, f"{len(answer.evidence)} binding source span(s)")
    tracker.advance(State.EVIDENCE_VERIFIED, "each binding ties its subject to the asked subject explicitly")
    sufficient = bool(answer.claims)
    risks = [] if sufficient else [RiskSignal.INSUFFICIENT_EVIDENCE]
    actions = [] if sufficient else [f"The registry holds no {rq.ask.replace('_', ' ')} binding for {rq.target}: ingest the documents that state it."]
    if len(result.candidates) > 1:
        risks.append(RiskSignal.AMBIGUOUS_SUBJECT)
        actions.append("Several subjects passed the gate (" + ", ".join(c.subject_id for c in result.candidates) + ").")
    tracker.advance(State.CONCLUDED, f"{len(answer.claims)} claim(s) from registry bindings, sufficient={str(sufficient).lower()}")
    return _report(
        request, request_id, tracker, sc, candidates_view, answer.evidence, [], answer.claims, [],
        sufficient=sufficient, confidence=Confidence.HIGH if sufficient else Confidence.LOW, risks=sorted(risks), actions=actions,
    )
