"""The revision-aware pipeline on the embedded store: states, revisions, bad input, no partial data."""

from __future__ import annotations

import hashlib
import io
import zipfile
from pathlib import Path

import pytest

from ingest.pipeline import Ingestor
from ingest.settings import Settings
from ingest.store.port import Principal, SearchFilters
from ingest.store.sqlite import SqliteStore
from service.retrieval import hybrid_search

OPERATOR = Principal.local_operator()
CONTRACT = (
    "MASTER SUPPLY AGREEMENT\n\n"
    "1. TERM\n\nThis Agreement begins on January 1, 2021 and runs for five years.\n\n"
    "2. GOVERNING LAW\n\nThis Agreement is governed by the laws of the State of Delaware.\n"
)


@pytest.fixture
def ingestor(tmp_path: Path, embedder):
    store = SqliteStore(tmp_path / "attest.sqlite3")
    settings = Settings(data_dir=tmp_path, max_file_bytes=2_000_000, max_unpacked_bytes=1_000_000)
    yield Ingestor(store, embedder, settings, annotate=False)
    store.close()


def write(tmp_path: Path, name: str, data: bytes | str) -> Path:
    path = tmp_path / name
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    return path


def chunk_count(store: SqliteStore) -> int:
    return store._db().execute("SELECT count(*) FROM chunks").fetchone()[0]


def test_ingest_records_revision_states_and_exact_chunks(ingestor, tmp_path):
    stages: list[str] = []
    ingestor.on_stage = stages.append
    path = write(tmp_path, "msa.txt", CONTRACT)
    result = ingestor.ingest_path(path, doc_id="msa", acl=["alice"], collection="contracts")
    assert (result.status, result.stage, result.error) == ("indexed", "indexed", None)
    assert result.revision == hashlib.sha256(CONTRACT.encode()).hexdigest()
    assert stages == ["received", "extracting", "indexing", "writing", "written"]
    doc = ingestor.store.get_document("msa")
    assert (doc.status, doc.current_revision, doc.acl, doc.collection) == (
        "indexed", result.revision, ["alice"], "contracts",
    )
    text = ingestor.store.revision_text("msa", result.revision)
    assert text == CONTRACT
    chunks = ingestor.store.revision_chunks("msa", result.revision)
    assert chunks and all(text[c.char_start : c.char_end] == c.text for c in chunks)
    assert all(len(c.embedding) == 384 for c in chunks)
    law = next(c for c in chunks if "Delaware" in c.text)
    assert law.section[-1] == "2. GOVERNING LAW"
    assert law.line_start == CONTRACT.count("\n", 0, law.char_start) + 1


def test_same_bytes_again_writes_nothing(ingestor, tmp_path):
    path = write(tmp_path, "msa.txt", CONTRACT)
    first = ingestor.ingest_path(path, doc_id="msa")
    before = chunk_count(ingestor.store)
    generation = ingestor.store._db().execute("SELECT value FROM meta WHERE key='generation'").fetchone()[0]
    again = ingestor.ingest_path(path, doc_id="msa")
    assert (again.status, again.revision) == ("unchanged", first.revision)
    assert chunk_count(ingestor.store) == before
    assert ingestor.store._db().execute("SELECT value FROM meta WHERE key='generation'").fetchone()[0] == generation


def test_new_bytes_switch_revision_and_old_chunks_leave_search(ingestor, tmp_path, embedder):
    path = write(tmp_path, "msa.txt", CONTRACT)
    old = ingestor.ingest_path(path, doc_id="msa")
    path.write_text(CONTRACT.replace("State of Delaware", "State of New York"))
    new = ingestor.ingest_path(path, doc_id="msa")
    assert new.status == "indexed" and new.revision != old.revision
    hits = hybrid_search(
        ingestor.store, embedder, "governing law Delaware", SearchFilters(principal=OPERATOR), k=10
    )
    assert hits and {h.chunk.revision for h in hits} == {new.revision}
    assert not any("Delaware" in h.chunk.text for h in hits)
    # The old revision stays readable for audit.
    assert "Delaware" in ingestor.store.revision_text("msa", old.revision)
    doc = ingestor.store.get_document("msa")
    assert [r.revision for r in doc.revisions] == [old.revision, new.revision]
    assert [r.status for r in doc.revisions] == ["superseded", "current"]


def test_delete_removes_document_from_search(ingestor, tmp_path, embedder):
    ingestor.ingest_path(write(tmp_path, "msa.txt", CONTRACT), doc_id="msa")
    assert ingestor.store.delete_document("msa")
    assert hybrid_search(
        ingestor.store, embedder, "governing law", SearchFilters(principal=OPERATOR)
    ) == []


@pytest.mark.parametrize(
    ("name", "data", "stage", "error"),
    [
        ("empty.txt", b"", "extracting", "no extractable text"),
        ("blank.txt", b"   \n\n\t  \n", "extracting", "no extractable text"),
        ("sheet.xlsx", b"PK\x03\x04 not really", "extracting", "unsupported type: .xlsx"),
        ("noise.bin", bytes(range(256)) * 4, "extracting", "unsupported type: .bin"),
    ],
)
def test_bad_input_fails_with_reason_and_leaves_no_data(ingestor, tmp_path, name, data, stage, error):
    result = ingestor.ingest_path(write(tmp_path, name, data), doc_id="bad")
    assert (result.status, result.stage, result.error) == ("failed", stage, error)
    doc = ingestor.store.get_document("bad")
    assert (doc.status, doc.stage, doc.error, doc.current_revision) == ("failed", stage, error, None)
    assert chunk_count(ingestor.store) == 0
    assert ingestor.store._db().execute("SELECT count(*) FROM revisions").fetchone()[0] == 0


def test_too_large_fails_before_reading(ingestor, tmp_path):
    path = tmp_path / "huge.txt"
    with path.open("wb") as handle:
        handle.seek(2_000_001)
        handle.write(b"x")
    result = ingestor.ingest_path(path, doc_id="huge")
    assert (result.status, result.stage, result.error) == ("failed", "received", "too large")
    assert chunk_count(ingestor.store) == 0


def test_zip_bomb_docx_fails_without_unpacking(ingestor, tmp_path):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("word/document.xml", b"\0" * 5_000_000)
    result = ingestor.ingest_path(write(tmp_path, "bomb.docx", buffer.getvalue()), doc_id="bomb")
    assert result.status == "failed"
    assert result.error.startswith("too large")
    assert chunk_count(ingestor.store) == 0


def test_failed_new_revision_keeps_the_old_one_searchable(ingestor, tmp_path, embedder):
    good = ingestor.ingest_path(write(tmp_path, "msa.txt", CONTRACT), doc_id="msa")
    bad = ingestor.ingest_path(write(tmp_path, "msa2.txt", b""), doc_id="msa")
    assert bad.status == "failed"
    doc = ingestor.store.get_document("msa")
    assert (doc.status, doc.error, doc.current_revision) == ("failed", "no extractable text", good.revision)
    hits = hybrid_search(ingestor.store, embedder, "Delaware", SearchFilters(principal=OPERATOR))
    assert hits and {h.chunk.revision for h in hits} == {good.revision}
