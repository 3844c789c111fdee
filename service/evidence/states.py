"""States of the evidence machine and the only transitions allowed between them.

The machine is linear and irreversible. The table below is the whole graph: advancing along an
edge it does not list raises :class:`InvalidTransition`, so no code path can, say, retrieve after
``SUBJECT_NOT_FOUND`` or step back to reinterpret the question.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from ingest.deadline import check_deadline
from ingest.errors import InternalError


class State(StrEnum):
    INIT = "INIT"
    SUBJECT_CLASS_IDENTIFIED = "SUBJECT_CLASS_IDENTIFIED"
    CANDIDATE_SUBJECT_DISCOVERED = "CANDIDATE_SUBJECT_DISCOVERED"
    SUBJECT_NOT_FOUND = "SUBJECT_NOT_FOUND"
    EVIDENCE_RETRIEVAL = "EVIDENCE_RETRIEVAL"
    EVIDENCE_EXTRACTION = "EVIDENCE_EXTRACTION"
    EVIDENCE_VERIFIED = "EVIDENCE_VERIFIED"
    CONCLUDED = "CONCLUDED"


TRANSITIONS: dict[State, frozenset[State]] = {
    State.INIT: frozenset({State.SUBJECT_CLASS_IDENTIFIED}),
    State.SUBJECT_CLASS_IDENTIFIED: frozenset({State.CANDIDATE_SUBJECT_DISCOVERED}),
    State.CANDIDATE_SUBJECT_DISCOVERED: frozenset(
        {State.SUBJECT_NOT_FOUND, State.EVIDENCE_RETRIEVAL}
    ),
    State.SUBJECT_NOT_FOUND: frozenset(),  # terminal: no retrieval, no retry, no substitute
    State.EVIDENCE_RETRIEVAL: frozenset({State.EVIDENCE_EXTRACTION}),
    State.EVIDENCE_EXTRACTION: frozenset({State.EVIDENCE_VERIFIED}),
    State.EVIDENCE_VERIFIED: frozenset({State.CONCLUDED}),
    State.CONCLUDED: frozenset(),
}

TERMINAL: frozenset[State] = frozenset(s for s, nxt in TRANSITIONS.items() if not nxt)


class InvalidTransition(InternalError, RuntimeError):
    def __init__(self, current: State, target: State) -> None:
        allowed = ", ".join(sorted(s.value for s in TRANSITIONS[current])) or "none (terminal)"
        super().__init__(
            f"invalid transition {current.value} -> {target.value}; allowed: {allowed}"
        )
        self.current = current
        self.target = target


@dataclass(slots=True)
class Tracker:
    """The current state plus the trace of states passed, each with a short detail."""

    state: State = State.INIT
    trace: list[dict[str, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.trace:
            self.trace.append({"state": self.state.value, "detail": "request validated"})

    def advance(self, target: State, detail: str) -> None:
        check_deadline()  # an abandoned request (past its deadline) stops at the next state
        if target not in TRANSITIONS[self.state]:
            raise InvalidTransition(self.state, target)
        self.state = target
        self.trace.append({"state": target.value, "detail": detail})

    @property
    def terminal(self) -> bool:
        return self.state in TERMINAL
