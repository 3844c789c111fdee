"""Risk signals are a StrEnum (``service/evidence/risk_signals.py``): the wire values are the
strings reports always carried, and sets and sorting mix members and plain strings safely (the
evidence tests check the signals real reports carry)."""

from __future__ import annotations

import json

from service.evidence.risk_signals import RiskSignal

WIRE = {
    "ambiguous_subject", "class_scan_truncated", "conflicting_evidence", "evidence_truncated",
    "generator_unavailable", "insufficient_evidence", "multiple_candidates",
    "possible_prompt_injection", "question_not_understood", "single_source", "subject_not_found",
    "uncited_generated_text",
}


def test_the_wire_values_are_the_old_strings():
    assert {signal.value for signal in RiskSignal} == WIRE
    assert all(signal.value == signal.name.lower() for signal in RiskSignal)
    # A report that already holds a plain string gets no duplicate when a member is added.
    merged = sorted({"single_source", RiskSignal.SINGLE_SOURCE, RiskSignal.AMBIGUOUS_SUBJECT})
    assert merged == ["ambiguous_subject", "single_source"]
    assert json.dumps(merged) == '["ambiguous_subject", "single_source"]'
