"""The question parser on party names with "&", lower-case domain names and descriptions
(issue 9): "B & C General Warehouse Corporation LLC" is one name, "theglobe.com, Inc.'s" is an
owner, "X, LLC and its Affiliates's" is X's. The gate still binds every such name exactly or
refuses. Real SQLite store filled by the real ingest pipeline (spaCy, MiniLM); nothing mocked."""

from __future__ import annotations

from typing import Iterator

import pytest

from service.evidence.subject_class import parse_question, read_party_list
from tests.kb import KB, ingested_kb

# -- the parser -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "pieces", "separators"),
    [
        # An initial joined by "&" belongs to its neighbour (it was a failure: "'B' is not a name").
        ("B & C General Warehouse Corporation LLC and Acme Inc.", ["B & C General Warehouse Corporation LLC", "Acme Inc."], [" and "]),
        ("A & B Co. and Acme Inc.", ["A & B Co.", "Acme Inc."], [" and "]),
        ("Acme Inc. and Smith & B", ["Acme Inc.", "Smith & B"], [" and "]),
        # Whole words joined by "&" stay pieces: the gate re-joins them against bound names.
        ("Stratton, Cheeseman & Walsh-Nevada, Inc. and Acme Inc.",
         ["Stratton", "Cheeseman", "Walsh-Nevada, Inc.", "Acme Inc."], [", ", " & ", " and "]),
        # The place a legal form is registered in, in brackets before it, is that form's (it was
        # a piece of its own, "(Bermuda) Ltd.", no name).
        ("Columbia Laboratories, (Bermuda) Ltd. / Fleet Laboratories Limited",
         ["Columbia Laboratories, (Bermuda) Ltd.", "Fleet Laboratories Limited"], [" / "]),
        # (Only before a legal form: "(USA) Widgets Inc." is a name of its own.)
        ("Acme, (USA) Widgets Inc.", ["Acme", "(USA) Widgets Inc."], [", "]),
    ],
)
def test_an_initial_joined_by_ampersand_is_part_of_the_name(text: str, pieces: list[str], separators: list[str]) -> None:
    read = read_party_list(text)
    assert (read.pieces, read.separators, read.failures) == (pieces, separators, [])


@pytest.mark.parametrize(
    ("text", "failure"),
    [
        # Only "&" joins an initial: after "," or "and" a lone letter is no name (fail closed).
        ("B, C General Warehouse Corporation LLC and Acme Inc.", "'B' is not a name"),
        ("B and C General Warehouse Corporation LLC", "'B' is not a name"),
    ],
)
def test_a_lone_initial_not_joined_by_ampersand_is_refused(text: str, failure: str) -> None:
    assert read_party_list(text).failures == [failure]


@pytest.mark.parametrize(
    ("question", "focus", "parties"),
    [
        # A lower-case domain name owns the agreement (it was read as the owner "Inc.").
        ("In theglobe.com, Inc.'s CO-BRANDING Agreement with The Boxlot Company, who owns the intellectual property?",
         "theglobe.com, Inc.", ["theglobe.com, Inc.", "The Boxlot Company"]),
        # "and its Affiliates" names no one (it made "Affiliates" the owner).
        ("In Sekisui Diagnostics, LLC and its Affiliates's DISTRIBUTION AND DEVELOPMENT AGREEMENT with "
         "Qualigen, Inc. and its Affiliates, who owns the intellectual property?",
         "Sekisui Diagnostics, LLC", ["Sekisui Diagnostics, LLC", "Qualigen, Inc."]),
    ],
)
def test_possessive_owner_is_read_whole(question: str, focus: str, parties: list[str]) -> None:
    sc = parse_question(question)
    assert (sc.name, sc.parties, sc.failures) == (focus, parties, [])


def test_a_lower_case_word_without_a_domain_is_no_owner() -> None:
    # "deep systems's" is no name start: the owner is not made up from it, the title alone is
    # not gated either (the question names parties after "with" that must be bound).
    sc = parse_question("In the Hosting Agreement with Acme Inc., what law governs?")
    assert (sc.name, sc.parties) == (None, ["Acme Inc."])


# -- the gate -------------------------------------------------------------------------------------


def _contract(title: str, first: str, second: str) -> str:
    return (
        f"{title.upper()}\n\nThis {title} is made by and between {first} (\"First\") and {second} "
        f"(\"Second\").\n\nGoverning Law\n\nThis Agreement shall be governed by the laws of the State of Ohio.\n"
    )


# A consortium of 17 parties: one more than the question parser's bound.
_WORDS = "Alpha Bravo Charlie Delta Echo Foxtrot Golf Hotel India Juliett Kilo Lima Mike November Oscar Papa Quebec".split()
CONSORTIUM = [f"{word} Cable Ltd." for word in _WORDS]
DOCS = {
    "consortium": (
        "CONSTRUCTION AND MAINTENANCE AGREEMENT\n\nThis Construction and Maintenance Agreement is made by and among "
        + ", ".join(f'{name} ("C{i}")' for i, name in enumerate(CONSORTIUM[:-1]))
        + f' and {CONSORTIUM[-1]} ("C16").\n\nGoverning Law\n\nThis Agreement shall be governed by the laws of the State of Ohio.\n'
    ),
    "warehouse": _contract("Warehouse Agreement", "B & C General Warehouse Corporation LLC", "Orion Foods, Inc."),
    "audit": _contract("Audit Agreement", "Stratton, Cheeseman & Walsh-Nevada, Inc.", "Vega Mining Corp."),
    "cobrand": _contract("Co-Branding Agreement", "theglobe.com, Inc.", "The Boxlot Company"),
    "bermuda": _contract("Manufacturing Agreement", "Columbia Laboratories, (Bermuda) Ltd.", "Fleet Laboratories Limited"),
    # A parent and its amendment with the same parties: the amendment never answers for it.
    "supply": _contract("Supply Agreement", "Acme Inc.", "Beta LLC"),
    "supply-amendment": (
        "FIRST AMENDMENT TO SUPPLY AGREEMENT\n\nThis First Amendment to the Supply Agreement is made by and "
        'between Acme Inc. ("Acme") and Beta LLC ("Beta").\n\nGoverning Law\n\n'
        "This First Amendment shall be governed by the laws of the State of Utah.\n"
    ),
}


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory, embedder) -> Iterator[KB]:
    yield from ingested_kb(tmp_path_factory, embedder, "question-party-names-kb", DOCS)


@pytest.mark.parametrize(
    ("question", "doc"),
    [
        ("What law governs the Warehouse Agreement between B & C General Warehouse Corporation LLC and Orion Foods, Inc.?", "warehouse"),
        ("What law governs the Audit Agreement between Stratton, Cheeseman & Walsh-Nevada, Inc. and Vega Mining Corp.?", "audit"),
        ("In theglobe.com, Inc.'s Co-Branding Agreement with The Boxlot Company, what law governs?", "cobrand"),
        ("What law governs the Manufacturing Agreement between Columbia Laboratories, (Bermuda) Ltd. and Fleet Laboratories Limited?", "bermuda"),
    ],
)
def test_ampersand_and_domain_names_pass_when_bound(kb: KB, question: str, doc: str) -> None:
    docs, result = kb.docs(question)
    assert (docs, result.failures) == ({doc}, [])
    assert result.candidates[0].match == "title exact + parties"


@pytest.mark.parametrize(
    ("question", "reason"),
    [
        # Another initial: the joined name is bound exactly or not at all, never near enough.
        ("What law governs the Warehouse Agreement between B & D General Warehouse Corporation LLC and Orion Foods, Inc.?",
         "no party_to binding to this agreement for 'B & D General Warehouse Corporation LLC'"),
        ("In theglobe.net, Inc.'s Co-Branding Agreement with The Boxlot Company, what law governs?",
         "no party_to binding to this agreement for 'theglobe.net, Inc.'"),
    ],
)
def test_an_unbound_joined_or_domain_name_is_refused(kb: KB, question: str, reason: str) -> None:
    docs, result = kb.docs(question)
    assert docs == set()
    assert [r["reason"] for r in result.rejected] == [reason]


def test_a_lone_initial_fails_closed_with_its_reason(kb: KB) -> None:
    docs, result = kb.docs(
        "What law governs the Warehouse Agreement between B, C General Warehouse Corporation LLC and Orion Foods, Inc.?"
    )
    assert (docs, result.failures) == (set(), ["'B' is not a name"])


# -- an amendment named without an article, or by its owner ---------------------------------------


@pytest.mark.parametrize(
    ("question", "title", "docs"),
    [
        # Both were read as "Supply Agreement" (the parent) before: an amendment answered for it.
        ("Does Acme Inc.'s First Amendment to the Supply Agreement with Beta LLC cap liability?",
         "First Amendment to the Supply Agreement", {"supply-amendment"}),
        ("Does First Amendment to the Supply Agreement between Acme Inc. and Beta LLC cap liability?",
         "First Amendment to the Supply Agreement", {"supply-amendment"}),
        ("Does Amendment No. 2 to the Supply Agreement between Acme Inc. and Beta LLC cap liability?",
         "Amendment No. 2 to the Supply Agreement", set()),
        ("Does Acme Inc.'s Supply Agreement with Beta LLC cap liability?", "Supply Agreement", {"supply"}),
    ],
)
def test_an_amendment_in_the_lead_is_the_subject_never_its_parent(
    kb: KB, question: str, title: str, docs: set[str]
) -> None:
    found, _ = kb.docs(question)
    assert parse_question(question).agreement_title == title
    assert found == docs


# -- the party bound: 16 names per question, and a bigger contract is reached by naming fewer ---------


def test_a_contract_with_more_parties_than_the_bound_is_reached_by_naming_some_of_them(kb: KB) -> None:
    # Decision (issue 9): the bound stays at 16 names, the same bound as a structured subject's
    # ``parties``. Every named party must be bound, not every party named, so an analyst asks
    # about a 17-party contract by naming the parties that matter; naming all 17 is refused
    # with a reason that says so, never cut to a shorter list.
    title = "Construction and Maintenance Agreement"
    everyone = f"{', '.join(CONSORTIUM[:-1])} and {CONSORTIUM[-1]}"
    docs, result = kb.docs(f"What law governs the {title} among {everyone}?")
    assert (docs, result.failures) == (set(), ["too many party names (17 > 16); name at most 16"])
    sixteen = f"{', '.join(CONSORTIUM[:15])} and {CONSORTIUM[16]}"
    docs, result = kb.docs(f"What law governs the {title} among {sixteen}?")
    assert (docs, result.failures) == ({"consortium"}, [])
    docs, _ = kb.docs(f"What law governs the {title} between {CONSORTIUM[0]} and {CONSORTIUM[16]}?")
    assert docs == {"consortium"}
    # A party of the list that is not bound still fails the question.
    docs, _ = kb.docs(f"What law governs the {title} between {CONSORTIUM[0]} and Romeo Cable Ltd.?")
    assert docs == set()


@pytest.mark.parametrize(
    ("question", "parties"),
    [
        # Before, each also named a party "Kohl", "Papa John" or "McDonald" that no agreement
        # binds, and an agreement in the knowledge base was refused.
        ("Can Kohl's Corporation terminate the Supply Agreement with Acme LLC?", ["Kohl's Corporation", "Acme LLC"]),
        ("For the Endorsement Agreement (ABG-Shaq, LLC / Papa John's International, Inc), what is the governing law?",
         ["Papa John's International, Inc", "ABG-Shaq, LLC"]),
        ("Under McDonald's Corporation's Supply Agreement with Acme LLC, who pays freight?",
         ["McDonald's Corporation", "Acme LLC"]),
        # An owner without a legal form after it is still an owner, a party that must be bound.
        ("Under Acme's Supply Agreement with Beta LLC, who pays freight?", ["Acme", "Beta LLC"]),
    ],
)
def test_a_possessive_inside_a_company_name_names_no_owner(question: str, parties: list[str]) -> None:
    assert parse_question(question).parties == parties


def test_a_possessive_runs_on_to_a_legal_form_within_four_words_only() -> None:
    from service.evidence.subject_class import _AFTER_POSSESSIVE_WORDS, named_parties

    assert _AFTER_POSSESSIVE_WORDS == 4
    assert named_parties("Does Kestrel's Alpha Beta Holdings, Inc. say?").pieces == ["Kestrel's Alpha Beta Holdings, Inc."]
    # The form as the fifth word: the owner is "Kestrel", and the company a name of its own.
    assert named_parties("Does Kestrel's Alpha Beta Gamma Holdings, Inc. say?").pieces == [
        "Kestrel", "Kestrel's Alpha Beta Gamma Holdings, Inc."
    ]
