"""False parties of realD's shapes (issue 9, precision): a list's number kept in a name, a
capitalised joiner read as a name, a class of persons described by where it is listed, a name
defined in a sentence after the party clause, firms credited under "ARRANGED BY" on a cover, and a
compiled filing's header naming its filer. Invented names, the real spaCy pipeline; each case
asserts the exact names bound or the exact reason, and a near miss that stays a party.
"""

from __future__ import annotations

import pytest

from ingest.agreements import filing_header_end
from ingest.definitions import find_definitions
from ingest.names import NameSpan, _LIST_NEIGHBOUR_CHARS, party_name_problem, without_enumerator
from ingest.party_capacities import capacity_names
from ingest.party_scorer import candidates
from tests.helpers import bound_party_names


def _span(text: str, name: str) -> NameSpan:
    start = text.index(name)
    return NameSpan(name, start, start + len(name))


# --- a list's number is no part of a name -------------------------------------------------


def test_the_enumerator_after_the_joiner_is_cut_from_the_second_party() -> None:
    # ("incorporated and registered": the "and" in the first party's description is read as the
    # list's joiner; the chain after it reads the next item with its number.)
    text = (
        "FACILITY LETTER\n\nTHIS AGREEMENT is made on 3 May 2011\nBETWEEN\n"
        "1. QUILLMORE TRADING LIMITED ( ), a company incorporated and registered in Hong Kong having its registered "
        'office at 5 Wren Street, Kowloon (the "Borrower");\nand\n'
        "2. HARROWGATE CREDIT LIMITED ( ), a company incorporated and registered in Hong Kong having its registered "
        'office at 9 Lark Road, Central (the "Lender").\nNOW IT IS AGREED as follows:\n'
    )
    assert bound_party_names(text) == {"QUILLMORE TRADING LIMITED", "HARROWGATE CREDIT LIMITED"}


def test_a_bare_number_between_numbered_items_is_an_enumerator() -> None:
    text = (
        "SERVICES AGREEMENT\n\nTHIS AGREEMENT is made the 2nd March, 2004\nBETWEEN\n"
        '1. PELLWORTH ENERGY LIMITED whose registered office is at 1 Mill Lane, Leeds ("PE");\n'
        '2 CASTERBY NETWORKS LIMITED whose registered office is at 4 Dock Road, Hull ("CN");\n'
        '3. ORMSKIRK TELECOM PLC whose registered office is at 4 Dock Road, Hull ("OT")\n'
        "WHEREAS\nA CN resells telephone services.\n"
    )
    assert bound_party_names(text) == {
        "PELLWORTH ENERGY LIMITED", "CASTERBY NETWORKS LIMITED", "ORMSKIRK TELECOM PLC"
    }
    terms = {d.term: d.name.text for d in find_definitions(text) if d.is_party_alias and d.name}
    assert terms["CN"] == "CASTERBY NETWORKS LIMITED"


def test_a_name_that_opens_with_its_own_number_keeps_it() -> None:
    # No numbered item next to it: the digits are the name's own.
    text = "SUPPLY AGREEMENT\n\nBETWEEN\n\n4 SEASONS WREN LIMITED, of 2 Quill Street, London\n\nand\n"
    assert without_enumerator(text, _span(text, "4 SEASONS WREN LIMITED")).text == "4 SEASONS WREN LIMITED"
    # An item numbered two apart is no neighbour either.
    listed = "BETWEEN\n1. ALDER LIMITED;\n3 QUILL LIMITED;\n"
    assert without_enumerator(listed, _span(listed, "3 QUILL LIMITED")).text == "3 QUILL LIMITED"
    # A number inside a line is never an enumerator of the list's lines.
    inline = "BETWEEN\n1. ALDER LIMITED;\nand 2 QUILL LIMITED;\n"
    assert without_enumerator(inline, _span(inline, "2 QUILL LIMITED")).text == "2 QUILL LIMITED"


def test_a_bare_numbers_neighbour_is_looked_for_at_the_bound() -> None:
    name = "2 QUILL LIMITED"
    item = "1. ALDER LIMITED;\n"

    def listed(gap: int) -> str:
        # The neighbour "1. " starts ``gap`` characters before the name.
        return item + "x" * (gap - len(item) - 1) + "\n" + name + ";\n"

    near = listed(_LIST_NEIGHBOUR_CHARS)
    start = near.index(name)
    assert start == _LIST_NEIGHBOUR_CHARS
    assert without_enumerator(near, NameSpan(name, start, start + len(name))).text == "QUILL LIMITED"
    # One character further away: not seen, the number stays.
    far = listed(_LIST_NEIGHBOUR_CHARS + 1)
    start = far.index(name)
    assert without_enumerator(far, NameSpan(name, start, start + len(name))).text == name


# --- words that are no name ----------------------------------------------------------------

PROBLEMS: list[tuple[str, str | None]] = [
    # A capitalised joiner opening a sentence.
    ("For", "empty"),
    ("Of", "empty"),
    ("And", "empty"),
    # A class of persons described by where the contract lists them.
    ("The Several Persons Named", "role"),
    ("the Shareholders Listed", "role"),
    ("Certain Holders Identified", "role"),
    # ... but a participle alone is no class, and a name holding one stays.
    ("Named", None),
    ("Listed Harbour Ventures", None),
    ("For Quill Holdings", None),
]


@pytest.mark.parametrize(("name", "reason"), PROBLEMS)
def test_party_name_problem_reason(name: str, reason: str | None) -> None:
    assert party_name_problem(name) == reason


def test_a_notes_opening_words_are_no_borrower() -> None:
    text = (
        "PROMISSORY NOTE\n\n$2,000,000    Reno, Nevada    May 4, 2009\n\n"
        "For value received, QUILLSTONE FUNDING, LLC, a Nevada limited liability company "
        '("Borrower") does hereby promise to pay to the order of WRENBROOK CAPITAL, INC., a Delaware '
        'corporation ("Lender"), the sum of TWO MILLION DOLLARS.\n'
    )
    terms = {d.term: d.name.text for d in find_definitions(text) if d.is_party_alias and d.name}
    assert terms == {"Borrower": "QUILLSTONE FUNDING, LLC", "Lender": "WRENBROOK CAPITAL, INC."}
    assert bound_party_names(text) == {"QUILLSTONE FUNDING, LLC", "WRENBROOK CAPITAL, INC."}


def test_a_class_named_in_a_schedule_is_no_party() -> None:
    text = (
        "SHAREHOLDERS' AGREEMENT\n\nThis Agreement is made on 3 June 2019 among:\n\n"
        '(1) The Several Persons Listed in Part B of Schedule 2 (collectively, the "Founders");\n\n'
        "(2) Quillon Capital Pte. Ltd., a company incorporated in Singapore "
        '(the "Investor"); and\n\n(3) Wrenhaven Labs Pte. Ltd., a company incorporated in Singapore '
        '(the "Company").\n\nWHEREAS\n'
    )
    assert bound_party_names(text) == {"Quillon Capital Pte. Ltd.", "Wrenhaven Labs Pte. Ltd."}


# --- a name defined after the party clause --------------------------------------------------


def test_a_name_opening_the_sentence_after_the_party_clause_is_no_party() -> None:
    # The sentence before it holds a party-clause cue ("hereto"); the one the name opens holds
    # none, and that one decides.
    text = (
        "OPERATING AGREEMENT\n\nThis Operating Agreement is made as of May 1, 2002 between QUILLSTONE "
        'LODGING, INC., a Virginia corporation ("Owner") and WRENBROOK HOSPITALITY, INC., a Delaware '
        'corporation ("Operator").\n\nARTICLE 1\n\nTHE DEPOT\n\nSection 1.01. The Depot. The subject of '
        "this Agreement is the operation of the Depot, described in Exhibit A attached hereto, by Operator. "
        "The Depot is leased from Harrowby "
        'Realty, Inc., a Virginia corporation ("Depot Owner") to Owner.\n'
    )
    terms = {d.term: d.is_party_alias for d in find_definitions(text)}
    assert terms["Depot Owner"] is False
    assert bound_party_names(text) == {"QUILLSTONE LODGING, INC.", "WRENBROOK HOSPITALITY, INC."}


# --- a cover's credit for the arrangers -----------------------------------------------------

_CREDIT_COVER = (
    "CREDIT AGREEMENT\n\n                DATED AS OF\n             MAY 1, 2003\n\n                  AMONG\n\n"
    "         QUILLFIELD STORES, INC.\n               AS BORROWER\n\n"
    "       THE LENDING INSTITUTIONS NAMED THEREIN\n               AS LENDERS\n\n"
    "             WRENSIDE NATIONAL BANK\n        AS A LENDER AND THE ADMINISTRATIVE AGENT\n\n"
    "                 {heading}\n\n             WRENSIDE NATIONAL BANK,\n            AS A CO-LEAD ARRANGER\n"
    "            HARROWBY CAPITAL MARKETS, INC.,\n  AS A CO-LEAD ARRANGER AND AS THE SYNDICATION AGENT\n\n"
    "TABLE OF CONTENTS\n"
)


@pytest.mark.parametrize("heading", ["ARRANGED BY", "Structured and Arranged by:", "PREPARED BY"])
def test_firms_under_an_arranged_by_heading_are_no_parties(heading: str) -> None:
    text = _CREDIT_COVER.format(heading=heading)
    windows = [(text.index("AMONG"), text.index("TABLE OF CONTENTS"))]
    names = [n.text for n in capacity_names(text, windows)]
    assert names == ["QUILLFIELD STORES, INC.", "WRENSIDE NATIONAL BANK"]
    assert bound_party_names(text) == {"QUILLFIELD STORES, INC.", "WRENSIDE NATIONAL BANK"}


def test_without_the_credit_heading_the_capacity_list_goes_on() -> None:
    # The same cover with the heading replaced by a plain "AND": the syndication agent is listed.
    text = _CREDIT_COVER.format(heading="AND")
    windows = [(text.index("AMONG"), text.index("TABLE OF CONTENTS"))]
    assert "HARROWBY CAPITAL MARKETS, INC." in [n.text for n in capacity_names(text, windows)]


# --- a compiled filing's header -------------------------------------------------------------

_HEADER = "QUILLTON GROUP INC\n10-K, EX-10.7, 2001-03-30\nJEWELRY, PRECIOUS METAL\n\n"
_BODY = (
    "THIS AGREEMENT is dated 1 March 2001 and made\n\nBETWEEN:-\n\n"
    '(1)  HARROWMERE HOLDINGS (BVI) LIMITED, a company incorporated in the British Virgin Islands (the "Borrower"); and\n\n'
    '(2)  WRENLOCK GOLD LIMITED, a company incorporated in Bermuda (the "Lender").\n\n'
    "BACKGROUND:-\n\nThe Lender has agreed to lend to the Borrower.\n"
)


def test_a_filing_headers_end() -> None:
    text = _HEADER + _BODY
    assert filing_header_end(text) == text.index("\n\nTHIS AGREEMENT")
    assert filing_header_end(_BODY) == 0
    # Bounded: a form line past the first 300 characters is no header.
    late = "x" * 300 + "\n" + _HEADER
    assert filing_header_end(late) == 0


def test_a_filer_named_only_in_the_header_is_no_party() -> None:
    assert bound_party_names(_HEADER + _BODY) == {"HARROWMERE HOLDINGS (BVI) LIMITED", "WRENLOCK GOLD LIMITED"}


_LINKED_HEADER = (
    "QUILLTON TRUST /DE\nPOS AMI, EX-99.B2, 2001-03-30\n"
    "Previous: QUILLTON TRUST /DE, POS AMI, 2001-03-30\nNext: WRENSHAW MINING CORP, 10QSB, 2001-03-30\n"
)


def test_a_filing_headers_links_to_its_neighbours_belong_to_it() -> None:
    # No industry line here: the links follow the form line (whose form holds a space).
    text = _LINKED_HEADER + "\n" + _BODY
    assert filing_header_end(text) == len(_LINKED_HEADER) - 1
    # With an industry line the links follow it.
    industry = _HEADER.rstrip("\n") + "\nPrevious: QUILLTON GROUP INC, 10-K, 2001-03-30\nNext: WRENSHAW MINING CORP, 4, 2001-03-30"
    assert filing_header_end(industry + "\n\n" + _BODY) == len(industry)
    # The neighbouring filing's filer is a stranger.
    assert bound_party_names(text) == {"HARROWMERE HOLDINGS (BVI) LIMITED", "WRENLOCK GOLD LIMITED"}


def test_a_filing_header_joins_at_most_four_lines_after_its_form_line() -> None:
    links = "".join(f"Next: QUILL {i} CORP, 4, 2001-03-30\n" for i in range(6))
    text = "QUILLTON GROUP INC\n10-K, EX-10.7, 2001-03-30\n" + links + "\n" + _BODY
    fourth_end = text.index("Next: QUILL 3 CORP") + len("Next: QUILL 3 CORP, 4, 2001-03-30")
    assert filing_header_end(text) == fourth_end


def _depot_text(party_at: int) -> str:
    # Two parties defined, a sentence with a cue ("hereto"), then a name opening its own sentence
    # whose join cue ("party") starts ``party_at`` characters after its definition's parenthesis.
    name = 'Kestrel Lodging Corp. (the "Guarantor")'
    lead = "is a "
    gap = party_at - len(lead)
    filler = "so " * (gap // 3) + " " * (gap % 3)
    return (
        'OPERATING AGREEMENT\n\nThis Agreement is made as of May 1, 2002 between QUILLSTONE LODGING, INC. ("Owner") '
        'and WRENBROOK HOSPITALITY, INC. ("Operator"). The Depot is described in Exhibit A attached hereto. '
        + name + filler + lead + "party hereto as guarantor.\n"
    )


def test_a_join_cue_later_in_the_names_own_sentence_makes_it_a_party_up_to_the_bound() -> None:
    from ingest.definitions import _REST_OF_SENTENCE_CHARS

    def guarantor(text: str) -> bool:
        return {d.term: d.is_party_alias for d in find_definitions(text)}["Guarantor"]

    text = _depot_text(_REST_OF_SENTENCE_CHARS - len("party"))
    assert text.index("party hereto") - text.index('"Guarantor")') - len('"Guarantor")') == _REST_OF_SENTENCE_CHARS - len("party")
    # "party" ends right at the bound: the name joins.
    assert guarantor(text)
    # One character further: the cue is not read, a third party the contract talks about.
    assert not guarantor(_depot_text(_REST_OF_SENTENCE_CHARS - len("party") + 1))


def test_a_clause_after_the_definition_that_names_others_joins_no_one() -> None:
    # The comma closes the name's own clause: the "Parties" after it are the two named before.
    text = (
        'LICENCE CONTRACT\n\nBetween QUILLSTONE S.A., hereinafter referred to as "Quill", and WRENBROOK '
        'LICENSING S.A., hereinafter referred to as "Wren".\nIn the presence of:\nHarrowby S.A., a French '
        'corporation, hereinafter referred to as ("Harrowby"),\nQuill and Wren being referred to as a "Party" '
        'or as the "Parties".\n'
    )
    assert {d.term: d.is_party_alias for d in find_definitions(text)}.get("Harrowby") is False


def test_a_header_name_is_a_candidate_only_when_the_contract_names_it_too() -> None:
    body = _BODY.replace("WRENLOCK GOLD LIMITED", "QUILLTON GROUP INC.")
    for text, kept in ((_HEADER + _BODY, False), (_HEADER + body, True)):
        found = [c.name for c in candidates(text, [], [], frozenset(), frozenset())]
        in_header = [n.text for n in found if n.start < filing_header_end(text)]
        assert in_header == (["QUILLTON GROUP INC"] if kept else [])
