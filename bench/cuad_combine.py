"""Combine several ``bench/cuad_eval.py --out`` reports into issue 10's figures.

    PYTHONPATH=. python bench/cuad_combine.py T.json T2.json

The closing notes report issue 10 on 60 tune contracts measured as two runs (``--docs 30`` and
``--offset 30 --docs 30``, one store each). A rate over both runs is not the mean of the two
rates: this pools the question rows of every report per question set and summarises them with
the measured checkout's own ``cuad_eval.summarise`` (``--checkout``), so the figures use the same definitions as a single
run. Only aggregates are printed (no contract names), so it is safe on the ``report`` split.

Figures per set (``template``: the 15 phrasebook categories; ``phrasings``: analyst wording for
41 categories): hit on answerable questions, abstention on unanswerable ones, the worst category
with at least 3 answerable questions, purity (cited units of another document), and
``sufficient`` on answerable questions. CUAD v1: The Atticus Project, CC BY 4.0.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Callable

REPO = Path(__file__).resolve().parents[1]


def pooled_rows(reports: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """Per question set: the rows of every report together."""
    rows: dict[str, list[dict[str, Any]]] = {}
    for report in reports:
        for qset, set_rows in report["rows"].items():
            rows.setdefault(qset, []).extend(set_rows)
    return dict(sorted(rows.items()))


def _ratio(a: int, b: int) -> str:
    return f"{a / b:.2f} ({a}/{b})" if b else "-"


def figures(rows: list[dict[str, Any]], summarise: Callable[[list[dict[str, Any]]], dict[str, Any]]) -> dict[str, Any]:
    """Each rate with the counts behind it (a rate alone cannot be pooled again or checked)."""
    summary = summarise(rows)
    passed = [r for r in rows if r["gate_passed"]]
    answerable = [r for r in passed if not r["impossible"]]
    unanswerable = [r for r in passed if r["impossible"]]
    worst = summary["worst_category"]
    worst_text = "-"
    if worst:
        cat = [r for r in answerable if r["category"] == worst["category"]]
        worst_text = f"{_ratio(sum(r['hit'] for r in cat), len(cat))} {worst['category']}"
    return {
        "questions": len(rows), "gate_passed": len(passed),
        "hit": _ratio(sum(r["hit"] for r in answerable), len(answerable)),
        "abstention": _ratio(sum(not r["sufficient"] for r in unanswerable), len(unanswerable)),
        "worst": worst_text,
        "impure": sum(r["impure"] for r in passed),
        "sufficient": _ratio(sum(r["sufficient"] for r in answerable), len(answerable)),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("reports", nargs="+", type=Path)
    parser.add_argument("--checkout", type=Path, default=REPO,
                        help="the checkout whose bench/cuad_eval.py wrote the reports (its summarise is used)")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(args.checkout.resolve() / "bench"))
    from cuad_eval import summarise
    reports = [json.loads(p.read_text(encoding="utf-8")) for p in args.reports]
    contracts = sum(r["contracts"] for r in reports)
    sets = {qset: figures(rows, summarise) for qset, rows in pooled_rows(reports).items()}
    out = {"contracts": contracts, "splits": sorted({r["split"] for r in reports}), "sets": sets,
           "query_ms_p50": [r.get("query_ms_p50") for r in reports], "query_ms_p95": [r.get("query_ms_p95") for r in reports]}
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
