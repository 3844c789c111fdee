"""``attest table --type agreement --attribute governing_law,expiration_date [--format json|csv]``:
the class-level review grid from the command line (``service/evidence/table.py``).

The local operator reads as ``Principal.local_operator()``, like ``attest ask``. CSV has one row per
agreement: its id, name, document, then per attribute the value, sufficiency and the first
citation (``doc_id@revision:char_start-char_end``). Progress (rows done) on stderr.
"""

from __future__ import annotations

import csv
import sys
from enum import Enum
from typing import Annotated, Any

import typer

from ingest.settings import get_settings
from service.cli.output import print_json
from service.cli.progress import progress_on_stderr, write_summary


class TableFormat(str, Enum):
    csv = "csv"
    json = "json"


def _citation(cell: dict[str, Any]) -> str:
    if not cell["evidence"]:
        return ""
    e = cell["evidence"][0]
    return f"{e['doc_id']}@{e['revision'][:12]}:{e['char_start']}-{e['char_end']}"


def write_csv(result: dict[str, Any], out: Any) -> None:
    writer = csv.writer(out, lineterminator="\n")
    header = ["subject_id", "name", "doc_id", "title"]
    for attribute in result["attributes"]:
        header += [attribute, f"{attribute}_sufficient", f"{attribute}_citation"]
    writer.writerow(header)
    for row in result["rows"]:
        line = [row["subject_id"], row["name"], row["doc_id"], row["title"]]
        for attribute in result["attributes"]:
            cell = row["cells"][attribute]
            line += [cell["value"] or "", str(cell["sufficient"]).lower(), _citation(cell)]
        writer.writerow(line)


def table(
    attribute: Annotated[
        list[str],
        typer.Option(
            "--attribute",
            help="Attribute keys, comma-separated or repeated (e.g. governing_law,expiration_date).",
            show_default=False,
        ),
    ],
    type_: Annotated[str, typer.Option("--type", help="Subject class (agreement).")] = "agreement",
    format_: Annotated[TableFormat, typer.Option("--format", help="Output format.")] = TableFormat.csv,
    page: Annotated[int, typer.Option("--page", help="Page number, from 1.")] = 1,
    page_size: Annotated[int, typer.Option("--page-size", help="Rows per page (at most 100).")] = 50,
) -> int:
    """Class-level review grid: one row per agreement, cited cells."""
    from pydantic import ValidationError

    from ingest.embedder import default_embedder
    from ingest.store import open_store
    from ingest.store.port import Principal
    from service.evidence.table import TableRequest, build_table

    attributes = [a.strip() for a in ",".join(attribute).split(",") if a.strip()]
    try:
        request = TableRequest(type=type_, attributes=attributes, page=page, page_size=page_size)
    except ValidationError as exc:
        sys.stderr.write("error: " + "; ".join(e["msg"] for e in exc.errors()) + "\n")
        return 2
    settings = get_settings()
    store = open_store(settings)
    try:
        with progress_on_stderr("table rows") as tracker:
            result = build_table(
                request, Principal.local_operator(), store=store, embedder=default_embedder(), settings=settings,
                on_row=tracker.step,
            ).to_dict()
    finally:
        store.close()
    if format_ is TableFormat.json:
        print_json(result)
    else:
        write_csv(result, sys.stdout)
    write_summary({"row(s) on this page": len(result["rows"]), "in the class": result["total"]})
    return 0
