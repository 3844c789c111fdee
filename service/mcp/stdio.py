"""``attest mcp``: the MCP server over stdio for a local agent, as one named principal.

The principal comes from the command line and is an ordinary one (never admin, never the
unrestricted local operator), so a local agent sees exactly what that principal's API key would.
Each call gets a fresh request id. stdout carries only the protocol; logs go to stderr.
"""

from __future__ import annotations

import uuid
from typing import Any

import anyio

from ingest.embedder import Embedder
from ingest.settings import Settings
from ingest.store.port import Principal, Store
from service.mcp.caller import Caller
from service.mcp.server import build_server


class LocalServices:
    """The configured store and the embedding model, opened once for the process."""

    def __init__(self, settings: Settings, store: Store, embedder: Embedder) -> None:
        self.settings = settings
        self._store = store
        self._embedder = embedder

    def store(self) -> Store:
        return self._store

    def embedder(self) -> Embedder:
        return self._embedder

    def jobs(self) -> Any | None:
        return None  # the CLI ingests synchronously; there is no job queue to report


def serve_stdio(principal: Principal, settings: Settings) -> None:
    """Serve until the client closes stdin."""
    from ingest.embedder import default_embedder
    from ingest.store import open_store

    store = open_store(settings)
    try:
        services = LocalServices(settings, store, default_embedder())

        def caller(_request: Any) -> Caller:
            return Caller(principal=principal, request_id=uuid.uuid4().hex, transport="stdio")

        server = build_server(services, caller)
        anyio.run(server.run_stdio_async)
    finally:
        store.close()
