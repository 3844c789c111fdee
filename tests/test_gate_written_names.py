"""A question may name a bound party as its party clause writes it, wider than the name the
extraction bound ("Kestrel Holdings AG Optics Sector, Lenses & Coatings" where "Kestrel Holdings
AG" was read; "The Harbour Light, Heat and Power Company" where "The Harbour Light" was read). The
gate accounts for such a name only when the clause writes it verbatim over the whole bound name,
at the place the ``party_to`` binding cites, a few words wider and over no other bound name:
never a shorter name, a parent, or a name elsewhere in the clause.

``written_around`` is tested alone on typed input; the gate on a real SQLite store filled by the
real ingest pipeline (spaCy, MiniLM). Nothing is mocked; every name is invented."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from service.evidence.written_names import WrittenName, written_around, written_names
from tests.kb import KB, OPERATOR, ingested_kb

CLAUSE = (
    'by and among Kestrel Holdings AG Optics Sector, Lenses & Coatings, a German company ("Kestrel"), '
    'and Tallisk Foods LLC, an Ohio limited liability company, a subsidiary of Orvelle Group, Inc. ("Buyer").'
)
KESTREL = CLAUSE.index("Kestrel Holdings AG")
TALLISK = CLAUSE.index("Tallisk Foods LLC")
SLOTS = (
    WrittenName(CLAUSE, KESTREL, KESTREL + len("Kestrel Holdings AG"), ((TALLISK, TALLISK + len("Tallisk Foods LLC")),)),
    WrittenName(CLAUSE, TALLISK, TALLISK + len("Tallisk Foods LLC"), ((KESTREL, KESTREL + len("Kestrel Holdings AG")),)),
)


@pytest.mark.parametrize(
    "name",
    [
        "Kestrel Holdings AG Optics Sector, Lenses & Coatings",
        "KESTREL HOLDINGS AG OPTICS SECTOR",  # case aside
        "Kestrel Holdings AG Optics   Sector",  # spacing aside
    ],
)
def test_a_name_the_clause_writes_over_a_bound_name_is_accounted_for(name: str) -> None:
    assert written_around(name, SLOTS)


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("Kestrel Holdings AG", "the bound name itself: the registry's own match decides"),
        ("Kestrel Holdings", "shorter than the bound name"),
        ("Orvelle Group, Inc.", "a parent named in the clause, over no bound name"),
        ("Tallisk Foods LLC, an Ohio limited liability company, a subsidiary of Orvelle Group, Inc.", "too far past"),
        ("Kestrel Holdings AG Medical Sector", "words the clause does not write there"),
    ],
)
def test_other_names_are_not(name: str, why: str) -> None:
    assert not written_around(name, SLOTS), why


@pytest.mark.parametrize(
    ("text", "bound", "asked"),
    [
        # Shapes the adversarial bench asks (a capitalised run of the party clause that holds a
        # bound name): an address, a signature's "By", a sentence's next word, a place after a
        # complete name, a signatory's title and a description before the name.
        ("Harlow Corporation 780 Quill Expressway Suite 406 Westport", "Harlow Corporation",
         "Harlow Corporation 780 Quill Expressway Suite 406 Westport"),
        ("HARLOW PEAK GP L.P.\nBy: /s/ Jane Roe", "HARLOW PEAK GP L.P.", "HARLOW PEAK GP L.P. By"),
        ("between KESTREL Inc.    With offices in Ohio", "KESTREL Inc.", "KESTREL Inc. With"),
        ("and Westland Quill Ltd. of Westport, a company", "Westland Quill Ltd.", "Westland Quill Ltd. of Westport"),
        ("Authorized Signatory JANE ROE", "JANE ROE", "Authorized Signatory JANE ROE"),
        ("and A Quill Valley Company, a Nevada company", "Quill Valley Company", "A Quill Valley Company"),
        # A place after the name (a city read as a party stays that city alone).
        ("having places of business in Westport, California and Austin, Texas, and", "Austin", "Austin, Texas"),
    ],
)
def test_no_address_signature_place_or_title_widens_a_name(text: str, bound: str, asked: str) -> None:
    start = text.index(bound)
    assert not written_around(asked, (WrittenName(text, start, start + len(bound), ()),))


def test_a_name_opened_by_its_article_is_read_wider() -> None:
    text = "Part I General Rules\nThe Westland Medical Group Company Limited (hereafter Party A)"
    start = text.index("Westland")
    slots = (WrittenName(text, start, start + len("Westland Medical Group Company Limited"), ()),)
    assert written_around("The Westland Medical Group Company Limited", slots)
    assert not written_around("Rules The Westland Medical Group Company Limited", slots)


def test_a_wider_name_adds_no_list_and_no_words_before_a_comma() -> None:
    text = "located in Westport, Ohio and Acme Foods Inc. (\"Acme\") and Beta Labs LLC"
    acme = text.index("Acme Foods")
    slots = (WrittenName(text, acme, acme + len("Acme Foods Inc."), ()),)
    assert not written_around("Westport, Ohio and Acme Foods Inc.", slots)
    assert not written_around("Ohio and Acme Foods Inc.", slots)
    text = "Westport, Acme Foods Inc. Retail Division"
    acme = text.index("Acme Foods")
    slots = (WrittenName(text, acme, acme + len("Acme Foods Inc."), ()),)
    assert not written_around("Westport, Acme Foods Inc.", slots)
    assert written_around("Acme Foods Inc. Retail Division", slots)


def test_a_wider_name_may_cover_no_other_bound_name_nor_cross_an_entry_break() -> None:
    text = "between Acme Foods Inc. Beta Labs LLC; Gamma Ltd.\n\nDelta Group"
    acme, beta = text.index("Acme"), text.index("Beta")
    slots = (WrittenName(text, acme, acme + len("Acme Foods Inc."), ((beta, beta + len("Beta Labs LLC")),)),)
    assert not written_around("Acme Foods Inc. Beta Labs LLC", slots)
    gamma = text.index("Gamma")
    slots = (WrittenName(text, gamma, gamma + len("Gamma Ltd."), ()),)
    assert not written_around("Gamma Ltd. Delta Group", slots)
    assert not written_around("Beta Labs LLC; Gamma Ltd.", slots)


def test_written_names_uses_a_binding_only_where_a_spelling_of_its_party_stands() -> None:
    clauses = [{"source": "preamble", "char_start": 100, "char_end": 100 + len(CLAUSE), "text": CLAUSE}]
    bound = [
        (100 + KESTREL, 100 + KESTREL + 40, ["Kestrel Holdings AG"]),
        (100 + TALLISK, 100 + TALLISK + 20, ["Someone Else Ltd."]),  # cites no spelling of its party
        (5, 9, ["Kestrel Holdings AG"]),  # outside every clause
    ]
    assert written_names(clauses, bound) == (
        WrittenName(CLAUSE, KESTREL, KESTREL + len("Kestrel Holdings AG"), ()),
    )
    assert written_names(None, bound) == ()
    assert written_names([{"text": CLAUSE}], bound) == ()  # a damaged record reads as none


SUPPLY = (
    "SUPPLY AGREEMENT\n\nThis Supply Agreement is made on 1 May 2020 by and among Kestrel Holdings AG Optics Sector, "
    "Lenses & Coatings, a company organised under the laws of Germany (\"Kestrel\"), The Harbour Light, Heat and "
    "Power Company, an Ohio corporation (\"HLHP\") with its office located in Westport, Ohio and Tallisk Foods LLC, "
    "an Ohio limited liability company, a subsidiary of Orvelle Group, Inc. (\"Buyer\").\n\n1. Governing Law. This "
    "Agreement shall be governed by the laws of Germany.\n"
)


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory, embedder) -> Iterator[KB]:
    yield from ingested_kb(tmp_path_factory, embedder, "written-names-kb", {"supply": SUPPLY})


def test_the_extraction_binds_the_narrower_names(kb: KB) -> None:
    # What the gate widens: the parties as read (if the extraction ever reads the whole names,
    # this test says so and the gate tests below still hold).
    (agreement,) = kb.store.find_subjects(OPERATOR, subject_ids=["agreement:supply agreement@supply"], limit=5)
    assert sorted(agreement.attributes["parties"]) == ["org:harbour light", "org:kestrel holdings", "org:tallisk foods"]


@pytest.mark.parametrize(
    "question",
    [
        "What law governs the Supply Agreement between Kestrel Holdings AG Optics Sector, Lenses & Coatings and "
        "Tallisk Foods LLC?",
        "What law governs the Supply Agreement among KESTREL HOLDINGS AG OPTICS SECTOR, The Harbour Light and "
        "Tallisk Foods LLC?",
        # The bound names still bind as before.
        "What law governs the Supply Agreement between Kestrel Holdings AG and Tallisk Foods LLC?",
    ],
)
def test_a_party_named_as_its_clause_writes_it_passes(kb: KB, question: str) -> None:
    docs, result = kb.docs(question)
    assert docs == {"supply"}, result.rejected


@pytest.mark.parametrize(
    ("question", "refused"),
    [
        # The parent named in the clause is no party, though it stands next to one.
        ("What law governs the Supply Agreement between Kestrel Holdings AG and Orvelle Group, Inc.?",
         "'Orvelle Group, Inc'"),
        # A shorter name than the bound one is not read inside it.
        ("What law governs the Supply Agreement between Kestrel Holdings AG and Tallisk?", "'Tallisk'"),
        # Words the clause does not write after the bound name.
        ("What law governs the Supply Agreement between Kestrel Holdings AG Medical Sector and Tallisk Foods LLC?",
         "'Kestrel Holdings AG Medical Sector'"),
        # A place joined to a bound name by "and" is written there, but it is a list, no name.
        ("What law governs the Supply Agreement between Kestrel Holdings AG and Westport, Ohio and Tallisk Foods LLC?",
         "'Westport'"),
        # Nor is a name that holds "and" past the bound one widened (a limit: the whole utility name
        # "The Harbour Light, Heat and Power Company" is refused while "The Harbour Light" binds).
        ("What law governs the Supply Agreement among The Harbour Light, Heat and Power Company, Kestrel Holdings AG and "
         "Tallisk Foods LLC?", "'Power Company'"),
    ],
)
def test_names_the_clause_does_not_write_over_a_bound_name_are_refused(kb: KB, question: str, refused: str) -> None:
    docs, result = kb.docs(question)
    assert docs == set()
    assert any(refused in r["reason"] for r in result.rejected), result.rejected


def test_bound_a_wider_name_reaches_at_most_120_characters_past_the_bound_name() -> None:
    for reach, accepted in ((120, True), (121, False)):
        tail = " " + "Q" * (reach - 1)
        text = f'between Acme Inc.{tail} ("Acme")'
        start = text.index("Acme")
        assert written_around(f"Acme Inc.{tail}", (WrittenName(text, start, start + len("Acme Inc."), ()),)) is accepted
