"""Routing an open question to a known attribute by meaning (``service/evidence/routing.py``),
with the real all-MiniLM-L6-v2 embedder, and value-first ranking of date-valued attributes'
evidence (``conclude.prefer_independent``). The questions are worded unlike every question cue
of ``attribute_cues.json``, so before routing they were answered as open questions."""

from __future__ import annotations

from dataclasses import replace

import pytest

from ingest.schema import Subject
from ingest.statuses import Confidence
from service.evidence import conclude, units, verify
from service.evidence.gate import Candidate
from service.evidence.machine import with_clause_type, with_meaning_route, with_open_attribute
from service.evidence.models import EvidenceRequest
from service.evidence.routing import Route, RoutingRule, routed, routing_rule
from service.evidence.subject_class import SubjectClass, identify
from service.retrieval import Hit
from tests.test_evidence_stages import _agreement, _chunk

SUBJECT = "the RESELLER AGREEMENT between Acme Inc. and Beta LLC"


@pytest.fixture(scope="module")
def embedder():
    from ingest.embedder import MiniLMEmbedder

    return MiniLMEmbedder()


def _read(question: str) -> SubjectClass:
    return with_clause_type(with_open_attribute(identify(EvidenceRequest(question=question))), question)


@pytest.mark.parametrize(
    ("question", "attribute"),
    [
        (f"Is a party restricted from competing under {SUBJECT}?", "non_compete"),
        (f"May Acme inspect the other party's books and records under {SUBJECT}?", "audit_rights"),
        (f"On which day does {SUBJECT} start to apply?", "effective_date"),
        (f"Which state's courts and statutes apply to {SUBJECT}?", "governing_law"),
    ],
)
def test_an_open_question_is_routed_to_the_attribute_nearest_in_meaning(embedder, question: str, attribute: str) -> None:
    before = _read(question)
    assert before.attribute == "question"  # no phrase rule reads it
    after, route = with_meaning_route(before, question, embedder)
    assert route is not None and route.target == attribute
    assert route.similarity >= routing_rule().min_similarity and route.margin >= routing_rule().min_margin
    assert (after.attribute, after.pattern) == (attribute, "attribute_by_meaning")
    assert after.attribute_label == conclude.cues().attributes[attribute].label
    # Everything else about the subject is kept: the gate sees the same title and parties.
    assert (after.agreement_title, after.parties) == (before.agreement_title, before.parties)


@pytest.mark.parametrize(
    ("question", "nearest"),
    [
        # Nearest description is a clause type's: the question stays open.
        (f"Is liability limited under {SUBJECT}?", "clause:uncapped_liability"),
        # Nothing is near: stays open.
        (f"What is the formal title of {SUBJECT}?", None),
    ],
)
def test_a_question_nearest_a_clause_type_or_nothing_stays_open(embedder, question: str, nearest: str | None) -> None:
    before = _read(question)
    after, route = with_meaning_route(before, question, embedder)
    assert after is before and after.attribute == "question"
    assert route is not None
    if nearest is not None:
        assert route.target == nearest
    else:
        assert route.similarity < routing_rule().min_similarity


def test_phrase_rules_and_clause_types_come_first(embedder) -> None:
    known = _read(f"What law governs {SUBJECT}?")
    assert with_meaning_route(known, "", embedder) == (known, None)
    clause = _read(f"Is there a right of first refusal in {SUBJECT}?")  # clause type rofr_rofo_rofn
    assert clause.attribute == "question"
    assert with_meaning_route(clause, f"Is there a right of first refusal in {SUBJECT}?", embedder) == (clause, None)
    entity = SubjectClass(understood=True, kind="entity_role", attribute=None)
    assert with_meaning_route(entity, "Who founded Acme?", embedder) == (entity, None)


@pytest.mark.parametrize(
    ("route", "attribute"),
    [
        (Route("effective_date", 0.40, 0.025), "effective_date"),  # at both bounds
        (Route("effective_date", 0.39999, 0.5), None),  # below the similarity
        (Route("effective_date", 0.9, 0.02499), None),  # too close to the runner-up
        (Route("clause:warranty_duration", 0.9, 0.5), None),  # a clause type is no attribute
    ],
)
def test_routing_rule_bounds(route: Route, attribute: str | None) -> None:
    assert routed(route, RoutingRule(0.40, 0.025)) == attribute


def test_routing_rule_is_the_calibrated_data() -> None:
    assert routing_rule() == RoutingRule(0.4, 0.025)


# -- value-first ranking of date-valued attributes ---------------------------------------------

PREAMBLE = "This Reseller Agreement is made and entered into as of March 1, 2019 by Acme Inc. and Beta LLC."
MENTION = "Within thirty days after the Effective Date, Reseller shall deliver its first forecast to Acme."


def _dated_units(sc: SubjectClass):
    text = PREAMBLE + " " + MENTION
    chunk = replace(
        _chunk(), text=text, char_end=8 + len(text), line_end=3, entities=[],
        sentences=[
            {"char_start": 8, "char_end": 8 + len(PREAMBLE), "entity_ids": []},
            {"char_start": 8 + len(PREAMBLE) + 1, "char_end": 8 + len(text), "entity_ids": []},
        ],
    )
    verified = verify.verify_units(units.extract_units([Hit(chunk, 1.0, 1, 1)]), sc, [_agreement()], None)
    return verified


def _assessed(v: verify.Verified, score: float, value) -> verify.Assessed:
    return verify.Assessed(
        unit=v.unit, candidate=v.candidate, reason=None, states_attribute=True, relevance=score, score=score,
        confidence=Confidence.MEDIUM, attribute_match={}, value=value, injection=False,
    )


def test_a_date_valued_attribute_cites_the_unit_stating_a_date_first() -> None:
    sc = SubjectClass(understood=True, kind="agreement_attribute", subject_type="agreement",
                      agreement_title="RESELLER AGREEMENT", attribute="effective_date", attribute_label="effective date")
    preamble, mention = _dated_units(sc)
    dated = _assessed(preamble, 0.7, {"type": "date", "value": "2019-03-01"})
    undated = _assessed(mention, 0.9, None)  # mentions the defined term, scores higher, states no date
    assert conclude.value_first(sc)
    supporting, evidence, _, _ = conclude.build_evidence([undated, dated], "", values_first=conclude.value_first(sc))
    assert [e.excerpt for e in evidence] == [PREAMBLE, MENTION]
    # Without value-first (the old order, and every non-date attribute) the score decides.
    assert [u.excerpt for u in conclude.prefer_independent([undated, dated])] == [MENTION, PREAMBLE]
    # A unit its typed rule turned away (by relevance alone) still ranks after the rule's units.
    late = replace(dated, by_relevance=True)
    assert [u.excerpt for u in conclude.prefer_independent([late, undated], values_first=True)] == [MENTION, PREAMBLE]


@pytest.mark.parametrize(
    ("attribute", "first"),
    [("effective_date", True), ("agreement_date", True), ("expiration_date", False), ("governing_law", False), ("question", False)],
)
def test_value_first_only_for_date_valued_attributes(attribute: str, first: bool) -> None:
    sc = SubjectClass(understood=True, kind="agreement_attribute", attribute=attribute)
    assert conclude.value_first(sc) is first
