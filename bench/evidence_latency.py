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
question), as before sentence vectors were stored at ingest. Reported: p50/p95/max in ms, CPU
time per question (p50/p95, this process: steadier than wall time on a shared machine), and the
share of questions the gate passed. CUAD v1 is by The Atticus Project, CC BY 4.0.

``--stages`` adds a per-stage breakdown (wall-clock mean and p95, CPU mean, ms per question) from timers
wrapped around the machine's stage functions (see ``STAGES``). ``--profile FILE`` writes cProfile
stats of the timed loop (its overhead inflates the total: use it for where, not how much).
``--reports FILE`` writes one JSON line per question: the question, its state and
``evidence_bundle_hash``, and a sha256 of the whole report without ``request_id`` and
``retrieved_at``. ``--compare FILE`` checks a run against such a file, the quality-neutral check
of a speed change: it prints the questions whose report differs and exits 3 if any does.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import hashlib
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
    from common import copy_document

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
            total += copy_document(store, record, chunks, doc_id)
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


# (label, module, attribute): the machine's stage functions, timed where the caller looks them up.
STAGES: tuple[tuple[str, str, str], ...] = (
    ("subject_class", "service.evidence.machine", "identify"),
    ("gate", "service.evidence.gate", "discover"),
    ("gate.near_misses", "service.evidence.gate", "_near_misses"),
    ("registry_questions", "service.evidence.machine", "_answer_registry"),
    ("class_questions", "service.evidence.machine", "_answer_class"),
    ("collect", "service.evidence.machine", "collect"),
    ("collect.retrieve", "service.evidence.units", "retrieve"),
    ("collect.opening_hits", "service.evidence.units", "opening_hits"),
    ("collect.extract_units", "service.evidence.units", "extract_units"),
    ("collect.verify_units", "service.evidence.verify", "verify_units"),
    ("collect.unit_vectors", "service.evidence.collect", "unit_vectors"),
    ("collect.assess_units", "service.evidence.verify", "assess_units"),
    ("conclude", "service.evidence.conclude", "build_evidence"),
    ("conclude", "service.evidence.conclude", "build_claims"),
    ("conclude", "service.evidence.conclude", "assess"),
)


class StageTimer:
    """Wall-clock time per stage and question, and CPU time per stage (this process, helper
    threads included): each stage function is replaced, where its caller
    looks it up, by a wrapper that adds its elapsed time to the current question's tally (a
    nested call of the same stage is counted once)."""

    def __init__(self) -> None:
        self.current: dict[str, float] = {}
        self.cpu: dict[str, float] = {}  # CPU ms per stage, summed over all questions
        self.per_question: list[dict[str, float]] = []
        self._depth: dict[str, int] = {}

    def install(self, store) -> None:
        import importlib

        for label, module_name, attribute in STAGES:
            module = importlib.import_module(module_name)
            setattr(module, attribute, self._wrap(label, getattr(module, attribute)))
        store.find_subjects = self._wrap("registry_reads (find_subjects)", store.find_subjects)

    def _wrap(self, label: str, func):
        def timed(*args, **kwargs):
            if self._depth.get(label):
                return func(*args, **kwargs)
            self._depth[label] = 1
            start, cpu = time.perf_counter(), time.process_time()
            try:
                return func(*args, **kwargs)
            finally:
                self._depth[label] = 0
                self.current[label] = self.current.get(label, 0.0) + (time.perf_counter() - start) * 1000
                self.cpu[label] = self.cpu.get(label, 0.0) + (time.process_time() - cpu) * 1000

        return timed

    def next_question(self) -> None:
        self.per_question.append(self.current)
        self.current = {}

    def summary(self, pick) -> dict[str, dict[str, float]]:
        labels = sorted({label for q in self.per_question for label in q})
        out = {}
        for label in labels:
            values = [q.get(label, 0.0) for q in self.per_question]
            out[label] = {
                "mean_ms": round(statistics.fmean(values), 1), "p95_ms": round(pick(sorted(values), 0.95), 1),
                "cpu_mean_ms": round(self.cpu.get(label, 0.0) / len(self.per_question), 1),
            }
        return out


def report_digest(question: str, report) -> dict[str, str]:
    """What must not change when only speed does: the whole report but its request id and
    retrieval times."""
    data = report.model_dump(mode="json")
    data.pop("request_id", None)
    for item in [*(data.get("evidence") or []), *(data.get("rejected_evidence") or [])]:
        item.pop("retrieved_at", None)
    body = json.dumps(data, sort_keys=True, ensure_ascii=False)
    return {
        "question": question, "state": report.state, "evidence_bundle_hash": report.evidence_bundle_hash,
        "report_sha256": hashlib.sha256(body.encode()).hexdigest(),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--from-data-dir", type=Path, required=True)
    parser.add_argument("--data-dir", type=Path, required=True)
    parser.add_argument("--target-chunks", type=int, default=50_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--query-time-vectors", action="store_true")
    parser.add_argument("--stages", action="store_true", help="per-stage wall-clock breakdown")
    parser.add_argument("--profile", type=Path, default=None, help="write cProfile stats of the timed loop here")
    parser.add_argument("--reports", type=Path, default=None, help="write each question's report digest here (JSON lines)")
    parser.add_argument("--compare", type=Path, default=None, help="check the digests against an earlier --reports file")
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
    timer = StageTimer() if args.stages else None
    if timer is not None:
        timer.install(store)
    profiler = cProfile.Profile() if args.profile else None
    ms, cpu_ms, passed, digests = [], [], 0, []
    with profiler if profiler is not None else contextlib.nullcontext():
        for n, question in enumerate(questions, start=1):
            cpu = time.process_time()
            report, took = ask(question)
            cpu_ms.append((time.process_time() - cpu) * 1000)
            ms.append(took)
            if timer is not None:
                timer.next_question()
            passed += report.state != "SUBJECT_NOT_FOUND"
            digests.append(report_digest(question, report))
            if n % 25 == 0:
                print(f"[{n}/{len(questions)}]", file=sys.stderr, flush=True)
    if profiler is not None:
        profiler.dump_stats(str(args.profile))
    ordered = sorted(ms)

    def pick(values: list[float], q: float) -> float:
        return values[min(len(values) - 1, round(q * (len(values) - 1)))]

    result = {
        "corpus": "CUAD v1 (The Atticus Project, CC BY 4.0)",
        "chunks": chunks, "questions": len(ms), "gate_passed": passed,
        "sentence_vectors": "query time" if args.query_time_vectors else "stored at ingest",
        "p50_ms": round(statistics.median(ms), 1), "p95_ms": round(pick(ordered, 0.95), 1), "max_ms": round(ordered[-1], 1),
        "cpu_p50_ms": round(statistics.median(cpu_ms), 1), "cpu_p95_ms": round(pick(sorted(cpu_ms), 0.95), 1),
    }
    if timer is not None:
        result["stages"] = timer.summary(pick)
    if args.reports:
        args.reports.write_text("".join(json.dumps(d, sort_keys=True) + "\n" for d in digests))
    status = 0
    if args.compare:
        before = [json.loads(line) for line in args.compare.read_text().splitlines() if line.strip()]
        differ = [
            d["question"] for b, d in zip(before, digests)
            if b["question"] != d["question"] or b["report_sha256"] != d["report_sha256"]
        ]
        if len(before) != len(digests):
            differ.append(f"<{len(before)} questions before, {len(digests)} now>")
        result["compare"] = {"questions": len(digests), "reports_differ": len(differ), "differ": differ[:20]}
        status = 3 if differ else 0
    print(json.dumps(result, indent=2))
    store.close()
    return status


if __name__ == "__main__":
    raise SystemExit(main())
