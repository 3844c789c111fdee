"""Evidence query latency (``run_evidence_query``, single client) on the embedded store at a
target number of chunks.

    .venv/bin/python bench/evidence_latency.py --from-data-dir /tmp/openq-cuad \\
        --data-dir /tmp/openq-50k --target-chunks 50000 --queries 200 [--query-time-vectors]

``--from-data-dir`` is a store that ``bench/cuad_eval.py --data-dir`` filled with annotated CUAD
contracts (registry included). It is copied to ``--data-dir`` (SQLite backup API), then its
contracts' chunks, vectors and stored sentence vectors are copied under new doc ids (no registry
subjects, no model runs) until the index holds ``--target-chunks`` chunks. The questions are
``bench/cuad_eval.py``'s (phrasebook templates and analyst phrasings, both splits' wording:
latency, not quality) about the original contracts, asked in a fixed order after one warm-up.

``--query-time-vectors`` measures the old path on the same index: every chunk's stored units and
sentence vectors are ignored, so units are cut and embedded at query time (at most 32 per
question), as before sentence vectors were stored at ingest. Reported: p50/p95/max in ms, and
the share of questions the gate passed. CUAD v1 is by The Atticus Project, CC BY 4.0.
"""

from __future__ import annotations

import argparse
import copy
import json
import sqlite3
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.append(str(REPO / "bench"))  # after the repo: bench/ingest.py must not shadow the package


def _copy_store(source: Path, target: Path) -> None:
    target.mkdir(parents=True, exist_ok=True)
    dest = target / "attest.sqlite3"
    if dest.exists():
        return
    src = sqlite3.connect(source / "attest.sqlite3")
    out = sqlite3.connect(dest)
    src.backup(out)
    out.close()
    src.close()


def _pad(store, target: int) -> int:
    from ingest.schema import chunk_id_for

    docs = [d for d in _all_documents(store) if "#copy" not in d.doc_id and d.current_revision]
    base = [(d, store.revision_chunks(d.doc_id, d.current_revision)) for d in docs]
    total = store._db().execute("SELECT count(*) FROM live_chunks").fetchone()[0]
    copy_no = 0
    while total < target and base:
        copy_no += 1
        for record, chunks in base:
            doc_id = f"{record.doc_id}#copy{copy_no}"
            if store.get_document(doc_id) is not None:
                continue
            clone_record = copy.deepcopy(record)
            clone_record.doc_id, clone_record.incarnation, clone_record.current_revision = doc_id, "", None
            store.save_document(clone_record)
            clones = []
            for chunk in chunks:
                clone = copy.deepcopy(chunk)
                clone.doc_id = doc_id
                clone.chunk_id = chunk_id_for(doc_id, record.current_revision, chunk.ordinal)
                clones.append(clone)
            text = store.revision_text(record.doc_id, record.current_revision)
            store.write_revision(doc_id, record.current_revision, text=text, chunks=clones, subjects=[],
                                 info={"filename": record.filename, "mime": "text/plain", "size": len(text)})
            store.activate_revision(doc_id, record.current_revision)
            total += len(clones)
            if total >= target:
                break
    return total


def _all_documents(store):
    from ingest.store.port import Principal

    out, offset = [], 0
    while True:
        page, total = store.list_documents(Principal.local_operator(), offset=offset, limit=100)
        out.extend(page)
        offset += len(page)
        if not page or offset >= total:
            return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--from-data-dir", type=Path, required=True)
    parser.add_argument("--data-dir", type=Path, required=True)
    parser.add_argument("--target-chunks", type=int, default=50_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--query-time-vectors", action="store_true")
    args = parser.parse_args(argv)

    import ingest.nlp_model  # noqa: F401 - sets the no-telemetry environment first
    from cuad_eval import DEFAULT_CUAD, TEMPLATES, phrasing_question, short_id, template_question
    from ingest.embedder import MiniLMEmbedder
    from ingest.settings import Settings
    from ingest.store.port import Principal
    from ingest.store.sqlite import SqliteStore
    from service.evidence.machine import run_evidence_query
    from service.evidence.models import EvidenceRequest

    _copy_store(args.from_data_dir, args.data_dir)
    store = SqliteStore(args.data_dir / "attest.sqlite3")
    chunks = _pad(store, args.target_chunks)
    if args.query_time_vectors:
        # The old path: no stored units or sentence vectors on any chunk read.
        from common import without_stored_unit_vectors

        without_stored_unit_vectors(store)

    index = {json.loads(line)["doc_id"]: json.loads(line) for line in (DEFAULT_CUAD / "contracts_index.jsonl").open()}
    held = {d.doc_id for d in _all_documents(store)}
    entries = sorted((e for e in index.values() if short_id(e["doc_id"]) in held), key=lambda e: short_id(e["doc_id"]))
    phrasings = json.loads((REPO / "bench" / "data" / "cuad_phrasings.json").read_text())["categories"]
    questions: list[str] = []
    kinds = [("template", c) for c in TEMPLATES] + [("phrasing", c) for c in sorted(phrasings)]
    i = 0
    while len(questions) < args.queries and entries:
        entry = entries[i % len(entries)]
        kind, category = kinds[(i * 7) % len(kinds)]
        if kind == "template":
            questions.append(template_question(category, entry))
        else:
            options = phrasings[category]
            questions.append(phrasing_question(options[i % len(options)], entry))
        i += 1

    embedder = MiniLMEmbedder()
    settings = Settings(data_dir=args.data_dir, generator_url=None)
    principal = Principal.local_operator()

    def ask(question: str):
        start = time.perf_counter()
        report = run_evidence_query(EvidenceRequest(question=question), principal, store=store, embedder=embedder, settings=settings)
        return report, (time.perf_counter() - start) * 1000

    ask(questions[0])  # warm-up: models, vector matrix, caches
    ms, passed = [], 0
    for n, question in enumerate(questions, start=1):
        report, took = ask(question)
        ms.append(took)
        passed += report.state != "SUBJECT_NOT_FOUND"
        if n % 25 == 0:
            print(f"[{n}/{len(questions)}]", file=sys.stderr, flush=True)
    ordered = sorted(ms)
    pick = lambda q: ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]  # noqa: E731
    print(json.dumps({
        "corpus": "CUAD v1 (The Atticus Project, CC BY 4.0)",
        "chunks": chunks, "questions": len(ms), "gate_passed": passed,
        "sentence_vectors": "query time" if args.query_time_vectors else "stored at ingest",
        "p50_ms": round(statistics.median(ms), 1), "p95_ms": round(pick(0.95), 1), "max_ms": round(ordered[-1], 1),
    }, indent=2))
    store.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
