"""Log event names follow one style (issue 15): snake_case facts, ``area_event``
(``ingest_failed``, ``request_unhandled_error``), never dotted or f-strings.

The scan reads the source with ``ast``: in every module that imports structlog, a call
``<logger>.<level>(...)`` must have a string literal as its first argument, and that literal
must be snake_case with at least two words.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCANNED = ("ingest", "service", "bench", "scripts")
LEVELS = {"debug", "info", "warning", "warn", "error", "exception", "critical", "fatal", "msg"}
EVENT = re.compile(r"^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$")


def _structlog_modules() -> list[Path]:
    found = []
    for top in SCANNED:
        for path in sorted((ROOT / top).rglob("*.py")):
            source = path.read_text(encoding="utf-8")
            if re.search(r"^\s*(?:import structlog|from structlog\b)", source, re.M):
                found.append(path)
    return found


def log_events(source: str) -> list[tuple[int, str | None]]:
    """(line, event name) of each logger call; the name is None when it is not a literal."""
    events: list[tuple[int, str | None]] = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        if node.func.attr not in LEVELS or not (node.args or node.keywords):
            continue  # e.g. the Elasticsearch client's nodes.info(...) with keywords only
        if not node.args:
            if any(k.arg == "event" for k in node.keywords):
                events.append((node.lineno, None))
            continue
        first = node.args[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            events.append((node.lineno, first.value))
        else:
            events.append((node.lineno, None))
    return events


def nonconforming(source: str) -> list[str]:
    return [
        f"line {line}: {name!r}" if name is not None else f"line {line}: event name is not a literal"
        for line, name in log_events(source)
        if name is None or not EVENT.match(name)
    ]


def test_scan_finds_the_project_events() -> None:
    modules = _structlog_modules()
    assert ROOT / "ingest" / "pipeline.py" in modules
    names = {name for path in modules for _, name in log_events(path.read_text(encoding="utf-8"))}
    # Known events from both halves of the code base are seen, so the scan cannot pass vacuously.
    assert {"ingest_failed", "ingest_indexed", "request_unhandled_error", "sweep_started"} <= names


def test_every_log_event_is_snake_case() -> None:
    problems = {
        str(path.relative_to(ROOT)): bad
        for path in _structlog_modules()
        if (bad := nonconforming(path.read_text(encoding="utf-8")))
    }
    assert problems == {}


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        ('log.info("ingest_failed", doc_id=d)', []),
        ('bound.warning("sweep_failure_not_audited")', []),
        ('log.info("ingest.failed", doc_id=d)', ["line 1: 'ingest.failed'"]),
        ('log.error("RequestFailed")', ["line 1: 'RequestFailed'"]),
        ('log.info("started")', ["line 1: 'started'"]),
        ('log.info(f"ingest {d}")', ["line 1: event name is not a literal"]),
        ("log.info(event=name)", ["line 1: event name is not a literal"]),
        ('es.nodes.info(node_id="_local")', []),
    ],
)
def test_the_check_rejects_other_styles(call: str, expected: list[str]) -> None:
    assert nonconforming(call) == expected
