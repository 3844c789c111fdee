"""Whether a text is a letter agreement is decided once (``agreements.read_letter``, a typed
``Letter``): the title reader takes its subject line as the title, and party reading reads a
letter's parties, not a preamble's, when that subject is the title. Invented names only."""

from __future__ import annotations

import pytest

from ingest import agreements, annotate
from ingest.agreements import Letter, Title, find_title, letter_subject, read_letter
from tests.helpers import bound_party_names

LETTER = (
    "Zarvix Trading Limited\n12 Harbour Road\nKowloon\n\nAttn: Mr Ivo Pell\n\nDear Sirs,\n"
    "{subject}\n"
    'Quorra Bank Limited (the "Bank") is pleased to offer the facility below under the Harbour Guarantee'
    ' Scheme of Kestrel Insurance Limited ("KIL") on the terms and conditions set out in this letter.\n'
    "BORROWER: Zarvix Trading Limited\n\nYours faithfully,\nQuorra Bank Limited\n\n"
    "Accepted and agreed:\nZarvix Trading Limited\n"
)
TITLED = LETTER.format(subject="TERM LOAN FACILITY")
PARTIES = {"Quorra Bank Limited", "Zarvix Trading Limited"}


def test_a_letter_titled_by_its_subject_is_read_once_with_salutation_and_subject() -> None:
    start = TITLED.index("TERM LOAN")
    letter = read_letter(TITLED)
    assert letter == Letter(TITLED.index("Dear Sirs"), Title("TERM LOAN FACILITY", start, start + 18))
    # The title reader takes the letter's subject as the title, and the letter knows it.
    title = find_title(TITLED)
    assert title == letter.subject and letter_subject(TITLED) == letter.subject
    assert letter.titled_by_subject(title)


def test_a_reference_line_is_no_subject_and_a_cover_letter_no_letter() -> None:
    referenced = LETTER.format(subject="Re: Banking Facilities")
    letter = read_letter(referenced)
    assert letter == Letter(referenced.index("Dear Sirs"), None)
    assert not letter.titled_by_subject(None)
    assert not letter.titled_by_subject(Title("Re: Banking Facilities", 0, 22))
    cover = "Dear Sirs,\nANNUAL REPORT\nPlease find our annual report enclosed.\n"
    assert read_letter(cover) is None and letter_subject(cover) is None


def test_the_title_reader_consumes_the_decision(monkeypatch: pytest.MonkeyPatch) -> None:
    # Decided to be no letter, the subject line names nothing: no title at all.
    monkeypatch.setattr(agreements, "read_letter", lambda text: None)
    assert find_title(TITLED) is None


def test_party_reading_consumes_the_decision(monkeypatch: pytest.MonkeyPatch) -> None:
    assert bound_party_names(TITLED) == PARTIES
    # The same text decided to be no letter: its title then opens a contract preamble, whose
    # definitions are read as a preamble's parties (the insurer the prose defines as "KIL" too).
    monkeypatch.setattr(annotate, "read_letter", lambda text: None)
    assert bound_party_names(TITLED) == {
        "Dear Sirs, TERM LOAN FACILITY Quorra Bank Limited",
        "Harbour Guarantee Scheme of Kestrel Insurance Limited",
        "Zarvix Trading Limited",
    }
