"""Party clause shapes read from the misses of real contract openings (issue 9, stop 52: half A of
the sets of stops 49-51; half B stays unread). Names are invented and texts rewritten from the
shapes. Each test but the guards fails on the code before its rule.
"""

from __future__ import annotations

from ingest.party_layout import layout_names
from tests.helpers import bound_party_names

# A UK cover page with the entries' numbers after the names, one per line.
_STACKED_COVER = (
    "DATED 14 JANUARY 2002\n\nHARTWELL ANIMATIONS LIMITED (1)\n\n- AND -\n\nKESTREL GAMES LIMITED (2)\n\n"
    "------\nLICENCE AND OPTION AGREEMENT\n------\nSMITH & CO\n16 BEDFORD STREET\nLONDON\n"
)
# The same cover run into one line, the numbers closing the names without a space.
_RUN_IN_COVER = (
    "EXHIBIT 10.3 DATED 14 JANUARY 2002 HARTWELL ANIMATIONS LIMITED(1) - AND - KESTREL GAMES LIMITED(2) "
    "- AND - LARKSPUR GAMES, INC.(3) ------ LICENCE AND OPTION AGREEMENT ------ SMITH & CO 16 BEDFORD STREET\n"
)


def _items(text: str) -> list[tuple[str, int, int]]:
    return [(n.name.text, n.name.start, n.name.end) for n in layout_names(text) if n.shape == "item"]


def test_a_cover_numbering_its_entries_after_the_names_one_per_line() -> None:
    # Before, only "KESTREL GAMES LIMITED" was bound (by the learned review).
    first, second = "HARTWELL ANIMATIONS LIMITED", "KESTREL GAMES LIMITED"
    assert _items(_STACKED_COVER) == [
        (first, _STACKED_COVER.index(first), _STACKED_COVER.index(first) + len(first)),
        (second, _STACKED_COVER.index(second), _STACKED_COVER.index(second) + len(second)),
    ]
    assert bound_party_names(_STACKED_COVER) == {first, second}


def test_a_cover_numbering_its_entries_after_the_names_run_into_one_line() -> None:
    # The date's year ends the first name: "2002 HARTWELL ..." is no name.
    names = ["HARTWELL ANIMATIONS LIMITED", "KESTREL GAMES LIMITED", "LARKSPUR GAMES, INC."]
    assert _items(_RUN_IN_COVER) == [(n, _RUN_IN_COVER.index(n), _RUN_IN_COVER.index(n) + len(n)) for n in names]
    assert bound_party_names(_RUN_IN_COVER) == set(names)


def test_guard_one_numbered_entry_or_entries_without_a_legal_form_are_no_cover() -> None:
    # One number is a footnote's mark as often as an entry; a numbered heading run has no legal form.
    one = "DATED 14 JANUARY 2002\n\nHARTWELL ANIMATIONS LIMITED (1)\n\nLICENCE AGREEMENT\n"
    headings = "CONTENTS\n\nGENERAL TERMS (1)\n\nSPECIAL TERMS (2)\n\nSUPPLY AGREEMENT\n"
    assert _items(one) == []
    assert _items(headings) == []


def test_guard_the_numbers_must_run_from_one_in_order() -> None:
    text = "DATED 2002\n\nHARTWELL ANIMATIONS LIMITED (2)\n\nKESTREL GAMES LIMITED (3)\n\nLICENCE AGREEMENT\n"
    assert _items(text) == []
