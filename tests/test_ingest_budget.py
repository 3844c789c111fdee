"""An ingest worker's CPU budget (ATTEST_INGEST_WORKER_CORES) and what two workers share.

Real MiniLM sessions, real spaCy in real pool processes, real SQLite files. The only wrappers are
instruments around the real objects (a barrier before the real ``session.run``, a write probe
before the real ``embed``): the real work still runs.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from pathlib import Path

import numpy as np
import pytest

from ingest import nlp_pool
from ingest.chunking import count_tokens_batch_for
from ingest.embedder import MiniLMEmbedder, ingest_embedder
from ingest.pipeline import Ingestor
from ingest.settings import Settings, get_settings
from ingest.store.sqlite import SqliteStore

SAMPLE = (Path(__file__).resolve().parents[1] / "samples" / "cuad"
          / "EcoScienceSolutionsInc_20180406_8-K_EX-10.1_11135398_EX-10.1_Sponsorship Agreement.txt")
TEXTS = ["The Supplier shall deliver the goods.", "This Agreement is governed by Delaware law.",
         "Either party may terminate on notice."]


def _threads() -> int:
    return len(os.listdir("/proc/self/task"))


@pytest.fixture
def fresh_ingest_embedder(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("TOKENIZERS_PARALLELISM", raising=False)  # restored after the test

    def build(cores: str) -> MiniLMEmbedder:
        monkeypatch.setenv("ATTEST_INGEST_WORKER_CORES", cores)
        get_settings.cache_clear()
        ingest_embedder.cache_clear()
        return ingest_embedder()

    yield build
    get_settings.cache_clear()
    ingest_embedder.cache_clear()


def test_ingest_embedder_takes_the_worker_budget_from_the_setting(fresh_ingest_embedder):
    model = fresh_ingest_embedder("2")
    options = model._session.get_session_options()
    assert (model.threads, options.intra_op_num_threads, options.inter_op_num_threads) == (2, 2, 1)
    assert options.get_session_config_entry("session.intra_op.allow_spinning") == "0"
    assert model._cache.size == 0  # ingest batches are never cached
    assert model.batch_tokenize is False  # tokenizing on the calling thread, this model only
    assert "TOKENIZERS_PARALLELISM" not in os.environ  # nothing process-wide
    assert Settings.model_fields["ingest_worker_cores"].default == 1  # one core per worker


def test_a_one_core_worker_embeds_and_tokenizes_on_its_own_thread(fresh_ingest_embedder):
    fresh_ingest_embedder("1").embed(TEXTS)  # onnxruntime's and tokenizers' one-time set-up
    before = _threads()
    ingest_embedder.cache_clear()
    model = fresh_ingest_embedder("1")
    model.embed(TEXTS * 50)
    count_tokens_batch_for(model)(TEXTS * 50)  # chunking's batch token counts
    assert _threads() - before == 0  # every run and every batch ran on the calling thread
    fresh_ingest_embedder("2").embed(TEXTS)
    assert _threads() - before == 1  # the calling thread and one intra-op pool thread


# A fresh process: the tokenizers library's pool, once started by anything in a process, stays.
_FRESH = """
import os, sys
sys.path.insert(0, sys.argv[1])
from ingest.chunking import count_tokens_batch_for
from ingest.embedder import default_embedder, ingest_embedder
texts = ["The Supplier shall deliver the goods.", "Either party may terminate on notice."] * 60
model = ingest_embedder()
before = len(os.listdir("/proc/self/task"))
model.embed(texts)
count_tokens_batch_for(model)(texts)
after_ingest = len(os.listdir("/proc/self/task"))
default_embedder()._tokenizer.encode_batch(texts)  # the query model still tokenizes in parallel
print(after_ingest - before, len(os.listdir("/proc/self/task")) > after_ingest,
      os.environ.get("TOKENIZERS_PARALLELISM"))
"""


def test_the_ingest_model_tokenizes_on_its_thread_and_leaves_the_process_setting_alone(tmp_path):
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "TOKENIZERS_PARALLELISM"}
    env.update(ATTEST_INGEST_WORKER_CORES="1", ATTEST_DATA_DIR=str(tmp_path))
    out = subprocess.run([sys.executable, "-c", _FRESH, str(Path(__file__).resolve().parents[1])],
                         env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["0", "True", "None"]


def test_attest_ingest_runs_on_one_ingest_workers_budget(fresh_ingest_embedder, tmp_path, monkeypatch):
    from threadpoolctl import threadpool_info

    from ingest import embedder as embedder_module
    from service.cli import main

    model = fresh_ingest_embedder("1")
    monkeypatch.setenv("ATTEST_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("ATTEST_ELASTICSEARCH_URL", raising=False)
    get_settings.cache_clear()
    blas: list[int] = []
    real_embed = model.embed

    def embed_and_look(texts):  # the real model; notes the BLAS threads it runs under
        blas.append(max((p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas"),
                        default=1))
        return real_embed(texts)

    monkeypatch.setattr(model, "embed", embed_and_look)
    queried: list[int] = []
    monkeypatch.setattr(embedder_module, "default_embedder", lambda: queried.append(1))
    assert main(["ingest", str(SAMPLE), "--acl", "*", "--doc-id", "eco"]) == 0
    assert queried == []  # the all-core query session is never built for an ingest
    assert blas and set(blas) == {1}


class _RunBarrier:
    """The real session, with a two-party barrier before each ``run``: two ``embed`` calls
    only get past it if both are inside ``run`` at the same time."""

    def __init__(self, session) -> None:  # type: ignore[no-untyped-def]
        self._session = session
        self.barrier = threading.Barrier(2, timeout=30)

    def run(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        self.barrier.wait()
        return self._session.run(*args, **kwargs)


def test_two_workers_run_one_session_at_the_same_time():
    model = MiniLMEmbedder(threads=1, cache_size=0, spin=False)
    expected = {text: model.embed([text, text + " Really."]) for text in TEXTS[:2]}
    model._session = _RunBarrier(model._session)
    got: dict[str, np.ndarray] = {}
    errors: list[BaseException] = []

    def embed(text: str) -> None:
        try:
            got[text] = model.embed([text, text + " Really."])
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    workers = [threading.Thread(target=embed, args=(t,)) for t in TEXTS[:2]]
    for w in workers:
        w.start()
    for w in workers:
        w.join(60)
    assert errors == []  # a lock around run() would leave one thread at the barrier: Broken
    for text in TEXTS[:2]:
        assert np.array_equal(got[text], expected[text])


class _WriteProbe:
    """The real embedder; before each batch it tries a write on its own connection that
    never waits, recording whether the store's write lock was free."""

    def __init__(self, inner: MiniLMEmbedder, path: Path) -> None:
        self.inner = inner
        self.path = path
        self.model_name, self.dimension, self.window = inner.model_name, inner.dimension, inner.window
        self.free: list[bool] = []

    def count_tokens(self, text: str) -> int:
        return self.inner.count_tokens(text)

    def embed(self, texts):  # type: ignore[no-untyped-def]
        probe = sqlite3.connect(self.path, timeout=0, isolation_level=None)
        try:
            probe.execute("BEGIN IMMEDIATE")
            probe.execute("ROLLBACK")
            self.free.append(True)
        except sqlite3.OperationalError as exc:
            assert str(exc) == "database is locked"
            self.free.append(False)
        finally:
            probe.close()
        return self.inner.embed(texts)


def test_no_store_write_lock_is_held_while_a_document_is_embedded(tmp_path, embedder):
    store = SqliteStore(tmp_path / "attest.sqlite3")
    probe = _WriteProbe(embedder, tmp_path / "attest.sqlite3")
    result = Ingestor(store, probe, Settings(data_dir=tmp_path)).ingest_bytes(
        SAMPLE.read_bytes(), filename=SAMPLE.name, doc_id="sponsorship", acl=["*"])
    store.close()
    assert result.status == "indexed"
    assert len(probe.free) >= 2 and all(probe.free)  # chunk vectors and sentence-unit vectors


@pytest.fixture
def _pool_shut_down():
    yield
    nlp_pool.shutdown_pool()


def test_annotation_processes_run_with_the_worker_blas_budget(tmp_path, embedder, _pool_shut_down):
    store = SqliteStore(tmp_path / "attest.sqlite3")
    settings = Settings(data_dir=tmp_path, ingest_nlp_processes=1, ingest_worker_cores=2)
    result = Ingestor(store, embedder, settings).ingest_bytes(
        SAMPLE.read_bytes(), filename=SAMPLE.name, doc_id="sponsorship", acl=["*"])
    store.close()
    assert result.status == "indexed"
    assert nlp_pool._pool_shape == (1, 2)
    assert nlp_pool._pool is not None
    assert nlp_pool._pool.submit(nlp_pool._blas_threads_in_child).result(60) == [2]
    one = nlp_pool._get_pool(1, 1)  # a new budget: a new pool
    assert nlp_pool._pool_shape == (1, 1)
    assert one.submit(nlp_pool._blas_threads_in_child).result(60) == [1]


@pytest.mark.parametrize("cores,accepted", [("0", False), ("1", True), ("64", True), ("65", False)])
def test_the_worker_budget_is_bounded(tmp_path, monkeypatch: pytest.MonkeyPatch, cores, accepted):
    """ATTEST_INGEST_WORKER_CORES drives thread pools, so it has a bound (1..64), checked when the
    settings load, with the setting named in the error."""
    from pydantic import ValidationError

    monkeypatch.setenv("ATTEST_INGEST_WORKER_CORES", cores)
    if accepted:
        assert Settings(data_dir=tmp_path).ingest_worker_cores == int(cores)
    else:
        with pytest.raises(ValidationError, match="ingest_worker_cores"):
            Settings(data_dir=tmp_path)
