"""``attest table --type agreement --attribute governing_law,expiration_date [--format json|csv]``:
the class-level review grid from the command line (``service/evidence/table.py``).

The local operator reads as ``Principal.local_operator()``, like ``attest ask``. CSV has one row per
agreement: its id, name, document, then per attribute the value, sufficiency and the first
citation (``doc_id@revision:char_start-char_end``).
"""

from __future__ import annotations

import argparse
import csv
import sys
from typing import Any

from ingest.settings import get_settings
from service.cli_output import print_json


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


def cmd_table(args: argparse.Namespace) -> int:
    from pydantic import ValidationError

    from ingest.embedder import default_embedder
    from ingest.store import open_store
    from ingest.store.port import Principal
    from service.evidence.table import TableRequest, build_table

    attributes = [a.strip() for a in ",".join(args.attribute).split(",") if a.strip()]
    try:
        request = TableRequest(type=args.type, attributes=attributes, page=args.page, page_size=args.page_size)
    except ValidationError as exc:
        sys.stderr.write("error: " + "; ".join(e["msg"] for e in exc.errors()) + "\n")
        return 2
    settings = get_settings()
    store = open_store(settings)
    try:
        result = build_table(
            request, Principal.local_operator(), store=store, embedder=default_embedder(), settings=settings
        ).to_dict()
    finally:
        store.close()
    if args.format == "json":
        print_json(result)
    else:
        write_csv(result, sys.stdout)
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("table", help="class-level review grid: one row per agreement, cited cells")
    p.add_argument("--type", default="agreement", help="subject class (agreement)")
    p.add_argument("--attribute", action="append", required=True,
                   help="attribute keys, comma-separated or repeated (e.g. governing_law,expiration_date)")
    p.add_argument("--format", choices=("json", "csv"), default="csv")
    p.add_argument("--page", type=int, default=1)
    p.add_argument("--page-size", type=int, default=50)
    p.set_defaults(func=cmd_table)
