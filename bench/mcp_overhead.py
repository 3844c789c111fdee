"""Overhead of ``ask`` through MCP against ``POST /v1/evidence/query``, measured in one run.

    nice -n 10 .venv/bin/python bench/mcp_overhead.py [--rounds 5]

The text samples in ``samples/cuad`` (CUAD v1, The Atticus Project, CC BY 4.0) are ingested into a
fresh SQLite store; the app runs under uvicorn on 127.0.0.1 (a free port). Each round asks every
question once over plain HTTP and once through the MCP ``ask`` tool (the SDK's own client, one
connected session over streamable HTTP), alternating which goes first. Both paths use the same HTTP
client library (``httpx2``, the one the SDK uses, keep-alive): with ``httpx`` 0.28 on the plain
path every POST cost ~25 ms more on this machine, a client artifact that would flatter MCP. Both run as the same principal against the same server, so the difference is the MCP layer:
JSON-RPC framing, argument and output-schema validation, the quoted-data marking and the extra
audit entry. Reported: p50 and mean per path, their ratio (overall and per final state: the
cheap SUBJECT_NOT_FOUND path shows the fixed per-call cost), and the one-off MCP connect cost.
Timings are wall-clock on whatever else the machine is doing; report ratios, not absolutes.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if sys.path[0] != str(REPO):
    sys.path.insert(0, str(REPO))  # bench/ingest.py must not shadow the ingest package

KEY = "bench-key-0123456789abcdefgh"
QUESTIONS = [
    "What law governs the SPONSORSHIP AGREEMENT between Fruit of Life Productions LLC and Eco "
    "Science Solutions, Inc.?",
    "What is the governing law of the Distributor Agreement?",
    "What is the notice period to terminate the Consulting Agreement?",
    "What is the governing law of the Trademark License Agreement?",
    "Who is the founder of Acme Widgets Inc?",  # SUBJECT_NOT_FOUND: the cheapest path
]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _p50(values: list[float]) -> float:
    return statistics.median(values)


async def _measure(base: str, rounds: int) -> dict[str, object]:
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    headers = {"Authorization": f"Bearer {KEY}"}
    http_ms: list[float] = []
    mcp_ms: list[float] = []
    states: dict[str, set[str]] = {}
    by_state: dict[str, dict[str, list[float]]] = {}  # state -> path -> latencies
    async with httpx2.AsyncClient(headers=headers, timeout=300) as http, httpx2.AsyncClient(
        headers=headers, timeout=300
    ) as http2:
        start = time.perf_counter()
        async with Client(streamable_http_client(f"{base}/mcp", http_client=http2)) as client:
            connect_ms = (time.perf_counter() - start) * 1000
            await client.list_tools()  # the SDK validates results against the listed schemas

            async def over_http(question: str) -> str:
                t0 = time.perf_counter()
                response = await http.post(f"{base}/v1/evidence/query", json={"question": question})
                http_ms.append((time.perf_counter() - t0) * 1000)
                response.raise_for_status()
                return response.json()["state"]

            async def over_mcp(question: str) -> str:
                t0 = time.perf_counter()
                result = await client.call_tool("ask", {"question": question})
                mcp_ms.append((time.perf_counter() - t0) * 1000)
                assert not result.is_error, result.content
                return result.structured_content["state"]

            for question in QUESTIONS:  # warm-up, not timed into the figures
                await over_http(question)
                await over_mcp(question)
            http_ms.clear()
            mcp_ms.clear()
            for n in range(rounds):
                for question in QUESTIONS:
                    order = (over_http, over_mcp) if n % 2 == 0 else (over_mcp, over_http)
                    for call in order:
                        state = await call(question)
                        states.setdefault(question, set()).add(state)
                        path = "http" if call is over_http else "mcp"
                        latest = (http_ms if path == "http" else mcp_ms)[-1]
                        by_state.setdefault(state, {}).setdefault(path, []).append(latest)
    return {"http_ms": http_ms, "mcp_ms": mcp_ms, "connect_ms": connect_ms, "states": states,
            "by_state": by_state}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()

    import uvicorn

    from ingest.embedder import default_embedder
    from ingest.pipeline import Ingestor
    from ingest.settings import Settings
    from ingest.store.sqlite import SqliteStore
    from service.api import create_app
    from service.logs import configure_logging

    configure_logging("WARNING", stream=sys.stderr)
    embedder = default_embedder()
    with tempfile.TemporaryDirectory(prefix="attest-mcp-bench-") as tmp:
        data_dir = Path(tmp)
        settings = Settings(
            data_dir=data_dir,
            api_keys=json.dumps({KEY: {"principal": "bench", "groups": [], "admin": False}}),
            elasticsearch_url=None,  # the ingest below writes the SQLite file; serve that
        )
        store = SqliteStore(data_dir / "attest.sqlite3")
        ingestor = Ingestor(store, embedder, settings)
        for path in sorted((REPO / "samples" / "cuad").glob("*.txt")):
            result = ingestor.ingest_path(path, acl=["bench"])
            print(f"ingested {path.name[:60]}: {result.status}", file=sys.stderr)
        store.close()

        port = _free_port()
        server = uvicorn.Server(
            uvicorn.Config(create_app(settings, embedder=embedder), host="127.0.0.1", port=port,
                           log_config=None, access_log=False)
        )
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        while not server.started:
            time.sleep(0.05)
        try:
            figures = asyncio.run(_measure(f"http://127.0.0.1:{port}", args.rounds))
        finally:
            server.should_exit = True
            thread.join(timeout=30)

    http_ms, mcp_ms = figures["http_ms"], figures["mcp_ms"]
    assert isinstance(http_ms, list) and isinstance(mcp_ms, list)
    report = {
        "questions": len(QUESTIONS),
        "rounds": args.rounds,
        "calls_per_path": len(http_ms),
        "http_p50_ms": round(_p50(http_ms), 2),
        "http_mean_ms": round(statistics.fmean(http_ms), 2),
        "mcp_p50_ms": round(_p50(mcp_ms), 2),
        "mcp_mean_ms": round(statistics.fmean(mcp_ms), 2),
        "ratio_p50_mcp_over_http": round(_p50(mcp_ms) / _p50(http_ms), 3),
        "ratio_mean_mcp_over_http": round(statistics.fmean(mcp_ms) / statistics.fmean(http_ms), 3),
        "ratio_p50_by_state": {
            state: {"http_p50_ms": round(_p50(paths["http"]), 2), "mcp_p50_ms": round(_p50(paths["mcp"]), 2),
                    "ratio": round(_p50(paths["mcp"]) / _p50(paths["http"]), 3)}
            for state, paths in sorted(figures["by_state"].items())  # type: ignore[union-attr]
        },
        "mcp_connect_ms": round(float(figures["connect_ms"]), 2),  # type: ignore[arg-type]
        "states": {q[:60]: sorted(s) for q, s in figures["states"].items()},  # type: ignore[union-attr]
        "data": "samples/cuad text contracts: CUAD v1 (The Atticus Project, CC BY 4.0)",
    }
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
