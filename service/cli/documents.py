"""``attest status [DOC_ID]`` and ``attest delete DOC_ID``: the documents in the store."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from ingest.settings import get_settings
from service.cli.output import print_json


def document_status(
    doc_id: Annotated[
        str | None,
        typer.Argument(metavar="DOC_ID", help="The document to show (default: every document).", show_default=False),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of one line per document.")] = False,
) -> int:
    """Show document status: status, stage, error, current revision, revisions."""
    from ingest.errors import NotFoundError
    from ingest.store import open_store
    from ingest.store.port import Principal

    store = open_store(get_settings())
    if doc_id:
        record = store.get_document(doc_id)
        if record is None:
            raise NotFoundError(f"document not found: {doc_id}")
        records = [record]
    else:
        records, _ = store.list_documents(Principal.local_operator(), limit=100000)
    rows = [
        {
            "doc_id": r.doc_id,
            "status": r.status,
            "stage": r.stage,
            "error": r.error,
            "current_revision": r.current_revision,
            "revisions": [rev.revision for rev in r.revisions],
        }
        for r in records
    ]
    if as_json:
        print_json(rows[0] if doc_id else {"documents": rows})
        return 0
    for row in rows:
        error = f" — {row['error']}" if row["error"] else ""
        current = (row["current_revision"] or "-")[:12]
        sys.stdout.write(
            f"{row['doc_id']}: {row['status']} (stage {row['stage']}, current {current}, "
            f"{len(row['revisions'])} revision(s)){error}\n"
        )
    return 0


def delete(
    doc_id: Annotated[str, typer.Argument(metavar="DOC_ID", help="The document to remove.", show_default=False)],
) -> int:
    """Remove a document from every search path."""
    from ingest.errors import NotFoundError
    from ingest.store import open_store

    store = open_store(get_settings())
    if not store.delete_document(doc_id):
        raise NotFoundError(f"document not found: {doc_id}")
    sys.stdout.write(f"{doc_id}: deleted\n")
    return 0
