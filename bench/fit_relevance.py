"""Fit and check the relevance model's weights on a ``bench/cuad_eval.py --dump`` file.

    python bench/fit_relevance.py DUMP.jsonl [--weights relevance.json] [--fit] [--search]

The dump holds, for every question where the gate passed, every assessed unit's relevance
signals and whether it overlaps a gold CUAD span. This script replays what the machine does
with them, without running it again:

  * the evidence is the units that state the attribute (a known attribute: its typed rule, as
    the machine decided; an open question: relevance at or above ``evidence_floor``), the best
    ``MAX_EVIDENCE`` by relevance;
  * hit: one of them overlaps the gold clause; sufficient: the best reaches the threshold.

``--fit`` fits the weights by logistic regression (gold unit or not, over subject-verified
units of answerable questions) and then by coordinate search on the hit rate; ``--search``
only runs the coordinate search from the given weights. Only ever run it on a ``tune`` dump:
the report split is run once, with the weights fixed before.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

FEATURES = ("question", "description", "lexical", "cue", "retrieval", "bm25", "context", "length")
MAX_EVIDENCE = 5
REGISTRY = {"title", "parties"}  # answered from registry bindings, not by ranking units
REQUIRED = {k for k, a in json.loads((REPO / "service" / "data" / "attribute_cues.json").read_text())["attributes"].items()
            if a.get("value_required")}
MIN_WORDS = 5
LENGTH_WORDS = 40


def unit_features(u: dict[str, Any]) -> list[float]:
    return [
        u.get("question_similarity", 0.0),
        u.get("similarity", 0.0),
        min(1.0, max(0.0, u.get("lexical", 0.0))),
        1.0 if u.get("cue") else 0.0,
        min(1.0, max(0.0, u.get("retrieval", 0.0))),
        u.get("bm25", 0.0),
        u.get("context", 0.0),
        min(u.get("words", 0), LENGTH_WORDS) / LENGTH_WORDS,
    ]


def load_dump(path: Path) -> list[dict[str, Any]]:
    questions = []
    for line in path.open(encoding="utf-8"):
        q = json.loads(line)
        units = [u for u in q["units"] if u["ok"]]
        q["X"] = np.array([unit_features(u) for u in units], dtype=np.float64).reshape(len(units), len(FEATURES))
        q["gold"] = np.array([u["gold"] for u in units], dtype=bool)
        # The typed rule's verdict (a unit stated by relevance alone is re-decided here).
        q["states"] = np.array([u["states"] and u.get("stated_by") != "relevance" for u in units], dtype=bool)
        q["embedded"] = np.array([u.get("question_similarity", 0.0) != 0.0 for u in units], dtype=bool)
        q["long"] = np.array([u["words"] >= MIN_WORDS for u in units], dtype=bool)
        q["open"] = q["attribute"] == "question"
        q["value_required"] = bool(q["attribute"] in REQUIRED)
        if q["attribute"] not in REGISTRY:
            questions.append(q)
    return questions


def eligible_units(q: dict[str, Any], s: np.ndarray, floor: float, floor_known: float | None) -> np.ndarray:
    """Units that state the attribute: an open question's by relevance; a known attribute's by
    its typed rule, or (``floor_known``) by relevance like an open question's where no value
    is required."""
    by_relevance = (s >= floor) & q["embedded"] & q["long"]
    if q["open"]:
        return by_relevance
    if floor_known is None or q["value_required"]:
        return q["states"]
    return q["states"] | ((s >= floor_known) & q["embedded"] & q["long"])


FLOOR_KNOWN: float | None = None
FILL = False
W_SUFF: np.ndarray | None = None  # sufficiency from its own weights (default: the relevance)


def replay(questions: list[dict[str, Any]], w: np.ndarray, floor: float) -> list[tuple[bool, float | None]]:
    """(hit, best relevance among the evidence) per question."""
    out = []
    for q in questions:
        if len(q["X"]) == 0:
            out.append((False, None))
            continue
        s = q["X"] @ w
        eligible = eligible_units(q, s, floor, FLOOR_KNOWN)
        idx = np.nonzero(eligible)[0]
        if len(idx) == 0:
            out.append((False, None))
            continue
        # FILL: a known attribute's typed units first, units stating it by relevance after them.
        key = s[idx] + (10.0 * q["states"][idx] if FILL and not q["open"] else 0.0)
        order = idx[np.argsort(-key, kind="stable")][:MAX_EVIDENCE]
        best = float((q["X"][order] @ W_SUFF).max()) if W_SUFF is not None else float(s[order].max())
        out.append((bool(q["gold"][order].any()), best))
    return out


def figures(questions: list[dict[str, Any]], w: np.ndarray, floor: float, t_known: float, t_open: float) -> dict[str, Any]:
    res = replay(questions, w, floor)
    out: dict[str, Any] = {}
    for name in ("template", "phrasings"):
        rows = [(q, r) for q, r in zip(questions, res) if q["set"] == name]
        ans = [(q, r) for q, r in rows if not q["impossible"]]
        una = [(q, r) for q, r in rows if q["impossible"]]
        suff = lambda q, r: r[1] is not None and r[1] >= (t_open if q["open"] else t_known)  # noqa: E731
        out[name] = {
            "hit": round(sum(r[0] for _, r in ans) / max(1, len(ans)), 4),
            "abstention": round(sum(not suff(q, r) for q, r in una) / max(1, len(una)), 4),
            "answerable": len(ans), "unanswerable": len(una),
        }
    return out


def by_category(questions: list[dict[str, Any]], w: np.ndarray, floor: float) -> None:
    """Per (set, category): answerable, hit, gold retrieved at all (any verified unit overlaps
    gold), gold eligible (a unit that states the attribute overlaps gold)."""
    res = replay(questions, w, floor)
    table: dict[tuple[str, str], list[int]] = {}
    for q, r in zip(questions, res):
        if q["impossible"]:
            continue
        row = table.setdefault((q["set"], q["category"]), [0, 0, 0, 0])
        s = q["X"] @ w if len(q["X"]) else np.zeros(0)
        eligible = eligible_units(q, s, floor, FLOOR_KNOWN) if len(q["X"]) else np.zeros(0, dtype=bool)
        row[0] += 1
        row[1] += r[0]
        row[2] += bool(q["gold"].any())
        row[3] += bool((q["gold"] & eligible).any()) if len(q["X"]) else 0
    print(f"{'set':10} {'category':36} {'ans':>4} {'hit':>4} {'retr':>4} {'elig':>4}")
    for (name, category), (n, hit, retrieved, eligible) in sorted(table.items()):
        print(f"{name:10} {category:36} {n:>4} {hit:>4} {retrieved:>4} {eligible:>4}")


def calibration(questions: list[dict[str, Any]], w: np.ndarray, floor: float) -> list[dict[str, Any]]:
    """For each threshold: known and open questions' (sufficient on answerable, hit and
    sufficient, abstention on unanswerable), both question sets together."""
    res = replay(questions, w, floor)
    out = []
    for t in [round(0.3 + 0.025 * i, 3) for i in range(27)]:
        row: dict[str, Any] = {"threshold": t}
        for kind in ("known", "open"):
            pairs = [(q, r) for q, r in zip(questions, res) if q["open"] == (kind == "open")]
            ans = [r for q, r in pairs if not q["impossible"]]
            una = [r for q, r in pairs if q["impossible"]]
            suff = lambda r: r[1] is not None and r[1] >= t  # noqa: E731
            row[kind] = (
                round(sum(suff(r) for r in ans) / max(1, len(ans)), 2),
                round(sum(suff(r) and r[0] for r in ans) / max(1, len(ans)), 2),
                round(sum(not suff(r) for r in una) / max(1, len(una)), 2),
                len(ans), len(una),
            )
        out.append(row)
    return out


def objective(questions: list[dict[str, Any]], w: np.ndarray, floor: float) -> float:
    res = replay(questions, w, floor)
    ans = [r for q, r in zip(questions, res) if not q["impossible"]]
    return sum(r[0] for r in ans) / max(1, len(ans))


def fit_logistic(questions: list[dict[str, Any]], l2: float = 1e-3, steps: int = 3000) -> np.ndarray:
    """Logistic regression (gold unit or not) over verified units of answerable questions, each
    question weighted equally."""
    xs, ys, ws = [], [], []
    for q in questions:
        if q["impossible"] or len(q["X"]) == 0 or not q["gold"].any():
            continue
        xs.append(q["X"])
        ys.append(q["gold"].astype(np.float64))
        ws.append(np.full(len(q["X"]), 1.0 / len(q["X"])))
    X, y, sw = np.vstack(xs), np.concatenate(ys), np.concatenate(ws)
    Xb = np.hstack([X, np.ones((len(X), 1))])
    beta = np.zeros(Xb.shape[1])
    lr = 0.5
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-(Xb @ beta)))
        grad = Xb.T @ (sw * (p - y)) / sw.sum() + l2 * np.r_[beta[:-1], 0.0]
        beta -= lr * grad * 10
    return beta[:-1]


def coordinate_search(questions, w: np.ndarray, floor: float, rounds: int = 3) -> np.ndarray:
    best = objective(questions, w, floor)
    w = w.copy()
    for _ in range(rounds):
        improved = False
        for i in range(len(w)):
            for delta in (-0.1, -0.05, -0.02, 0.02, 0.05, 0.1):
                trial = w.copy()
                trial[i] = max(0.0, trial[i] + delta)
                value = objective(questions, trial, floor)
                if value > best + 1e-9:
                    best, w, improved = value, trial, True
        if not improved:
            break
    return w


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dump", type=Path)
    parser.add_argument("--weights", type=Path, default=REPO / "service" / "data" / "relevance.json")
    parser.add_argument("--fit", action="store_true")
    parser.add_argument("--search", action="store_true")
    parser.add_argument("--by-category", action="store_true")
    parser.add_argument("--calibration", action="store_true")
    parser.add_argument("--suff-weights", type=Path, default=None)
    parser.add_argument("--floor", type=float, default=None, help="an open question's evidence floor")
    parser.add_argument("--fill", action="store_true", help="typed units rank before units stating by relevance")
    parser.add_argument("--floor-known", type=float, default=None,
                        help="a known attribute's unit also states it from this relevance (no value required)")
    args = parser.parse_args()
    raw = json.loads(args.weights.read_text())
    w = np.array([float(raw["weights"].get(f, 0.0)) for f in FEATURES])
    floor = float(raw["evidence_floor"])
    if args.floor is not None:
        floor = args.floor
    tk, to = float(raw["sufficient"]["known_attribute"]), float(raw["sufficient"]["open_attribute"])
    global FLOOR_KNOWN, FILL, W_SUFF
    if args.suff_weights is not None:
        W_SUFF = np.array([float(json.loads(args.suff_weights.read_text())["weights"].get(f, 0.0)) for f in FEATURES])
    FILL = args.fill
    FLOOR_KNOWN = args.floor_known if args.floor_known is not None else raw.get("evidence_floor_known")
    questions = load_dump(args.dump)
    print("given", dict(zip(FEATURES, w.round(3))), figures(questions, w, floor, tk, to))
    if args.calibration:
        for row in calibration(questions, w, floor):
            print(row)
    if args.by_category:
        by_category(questions, w, floor)
    if args.fit:
        w = fit_logistic(questions)
        w = np.maximum(w, 0.0)
        w = w / w.sum() * 1.2  # the scale of the old weights, so thresholds stay comparable
        print("logistic", dict(zip(FEATURES, w.round(3))), "hit", round(objective(questions, w, floor), 4))
    if args.fit or args.search:
        w = coordinate_search(questions, w, floor)
        print("searched", dict(zip(FEATURES, w.round(3))), "hit", round(objective(questions, w, floor), 4))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
