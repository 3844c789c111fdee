"""Ingest throughput against model inference alone, measured in one run.

    .venv/bin/python bench/ingest.py --docs 20

Ingests N CUAD dev contracts end to end into a fresh embedded store, then times the models alone
(MiniLM embedding and the spaCy pipeline that annotation runs) on exactly the chunks that ingest produced. The
ratio says what the pipeline costs beyond model inference (target: at most 25%).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from common import CREDIT, cuad_txt_files

import ingest.nlp_model  # noqa: F401 - offline environment first
from ingest.embedder import MiniLMEmbedder
from ingest.pipeline import Ingestor
from ingest.settings import Settings
from ingest.statuses import IngestOutcome
from ingest.store.sqlite import SqliteStore


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--docs", type=int, default=20)
    parser.add_argument("--no-ner", action="store_true", help="embedding only")
    args = parser.parse_args()

    files = cuad_txt_files(args.docs)
    embedder = MiniLMEmbedder()
    with tempfile.TemporaryDirectory() as tmp:
        store = SqliteStore(Path(tmp) / "attest.sqlite3")
        settings = Settings(data_dir=Path(tmp))
        ingestor = Ingestor(store, embedder, settings, annotate=not args.no_ner)
        # Warm-up outside the clock: model loading is a one-off cost, not throughput.
        embedder.embed(["warm up"])
        if not args.no_ner:
            from ingest.annotate import annotate_document

            annotate_document("Acme Inc. is a party.", [(0, 21)], doc_id="w", revision="w")

        start = time.perf_counter()
        results = [ingestor.ingest_path(path) for path in files]
        end_to_end = time.perf_counter() - start

        chunks = [c for r in results if r.revision for c in store.revision_chunks(r.doc_id, r.revision)]
        texts = [c.text for c in chunks]
        words = sum(len(t.split()) for t in texts)

        start = time.perf_counter()
        embedder.embed(texts)
        embed_only = time.perf_counter() - start
        ner_only = 0.0
        if not args.no_ner:
            # The exact spaCy pipeline annotate_document runs (en_core_web_sm without the parser
            # and lemmatizer, plus the project's EntityRuler).
            from ingest.entities import annotation_pipeline

            nlp = annotation_pipeline()
            start = time.perf_counter()
            for _ in nlp.pipe(texts, batch_size=64):
                pass
            ner_only = time.perf_counter() - start
        store.close()

    failed = [r for r in results if r.status == IngestOutcome.FAILED]
    model_only = embed_only + ner_only
    print(f"corpus: {len(files)} contracts from {CREDIT}; {len(chunks)} chunks, {words} words")
    print(f"failed: {len(failed)}")
    print(f"end-to-end ingest: {end_to_end:.2f} s = {len(chunks) / end_to_end:.1f} chunks/s, "
          f"{words / end_to_end:.0f} words/s")
    print(f"model inference alone: embedding {embed_only:.2f} s + spaCy {ner_only:.2f} s = {model_only:.2f} s")
    print(f"ratio end-to-end / model-only time: {end_to_end / model_only:.3f}")
    print(f"work beyond model inference: {100 * (1 - model_only / end_to_end):.1f}% (target <= 25%)")


if __name__ == "__main__":
    main()
