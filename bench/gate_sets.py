"""The subject gate on a held-out set of contract openings (the ``--file`` sets of
``bench/party_shapes.py``: real openings kept outside the repo, with their labelled title, parties
and not-parties), asked end to end: every case of the half is ingested into one fresh SQLite store
by the real pipeline, then asked

  * in-KB: "What law governs the <title> between <party 1> and <party 2>?" ("among ... and ..."
    for three or more; at most 6 parties, names and title as labelled, white space collapsed):
    it passes when a gate candidate is that case's document;
  * not-in-KB: the same question with one party swapped for a name the case labels as no party
    (a parent, an agent, a place; one that holds no party's words): it must not pass on that
    case's document (another document of the half may share both names; it never did here).

Prints the pass rate, the refusal rate and (``--show-misses``, only for a half you read) the
misses. A clean half is scored with its aggregate lines alone; ``--show-fail-open`` prints only
its not-in-KB questions that passed, the defect worth reading a case of a clean half for.

    PYTHONPATH=. python bench/gate_sets.py --file SET.json --half A|B [--show-misses | --show-fail-open]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from pathlib import Path

if __name__ == "__main__":
    # Run as a script, bench/ would come first on sys.path and its ingest.py shadow the package.
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from ingest.embedder import MiniLMEmbedder  # noqa: E402
from ingest.pipeline import Ingestor  # noqa: E402
from ingest.settings import Settings  # noqa: E402
from ingest.store.port import Principal  # noqa: E402
from ingest.store.sqlite import SqliteStore  # noqa: E402
from service.evidence import gate  # noqa: E402
from service.evidence.subject_class import parse_question  # noqa: E402

MAX_PARTIES = 6
OPERATOR = Principal.local_operator()


def _one_line(text: str) -> str:
    return " ".join(text.split())


def question(title: str, parties: list[str]) -> str:
    names = [_one_line(p) for p in parties]
    listed = f"between {names[0]} and {names[1]}" if len(names) == 2 else (
        "among " + ", ".join(names[:-1]) + f" and {names[-1]}"
    )
    return f"What law governs the {_one_line(title)} {listed}?"


def _words(name: str) -> set[str]:
    return {w.casefold() for w in re.findall(r"\w+", name)}


def cases_of(path: Path, half: str) -> list[dict]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return [c for c in data["cases"] if c.get("half") == half and c.get("title") and 2 <= len(c["parties"]) <= MAX_PARTIES]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--file", type=Path, required=True)
    parser.add_argument("--half", choices=("A", "B"), required=True)
    parser.add_argument("--show-misses", action="store_true")
    # (Only the questions about a non-party that the gate let through: a fail-open is the one
    # defect to read even on a half kept unread; its other misses stay unseen.)
    parser.add_argument("--show-fail-open", action="store_true")
    args = parser.parse_args(argv)
    cases = cases_of(args.file, args.half)
    ids = {c["id"]: f"case{i:03d}" for i, c in enumerate(cases)}
    passed = refused = asked_out = 0
    misses: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp)
        store = SqliteStore(data / "attest.sqlite3")
        ingestor = Ingestor(store, MiniLMEmbedder(), Settings(data_dir=data, generator_url=None))
        for case in cases:
            result = ingestor.ingest_bytes(case["text"].encode(), filename=f"{ids[case['id']]}.txt", doc_id=ids[case["id"]], acl=["*"])
            if result.status != "indexed":
                misses.append(f"NOT INDEXED {case['id']}: {result.error}")
        for case in cases:
            doc = ids[case["id"]]
            q = question(case["title"], case["parties"])
            got = gate.discover(store, OPERATOR, parse_question(q), None)
            if doc in {d for c in got.candidates for d in c.doc_ids}:
                passed += 1
            else:
                misses.append(f"MISS {case['id']}: {q!r} {[r['reason'] for r in got.rejected][:2]} {got.failures}")
            party_words = set().union(*(_words(p) for p in case["parties"]))
            for other in case.get("not_parties", [])[:2]:
                if not other[:1].isupper() or _words(other) & party_words:
                    continue
                asked_out += 1
                q = question(case["title"], [other, *case["parties"][1:]])
                got = gate.discover(store, OPERATOR, parse_question(q), None)
                if doc in {d for c in got.candidates for d in c.doc_ids}:
                    misses.append(f"PASSED NOT-IN-KB {case['id']}: {q!r}")
                else:
                    refused += 1
        store.close()
    print(f"{args.file.name} half {args.half}: in-KB gate pass {passed}/{len(cases)}; "
          f"not-in-KB (a non-party swapped in) refused {refused}/{asked_out}")
    if args.show_misses:
        print("\n".join(misses))
    elif args.show_fail_open:
        print("\n".join(m for m in misses if m.startswith("PASSED NOT-IN-KB")))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
