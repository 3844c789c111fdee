"""``attest mcp --principal NAME [--groups a,b]``: the MCP server over stdio.

For a local agent runtime that starts Attest as a subprocess. The agent reads exactly what the
named principal (and its groups) may read, and every call is audited under that name.
"""

from __future__ import annotations

import re
import sys
from typing import Annotated

import typer


def _names(raw: str | None) -> list[str]:
    return [n.strip() for n in (raw or "").split(",") if n.strip()]


def mcp(
    principal: Annotated[str, typer.Option("--principal", help="The principal every call runs as.")],
    groups: Annotated[
        str | None, typer.Option("--groups", help="Comma-separated groups of that principal.")
    ] = None,
) -> int:
    """Serve the MCP tools over stdio as one principal."""
    from ingest.settings import get_settings
    from ingest.store.port import Principal
    from service.api.schemas import ACL_ENTRY_PATTERN
    from service.mcp import serve_stdio

    group_names = _names(groups)
    for name in [principal, *group_names]:
        if name == "*" or not re.fullmatch(ACL_ENTRY_PATTERN, name):
            sys.stderr.write(
                f"error: {name!r} is not a principal or group name "
                "(letters, digits, . _ @ : + -; at most 200 characters)\n"
            )
            return 2
    serve_stdio(Principal(name=principal, groups=tuple(sorted(set(group_names)))), get_settings())
    return 0
