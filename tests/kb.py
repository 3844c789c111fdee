"""A small knowledge base built by the real ingest pipeline (spaCy, MiniLM) into a real SQLite
file, for tests that ask the subject gate and the evidence machine about it."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from ingest.settings import Settings
from ingest.store.port import Principal
from service.evidence import gate
from service.evidence.machine import run_evidence_query
from service.evidence.models import EvidenceRequest
from service.evidence.subject_class import parse_question

OPERATOR = Principal.local_operator()


class KB:
    def __init__(self, store: Any, embedder: Any, settings: Settings) -> None:
        self.store, self.embedder, self.settings = store, embedder, settings

    def docs(self, question: str) -> tuple[set[str], Any]:
        """The documents of the gate's candidates for ``question``, and the gate's result."""
        sc = parse_question(question)
        result = gate.discover(self.store, OPERATOR, sc, None)
        return {d for c in result.candidates for d in c.doc_ids}, result

    def ask(self, question: str) -> Any:
        return run_evidence_query(
            EvidenceRequest(question=question), OPERATOR,
            store=self.store, embedder=self.embedder, settings=self.settings,
        )


def ingested_kb(tmp_path_factory: pytest.TempPathFactory, embedder: Any, name: str,
                docs: Mapping[str, str]) -> Iterator[KB]:
    """Ingest ``docs`` (doc id -> text, readable by everyone) and yield the KB; for a fixture."""
    from ingest.pipeline import Ingestor
    from ingest.store.sqlite import SqliteStore

    data = tmp_path_factory.mktemp(name)
    settings = Settings(data_dir=data, generator_url=None)
    store = SqliteStore(data / "attest.sqlite3")
    ingestor = Ingestor(store, embedder, settings)
    for doc_id, text in docs.items():
        result = ingestor.ingest_bytes(text.encode(), filename=f"{doc_id}.txt", doc_id=doc_id, acl=["*"])
        assert result.status == "indexed", result.error
    yield KB(store, embedder, settings)
    store.close()
