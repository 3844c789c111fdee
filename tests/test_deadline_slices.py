"""A request's deadline stops an embedding batch and the embedded store's kNN product between
bounded slices (issue 14 hardening): past the deadline the work raises ``DeadlineExceeded`` with
the one deadline message (the API's 503) instead of running every batch / scoring every row.
Real embedding model, real SQLite store and its scoring threads; nothing mocked."""

from __future__ import annotations

import time

import numpy as np
import pytest

from ingest.deadline import DeadlineExceeded, clear_deadline, deadline_message, set_deadline
from ingest.store import sqlite as sqlite_module

TEXTS = [f"The Supplier shall deliver batch {i} of the goods within {i} days of the order." for i in range(128)]


@pytest.fixture
def deadline():
    tokens = []

    def start(seconds: float) -> None:
        tokens.append(set_deadline(seconds))

    yield start
    for token in reversed(tokens):
        clear_deadline(token)


def test_an_embedding_call_past_its_deadline_embeds_nothing_more(embedder, deadline):
    deadline(0.0)
    time.sleep(0.01)
    started = time.monotonic()
    with pytest.raises(DeadlineExceeded) as raised:
        embedder.embed(TEXTS)  # 4 batches: today all of them ran and the call returned
    assert raised.value.message == deadline_message(0.0)
    assert time.monotonic() - started < 0.5


def test_outside_a_request_embedding_has_no_deadline(embedder):
    assert embedder.embed(TEXTS[:40]).shape == (40, 384)


def test_the_knn_product_is_sliced_bitwise_and_stops_between_slices(tmp_path, deadline):
    store = sqlite_module.SqliteStore(tmp_path / "attest.sqlite3")
    try:
        rng = np.random.default_rng(7)
        rows = 3 * sqlite_module.KNN_SLICE_ROWS + 5000  # 4 slices, each in two parts
        matrix = rng.standard_normal((rows, 16), dtype=np.float32)
        query = rng.standard_normal(16, dtype=np.float32)
        whole = matrix @ query
        parts = store._score_parts(matrix, query)
        assert len(parts) == 7  # 3 full slices split in two, and the small last one
        assert np.array_equal(store._gather(parts), whole)  # bitwise the undivided product

        deadline(0.0)
        time.sleep(0.01)
        parts = store._score_parts(matrix, query)
        with pytest.raises(DeadlineExceeded) as raised:
            store._gather(parts)
        assert raised.value.message == deadline_message(0.0)
        assert parts[0].done() and not parts[0].cancelled()  # the first part is waited for
        for part in parts[1:]:  # the rest were cancelled or had already been started
            part.cancelled() or part.result()
    finally:
        store.close()
