"""One name, one thing (issue 15): no public top-level class or function name is defined in two
project modules (there were two ``Conflict``, ``agreement_kind``, ``get_settings``,
``TableResult``, ``find_definitions``, ``money_in``, ``query_words``, ``is_instruction_like`` and
``injection_patterns``). A second definition under the same name gets a name that says how it
differs, or the callers import the first."""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def public_definitions(source: str) -> list[str]:
    return [
        node.name for node in ast.parse(source).body
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and not node.name.startswith("_")
    ]


def test_no_public_name_is_defined_twice() -> None:
    where: dict[str, list[str]] = defaultdict(list)
    for top in ("ingest", "service"):
        for path in sorted((ROOT / top).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            for name in public_definitions(path.read_text(encoding="utf-8")):
                where[name].append(rel)
    assert {name: files for name, files in where.items() if len(files) > 1} == {}
    assert len(where) > 300  # the scan read the code base


def test_the_scan_sees_classes_and_functions_only_at_top_level() -> None:
    source = "class A:\n    def b(self): ...\ndef c(): ...\nasync def d(): ...\ndef _e(): ...\nF = 1\n"
    assert public_definitions(source) == ["A", "c", "d"]
