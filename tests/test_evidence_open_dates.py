"""Open questions that ask for a date in their own words ("What's the start date of ...?"):
``data.asked_value_type`` types the question (it is not reinterpreted: it stays an open question),
``verify.assess_units`` reads the date each stating unit gives, ``conclude.value_first`` ranks
the unit stating a date above units that only use a defined term, and the claim names the date
without setting the contract's several dates against each other as a conflict."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from service.evidence import conclude, verify
from service.evidence.conclude import open_value_type
from service.evidence.data import asked_value_type
from service.evidence.subject_class import SubjectClass
from tests.test_evidence_value_first import MENTION, PREAMBLE, _dated_units

OPEN = SubjectClass(understood=True, kind="agreement_attribute", subject_type="agreement",
                    agreement_title="RESELLER AGREEMENT", attribute="question", attribute_label="the answer to the question")


@pytest.mark.parametrize(
    ("question", "value_type"),
    [
        ("What's the start date of the Reseller Agreement between Acme Inc. and Beta LLC?", "date"),
        ("What is the commencement date of the Reseller Agreement?", "date"),
        ("Which date marks the beginning of the Reseller Agreement?", "date"),
        ("On which date did the Reseller Agreement begin?", "date"),
        ("As of what date does the Reseller Agreement operate?", "date"),
        ("When did the Reseller Agreement start?", "date"),
        ("Since when is the Reseller Agreement in force?", "date"),
        # A 'when' of permission or condition asks for a condition, not a date.
        ("When may Acme terminate the Reseller Agreement?", None),
        ("When is consent required to assign the Reseller Agreement?", None),
        ("When can the reseller sell competing products if the Reseller Agreement ends?", None),
        # A date that is not the asked thing.
        ("What notice must be given before the renewal date of the Reseller Agreement?", None),
        ("What are the payment terms of the Reseller Agreement?", None),
    ],
)
def test_asked_value_type_reads_a_date_question_from_its_words(question: str, value_type: str | None) -> None:
    assert asked_value_type(question) == value_type


def test_only_open_questions_are_typed_by_their_words() -> None:
    question = "What's the start date of the Reseller Agreement?"
    assert open_value_type(OPEN, question) == "date"
    assert conclude.value_first(OPEN, question)
    assert not conclude.value_first(OPEN, "What are the payment terms of the Reseller Agreement?")
    assert not conclude.value_first(OPEN)  # no question: no type
    known = replace(OPEN, attribute="governing_law", attribute_label="governing law")
    assert open_value_type(known, question) is None  # a known attribute keeps its own value type
    assert not conclude.value_first(known, question)


def _units():
    return _dated_units(OPEN)


def test_a_date_question_reads_the_stated_date_and_cites_it_first() -> None:
    e = np.eye(4, dtype=np.float32)
    verified = _units()
    # The mention is the more similar unit (it scores higher); both pass the evidence floor.
    vectors = {0: (0.8 * e[0] + 0.6 * e[1]).astype(np.float32), 1: e[0]}
    typed = verify.assess_units(verified, vectors, OPEN, verify.Targets(e[0], None, value_type="date"))
    preamble, mention = typed
    assert preamble.states_attribute and mention.states_attribute
    assert preamble.value == {"type": "date", "value": "2019-03-01", "text": "March 1, 2019"}
    assert mention.value is None
    assert mention.relevance > preamble.relevance
    question = "What's the start date of the Reseller Agreement?"
    supporting, evidence, _, _ = conclude.build_evidence(typed, "", values_first=conclude.value_first(OPEN, question))
    assert [(e.excerpt, e.char_start, e.char_end) for e in evidence] == [
        (PREAMBLE, 8, 8 + len(PREAMBLE)),
        (MENTION, 9 + len(PREAMBLE), 9 + len(PREAMBLE) + len(MENTION)),
    ]
    claims, conflicts = conclude.build_claims(OPEN, supporting, evidence)
    assert [(c.statement, c.evidence_ids) for c in claims] == [
        ("RESELLER AGREEMENT: the cited passage(s) answer the question; the date they state: 2019-03-01", ["E1"]),
        ("RESELLER AGREEMENT: the cited passage(s) answer the question", ["E2"]),
    ]
    assert conflicts == []
    # An untyped open question reads no value, and the score decides the order.
    untyped = verify.assess_units(verified, vectors, OPEN, verify.Targets(e[0], None))
    assert [u.value for u in untyped] == [None, None]
    _, evidence, _, _ = conclude.build_evidence(untyped, "", values_first=conclude.value_first(OPEN, "What are the payment terms?"))
    assert [e.excerpt for e in evidence] == [MENTION, PREAMBLE]


def test_two_stated_dates_of_an_open_question_are_no_conflict() -> None:
    e = np.eye(4, dtype=np.float32)
    verified = _units()
    typed = verify.assess_units(verified, {0: e[0], 1: e[0]}, OPEN, verify.Targets(e[0], None, value_type="date"))
    other = replace(typed[1], value={"type": "date", "value": "2020-01-01"}, confidence=typed[0].confidence)
    strong = [replace(typed[0], confidence="high"), replace(other, confidence="high")]
    supporting, evidence, _, _ = conclude.build_evidence(strong, "", values_first=True)
    claims, conflicts = conclude.build_claims(OPEN, supporting, evidence)
    assert len(claims) == 2 and conflicts == []


# -- the subject phrase leaves the asked words (collect.query_question) -------------------------


@pytest.mark.parametrize(
    ("parties", "question", "asked", "clause"),
    [
        # "and its affiliates" belongs to the party's name: it is not a question about affiliates.
        (["Wireless Links Inc", "Jaguar Investments, Inc"],
         "Must a party provide transition services after the DISTRIBUTOR AGREEMENT between Wireless Links Inc "
         "and Jaguar Investments, Inc. and its affiliates ends?",
         "Must a party provide transition services after ends?", "post_termination_services"),
        # A question that asks about affiliates keeps the word.
        (["Acme Inc", "Beta LLC"],
         "Can the licensee's affiliates use the license under the DISTRIBUTOR AGREEMENT between Acme Inc and Beta LLC?",
         "Can the licensee's affiliates use the license ?", "affiliate_license"),
    ],
)
def test_query_question_removes_a_partys_affiliates_phrase(parties: list[str], question: str, asked: str, clause: str) -> None:
    from service.evidence.collect import open_clause_type, query_question

    sc = replace(OPEN, agreement_title="DISTRIBUTOR AGREEMENT", parties=parties, names=[])
    assert query_question(sc, question) == asked
    found = open_clause_type(sc, query_question(sc, question))
    assert found is not None and found.key == clause


@pytest.mark.parametrize(
    ("names", "question", "asked", "clause"),
    [
        # The parser never lists the question words that open a capitalised run as (part of) a
        # name, so they stay in the asked words.
        (["Endorsement Agreement", "SQUARE TWO GOLF INC and KATHY WHITWORTH"],
         "After the Endorsement Agreement between SQUARE TWO GOLF INC and KATHY WHITWORTH terminates, what must each party still do?",
         "After terminates, what must each party still do?", "post_termination_services"),
        (["Endorsement Agreement", "SQUARE TWO GOLF INC and KATHY WHITWORTH"],
         "What's the start date of the Endorsement Agreement between SQUARE TWO GOLF INC and KATHY WHITWORTH?",
         "What's the start date ?", None),
        (["Endorsement Agreement"], "Must a party provide transition services after the Endorsement Agreement ends?",
         "Must a party provide transition services after ends?", "post_termination_services"),
    ],
)
def test_query_question_keeps_the_question_words_the_parser_read_as_names(
    names: list[str], question: str, asked: str, clause: str | None
) -> None:
    from service.evidence.collect import open_clause_type, query_question
    from service.evidence.subject_class import parse_question

    parsed = parse_question(question).names
    assert parsed == names
    sc = replace(OPEN, agreement_title="Endorsement Agreement", parties=["SQUARE TWO GOLF INC", "KATHY WHITWORTH"], names=parsed)
    assert query_question(sc, question) == asked
    found = open_clause_type(sc, asked)
    assert (found.key if found else None) == clause


@pytest.mark.parametrize(
    ("asked", "clause"),
    [
        ("What duties remain once is over?", "post_termination_services"),
        ("Which licences lapse once expires?", "post_termination_services"),
        ("What obligations continue after termination ?", "post_termination_services"),
        ("Can either party terminate early?", "termination"),
    ],
)
def test_once_the_agreement_is_over_asks_for_post_termination_duties(asked: str, clause: str) -> None:
    from service.evidence.data import clause_type_for

    found = clause_type_for(asked)
    assert found is not None and found.key == clause
