"""Analyst question shapes of the held-out set (bench/data/gate_fresh_phrasings.json) that the
parser once misread (issue 9, question side): each is read into its exact title and every named
party, or refused with its reason. Parsing only (no store): the gate's look-up of these subject
classes is the one every agreement question goes through (tests/test_gate_fail_closed.py)."""

from __future__ import annotations

import pytest

from service.evidence.subject_class import parse_question


@pytest.mark.parametrize(
    ("question", "pattern", "title", "parties"),
    [
        # "its"/"their" before the title (once no shape: the name-only gate passed another
        # contract tied to NETGEAR, Inc.).
        ("Under its DISTRIBUTOR AGREEMENT with NETGEAR, Inc., must Ingram Micro buy minimum quantities?",
         "agreement_attribute", "DISTRIBUTOR AGREEMENT", ["NETGEAR, Inc.", "Ingram Micro"]),
        ("Did Acme Holdings, Inc. and Omega Retail LLC agree on exclusivity in their Supply Agreement?",
         "agreement_attribute", "Supply Agreement", ["Acme Holdings, Inc.", "Omega Retail LLC"]),
        # A party list before the title, opened by "Between" or a question word.
        ("Between PivX Corporation and Detto Technologies, under the Reseller Agreement, who pays for insurance?",
         "agreement_attribute", "Reseller Agreement", ["PivX Corporation", "Detto Technologies"]),
        ("Can PivX Corporation terminate the Reseller Agreement with Detto Technologies without cause, and on how much notice?",
         "agreement_attribute", "Reseller Agreement", ["PivX Corporation", "Detto Technologies"]),
        # A quoted title is read as without the quotes.
        ('What law governs the "Reseller Agreement" between PivX Corporation and Detto Technologies?',
         "agreement_attribute", "Reseller Agreement", ["PivX Corporation", "Detto Technologies"]),
        ("Is the \u201cCO-BRANDING AND ADVERTISING AGREEMENT\u201d with 2THEMART.COM, INC. exclusive?",
         "agreement_attribute", "CO BRANDING AND ADVERTISING AGREEMENT", ["2THEMART.COM, INC."]),
        # No known shape, but an agreement is named: its title and every named party.
        ("City of Fort Stockton and STW Holding Corp: does their COOPERATION AGREEMENT have a liquidated damages clause?",
         "agreement_attribute", "COOPERATION AGREEMENT", ["City of Fort Stockton", "STW Holding Corp"]),
        ("Supply Agreement with Zeta Corp: which law governs?", "named_agreement", "Supply Agreement", ["Zeta Corp"]),
    ],
)
def test_fresh_shapes_are_read_into_title_and_every_party(question: str, pattern: str, title: str, parties: list[str]) -> None:
    sc = parse_question(question)
    assert (sc.pattern, sc.agreement_title, sc.parties, sc.failures) == (pattern, title, parties, [])


@pytest.mark.parametrize(
    ("question", "failures"),
    [
        # Quotes around a party name (or not around a whole title) stay stray punctuation.
        ('What law governs the Reseller Agreement between "PivX Corporation" and Detto Technologies?',
         ["stray '\"' in party name '\"PivX Corporation\"'"]),
        ("Supply Agreement or Guaranty with Zeta Corp?",
         ["the question names more than one agreement: 'Supply Agreement', 'Guaranty'"]),
    ],
)
def test_fresh_shapes_that_cannot_be_read_fail_closed(question: str, failures: list[str]) -> None:
    sc = parse_question(question)
    assert sc.failures == failures
    assert sc.parties == []


def test_a_name_left_out_after_a_clause_break_is_one_more_party() -> None:
    # Cut at ", must", the reading keeps "Ingram Micro" as a party; cut at a plain " to", a
    # reading that would leave out "Basics, Inc." is none.
    sc = parse_question("Under the Supply Agreement with NETGEAR, Inc., must Ingram Micro buy minimum quantities?")
    assert sc.parties == ["NETGEAR, Inc.", "Ingram Micro"]
    assert [r["parties"] for r in sc.party_readings] == [["NETGEAR, Inc.", "must Ingram Micro buy minimum quantities"]]
    sc = parse_question("Does the Hosting Agreement between Back to Basics, Inc. and Omega LLC renew?")
    assert sc.parties == ["Back to Basics, Inc.", "Omega LLC"]


def test_parties_named_outside_a_list_keep_their_separators() -> None:
    # After "entered into by" (no party keyword), the names are read as named parties; the
    # gate may re-join neighbours only across the question's own separators, never across "; ".
    sc = parse_question(
        "What law governs the GAS TRANSPORTATION AGREEMENT entered into by TENNESSEE GAS PIPELINE COMPANY and "
        "LOUISVILLE GAS AND ELECTRIC COMPANY?"
    )
    assert sc.parties == ["TENNESSEE GAS PIPELINE COMPANY", "LOUISVILLE GAS", "ELECTRIC COMPANY"]
    assert sc.party_separators == [" and ", " AND "]
    sc = parse_question("Under the Supply Agreement with Omega LLC, does Zeta Corp pay?")
    assert (sc.parties, sc.party_separators) == (["Omega LLC", "Zeta Corp"], ["; "])


def test_two_parties_joined_by_a_dash_before_the_title_are_title_readings() -> None:
    sc = parse_question("What does the PivX Corporation\u2013Detto Technologies Reseller Agreement say about exclusivity?")
    # The title as written stays the main reading; the splits are tried first, exact title only.
    assert (sc.agreement_title, sc.parties, sc.failures) == ("PivX Corporation\u2013Detto Technologies Reseller Agreement", [], [])
    assert sc.title_readings == [
        {"title": "Technologies Reseller Agreement", "parties": ["PivX Corporation", "Detto"], "separators": ["; "]},
        {"title": "Reseller Agreement", "parties": ["PivX Corporation", "Detto Technologies"], "separators": ["; "]},
        {"title": "Agreement", "parties": ["PivX Corporation", "Detto Technologies Reseller"], "separators": ["; "]},
    ]
    # Two dashes: no reading is guessed.
    assert parse_question("What does the A Corp - B Corp - C Corp Reseller Agreement say?").title_readings == []


def test_possessive_shapes_are_bounded_by_the_number_of_possessives() -> None:
    from service.evidence.subject_class import limits

    assert limits()["possessive_markers"] == 4
    # One sentence: text after a first "?" is checked for names, not parsed (parse_question).
    at_bound = "Under Acme Inc.'s Supply Agreement with Beta LLC, is Beta LLC's duty Acme Inc.'s duty, Beta LLC's"
    sc = parse_question(at_bound)
    assert (sc.pattern, sorted(sc.parties)) == ("agreement_attribute_possessive", ["Acme Inc.", "Beta LLC"])
    # Past it, the shape is skipped (its backtracking grows with every "'s"); the owner is still
    # a named party that must be bound.
    sc = parse_question(at_bound + " or Acme Inc.'s?")
    assert (sc.pattern, sc.agreement_title, sorted(sc.parties)) == ("named_agreement", "Supply Agreement", ["Acme Inc.", "Beta LLC"])


@pytest.mark.parametrize(
    ("question", "parties"),
    [
        # A name outside the title without a legal form was dropped: the title was looked up alone.
        ("Is exclusivity granted to Detto Technologies under the Reseller Agreement?", ["Detto Technologies"]),
        ("Is exclusivity granted to Kathy Whitworth under the Endorsement Agreement?", ["Kathy Whitworth"]),
        ("What does the Supply Agreement say about Detto Technologies?", ["Detto Technologies"]),
        # Clause words, defined roles and jurisdictions name no party.
        ("Under Section 5 of the Supply Agreement between Acme Inc and Beta LLC, must the Licensee pay?",
         ["Acme Inc", "Beta LLC"]),
        ("Does New York law govern the Supply Agreement between Acme Inc and Beta LLC?", ["Acme Inc", "Beta LLC"]),
        # Words of a listed name are that name.
        ("Under the Supply Agreement between Acme Inc and Beta LLC, may Beta terminate?", ["Acme Inc", "Beta LLC"]),
    ],
)
def test_every_other_capitalised_name_is_a_party(question: str, parties: list[str]) -> None:
    sc = parse_question(question)
    assert (sc.parties, sc.failures) == (parties, [])


def test_a_party_list_after_the_dash_is_a_title_reading_up_to_the_bound() -> None:
    from service.evidence.subject_class import _DASH_READINGS

    # Before, at most 6 words after the dash were read as names: the list's last parties were
    # never offered, and the question was refused for an agreement in the knowledge base.
    question = "What does the Harlow Inc.\u2013Kestrel Holdings, L.P. and Larkspur Research & Trading, LLC Agency Agreement say?"
    readings = parse_question(question).title_readings
    # (The gate re-joins pieces across " & ", so the last piece is matched whole.)
    assert {
        "title": "Agency Agreement",
        "parties": ["Harlow Inc.", "Kestrel Holdings, L.P.", "Larkspur Research", "Trading, LLC"],
        "separators": ["; ", " and ", " & "],
    } in readings
    # The bound: the words after the dash are split at most _DASH_READINGS ways.
    assert _DASH_READINGS == 24
    long_list = " and ".join(f"Kestrel Fund {n} LLC" for n in range(1, 10))  # 36 words
    readings = parse_question(f"What does the Harlow Inc.\u2013{long_list} Agency Agreement say?").title_readings
    assert len(readings) <= _DASH_READINGS
    assert all(r["title"] != "Agency Agreement" for r in readings)
