"""``attest audit verify`` and ``attest audit revalidate``: the append-only audit log.

``verify`` checks the hash chain (tamper evidence). Every audit entry carries ``prev_hash`` and
``hash`` (sha256 over the previous hash and the entry's canonical JSON;
``ingest/store/common.py``). It walks the whole log in append order and reports the first entry
whose link does not hold, or, when intact, the head (the last hash): keep it elsewhere, since
whoever can rewrite the whole log can rebuild a consistent chain. Exit 0: intact; 1: broken.

``revalidate`` re-resolves every citation recorded in the log against the stored revision text.
Exit 0: clean; 3: mismatches; 2: it could not do its work (one line on stderr).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from typing import Annotated, Any

import typer

from ingest.settings import get_settings
from service.cli.output import json_text
from service.sweeps import EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS

PAGE = 1000

app = typer.Typer(help="The append-only audit log: hash chain and citations.", no_args_is_help=True)


def _entries(store: Any) -> Iterator[dict[str, Any]]:
    from ingest.store.port import AuditQuery

    offset = 0
    while True:
        page = store.list_audit(AuditQuery(limit=PAGE, offset=offset))
        yield from page
        if len(page) < PAGE:
            return
        offset += PAGE


@app.command("verify")
def verify(
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as one JSON line.")] = False,
) -> int:
    """Check the audit log's hash chain (exit 0 intact, 1 broken)."""
    from ingest.store import open_store
    from ingest.store.common import verify_audit_chain

    store = open_store(get_settings())
    try:
        report = verify_audit_chain(_entries(store))
    finally:
        store.close()
    if as_json:
        sys.stdout.write(json.dumps(report, sort_keys=True) + "\n")
    elif report["ok"]:
        sys.stdout.write(
            f"audit chain intact: {report['checked']} entries checked"
            + (f", {report['unchained']} older entries without a hash" if report["unchained"] else "")
            + f"; head {report['head']}\n"
        )
    else:
        sys.stdout.write(f"audit chain BROKEN at seq {report['broken_at']}: {report['reason']}\n")
    return 0 if report["ok"] else 1


@app.command("revalidate")
def revalidate(
    since: Annotated[
        str | None, typer.Option("--since", help="Only entries at or after this ISO 8601 UTC time.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
) -> int:
    """Re-resolve every citation in the audit log (exit 0 clean, 3 mismatches, 2 error)."""
    from ingest.store import open_store
    from service.sweeps.revalidate import revalidate_audit

    settings = get_settings()
    try:
        store = open_store(settings)
        try:
            result = revalidate_audit(store, since=since)
        finally:
            store.close()
    except Exception as exc:  # noqa: BLE001 - a CronJob needs "error" and one line, not a traceback
        sys.stderr.write(f"error: audit revalidation failed: {type(exc).__name__}: {exc}\n")
        return EXIT_ERROR
    if as_json:
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
