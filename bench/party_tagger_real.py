"""The trained party tagger on a set of real contract openings, in aggregate only (stop 22).

    PYTHONPATH=. python bench/party_tagger_real.py --model DIR --file /work/realpre/realC.json [--file ...]

Per set: the labelled parties, how many the tagger alone finds (its candidates,
``bench/party_tagger.party_model_candidates``, matched after the registry's normalisation), how
many the shipped pipeline misses, how many of those the tagger finds, and how many tagger names
match no labelled party. Prints no case, so a clean held-out set (realC, realF, realG, realH) can
be measured without being read. ``--model``: a tagger from ``scripts/train_party_ner.py``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

if __name__ == "__main__":
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from bench import party_tagger  # noqa: E402
from bench.party_shapes import load_fresh, probe_case_recorded  # noqa: E402
from ingest.names import party_name_forms  # noqa: E402
from ingest.normalize import normalise_org  # noqa: E402


def measure(path: Path) -> dict[str, int]:
    cases = load_fresh(path)
    out = {"parties": 0, "tagger": 0, "missed": 0, "recovered": 0, "tagger_false": 0}
    for name in sorted(cases):
        text, gold, _ = cases[name]
        missed, _, _ = probe_case_recorded(name, cases)
        tagged = party_tagger.party_model_candidates(text)
        forms = [{normalise_org(f) for f in party_name_forms(t.text)} | {normalise_org(t.text)} for t in tagged]
        keys = {normalise_org(g) for g in gold}
        found = {k for k in keys if any(k in f for f in forms)}
        out["parties"] += len(keys)
        out["tagger"] += len(found)
        out["missed"] += len(missed)
        out["recovered"] += sum(normalise_org(m) in found for m in missed)
        out["tagger_false"] += sum(not f & keys for f in forms)
    return out


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", required=True, help="a tagger trained by scripts/train_party_ner.py")
    parser.add_argument("--file", type=Path, action="append", required=True, help="a real-openings set (JSON)")
    args = parser.parse_args(argv)
    party_tagger.MODEL_DIR = args.model
    for path in args.file:
        r = measure(path)
        print(f"{path.stem}: parties {r['parties']}, tagger alone {r['tagger']}, pipeline missed {r['missed']}, "
              f"tagger finds {r['recovered']} of them, tagger names matching no party {r['tagger_false']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
