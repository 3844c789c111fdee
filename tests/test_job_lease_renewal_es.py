"""The Elasticsearch queue's ``still_holds`` reads the job every time but renews its lease (a
write) only once ``RENEW_FRACTION`` of the lease has passed since the holder's last write, and
still reports a lost job at once. Real test node (ATTEST_ELASTICSEARCH_URL), real leases; the
"peer" is a second queue on the same index. Nothing mocked."""

from __future__ import annotations

import time
import uuid
from pathlib import Path

import pytest

from tests.conftest import _ES_URL_AT_START, require_es



@pytest.fixture
def queues(tmp_path: Path):
    from service.api.jobs_elastic import ElasticJobQueue

    url = _ES_URL_AT_START or require_es()
    prefix = f"attest-test-{uuid.uuid4().hex[:10]}"
    old = ElasticJobQueue(url, tmp_path / "uploads", prefix=prefix, lease_seconds=1.5)
    new = ElasticJobQueue(url, tmp_path / "uploads", prefix=prefix, lease_seconds=1.5)
    yield old, new
    old.drop()
    old.shutdown()
    new.shutdown()


def _claimed(queue, name: str = "d"):
    upload = queue.uploads / f"staged-{uuid.uuid4().hex}"
    upload.parent.mkdir(parents=True, exist_ok=True)
    upload.write_bytes(b"x")
    queue.add(doc_id=name, revision="a" * 64, filename=f"{name}.txt", principal="alice",
              request_id=f"r-{name}", acl=["alice"], upload=upload)
    job = queue.claim()
    assert job is not None
    return job


def _version(queue, job_id: str) -> tuple[int, int]:
    source, seq_no, _term = queue._get_raw(job_id)
    return seq_no, source["lease_expires_ms"]


def test_still_holds_writes_no_renewal_within_the_first_third_of_the_lease(queues):
    old, _ = queues
    job = _claimed(old)
    before = _version(old, job.job_id)
    assert [old.still_holds(job.job_id) for _ in range(5)] == [True] * 5
    assert _version(old, job.job_id) == before  # five checks, no write (each wrote before)


def test_still_holds_renews_once_a_third_of_the_lease_has_passed(queues):
    from service.api.jobs_elastic import RENEW_FRACTION

    old, _ = queues
    job = _claimed(old)
    seq_no, expires = _version(old, job.job_id)
    time.sleep(RENEW_FRACTION * old.lease_seconds + 0.05)
    assert old.still_holds(job.job_id) is True
    renewed_seq, renewed_expires = _version(old, job.job_id)
    assert renewed_seq == seq_no + 1 and renewed_expires > expires  # one write, a later expiry
    assert old.still_holds(job.job_id) is True
    assert _version(old, job.job_id) == (renewed_seq, renewed_expires)  # not again at once


def test_still_holds_reports_a_job_written_by_another_process_as_lost_at_once(queues):
    old, new = queues
    job = _claimed(old)
    # A peer writes the job (what a takeover or recovery does) before any renewal is due.
    source, seq_no, term = new._get_raw(job.job_id)
    new._write(dict(source, lease_owner=new.owner), seq_no, term)
    assert old.still_holds(job.job_id) is False
    assert old.set_stage(job.job_id, "indexing") is False  # dropped: nothing more written
    assert new._get_raw(job.job_id)[1] == seq_no + 1


def test_still_holds_after_a_real_takeover_is_false(queues):
    old, new = queues
    job = _claimed(old)
    assert old.still_holds(job.job_id) is True
    time.sleep(old.lease_seconds + 0.3)  # the holder paused: its lease expired
    taken = new.claim()
    assert taken is not None and taken.job_id == job.job_id and taken.attempts == 2
    assert old.still_holds(job.job_id) is False
    assert new.still_holds(job.job_id) is True
