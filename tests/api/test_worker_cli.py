"""`attest worker` on the embedded store (issue 14 item 4): the API queues with its workers off
(`ATTEST_INGEST_IN_API=false`), uploads wait in `ATTEST_UPLOADS_DIR`, and a separate worker
process ingests them. Real SQLite, real models, a real subprocess; nothing mocked."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from tests.api.conftest import ALICE, ALICE_TEXT, REPO, upload, wait_for
from tests.helpers import stop_processes


def test_worker_threads_outside_their_bound_are_refused(capsys):
    from service.cli import main

    assert main(["worker", "--threads", "33"]) == 2
    assert capsys.readouterr().err == "error: --threads: 33 is outside 1..32\n"
    assert main(["worker", "--threads", "0"]) == 2  # 0 is not "the default"
    assert "--threads: 0 is outside 1..32" in capsys.readouterr().err


def test_api_without_workers_queues_and_attest_worker_ingests(tmp_path, app_factory):
    uploads = tmp_path / "shared-uploads"
    client = app_factory(ingest_in_api=False, uploads_dir=uploads)
    assert client.app.state.ctx.worker is None
    accepted = upload(client, ALICE, ALICE_TEXT, "msa.txt", acl="alice")
    assert accepted.status_code == 202, accepted.text
    job_id = accepted.json()["job_id"]
    time.sleep(1.5)  # nobody in the API takes it
    body = client.get(f"/v1/documents/{accepted.json()['doc_id']}", headers=ALICE).json()
    assert [(j["job_id"], j["state"]) for j in body["jobs"]] == [(job_id, "queued")]
    assert (uploads / f"job-{job_id}").is_file()
    assert not (tmp_path / "uploads").exists()

    env = {k: v for k, v in os.environ.items() if not k.startswith("ATTEST_")}
    env.update({"ATTEST_DATA_DIR": str(tmp_path), "ATTEST_UPLOADS_DIR": str(uploads),
                "ATTEST_LOG_LEVEL": "INFO", "PYTHONPATH": str(REPO)})
    log_path = tmp_path / "worker.log"
    with open(log_path, "wb") as log_file:
        worker = subprocess.Popen([sys.executable, "-m", "service.cli", "worker", "--threads", "1"],
                                  cwd=REPO, env=env, stdout=log_file, stderr=subprocess.STDOUT)
        try:
            body = wait_for(client, ALICE, accepted.json()["doc_id"], timeout=180)
            assert body["status"] == "indexed", log_path.read_text()[-2000:]
            assert body["jobs"][0]["state"] == "done"
            assert not (uploads / f"job-{job_id}").exists()
            worker.send_signal(signal.SIGTERM)
            assert worker.wait(timeout=40) == 0
            assert "worker_stopped" in log_path.read_text()
        finally:
            if worker.poll() is None:
                worker.kill()
                worker.wait()


def _start_worker(tmp_path, uploads, name: str):
    env = {k: v for k, v in os.environ.items() if not k.startswith("ATTEST_")}
    env.update({"ATTEST_DATA_DIR": str(tmp_path), "ATTEST_UPLOADS_DIR": str(uploads),
                "ATTEST_LOG_LEVEL": "INFO", "PYTHONPATH": str(REPO)})
    log_path = tmp_path / f"{name}.log"
    proc = subprocess.Popen([sys.executable, "-m", "service.cli", "worker", "--threads", "1"],
                            cwd=REPO, env=env, stdout=open(log_path, "wb"), stderr=subprocess.STDOUT)
    return proc, log_path


@pytest.mark.slow
def test_a_killed_workers_job_is_finished_by_a_running_peer_without_a_restart(tmp_path, app_factory):
    # Two real `attest worker` processes on one SQLite queue, both up before the upload; the
    # one running the job is SIGKILLed and the other, never restarted, finishes it once.
    uploads = tmp_path / "shared-uploads"
    client = app_factory(ingest_in_api=False, uploads_dir=uploads)
    jobs = client.app.state.ctx.jobs
    workers = [_start_worker(tmp_path, uploads, f"worker-{n}") for n in (1, 2)]
    try:
        owners: dict[str, subprocess.Popen] = {}
        deadline = time.monotonic() + 240
        while len(owners) < 2 and time.monotonic() < deadline:
            for proc, log_path in workers:
                for line in log_path.read_text(errors="replace").splitlines():
                    if '"worker_started"' in line:  # JSON log lines
                        owners[json.loads(line)["owner"]] = proc
            time.sleep(0.2)
        assert len(owners) == 2, [p.read_text()[-1500:] for _, p in workers]
        text = "\n\n".join(
            f"{i}. The Supplier shall deliver lot {i} of the Orbitrex compressor to the Distributor "
            f"within {i + 3} days of each purchase order, at the price in Schedule {i}."
            for i in range(1, 400)
        )
        accepted = upload(client, ALICE, text, "big.txt", acl="alice", doc_id="big-doc")
        assert accepted.status_code == 202, accepted.text
        job_id = accepted.json()["job_id"]
        while (job := jobs.get(job_id)).state != "running":
            assert time.monotonic() < deadline, "no worker claimed the job"
            time.sleep(0.05)
        owner = jobs._db().execute("SELECT owner FROM jobs WHERE job_id=?", (job_id,)).fetchone()[0]
        victim = owners.pop(owner)
        (survivor_owner, survivor), = owners.items()
        victim.send_signal(signal.SIGKILL)
        victim.wait(timeout=10)
        body = wait_for(client, ALICE, "big-doc", timeout=240)
        logs = "\n".join(p.read_text(errors="replace")[-1500:] for _, p in workers)
        assert body["status"] == "indexed", logs
        final = jobs.get(job_id)
        row = jobs._db().execute("SELECT owner FROM jobs WHERE job_id=?", (job_id,)).fetchone()
        assert (final.state, final.attempts, row[0]) == ("done", 2, survivor_owner), logs
        assert survivor.poll() is None  # finished by the running peer, not by a restart
        chunks = client.app.state.ctx.store.revision_chunks(body["doc_id"], body["current_revision"])
        assert len(chunks) == final.result["n_chunks"] > 1
        assert len({c.chunk_id for c in chunks}) == len(chunks)
        assert not (uploads / f"job-{job_id}").exists()
    finally:
        stop_processes([proc for proc, _ in workers])
