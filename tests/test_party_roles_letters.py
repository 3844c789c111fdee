"""Parties named with their capacity ("X, as Administrative Agent") and the parties of a letter
agreement (issue 9; names invented for these tests, not from CUAD or any filing). Real spaCy
pipeline: per shape, exactly the parties bound by ``party_to`` and the names never bound.
"""

from __future__ import annotations

import pytest

from ingest.annotate import annotate_document
from ingest.definitions import preamble_windows
from ingest.letter_parties import LETTER_OPENING_CHARS, letter_salutation, letter_signature_start
from ingest.party_capacities import capacity_names, overread
from tests.helpers import bound_party_names


_bound = bound_party_names


# Per shape: the text, the parties bound (exactly), and names that must not be bound.
CAPACITY_SHAPES: dict[str, tuple[str, set[str], set[str]]] = {
    # A cover page after "among": one entry per line, several names sharing one role, a class of
    # lenders (no name) and an arranger the list names (a party).
    "cover_stack_after_among": (
        "REVOLVING CREDIT AGREEMENT\n\ndated as of March 3, 2014\n\namong\n\nQUARRYSTONE FOODS, INC.,\nas Borrower,\n\n"
        "THE LENDERS FROM TIME TO TIME PARTY HERETO,\n\nHALVERSON NATIONAL BANK,\nas Administrative Agent,\n\n"
        "MERIDEN TRUST BANK, N.A.,\nPELLAM SAVINGS BANK\nand\nORLOV BANK AG, DENVER BRANCH,\nas Co-Documentation Agents,\n\n"
        "and\n\nHALVERSON CAPITAL MARKETS, INC.,\nas Lead Arranger and Bookrunner\n\nTABLE OF CONTENTS\n\n"
        "ARTICLE I DEFINITIONS\n",
        {
            "QUARRYSTONE FOODS, INC.", "HALVERSON NATIONAL BANK", "MERIDEN TRUST BANK, N.A.", "PELLAM SAVINGS BANK",
            "ORLOV BANK AG, DENVER BRANCH", "HALVERSON CAPITAL MARKETS, INC.",
        },
        {"THE LENDERS FROM TIME TO TIME PARTY HERETO", "ORLOV BANK AG"},
    ),
    # The same construction in a preamble sentence; the Lenders are a class; a name joined to
    # another by a lower-case "and" in a shouted list is two names.
    "preamble_sentence": (
        "CREDIT AGREEMENT\n\nThis CREDIT AGREEMENT is entered into as of June 1, 2016 among TALLIS HOLDINGS, INC., "
        "as Borrower, THE LENDERS FROM TIME TO TIME PARTY HERETO, BANK OF WESTMARCH, N.A., as Administrative Agent "
        "and Collateral Agent, and GRESHAM FIRST BANK and CALDER BANK, as Co-Syndication Agents.\n\n"
        "The parties agree as follows:\n",
        {"TALLIS HOLDINGS, INC.", "BANK OF WESTMARCH, N.A.", "GRESHAM FIRST BANK", "CALDER BANK"},
        {"GRESHAM FIRST BANK and CALDER BANK"},
    ),
    # A cover without "among": an arranger the cover alone names is no party; "not in its
    # individual capacity but solely as trustee" keeps the name before it. The company named
    # alone above a loan agreement's title is its borrower, a party (the learned review adds it
    # since it learned from real credit covers that name the borrower there).
    "cover_without_among": (
        "EXECUTION VERSION\n\nPENROSE MILLS CORPORATION\n\nTERM LOAN AGREEMENT\n\nDated as of May 2, 2018\n\n"
        "ALDER SECURITIES LLC,\nas Lead Arranger and Book Manager\n\nKESTREL BANK,\nas Administrative Agent\n\n"
        "FENWAY BANK AG NEW YORK BRANCH,\nas Syndication Agent\n\nTABLE OF CONTENTS\n",
        {"PENROSE MILLS CORPORATION", "KESTREL BANK", "FENWAY BANK AG NEW YORK BRANCH"},
        {"ALDER SECURITIES LLC"},
    ),
    # A cover that lists the parties above the title is the party list itself: its arrangers,
    # a name in another script under the borrower's, and a class of lenders (no name).
    "party_list_above_the_title": (
        "EXECUTION VERSION\n\nDated 9 May 2022\n\nLOTUS BAY GROUP LIMITED\n\n蓮灣集團有限公司\n\nas Borrower\n\n"
        "GARNET BANK LIMITED\n\nTOPAZ BANK LTD.\n\nas Mandated Lead Arrangers\n\n"
        "THE FINANCIAL INSTITUTIONS LISTED IN SCHEDULE 1\n\nas Original Lenders\n\nand\n\nGARNET BANK LIMITED\n\n"
        "as Agent\n\nFACILITY AGREEMENT\n\nfor a term loan facility\n",
        {"LOTUS BAY GROUP LIMITED", "GARNET BANK LIMITED", "TOPAZ BANK LTD."},
        {"THE FINANCIAL INSTITUTIONS LISTED IN SCHEDULE 1"},
    ),
    "owner_trustee_capacity": (
        "PARTICIPATION AGREEMENT\n\namong\n\nGRANITE TRUST COMPANY,\nNOT IN ITS INDIVIDUAL CAPACITY,\n"
        "BUT SOLELY AS OWNER TRUSTEE,\nAS BORROWER,\n\nAND\n\nLINDQVIST BANK,\nas Agent\n\nTABLE OF CONTENTS\n",
        {"GRANITE TRUST COMPANY", "LINDQVIST BANK"},
        {"BUT SOLELY", "NOT IN ITS INDIVIDUAL CAPACITY"},
    ),
    # "with X having acted as Arranger" and a lower-case capacity of a cited agreement name no entry.
    "no_entry": (
        "LOAN AGREEMENT\n\namong\n\nBRISTOW MARINE LLC\n\nand\n\nCORMAC BANK,\nas Lender\n\n"
        "with Pelham Securities Inc. having acted as Arranger.\n\nWHEREAS the Borrower entered into an indenture "
        "with Ostrander Trust Bank, as trustee, dated March 1, 2010.\n",
        {"BRISTOW MARINE LLC", "CORMAC BANK"},
        {"Pelham Securities Inc.", "Ostrander Trust Bank"},
    ),
}


@pytest.mark.parametrize("shape", sorted(CAPACITY_SHAPES))
def test_capacity_shapes_bind_exactly_their_parties(shape: str) -> None:
    text, parties, not_parties = CAPACITY_SHAPES[shape]
    bound = _bound(text)
    assert bound == parties
    assert not bound & not_parties


def test_capacity_names_read_each_entry_with_its_span() -> None:
    text = "AGREEMENT\n\namong\n\nDELMONT CORP.,\nas Borrower,\n\nSTAVE BANK, N.A.\nand\nRUNE BANK,\nas Agents\n\nTABLE OF CONTENTS\n"
    names = capacity_names(text, preamble_windows(text))
    assert [(n.text, n.start) for n in names] == [
        ("DELMONT CORP.", text.index("DELMONT")),
        ("STAVE BANK, N.A.", text.index("STAVE")),
        ("RUNE BANK", text.index("RUNE")),
    ]


def test_a_role_phrase_without_a_role_word_names_no_entry() -> None:
    # "as Amended" is no capacity: nothing is read from it.
    text = "AGREEMENT\n\namong\n\nHOLLIS BANK,\nas Amended\n\nTABLE OF CONTENTS\n"
    assert capacity_names(text, preamble_windows(text)) == []


def test_overread_names_two_entries_or_a_class() -> None:
    assert overread("THE LENDERS NAMED HEREIN, KESTREL BANK AG")
    assert overread("BRISK CAPITAL,\nKESTREL SECURITIES LLC")
    assert not overread("KESTREL BANK, N.A.")


def test_cover_entries_are_bounded() -> None:
    # At the bound of 40 role cues per list, later entries are not read.
    entries = "".join(f"BANK NUMBER{chr(65 + i // 26)}{chr(65 + i % 26)} BANK,\nas Agent,\n" for i in range(45))
    text = "AGREEMENT\n\namong\n\n" + entries + "\nTABLE OF CONTENTS\n"
    names = capacity_names(text, [(text.index("among"), len(text))])
    assert len(names) == 40


# Letters: the addressee block above the salutation, the sender's "we, X", the close and the
# acceptance under which each signs. An attention line, a guarantor scheme and a person who signs
# for a company are no parties.
LETTER_SHAPES: dict[str, tuple[str, set[str], set[str]]] = {
    "facility_letter_addressee_and_sender": (
        "Private & Confidential\n12 March 2023\n\nMarrow Harbour Trading Limited\nUnit 5, 9/F Quayside Centre\n"
        "Kowloon\nAttention: Mr. Ho Wing Tat\n\nDear Sirs,\n\nRe: Banking Facilities\n\nWith reference to our recent "
        "discussions, we, Tidewater Bank Limited (the \"Bank\"), are pleased to offer the following facilities to "
        "you on the terms and conditions set out in this Facility Letter, guaranteed under a scheme of the Orchid "
        "Guarantee Corporation Limited (\"OGC\").\n\n1. Borrower\nMarrow Harbour Trading Limited\n",
        {"Marrow Harbour Trading Limited", "Tidewater Bank Limited"},
        {"Ho Wing Tat", "Orchid Guarantee Corporation Limited"},
    ),
    # The sender opens the body with its name and definition; "Re:" and a heading come first.
    "facility_letter_speaking_sender": (
        "Our Ref: TB/2023/118\n\nLarkspur Components Limited\nFlat 3, 2/F Cedar House\nSha Tin\n\nDear Sirs,\n\n"
        "FACILITY LETTER\n\nBrightwater Bank Limited (the \"Bank\") is pleased to inform you that it will make "
        "available the following facilities on the terms and conditions of this Facility Letter.\n",
        {"Larkspur Components Limited", "Brightwater Bank Limited"},
        set(),
    ),
    # A memo-form letter: "To:" names the addressee, "From:" the company through its board.
    "to_and_from_lines": (
        "[LETTERHEAD]\nMay 2, 2011\nTo: Osprey Management LLC\nFrom: The Board of Directors of Heron Lake Holdings Ltd.\n"
        "Gentlemen:\nThis letter agreement confirms that the term of the services is extended by twelve months.\n",
        {"Osprey Management LLC", "Heron Lake Holdings Ltd."},
        {"The Board of Directors of Heron Lake Holdings Ltd."},
    ),
    "letter_agreement_close_and_acceptance": (
        "June 4, 2019\n\nPelican Ridge Software, Inc.\n200 Elm Street\nBoise, ID 83702\n\nLadies and Gentlemen:\n\n"
        "This letter agreement sets out the terms on which we will provide advisory services.\n\n"
        "Very truly yours,\n\nKESTREL ADVISORY PARTNERS LLC\n\nBy: /s/ Dana Whitfield\nName: Dana Whitfield\n"
        "Title: Managing Partner\n\nAccepted and agreed:\n\nPELICAN RIDGE SOFTWARE, INC.\n\nBy: /s/ Omar Lindqvist\n"
        "Name: Omar Lindqvist\nTitle: Chief Executive Officer\n",
        {"Pelican Ridge Software, Inc.", "KESTREL ADVISORY PARTNERS LLC"},
        {"Dana Whitfield", "Omar Lindqvist"},
    ),
}


@pytest.mark.parametrize("shape", sorted(LETTER_SHAPES))
def test_letter_shapes_bind_exactly_their_parties(shape: str) -> None:
    text, parties, not_parties = LETTER_SHAPES[shape]
    bound = _bound(text)
    assert bound == parties
    assert not bound & not_parties


def test_a_cover_letter_without_contract_words_is_no_letter_agreement() -> None:
    text = "Harbour Lights Limited\n4 Pier Road\n\nDear Sirs,\n\nPlease find enclosed our annual report.\n\nRegards\n"
    assert letter_salutation(text) is None
    assert letter_signature_start(text) is None
    annotations = annotate_document(text, [(0, len(text))], doc_id="doc", revision="rev")
    assert not [s for s in annotations.subjects if s.type == "agreement"]


def test_letter_salutation_and_signature_positions() -> None:
    text = "Acme Holdings Ltd\n\nDear Sirs,\n\nThis letter agreement confirms the terms.\n\nAccepted and agreed:\nACME HOLDINGS LTD\nBy: x\n"
    assert letter_salutation(text) == text.index("Dear Sirs")
    assert letter_signature_start(text) == text.index("Accepted and agreed")


def test_a_salutation_past_the_letter_opening_opens_no_letter() -> None:
    # The bound: a salutation past LETTER_OPENING_CHARS is prose of another kind.
    filler = "x " * (LETTER_OPENING_CHARS // 2)
    text = filler + "\nDear Sirs,\n\nThis letter agreement confirms the terms.\n"
    assert letter_salutation(text) is None
    inside = "Acme Holdings Ltd\n" + "x " * ((LETTER_OPENING_CHARS - 200) // 2) + "\nDear Sirs,\n\nThis letter agreement.\n"
    assert letter_salutation(inside) == inside.index("Dear Sirs")


def test_names_sharing_one_role_are_bounded() -> None:
    # At the bound of 12 names per role, the earlier names of a longer group are not read.
    group = "".join(f"BANK{chr(65 + i)} HOLDINGS BANK,\n" for i in range(14))
    text = "AGREEMENT\n\namong\n\n" + group + "as Co-Documentation Agents\n\nTABLE OF CONTENTS\n"
    names = capacity_names(text, [(text.index("among"), len(text))])
    assert [n.text for n in names] == [f"BANK{chr(65 + i)} HOLDINGS BANK" for i in range(2, 14)]
