"""Import layering (issue 15): the import-linter contracts in pyproject.toml, and no import cycle
among the project's modules. A new ``ingest -> service`` import, an API module importing the CLI,
or a new cycle fails here with the modules and line numbers named."""

from __future__ import annotations

from pathlib import Path

import grimp
import pytest
from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("ingest", "service", "mappings")

# Cycles on main when this test was written, in areas other branches were editing. Each is an
# exact strongly connected component: the test fails if one grows, if a new one appears, or if
# one disappears (then delete it here, so it cannot come back).
KNOWN_CYCLES: set[frozenset[str]] = {
    # table cells run the machine's collect(); the machine answers class questions via tables.
    frozenset(
        {"service.evidence.class_questions", "service.evidence.machine", "service.evidence.table"}
    ),
}


def import_cycles(graph: grimp.ImportGraph) -> set[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: set[frozenset[str]] = set()
    counter = 0
    for root in sorted(graph.modules):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, successors = work[-1]
            advanced = False
            for succ in successors:
                if succ not in index:
                    index[succ] = low[succ] = counter
                    counter += 1
                    stack.append(succ)
                    on_stack.add(succ)
                    work.append((succ, iter(sorted(graph.find_modules_directly_imported_by(succ)))))
                    advanced = True
                    break
                if succ in on_stack:
                    low[node] = min(low[node], index[succ])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.add(frozenset(component))
    return found


def _describe(graph: grimp.ImportGraph, cycle: frozenset[str]) -> str:
    lines = []
    for importer in sorted(cycle):
        for imported in sorted(graph.find_modules_directly_imported_by(importer) & cycle):
            details = graph.get_import_details(importer=importer, imported=imported)
            where = ", ".join(str(d["line_number"]) for d in details)
            lines.append(f"  {importer} -> {imported} (line {where})")
    return "\n".join(lines)


def test_import_linter_contracts_are_kept(capsys: pytest.CaptureFixture[str]) -> None:
    code = lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True)
    report = capsys.readouterr().out
    assert "ingest never imports service KEPT" in report
    assert "the API, MCP, evidence and sweeps never import the CLI KEPT" in report
    assert code == 0, report


def test_no_new_import_cycles() -> None:
    graph = grimp.build_graph(*PACKAGES, cache_dir=None)
    cycles = import_cycles(graph)
    new = cycles - KNOWN_CYCLES
    assert not new, "new import cycles:\n" + "\n\n".join(_describe(graph, c) for c in new)
    gone = KNOWN_CYCLES - cycles
    assert not gone, f"cycles fixed, delete them from KNOWN_CYCLES: {sorted(map(sorted, gone))}"


def test_cycle_finder_reports_exact_components() -> None:
    graph = grimp.ImportGraph()
    for importer, imported in [
        ("p.a", "p.b"), ("p.b", "p.c"), ("p.c", "p.a"),  # a three-module cycle
        ("p.c", "p.d"), ("p.d", "p.e"),  # a chain out of it: not a cycle
        ("p.f", "p.g"), ("p.g", "p.f"),  # a second, separate cycle
    ]:
        graph.add_import(importer=importer, imported=imported)
    assert import_cycles(graph) == {
        frozenset({"p.a", "p.b", "p.c"}),
        frozenset({"p.f", "p.g"}),
    }
