"""``attest mcp --principal NAME [--groups a,b]``: the MCP server over stdio.

For a local agent runtime that starts Attest as a subprocess. The agent reads exactly what the
named principal (and its groups) may read, and every call is audited under that name.
"""

from __future__ import annotations

import argparse
import re
import sys


def _names(raw: str | None) -> list[str]:
    return [n.strip() for n in (raw or "").split(",") if n.strip()]


def cmd_mcp(args: argparse.Namespace) -> int:
    from ingest.settings import get_settings
    from ingest.store.port import Principal
    from service.api.schemas import ACL_ENTRY_PATTERN
    from service.mcp import serve_stdio

    groups = _names(args.groups)
    for name in [args.principal, *groups]:
        if name == "*" or not re.fullmatch(ACL_ENTRY_PATTERN, name):
            sys.stderr.write(
                f"error: {name!r} is not a principal or group name "
                "(letters, digits, . _ @ : + -; at most 200 characters)\n"
            )
            return 2
    principal = Principal(name=args.principal, groups=tuple(sorted(set(groups))))
    serve_stdio(principal, get_settings())
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("mcp", help="serve the MCP tools over stdio as one principal")
    p.add_argument("--principal", required=True, help="the principal every call runs as")
    p.add_argument("--groups", help="comma-separated groups of that principal")
    p.set_defaults(func=cmd_mcp)
