"""Several API processes on one data dir: one ingest worker among them (service/api/ingest_lock.py).

Two apps in one test stand in for two uvicorn worker processes: flock locks belong to open file
descriptions, so two apps of one process contend for the lock exactly as two processes do."""

from __future__ import annotations

from pathlib import Path

from service.api.ingest_lock import IngestLock
from tests.api.conftest import ingest


def test_ingest_lock_is_exclusive_and_released(tmp_path: Path) -> None:
    first, second = IngestLock(tmp_path), IngestLock(tmp_path)
    assert first.acquire() is True
    assert second.acquire() is False
    assert first.path.read_text().strip().isdigit()  # the holder's pid, for operators
    first.release()
    assert second.acquire() is True
    second.release()


def test_one_of_several_api_processes_ingests_and_any_takes_uploads(app_factory, tmp_path: Path) -> None:
    from tests.api.conftest import KEYS

    headers = {"Authorization": f"Bearer {next(iter(KEYS))}"}
    ingesting = app_factory(tmp_path, api_workers=2)
    serving = app_factory(tmp_path, api_workers=2)
    health = [c.app.state.ctx.worker is not None for c in (ingesting, serving)]
    assert health == [True, False]
    # The upload lands on the process without a worker; the other one ingests it.
    accepted = ingest(serving, headers, "The governing law is the law of Delaware.\n")
    body = ingesting.get(f"/v1/documents/{accepted['doc_id']}", headers=headers).json()
    assert body["status"] == "indexed"


def test_single_process_does_not_take_the_lock(app_factory, tmp_path: Path) -> None:
    app_factory(tmp_path)
    assert IngestLock(tmp_path).acquire() is True
