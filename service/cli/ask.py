"""``attest ask QUESTION``: run the evidence state machine from the command line.

The local operator asks as ``Principal.local_operator()`` (unrestricted), like ``attest search``.
Human output lists findings with their citations, conflicts, sufficiency and what to do next;
``--json`` prints the full report.
"""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any

import typer

from ingest.settings import get_settings
from service.cli.options import CollectionFilter, DocIdFilter
from service.cli.output import print_json


def _short(text: str, limit: int = 220) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def render(report: Any) -> str:
    """The human view of an :class:`EvidenceReport`."""
    lines: list[str] = []
    lines.append(f"state: {report.state}   sufficient: {str(report.sufficient).lower()}   confidence: {report.confidence}")
    lines.append("path: " + " -> ".join(t.state for t in report.trace))
    if report.candidate_subjects:
        lines.append("subjects: " + ", ".join(f"{c.name} [{c.subject_id}]" for c in report.candidate_subjects))
    if report.claims:
        lines.append("")
        lines.append("findings:")
        for claim in report.claims:
            lines.append(f"  - {claim.statement} [{', '.join(claim.evidence_ids)}]")
    if report.evidence:
        lines.append("")
        lines.append("evidence:")
        for e in report.evidence:
            where = f"{e.doc_id}@{e.revision[:12]} lines {e.line_start}-{e.line_end} chars {e.char_start}-{e.char_end}"
            if e.page is not None:
                where += f" page {e.page}"
            lines.append(f"  [{e.id}] {e.title} — {where} ({e.confidence})")
            lines.append(f"       \"{_short(e.excerpt)}\"")
    if report.conflicts:
        lines.append("")
        lines.append("conflicts (not resolved):")
        for conflict in report.conflicts:
            values = "; ".join(f"{v.value.get('value')} [{', '.join(v.evidence_ids)}]" for v in conflict.values)
            lines.append(f"  - {conflict.attribute} of {conflict.subject_id}: {values}")
    if report.narrative is not None and report.narrative.text:
        lines.append("")
        lines.append("narrative (generated from the evidence only):")
        lines.append("  " + report.narrative.text)
    if report.risk_signals:
        lines.append("")
        lines.append("risk signals: " + ", ".join(report.risk_signals))
    if report.suggested_next_actions:
        lines.append("next actions:")
        for action in report.suggested_next_actions:
            lines.append(f"  - {action}")
    lines.append(f"evidence bundle: {report.evidence_bundle_hash}")
    return "\n".join(lines) + "\n"


def ask(
    question: Annotated[str, typer.Argument(metavar="QUESTION", help="The question, in plain language.", show_default=False)],
    subject: Annotated[
        str | None,
        typer.Option("--subject", help="Structured subject class as JSON (takes precedence over the question)."),
    ] = None,
    doc_id: DocIdFilter = None,
    collection: CollectionFilter = None,
    as_of: Annotated[
        str | None, typer.Option("--as-of", help="ISO date: evidence must not post-date it.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the full report as JSON.")] = False,
) -> int:
    """Answer a question from the documents with cited evidence (exit 3: not sufficient)."""
    from pydantic import ValidationError

    from ingest.embedder import default_embedder
    from ingest.store import open_store
    from ingest.store.port import Principal
    from service.evidence.machine import run_evidence_query
    from service.evidence.models import EvidenceRequest

    payload: dict[str, Any] = {"question": question}
    try:
        if subject:
            payload["subject"] = json.loads(subject)
        if doc_id or collection or as_of:
            payload["scope"] = {
                "doc_ids": doc_id or [],
                "collections": collection or [],
                "as_of": as_of,
            }
        request = EvidenceRequest.model_validate(payload)
    except (json.JSONDecodeError, ValidationError) as exc:
        sys.stderr.write(f"error: invalid request: {exc}\n")
        return 2
    settings = get_settings()
    store = open_store(settings)
    try:
        report = run_evidence_query(
            request, Principal.local_operator(), store=store, embedder=default_embedder(), settings=settings
        )
    finally:
        store.close()
    if as_json:
        print_json(report.model_dump(mode="json"))
    else:
        sys.stdout.write(render(report))
    return 0 if report.sufficient else 3
