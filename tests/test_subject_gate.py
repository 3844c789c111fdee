"""The subject gate of issue 9 over a real SQLite store filled by the real ingest pipeline (spaCy,
MiniLM): fail-closed question parsing, duplicates, amendments, near-miss suggestions."""

from __future__ import annotations

from typing import Any, Iterator

import pytest

from ingest.settings import Settings
from ingest.store.port import Principal
from service.evidence import gate
from service.evidence.machine import run_evidence_query
from service.evidence.models import EvidenceRequest, SubjectSpec
from service.evidence.subject_class import parse_question

OPERATOR = Principal.local_operator()

_IP = (
    "INTELLECTUAL PROPERTY AGREEMENT\n\nThis Intellectual Property Agreement is made by and between "
    "Acme Holdings, Inc. (\"Acme\") and Omega Retail LLC (\"Omega\").\n\nGoverning Law\n\n"
    "This Agreement shall be governed by the laws of the State of New York.\n"
)
_COOP = _IP.replace("INTELLECTUAL PROPERTY AGREEMENT", "COOPERATION AGREEMENT").replace(
    "Intellectual Property Agreement", "Cooperation Agreement"
)
_SERVICE = _IP.replace("INTELLECTUAL PROPERTY AGREEMENT", "SERVICE AGREEMENT").replace(
    "Intellectual Property Agreement", "Service Agreement"
)
DOCS: dict[str, str] = {
    "ip": _IP,
    "coop": _COOP,
    "service": _SERVICE,
    "supply-copy-1": (
        "SUPPLY AGREEMENT\n\nThis Supply Agreement is made by and between Stratton, Cheeseman & "
        "Walsh-Nevada, Inc., a Nevada corporation (\"SCW\"), and Alliance Bancorp, Inc. of Pennsylvania "
        "(\"Alliance\").\n\nGoverning Law\n\nThis Agreement shall be governed by the laws of the State of Nevada.\n"
    ),
    "mfg": (
        "MANUFACTURING AGREEMENT\n\nThis Manufacturing Agreement is made by and between Columbia "
        "Laboratories (Bermuda) Ltd. (\"Columbia\") and Fleet Laboratories Limited (\"Fleet\").\n\n"
        "Governing Law\n\nThis Agreement shall be governed by the laws of England.\n"
    ),
    "mfg-amendment-1": (
        "AMENDMENT NO. 1 TO THE MANUFACTURING AGREEMENT\n\nThis Amendment No. 1 is made by and between "
        "Columbia Laboratories (Bermuda) Ltd. (\"Columbia\") and Fleet Laboratories Limited (\"Fleet\").\n\n"
        "Governing Law\n\nThis Amendment shall be governed by the laws of the State of Delaware.\n"
    ),
    "bellicum": (
        "LICENSE AGREEMENT\n\nThis License Agreement is made by and between Bellicum Pharmaceuticals, Inc. "
        "(\"Bellicum\") and Baylor College of Medicine (\"BCM\").\n\nGoverning Law\n\n"
        "This Agreement shall be governed by the laws of the State of Texas.\n"
    ),
}
DOCS["hosting"] = (
    "HOSTING AGREEMENT\n\nThis Hosting Agreement is made by and between Love at First Sight, Inc. (\"MIN\") and "
    "Omega Retail LLC (\"Omega\").\n\nGoverning Law\n\nThis Agreement shall be governed by the laws of the "
    "State of Oregon.\n"
)
DOCS["supply-copy-2"] = DOCS["supply-copy-1"]  # an executed copy filed twice


class KB:
    def __init__(self, store: Any, embedder: Any, settings: Settings) -> None:
        self.store, self.embedder, self.settings = store, embedder, settings

    def ask(self, question: str, **kwargs: Any):
        return run_evidence_query(
            EvidenceRequest(question=question, **kwargs), OPERATOR,
            store=self.store, embedder=self.embedder, settings=self.settings,
        )


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory, embedder) -> Iterator[KB]:
    from ingest.pipeline import Ingestor
    from ingest.store.sqlite import SqliteStore

    data = tmp_path_factory.mktemp("gate-kb")
    settings = Settings(data_dir=data, generator_url=None)
    store = SqliteStore(data / "attest.sqlite3")
    ingestor = Ingestor(store, embedder, settings)
    for doc_id, text in DOCS.items():
        # The duplicate gets different bytes (a trailing newline) so it is its own revision.
        body = text + ("\n" if doc_id.endswith("-2") else "")
        result = ingestor.ingest_bytes(body.encode(), filename=f"{doc_id}.txt", doc_id=doc_id, acl=["*"])
        assert result.status == "indexed", result.error
    yield KB(store, embedder, settings)
    store.close()


# -- the three fail-open questions of issue 9 ------------------------------------------------------

FAIL_OPEN = [
    (
        "What law governs the Intellectual Property Agreement, D between HONEYWELL INTERNATIONAL INC. and "
        "GARRETT MOTION INC.?",
        "the question names parties after 'Intellectual Property Agreement', but ', D' between the title "
        "and the party list is neither title nor party names",
    ),
    (
        "What law governs the Cooperation Agreement ( between e.l.f. Beauty, Inc. and Marathon Partners L.P.?",
        "the question names parties after 'Cooperation Agreement', but '(' between the title and the party "
        "list is neither title nor party names",
    ),
]

BLACKSTONE = (
    "What law governs the Service Agreement For Transfer Agent Services between Blackstone / GSO "
    "Long-Short Credit Income Fund and Mellon Investor Services LLC?"
)


@pytest.mark.parametrize(("question", "reason"), FAIL_OPEN)
def test_fail_open_questions_of_issue_9_fail_closed(kb: KB, question: str, reason: str) -> None:
    # The KB holds an agreement with each of these titles, so a title-only fallback would pass.
    report = kb.ask(question)
    assert report.state == "SUBJECT_NOT_FOUND"
    assert report.sufficient is False
    assert report.candidate_subjects == [] and report.evidence == []
    assert report.subject_class["failures"] == [reason]
    assert report.trace[-1].detail == reason
    assert report.suggested_next_actions[0] == (
        f"The question's subject could not be read, so no subject was looked up: {reason}."
    )


def test_a_slash_name_is_kept_whole_and_must_be_bound_exactly(kb: KB) -> None:
    # Issue 9's third fail-open question: the parser used to drop this party list and pass on the
    # title. A spaced " / " separates like "and" (the gate may re-join across it: "Blackstone /
    # GSO ..."), and every name must be bound to the agreement: none is.
    report = kb.ask(BLACKSTONE)
    assert report.subject_class["parties"] == [
        "Blackstone", "GSO Long-Short Credit Income Fund", "Mellon Investor Services LLC",
    ]
    assert report.state == "SUBJECT_NOT_FOUND"
    assert report.sufficient is False
    assert report.candidate_subjects == [] and report.evidence == [] and report.claims == []
    # The title alone is in the KB, so a title-only fallback would have passed. ("... Service
    # Agreement For Transfer Agent Services?" is refused: "Transfer Agent Services" is a
    # capitalised name outside the title the parser reads, and every such name must be bound.)
    title_only = kb.ask("What law governs the Service Agreement?")
    assert title_only.state != "SUBJECT_NOT_FOUND"


def test_title_only_questions_still_pass(kb: KB) -> None:
    # The same titles without a party list are legitimate questions.
    report = kb.ask("What law governs the Intellectual Property Agreement?")
    assert [c.subject_id for c in report.candidate_subjects] == ["agreement:intellectual property agreement@ip"]


def test_structured_subject_with_stray_punctuation_fails_closed(kb: KB) -> None:
    subject = SubjectSpec(
        kind="agreement_attribute", agreement_title="Service Agreement", attribute="governing_law",
        parties=["Acme Holdings, Inc. (", "Omega Retail LLC"],
    )
    report = kb.ask("governing law", subject=subject)
    assert report.state == "SUBJECT_NOT_FOUND"
    assert report.subject_class["failures"] == ["unbalanced parenthesis in party name 'Acme Holdings, Inc. ('"]


def test_party_names_with_commas_ampersands_and_of_pass(kb: KB) -> None:
    report = kb.ask(
        "What law governs the Supply Agreement between Stratton, Cheeseman & Walsh-Nevada, Inc. and "
        "Alliance Bancorp, Inc. of Pennsylvania?"
    )
    assert report.state == "CONCLUDED"
    ids = sorted(c.subject_id for c in report.candidate_subjects)
    # Two executed copies: two candidates, never merged, and the report says so.
    assert ids == ["agreement:supply agreement@supply-copy-1", "agreement:supply agreement@supply-copy-2"]
    assert "multiple_candidates" in report.risk_signals


def test_a_wrong_name_among_right_ones_fails(kb: KB) -> None:
    sc = parse_question(
        "What law governs the Supply Agreement between Stratton, Cheeseman & Walsh-Nevada, Inc. and "
        "Alliance Bancorp, Inc. of Ohio?"
    )
    result = gate.discover(kb.store, OPERATOR, sc, None)
    assert result.candidates == []
    assert any("'Inc. of Ohio'" in r["reason"] for r in result.rejected)


# -- where the party list ends (the readings of subject_class.party_readings) -------------------------


def _gate(kb: KB, question: str) -> tuple[gate.GateResult, Any]:
    sc = parse_question(question)
    return gate.discover(kb.store, OPERATOR, sc, None), sc


@pytest.mark.parametrize(
    "question",
    [
        "Can a party assign the Intellectual Property Agreement between Acme Holdings, Inc. and Omega Retail LLC "
        "without consent?",
        "When does the Intellectual Property Agreement between Acme Holdings, Inc. and Omega Retail LLC begin, "
        "and when does it end?",
        "Under the Intellectual Property Agreement between Acme Holdings, Inc. and Omega Retail LLC, who pays for "
        "shipping?",
        "In Acme Holdings, Inc.'s Intellectual Property Agreement with Omega Retail LLC, which law applies?",
        "Does the Intellectual Property Agreement with Omega Retail LLC allow assignment?",
        "Acme Holdings, Inc. and Omega Retail LLC signed an Intellectual Property Agreement; what law governs it?",
    ],
)
def test_question_words_after_the_names_are_not_names(kb: KB, question: str) -> None:
    result, sc = _gate(kb, question)
    assert [c.subject_id for c in result.candidates] == ["agreement:intellectual property agreement@ip"]
    assert sc.party_readings == []  # the gate wrote the bound reading back
    assert sc.parties in (["Acme Holdings, Inc.", "Omega Retail LLC"], ["Omega Retail LLC"])


def test_a_cut_never_leaves_out_a_name(kb: KB) -> None:
    # "at" may end a party list, but not here: the words after it name a party ("First Sight,
    # Inc."), so the reading "Love" is never offered, even though ingest (this round) bound a
    # party named just "Love" to this agreement. Either the full name is bound or nothing passes.
    result, sc = _gate(kb, "Does the Hosting Agreement between Love at First Sight, Inc. and Omega Retail LLC renew?")
    assert "Love" not in sc.parties
    if result.candidates:
        assert sc.parties == ["Love at First Sight, Inc.", "Omega Retail LLC"]
    else:
        assert any("'Love at First Sight, Inc.'" in r["reason"] for r in result.rejected)


@pytest.mark.parametrize(
    ("question", "unbound"),
    [
        # A name before the question's own words still has to be bound.
        ("Can a party assign the Intellectual Property Agreement between Acme Holdings, Inc. and Omega Retail LLC "
         "and Zeta Corp without consent?", "'Zeta Corp'"),
        ("In Zeta Corp's Intellectual Property Agreement with Omega Retail LLC, which law applies?", "'Zeta Corp'"),
        ("Does the Intellectual Property Agreement between Acme Holdings, Inc. and Omega Retail LLC on behalf of "
         "Zeta Corp allow assignment?", "'Omega Retail LLC on behalf of Zeta Corp'"),
        # A company named before the title is a party too: no title-only look-up.
        ("Zeta Corp signed an Intellectual Property Agreement; what law governs it?", "'Zeta Corp'"),
    ],
)
def test_a_reading_never_drops_a_named_party(kb: KB, question: str, unbound: str) -> None:
    result, _ = _gate(kb, question)
    assert result.candidates == []
    assert any(r["subject_id"] == "agreement:intellectual property agreement@ip" and unbound in r["reason"]
               for r in result.rejected)


@pytest.mark.parametrize("question", [question for question, _ in FAIL_OPEN] + [BLACKSTONE])
def test_fail_open_questions_stay_closed_with_trailing_words(kb: KB, question: str) -> None:
    result, _ = _gate(kb, question.rstrip("?") + " without consent?")
    assert result.candidates == []


# -- amendments -------------------------------------------------------------------------------------


def test_amendment_question_binds_to_the_amendment_only(kb: KB) -> None:
    report = kb.ask(
        "What law governs the Amendment No. 1 to the Manufacturing Agreement between Columbia Laboratories "
        "(Bermuda) Ltd. and Fleet Laboratories Limited?"
    )
    assert [c.subject_id for c in report.candidate_subjects] == [
        "agreement:amendment no 1 to the manufacturing agreement@mfg-amendment-1"
    ]
    assert [c.value for c in report.claims] == [{"type": "jurisdiction", "value": "delaware"}]


def test_parent_question_never_binds_to_the_amendment(kb: KB) -> None:
    report = kb.ask(
        "What law governs the Manufacturing Agreement between Columbia Laboratories (Bermuda) Ltd. and "
        "Fleet Laboratories Limited?"
    )
    assert [c.subject_id for c in report.candidate_subjects] == ["agreement:manufacturing agreement@mfg"]


def test_other_amendment_number_is_not_found(kb: KB) -> None:
    report = kb.ask(
        "What law governs the Amendment No. 2 to the Manufacturing Agreement between Columbia Laboratories "
        "(Bermuda) Ltd. and Fleet Laboratories Limited?"
    )
    assert report.state == "SUBJECT_NOT_FOUND"


def test_amendment_binding_is_in_the_registry(kb: KB) -> None:
    [amendment] = kb.store.find_subjects(OPERATOR, relation="amends", parent_id="agreement:manufacturing agreement")
    assert amendment.subject_id == "agreement:amendment no 1 to the manufacturing agreement@mfg-amendment-1"


# -- near misses --------------------------------------------------------------------------------------


def test_near_miss_names_are_suggested_never_used(kb: KB) -> None:
    report = kb.ask(
        "What law governs the License Agreement between Bellicum Pharmaceutical, Inc. and Baylor College of Medicine?"
    )
    assert report.state == "SUBJECT_NOT_FOUND"
    assert report.candidate_subjects == [] and report.claims == []
    assert (
        "Did you mean 'Bellicum Pharmaceuticals, Inc.'? (a registry name close to one you gave; not used to answer)"
        in report.suggested_next_actions
    )


@pytest.mark.parametrize(
    ("spec", "failure"),
    [
        (
            {"kind": "entity_role", "role": "founder", "parent_entity": "Acme | Beta Holdings"},
            "stray '|' in party name 'Acme | Beta Holdings'",
        ),
        (
            {"kind": "agreement_attribute", "agreement_title": "Supply Agreement (", "attribute": "governing_law",
             "parties": ["Acme Holdings, Inc."]},
            "unbalanced parenthesis in agreement title 'Supply Agreement ('",
        ),
        (
            {"kind": "agreement_attribute", "agreement_title": "Supply Agreement", "attribute": "governing_law",
             "parties": ["Acme Holdings, Inc.", 'Beta "LLC']},
            "stray '\"' in party name 'Beta \"LLC'",
        ),
    ],
)
def test_structured_subject_names_fail_closed(spec: dict, failure: str) -> None:
    from service.evidence.subject_class import from_spec

    sc = from_spec(SubjectSpec(**spec))
    assert sc.failures == [failure]
    assert sc.parties == []



# -- amendment numbers (titles.amendment_key) ---------------------------------------------------------


@pytest.mark.parametrize(
    ("title", "word", "number", "parent"),
    [
        ("First Amendment", "amendment", 1, None),
        ("AMENDMENT 1 TO DEVELOPMENT AGREEMENT", "amendment", 1, "development agreement"),
        ("Amendment No. 2 to the Supply Agreement", "amendment", 2, "supply agreement"),
        ("Second Amendment to Supply Agreement", "amendment", 2, "supply agreement"),
        ("Amendment No. II", "amendment", 2, None),
        ("FIRST AMENDMENT TO LEASE", "amendment", 1, "lease"),
        ("Schedule 4", "schedule", 4, None),
    ],
)
def test_amendment_numbers_compare_alike(title: str, word: str, number: int, parent: str | None) -> None:
    from service.evidence.titles import AmendmentKey, amendment_key

    assert amendment_key(title) == AmendmentKey(word, number, parent)
    assert amendment_key("Supply Agreement") is None


@pytest.mark.parametrize(
    ("title", "found"),
    [
        ("First Amendment", True),
        ("Amendment No. I", True),
        ("Amendment 1", True),
        ("Second Amendment", False),
        ("First Addendum", False),
        ("First Amendment to the Supply Agreement", False),
    ],
)
def test_an_amendment_named_by_its_number_needs_its_parties(kb: KB, title: str, found: bool) -> None:
    parties = "between Columbia Laboratories (Bermuda) Ltd. and Fleet Laboratories Limited"
    result, _ = _gate(kb, f"What law governs the {title} {parties}?")
    expected = ["agreement:amendment no 1 to the manufacturing agreement@mfg-amendment-1"] if found else []
    assert [c.subject_id for c in result.candidates] == expected
    # Without parties a bare number is not enough.
    result, _ = _gate(kb, f"What law governs the {title}?")
    assert result.candidates == []
