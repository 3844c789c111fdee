"""``attest sweep run FILE``: run a compliance sweep definition.

Exit codes: 0 clean; 3 findings; 2 the sweep could not do its work (invalid definition,
unreadable file, store unreachable, any error), with one line on stderr. Anything else is a
crash.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from ingest.settings import get_settings
from service.cli.output import json_text
from service.cli.progress import progress_on_stderr, write_summary
from service.sweeps import EXIT_ERROR

app = typer.Typer(help="Compliance sweeps (exit 0 clean, 3 findings, 2 error).", no_args_is_help=True)


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


@app.command("run")
def run(
    file: Annotated[str, typer.Argument(metavar="FILE", help="The sweep definition (YAML).", show_default=False)],
    set_baseline: Annotated[
        bool, typer.Option("--set-baseline", help="This run becomes the sweep's baseline.")
    ] = False,
    report_dir: Annotated[
        str | None,
        typer.Option("--report-dir", help="Write the JSON and HTML reports here (default: the definition's reports.dir)."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the JSON report.")] = False,
) -> int:
    """Run a sweep definition, compare with its baseline, store the run."""
    from ingest.embedder import default_embedder
    from ingest.store import open_store
    from service.sweeps.definition import SweepDefinitionError, load_definition
    from service.sweeps.runner import run_sweep
    from service.sweeps.runstore import open_run_store

    try:
        loaded = load_definition(file)
    except SweepDefinitionError as exc:
        sys.stderr.write(f"error: {exc}\n")
        return EXIT_ERROR
    settings = get_settings()
    try:
        store = open_store(settings)
        try:
            runs = open_run_store(store)
            queries = len(loaded.definition.queries)
            with progress_on_stderr(f"sweep {loaded.definition.name}", total=queries) as tracker:
                outcome = run_sweep(
                    loaded, store=store, runs=runs, embedder=default_embedder(), settings=settings,
                    set_baseline=set_baseline, on_query=lambda done: tracker.step(done, queries),
                )
            runs.close()
        finally:
            store.close()
        target = loaded.definition.reports
        directory = Path(report_dir) if report_dir else (Path(target.dir) if target.dir else None)
        written = write_reports(outcome.report, directory, target.formats) if directory else []
    except Exception as exc:  # noqa: BLE001 - the CronJob needs "error", not a traceback
        sys.stderr.write(f"error: sweep {loaded.definition.name} failed: {type(exc).__name__}: {exc}\n")
        return EXIT_ERROR
    if as_json:
        sys.stdout.write(json_text(outcome.report))
        # The human summary is stdout's first line otherwise; with --json it goes to stderr.
        write_summary({"queries": outcome.report["summary"]["queries"], "findings": outcome.report["summary"]["findings"]})
    else:
        sys.stdout.write(_summary_text(outcome.report, written))
    return outcome.exit_code
