"""Class-level questions: "Which agreements are governed by Florida law?", "Which contracts have a
non-compete?", "List the agreements that expire in 2021".

The question names a class, not an instance. The class matches explicitly (a class noun of
``service/data/open_questions.json``), so its candidates are every subject of that class the
caller may read: this is not a fallback for a subject the gate did not find. The answer is a
table, one row per agreement with its value and citation or "not stated" (``table.py``, the same
cells as ``attest table``); the rows that satisfy the question's condition become the claims.

Condition read from the question, after the attribute (``attribute_cues.json`` question cues):
  * a place the jurisdiction lexicon knows ("Florida"): the cell's jurisdiction must be it;
  * a year or a range of years ("in 2021", "between 2019 and 2021"): the cell's date must fall in
    it;
  * otherwise: the cell must be sufficient (the agreement states the attribute).

Cost is bounded: at most ``MAX_CLASS_SCAN`` members are examined per question, in the table's
fixed order; a larger class is reported with ``class_scan_truncated``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ingest.embedder import Embedder
from ingest.lexicons import lexicons
from ingest.text import name_words
from ingest.settings import Settings
from ingest.store.port import Principal, Store
from service.evidence import table
from service.evidence.data import cues, load, question_patterns
from service.evidence.models import Claim, EvidenceItem
from service.evidence.risk_signals import RiskSignal
from service.evidence.states import State, Tracker
from service.evidence.subject_class import SubjectClass, detect_attribute, named_parties

MAX_CLASS_SCAN = 50  # one table page: a class question costs what one page of `attest table` costs
MAX_CLASS_EVIDENCE = 50


@dataclass(frozen=True, slots=True)
class ClassQuestion:
    type: str  # the subject class, e.g. "agreement"
    attribute: str | None  # a known attribute key, or None when the question names none
    jurisdiction: str | None  # canonical jurisdiction the value must be
    period: dict[str, str] | None  # {"start", "end"} ISO dates the value must fall in
    shape: str
    # Why the question cannot be a class question as asked: it names parties ("Which agreements
    # with Zeta Corp ..."), which a table over the whole class would silently drop.
    failures: tuple[str, ...] = ()

    def subject_class(self) -> SubjectClass:
        label = cues().attributes[self.attribute].label if self.attribute else None
        return SubjectClass(
            understood=self.attribute is not None, kind="class_attribute", subject_type=self.type,
            attribute=self.attribute, attribute_label=label, period=self.period,
            jurisdiction=self.jurisdiction, pattern=self.shape, failures=list(self.failures),
        )


@lru_cache(maxsize=1)
def _shapes() -> dict[str, Any]:
    raw = load("open_questions.json")
    nouns = {noun: cls for cls, words in raw["class_nouns"].items() for noun in words}
    return {
        "nouns": nouns,
        "class": [(s["id"], re.compile(s["regex"], re.IGNORECASE)) for s in raw["class"]],
    }


def _jurisdiction_in(text: str) -> str | None:
    """The longest run of capitalised words the jurisdiction lexicon knows ("State of New York",
    "Florida"); lower-case words are never places."""
    known = lexicons().jurisdictions
    for m in re.finditer(r"[A-Z][\w.'-]*(?:\s+(?:of\s+)?[A-Z][\w.'-]*){0,4}", text):
        words = name_words(m.group(0))
        for n in range(len(words), 0, -1):
            for start in range(0, len(words) - n + 1):
                key = " ".join(words[start : start + n])
                if key in known:
                    return known[key]
    return None


def _period_in(text: str) -> dict[str, str] | None:
    for pattern in question_patterns()["_period"]:
        m = pattern.search(text)
        if m:
            start = m.group("year")
            end = m.groupdict().get("year_end") or start
            return {"start": f"{start}-01-01", "end": f"{end}-12-31"}
    m = re.search(r"\b((?:19|20)\d{2})\b", text)
    if m:
        return {"start": f"{m.group(1)}-01-01", "end": f"{m.group(1)}-12-31"}
    return None


def parse_class_question(question: str) -> ClassQuestion | None:
    """A class-level question, or None. The class noun must be the question's subject ("Which
    agreements ...", "List the contracts ..."); a question naming one agreement is not one."""
    text = " ".join(question.split()).rstrip(" ?.!")
    shapes = _shapes()
    for shape_id, pattern in shapes["class"]:
        m = pattern.match(text)
        if not m:
            continue
        cls = shapes["nouns"].get(m.group("class").casefold())
        if cls is None:
            continue
        rest = m.group("rest")
        attribute = detect_attribute(rest)
        if attribute is not None and cues().attributes[attribute].subject != "agreement":
            attribute = None
        jurisdiction = _jurisdiction_in(rest)
        period = _period_in(rest)
        named = named_parties(rest)
        failures = list(named.failures)
        if named.pieces:
            failures.append(
                "the question names parties (" + ", ".join(repr(p) for p in named.pieces) + "), which a "
                f"table over every {cls} cannot bind: ask about the agreement by its title and parties"
            )
        return ClassQuestion(cls, attribute, jurisdiction, period, shape_id, tuple(failures))
    return None


def _matches(cq: ClassQuestion, cell: table.Cell) -> bool:
    if not cell.sufficient:
        return False
    value = (cell.claim_value or {}).get("value")
    if cq.jurisdiction:
        return value == cq.jurisdiction
    if cq.period:
        # A date value must fall in the period; a duration says nothing about a year.
        return isinstance(value, str) and bool(re.fullmatch(r"\d{4}-\d{2}-\d{2}", value)) and (
            cq.period["start"] <= value <= cq.period["end"]
        )
    return True


@dataclass(slots=True)
class ClassAnswer:
    sc: SubjectClass
    rows: list[dict[str, Any]]
    evidence: list[EvidenceItem]
    claims: list[Claim]
    sufficient: bool
    risks: list[str]
    actions: list[str]
    candidates: list[dict[str, Any]]


def answer_class_question(
    cq: ClassQuestion,
    principal: Principal,
    tracker: Tracker,
    *,
    store: Store,
    embedder: Embedder,
    settings: Settings,
    retrieved_at: str,
) -> ClassAnswer:
    """Walk the machine's states for a class-level question. ``tracker`` is at
    SUBJECT_CLASS_IDENTIFIED; it ends at SUBJECT_NOT_FOUND (no member visible, or no attribute
    named) or CONCLUDED."""
    sc = cq.subject_class()
    if cq.failures:
        # Fail closed: parties named in a class question are never dropped into a whole-class table.
        reason = "; ".join(cq.failures)
        tracker.advance(State.CANDIDATE_SUBJECT_DISCOVERED, "0 candidate(s): none")
        tracker.advance(State.SUBJECT_NOT_FOUND, reason)
        actions = [f"The question's subject could not be read, so no subject was looked up: {reason}."]
        return ClassAnswer(sc, [], [], [], False, [RiskSignal.SUBJECT_NOT_FOUND], actions, [])
    with store.snapshot():
        members = table.class_members(store, principal, cq.type)
        scanned = members[:MAX_CLASS_SCAN]
        tracker.advance(
            State.CANDIDATE_SUBJECT_DISCOVERED,
            f"class {cq.type}: {len(members)} visible member(s), {len(scanned)} examined",
        )
        candidates = [
            {"subject_id": s.subject_id, "name": s.name,
             "class_attributes": {"type": s.type, "gate_match": "class member", "documents": list(table.member_candidate(s).doc_ids)},
             "parent_entity_binding": None, "source_location": None}
            for s in scanned
        ]
        if not scanned or cq.attribute is None:
            reason = "no subject of the class is visible" if not scanned else "the question names no attribute to tabulate"
            tracker.advance(State.SUBJECT_NOT_FOUND, reason)
            actions = [
                "Name what to compare, e.g. 'Which agreements are governed by Delaware law?'; known attributes: "
                + ", ".join(table.agreement_attributes()) + "."
            ] if scanned else [f"No {cq.type} is visible to you: ingest the agreements or ask for access."]
            risks = [RiskSignal.SUBJECT_NOT_FOUND] + ([] if cq.attribute else [RiskSignal.QUESTION_NOT_UNDERSTOOD])
            return ClassAnswer(sc, [], [], [], False, sorted(risks), actions, [])
        cells = [
            (s, table.compute_cell(s, cq.attribute, principal, store=store, embedder=embedder, settings=settings))
            for s in scanned
        ]
    tracker.advance(State.EVIDENCE_RETRIEVAL, f"{len(cells)} hybrid search(es), one per member document")
    tracker.advance(State.EVIDENCE_EXTRACTION, "sentence units per member document")
    matching = [(s, c) for s, c in cells if _matches(cq, c)]
    tracker.advance(
        State.EVIDENCE_VERIFIED,
        f"{sum(c.sufficient for _, c in cells)} member(s) state {sc.attribute_label}; {len(matching)} match the question",
    )
    evidence: list[EvidenceItem] = []
    claims: list[Claim] = []
    rows = []
    for subject, cell in cells:
        row = {"subject_id": subject.subject_id, "name": subject.name, "cell": cell.to_dict(), "matches": _matches(cq, cell)}
        rows.append(row)
    for subject, cell in matching:
        if len(evidence) >= MAX_CLASS_EVIDENCE:
            break
        item = cell.items[0].model_copy(update={"id": f"E{len(evidence) + 1}", "retrieved_at": retrieved_at})
        evidence.append(item)
        claims.append(Claim(
            id=f"C{len(claims) + 1}", subject_id=subject.subject_id, attribute=cq.attribute,
            statement=f"{sc.attribute_label} of {subject.name}: {cell.value}",
            value=cell.claim_value, evidence_ids=[item.id],
        ))
    risks: set[str] = set()
    actions: list[str] = []
    if len(members) > len(scanned):
        risks.add(RiskSignal.CLASS_SCAN_TRUNCATED)
        actions.append(
            f"Only the first {len(scanned)} of {len(members)} agreements were examined; use `attest table` or "
            "GET /v1/table to page through all of them."
        )
    if len(matching) > MAX_CLASS_EVIDENCE:
        risks.add(RiskSignal.EVIDENCE_TRUNCATED)
    not_stated = [s.name for s, c in cells if not c.sufficient]
    if not_stated:
        actions.append(
            f"{len(not_stated)} agreement(s) do not state {sc.attribute_label} in a passage relevant enough to cite "
            "(rows marked 'not stated'); review them by hand."
        )
    sufficient = bool(claims)
    if not sufficient:
        risks.add(RiskSignal.INSUFFICIENT_EVIDENCE)
    return ClassAnswer(sc, rows, evidence, claims, sufficient, sorted(risks), actions, candidates)
