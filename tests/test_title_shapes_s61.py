"""Title shapes of stop 61 (issue 9), found on the read halves of the fresh real openings
(``bench/gate_sets.py``); the names here are invented.

A title that names its subject after the agreement word is also named by its head.
The alias existed for a heading on one line with "on/for/regarding/concerning" ("Cooperation
Agreement on Mobile Game Business" is also the "Cooperation Agreement"). It was missing for a
heading set over several lines ("MANAGEMENT\\n\\nAGREEMENT\\n\\nFOR CLASS III GAMING ENTERPRISE")
and for a subject after "with" ("... MARKETING AGREEMENT WITH OPTION TO PURCHASE STATION"), and
for a title over two lines its span was computed from the collapsed text: a wrong span and a
truncated alias ("EXECUTIVE SUPPLEMENTAL RETIREMENT"). The gate matches the alias exactly, with
every named party bound; an amendment's head is never one.

An amendment of an agreement titled with the agreement word first ("THIRD AMENDMENT TO THE
AGREEMENT FOR THE SUPPLY OF SUGARCANE JUICE AND OTHER UTILITIES") was titled "THIRD AMENDMENT TO
THE AGREEMENT", its parent "AGREEMENT": the question naming it whole was refused. Its heading line
is now read whole when the parent with the rest of the line is such a title.

The gate tests run on a real SQLite store filled by the real ingest pipeline (spaCy, MiniLM)."""

from __future__ import annotations

from collections.abc import Iterator

import re

import pytest

from ingest.agreements import Title, TitleAlias, agreement_names, amendment_of, title_aliases
from tests.kb import KB, ingested_kb

GAMING = (
    "                                   MANAGEMENT\n\n                                    AGREEMENT\n\n"
    "                         FOR CLASS II HARBOR GAMING ENTERPRISE\n\n                                     BETWEEN\n\n"
    "                                THE QUILLAN NATION\n                          A FEDERALLY RECOGNIZED TRIBE\n\n"
    "                                       AND\n\n                                HARBOR QUILLAN, LLC\n"
    "                      A MINNESOTA LIMITED LIABILITY COMPANY\n\n\n\n"
    "         THIS MANAGEMENT AGREEMENT, is made and entered into this 5th day of\nJuly, 2001 by and between The "
    'Quillan Nation (hereinafter referred to as "the Tribe"), and Harbor Quillan, LLC, a Minnesota limited '
    'liability company (hereinafter\nreferred to as "Manager").\n\n'
    "1. Governing Law. This Agreement shall be governed by the laws of the State of Minnesota.\n"
)
STATION = (
    "EXHIBIT 10.08.01 EXECUTION COPY LOCAL PROGRAMMING AND MARKETING AGREEMENT WITH OPTION TO PURCHASE STATION This "
    'Local Programming and Marketing Agreement with Option to Purchase Station (the "Agreement"), dated as of August '
    '13, 1999, is entered into by and between QUILLCAST MEDIA GROUP, INC. ("Licensee"), and RADIO 1340, INC. '
    '("Programmer"). 1. This Agreement shall be governed by the laws of the State of Ohio.\n'
)
RETIREMENT = "EXECUTIVE SUPPLEMENTAL RETIREMENT\n    INCOME AGREEMENT\n    FOR HAROLD QUILL\n\nQUILLSTONE FEDERAL BANK\n"


def _head_aliases(text: str, title: str) -> list[TitleAlias]:
    """The alias of a title read at the first place its words stand (white space collapsed, as
    the title reader gives it)."""
    written = re.compile(r"\s+".join(map(re.escape, title.split()))).search(text)
    assert written is not None
    return [a for a in title_aliases(text, Title(title, written.start(), written.end())) if a.source == "heading"]


def test_a_heading_over_several_lines_is_also_named_by_its_head() -> None:
    assert _head_aliases(GAMING, "MANAGEMENT AGREEMENT FOR CLASS II HARBOR GAMING ENTERPRISE") == [
        TitleAlias("MANAGEMENT AGREEMENT", 35, 92, "heading")
    ]
    # The span is the text's own: the head's two words across the blank line.
    assert " ".join(GAMING[35:92].split()) == "MANAGEMENT AGREEMENT"


def test_a_subject_after_with_leaves_the_head_as_an_alias() -> None:
    assert _head_aliases(STATION, "LOCAL PROGRAMMING AND MARKETING AGREEMENT WITH OPTION TO PURCHASE STATION") == [
        TitleAlias("LOCAL PROGRAMMING AND MARKETING AGREEMENT", 32, 73, "heading")
    ]
    # The preamble's own name, "and" inside its head.
    assert _head_aliases(
        STATION, "Local Programming and Marketing Agreement with Option to Purchase Station"
    ) == [TitleAlias("Local Programming and Marketing Agreement", 111, 152, "heading")]


def test_a_head_over_two_lines_has_its_whole_span() -> None:
    # Before: "EXECUTIVE SUPPLEMENTAL RETIREMENT" (the collapsed head's length laid over the text).
    assert _head_aliases(RETIREMENT, "EXECUTIVE SUPPLEMENTAL RETIREMENT INCOME AGREEMENT FOR HAROLD QUILL") == [
        TitleAlias("EXECUTIVE SUPPLEMENTAL RETIREMENT INCOME AGREEMENT", 0, 54, "heading")
    ]


@pytest.mark.parametrize("title", [
    "AMENDMENT 1 TO THE AGREEMENT FOR PURCHASE AND SALE OF WIDGETS",  # an amendment's head: no alias
    "SUPPLY AGREEMENT WITH",  # nothing after the joining word
    "SUPPLY AGREEMENT WITH 3 OTHERS",  # a word after it that is no name
    "and Supply Agreement for Widgets",  # a head that opens with "and"
])
def test_guard_no_head_alias(title: str) -> None:
    text = f"{title}\n\nThis Agreement is made between Quillon Inc. and Harbor Widgets LLC.\n"
    assert _head_aliases(text, title) == []


THIRD_AMENDMENT = (
    "THIRD AMENDMENT TO THE AGREEMENT FOR THE SUPPLY OF CANE JUICE AND OTHER UTILITIES\nThat each other are:\n"
    "I- QUILLAMYR BRASIL LTDA, a limited liability company (\"Quillamyr\"), and\nII- HARBOR ACUCAR S.A., a "
    'corporation ("Harbor"), have agreed to amend the Agreement for the Supply of Cane Juice and Other Utilities.\n'
    "1. This Amendment shall be governed by the laws of Brazil.\n"
)


def _under_heading(heading: str) -> str:
    return (f"{heading}\n\nThis Amendment is made as of January 1, 1990 between QUILLON HOLDING CORPORATION, a New "
            "York corporation, and HARBOR TELEPHONE COMPANY, a New York corporation.\n")


@pytest.mark.parametrize(("heading", "parent"), [
    ("THIRD AMENDMENT TO THE AGREEMENT FOR THE SUPPLY OF CANE JUICE AND OTHER UTILITIES",
     "AGREEMENT FOR THE SUPPLY OF CANE JUICE AND OTHER UTILITIES"),
    ("AMENDMENT NO. 2 TO THE AGREEMENT FOR PURCHASE AND SALE OF WIDGETS", "AGREEMENT FOR PURCHASE AND SALE OF WIDGETS"),
    ("FIRST AMENDMENT TO AGREEMENT OF LIMITED PARTNERSHIP", "AGREEMENT OF LIMITED PARTNERSHIP"),
    ("Second Amendment to the Agreement for the Supply of Widgets", "Agreement for the Supply of Widgets"),
])
def test_an_amendment_of_an_agreement_titled_agreement_first_is_read_whole(heading: str, parent: str) -> None:
    title, _ = agreement_names(_under_heading(heading))
    assert title == Title(heading, 0, len(heading))
    amendment = amendment_of(title.text)
    assert amendment is not None and amendment.parent == parent


@pytest.mark.parametrize(("heading", "read"), [
    # A party list on the line is no title (since stop 66 the subject before it is: "FOR SUPPLY").
    ("FIRST AMENDMENT TO AGREEMENT FOR SUPPLY BETWEEN QUILLON AND HARBOR", "FIRST AMENDMENT TO AGREEMENT FOR SUPPLY"),
    # A parent with a name of its own keeps what was read before.
    ("FIRST AMENDMENT TO THE SUPPLY AGREEMENT", "FIRST AMENDMENT TO THE SUPPLY AGREEMENT"),
])
def test_guard_an_amendment_heading_not_read_further(heading: str, read: str) -> None:
    title, _ = agreement_names(_under_heading(heading))
    assert title is not None and title.text == read


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory, embedder) -> Iterator[KB]:
    yield from ingested_kb(
        tmp_path_factory, embedder, "title-shapes-s61", {"gaming": GAMING, "station": STATION, "third": THIRD_AMENDMENT},
    )


@pytest.mark.parametrize(("question", "doc"), [
    ("What law governs the MANAGEMENT AGREEMENT between The Quillan Nation and Harbor Quillan, LLC?", "gaming"),
    ("What law governs the Local Programming and Marketing Agreement between QUILLCAST MEDIA GROUP, INC. and RADIO "
     "1340, INC.?", "station"),
])
def test_the_head_names_the_agreement_with_its_parties_bound(kb: KB, question: str, doc: str) -> None:
    docs, result = kb.docs(question)
    assert docs == {doc}, result.rejected
    assert [c.match for c in result.candidates] == ["title alias + parties"]


def test_the_head_with_a_party_it_does_not_bind_is_refused(kb: KB) -> None:
    docs, result = kb.docs(
        "What law governs the MANAGEMENT AGREEMENT between The Quillan Nation and Harbor Gaming Partners, LLC?"
    )
    assert docs == set()
    assert any("'Harbor Gaming Partners, LLC'" in r["reason"] for r in result.rejected), result.rejected


def test_the_amendment_named_whole_passes_and_its_parent_is_not_it(kb: KB) -> None:
    docs, result = kb.docs("What law governs the Third Amendment to the Agreement for the Supply of Cane Juice and Other "
                           "Utilities between QUILLAMYR BRASIL LTDA and HARBOR ACUCAR S.A.?")
    assert docs == {"third"}, result.rejected
    assert [c.match for c in result.candidates] == ["title exact + parties"]
    # The agreement it amends is not in the knowledge base: the amendment never answers for it.
    docs, result = kb.docs("What law governs the Agreement for the Supply of Cane Juice and Other Utilities between "
                           "QUILLAMYR BRASIL LTDA and HARBOR ACUCAR S.A.?")
    assert docs == set()


@pytest.mark.parametrize(("head", "aliased"), [
    ("QUILL HARBOR WEST COAST CABLE MANAGEMENT", True),  # 6 words before the agreement word
    ("QUILL HARBOR WEST COAST CABLE TV MANAGEMENT", False),  # 7: past the bound, no alias
])
def test_bound_the_head_holds_at_most_six_words(head: str, aliased: bool) -> None:
    title = f"{head} AGREEMENT FOR CLASS II GAMING"
    expected = [TitleAlias(f"{head} AGREEMENT", 0, len(head) + 10, "heading")] if aliased else []
    assert _head_aliases(f"{title}\n\nThis Agreement is made between Quillon Inc. and Harbor LLC.\n", title) == expected
