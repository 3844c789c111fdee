"""Where a party's name starts and ends (issue 9): brackets, quotes, "of the", branches and form
labels inside or after a name, and the false parties the readers must not bind. Invented names,
the real spaCy pipeline; each case asserts the exact names.
"""

from __future__ import annotations

import pytest

from ingest.names import ends_in_legal_suffix, name_at, party_name_forms
from tests.helpers import bound_party_names

NAME_AT: list[tuple[str, str]] = [
    # A quoted short token between capitalised words of a name that ends in a legal form.
    ('PLAYS "N" GAMES, INC.,\nas Borrower', 'PLAYS "N" GAMES, INC.'),
    # ... and without the legal form the quote ends the name (a defined term; a person's
    # nickname, 'Marcus "Flash" Thompson', is read inside: tests/test_party_name_inner_shapes.py).
    ('Harbour "HB" Group and', "Harbour"),
    # A bracketed number written against a capitalised word.
    ("QX(3) TRADING AND LOGISTICS INC., a body", "QX(3) TRADING AND LOGISTICS INC."),
    # A bracketed place of several words right before the legal form.
    ("WESTERLY BANK (NEW ZEALAND) LIMITED\n", "WESTERLY BANK (NEW ZEALAND) LIMITED"),
    ("Fernhill (Licence Holdings) Pty Ltd (Receivers appointed)", "Fernhill (Licence Holdings) Pty Ltd"),
    # ... but not a bracketed phrase that no legal form follows.
    ("Fernhill Group (Receivers Appointed) and", "Fernhill Group"),
    # "of the" over a line break.
    ("The Trustees\nof the University of Westland, a public body", "The Trustees\nof the University of Westland"),
    # A branch named after the legal form.
    ("Kestrel Bank Co., Ltd Harbour City Branch\nAddress:", "Kestrel Bank Co., Ltd Harbour City Branch"),
    ("KESTREL BANK CO., LTD. HARBOUR MUNICIPAL BRANCH EASTSIDE SUB-BRANCH\n", "KESTREL BANK CO., LTD. HARBOUR MUNICIPAL BRANCH EASTSIDE SUB-BRANCH"),
    ("KESTREL BANK LIMITED, NORTHPORT BRANCH\nas Agent", "KESTREL BANK LIMITED, NORTHPORT BRANCH"),
    # A form's field label before its colon ends the name.
    ("Wenli\nZhou\nDate:\nMay 3, 2011", "Wenli\nZhou"),
    ("Jane Roe Signature: ____", "Jane Roe"),
    # Without the colon the word stays part of the name.
    ("Northgate Title\nBy:", "Northgate Title"),
]


@pytest.mark.parametrize(("text", "expected"), NAME_AT)
def test_name_at_reads_the_whole_name(text: str, expected: str) -> None:
    found = name_at(text, 0, len(text))
    assert found is not None and found.text == expected


SHAPES: dict[str, tuple[str, set[str]]] = {
    "quoted_letter_in_a_listed_name": (
        "CREDIT AGREEMENT\n\nThis Credit Agreement is made between PLAYS \"N\" GAMES, INC., a Delaware "
        "corporation (the \"Borrower\"), and Harbour National Bank (the \"Agent\").\n\n1. Definitions.",
        {'PLAYS "N" GAMES, INC.', "Harbour National Bank"},
    ),
    "regents_over_a_line_break": (
        "RESEARCH AGREEMENT\n\nThis Research Agreement is entered into by and between Quillon Devices, Inc., "
        "a Delaware corporation (\"Sponsor\") and The Trustees\nof the University of Westland, a public "
        "body (\"University\").\n\nRECITALS\n",
        {"Quillon Devices, Inc.", "The Trustees of the University of Westland"},
    ),
    # A title line's "between" names a party again, written without the preamble's article.
    "same_name_but_an_article": (
        "Guaranty Agreement between Wrenfield Partners, L.P. and Harbour Savings Bank, F.S.B.\n\nTHIS GUARANTY "
        "AGREEMENT is executed as of May 2, 2003, by and between WRENFIELD PARTNERS, L.P. (\"Guarantor\") and "
        "HARBOUR SAVINGS BANK, A F.S.B. (\"Lender\"). WHEREAS, Lender makes loans.",
        {"Wrenfield Partners, L.P.", "HARBOUR SAVINGS BANK, A F.S.B."},
    ),
}


_bound = bound_party_names


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_party_shape_binds_exactly_its_parties(shape: str) -> None:
    text, names = SHAPES[shape]
    assert _bound(text) == names


def test_a_branch_is_asked_for_by_its_bank_name_too() -> None:
    """A branch is no legal person: the bank's name alone is a form of the party; the entity id
    is still made from the branch's name (the last form), as a contract may name both; without a
    legal form before it nothing is cut."""
    assert party_name_forms("Osprey Capital AG, Zurich Branch") == ["Osprey Capital AG", "Osprey Capital AG, Zurich Branch"]
    assert party_name_forms("KESTREL BANK CO., LTD. HARBOUR MUNICIPAL BRANCH EASTSIDE SUB-BRANCH") == [
        "KESTREL BANK CO., LTD.",
        "KESTREL BANK CO., LTD. HARBOUR MUNICIPAL BRANCH EASTSIDE SUB-BRANCH",
    ]
    assert party_name_forms("WESTLAND FARMERS BANK HARBOUR BRANCH") == ["WESTLAND FARMERS BANK HARBOUR BRANCH"]
    assert ends_in_legal_suffix("Osprey Capital AG, Zurich Branch")
    assert not ends_in_legal_suffix("WESTLAND FARMERS BANK HARBOUR BRANCH")
