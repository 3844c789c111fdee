"""Where a question's party list ends (issue 9, question side): the readings the parser offers
the gate, exactly, and the places it must never cut. No model and no store: pure parsing."""

from __future__ import annotations

import pytest

from service.evidence.data import question_patterns
from service.evidence.subject_class import parse_question

ACME, BETA = "Acme Holdings, Inc.", "Beta Trading LLC"


def _readings(question: str) -> list[list[str]]:
    sc = parse_question(question)
    return [r["parties"] for r in sc.party_readings] + [sc.parties]


@pytest.mark.parametrize(
    ("question", "parties", "longer", "attribute"),
    [
        (
            f"Can a party assign the Supply Agreement between {ACME} and {BETA} without consent?",
            [ACME, BETA], [[ACME, f"{BETA} without consent"]], "anti_assignment",
        ),
        (
            f"When does the Supply Agreement between {ACME} and {BETA} begin, and when does it end?",
            [ACME, BETA],
            # Later ends fall inside the rest of the question; those readings bind nothing.
            [
                [ACME, f"{BETA} begin", "when does it end"],
                [ACME, f"{BETA} begin", "when does it"],
                [ACME, f"{BETA} begin", "when"],
                [ACME, f"{BETA} begin"],
            ],
            "expiration_date",
        ),
        (
            f"Under the Supply Agreement between {ACME} and {BETA}, who pays for shipping?",
            [ACME, BETA], [[ACME, BETA, "who pays for shipping"], [ACME, BETA, "who"]], None,
        ),
        (
            f"Is the licence in the Supply Agreement between {ACME} and {BETA} perpetual or irrevocable?",
            [ACME, BETA], [[ACME, f"{BETA} perpetual or irrevocable"], [ACME, f"{BETA} perpetual"]], "license_grant",
        ),
        (
            f"What is the name of the Supply Agreement between {ACME} and {BETA} as written on its cover?",
            [ACME, BETA], [[ACME, f"{BETA} as written on its cover"], [ACME, f"{BETA} as written on its"]], None,
        ),
    ],
)
def test_the_party_list_ends_where_the_question_continues(
    question: str, parties: list[str], longer: list[list[str]], attribute: str | None
) -> None:
    sc = parse_question(question)
    assert sc.failures == []
    assert sc.agreement_title == "Supply Agreement"
    assert sc.parties == parties
    assert [r["parties"] for r in sc.party_readings] == longer
    assert sc.attribute == attribute


@pytest.mark.parametrize(
    ("question", "parties"),
    [
        # Words that can stand between two party names never end the list: a cut there would
        # drop a named party, so the whole list must be bound as written.
        ("What law governs the Supply Agreement between Acme Inc. and Beta LLC on behalf of Gamma Corp?",
         ["Acme Inc.", "Beta LLC on behalf of Gamma Corp"]),
        ("What law governs the Supply Agreement between Acme Inc., as agent, and Beta LLC?",
         ["Acme Inc.", "as agent", "Beta LLC"]),
        ("What law governs the Supply Agreement between Acme Inc. and Beta LLC, by its general partner Gamma LP?",
         ["Acme Inc.", "Beta LLC", "by its general partner Gamma LP"]),
        ("What law governs the Supply Agreement between Acme Inc. and Beta LLC for itself and Gamma Corp?",
         ["Acme Inc.", "Beta LLC for itself", "Gamma Corp"]),
        ("What law governs the Supply Agreement between Alliance Bancorp, Inc. of Pennsylvania and Beta LLC?",
         ["Alliance Bancorp", "Inc. of Pennsylvania", "Beta LLC"]),
        # A lower-case name is a name, not a continuation.
        ("What law governs the Hosting Agreement between AstroNutrition.com and deep systems?",
         ["AstroNutrition.com", "deep systems"]),
        # Continuation words count only in lower case.
        ("What law governs the Supply Agreement between First State Bank and Provident Has Ltd.?",
         ["First State Bank", "Provident Has Ltd"]),
        ("What law governs the Supply Agreement between Acme Inc and Beta LLC or Gamma Corp?",
         ["Acme Inc", "Beta LLC or Gamma Corp"]),
    ],
)
def test_no_reading_drops_a_name(question: str, parties: list[str]) -> None:
    sc = parse_question(question)
    assert sc.failures == []
    assert sc.parties == parties
    assert sc.party_readings == []


@pytest.mark.parametrize(
    ("question", "failure"),
    [
        (
            "What law governs the Intellectual Property Agreement, D between HONEYWELL INTERNATIONAL INC. and "
            "GARRETT MOTION INC. without consent?",
            "the question names parties after 'Intellectual Property Agreement', but ', D' between the title "
            "and the party list is neither title nor party names",
        ),
        (
            "Can a party assign the Cooperation Agreement ( between e.l.f. Beauty, Inc. and Marathon Partners L.P. "
            "without consent?",
            "the question names parties after 'Cooperation Agreement', but '(' between the title and the party "
            "list is neither title nor party names",
        ),
        # A stray character inside the names is not rescued by a shorter reading that still holds it.
        (
            "Can a party assign the Supply Agreement between Acme Inc. and Beta (LLC without consent?",
            "unbalanced parenthesis in party name 'Beta (LLC without consent'",
        ),
        (
            "Can a party assign the Supply Agreement between Acme Inc. and Beta | LLC without consent?",
            "stray '|' in party name 'Beta | LLC without consent'",
        ),
    ],
)
def test_stray_punctuation_still_fails_closed(question: str, failure: str) -> None:
    sc = parse_question(question)
    assert sc.failures == [failure]
    assert sc.parties == [] and sc.party_readings == []


def test_a_spaced_slash_separates_and_stays_rejoinable_in_every_reading() -> None:
    # " / " separates like "and"; its separator is kept, so the gate may re-join "Blackstone /
    # GSO Long-Short Credit Income Fund" and must then bind it exactly.
    sc = parse_question(
        "Can a party assign the Service Agreement For Transfer Agent Services between Blackstone / GSO "
        "Long-Short Credit Income Fund and Mellon Investor Services LLC without consent?"
    )
    assert sc.agreement_title == "Service Agreement For Transfer Agent Services"
    assert sc.parties == ["Blackstone", "GSO Long-Short Credit Income Fund", "Mellon Investor Services LLC"]
    assert sc.party_separators == [" / ", " and "]
    assert [r["parties"] for r in sc.party_readings] == [
        ["Blackstone", "GSO Long-Short Credit Income Fund", "Mellon Investor Services LLC without consent"]
    ]


def test_a_reading_that_would_leave_out_a_name_is_not_offered() -> None:
    # Cut at "to", the rest ("to Basics, Inc. and Omega LLC renew") names parties the reading
    # lacks; cut at "renew", it names none.
    sc = parse_question("Does the Hosting Agreement between Back to Basics, Inc. and Omega LLC renew?")
    assert sc.parties == ["Back to Basics, Inc.", "Omega LLC"]
    assert [r["parties"] for r in sc.party_readings] == [["Back to Basics, Inc.", "Omega LLC renew"]]
    # A name in the rest that refers back to a listed party is accounted for.
    sc = parse_question("Can the Supply Agreement between Acme Inc and Beta LLC be assigned without Beta's consent?")
    assert sc.parties == ["Acme Inc", "Beta LLC"]


def test_readings_are_capped() -> None:
    cap = question_patterns()["limits"]["party_readings"]
    assert cap == 6
    tail = " ".join(["to be"] * 10)
    readings = _readings(f"What law governs the Supply Agreement between Acme Inc and Beta LLC {tail}?")
    assert len(readings) == cap
    # The whole text first, then the earliest ends, the shortest last.
    assert readings[0] == ["Acme Inc", f"Beta LLC {tail}"]
    assert readings[-1] == ["Acme Inc", "Beta LLC"]
    assert readings[-2] == ["Acme Inc", "Beta LLC to"]


@pytest.mark.parametrize(
    ("question", "focus", "parties", "separators", "attribute"),
    [
        ("In Acme Holdings, Inc.'s Supply Agreement with Beta LLC, can either party terminate for convenience?",
         ACME, [ACME, "Beta LLC"], ["; "], "termination_for_convenience"),
        ("Does Acme Inc.'s Supply Agreement with Beta LLC allow assignment?",
         "Acme Inc.", ["Acme Inc.", "Beta LLC"], ["; "], "anti_assignment"),
        ("What law governs Acme Inc.'s Supply Agreement?", "Acme Inc.", ["Acme Inc."], [], "governing_law"),
        ("Who pays for shipping in Acme Inc.'s Supply Agreement with Beta LLC?",
         "Acme Inc.", ["Acme Inc.", "Beta LLC"], ["; "], None),
        # A name that starts in lower case ("iBio", "eBay") is still a name.
        ("Does iBio Inc.'s Supply Agreement with Beta LLC allow assignment?",
         "iBio Inc.", ["iBio Inc.", "Beta LLC"], ["; "], "anti_assignment"),
    ],
)
def test_possessive_owner_is_a_party_that_must_be_bound(
    question: str, focus: str, parties: list[str], separators: list[str], attribute: str | None
) -> None:
    sc = parse_question(question)
    assert sc.pattern == "agreement_attribute_possessive"
    assert sc.failures == []
    assert (sc.agreement_title, sc.name) == ("Supply Agreement", focus)
    assert (sc.parties, sc.party_separators) == (parties, separators)
    assert sc.attribute == attribute


@pytest.mark.parametrize(
    ("question", "parties", "separators"),
    [
        # Company names before the title are parties the question names: never dropped.
        ("Acme Inc and Beta LLC signed a Supply Agreement; what law governs it?",
         ["Acme Inc", "Beta LLC"], [" and "]),
        ("Does Gamma Corp benefit from the Supply Agreement between Acme Inc. and Beta LLC?",
         ["Gamma Corp", "Acme Inc.", "Beta LLC"], ["; ", " and "]),
        # Capitalised words without a legal form are not party names.
        ("Under Section 5 of the Supply Agreement between Acme Inc. and Beta LLC, who pays?",
         ["Acme Inc.", "Beta LLC"], [" and "]),
        ("Is there an MFN provision in the Supply Agreement?", [], []),
        # The focus party is not counted twice.
        ("What are Acme Inc's obligations under the Supply Agreement with Beta LLC?",
         ["Acme Inc", "Beta LLC"], ["; "]),
    ],
)
def test_company_names_before_the_title_are_parties(question: str, parties: list[str], separators: list[str]) -> None:
    sc = parse_question(question)
    assert sc.failures == []
    assert sc.agreement_title == "Supply Agreement"
    assert (sc.parties, sc.party_separators) == (parties, separators)


def test_possessive_title_runs_to_its_last_title_word() -> None:
    sc = parse_question(
        "In Cardlytics, Inc.'s Software License, Customization and Maintenance Agreement with Bank of America, "
        "N.A., who owns the intellectual property?"
    )
    assert sc.failures == []
    assert sc.agreement_title == "Software License, Customization and Maintenance Agreement"
    assert sc.parties == ["Cardlytics, Inc.", "Bank of America, N.A."]
