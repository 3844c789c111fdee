"""Analyst question shapes of the second held-out set (bench/data/gate_phrasings_fresh2.json)
and the question-side gaps found with it: each is read into its exact title and every named
party, or refused with its reason. Parsing only (no store): the gate's look-up of these subject
classes is the one every agreement question goes through (tests/test_gate_fail_closed.py).
Invented names throughout."""

from __future__ import annotations

import pytest

from service.evidence.subject_class import parse_question
from service.evidence.values import jurisdiction_in

PIVX = ["Norland Systems Corporation", "Quarrel Technologies"]


@pytest.mark.parametrize(
    ("question", "pattern", "title", "parties"),
    [
        # A date after the title (or after the list) qualifies the agreement and names no one.
        ("What law governs the Reseller Agreement dated March 1, 2019 between Norland Systems Corporation and "
         "Quarrel Technologies?", "agreement_attribute", "Reseller Agreement", PIVX),
        ("Under the RESELLER AGREEMENT dated as of 15 January 2020 by and between Norland Systems Corporation and "
         "Quarrel Technologies, can either party terminate for convenience?", "agreement_attribute", "RESELLER AGREEMENT", PIVX),
        ("Under the Reseller Agreement between Norland Systems Corporation and Quarrel Technologies, effective "
         "January 1, 2021, is there a most favored nation clause?", "agreement_attribute", "Reseller Agreement", PIVX),
        # "the parties'" is an article, not title words.
        ("Norland Systems Corporation and Quarrel Technologies - does the parties' Reseller Agreement have an audit "
         "clause?", "agreement_attribute", "Reseller Agreement", PIVX),
        # A portal's "A v. B", with or without a dot.
        ("Re: Reseller Agreement \u2014 Norland Systems Corporation v Quarrel Technologies: what is the notice period?",
         "named_agreement", "Reseller Agreement", PIVX),
        ("Reseller Agreement (Norland Systems Corporation v. Quarrel Technologies) - governing law?",
         "named_agreement", "Reseller Agreement", PIVX),
        # "on the one hand ... on the other hand" names no one.
        ("What law governs the Reseller Agreement between Norland Systems Corporation, on the one hand, and Quarrel "
         "Technologies, on the other hand?", "agreement_attribute", "Reseller Agreement", PIVX),
        # Numbered parties, a defined term after the title, a lower-case role after a name.
        ("Under the Reseller Agreement between (1) Norland Systems Corporation and (2) Quarrel Technologies, who may "
         "audit the books?", "agreement_attribute", "Reseller Agreement", PIVX),
        ('What law governs the Reseller Agreement (the "Agreement") between Norland Systems Corporation and Quarrel '
         "Technologies?", "agreement_attribute", "Reseller Agreement", PIVX),
        ("Under the Reseller Agreement with Quarrel Technologies as counterparty, what are the payment terms?",
         "agreement_attribute", "Reseller Agreement", ["Quarrel Technologies"]),
        # A relative clause between the title and the list: its subject is a party too.
        ("Does the Reseller Agreement that Norland Systems Corporation signed with Quarrel Technologies permit "
         "assignment?", "agreement_attribute", "Reseller Agreement", PIVX),
        ("Can Quarrel Technologies terminate the Reseller Agreement it signed with Norland Systems Corporation?",
         "agreement_attribute", "Reseller Agreement", PIVX),
        # An upper-case question: its words are no names.
        ("WHAT LAW GOVERNS THE RESELLER AGREEMENT BETWEEN NORLAND SYSTEMS CORPORATION AND QUARREL TECHNOLOGIES?",
         "agreement_attribute", "RESELLER AGREEMENT", ["NORLAND SYSTEMS CORPORATION", "QUARREL TECHNOLOGIES"]),
        # Lead words of a portal or imperative question name no one.
        ("Question about the Reseller Agreement, parties Norland Systems Corporation and Quarrel Technologies: who owns "
         "improvements?", "agreement_attribute", "Reseller Agreement", PIVX),
        ("Summarise the termination rights in the Reseller Agreement between Norland Systems Corporation and Quarrel "
         "Technologies", "agreement_attribute", "Reseller Agreement", PIVX),
        # Lower-case chatter after the question's "?".
        ("hi, which law governs the reseller agreement with quarrel technologies? thanks",
         "agreement_attribute", "reseller agreement", ["quarrel technologies"]),
    ],
)
def test_fresh2_shapes_are_read_into_title_and_every_party(question: str, pattern: str, title: str, parties: list[str]) -> None:
    sc = parse_question(question)
    assert (sc.pattern, sc.agreement_title, sc.parties, sc.failures) == (pattern, title, parties, [])


def test_a_list_of_possessives_names_each_owner() -> None:
    # "Beta's" was read as a name of its own (with its "'s"), which no registry holds.
    sc = parse_question("Does Vantor's, Quillon's Supply Agreement renew?")
    assert (sc.pattern, sc.agreement_title, sc.parties) == ("agreement_attribute_possessive", "Supply Agreement", ["Vantor", "Quillon"])
    sc = parse_question("Under Vantor LLC's, Quillon Inc.'s Supply Agreement, who pays?")
    assert (sc.parties, sc.party_separators) == (["Vantor LLC", "Quillon Inc."], ["; "])
    # A joint owner after an article ("an exclusivity clause in A and B's X"): both are parties.
    sc = parse_question("Is there an exclusivity clause in Norland Systems Corporation and Quarrel Technologies's Reseller Agreement?")
    assert (sc.pattern, sc.agreement_title, sc.parties) == ("agreement_attribute_possessive", "Reseller Agreement", PIVX)


def test_a_possessive_owner_with_of_the_is_read_whole() -> None:
    sc = parse_question("When does The Regents of the University of Eastvale's License Agreement with Zorbin Bio, Inc. expire?")
    assert (sc.pattern, sc.agreement_title, sc.parties) == (
        "agreement_attribute_possessive", "License Agreement", ["Regents of the University of Eastvale", "Zorbin Bio, Inc."]
    )
    # A role word owning a title is still title words.
    sc = parse_question("When does the Manufacturer's Representative Agreement between Vantor LLC and Quillon Inc. expire?")
    assert (sc.agreement_title, sc.parties) == ("Manufacturer's Representative Agreement", ["Vantor LLC", "Quillon Inc."])


@pytest.mark.parametrize("verb", ["change", "changes", "differ", "conflict", "supersede"])
def test_a_verb_after_the_party_list_ends_it(verb: str) -> None:
    sc = parse_question(f"Does the Supply Agreement between Vantor LLC and Quillon Inc. {verb} on a merger?")
    assert (sc.parties, sc.failures) == (["Vantor LLC", "Quillon Inc."], [])
    # The longer reading is offered too, for a name that holds the word.
    assert sc.party_readings[0]["parties"] == ["Vantor LLC", f"Quillon Inc. {verb} on a merger"]


@pytest.mark.parametrize(
    ("question", "failures"),
    [
        # A name after the first "?" that the subject does not account for is never dropped.
        ("What law governs the Reseller Agreement with Quarrel Technologies? Is Zorbin Bio, Inc. bound too?",
         ["the question goes on after its '?' and names 'Zorbin Bio, Inc.', which its subject does not account for"]),
        # Any other gap between the title and its list still fails closed.
        ("What law governs the Reseller Agreement it may assign with Quarrel Technologies?",
         ["the question names parties after 'Reseller Agreement', but 'it may assign' between the title and the "
          "party list is neither title nor party names"]),
    ],
)
def test_fresh2_shapes_that_cannot_be_read_fail_closed(question: str, failures: list[str]) -> None:
    sc = parse_question(question)
    assert sc.failures == failures
    assert sc.parties == []


def test_every_name_of_a_named_agreement_question_is_a_party() -> None:
    # "A v B" with no legal form on B once passed on A alone (B was dropped).
    sc = parse_question("Reseller Agreement \u2014 Norland Systems Corporation v Zorbin Partners: governing law?")
    assert sc.parties == ["Norland Systems Corporation", "Zorbin Partners"]


def test_a_pair_before_a_title_is_a_title_reading() -> None:
    sc = parse_question("In the Norland Systems Corporation/Quarrel Technologies Reseller Agreement, is there a cap on liability?")
    assert {"title": "Reseller Agreement", "parties": PIVX, "separators": ["; "]} in sc.title_readings
    sc = parse_question("Norland Systems Corporation / Quarrel Technologies Reseller Agreement: renewal terms?")
    assert sc.pattern == "named_agreement"
    assert {"title": "Reseller Agreement", "parties": PIVX, "separators": ["; "]} in sc.title_readings


def test_a_date_qualifies_but_never_names() -> None:
    # The date is cut; a name next to it is still a party.
    sc = parse_question("Under the Supply Agreement dated 03/01/2019 between Vantor LLC and Quillon Inc., who pays?")
    assert (sc.agreement_title, sc.parties) == ("Supply Agreement", ["Vantor LLC", "Quillon Inc."])


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("This Agreement is subject to Swiss substantive law. Exclusive place of jurisdiction is Zug.", "switzerland"),
        ("This Agreement shall be governed by the laws of the PRC.", "china"),
    ],
)
def test_governing_law_values(text: str, key: str) -> None:
    assert jurisdiction_in(text) == key


def test_subject_to_a_law_is_a_governing_law_cue() -> None:
    # "is subject to Swiss substantive law" states the governing law without "governed by"; a
    # clause merely "subject to" something else is no cue.
    from service.evidence.data import cues

    text_cues = cues().attributes["governing_law"].text_cues
    assert any(c.search("This Agreement is subject to Swiss substantive law.") for c in text_cues)
    assert any(c.search("This Agreement shall be subject to the laws of Ontario.") for c in text_cues)
    assert not any(c.search("Each payment is subject to a five per cent discount.") for c in text_cues)


def test_and_its_affiliates_names_no_one_in_a_named_agreement_question() -> None:
    sc = parse_question("Notice period - SUPPLY AGREEMENT between Vantor, LLC and its Affiliates and Quillon, Inc. and its Affiliates")
    assert (sc.pattern, sc.parties) == ("named_agreement", ["Vantor, LLC", "Quillon, Inc."])


def test_a_slash_inside_a_name_does_not_hide_the_dash_pair() -> None:
    sc = parse_question("What does the LifeNova/ Envira Health, Inc.\u2013Quillon LLC Supply Agreement say about exclusivity?")
    assert {"title": "Supply Agreement", "parties": ["LifeNova/ Envira Health, Inc.", "Quillon LLC"], "separators": ["; "]} in sc.title_readings


def test_a_lead_name_starts_where_the_name_starts() -> None:
    sc = parse_question("iVantor Corporation and Quillon Technology entered into a DISTRIBUTOR AGREEMENT; is either party allowed to subcontract?")
    assert (sc.agreement_title, sc.parties) == ("DISTRIBUTOR AGREEMENT", ["iVantor Corporation", "Quillon Technology"])


def test_a_named_agreement_title_holding_a_comma_is_a_title_reading() -> None:
    sc = parse_question("Notice period - JOINT RESEARCH, DEVELOPMENT AND SUPPLY AGREEMENT between Vantor, Inc. and Quillon, Inc.")
    assert (sc.pattern, sc.agreement_title) == ("named_agreement", "DEVELOPMENT AND SUPPLY AGREEMENT")
    # The run before the comma is a party of the main reading, and title words of the longer one.
    assert sc.parties == ["Vantor, Inc.", "Quillon, Inc", "JOINT RESEARCH"]
    assert sc.title_readings == [{
        "title": "JOINT RESEARCH, DEVELOPMENT AND SUPPLY AGREEMENT", "parties": ["Vantor, Inc.", "Quillon, Inc"], "separators": ["; "],
    }]
    # A second name that began before the title's run ("B, INC. SUPPLY AGREEMENT").
    sc = parse_question("VANTOR, INC. / QUILLON, INC. SUPPLY AGREEMENT: renewal terms?")
    assert {"title": "SUPPLY AGREEMENT", "parties": ["VANTOR, INC.", "QUILLON, INC."], "separators": ["; "]} in sc.title_readings
