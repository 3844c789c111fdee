"""Sentence units (``ingest/units.py``): the spans both ingest and the query side cut, and the
packed vectors ingest stores beside each chunk."""

from __future__ import annotations

import numpy as np
import pytest

from ingest.embedder import MiniLMEmbedder
from ingest.schema import Chunk
from ingest.units import (
    EMBED_CHARS,
    MAX_STORED_UNITS,
    chunk_units,
    embed_chunk_units,
    pack_vectors,
    unit_spans,
    unpack_vectors,
)


def _chunk(text: str, char_start: int = 100, sentences=()) -> Chunk:
    return Chunk(
        chunk_id="c", doc_id="d", revision="r", ordinal=0, title="T", filename="t.txt", mime="text/plain",
        page=None, section=[], element_index=0, line_start=1, line_end=1, char_start=char_start,
        char_end=char_start + len(text), text=text, acl=["*"], collection="", ingested_at="",
        sentences=[{"char_start": s, "char_end": e, "entity_ids": []} for s, e in sentences],
    )


def test_unit_spans_cut_paragraphs_drop_headings_and_index_the_revision() -> None:
    text = "1. TERM\n\nThis Agreement starts today.\n\nIt ends in 2030 unless renewed."
    base = 100
    spans = unit_spans(text, base)
    assert [text[s - base : e - base] for s, e in spans] == [
        "This Agreement starts today.", "It ends in 2030 unless renewed.",
    ]
    # Stored sentence spans (one running across the blank line) are cut at the paragraph break.
    spans = unit_spans(text, base, [(base, base + len(text))])
    assert [text[s - base : e - base] for s, e in spans] == [
        "This Agreement starts today.", "It ends in 2030 unless renewed.",
    ]


def test_long_sentences_are_cut_at_semicolons() -> None:
    clause = "the Supplier shall deliver the goods on time and in full " * 7
    text = f"{clause.strip()}; {clause.strip()}."
    spans = unit_spans(text, 0)
    assert len(spans) == 2 and text[spans[0][0] : spans[0][1]].endswith(";")


def test_pack_round_trip_and_the_bound() -> None:
    rows = np.random.default_rng(0).normal(size=(MAX_STORED_UNITS + 5, 8)).astype(np.float32)
    rows /= np.linalg.norm(rows, axis=1, keepdims=True)
    blob = pack_vectors(rows)
    assert len(blob) == MAX_STORED_UNITS * 8 * 2  # float16, at most MAX_STORED_UNITS rows
    back = unpack_vectors(blob, 8)
    assert back.shape == (MAX_STORED_UNITS, 8)
    np.testing.assert_allclose(back, rows[:MAX_STORED_UNITS], atol=1e-3)
    assert unpack_vectors(blob, 7) is None  # not whole rows of that dimension: never read
    assert unpack_vectors(None, 8) is None and unpack_vectors(b"", 8) is None


@pytest.fixture(scope="module")
def embedder() -> MiniLMEmbedder:
    return MiniLMEmbedder()


def test_ingest_stores_the_units_the_query_side_reads(embedder: MiniLMEmbedder) -> None:
    text = "This Agreement is governed by the laws of Delaware. Either party may terminate it on notice."
    chunk = _chunk(text, 40, sentences=[(40, 91), (92, 40 + len(text))])
    legacy = _chunk(text, 40, sentences=[(40, 91), (92, 40 + len(text))])
    embed_chunk_units(embedder, [chunk])
    assert chunk.units == [[40, 91], [92, 40 + len(text)]]
    assert chunk_units(chunk) == chunk_units(legacy) == [(40, 91), (92, 40 + len(text))]
    stored = unpack_vectors(chunk.unit_vectors, embedder.dimension)
    direct = embedder.embed([text[s - 40 : e - 40][:EMBED_CHARS] for s, e in chunk_units(chunk)])
    np.testing.assert_allclose(stored, direct, atol=2e-3)
