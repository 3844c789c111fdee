"""The embedding runtime against sentence-transformers' reference vectors (../shared/eval)."""

from __future__ import annotations

import json

import numpy as np
import pytest


def test_matches_reference_embeddings_within_window(embedder, shared_eval):
    rows = [json.loads(line) for line in (shared_eval / "minilm_reference.jsonl").open()]
    assert len(rows) == 21
    vectors = embedder.embed([r["text"] for r in rows])
    checked = 0
    for row, vector in zip(rows, vectors):
        reference = np.asarray(row["embedding"], dtype=np.float32)
        if embedder.count_tokens(row["text"]) + 2 > embedder.window:
            continue  # the reference truncates at 256 too, but the issue asks for texts that fit
        cosine = float(vector @ reference / np.linalg.norm(reference))
        assert cosine >= 0.99, (row["text"][:60], cosine)
        checked += 1
    assert checked == 20


def test_vectors_are_unit_length_and_batch_invariant(embedder):
    texts = ["Governing law: Delaware.", "x" * 50, "The Supplier shall deliver the goods."]
    together = embedder.embed(texts)
    alone = np.vstack([embedder.embed([t]) for t in texts])
    assert together.shape == (3, 384) and together.dtype == np.float32
    assert np.allclose(np.linalg.norm(together, axis=1), 1.0, atol=1e-5)
    assert np.allclose(together, alone, atol=1e-4)


def test_counts_word_pieces_without_special_tokens(embedder):
    assert embedder.count_tokens("") == 0
    assert embedder.count_tokens("governing law") == 2
    assert embedder.embed([]).shape == (0, 384)
