"""Parties named only where they sign, and the maker and payee of a note (issue 9; names invented
for these tests, not from CUAD or any filing). Real spaCy pipeline for the bound parties; the
signature pairing, the money refusal and the legend-aware title are checked on their own too.
"""

from __future__ import annotations

import pytest

from ingest.agreements import find_title
from ingest.letter_parties import signature_lead_start
from ingest.names import NameSpan, party_name_problem
from ingest.signature_blocks import block_start, signed_block, signs_in_office
from tests.helpers import bound_party_names


_bound = bound_party_names


TERMS_SIGNED_IN_TABLE = (
    "ANNEX B\nTERMS OF SALE\n"
    "Further to the provisions of the PLACEMENT AGREEMENT DATED 3 May 2019 among the Seller, Quarry and "
    "Lindenmoor (the \"Agreement\"), the following terms of sale are agreed:\n"
    "|*\n|\nNumber of Shares sold: 1,200,000\n"
    "The Seller, Quarry and Lindenmoor confirm the provisions of the Agreement.\n"
    "IN WITNESS WHEREOF these Terms of Sale have been duly executed.\n"
    "For and on behalf of\nQUARRY CAPITAL LIMITED\n"
    "|By:\n|\n/s/ Nora Vint\n|By:\n|\n/s/ Paul Osei\n"
    "|Name:\n|Nora Vint\n|Name:\n|Paul Osei\n|Title:\n|Managing Director\n|Title:\n|Associate Director\n"
    "For and on behalf of\nLINDENMOOR SECURITIES LTD.\n|By:\n|\n/s/ Ivo Stark\n|Name:\n|Ivo Stark\n"
    "Accepted as of the date hereof:\nBRAMBLE HOLDINGS LIMITED\n|By:\n|Name:\n|Title:\n|Chairman\n"
)

ACKNOWLEDGEMENT = (
    "Exhibit 10.4\nJune 2, 2011\nACKNOWLEDGEMENT\n"
    "Following our meeting, the Board has closed its loyalty bonus plan (the \"Bonus Plan\") for every "
    "year after 2011. Your employment agreement dated January 5, 2011 (your \"Employment "
    "Agreement\") names the Bonus Plan, and you and we agree that its bonus terms now point "
    "to the new plan.\n"
    "Please acknowledge your agreement to the terms of this letter by signing the enclosed copy.\n"
    "|Sincerely,\n|/s/ Helen Marsh\n|Helen Marsh\n|Senior Vice President, Human Resources\n|\n"
    "Agreed to and accepted by:\n|\n/s/ Oliver K. Brandt\n|\nOliver K. Brandt\n"
)

# Side-by-side columns flattened into rows: the company and the role label first, then the
# company officer's signature and the employee's.
SIGNATURE_ONLY_AMENDMENT = (
    "|1.\n|\nDefinitions. Capitalized terms used herein have the meanings given to them in the Agreement.\n"
    "|2.\n|\nAmendment. The parties agree that Section 4 of the Agreement shall be deleted in its entirety.\n"
    "|3.\n|\nRatification. The Agreement, as amended by this Amendment, is hereby ratified by the parties.\n"
    "|\nLarkspur Services Co.\n|Employee:\n|\n/s/ Dana R. Whitlow\n|/s/ Marcus E. Penn\n"
)

NOTE_UNDER_LEGEND = (
    "EXHIBIT 10\n"
    "THIS SECURITY HAS NOT BEEN REGISTERED UNDER THE SECURITIES ACT OF\n"
    "1933, AS AMENDED (THE \"ACT\"), AND MAY NOT BE OFFERED, SOLD, PLEDGED,\n"
    "HYPOTHECATED, ASSIGNED OR TRANSFERRED EXCEPT PURSUANT TO A REGISTRATION\n"
    "STATEMENT UNDER THE ACT WHICH HAS BECOME EFFECTIVE AND IS CURRENT WITH RESPECT\n"
    "TO THESE SECURITIES, OR PURSUANT TO A SPECIFIC EXEMPTION FROM\n"
    "REGISTRATION UNDER THE ACT.\n"
    "MARROW CREEK HOLDINGS, LTD.\n"
    "PROMISSORY NOTE\n"
    "Dated as of: April 2, 1998\n"
    "$100,000.00 Denver, Colorado\n"
    "FOR VALUE RECEIVED, Marrow Creek Holdings, Ltd., a Nevada\n"
    "corporation (the \"Company\"), promises to pay to Tolland Ridge\n"
    "Partners, Ltd., a Colorado corporation, or its registered assigns (the\n"
    "\"Holder\"), the principal amount of ONE HUNDRED THOUSAND DOLLARS ($100,000.00)\n"
    "(the \"Principal Amount\"), together with simple interest at six percent (6%) per annum.\n"
)

NOTE_UNDERSIGNED = (
    "EXHIBIT 10.1\nPROMISSORY NOTE\n"
    "FOR VALUE RECEIVED, the undersigned Pellingham Pumps, Inc., a Delaware corporation (\"Maker\")\n"
    "promises to pay to the order of Gorse Lane Capital, Ltd. (\"Lender\"), at its principal office, the\n"
    "principal sum of SEVENTY-FIVE THOUSAND AND 00/100 DOLLARS ($75,000.00) (the \"Principal Sum\").\n"
    "The unpaid Principal Sum shall bear interest at the rate of 8% per annum.\n"
)

NOTE_MAKER_FIRST = (
    "Exhibit 10\nPROMISSORY NOTE\n|\nU.S. $40,000\n|Date: May 9th, 2006\n"
    "1. Amount. OSPREY VALLEY ANALYTICS, INC., a Delaware corporation having its principal place of business "
    "at 12 Mill Road, Dover, DE 19901 (the \"Borrower\"), for value received, hereby promises to pay to the "
    "order of Hallam Ventures, Inc., a Delaware corporation (the \"Lender\"), the amount of Forty Thousand "
    "U.S. Dollars (US $40,000) (the \"Principal\"), plus interest at an annual rate of Ten Percent (10%).\n"
    "2. Payment. Any unpaid Principal will become due and payable on demand by Lender.\n"
)

# A block no words lead: a person's "/s/" under a company's name signs for it.
UNLED_COMPANY_SIGNER = (
    "AMENDMENT NO. 1 TO SUPPLY AGREEMENT\n\n"
    "This Amendment No. 1 amends the Supply Agreement dated March 1, 2015 between Halcyon Grain LLC and "
    "Brisk Mills Inc. (the \"Agreement\").\n\n1. Price. Section 3 of the Agreement is deleted.\n\n"
    "HALCYON GRAIN LLC\n/s/ Peter Lowe\n\nBRISK MILLS INC.\n/s/ Ada Quist\n"
)


SHAPES: dict[str, tuple[str, set[str], set[str]]] = {
    "terms_signed_in_table": (
        TERMS_SIGNED_IN_TABLE,
        {"QUARRY CAPITAL LIMITED", "LINDENMOOR SECURITIES LTD.", "BRAMBLE HOLDINGS LIMITED"},
        {"Nora Vint", "Paul Osei", "Ivo Stark", "|Nora Vint"},
    ),
    "acknowledgement": (ACKNOWLEDGEMENT, {"Oliver K. Brandt"}, {"Helen Marsh"}),
    "signature_only_amendment": (
        SIGNATURE_ONLY_AMENDMENT, {"Larkspur Services Co.", "Marcus E. Penn"}, {"Dana R. Whitlow"}
    ),
    "note_under_legend": (
        NOTE_UNDER_LEGEND, {"Marrow Creek Holdings, Ltd.", "Tolland Ridge Partners, Ltd."}, {"ONE HUNDRED THOUSAND DOLLARS"}
    ),
    "note_undersigned": (
        NOTE_UNDERSIGNED, {"Pellingham Pumps, Inc.", "Gorse Lane Capital, Ltd."}, {"00/100 DOLLARS"}
    ),
    "note_maker_first": (
        NOTE_MAKER_FIRST, {"Osprey Valley Analytics, Inc.", "Hallam Ventures, Inc."}, {"Forty Thousand U.S. Dollars"}
    ),
    "unled_company_signer": (UNLED_COMPANY_SIGNER, {"Halcyon Grain LLC", "Brisk Mills Inc."}, {"Peter Lowe", "Ada Quist"}),
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_parties_bound_exactly(shape: str) -> None:
    text, expected, absent = SHAPES[shape]
    bound = _bound(text)
    assert {" ".join(n.split()).casefold() for n in bound} == {n.casefold() for n in expected}
    assert not {n.casefold() for n in absent} & {" ".join(n.split()).casefold() for n in bound}


def test_flattened_columns_pair_heads_and_signatures_in_order() -> None:
    text = "ALDER WORKS, INC.\n|CONSULTANT\n|By: /s/ Ann Kidd\n|/s/ Ray Dunne\n"
    block = signed_block(text, 0)
    assert [(c.text, c.start, c.end) for c in block.companies] == [("ALDER WORKS, INC.", 0, 17)]
    assert block.agent_marks == frozenset({text.index("/s/ Ann")})
    assert block.role_marks == frozenset({text.index("/s/ Ray")})


def test_signature_under_by_line_signs_for_the_company() -> None:
    text = "KESTREL BANK PLC\n|By:\n|\n/s/ Lena Moor\n|By:\n|\n/s/ Omar Reyes\n"
    block = signed_block(text, 0)
    assert [(c.text, c.start) for c in block.companies] == [("KESTREL BANK PLC", 0)]
    assert block.agent_marks == frozenset({text.index("/s/ Lena"), text.index("/s/ Omar")})
    assert block.role_marks == frozenset()


@pytest.mark.parametrize(("gap", "paired"), [(7, True), (8, False)])
def test_a_head_pairs_only_within_its_reach(gap: int, paired: bool) -> None:
    # The head's line and the signature's are at most eight non-empty lines apart.
    text = "ORRIN TOOLS LLC\n" + "".join(f"note {i}\n" for i in range(gap)) + "By: ____\n"
    block = signed_block(text, 0)
    assert [c.text for c in block.companies] == (["ORRIN TOOLS LLC"] if paired else [])


def test_block_start_climbs_over_short_lines_only() -> None:
    prose = "Ratification. The Agreement, as amended hereby, is ratified and confirmed by the parties in all respects.\n"
    text = prose + "|\nLarkspur Services Co.\n|Employee:\n|\n/s/ Dana R. Whitlow\n"
    assert block_start(text) == len(prose)
    assert block_start("No signature here.\n") is None


def test_block_start_climbs_at_most_four_lines() -> None:
    text = "a\nb\nc\nd\ne\n/s/ Jane Roe\n"
    assert block_start(text) == text.index("b")


def test_signature_lead_only_on_a_short_line() -> None:
    long_line = "Accepted orders shall be shipped within ten business days of the order date by ground.\n"
    assert signature_lead_start(long_line) is None
    text = long_line + "Agreed to and accepted by:\n/s/ Jane Roe\n"
    assert signature_lead_start(text) == len(long_line)


def test_signer_stating_an_office_signs_for_a_company() -> None:
    text = "/s/ Helen Marsh\nHelen Marsh\nSenior Vice President, Human Resources\n/s/ Oliver Brandt\nOliver Brandt\n"
    helen = NameSpan("Helen Marsh", 4, 15)
    oliver_start = text.index("Oliver")
    oliver = NameSpan("Oliver Brandt", oliver_start, oliver_start + 13)
    assert signs_in_office(text, helen)
    assert not signs_in_office(text, oliver)
    titled = "/s/ Ivo Stark\nName: Ivo Stark\nTitle: Treasurer\n"
    assert signs_in_office(titled, NameSpan("Ivo Stark", 4, 13))
    assert not signs_in_office("/s/ Ivo Stark\nName: Ivo Stark\nTitle:\n", NameSpan("Ivo Stark", 4, 13))


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("Forty Thousand U.S. Dollars", "money"),
        ("00/100 DOLLARS", "money"),
        ("SEVENTY-FIVE THOUSAND AND 00/100 DOLLARS", "money"),
        ("Two Million Euros", "money"),
        ("Dollar Crest Stores", None),
        ("Thousand Pines Partners", None),
        ("One Pound Holdings Limited", None),
    ],
)
def test_money_amounts_are_never_parties(name: str, problem: str | None) -> None:
    assert party_name_problem(name) == problem


def test_legend_lines_do_not_hide_the_title() -> None:
    title = find_title(NOTE_UNDER_LEGEND)
    assert title is not None
    assert (title.text, title.start) == ("PROMISSORY NOTE", NOTE_UNDER_LEGEND.index("PROMISSORY NOTE"))


# A table's party list numbers its rows with a bare number in a cell of its own ("|1").
TABLE_NUMBERED_PARTIES = (
    "SHARE PURCHASE AGREEMENT\n|DATE\n|4 June 2004\n|\nPARTIES\n|1\n"
    "|HARTWELL MARINE LIMITED a company incorporated in Jersey (company number 10442) whose registered "
    "office is at 3 Quay Street, St Helier, Jersey (\"the Vendor\")\n|2\n"
    "|SALTMARSH HOLDINGS LIMITED a company incorporated in Jersey (company number 20551) whose registered "
    "office is at 9 Pier Road, St Helier, Jersey (\"the Purchaser\").\n|\nRECITALS\n|A\n"
    "|The Vendor is the registered holder of the Sale Shares.\n"
)


def test_bare_row_numbers_mark_a_table_party_list() -> None:
    from ingest.party_layout import layout_names

    found = [(n.name.text, n.name.start, n.shape) for n in layout_names(TABLE_NUMBERED_PARTIES)]
    hartwell = TABLE_NUMBERED_PARTIES.index("HARTWELL")
    saltmarsh = TABLE_NUMBERED_PARTIES.index("SALTMARSH")
    assert found == [
        ("HARTWELL MARINE LIMITED", hartwell, "item"),
        ("SALTMARSH HOLDINGS LIMITED", saltmarsh, "item"),
    ]
    assert {n.casefold() for n in _bound(TABLE_NUMBERED_PARTIES)} == {
        "hartwell marine limited", "saltmarsh holdings limited"
    }


@pytest.mark.parametrize(
    "text",
    [
        "LICENSOR:\nALDER WORKS, INC.\n/s/ Ann Kidd\nAnn Kidd, President\nLICENSEE:\n/s/ Ray Dunne\n",
        "ALDER WORKS, INC.\nLICENSOR\n/s/ Ann Kidd\nAnn Kidd, President\nLICENSEE:\n/s/ Ray Dunne\n",
    ],
)
def test_a_role_label_next_to_a_company_labels_that_company(text: str) -> None:
    block = signed_block(text, 0)
    assert [c.text for c in block.companies] == ["ALDER WORKS, INC."]
    assert block.agent_marks == frozenset({text.index("/s/ Ann")})
    assert block.role_marks == frozenset({text.index("/s/ Ray")})


@pytest.mark.parametrize(("filler", "read"), [(5_000, True), (6_000, False)])
def test_promises_are_read_in_the_opening_only(filler: int, read: bool) -> None:
    from ingest.annotate import _promise_names

    promise = "FOR VALUE RECEIVED, Pellingham Pumps, Inc. promises to pay to the order of Gorse Lane Capital, Ltd. the sum."
    text = "x" * (filler - 1) + "\n" + promise
    found = [(n.text, n.start) for n in _promise_names(text)]
    expected = [("Pellingham Pumps, Inc.", text.index("Pellingham")), ("Gorse Lane Capital, Ltd.", text.index("Gorse"))]
    assert found == (expected if read else [])


@pytest.mark.parametrize(("size", "read"), [(6_000, True), (6_001, False)])
def test_unled_blocks_are_read_in_short_papers_only(size: int, read: bool) -> None:
    from ingest.signature_blocks import SHORT_PAPER_CHARS

    tail = "ORRIN TOOLS LLC\n/s/ Jane Roe\n"
    text = "x" * (size - len(tail) - 1) + "\n" + tail
    assert len(text) == size and SHORT_PAPER_CHARS == 6_000
    assert block_start(text) == (text.index("ORRIN") if read else None)


@pytest.mark.parametrize(("filler", "paired"), [(398, True), (399, False)])
def test_the_block_walk_stops_at_its_line_bound(filler: int, paired: bool) -> None:
    # At most 400 non-empty lines are walked from the block's start (_WALK_LINES): a signature
    # on the 401st line is never read, so its head is not paired.
    from ingest.signature_blocks import _WALK_LINES

    assert _WALK_LINES == 400
    text = "".join(f"note {i}\n" for i in range(filler)) + "ORRIN TOOLS LLC\nBy: ____\n"
    block = signed_block(text, 0)
    assert [c.text for c in block.companies] == (["ORRIN TOOLS LLC"] if paired else [])
