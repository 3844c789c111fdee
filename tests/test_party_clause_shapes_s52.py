"""Party clause shapes read from the misses of real contract openings (issue 9, stop 52: half A of
the sets of stops 49-51; half B stays unread). Names are invented and texts rewritten from the
shapes. Each test but the guards fails on the code before its rule.
"""

from __future__ import annotations

from ingest.names import name_at, party_name_problem
from ingest.party_layout import layout_names
from tests.helpers import bound_party_aliases, bound_party_names

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


def test_a_heading_run_into_a_preamble_without_between_ends_before_the_first_name() -> None:
    # Before, the first party's definition read its antecedent from the heading on ("CLINICAL
    # SUPPLY AGREEMENT Harlow Vision Sciences"), no name, and only the second party was bound.
    text = (
        'CLINICAL SUPPLY AGREEMENT Harlow Vision Sciences, ("HVS"), a corporation incorporated under the laws '
        "of the State of California, with offices at 14 Main Street, Menlo Park, California 94025 and Kestrel "
        'Pharma, L.L.C., a New Mexico limited liability company ("Kestrel"), agree: 1. RECITALS.\n'
    )
    assert bound_party_aliases(text) == {"Harlow Vision Sciences": ["HVS"], "Kestrel Pharma, L.L.C.": ["Kestrel"]}


def test_guard_a_heading_on_its_own_line_keeps_its_reading() -> None:
    text = (
        'CLINICAL SUPPLY AGREEMENT\n\nHarlow Vision Sciences, Inc. ("HVS"), a California corporation, and '
        'Kestrel Pharma, L.L.C., a New Mexico limited liability company ("Kestrel"), agree:\n'
    )
    assert bound_party_aliases(text) == {"Harlow Vision Sciences, Inc.": ["HVS"], "Kestrel Pharma, L.L.C.": ["Kestrel"]}


def test_an_assignment_opening_for_value_received_names_its_maker() -> None:
    # Before, "For value received as stated below," kept the maker's definition from its name:
    # only the assignee was bound.
    text = (
        "ROYALTY AGREEMENT\n\nFor value received as stated below, Dana R. Holt of 67 Park, Richland WA 99352 "
        "(hereinafter ASSIGNOR), sells, assigns, transfers, and sets over unto Kestrel LLC of 9011 W. Klamath "
        "Ct., Kennewick, WA 99336 (hereinafter ASSIGNEE) 100% of the following:\n"
    )
    assert bound_party_aliases(text) == {"Dana R. Holt": ["ASSIGNOR"], "Kestrel LLC": ["ASSIGNEE"]}


def test_a_name_opened_by_a_lower_case_letter_and_a_digit() -> None:
    # Before, "k9networks, Inc." was no name (a name's first word had to open with a capital, or a
    # lower-case prefix before one: "eDiets").
    text = (
        "FIRST AMENDMENT TO ASSET PURCHASE AGREEMENT\n\nTHIS FIRST AMENDMENT is entered into as of June 9, 2000 "
        'by and between Harlow Laboratories, Inc., a New Jersey corporation ("Harlow"), and k9networks, Inc., a '
        'Florida corporation having its principal place of business at 806 Quay Road, Sarasota, Florida 34236 ("Seller").\n'
    )
    assert bound_party_aliases(text) == {"Harlow Laboratories, Inc.": ["Harlow"], "k9networks, Inc.": ["Seller"]}
    # Listed after a comma, such a name opens no description of the party before it.
    listed = (
        "FIRST AMENDMENT\n\nTHIS FIRST AMENDMENT is entered into as of June 9, 2000 by and between Harlow "
        'Laboratories, Inc., a New Jersey corporation ("Harlow"), Harlow Networks of the Southeast, Inc., a Delaware '
        'corporation ("Purchaser"), k9networks, Inc., a Florida corporation having its principal place of business '
        'at 806 Quay Road, Sarasota, Florida 34236 ("Seller") and the shareholders of the Seller.\n'
    )
    assert bound_party_aliases(listed) == {
        "Harlow Laboratories, Inc.": ["Harlow"],
        "Harlow Networks of the Southeast, Inc.": ["Purchaser"],
        "k9networks, Inc.": ["Seller"],
    }
    name = name_at("i2 Technologies, Inc. (the", 0, 26)
    assert name is not None and name.text == "i2 Technologies, Inc."


def test_a_cover_run_into_one_line_names_both_parties() -> None:
    # Before, only the second name was bound (by the learned review): the first ran on from the
    # heading's words.
    text = (
        "Dear Sirs, Enclosure JOINT VENTURE AGREEMENT HARLOW RESOURCES GHANA LIMITED AND KESTREL MINING GHANA "
        "LIMITED January 22, 2007 TABLE OF CONTENTS ---- 1. Definitions 2. Formation\n"
    )
    first, second = "HARLOW RESOURCES GHANA LIMITED", "KESTREL MINING GHANA LIMITED"
    covers = [(n.name.text, n.name.start) for n in layout_names(text) if n.shape == "cover"]
    assert covers == [(first, text.index(first)), (second, text.index(second))]
    assert bound_party_names(text) == {first, second}


def test_guard_a_run_in_cover_needs_a_legal_form_on_both_names() -> None:
    text = "SUPPLY AGREEMENT HARLOW RESOURCES LIMITED AND KESTREL MINING January 22, 2007 TABLE OF CONTENTS\n"
    assert [n for n in layout_names(text) if n.shape == "cover"] == []


def test_one_word_defined_as_itself_after_the_is_a_thing() -> None:
    # Before, "Tour" was bound as a third party of the agreement.
    text = (
        'PROMOTION AGREEMENT\n\nThe following Agreement (the "Agreement") shall serve as the complete understanding '
        'between Harlow Marketing Inc. ("HMI") and KESTREL TELEVISION NETWORK ("KTN") as it relates to the KTN '
        'presents the "Minty Fresh" Tour (the "Tour"). This Agreement covers work from July 1999.\n'
    )
    assert bound_party_aliases(text) == {"Harlow Marketing Inc.": ["HMI"], "KESTREL TELEVISION NETWORK": ["KTN"]}


def test_guard_a_one_word_name_defined_as_itself_without_the_is_a_party() -> None:
    text = 'LICENSE AGREEMENT\n\nThis Agreement is made between Quillsoft ("Quillsoft") and Harlow Inc. (the "Licensee").\n'
    assert bound_party_names(text) == {"Quillsoft", "Harlow Inc."}


def test_a_name_ending_in_a_joining_word_is_a_fragment() -> None:
    # Before, "University of" (of "the University of Texas System", cut before the state) was bound.
    assert party_name_problem("University of") == "fragment"
    assert party_name_problem("Harlow Bank of the") == "fragment"
    assert party_name_problem("Bank of the West") is None
    text = (
        "Research Agreement, by and between the Registrant and The Board of Regents of the University of Texas "
        "System, dated as of November 19, 2019\n\nRESEARCH AGREEMENT\n\nThe parties agree as follows.\n"
    )
    assert "University of" not in bound_party_names(text)
