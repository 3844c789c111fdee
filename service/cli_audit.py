"""``attest audit verify``: check the audit log's hash chain (tamper evidence).

Every audit entry carries ``prev_hash`` and ``hash`` (sha256 over the previous hash and the
entry's canonical JSON; ``ingest/store/common.py``). ``verify`` walks the whole log in append
order and reports the first entry whose link does not hold, or, when intact, the head (the last
hash): keep it elsewhere, since whoever can rewrite the whole log can rebuild a consistent chain.
Exit 0: intact; 1: broken.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Iterator

PAGE = 1000


def _entries(store: Any) -> Iterator[dict[str, Any]]:
    from ingest.store.port import AuditQuery

    offset = 0
    while True:
        page = store.list_audit(AuditQuery(limit=PAGE, offset=offset))
        yield from page
        if len(page) < PAGE:
            return
        offset += PAGE


def cmd_audit_verify(args: argparse.Namespace) -> int:
    from ingest.settings import get_settings
    from ingest.store import open_store
    from ingest.store.common import verify_audit_chain

    store = open_store(get_settings())
    try:
        report = verify_audit_chain(_entries(store))
    finally:
        store.close()
    if args.json:
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


def audit_subcommands(sub: argparse._SubParsersAction) -> argparse._SubParsersAction:
    """The ``attest audit`` group's subcommands, created once (other modules add theirs here)."""
    parser = sub.choices.get("audit")
    if parser is None:
        parser = sub.add_parser("audit", help="the append-only audit log")
        parser.set_defaults(_audit_sub=parser.add_subparsers(dest="audit_command", required=True))
    return parser.get_default("_audit_sub")


def register(sub: argparse._SubParsersAction) -> None:
    p = audit_subcommands(sub).add_parser("verify", help="check the audit log's hash chain")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_audit_verify)
