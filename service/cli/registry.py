"""``attest entities [NAME]``: look up the subject registry (exact or normalised names only)."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from ingest.settings import get_settings
from service.cli.output import print_json


def entities(
    name: Annotated[
        str | None,
        typer.Argument(metavar="NAME", help="Subject name, exact or normalised (default: any).", show_default=False),
    ] = None,
    type_: Annotated[
        str | None, typer.Option("--type", help="Only subjects of this type (org, person, agreement, ...).")
    ] = None,
    limit: Annotated[int, typer.Option("--limit", help="At most this many subjects.")] = 100,
    as_json: Annotated[bool, typer.Option("--json", help="Print the subjects as JSON.")] = False,
) -> int:
    """Subject registry look-up."""
    from ingest.store import open_store
    from ingest.store.port import Principal
    from service.api.schemas import SubjectView

    store = open_store(get_settings())
    subjects = store.find_subjects(Principal.local_operator(), name=name, type=type_, limit=limit)
    payload = [SubjectView.of(s).model_dump(mode="json") for s in subjects]
    if as_json:
        print_json({"subjects": payload})
        return 0
    if not payload:
        sys.stdout.write("no subjects\n")
    for s in payload:
        aliases = f" (aka {', '.join(s['aliases'])})" if s["aliases"] else ""
        sys.stdout.write(f"{s['subject_id']} [{s['type']}] {s['name']}{aliases}\n")
        for b in s["bindings"]:
            role = f" as {b['role']}" if b["role"] else ""
            sys.stdout.write(
                f"   {b['relation']} {b['object_name']}{role} — {b['doc_id']}"
                f" chars {b['char_start']}-{b['char_end']}\n"
            )
    return 0
