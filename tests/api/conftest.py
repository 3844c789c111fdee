"""API tests: the real app (create_app) over a real SQLite store in a temp dir, the real MiniLM
embedder and the real ingestion pipeline, driven through FastAPI's TestClient."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest
from fastapi.testclient import TestClient

from ingest.settings import Settings

ALICE_KEY = "alice-key-0123456789abcdef"
BOB_KEY = "bob-key-0123456789abcdefgh"
ADMIN_KEY = "admin-key-0123456789abcdef"
KEYS = {
    ALICE_KEY: {"principal": "alice", "groups": ["legal"], "admin": False},
    BOB_KEY: {"principal": "bob", "groups": ["sales"], "admin": False},
    ADMIN_KEY: {"principal": "root", "groups": [], "admin": True},
}
ALICE = {"Authorization": f"Bearer {ALICE_KEY}"}
BOB = {"Authorization": f"Bearer {BOB_KEY}"}
ADMIN = {"Authorization": f"Bearer {ADMIN_KEY}"}

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "samples" / "cuad"

ALICE_TEXT = """MASTER SUPPLY AGREEMENT

This Master Supply Agreement is entered into by Zephyrion Holdings, Inc. (the "Company") and
Quillfeather Logistics LLC (the "Distributor").

1. TERM

The initial term of this Agreement is five (5) years from the Effective Date. The Distributor
shall purchase at least 40,000 units of the Orbitrex compressor each calendar year.

2. GOVERNING LAW

This Agreement is governed by the laws of the State of Delaware.
"""

BOB_TEXT = """CONSULTING AGREEMENT

This Consulting Agreement is made between Marrowgate Capital Partners (the "Client") and
Ilsworth Advisory Ltd (the "Consultant").

1. FEES

The Client shall pay the Consultant a monthly retainer of 12,500 dollars for the Vantorix project.

2. TERMINATION

Either party may terminate this Agreement on ninety (90) days written notice.
"""


def make_settings(data_dir: Path, **overrides: Any) -> Settings:
    # The SQLite store unless a test asks otherwise: module-scoped fixtures run before the autouse
    # fixture that clears an exported ATTEST_ELASTICSEARCH_URL, and must not pick it up.
    values: dict[str, Any] = {"data_dir": data_dir, "api_keys": json.dumps(KEYS), "elasticsearch_url": None}
    values.update(overrides)
    return Settings(**values)


@pytest.fixture
def app_factory(tmp_path: Path, embedder) -> Callable[..., TestClient]:
    """Builds a started app over ``tmp_path`` (a fresh SQLite store each time it is called
    with a new ``data_dir``)."""
    clients: list[TestClient] = []

    def make(data_dir: Path | None = None, **overrides: Any) -> TestClient:
        from service.api import create_app

        settings = make_settings(data_dir or tmp_path, **overrides)
        client = TestClient(create_app(settings, embedder=embedder), raise_server_exceptions=False)
        client.__enter__()
        clients.append(client)
        return client

    yield make
    for client in reversed(clients):
        client.__exit__(None, None, None)


def upload(
    client: TestClient,
    headers: dict[str, str],
    content: bytes | str,
    filename: str = "doc.txt",
    **fields: str,
):
    data = content.encode() if isinstance(content, str) else content
    return client.post(
        "/v1/documents", headers=headers, files={"file": (filename, data)}, data=fields
    )


def wait_for(
    client: TestClient,
    headers: dict[str, str],
    doc_id: str,
    revision: str | None = None,
    timeout: float = 180.0,
) -> dict[str, Any]:
    """Poll the document until the job for ``revision`` (or the latest) is finished."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        response = client.get(f"/v1/documents/{doc_id}", headers=headers)
        if response.status_code == 200:
            body = response.json()
            jobs = [j for j in body["jobs"] if revision is None or j["revision"] == revision]
            if jobs and all(j["state"] in ("done", "failed", "cancelled") for j in jobs):
                return body
        time.sleep(0.1)
    raise AssertionError(f"{doc_id} not finished within {timeout}s")


def ingest(client: TestClient, headers: dict[str, str], content: bytes | str, **kwargs: Any) -> dict[str, Any]:
    filename = kwargs.pop("filename", "doc.txt")
    response = upload(client, headers, content, filename, **kwargs)
    assert response.status_code == 202, response.text
    accepted = response.json()
    body = wait_for(client, headers, accepted["doc_id"], accepted["revision"])
    assert body["status"] == "indexed", body
    assert body["current_revision"] == accepted["revision"]
    return accepted


@pytest.fixture
def client(app_factory) -> TestClient:
    return app_factory()


@pytest.fixture(scope="module")
def two_tenants(tmp_path_factory, embedder) -> Iterator[tuple[TestClient, dict[str, Any]]]:
    """One app with alice's and bob's documents indexed, shared by read-only tests."""
    from service.api import create_app

    settings = make_settings(tmp_path_factory.mktemp("tenants"))
    with TestClient(create_app(settings, embedder=embedder), raise_server_exceptions=False) as c:
        alice = ingest(c, ALICE, ALICE_TEXT, filename="alice-supply.txt", doc_id="alice-supply",
                       collection="contracts")
        bob = ingest(c, BOB, BOB_TEXT, filename="bob-consulting.txt", doc_id="bob-consulting",
                     collection="contracts")
        yield c, {"alice": alice, "bob": bob}
