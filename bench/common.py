"""Helpers shared by the benchmarks (not tests): locating CUAD dev and percentiles."""

from __future__ import annotations

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
