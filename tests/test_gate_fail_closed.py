"""Fail-closed subject gate on every question path (issue 9): a question that names parties
anywhere must have every one of them bound to the candidate, or be refused with a reason. Real
SQLite store filled by the real ingest pipeline (spaCy, MiniLM); nothing is mocked."""

from __future__ import annotations

from typing import Any, Iterator

import pytest

from service.evidence.class_questions import parse_class_question
from service.evidence.subject_class import named_parties, parse_question
from tests.kb import KB, ingested_kb


def _contract(title: str, first: str, second: str, law: str) -> str:
    return (
        f"{title.upper()}\n\nThis {title} is made by and between {first} (\"First\") and {second} "
        f"(\"Second\").\n\nGoverning Law\n\nThis Agreement shall be governed by the laws of the State of {law}.\n"
    )


DOCS = {
    "supply": _contract("Supply Agreement", "Acme Holdings, Inc.", "Omega Retail LLC", "New York"),
    # Two agreements with one title: a gate that drops the party list passes both.
    "collab-1": _contract("Collaboration Agreement", "Nimbus Therapeutics, Inc.", "Orion Labs LLC", "Delaware"),
    "collab-2": _contract("Collaboration Agreement", "Vega Biosciences Corp.", "Lyra Research LLC", "Texas"),
}
SUPPLY = "agreement:supply agreement@supply"


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory, embedder) -> Iterator[KB]:
    yield from ingested_kb(tmp_path_factory, embedder, "fail-closed-kb", DOCS)


def _refused(report: Any) -> None:
    assert report.state == "SUBJECT_NOT_FOUND"
    assert report.sufficient is False
    assert report.candidate_subjects == [] and report.evidence == [] and report.claims == []
    assert "subject_not_found" in report.risk_signals


# -- hole 1: questions that fit no known shape -----------------------------------------------------


def test_unshaped_question_with_unknown_parties_is_refused(kb: KB) -> None:
    # A "Supply Agreement" is in the KB, its parties are not the named ones: the title alone
    # used to pass the name-only gate.
    question = "Supply Agreement between Zeta Corp and Kappa Holdings LLC: which law governs?"
    assert parse_question(question).understood is False
    report = kb.ask(question)
    assert report.subject_class["parties"] == ["Zeta Corp", "Kappa Holdings LLC"]
    _refused(report)


def test_unshaped_refusal_names_the_parties_in_the_trace(kb: KB) -> None:
    report = kb.ask("Zeta Corp's filings: which law governs?")
    _refused(report)
    assert report.trace[-1].detail == (
        "no registry subject passed the hard gate: none is tied to every named party ('Zeta Corp')"
    )


def test_unshaped_question_naming_an_agreement_is_gated_on_its_title(kb: KB) -> None:
    # A question of no known shape that names an agreement is an agreement question: its exact
    # title and every named party (``subject_class._named_agreement``), never a party alone.
    sc = parse_question("Supply Agreement with Zeta Corp: which law governs?")
    assert (sc.pattern, sc.agreement_title, sc.parties) == ("named_agreement", "Supply Agreement", ["Zeta Corp"])
    report = kb.ask("Supply Agreement with Zeta Corp: which law governs?")
    _refused(report)
    assert report.trace[-1].detail == "no registry subject passed the hard gate"
    assert (
        "No subject named 'Zeta Corp' is visible to you in the registry: check the spelling or the exact legal "
        "name, or ingest a document that names Zeta Corp."
    ) in report.suggested_next_actions


def test_unshaped_question_naming_two_known_parties_never_passes_on_one_of_them(kb: KB) -> None:
    # Both companies are in the registry, but no agreement of that name binds them both: the
    # entities themselves are not the subject of a question naming two parties.
    report = kb.ask("Collaboration Agreement between Acme Holdings, Inc. and Orion Labs LLC: which law governs?")
    _refused(report)


@pytest.mark.parametrize("kind", ["entity_attribute", "entity_role"])
def test_structured_subject_parties_on_a_kind_that_binds_none_are_refused(kind: str) -> None:
    from service.evidence.models import SubjectSpec
    from service.evidence.subject_class import from_spec

    spec = SubjectSpec(kind=kind, name="Acme Holdings, Inc.", parent_entity="Acme Holdings, Inc.", role="founder",
                       attribute="incorporation", parties=["Zeta Corp"])
    sc = from_spec(spec)
    assert sc.failures == [f"parties are named for a {kind} subject, which binds none; use kind agreement_attribute"]
    assert sc.parties == []


def test_structured_party_with_a_curly_quote_is_refused() -> None:
    from service.evidence.models import SubjectSpec
    from service.evidence.subject_class import from_spec

    spec = SubjectSpec(kind="agreement_attribute", agreement_title="Collaboration Agreement", attribute="governing_law",
                       parties=["Nimbus \u201cTherapeutics, Inc.", "Orion Labs LLC"])
    sc = from_spec(spec)
    assert sc.failures == ["stray '\"' in party name 'Nimbus \u201cTherapeutics, Inc.'"]
    assert sc.parties == []


def test_unshaped_question_with_bound_parties_passes(kb: KB) -> None:
    report = kb.ask("Supply Agreement between Acme Holdings, Inc. and Omega Retail LLC: which law governs?")
    assert [c.subject_id for c in report.candidate_subjects] == [SUPPLY]
    # Gated on the title it names and every party (``_named_agreement``), not on the names only.
    assert report.candidate_subjects[0].class_attributes["gate_match"] == "title exact + parties"


@pytest.mark.parametrize(
    ("question", "parties"),
    [
        ("Supply Agreement with Zeta Corp: which law governs?", ["Zeta Corp"]),
        # The agreement it names is its title (``_named_agreement``); the owner must be bound.
        ("Governing law of Supply Agreement, Zeta Corp's copy", ["Zeta Corp"]),
        ("What law governs the Supply Agreement, signed by Zeta Corp?", ["Zeta Corp"]),
        ("What does the Supply Agreement say about Zeta Corp's duties?", ["Zeta Corp"]),
    ],
)
def test_parties_named_anywhere_must_be_bound(kb: KB, question: str, parties: list[str]) -> None:
    report = kb.ask(question)
    assert report.subject_class["parties"] == parties
    _refused(report)


def test_a_named_party_outside_the_list_passes_when_bound(kb: KB) -> None:
    report = kb.ask("What does the Supply Agreement say about Omega Retail LLC's duties?")
    assert report.subject_class["parties"] == ["Omega Retail LLC"]
    assert [c.subject_id for c in report.candidate_subjects] == [SUPPLY]


# -- hole 2: registry questions with a stray quote -------------------------------------------------


@pytest.mark.parametrize(
    ("question", "failure"),
    [
        (
            'Who are the parties to the Collaboration Agreement between Nimbus "Therapeutics, Inc. and Orion Labs LLC?',
            "stray '\"' in party name 'Nimbus \"Therapeutics, Inc.'",
        ),
        (
            'Who are the parties to the COLLABORATION AGREEMENT between Nimbus "Therapeutics" Inc. and Orion Labs LLC?',
            "stray '\"' in party name 'Nimbus \"Therapeutics\" Inc.'",
        ),
        (
            "Who are the parties to the Collaboration Agreement between Nimbus \u201cTherapeutics, Inc. and Orion Labs LLC?",
            "stray '\"' in party name 'Nimbus \"Therapeutics, Inc.'",
        ),
        (
            "Which agreements is Nimbus \u201cTherapeutics, Inc. a party to?",
            "stray '\"' in party name 'Nimbus \u201cTherapeutics, Inc.'",
        ),
        (
            'Which agreements is Nimbus "Therapeutics, Inc. a party to?',
            "stray '\"' in party name 'Nimbus \"Therapeutics, Inc.'",
        ),
    ],
)
def test_registry_question_with_a_stray_quote_fails_closed(kb: KB, question: str, failure: str) -> None:
    # Both COLLABORATION AGREEMENTs used to pass on the title (ambiguous_subject, two citations).
    report = kb.ask(question)
    _refused(report)
    assert "ambiguous_subject" not in report.risk_signals
    assert report.subject_class["failures"] == [failure]
    assert report.trace[-1].detail == failure


def test_registry_question_binds_every_named_party(kb: KB) -> None:
    refused = kb.ask("Who are the parties to Supply Agreement between Zeta Corp and Kappa Holdings LLC?")
    _refused(refused)
    found = kb.ask("Who are the parties to the Collaboration Agreement between Nimbus Therapeutics, Inc. and Orion Labs LLC?")
    assert [c.subject_id for c in found.candidate_subjects] == ["agreement:collaboration agreement@collab-1"]
    assert found.state == "CONCLUDED"
    assert sorted(c.value["name"] for c in found.claims) == ["Nimbus Therapeutics, Inc.", "Orion Labs LLC"]


# -- class (table) questions -----------------------------------------------------------------------


def test_class_question_naming_parties_is_refused(kb: KB) -> None:
    question = "Which agreements with Zeta Corp are governed by New York law?"
    failure = (
        "the question names parties ('Zeta Corp'), which a table over every agreement cannot bind: "
        "ask about the agreement by its title and parties"
    )
    assert parse_class_question(question).failures == (failure,)
    report = kb.ask(question)
    _refused(report)
    assert report.table is None
    assert report.trace[-1].detail == failure
    # Without a party the same question is a class question over the whole KB.
    assert kb.ask("Which agreements are governed by New York law?").state == "CONCLUDED"


# -- the reader ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "parties"),
    [
        # A possessive or a capitalised word inside a listed name is part of it (CUAD names).
        (
            "What law governs the ENDORSEMENT AGREEMENT between ABG-Shaq, LLC and Papa John's Marketing Fund, Inc?",
            ["ABG-Shaq, LLC", "Papa John's Marketing Fund, Inc"],
        ),
        (
            "What law governs the DEVELOPMENT AGREEMENT between Sekisui Diagnostics, LLC and its Affiliates and "
            "Qualigen, Inc. and its Affiliates?",
            ["Sekisui Diagnostics, LLC", "Qualigen, Inc."],
        ),
        # Title words read after the title ("Contract Identification FT18150") are not a name.
        (
            "Does Great Lakes Gas Transmission Limited Partnership's TRANSPORTATION SERVICE AGREEMENT Contract "
            "Identification FT18150 with ANR PIPELINE COMPANY contain a non-compete clause?",
            ["Great Lakes Gas Transmission Limited Partnership", "ANR PIPELINE COMPANY"],
        ),
    ],
)
def test_names_inside_the_list_or_title_are_not_extra_parties(question: str, parties: list[str]) -> None:
    sc = parse_question(question)
    assert (sc.parties, sc.failures) == (parties, [])


@pytest.mark.parametrize(
    ("text", "pieces", "failures"),
    [
        ("Supply Agreement between Acme Holdings, Inc. and Zeta Corp: which law governs", ["Acme Holdings, Inc.", "Zeta Corp"], []),
        ("Does Acme's Supply Agreement cap liability", ["Acme"], []),
        # A capitalised owner is a name, defined term or not: it must be bound (or refused).
        ("What is the Company's duty under the Supply Agreement", ["Company"], []),
        ("What happens with the termination fee", [], []),
        ("Supply Agreement between Back to Basics, Inc. and Zeta Corp, which law", ["Back", "Basics, Inc.", "Zeta Corp"], []),
        ('Supply Agreement between Zeta "Corp: which law', [], ["stray '\"' in party name 'Zeta \"Corp'"]),
        ("Supply Agreement between Zeta Corp (: which law", [], ["unbalanced parenthesis in party name 'Zeta Corp ('"]),
    ],
)
def test_named_parties_reads_every_name_or_fails(text: str, pieces: list[str], failures: list[str]) -> None:
    read = named_parties(text)
    assert (read.pieces, read.failures) == (pieces, failures)
