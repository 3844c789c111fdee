"""The sweep-run store contract, run against both adapters: SQLite (a real file) and
Elasticsearch (the real test node, a unique index prefix per test)."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Iterator

import pytest

from tests.conftest import _ES_URL_AT_START, ES_URL_ENV


@pytest.fixture(params=["sqlite", "es"])
def runs(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[object]:
    from service.sweeps.runstore import ElasticRunStore, SqliteRunStore

    if request.param == "sqlite":
        instance = SqliteRunStore(tmp_path / "attest.sqlite3")
        yield instance
        instance.close()
        return
    if not _ES_URL_AT_START:
        import os

        if os.environ.get("CI") == "true":
            pytest.fail(f"{ES_URL_ENV} is not set in CI: the Elasticsearch test node must run")
        pytest.skip(f"*** Elasticsearch sweep-run store SKIPPED: {ES_URL_ENV} is not set. ***")
    from elasticsearch import Elasticsearch

    client = Elasticsearch(_ES_URL_AT_START, request_timeout=30)
    instance = ElasticRunStore(client, f"attest-test-{uuid.uuid4().hex[:10]}")
    yield instance
    instance.drop()
    client.close()


def _record(sweep: str, run_id: str, started_at: str, **extra: object) -> dict:
    return {"sweep": sweep, "run_id": run_id, "started_at": started_at, "results": [{"q": run_id, "text": "<b>ü</b>"}], **extra}


def test_save_get_list_and_baseline(runs):
    assert runs.list_runs("s") == ([], 0)
    assert runs.get_run("s", "r1") is None and runs.baseline_run_id("s") is None
    runs.save_run(_record("s", "r1", "2026-01-01T00:00:00.000+00:00"), {"run_id": "r1"})
    runs.save_run(_record("s", "r3", "2026-01-02T00:00:00.000+00:00"), {"run_id": "r3"})
    runs.save_run(_record("s", "r2", "2026-01-02T00:00:00.000+00:00"), {"run_id": "r2"})  # same time: run_id breaks the tie
    runs.save_run(_record("other", "r9", "2026-01-05T00:00:00.000+00:00"), {"run_id": "r9"})
    items, total = runs.list_runs("s")
    assert total == 3 and [i["run_id"] for i in items] == ["r3", "r2", "r1"]
    assert [i["run_id"] for i in runs.list_runs("s", offset=1, limit=1)[0]] == ["r2"]
    assert runs.get_run("s", "r2") == _record("s", "r2", "2026-01-02T00:00:00.000+00:00")
    assert runs.get_run("other", "r2") is None
    runs.set_baseline("s", "r1")
    runs.set_baseline("s", "r2")
    assert runs.baseline_run_id("s") == "r2" and runs.baseline_run_id("other") is None
    # Saving the same run again replaces it (idempotent), never duplicates.
    runs.save_run(_record("s", "r2", "2026-01-02T00:00:00.000+00:00", note="again"), {"run_id": "r2"})
    assert runs.list_runs("s")[1] == 3 and runs.get_run("s", "r2")["note"] == "again"


def test_list_limit_is_bounded(runs):
    for n in range(3):
        runs.save_run(_record("s", f"r{n}", f"2026-01-0{n + 1}T00:00:00.000+00:00"), {"run_id": f"r{n}"})
    assert len(runs.list_runs("s", limit=10_000)[0]) == 3
    assert runs.list_runs("s", limit=0) == ([], 3)
