"""Unit tests of the evidence machine's parts that need no index: the transition table, question
parsing, value normalisation, citation resolution and the bundle hash."""

from __future__ import annotations

import hashlib

import pytest

from service.evidence.conclude import UnknownEvidenceId, bundle_hash, resolve_sources, source_url
from service.evidence.models import EvidenceItem, EvidenceRequest
from service.evidence.states import TRANSITIONS, InvalidTransition, State, Tracker
from service.evidence.subject_class import parse_question, split_parties
from service.evidence.values import extract_value


def test_transition_table_is_linear_and_terminal_states_are_final() -> None:
    assert TRANSITIONS[State.SUBJECT_NOT_FOUND] == frozenset()
    assert TRANSITIONS[State.CONCLUDED] == frozenset()
    tracker = Tracker()
    tracker.advance(State.SUBJECT_CLASS_IDENTIFIED, "x")
    tracker.advance(State.CANDIDATE_SUBJECT_DISCOVERED, "none")
    tracker.advance(State.SUBJECT_NOT_FOUND, "gate")
    with pytest.raises(InvalidTransition, match="SUBJECT_NOT_FOUND -> EVIDENCE_RETRIEVAL"):
        tracker.advance(State.EVIDENCE_RETRIEVAL, "retry")
    assert tracker.terminal
    assert [t["state"] for t in tracker.trace] == [
        "INIT", "SUBJECT_CLASS_IDENTIFIED", "CANDIDATE_SUBJECT_DISCOVERED", "SUBJECT_NOT_FOUND",
    ]


def test_no_skipping_and_no_going_back() -> None:
    tracker = Tracker()
    with pytest.raises(InvalidTransition):
        tracker.advance(State.EVIDENCE_RETRIEVAL, "skip")
    tracker.advance(State.SUBJECT_CLASS_IDENTIFIED, "x")
    with pytest.raises(InvalidTransition):
        tracker.advance(State.SUBJECT_CLASS_IDENTIFIED, "reinterpret")


def test_request_validation() -> None:
    with pytest.raises(ValueError):
        EvidenceRequest(question="")
    with pytest.raises(ValueError):
        EvidenceRequest(question="x" * 2001)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        (
            "What law governs the MARKETING AFFILIATE AGREEMENT between Women.com Networks, Inc. and eDiets.com, Inc.?",
            {"kind": "agreement_attribute", "attribute": "governing_law", "agreement_title": "MARKETING AFFILIATE AGREEMENT",
             "parties": ["Women.com Networks, Inc.", "eDiets.com, Inc"]},
        ),
        (
            "When does the Distribution Agreement between Acme Holdings, Inc. and Beta LLC expire?",
            {"attribute": "expiration_date", "parties": ["Acme Holdings, Inc.", "Beta LLC"], "document_type": "distribution"},
        ),
        ("Entity A's founder", {"kind": "entity_role", "role": "founder", "relation": "founder_of", "parent_entity": "Entity A"}),
        ("Who is the CEO of Acme in 2021?", {"role": "chief executive officer", "relation": "officer_of",
                                             "period": {"start": "2021-01-01", "end": "2021-12-31"}}),
        ("Supplier X's subsidiaries", {"relation": "subsidiary_of", "inverse_relation": "parent_of", "parent_entity": "Supplier X"}),
        ("Who is the registered agent of Acme under Delaware law?", {"relation": "registered_agent_for", "jurisdiction": "delaware"}),
        ("Where is Acme Holdings incorporated?", {"kind": "entity_attribute", "attribute": "incorporation", "name": "Acme Holdings"}),
        (
            "What are Entity A's obligations under the MSA with Beta Corp?",
            {"attribute": "obligations", "name": "Entity A", "parties": ["Entity A", "Beta Corp"], "document_type": "services"},
        ),
        (
            "Does the LICENSE AGREEMENT between A Corp and B Corp grant a license?",
            {"attribute": "license_grant", "agreement_title": "LICENSE AGREEMENT"},
        ),
        ("Who is the grand wizard of Acme?", {"understood": False, "names": ["Acme"]}),
    ],
)
def test_question_parsing(question: str, expected: dict) -> None:
    parsed = parse_question(question).to_dict()
    assert {k: parsed[k] for k in expected} == expected


def test_party_splitting_keeps_legal_suffixes() -> None:
    assert split_parties("Acme, Inc., Beta LLC and Gamma Co., Ltd.") == ["Acme, Inc.", "Beta LLC", "Gamma Co., Ltd."]


@pytest.mark.parametrize(
    ("value_type", "text", "expected"),
    [
        ("jurisdiction", "governed by the laws of the Commonwealth of Pennsylvania.", "pennsylvania"),
        ("jurisdiction", "construed in accordance with the laws of Taiwan.", "taiwan"),
        ("date", "made as of the 22nd day of May, 2000", "2000-05-22"),
        ("date", "dated 5/22/00", "2000-05-22"),
        ("duration", "for successive one (1) year terms", "P1Y"),
        ("duration", "upon thirty (30) days written notice", "P30D"),
        ("money", "shall not exceed $2.5 million", "USD 2500000"),
        ("money", "not to exceed US$1,000,000.00", "USD 1000000.00"),
    ],
)
def test_values(value_type: str, text: str, expected: str) -> None:
    assert extract_value(value_type, text, [])["value"] == expected


def _item(i: int, excerpt: str = "text") -> EvidenceItem:
    return EvidenceItem(
        id=f"E{i}", doc_id="d", revision="r", title="t", page=None, section=[], line_start=1,
        line_end=1, char_start=i * 10, char_end=i * 10 + len(excerpt), excerpt=excerpt, score=1.0,
        confidence="high", retrieved_at=f"2026-01-0{i}T00:00:00Z",
        source_url=source_url("d", "r", i * 10, i * 10 + len(excerpt)),
    )


def test_resolve_sources_collapses_duplicates_and_rejects_unknown_ids() -> None:
    evidence = [_item(1), _item(2)]
    assert [e.id for e in resolve_sources(["E2", "E1", "E2"], evidence)] == ["E2", "E1"]
    assert [e["id"] for e in resolve_sources(["E1"], [e.model_dump() for e in evidence])] == ["E1"]
    with pytest.raises(UnknownEvidenceId, match="unknown evidence id 'E9'; known: E1, E2"):
        resolve_sources(["E1", "E9"], evidence)


def test_bundle_hash_covers_content_not_timestamps_or_scores() -> None:
    a = [_item(1), _item(2)]
    b = [_item(1).model_copy(update={"retrieved_at": "later", "score": 0.1}), _item(2)]
    assert bundle_hash(a) == bundle_hash(b)
    assert bundle_hash(a) != bundle_hash([_item(1, "other"), _item(2)])
    assert bundle_hash([]) == hashlib.sha256(b"[]").hexdigest()


def test_source_url_quotes_the_doc_id() -> None:
    assert source_url("a b/c", "rev", 1, 5) == "/v1/documents/a%20b%2Fc/revisions/rev/text?char_start=1&char_end=5"
