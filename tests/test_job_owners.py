"""Several ingesting processes on one SQLite job queue (``attest worker`` x N on one data dir):
a starting worker requeues the running jobs of dead processes only, never a live peer's.

Real ``jobs.sqlite3`` files, real upload files and a real second process (killed with SIGKILL);
nothing mocked.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from ingest.pipeline import revision_of
from service.api.jobs import JobStore

REPO = Path(__file__).resolve().parents[1]
TEXT = b"The Supplier shall deliver the goods within thirty (30) days."

CLAIMER = """
import sys, time
sys.path.insert(0, sys.argv[2])
from pathlib import Path
from service.api.jobs import JobStore
jobs = JobStore(Path(sys.argv[1]))
job = jobs.claim()
print(job.job_id, jobs.owner, flush=True)
time.sleep(120)
"""


def _queue(jobs: JobStore, tmp: Path, doc_id: str) -> str:
    staged = tmp / f"staged-{doc_id}"
    staged.write_bytes(TEXT)
    return jobs.add(doc_id=doc_id, revision=revision_of(TEXT), filename=f"{doc_id}.txt",
                    principal="alice", request_id=f"r-{doc_id}", acl=["*"], upload=staged).job_id


def test_a_live_peers_running_job_is_left_alone_and_a_dead_ones_is_requeued(tmp_path):
    data = tmp_path / "data"
    queue = JobStore(data)
    first = _queue(queue, tmp_path, "lease")
    peer = subprocess.Popen([sys.executable, "-c", CLAIMER, str(data), str(REPO)],
                            stdout=subprocess.PIPE, text=True, cwd=REPO)
    try:
        claimed, owner = peer.stdout.readline().split()  # type: ignore[union-attr]
        assert claimed == first
        running = queue.get(first)
        assert running is not None and (running.state, running.attempts) == ("running", 1)

        starting = JobStore(data)  # another worker process starting on the same data dir
        assert starting.recover() == {"requeued": 0, "failed": 0, "failed_jobs": []}
        assert queue.get(first).state == "running"  # type: ignore[union-attr]
        assert (data / "ingest-owners" / f"{owner}.lock").exists()
    finally:
        os.kill(peer.pid, signal.SIGKILL)
        peer.wait(30)

    restarted = JobStore(data)
    assert restarted.recover() == {"requeued": 1, "failed": 0, "failed_jobs": []}
    requeued = queue.get(first)
    assert requeued is not None and (requeued.state, requeued.attempts) == ("queued", 1)
    assert not (data / "ingest-owners" / f"{owner}.lock").exists()  # its owner is gone for good
    again = restarted.claim()
    assert again is not None and again.job_id == first and again.attempts == 2


def test_a_process_never_requeues_its_own_running_job_and_ownerless_jobs_are_interrupted(tmp_path):
    data = tmp_path / "data"
    jobs = JobStore(data)
    mine = _queue(jobs, tmp_path, "mine")
    old = _queue(jobs, tmp_path, "old")
    assert jobs.claim().job_id == mine  # type: ignore[union-attr]
    assert jobs.claim().job_id == old  # type: ignore[union-attr]
    # A job claimed by a version without owners (one ingesting process) carries none.
    jobs._db().execute("UPDATE jobs SET owner=NULL WHERE job_id=?", (old,))
    assert jobs.recover() == {"requeued": 1, "failed": 0, "failed_jobs": []}
    assert [jobs.get(mine).state, jobs.get(old).state] == ["running", "queued"]  # type: ignore[union-attr]
