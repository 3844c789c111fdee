"""``attest sweep run FILE`` and ``attest audit revalidate``.

Exit codes (both commands): 0 clean; 3 findings (a sweep finding, or a citation in the audit log
that no longer resolves); 2 the command could not do its work (invalid definition, unreadable
file, store unreachable, any error), with one line on stderr. Anything else is a crash.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ingest.settings import get_settings
from service.cli_output import json_text
from service.sweeps import EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS
from service.cli_audit import audit_subcommands


def write_reports(report: dict[str, Any], directory: Path, formats: list[str]) -> list[Path]:
    from service.sweeps.html import render_html

    directory.mkdir(parents=True, exist_ok=True)
    stem = f"{report['sweep']}-{report['run_id']}"
    written: list[Path] = []
    if "json" in formats:
        path = directory / f"{stem}.json"
        path.write_text(json_text(report), encoding="utf-8")
        written.append(path)
    if "html" in formats:
        path = directory / f"{stem}.html"
        path.write_text(render_html(report), encoding="utf-8")
        written.append(path)
    return written


def _summary_text(report: dict[str, Any], written: list[Path]) -> str:
    s = report["summary"]
    lines = [
        f"sweep {report['sweep']} run {report['run_id']}: {report['status']} "
        f"({s['queries']} queries, {s['findings']} finding(s))",
        "baseline: " + (report["baseline"]["run_id"] if report["baseline"] else "none (this run is the baseline)")
        + (" -> this run is the new baseline" if report["is_baseline"] and report["baseline"] else ""),
        "coverage: " + ("no claims" if s["coverage"] is None else f"{s['coverage']:.3f}"),
    ]
    lines += [f"  {kind}: {n}" for kind, n in s["counts"].items() if n]
    lines += [f"report: {p}" for p in written]
    return "\n".join(lines) + "\n"


def cmd_sweep_run(args: argparse.Namespace) -> int:
    from ingest.embedder import default_embedder
    from ingest.store import open_store
    from service.sweeps.definition import SweepDefinitionError, load_definition
    from service.sweeps.runner import run_sweep
    from service.sweeps.runstore import open_run_store

    try:
        loaded = load_definition(args.file)
    except SweepDefinitionError as exc:
        sys.stderr.write(f"error: {exc}\n")
        return EXIT_ERROR
    settings = get_settings()
    try:
        store = open_store(settings)
        try:
            runs = open_run_store(store)
            outcome = run_sweep(
                loaded, store=store, runs=runs, embedder=default_embedder(), settings=settings,
                set_baseline=args.set_baseline,
            )
            runs.close()
        finally:
            store.close()
        target = loaded.definition.reports
        directory = Path(args.report_dir) if args.report_dir else (Path(target.dir) if target.dir else None)
        written = write_reports(outcome.report, directory, target.formats) if directory else []
    except Exception as exc:  # noqa: BLE001 - the CronJob needs "error", not a traceback
        sys.stderr.write(f"error: sweep {loaded.definition.name} failed: {type(exc).__name__}: {exc}\n")
        return EXIT_ERROR
    sys.stdout.write(json_text(outcome.report) if args.json else _summary_text(outcome.report, written))
    return outcome.exit_code


def cmd_audit_revalidate(args: argparse.Namespace) -> int:
    from ingest.store import open_store
    from service.sweeps.revalidate import revalidate_audit

    settings = get_settings()
    try:
        store = open_store(settings)
        try:
            result = revalidate_audit(store, since=args.since)
        finally:
            store.close()
    except Exception as exc:  # noqa: BLE001
        sys.stderr.write(f"error: audit revalidation failed: {type(exc).__name__}: {exc}\n")
        return EXIT_ERROR
    if args.json:
        sys.stdout.write(json_text(result))
    else:
        sys.stdout.write(
            f"{result['entries']} audit entr(y/ies) with citations, {result['citations']} citation(s) "
            f"re-resolved, {len(result['mismatches'])} mismatch(es)\n"
        )
        for m in result["mismatches"]:
            sys.stdout.write(
                f"  {m['status']}: {m['doc_id']}@{m['revision'][:12]} chars {m['char_start']}-{m['char_end']}"
                f" (audit seq {m['seq']}, request {m['request_id']}, {m['action']})\n"
            )
    return EXIT_FINDINGS if result["mismatches"] else EXIT_CLEAN


def register(sub: argparse._SubParsersAction) -> None:
    sweep = sub.add_parser("sweep", help="compliance sweeps (exit 0 clean, 3 findings, 2 error)")
    sweep_sub = sweep.add_subparsers(dest="sweep_command", required=True)
    p = sweep_sub.add_parser("run", help="run a sweep definition, compare with its baseline, store the run")
    p.add_argument("file", help="the sweep definition (YAML)")
    p.add_argument("--set-baseline", action="store_true", help="this run becomes the sweep's baseline")
    p.add_argument("--report-dir", help="write the JSON and HTML reports here (default: the definition's reports.dir)")
    p.add_argument("--json", action="store_true", help="print the JSON report")
    p.set_defaults(func=cmd_sweep_run)

    p = audit_subcommands(sub).add_parser(
        "revalidate", help="re-resolve every citation in the audit log (exit 0 clean, 3 mismatches, 2 error)"
    )
    p.add_argument("--since", help="only entries at or after this ISO 8601 UTC time")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_audit_revalidate)
