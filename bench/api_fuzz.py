"""Schemathesis against the live API: generated requests for every operation of /openapi.json,
with a valid key, over a store holding one indexed document. Pass means zero server errors
(and, with --strict, responses conforming to the documented schemas and status codes).

    PYTHONPATH=. /work/venv/bin/python bench/api_fuzz.py [--max-examples 30] [--strict]

Needs ``schemathesis`` (test extra). Exit code 0 when no check failed.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parents[1]
if sys.path[0] != str(REPO):
    sys.path.insert(0, str(REPO))  # bench/ingest.py must not shadow the ingest package

FUZZ_KEY = "fuzz-admin-key-0123456789abcdef"
KEYS = {FUZZ_KEY: {"principal": "fuzzer", "groups": ["qa"], "admin": True}}
SAMPLE = "alpha beta\n\nThe Supplier shall deliver goods to Example Holdings, Inc. (the \"Buyer\").\n"


def run(max_examples: int = 30, strict: bool = False, seed: int = 1) -> int:
    from ingest.settings import Settings
    from service.api import create_app
    from service.api.server import serve_in_thread

    st = shutil.which("st") or str(Path(sys.executable).with_name("st"))
    data_dir = Path(tempfile.mkdtemp(prefix="attest-fuzz-"))
    settings = Settings(data_dir=data_dir, api_keys=json.dumps(KEYS), max_file_bytes=256 * 1024)
    checks = "all" if strict else "not_a_server_error"
    with serve_in_thread(create_app(settings)) as base:
        headers = {"Authorization": f"Bearer {FUZZ_KEY}"}
        r = httpx.post(f"{base}/v1/documents", headers=headers,
                       files={"file": ("seed.txt", SAMPLE.encode())}, data={"doc_id": "seed"})
        r.raise_for_status()
        while httpx.get(f"{base}/v1/documents/seed", headers=headers).json()["status"] not in ("indexed", "failed"):
            time.sleep(0.2)
        start = time.perf_counter()
        cmd = [
            st, "run", f"{base}/openapi.json",
            "-H", f"Authorization: Bearer {FUZZ_KEY}",
            "--checks", checks,
            "--max-examples", str(max_examples),
            "--seed", str(seed),
            "--request-timeout", "60",
            "--continue-on-failure",
            "--phases", "examples,coverage,fuzzing",
        ]
        proc = subprocess.run(cmd, text=True, capture_output=True)
        elapsed = time.perf_counter() - start
    sys.stdout.write(proc.stdout[-6000:])
    sys.stderr.write(proc.stderr[-3000:])
    sys.stdout.write(f"\nschemathesis exit={proc.returncode} in {elapsed:.1f}s (max_examples={max_examples}, checks={checks})\n")
    shutil.rmtree(data_dir, ignore_errors=True)
    return proc.returncode


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--max-examples", type=int, default=30)
    parser.add_argument("--strict", action="store_true", help="all checks, not only server errors")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    return run(args.max_examples, args.strict, args.seed)


if __name__ == "__main__":
    raise SystemExit(main())
