"""Shared fixtures. Real components only: real SQLite files, the real Elasticsearch test node,
the real spaCy and MiniLM models from installed packages."""

from __future__ import annotations

import os
import uuid
from pathlib import Path
from typing import Iterator

import pytest

import ingest.nlp_model  # noqa: F401 - sets the no-telemetry environment before anything else

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
ES_URL_ENV = "ATTEST_ELASTICSEARCH_URL"


@pytest.fixture(autouse=True)
def _no_ambient_store_config(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests choose their backend explicitly; an exported ES URL must not redirect them."""
    monkeypatch.delenv(ES_URL_ENV, raising=False)
    monkeypatch.delenv("ATTEST_DATA_DIR", raising=False)


def es_url() -> str | None:
    return os.environ.get(ES_URL_ENV)


def require_es() -> str:
    url = es_url()
    if url:
        return url
    if os.environ.get("CI") == "true":
        pytest.fail(f"{ES_URL_ENV} is not set in CI: the Elasticsearch test node must run")
    pytest.skip(
        f"\n*** Elasticsearch tests SKIPPED: {ES_URL_ENV} is not set. "
        "Start the node with `bash deploy/es-test-node/run.sh start` and export the URL. ***"
    )


# Captured at import time, before the autouse fixture removes it from the environment.
_ES_URL_AT_START = es_url()


@pytest.fixture(scope="session")
def shared_eval() -> Path:
    from tests.helpers import shared_eval_dir

    return shared_eval_dir()


@pytest.fixture(scope="session")
def embedder():
    from ingest.embedder import MiniLMEmbedder

    return MiniLMEmbedder()


def _make_store(kind: str, tmp_path: Path):
    if kind == "sqlite":
        from ingest.store.sqlite import SqliteStore

        return SqliteStore(tmp_path / "attest.sqlite3")
    url = _ES_URL_AT_START
    if not url:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{ES_URL_ENV} is not set in CI: the Elasticsearch test node must run")
        pytest.skip(
            f"*** Elasticsearch backend SKIPPED: {ES_URL_ENV} is not set. Start it with "
            "`bash deploy/es-test-node/run.sh start`. ***"
        )
    from ingest.store.elastic import ElasticStore

    store = ElasticStore(url, prefix=f"attest-test-{uuid.uuid4().hex[:10]}")
    return store


@pytest.fixture(params=["sqlite", "es"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[object]:
    instance = _make_store(request.param, tmp_path)
    yield instance
    drop = getattr(instance, "drop_all", None)
    if drop is not None:
        drop()
    instance.close()


@pytest.fixture
def es_store(tmp_path: Path):
    """An Elasticsearch store under its own index prefix, dropped afterwards (skips, or fails
    under CI, without the test node)."""
    store = _make_store("es", tmp_path)
    yield store
    store.drop_all()
    store.close()


@pytest.fixture
def sqlite_store(tmp_path: Path):
    from ingest.store.sqlite import SqliteStore

    instance = SqliteStore(tmp_path / "attest.sqlite3")
    yield instance
    instance.close()


@pytest.fixture(scope="session")
def chromium_browser():
    """One Playwright driver and one headless Chromium for the whole session. Playwright's sync
    API cannot start a second driver while one is running in the same thread, so every browser
    test (the portal's and the sweep report's) shares this one. Callers check first that Chromium
    and Playwright are present (skip loudly, or fail under CI=true)."""
    from playwright.sync_api import sync_playwright

    from tests.helpers import CHROMIUM, CHROMIUM_ARGS

    with sync_playwright() as pw:
        instance = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield instance
        instance.close()
