"""Cutting an extraction into chunks that fit the embedding window, at sentence boundaries.

Rules, in order of precedence:

* every chunk is ``text[char_start:char_end]`` with no surrounding whitespace, and has at most
  ``max_tokens`` word pieces (by the counter given);
* a chunk never crosses a page boundary, and never crosses a heading: a heading starts a new
  chunk and opens it, so the heading is cited with the text under it. Consecutive headings with
  nothing between them ("ARTICLE I" / "DEFINITIONS") open the same chunk;
* within that, chunks are filled greedily with whole sentences (``sentences.py``); a sentence
  longer than the limit is cut after ``;``, then ``:``, then ``,``, then at whitespace, and a run
  without whitespace at the longest prefix that fits.

A chunk's ``element_index`` is that of its first element (its heading when it has one), its
``section`` the heading path of its last element, so a chunk opened by "ARTICLE I" / "DEFINITIONS"
has the path down to "DEFINITIONS". Lines are 1-based and count ``\\n`` only, so ``\\r\\n`` is one
line break.

Word-piece counts of whitespace-separated texts add up (BERT pre-tokenisation splits on
whitespace and punctuation), so sentences are counted once and packing adds their counts; each
finished chunk is still counted as a whole and re-packed exactly in the rare case it overflows.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from ingest.extract import ElementSpan, Extraction
from ingest.sentences import sentence_spans

TokenCounter = Callable[[str], int]
BatchTokenCounter = Callable[[Sequence[str]], list[int]]

# Where an over-long sentence may be cut, best first; the cut falls after the punctuation.
_CLAUSE_BREAKS = (
    re.compile(r"(?<=;)\s+"),
    re.compile(r"(?<=:)\s+"),
    re.compile(r"(?<=,)\s+"),
    re.compile(r"\s+"),
)


@dataclass(slots=True)
class ChunkSpan:
    ordinal: int
    char_start: int
    char_end: int
    page: int | None
    section: list[str]
    element_index: int
    line_start: int
    line_end: int


@dataclass(slots=True, frozen=True)
class _Unit:
    """A sentence, or a piece of one too long to embed whole."""

    start: int
    end: int
    element: int  # position in extraction.elements
    tokens: int


def count_tokens_batch_for(embedder: Any) -> BatchTokenCounter:
    """A batch counter on the embedder's tokenizer; one call per document instead of per sentence.

    Uses the same untruncated counter as ``embedder.count_tokens``; any other embedder, and one
    that tokenizes on the calling thread (``batch_tokenize=False``), counts one text at a time.
    """
    counter = getattr(embedder, "_counter", None)
    if counter is None or not getattr(embedder, "batch_tokenize", True):
        return lambda texts: [embedder.count_tokens(text) for text in texts]

    # The "fast" variant skips offset tracking, which counting does not need.
    encode = getattr(counter, "encode_batch_fast", counter.encode_batch)

    def count(texts: Sequence[str]) -> list[int]:
        if not texts:
            return []
        encodings = encode(list(texts), add_special_tokens=False)
        return [len(encoding.ids) for encoding in encodings]

    return count


def _blocks(elements: list[ElementSpan]) -> list[list[int]]:
    """Runs of element positions that chunks may span: one page, at most one section."""
    blocks: list[list[int]] = []
    headings_only = True
    for position, element in enumerate(elements):
        if blocks:
            previous = elements[blocks[-1][-1]]
            same_page = element.page == previous.page
            if same_page and not (element.is_heading and not headings_only):
                blocks[-1].append(position)
                headings_only = headings_only and element.is_heading
                continue
        blocks.append([position])
        headings_only = element.is_heading
    return blocks


class _Chunker:
    def __init__(
        self,
        text: str,
        count_tokens: TokenCounter,
        count_batch: BatchTokenCounter,
        max_tokens: int,
        check: Callable[[], None] = lambda: None,
    ) -> None:
        self.check = check  # called every so often; may raise to stop (the job's time budget)
        self.text = text
        self.count_tokens = count_tokens
        self.count_batch = count_batch
        self.max_tokens = max_tokens

    def units(self, elements: list[ElementSpan], blocks: list[list[int]]) -> list[list[_Unit]]:
        """The units of each block; all sentences of the document are counted in one batch."""
        spans = [
            (start, end, position, block_number)
            for block_number, positions in enumerate(blocks)
            for position in positions
            for start, end in sentence_spans(
                self.text, elements[position].char_start, elements[position].char_end
            )
        ]
        counts = self.count_batch([self.text[start:end] for start, end, _, _ in spans])
        units: list[list[_Unit]] = [[] for _ in blocks]
        for (start, end, position, block_number), tokens in zip(spans, counts):
            if tokens <= self.max_tokens:
                units[block_number].append(_Unit(start, end, position, tokens))
            else:
                units[block_number].extend(self._fit(start, end, position, 0))
        return units

    def _fit(self, start: int, end: int, position: int, level: int) -> list[_Unit]:
        """Pieces of an over-long span, each within the limit, cut at the best break available."""
        for depth in range(level, len(_CLAUSE_BREAKS)):
            pieces = self._split(start, end, _CLAUSE_BREAKS[depth])
            if len(pieces) > 1:
                break
        else:
            return self._hard_split(start, end, position)
        counts = self.count_batch([self.text[a:b] for a, b in pieces])
        units: list[_Unit] = []
        for (piece_start, piece_end), tokens in zip(pieces, counts):
            if tokens <= self.max_tokens:
                units.append(_Unit(piece_start, piece_end, position, tokens))
            else:
                units.extend(self._fit(piece_start, piece_end, position, depth + 1))
        return units

    def _split(self, start: int, end: int, pattern: re.Pattern[str]) -> list[tuple[int, int]]:
        pieces = []
        piece_start = start
        for match in pattern.finditer(self.text, start, end):
            if match.start() > piece_start:
                pieces.append((piece_start, match.start()))
            piece_start = match.end()
        if piece_start < end:
            pieces.append((piece_start, end))
        return pieces

    def _hard_split(self, start: int, end: int, position: int) -> list[_Unit]:
        """A run with no whitespace at all (a URL, a table flattened to one token): the longest
        prefixes that fit. Every word piece covers at least one character, so ``max_tokens``
        characters always fit; the window then doubles until it overflows and the cut is
        bisected inside the last doubling. Each piece costs O(L log L) for its own length L,
        so the whole run is O(n log n), never quadratic in the run's length."""
        units = []
        while start < end:
            self.check()
            low = min(end, start + self.max_tokens)  # always fits
            high = low
            while high < end:
                high = min(end, start + 2 * (high - start))
                if self.count_tokens(self.text[start:high]) > self.max_tokens:
                    high -= 1  # the fitting prefix ends in [low, high)
                    break
                low = high
            while low < high:
                middle = (low + high + 1) // 2
                if self.count_tokens(self.text[start:middle]) <= self.max_tokens:
                    low = middle
                else:
                    high = middle - 1
            units.append(_Unit(start, low, position, self.count_tokens(self.text[start:low])))
            start = low
        return units

    def pack(self, blocks: list[list[_Unit]]) -> list[list[_Unit]]:
        """Greedy groups of units within each block; every group is then counted whole."""
        groups: list[list[_Unit]] = []
        for units in blocks:
            current: list[_Unit] = []
            total = 0
            for unit in units:
                if current and total + unit.tokens > self.max_tokens:
                    groups.append(current)
                    current, total = [], 0
                current.append(unit)
                total += unit.tokens
            if current:
                groups.append(current)
        actual = self.count_batch([self.text[g[0].start : g[-1].end] for g in groups])
        exact: list[list[_Unit]] = []
        for group, tokens in zip(groups, actual):
            exact.extend([group] if tokens <= self.max_tokens else self._repack_exact(group))
        return exact

    def _repack_exact(self, group: list[_Unit]) -> list[list[_Unit]]:
        groups = [[group[0]]]
        for unit in group[1:]:
            candidate = self.text[groups[-1][0].start : unit.end]
            if self.count_tokens(candidate) <= self.max_tokens:
                groups[-1].append(unit)
            else:
                groups.append([unit])
        return groups


class _LineIndex:
    def __init__(self, text: str) -> None:
        self._newlines = [match.start() for match in re.finditer("\n", text)]

    def line_of(self, offset: int) -> int:
        return bisect_left(self._newlines, offset) + 1


def chunk_extraction(
    extraction: Extraction,
    count_tokens: TokenCounter,
    max_tokens: int,
    *,
    count_tokens_batch: BatchTokenCounter | None = None,
    check: Callable[[], None] = lambda: None,
) -> list[ChunkSpan]:
    """Chunks of ``extraction`` in text order, each within ``max_tokens`` word pieces.
    ``check`` is called as the work goes on and may raise to stop it (a time budget)."""
    count_batch = count_tokens_batch or (lambda texts: [count_tokens(text) for text in texts])
    chunker = _Chunker(extraction.text, count_tokens, count_batch, max_tokens, check)
    lines = _LineIndex(extraction.text)
    elements = extraction.elements
    chunks: list[ChunkSpan] = []
    for group in chunker.pack(chunker.units(elements, _blocks(elements))):
        first, last = elements[group[0].element], elements[group[-1].element]
        start, end = group[0].start, group[-1].end
        chunks.append(
            ChunkSpan(
                ordinal=len(chunks),
                char_start=start,
                char_end=end,
                page=first.page,
                section=list(last.section),
                element_index=first.element_index,
                line_start=lines.line_of(start),
                line_end=lines.line_of(end - 1),
            )
        )
    return chunks
