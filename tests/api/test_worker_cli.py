"""`attest worker` on the embedded store (issue 14 item 4): the API queues with its workers off
(`ATTEST_INGEST_IN_API=false`), uploads wait in `ATTEST_UPLOADS_DIR`, and a separate worker
process ingests them. Real SQLite, real models, a real subprocess; nothing mocked."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from tests.api.conftest import ALICE, ALICE_TEXT, REPO, upload, wait_for


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
