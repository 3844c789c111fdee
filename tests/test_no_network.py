"""Nothing is downloaded at run time: an ingest and a query run in a fresh interpreter in which
any connection to a non-loopback address raises. The child reports every attempt."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

CHILD = textwrap.dedent(
    """
    import ipaddress, json, socket, sys

    attempts = []

    def _is_loopback(host):
        if host in ("localhost", "", None):
            return True
        try:
            return ipaddress.ip_address(host).is_loopback
        except ValueError:
            return False

    def _guard(host):
        if not _is_loopback(host):
            attempts.append(str(host))
            raise OSError(f"network disabled in this test: {host}")

    real_connect = socket.socket.connect
    real_getaddrinfo = socket.getaddrinfo

    def connect(self, address):
        if isinstance(address, tuple):
            _guard(address[0])
        return real_connect(self, address)

    def getaddrinfo(host, *args, **kwargs):
        _guard(host if isinstance(host, str) else (host.decode() if host else host))
        return real_getaddrinfo(host, *args, **kwargs)

    socket.socket.connect = connect
    socket.getaddrinfo = getaddrinfo

    from pathlib import Path
    from ingest.embedder import MiniLMEmbedder
    from ingest.pipeline import Ingestor
    from ingest.settings import Settings
    from ingest.store.port import Principal, SearchFilters
    from ingest.store.sqlite import SqliteStore
    from service.retrieval import hybrid_search

    data_dir, *sources = sys.argv[1:]
    store = SqliteStore(Path(data_dir) / "attest.sqlite3")
    embedder = MiniLMEmbedder()
    ingestor = Ingestor(store, embedder, Settings(data_dir=Path(data_dir)))
    statuses = [ingestor.ingest_path(Path(s)).status for s in sources]
    hits = hybrid_search(store, embedder, "governing law", SearchFilters(principal=Principal.local_operator()))
    report = None
    try:
        from service.evidence.machine import run_evidence_query
        from service.evidence.models import EvidenceRequest
        report = run_evidence_query(
            EvidenceRequest(question="What law governs the agreement?"),
            Principal.local_operator(), store=store, embedder=embedder, settings=Settings(data_dir=Path(data_dir)),
        ).state
    except ImportError:
        pass
    print(json.dumps({"attempts": attempts, "statuses": statuses, "hits": len(hits), "report": str(report)}))
    """
)


def test_ingest_and_query_make_no_network_connection(tmp_path):
    samples = sorted((REPO / "samples" / "cuad").iterdir())
    sources = [str(p) for p in samples if p.suffix.lower() == ".txt"][:2]
    pdf = next(p for p in samples if p.suffix.lower() == ".pdf")
    sources.append(str(pdf))
    env = {
        k: v for k, v in os.environ.items()
        if k not in {"DO_NOT_TRACK", "SCARF_NO_ANALYTICS", "HF_HUB_OFFLINE", "UNSTRUCTURED_DISABLE_NOTICE"}
    }
    env["PYTHONPATH"] = str(REPO)
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(tmp_path), *sources],
        capture_output=True, text=True, cwd=REPO, env=env, timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["attempts"] == []
    assert result["statuses"] == ["indexed", "indexed", "indexed"]
    assert result["hits"] > 0
