"""The LRU of query embeddings (ingest/embedder.py): real MiniLM model, no mocks."""

from __future__ import annotations

import numpy as np

from ingest.embedder import MiniLMEmbedder, QueryVectorCache


def test_repeated_question_is_served_from_the_cache(embedder) -> None:
    model = MiniLMEmbedder(cache_size=4)
    question = "What is the governing law of the Distributor Agreement?"
    first = model.embed([question])
    again = model.embed([question])
    assert (model._cache.hits, model._cache.misses) == (1, 1)
    assert np.array_equal(first, again)
    assert np.allclose(again, embedder.embed([question]), atol=1e-6)  # the model's own vector
    again[0, 0] = 42.0  # callers get a copy: the cached vector cannot be changed through it
    assert model.embed([question])[0, 0] == first[0, 0]


def test_batches_are_not_cached_and_the_cache_is_bounded() -> None:
    cache = QueryVectorCache(2)
    for text in ("a", "b", "c"):
        cache.put(text, np.ones(3, dtype=np.float32))
    assert len(cache) == 2 and cache.get("a") is None and cache.get("c") is not None
    cache.get("b")  # b is now the most recent: d evicts c
    cache.put("d", np.zeros(3, dtype=np.float32))
    assert cache.get("c") is None and cache.get("b") is not None
    assert cache.get("x" * (QueryVectorCache.MAX_TEXT + 1)) is None
    off = QueryVectorCache(0)
    off.put("a", np.ones(3, dtype=np.float32))
    assert off.get("a") is None and len(off) == 0
    model = MiniLMEmbedder(cache_size=8)
    model.embed(["one clause", "another clause"])
    assert len(model._cache) == 0
