"""Sentence units of a chunk and their stored vectors.

A *unit* is what the evidence machine cites: a sentence of a chunk (the sentence spans ingest
stores), cut where a sentence cannot continue (a blank line) and, when very long, at semicolons
(clause level). Ingest computes the units once, embeds them with the chunk model and stores the
spans with the chunk (``Chunk.units``) and the vectors beside it (``Chunk.unit_vectors``: packed
float16, one row per unit, in unit order). The query side reads them instead of embedding
sentences at query time; a chunk from an older index (no stored units or vectors) gets the same
spans from :func:`unit_spans` and its vectors computed at query time.

This module is a leaf of ``ingest/`` so that both sides cut units with the same function.
"""

from __future__ import annotations

import re
from typing import Sequence

import numpy as np

from ingest.embedder import Embedder
from ingest.schema import Chunk
from ingest.sentences import sentence_spans
from ingest.text import trim_span

LONG_UNIT = 700  # characters; longer sentences are cut at semicolons into clauses
MIN_UNIT_WORDS = 3  # headings and enumerators ("1.", "ARTICLE II") state nothing
EMBED_CHARS = 600  # about 128 word pieces: enough to place a clause, a fraction of the cost
MAX_STORED_UNITS = 64  # vectors stored per chunk (a 200-word-piece chunk has far fewer units)
VECTOR_DTYPE = np.float16  # 768 bytes per unit at 384 dimensions; cosines move < 1e-3

_PARAGRAPH = re.compile(r"\n[ \t]*\n\s*")
_CLAUSE = re.compile(r";\s+")
_WORD = re.compile(r"\w+")


def _refine(text: str, base: int, end_limit: int, spans: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for start, end in spans:
        start, end = max(start, base), min(end, end_limit)
        pieces: list[tuple[int, int]] = []
        cursor = start
        for m in _PARAGRAPH.finditer(text, start - base, max(start, end) - base):
            pieces.append((cursor, base + m.start()))
            cursor = base + m.end()
        pieces.append((cursor, end))
        for p_start, p_end in pieces:
            if p_end - p_start > LONG_UNIT:
                cursor = p_start
                for m in _CLAUSE.finditer(text, p_start - base, p_end - base):
                    out.append((cursor, base + m.start() + 1))
                    cursor = base + m.end()
                out.append((cursor, p_end))
            else:
                out.append((p_start, p_end))
    trimmed = []
    for span in out:
        s, e = trim_span(text, *span, base=base)
        if s < e:
            trimmed.append((s, e))
    return trimmed


def unit_spans(
    text: str, char_start: int, sentences: Sequence[tuple[int, int]] | None = None
) -> list[tuple[int, int]]:
    """The units of a chunk whose ``text`` starts at revision offset ``char_start``: the stored
    sentence spans (or, without them, the rule-based splitter's), refined, trimmed, de-duplicated
    and without units of fewer than ``MIN_UNIT_WORDS`` words. Offsets index the revision text."""
    end_limit = char_start + len(text)
    if not sentences:
        sentences = [(char_start + s, char_start + e) for s, e in sentence_spans(text, 0, len(text))]
    out: list[tuple[int, int]] = []
    seen: set[tuple[int, int]] = set()
    for s, e in _refine(text, char_start, end_limit, sentences):
        if (s, e) in seen or len(_WORD.findall(text, s - char_start, e - char_start)) < MIN_UNIT_WORDS:
            continue
        seen.add((s, e))
        out.append((s, e))
    return out


def unit_texts(text: str, char_start: int, spans: Sequence[tuple[int, int]]) -> list[str]:
    """What the model reads of each unit (its first ``EMBED_CHARS`` characters)."""
    return [text[s - char_start : e - char_start][:EMBED_CHARS] for s, e in spans]


def pack_vectors(vectors: np.ndarray) -> bytes:
    """At most ``MAX_STORED_UNITS`` rows as float16 bytes (row-major)."""
    rows = np.asarray(vectors, dtype=np.float32)[:MAX_STORED_UNITS]
    return rows.astype(VECTOR_DTYPE).tobytes()


def unpack_vectors(blob: bytes | None, dimension: int) -> np.ndarray | None:
    """The stored unit vectors as float32 rows, or None when there are none or the blob does not
    hold whole rows of ``dimension`` (another model's vectors are never read)."""
    if not blob:
        return None
    width = np.dtype(VECTOR_DTYPE).itemsize * dimension
    if len(blob) % width:
        return None
    return np.frombuffer(blob, dtype=VECTOR_DTYPE).reshape(-1, dimension).astype(np.float32)


def chunk_units(chunk: Chunk) -> list[tuple[int, int]]:
    """The chunk's units: as stored at ingest, or (an older index) cut now the same way."""
    if chunk.units is not None:
        return [(int(s), int(e)) for s, e in chunk.units]
    return unit_spans(chunk.text, chunk.char_start, [(s["char_start"], s["char_end"]) for s in chunk.sentences])


def embed_chunk_units(embedder: Embedder, chunks: Sequence[Chunk]) -> None:
    """The ingest step: set ``units`` and ``unit_vectors`` of each chunk (one embedding call for
    the batch; at most ``MAX_STORED_UNITS`` vectors per chunk)."""
    spans = [unit_spans(c.text, c.char_start, [(s["char_start"], s["char_end"]) for s in c.sentences]) for c in chunks]
    texts: list[str] = []
    for chunk, chunk_spans in zip(chunks, spans):
        texts.extend(unit_texts(chunk.text, chunk.char_start, chunk_spans[:MAX_STORED_UNITS]))
    vectors = embedder.embed(texts) if texts else np.zeros((0, embedder.dimension), dtype=np.float32)
    row = 0
    for chunk, chunk_spans in zip(chunks, spans):
        n = min(len(chunk_spans), MAX_STORED_UNITS)
        chunk.units = [[s, e] for s, e in chunk_spans]
        chunk.unit_vectors = pack_vectors(vectors[row : row + n])
        row += n
