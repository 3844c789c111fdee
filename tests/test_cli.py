"""The `attest` command line, run as a user would: a subprocess on a real data dir."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SAMPLES = REPO / "samples" / "cuad"


def attest(data_dir: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ATTEST_")}
    env.update({"ATTEST_DATA_DIR": str(data_dir), "PYTHONPATH": str(REPO)})
    return subprocess.run(
        [sys.executable, "-m", "service.cli", *args],
        capture_output=True, text=True, cwd=REPO, env=env, timeout=600,
    )


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("cli")
    docs = root / "docs" / "nested"
    docs.mkdir(parents=True)
    for name in sorted(p.name for p in SAMPLES.glob("*.txt"))[:2]:
        shutil.copy(SAMPLES / name, docs / name)
    (root / "docs" / "broken.xlsx").write_bytes(b"PK\x03\x04junk")
    return root / "data", root / "docs"


def test_ingest_walks_directories_prints_statuses_and_skips_unsupported_files(corpus):
    data_dir, docs = corpus
    refused = attest(data_dir, "ingest", str(docs), "--json")
    assert refused.returncode == 2 and "--acl is required for new documents" in refused.stderr
    done = attest(data_dir, "ingest", str(docs), "--json", "--collection", "samples", "--acl", "*")
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout)
    assert report["skipped"] == [{"path": str(docs / "broken.xlsx"), "reason": "unsupported suffix .xlsx"}]
    statuses = {d["doc_id"]: d["status"] for d in report["documents"]}
    assert all(k.startswith("nested:") for k in statuses)  # ids from the path under the folder
    assert sorted(statuses.values()) == ["indexed", "indexed"]

    again = attest(data_dir, "ingest", str(docs))
    assert again.returncode == 0
    lines = again.stdout.strip().splitlines()
    assert lines[0] == f"{docs / 'broken.xlsx'}: skipped (unsupported suffix .xlsx)"
    assert sorted(line.split(": ")[1] for line in lines[1:]) == ["unchanged", "unchanged"]


def test_search_json_has_exact_citation_fields(corpus):
    data_dir, _ = corpus
    done = attest(data_dir, "search", "governing law", "--k", "3", "--json")
    assert done.returncode == 0, done.stderr[-2000:]
    hits = json.loads(done.stdout)["hits"]
    assert 1 <= len(hits) <= 3
    expected = {
        "chunk_id", "doc_id", "revision", "title", "page", "section", "line_start", "line_end",
        "char_start", "char_end", "text", "score", "bm25_rank", "knn_rank",
    }
    for hit in hits:
        assert set(hit) == expected
        name = hit["doc_id"].removeprefix("nested:")
        source = (corpus[1] / "nested" / f"{name}.txt").read_text(encoding="utf-8")
        assert source[hit["char_start"] : hit["char_end"]] == hit["text"]
        assert hit["line_start"] == source.count("\n", 0, hit["char_start"]) + 1
        assert hit["bm25_rank"] is not None or hit["knn_rank"] is not None
    scores = [h["score"] for h in hits]
    assert scores == sorted(scores, reverse=True)


def test_status_and_delete(corpus):
    data_dir, docs = corpus
    doc_id = "nested:" + sorted(p.stem for p in (docs / "nested").glob("*.txt"))[-1]
    done = attest(data_dir, "status", doc_id, "--json")
    status = json.loads(done.stdout)
    assert (status["doc_id"], status["status"], status["stage"], status["error"]) == (
        doc_id, "indexed", "indexed", None,
    )
    assert status["revisions"] == [status["current_revision"]]
    assert attest(data_dir, "delete", doc_id).returncode == 0
    missing = attest(data_dir, "status", doc_id)
    assert missing.returncode == 3  # NotFoundError's exit code
    assert missing.stderr.strip() == f"error: document not found: {doc_id}"
    hits = json.loads(attest(data_dir, "search", "agreement", "--json").stdout)["hits"]
    assert hits and doc_id not in {h["doc_id"] for h in hits}
    assert attest(data_dir, "delete", doc_id).returncode == 3


def test_entities_json_lists_subjects_with_located_bindings(corpus):
    data_dir, docs = corpus
    sponsorship_file = "EcoScienceSolutionsInc_20180406_8-K_EX-10.1_11135398_EX-10.1_Sponsorship Agreement"
    sponsorship = f"nested:{sponsorship_file}"
    done = attest(data_dir, "entities", "ECO SCIENCE SOLUTIONS INC", "--json")
    assert done.returncode == 0, done.stderr[-2000:]
    subjects = json.loads(done.stdout)["subjects"]
    assert [s["subject_id"] for s in subjects] == ["org:eco science solutions"]
    subject = subjects[0]
    assert (subject["name"], subject["type"]) == ("Eco Science Solutions, Inc.", "org")
    assert "Sponsor" in subject["aliases"]
    agreement_id = f"agreement:sponsorship agreement@{sponsorship}"
    binding = next(b for b in subject["bindings"] if b["relation"] == "party_to")
    assert set(binding) == {
        "relation", "object_id", "object_name", "role", "doc_id", "revision", "char_start", "char_end",
    }
    assert (binding["object_id"], binding["object_name"], binding["role"], binding["doc_id"]) == (
        agreement_id, "SPONSORSHIP AGREEMENT", "Sponsor", sponsorship,
    )
    source = (docs / "nested" / f"{sponsorship_file}.txt").read_text(encoding="utf-8")
    assert source[binding["char_start"] : binding["char_end"]] == 'Eco Science Solutions, Inc.,("Sponsor")'

    agreements = json.loads(attest(data_dir, "entities", "--type", "agreement", "--json").stdout)["subjects"]
    sponsor_agreement = next(s for s in agreements if s["subject_id"] == agreement_id)
    assert sponsor_agreement["attributes"]["title"] == "SPONSORSHIP AGREEMENT"
    assert sponsor_agreement["attributes"]["agreement_date"] == "2018-04-01"
    # Exact or normalised names only: a near miss finds nothing.
    assert json.loads(attest(data_dir, "entities", "Eco Science Solution", "--json").stdout) == {"subjects": []}
