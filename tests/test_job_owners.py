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
import threading
import time
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


def _claimed_by_a_peer_then_killed(data: Path) -> tuple[str, str]:
    """A peer process claims the next job and is SIGKILLed holding it; returns (job, owner)."""
    peer = subprocess.Popen([sys.executable, "-c", CLAIMER, str(data), str(REPO)],
                            stdout=subprocess.PIPE, text=True, cwd=REPO)
    try:
        claimed, owner = peer.stdout.readline().split()  # type: ignore[union-attr]
    finally:
        os.kill(peer.pid, signal.SIGKILL)
        peer.wait(30)
    return claimed, owner


def test_a_live_workers_periodic_pass_requeues_a_dead_peers_job_once_and_no_live_ones(tmp_path):
    data = tmp_path / "data"
    live, other = JobStore(data), JobStore(data)  # two live workers, started before the death
    mine = _queue(live, tmp_path, "mine")
    assert live.claim().job_id == mine  # this worker's own running job
    dead = _queue(live, tmp_path, "dead")
    lost = _queue(live, tmp_path, "lost")
    claimed, owner = _claimed_by_a_peer_then_killed(data)
    assert claimed == dead
    live.job_upload_path(live.get(lost)).unlink()  # type: ignore[arg-type]

    # The periodic pass reads running jobs only: the queued job whose bytes are gone is left to
    # the start-up pass (or to the worker that claims it), and nothing live is touched.
    assert live.recover(periodic=True) == {"requeued": 1, "failed": 0, "failed_jobs": []}
    assert other.recover(periodic=True) == {"requeued": 0, "failed": 0, "failed_jobs": []}
    states = {j: (live.get(j).state, live.get(j).attempts) for j in (mine, dead, lost)}  # type: ignore[union-attr]
    assert states == {mine: ("running", 1), dead: ("queued", 1), lost: ("queued", 0)}
    assert not (data / "ingest-owners" / f"{owner}.lock").exists()
    taken = other.claim()
    assert taken is not None and (taken.job_id, taken.attempts) == (dead, 2)


def test_a_dead_peers_job_out_of_attempts_is_failed_while_recovery_holds_it(tmp_path):
    from service.api.jobs import MAX_ATTEMPTS

    data = tmp_path / "data"
    live = JobStore(data)
    job_id = _queue(live, tmp_path, "tired")
    live._db().execute("UPDATE jobs SET attempts=? WHERE job_id=?", (MAX_ATTEMPTS - 1, job_id))
    _claimed_by_a_peer_then_killed(data)
    seen: list[tuple[str, str | None]] = []

    def before_fail(job) -> None:  # the queue as the document is told
        row = live._db().execute("SELECT state, owner FROM jobs WHERE job_id=?", (job_id,)).fetchone()
        seen.append((row["state"], row["owner"]))
        assert JobStore(data).claim() is None  # a peer polling now finds nothing to take

    recovered = live.recover(before_fail=before_fail, periodic=True)
    assert seen == [("running", live.owner)]
    assert [j.job_id for j in recovered["failed_jobs"]] == [job_id]
    assert live.get(job_id).error == f"interrupted {MAX_ATTEMPTS} times; giving up"  # type: ignore[union-attr]


def test_a_running_worker_finishes_a_killed_peers_job_without_a_restart(tmp_path):
    # The worker is the real IngestWorker on a real queue; its pipeline is replaced by a runner
    # that records what it ran (the pipeline is not what is tested here; the slow test in
    # tests/api/test_worker_cli.py runs two real `attest worker` processes).
    from service.api.jobs import IngestWorker

    data = tmp_path / "data"
    queue = JobStore(data, recover_seconds=0.2)
    ran: list[tuple[str, int]] = []
    finished = threading.Event()

    def run(job, data_: bytes, on_stage) -> dict:
        ran.append((job.job_id, job.attempts))
        finished.set()
        return {"status": "indexed", "stage": "indexed", "n_chunks": 1}

    job_id = _queue(queue, tmp_path, "orphan")
    peer = subprocess.Popen([sys.executable, "-c", CLAIMER, str(data), str(REPO)],
                            stdout=subprocess.PIPE, text=True, cwd=REPO)
    worker = IngestWorker(queue, run, threads=1)
    try:
        assert peer.stdout.readline().split()[0] == job_id  # type: ignore[union-attr]
        worker.start()  # the peer is alive: the start-up pass leaves its job alone
        time.sleep(0.6)
        assert ran == [] and queue.get(job_id).state == "running"  # type: ignore[union-attr]
        os.kill(peer.pid, signal.SIGKILL)
        peer.wait(30)
        assert finished.wait(30), queue.get(job_id)  # only a periodic pass can find it
    finally:
        if peer.poll() is None:
            peer.kill()
            peer.wait(30)
        worker.stop()
    final = queue.get(job_id)
    assert final is not None and final.state == "done"
    assert ran == [(job_id, 2)] and final.attempts == 2
