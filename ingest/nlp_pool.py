"""Annotation in worker processes, so that several ingest workers use several cores.

spaCy holds the GIL for most of its work and does not promise that concurrent calls on one
``Language`` are safe, so inside one process annotation runs one document at a time
(``pipeline._ANNOTATION_LOCK``): two ingest worker threads then overlap only extraction,
embedding (onnxruntime releases the GIL) and writes. With ``ATTEST_INGEST_NLP_PROCESSES=N``
the ingest pipeline sends ``annotate_document`` to a pool of N spawned processes instead, each
with its own copy of the spaCy pipeline, so N documents are annotated at once.

Memory is bounded: N processes, each holding one spaCy pipeline (loaded once, when the process
starts), and at most one document per ingest worker thread in flight (the thread waits for its
result; the text travels by pickle and is bounded by ``ATTEST_MAX_FILE_BYTES`` before it gets
here). The job's time budget is passed as a wall-clock deadline and checked in the child as
spans are consumed, like in-process annotation does. A child that dies (killed, out of memory)
fails that document with a readable reason and the pool is rebuilt for the next one.
"""

from __future__ import annotations

import atexit
import multiprocessing
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Sequence

import structlog

log = structlog.get_logger(__name__)

MAX_PROCESSES = 32  # ATTEST_INGEST_NLP_PROCESSES bound (settings)

_lock = threading.Lock()
_pool: ProcessPoolExecutor | None = None
_pool_shape: tuple[int, int] = (0, 0)  # (processes, BLAS threads per process)


class AnnotationBudgetExceeded(Exception):
    """The job's deadline passed inside a child; carries nothing but the fact (picklable)."""


class AnnotationProcessDied(Exception):
    """A pool process died while it annotated the document."""


def _start_child(threads: int) -> None:
    import ingest.nlp_model  # noqa: F401 - offline, no-telemetry environment before spaCy
    from threadpoolctl import threadpool_limits

    from ingest.annotate import annotation_pipeline

    # The worker's CPU budget (ATTEST_INGEST_WORKER_CORES): numpy's BLAS under spaCy/thinc
    # would otherwise start one thread per core in every pool process.
    threadpool_limits(limits=threads, user_api="blas")
    annotation_pipeline()  # load once per process, before the first document


def _blas_threads_in_child() -> list[int]:
    """The BLAS thread counts a pool process runs with (tests, benchmarks)."""
    from threadpoolctl import threadpool_info

    return sorted(int(info["num_threads"]) for info in threadpool_info() if info["user_api"] == "blas")


class _DeadlineSpans(list):  # type: ignore[type-arg]
    def __init__(self, spans: Sequence[tuple[int, int]], deadline: float | None) -> None:
        super().__init__(spans)
        self.deadline = deadline

    def __iter__(self):  # type: ignore[no-untyped-def]
        for n, span in enumerate(super().__iter__()):
            if n % 16 == 0 and self.deadline is not None and time.time() > self.deadline:
                raise AnnotationBudgetExceeded()
            yield span


def _annotate_child(
    text: str, spans: list[tuple[int, int]], doc_id: str, revision: str, deadline: float | None
) -> Any:
    from ingest.annotate import annotate_document

    return annotate_document(text, _DeadlineSpans(spans, deadline), doc_id=doc_id, revision=revision)


def _get_pool(processes: int, threads: int = 1) -> ProcessPoolExecutor:
    global _pool, _pool_shape
    with _lock:
        if _pool is None or _pool_shape != (processes, threads):
            if _pool is not None:
                _pool.shutdown(wait=False, cancel_futures=True)
            # spawn: a fork of a process with threads (API, onnxruntime) is not safe.
            _pool = ProcessPoolExecutor(
                max_workers=processes,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_child,
                initargs=(threads,),
            )
            _pool_shape = (processes, threads)
            log.info("nlp_pool_started", processes=processes, blas_threads=threads)
        return _pool


def _drop_pool(broken: ProcessPoolExecutor) -> None:
    global _pool
    with _lock:
        if _pool is broken:
            _pool = None
    broken.shutdown(wait=False, cancel_futures=True)


def annotate_in_pool(
    processes: int,
    text: str,
    spans: Sequence[tuple[int, int]],
    *,
    doc_id: str,
    revision: str,
    deadline: float | None,
    threads: int = 1,
) -> Any:
    """``annotate_document(text, spans, ...)`` in one of ``processes`` pool processes, each
    limited to ``threads`` BLAS threads (the worker budget).
    ``deadline`` is a ``time.time()`` value (None = no budget). Raises
    :class:`AnnotationBudgetExceeded` past it and :class:`AnnotationProcessDied` when the child
    died; anything else the child raised is re-raised here."""
    if not 1 <= processes <= MAX_PROCESSES:
        raise ValueError(f"processes must be between 1 and {MAX_PROCESSES}, not {processes}")
    pool = _get_pool(processes, threads)
    try:
        future = pool.submit(_annotate_child, text, list(spans), doc_id, revision, deadline)
        return future.result()
    except BrokenProcessPool as exc:
        _drop_pool(pool)
        log.warning("nlp_pool_process_died", doc_id=doc_id)
        raise AnnotationProcessDied(
            "the annotation process died (out of memory or killed); retry the document"
        ) from exc


def warm_pool(processes: int, threads: int = 1) -> None:
    """Start the pool and wait until every process has loaded spaCy (benchmarks, workers that
    want the load outside the first job)."""
    pool = _get_pool(processes, threads)
    futures = [pool.submit(time.sleep, 0.2) for _ in range(processes * 2)]
    for future in futures:
        future.result()


@atexit.register
def shutdown_pool() -> None:
    global _pool
    with _lock:
        pool, _pool = _pool, None
    if pool is not None:
        pool.shutdown(wait=True, cancel_futures=True)
