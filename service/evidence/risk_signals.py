"""The risk signals an evidence report may carry (``EvidenceReport.risk_signals``). A
``StrEnum``: each member is its wire value, so reports, sorting and JSON are what plain strings
gave, and a misspelt signal is an ``AttributeError`` instead of a new value on the wire."""

from __future__ import annotations

from enum import StrEnum


class RiskSignal(StrEnum):
    AMBIGUOUS_SUBJECT = "ambiguous_subject"
    CLASS_SCAN_TRUNCATED = "class_scan_truncated"
    CONFLICTING_EVIDENCE = "conflicting_evidence"
    EVIDENCE_TRUNCATED = "evidence_truncated"
    GENERATOR_UNAVAILABLE = "generator_unavailable"
    INSUFFICIENT_EVIDENCE = "insufficient_evidence"
    MULTIPLE_CANDIDATES = "multiple_candidates"
    POSSIBLE_PROMPT_INJECTION = "possible_prompt_injection"
    QUESTION_NOT_UNDERSTOOD = "question_not_understood"
    SINGLE_SOURCE = "single_source"
    SUBJECT_NOT_FOUND = "subject_not_found"
    UNCITED_GENERATED_TEXT = "uncited_generated_text"
