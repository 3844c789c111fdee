"""Attest as a tool for agents: an MCP server over the same read paths, ACL and audit as the
HTTP API. ``mount_mcp`` serves it at ``/mcp`` (streamable HTTP, API keys); ``serve_stdio`` runs
it for ``attest mcp``."""

from service.mcp.http import mount_mcp
from service.mcp.server import build_server
from service.mcp.stdio import serve_stdio

__all__ = ["build_server", "mount_mcp", "serve_stdio"]
