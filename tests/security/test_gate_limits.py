"""Issue 11 item 2 (gate side): one request must not pin a core. Party lists are capped and the
gate's party matching is linear, so a structured subject with 2,000 parties and a 2,000-character
question naming 320 parties end in well under 2 s of CPU with a clear reason.

Real components: a SQLite store filled by the real ingest pipeline (spaCy, MiniLM). On the old
code these requests ran for seconds to minutes; a wall-clock alarm turns that into a failure
instead of a hang.
"""

from __future__ import annotations

import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from pydantic import ValidationError

from ingest.settings import Settings
from ingest.store.port import Principal
from service.evidence import models
from service.evidence.machine import run_evidence_query
from service.evidence.models import EvidenceRequest, SubjectSpec

OPERATOR = Principal.local_operator()
CPU_BUDGET_S = 2.0
# The documented limits (service/data/question_patterns.json "limits"); written out so this test
# also runs, and fails, against code that has none.
MAX_PARTIES = 16
MAX_NAMES = 32
_WORDS = "Alpha Bravo Charlie Delta Echo Foxtrot Golf Hotel India Juliett Kilo Lima Mike November Oscar Papa Quebec".split()
PARTIES = [f"{word} Holdings LLC" for word in _WORDS[:16]]
TEXT = (
    "SUPPLY AGREEMENT\n\nThis Supply Agreement is made by and among "
    + ", ".join(f'{name} ("P{i}")' for i, name in enumerate(PARTIES[:-1]))
    + f' and {PARTIES[-1]} ("P15").\n\nGoverning Law\n\nThis Agreement shall be governed by the laws of the State of Ohio.\n'
)


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory, embedder) -> Iterator[tuple[Any, Any, Settings]]:
    from ingest.pipeline import Ingestor
    from ingest.store.sqlite import SqliteStore

    data = tmp_path_factory.mktemp("gate-limits")
    settings = Settings(data_dir=data, generator_url=None)
    store = SqliteStore(data / "attest.sqlite3")
    result = Ingestor(store, embedder, settings).ingest_bytes(
        TEXT.encode(), filename="supply.txt", doc_id="supply", acl=["*"]
    )
    assert result.status == "indexed", result.error
    yield store, embedder, settings
    store.close()


@contextmanager
def _alarm(seconds: int) -> Iterator[None]:
    def fail(signum: int, frame: Any) -> None:
        raise TimeoutError(f"request still running after {seconds}s")

    previous = signal.signal(signal.SIGALRM, fail)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def _ask(kb: tuple[Any, Any, Settings], request: EvidenceRequest) -> tuple[Any, float]:
    store, embedder, settings = kb
    with _alarm(20):
        started = time.process_time()
        report = run_evidence_query(request, OPERATOR, store=store, embedder=embedder, settings=settings)
        return report, time.process_time() - started


def test_structured_subject_with_2000_parties_fails_fast(kb) -> None:
    fields = dict(
        kind="agreement_attribute", agreement_title="Supply Agreement", attribute="governing_law",
        parties=[f"Party {i} Holdings LLC" for i in range(2000)],
    )
    with pytest.raises(ValidationError, match="at most 16 items"):
        SubjectSpec(**fields)  # the API's 422
    # The gate holds its own limit too, for callers that build a subject without validation.
    subject = SubjectSpec.model_construct(**fields)
    report, cpu = _ask(kb, EvidenceRequest(question="governing law", subject=subject))
    assert cpu < CPU_BUDGET_S
    assert report.state == "SUBJECT_NOT_FOUND"
    assert report.subject_class["failures"] == ["too many party names (2000 > 16); name at most 16"]


def test_question_naming_320_parties_fails_fast(kb) -> None:
    names = ", ".join(f"Q{i}" for i in range(319)) + " and Q319"
    question = f"What law governs the Supply Agreement between {names}?"
    assert len(question) <= 2000
    report, cpu = _ask(kb, EvidenceRequest(question=question))
    assert cpu < CPU_BUDGET_S
    assert report.state == "SUBJECT_NOT_FOUND"
    assert report.subject_class["failures"] == ["too many party names (320 > 16); name at most 16"]


def test_at_the_bound_every_party_is_matched(kb) -> None:
    assert MAX_PARTIES == len(PARTIES)
    question = f"What law governs the Supply Agreement among {', '.join(PARTIES[:-1])} and {PARTIES[-1]}?"
    report, cpu = _ask(kb, EvidenceRequest(question=question))
    assert cpu < CPU_BUDGET_S
    assert [c.subject_id for c in report.candidate_subjects] == ["agreement:supply agreement@supply"]
    structured = SubjectSpec(
        kind="agreement_attribute", agreement_title="Supply Agreement", attribute="governing_law",
        parties=PARTIES,
    )
    report, cpu = _ask(kb, EvidenceRequest(question="governing law", subject=structured))
    assert cpu < CPU_BUDGET_S
    assert [c.subject_id for c in report.candidate_subjects] == ["agreement:supply agreement@supply"]


def test_one_over_the_bound_fails_with_the_reason(kb) -> None:
    extra = [*PARTIES, f"{_WORDS[16]} Holdings LLC"]
    question = f"What law governs the Supply Agreement among {', '.join(extra[:-1])} and {extra[-1]}?"
    report, _ = _ask(kb, EvidenceRequest(question=question))
    assert report.state == "SUBJECT_NOT_FOUND"
    assert report.subject_class["failures"] == ["too many party names (17 > 16); name at most 16"]


def test_unparsed_question_with_many_names_is_capped(kb) -> None:
    cap = MAX_NAMES
    question = "Tell me about " + " ".join(f"Name{i} Co" for i in range(cap + 1))
    report, cpu = _ask(kb, EvidenceRequest(question=question))
    assert cpu < CPU_BUDGET_S
    assert report.state == "SUBJECT_NOT_FOUND"


def test_unshaped_question_at_the_party_bound_passes_and_one_over_fails(kb) -> None:
    # A question that fits no shape keeps the parties it names; all 16 are bound to the agreement.
    question = f"Supply Agreement among {', '.join(PARTIES[:-1])} and {PARTIES[-1]}: which law governs?"
    report, cpu = _ask(kb, EvidenceRequest(question=question))
    assert cpu < CPU_BUDGET_S
    assert report.subject_class["parties"] == PARTIES
    assert [c.subject_id for c in report.candidate_subjects] == ["agreement:supply agreement@supply"]
    extra = [*PARTIES, f"{_WORDS[16]} Holdings LLC"]
    question = f"Supply Agreement among {', '.join(extra[:-1])} and {extra[-1]}: which law governs?"
    report, _ = _ask(kb, EvidenceRequest(question=question))
    assert report.state == "SUBJECT_NOT_FOUND"
    assert report.subject_class["failures"] == ["too many party names (17 > 16); name at most 16"]


def test_question_with_a_party_keyword_in_every_phrase_fails_fast(kb) -> None:
    # Every "with" opens a party list to read: 2,000 characters of them stay linear in effect.
    question = "Tell me " + " ".join(f"with W{i} Co" for i in range(180))
    question = question[: question.rfind(" with", 0, 2000)]
    assert len(question) <= 2000
    report, cpu = _ask(kb, EvidenceRequest(question=question))
    assert cpu < CPU_BUDGET_S
    assert report.state == "SUBJECT_NOT_FOUND"
    # "with" does not split a list, so the first one reads everything after it: too long a name.
    assert report.subject_class["failures"][0] == (
        "party name longer than 200 characters: 'W0 Co with W1 Co with W2 Co with W3 Co w'..."
    )


def test_documented_limits_match_the_data() -> None:
    from service.evidence.data import question_patterns

    assert question_patterns()["limits"] == {"parties": MAX_PARTIES, "name_chars": 200, "names": MAX_NAMES, "party_readings": 6, "possessive_markers": 4}
    assert (models.MAX_PARTIES, models.MAX_NAME_CHARS) == (MAX_PARTIES, 200)
