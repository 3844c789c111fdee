"""Questions about contracts titled without an agreement word (issue 9, question side): the parser
reads instrument titles ("Guaranty", "Statement of Work No. 4", "Memorandum of Understanding")
from ingest's own lists (ner_models/agreement_kinds.json) and question_patterns.json, so such a
question is gated on its title and every named party, never through the name-only gate. Real
SQLite store filled by the real ingest pipeline (spaCy, MiniLM); nothing is mocked."""

from __future__ import annotations

from typing import Any, Iterator

import pytest

from service.evidence.data import instrument_phrases, question_patterns
from service.evidence.subject_class import parse_question
from tests.kb import KB, ingested_kb


@pytest.mark.parametrize(
    ("question", "pattern", "title", "parties"),
    [
        ("What law governs the Guaranty between Acme Holdings, Inc. and Omega Retail LLC?",
         "agreement_attribute_instrument", "Guaranty", ["Acme Holdings, Inc.", "Omega Retail LLC"]),
        ("What law governs the Statement of Work No. 4 between Acme Holdings, Inc. and Omega Retail LLC?",
         "agreement_attribute_instrument", "Statement of Work No. 4", ["Acme Holdings, Inc.", "Omega Retail LLC"]),
        ("When does the MEMORANDUM OF UNDERSTANDING with Omega Retail LLC end?",
         "agreement_attribute_instrument", "MEMORANDUM OF UNDERSTANDING", ["Omega Retail LLC"]),
        # Lower case: a title only right before a party keyword.
        ("what law governs the memorandum of understanding between Acme Holdings, Inc. and Omega Retail LLC",
         "agreement_attribute_instrument", "memorandum of understanding", ["Acme Holdings, Inc.", "Omega Retail LLC"]),
        ("Is there a cap on liability in the Amended and Restated Terms and Conditions with Omega Retail LLC?",
         "agreement_attribute_instrument", "Amended and Restated Terms and Conditions", ["Omega Retail LLC"]),
        ("What law governs the Promissory Note between Acme Holdings, Inc. and Omega Retail LLC?",
         "agreement_attribute_instrument", "Promissory Note", ["Acme Holdings, Inc.", "Omega Retail LLC"]),
        ("In Acme Holdings, Inc.'s Indenture with Omega Retail LLC, who is the trustee?",
         "agreement_attribute_possessive_instrument", "Indenture", ["Acme Holdings, Inc.", "Omega Retail LLC"]),
        ("Which state's law applies to the Office Lease between Acme Holdings, Inc. and Omega Retail LLC?",
         "agreement_attribute_instrument", "Office Lease", ["Acme Holdings, Inc.", "Omega Retail LLC"]),
        # A title with an agreement word still reads through the agreement shape first.
        ("What law governs the Letter Agreement between Acme Holdings, Inc. and Omega Retail LLC?",
         "agreement_attribute", "Letter Agreement", ["Acme Holdings, Inc.", "Omega Retail LLC"]),
    ],
)
def test_instrument_titles_are_read_with_their_parties(question: str, pattern: str, title: str, parties: list[str]) -> None:
    sc = parse_question(question)
    assert (sc.pattern, sc.agreement_title, sc.parties, sc.failures) == (pattern, title, parties, [])


@pytest.mark.parametrize(
    "question",
    [
        # Common nouns in lower case, not before a party keyword: no title.
        "Is the license exclusive?",
        "What is the guarantee period?",
        "Does the plan cover dental care?",
    ],
)
def test_common_nouns_are_no_instrument_titles(question: str) -> None:
    sc = parse_question(question)
    assert (sc.kind, sc.agreement_title) == (None, None)


def test_a_capitalised_word_after_the_instrument_word_is_no_title() -> None:
    # "the Plan Administrator" is a role, not a "Plan": the title is the Guaranty named after it.
    sc = parse_question("Who is the Plan Administrator under the Guaranty with Omega Retail LLC?")
    assert (sc.pattern, sc.agreement_title, sc.parties) == ("agreement_attribute_instrument", "Guaranty", ["Omega Retail LLC"])


def test_instrument_title_with_stray_punctuation_fails_closed() -> None:
    sc = parse_question("What law governs the Guaranty, D between Acme Holdings, Inc. and Omega Retail LLC?")
    assert sc.pattern == "agreement_attribute_instrument"
    assert sc.failures == [
        "the question names parties after 'Guaranty', but ', D' between the title and the party list is neither "
        "title nor party names"
    ]
    assert sc.parties == []


def test_instrument_words_come_from_ingest_and_the_question_side() -> None:
    from ingest.lexicons import load_json

    phrases = set(instrument_phrases(question_patterns()))
    kinds = load_json("agreement_kinds.json")
    assert set(kinds["instrument_titles"]) <= phrases  # ingest's list, read-only here
    assert {"statement of work", "work order"} <= phrases  # ingest's own-heading words
    assert {"plan", "terms and conditions", "promissory note"} <= phrases  # question side
    # Longest first, so "promissory note" is tried before "note".
    assert instrument_phrases(question_patterns()).index("promissory note") < instrument_phrases(question_patterns()).index("note")


def _contract(heading: str, title: str, first: str, second: str, law: str) -> str:
    return (
        f"{heading}\n\nThis {title} is made by and between {first} (\"First\") and {second} "
        f"(\"Second\").\n\nGoverning Law\n\nThis {title} shall be governed by the laws of the State of {law}.\n"
    )


DOCS = {
    "guaranty": _contract("GUARANTY", "Guaranty", "Acme Holdings, Inc.", "Omega Retail LLC", "New York"),
    "mou": _contract("MEMORANDUM OF UNDERSTANDING", "Memorandum of Understanding", "Nimbus Therapeutics, Inc.",
                     "Orion Labs LLC", "Delaware"),
}


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory, embedder) -> Iterator[KB]:
    yield from ingested_kb(tmp_path_factory, embedder, "instrument-kb", DOCS)


def _subject_ids(report: Any) -> list[str]:
    return [c.subject_id for c in report.candidate_subjects]


@pytest.mark.slow
def test_instrument_questions_pass_on_title_and_parties_and_refuse_otherwise(kb: KB) -> None:
    docs, result = kb.docs("What law governs the Guaranty between Acme Holdings, Inc. and Omega Retail LLC?")
    assert docs == {"guaranty"}
    assert [c.match for c in result.candidates] == ["title exact + parties"]
    docs, _ = kb.docs("When does the memorandum of understanding between Nimbus Therapeutics, Inc. and Orion Labs LLC end?")
    assert docs == {"mou"}
    # The Guaranty's parties with another instrument's title: once gated on the names only (any
    # agreement bound to both passed), now the title must match too.
    docs, result = kb.docs("What law governs the Promissory Note between Acme Holdings, Inc. and Omega Retail LLC?")
    assert docs == set() and result.failures == []
    # The right title with a party it does not bind.
    docs, result = kb.docs("What law governs the Guaranty between Acme Holdings, Inc. and Orion Labs LLC?")
    assert docs == set()
    assert sorted(r["reason"] for r in result.rejected) == [
        "no party_to binding to this agreement for 'Orion Labs LLC'",
        "title 'MEMORANDUM OF UNDERSTANDING' does not match 'Guaranty'",
    ]
    report = kb.ask("What law governs the Guaranty between Acme Holdings, Inc. and Orion Labs LLC?")
    assert report.state == "SUBJECT_NOT_FOUND" and _subject_ids(report) == []


@pytest.mark.slow
def test_dash_joined_parties_before_an_instrument_title(kb: KB) -> None:
    docs, _ = kb.docs("What law governs the Acme Holdings, Inc.\u2013Omega Retail LLC Guaranty?")
    assert docs == {"guaranty"}
    # A party the Guaranty does not bind: no reading passes, and the title as written is no title.
    docs, _ = kb.docs("What law governs the Acme Holdings, Inc. - Orion Labs LLC Guaranty?")
    assert docs == set()
