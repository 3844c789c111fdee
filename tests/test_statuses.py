"""The status vocabulary (``ingest/statuses.py``, plus the evidence machine's ``State``) covers
every status value Attest stores or returns, and the code uses the enums, not bare strings.

* the values are pinned: they are the wire format (JSON, SQLite rows, Elasticsearch documents);
* SQL text cannot use an enum member, so every status literal inside SQL is checked against the
  enum of its column;
* no Python code compares or assigns a bare status string (an ``ast`` scan);
* ``tests/api/test_statuses_stored.py``: what a real upload leaves stored and returned.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

from ingest.statuses import (
    CallOutcome,
    CitationStatus,
    Confidence,
    DocStatus,
    HealthStatus,
    IngestOutcome,
    JobState,
    RevisionStatus,
    RuleOutcome,
    SweepStatus,
)
from service.evidence.states import State

ROOT = Path(__file__).resolve().parents[1]


def test_values_are_the_wire_values() -> None:
    assert [s.value for s in DocStatus] == ["received", "extracting", "indexing", "indexed", "failed"]
    assert [s.value for s in RevisionStatus] == ["written", "current", "superseded"]
    assert [s.value for s in IngestOutcome] == ["indexed", "unchanged", "failed", "cancelled"]
    assert [s.value for s in JobState] == ["queued", "running", "done", "failed", "cancelled"]
    assert [s.value for s in Confidence] == ["high", "medium", "low"]
    assert [s.value for s in CitationStatus] == [
        "valid", "excerpt_mismatch", "revision_missing", "document_deleted", "not_visible"
    ]
    assert [s.value for s in RuleOutcome] == ["flagged", "passed", "not_evaluable", "error"]
    assert [s.value for s in SweepStatus] == ["findings", "clean"]
    assert [s.value for s in CallOutcome] == ["ok", "error"]
    assert [s.value for s in HealthStatus] == ["ok", "ready", "not_ready"]
    assert [s.value for s in State] == [
        "INIT", "SUBJECT_CLASS_IDENTIFIED", "CANDIDATE_SUBJECT_DISCOVERED", "SUBJECT_NOT_FOUND",
        "EVIDENCE_RETRIEVAL", "EVIDENCE_EXTRACTION", "EVIDENCE_VERIFIED", "CONCLUDED",
    ]
    # A member is its string: JSON and SQL see the plain value, stored values compare equal.
    assert json.dumps({"s": DocStatus.INDEXED, "c": Confidence.HIGH}) == '{"s": "indexed", "c": "high"}'
    assert f"{JobState.QUEUED}" == "queued" and State("CONCLUDED") is State.CONCLUDED


def _sources() -> list[tuple[str, str]]:
    found = []
    for top in ("ingest", "service"):
        for path in sorted((ROOT / top).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            found.append((rel, path.read_text(encoding="utf-8")))
    return found


# status / state / stage column literals in SQL: "state='queued'", "state IN ('queued','running')"
_SQL_LITERAL = re.compile(r"\b(status|state|stage)\s*(?:=|IN\s*\()\s*('[a-z_]+'(?:\s*,\s*'[a-z_]+')*)", re.I)
_SQL_THEN = re.compile(r"\bTHEN\s+'([a-z_]+)'\s+ELSE\s+'([a-z_]+)'", re.I)
_COLUMN_VALUES = {
    "state": {s.value for s in JobState},
    "status": {s.value for s in DocStatus} | {s.value for s in RevisionStatus},
    "stage": {s.value for s in DocStatus},
}


def sql_status_literals(source: str) -> list[tuple[str, str]]:
    out = []
    for match in _SQL_LITERAL.finditer(source):
        out += [(match.group(1).lower(), v) for v in re.findall(r"'([a-z_]+)'", match.group(2))]
    for match in _SQL_THEN.finditer(source):
        out += [("status", match.group(1)), ("status", match.group(2))]
    return out


def _string_constants(source: str) -> str:
    """Every string literal of the module, adjacent literals joined (as Python joins them)."""
    return "\n".join(
        node.value for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    )


def test_sql_status_literals_are_enum_values() -> None:
    seen, wrong = set(), []
    for rel, source in _sources():
        for column, value in sql_status_literals(_string_constants(source)):
            seen.add(value)
            if value not in _COLUMN_VALUES[column]:
                wrong.append(f"{rel}: {column}={value!r}")
    assert wrong == []
    # The scan sees the queue's and the store's SQL, so it cannot pass vacuously.
    assert {"queued", "running", "failed", "indexed", "current", "superseded", "written"} <= seen


def test_sql_scan_flags_an_unknown_value() -> None:
    assert sql_status_literals("UPDATE jobs SET state='finished' WHERE state IN ('queued','running')") == [
        ("state", "finished"), ("state", "queued"), ("state", "running")
    ]


_STATUS_VALUES = {
    s.value for enum in (DocStatus, RevisionStatus, IngestOutcome, JobState, Confidence,
                         CitationStatus, RuleOutcome, SweepStatus, CallOutcome, HealthStatus)
    for s in enum
} - {"error"}  # "error" is also a key and a message word everywhere; RuleOutcome/CallOutcome use it
_STATUS_NAMES = {"status", "state", "stage", "outcome", "confidence"}


def _names(node: ast.AST) -> str | None:
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        return str(node.slice.value)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get":
        if node.args and isinstance(node.args[0], ast.Constant):
            return str(node.args[0].value)
    return None


def _literal(node: ast.AST | None) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in _STATUS_VALUES:
        return node.value
    return None


def bare_status_literals(source: str) -> list[str]:
    """Comparisons, assignments, keyword arguments and dict entries that put a bare status
    string next to a status-like name (``x.status == "failed"``, ``state="queued"``)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        pairs: list[tuple[ast.AST | None, ast.AST | None]] = []
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            pairs += [(a, b) for a in sides for b in sides if a is not b]
            pairs += [(a, e) for a in sides for b in sides if isinstance(b, (ast.Tuple, ast.Set, ast.List)) for e in b.elts]
        elif isinstance(node, ast.Assign):
            pairs += [(t, node.value) for t in node.targets]
        elif isinstance(node, ast.keyword) and node.arg:
            pairs.append((ast.Name(id=node.arg), node.value))
        elif isinstance(node, ast.Dict):
            pairs += [(ast.Name(id=str(k.value)), v) for k, v in zip(node.keys, node.values)
                      if isinstance(k, ast.Constant)]
        for name_node, value in pairs:
            values = [value.body, value.orelse] if isinstance(value, ast.IfExp) else [value]
            for v in values:
                literal = _literal(v)
                if literal and name_node is not None and _names(name_node) in _STATUS_NAMES:
                    found.append(f"line {v.lineno}: {_names(name_node)} ~ {literal!r}")  # type: ignore[union-attr]
    return sorted(set(found))


def test_no_bare_status_literals_in_the_code() -> None:
    problems = {rel: bad for rel, source in _sources() if (bad := bare_status_literals(source))}
    assert problems == {}


def test_bare_literal_scan_catches_each_form() -> None:
    source = (
        'if record.status == "failed": pass\n'
        'state = {"state": "queued"}\n'
        'Health(status="ok")\n'
        'confidence = "high" if strong else "medium"\n'
        'ok = row["state"] in ("queued", "running")\n'
        'fine = DocStatus.FAILED == record.status\n'
    )
    assert bare_status_literals(source) == [
        "line 1: status ~ 'failed'", "line 2: state ~ 'queued'", "line 3: status ~ 'ok'",
        "line 4: confidence ~ 'high'", "line 4: confidence ~ 'medium'",
        "line 5: state ~ 'queued'", "line 5: state ~ 'running'",
    ]
