"""Helpers shared by the benchmarks (not tests): locating CUAD dev and percentiles."""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import os

# ``../shared`` next to the checkout; ATTEST_SHARED_DIR points elsewhere (a git worktree layout).
SHARED = Path(os.environ.get("ATTEST_SHARED_DIR") or REPO.parent / "shared")
CUAD = SHARED / "eval" / "cuad-dev"
CREDIT = "CUAD v1 (The Atticus Project, CC BY 4.0)"


def cuad_txt_files(limit: int | None = None) -> list[Path]:
    if not CUAD.is_dir():
        raise SystemExit(f"{CUAD} is absent: the benchmarks need ../shared/eval/cuad-dev")
    files = sorted((CUAD / "contracts_txt").glob("*.txt"))
    return files[:limit] if limit else files


def cuad_index() -> dict[str, dict]:
    rows = (json.loads(line) for line in (CUAD / "contracts_index.jsonl").open())
    return {row["doc_id"]: row for row in rows}


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


def without_stored_unit_vectors(store) -> None:
    """Make ``store`` read every chunk as if written before sentence units were stored at ingest
    (no units, no unit vectors), so the evidence path embeds them at query time: the old path,
    for a before/after ratio on one machine (``--query-time-vectors``)."""
    for name in ("revision_chunks", "chunks_by_id"):
        real = getattr(store, name)

        def stripped(*a, _real=real, **k):
            got = _real(*a, **k)
            for c in got.values() if isinstance(got, dict) else got:
                c.units, c.unit_vectors = None, None
            return got

        setattr(store, name, stripped)


def copy_document(store, source, chunks, doc_id: str) -> int:
    """Store ``source``'s current revision again as a new document ``doc_id`` (its chunks and
    vectors cloned under the new id, no subjects, no embedding): how the benches grow an index
    or make a small write. Returns the number of chunks written."""
    from ingest.schema import chunk_id_for

    revision = source.current_revision
    record = copy.deepcopy(source)
    record.doc_id, record.incarnation, record.current_revision, record.revisions = doc_id, "", None, []
    store.save_document(record)  # a new document, not the source's row
    clones = []
    for chunk in chunks:
        clone = copy.deepcopy(chunk)
        clone.doc_id, clone.chunk_id = doc_id, chunk_id_for(doc_id, revision, chunk.ordinal)
        clones.append(clone)
    text = store.revision_text(source.doc_id, revision) or ""
    store.write_revision(doc_id, revision, text=text, chunks=clones, subjects=[],
                         info={"filename": source.filename, "mime": "text/plain", "size": len(text)})
    store.activate_revision(doc_id, revision)
    return len(clones)
