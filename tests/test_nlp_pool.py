"""Annotation in pool processes (ATTEST_INGEST_NLP_PROCESSES, ingest/nlp_pool.py): the same
annotations as in-process, the job's budget enforced inside the child, and a dead child fails
one document and leaves a working pool. Real spaCy, real MiniLM, real SQLite; nothing mocked."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from ingest import nlp_pool
from ingest.pipeline import Ingestor
from ingest.settings import Settings
from ingest.store.port import Principal
from ingest.store.sqlite import SqliteStore

SAMPLE = (Path(__file__).resolve().parents[1] / "samples" / "cuad"
          / "EcoScienceSolutionsInc_20180406_8-K_EX-10.1_11135398_EX-10.1_Sponsorship Agreement.txt")


@pytest.fixture(scope="module", autouse=True)
def _pool_shut_down_after():
    yield
    nlp_pool.shutdown_pool()


def _annotations(store: SqliteStore, doc_id: str, revision: str):
    chunks = store.revision_chunks(doc_id, revision)
    return [(c.chunk_id, c.entity_ids, c.relation_keys, c.entities, c.sentences) for c in chunks]


def test_pool_annotation_equals_in_process_annotation(tmp_path, embedder):
    data = SAMPLE.read_bytes()
    results = {}
    for processes in (0, 1):
        store = SqliteStore(tmp_path / f"p{processes}" / "attest.sqlite3")
        settings = Settings(data_dir=tmp_path, ingest_nlp_processes=processes)
        result = Ingestor(store, embedder, settings).ingest_bytes(
            data, filename=SAMPLE.name, doc_id="sponsorship", acl=["*"])
        assert result.status == "indexed", result
        subjects = sorted((s.subject_id, s.type, s.name) for s in store.find_subjects(
            Principal.local_operator(), limit=1000))
        results[processes] = (_annotations(store, "sponsorship", result.revision), subjects)
        store.close()
    assert results[0] == results[1]
    assert any(ids for _, ids, _, _, _ in results[1][0]) and results[1][1]  # annotation ran


def test_the_budget_is_enforced_inside_the_child(tmp_path, embedder):
    store = SqliteStore(tmp_path / "attest.sqlite3")
    settings = Settings(data_dir=tmp_path, ingest_nlp_processes=1)
    with pytest.raises(nlp_pool.AnnotationBudgetExceeded):
        nlp_pool.annotate_in_pool(1, "The Supplier shall deliver.", [(0, 27)], doc_id="d",
                                  revision="r", deadline=time.time() - 1)
    result = Ingestor(store, embedder, settings).ingest_bytes(
        SAMPLE.read_bytes(), filename=SAMPLE.name, doc_id="late", acl=["*"], budget_seconds=1e-9)
    assert result.status == "failed" and result.error is not None
    assert result.error.startswith("time budget of 1e-09 s exceeded during ")
    store.close()


def test_a_dead_pool_process_fails_one_call_and_the_pool_is_rebuilt():
    nlp_pool.warm_pool(1)
    pool = nlp_pool._pool
    assert pool is not None
    for pid in list(pool._processes):  # the pool's own children
        os.kill(pid, signal.SIGKILL)
    time.sleep(0.5)
    with pytest.raises(nlp_pool.AnnotationProcessDied, match="the annotation process died"):
        nlp_pool.annotate_in_pool(1, "The Supplier shall deliver.", [(0, 27)], doc_id="d",
                                  revision="r", deadline=None)
    again = nlp_pool.annotate_in_pool(1, "Acme Corp. shall deliver.", [(0, 25)], doc_id="d",
                                      revision="r", deadline=None)
    assert len(again.chunks) == 1
    assert nlp_pool._pool is not pool


def test_the_process_count_is_bounded():
    with pytest.raises(ValueError, match="processes must be between 1 and 32, not 33"):
        nlp_pool.annotate_in_pool(33, "x", [(0, 1)], doc_id="d", revision="r", deadline=None)
    with pytest.raises(Exception, match="less than or equal to 32"):
        Settings(ingest_nlp_processes=33)
