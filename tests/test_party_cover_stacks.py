"""Cover pages and label blocks that stack the parties without a party clause's grammar (issue 9,
covers): a caption line naming the parties after its title, a company stacked with a person on a
cover, a party label over several names one per line, several companies run on in one list item,
and a cover run into one line whose entries are closed by a company number or a bare defined term.
Firms that drew the document, addresses, cited documents and prose in capitals are no parties.
Invented names throughout; the real spaCy pipeline binds the parties (``_bound_spans``), and
``layout_names`` is checked on its own for exact spans and shapes.
"""

from __future__ import annotations

import pytest

from ingest.names import lowercase_words
from ingest.party_layout import _CAPTION_CELLS, _COVER_RUN_CHARS, _ITEM_LIMIT, _MAX_PERSON_WORDS, layout_names
from tests.test_party_shapes_general import _bound_spans


def _laid_out(text: str) -> list[tuple[str, str, int]]:
    return [(n.name.text, n.shape, n.name.start) for n in layout_names(text, lowercase_words(text))]


def _at(text: str, name: str, shape: str) -> tuple[str, str, int]:
    assert text.count(name) == 1, name
    return name, shape, text.index(name)


CAPTION = (
    "Consulting Agreement - Brackwell Instruments Corp. and Tamsin R. Ovenden\n\nBRACKWELL INSTRUMENTS "
    "CORP.\n\nConsulting\nAgreement\n\nfor\n\nTamsin\nR. Ovenden\n\nSenior\nVice President\n"
)
LEASE_CAPTION = (
    "Office Lease - Harrowgate Associates and Pellmore Data Co. Inc.\n\nOFFICE LEASE\n\nPELLMORE TOWER\n"
    "San Mateo, California\n\nLANDLORD:\n\nHARROWGATE ASSOCIATES\n"
)
COMPANY_AND_PERSON = (
    "Exhibit 10.3\nDATED 3 APRIL 2019\nKESTREL VALE HOLDINGS LIMITED\nand\nMARTIN OKONKWO DALE\nSERVICE "
    "AGREEMENT\nINDEX\n1. Interpretation .......... 1\n"
)
LABEL_STACK = (
    "Our Ref: CB-0001\n12 May 2020\nAlder Quay Trading Limited\nRoom 5, 3/F\nKowloon\nDear Sirs,\nFACILITY "
    "AGREEMENT\nWe, Tidewell Bank Limited (the \"Bank\"), are pleased to offer the facilities below (the "
    "\"Facilities\") to the borrower(s) specified below (the \"Borrower\").\n|1.\n|Borrower\nAlder Quay "
    "Trading Limited\nBirchmoor Components Limited\nCorran Precision Limited\n|2.\n|Facilities and Limits\n"
)
RUN_ON_ITEM = (
    "SUPPLEMENTAL DEED\nTHIS SUPPLEMENTAL DEED is made the 1st day of May 2001 BETWEEN:\n(1) FENLOW ESTATES "
    "LIMITED whose registered office is at 1 Quay Lane\nLondon (hereinafter called \"the Landlord\")\n(2) ORVANE "
    "GROUP LIMITED ORVANE TRADING LIMITED and ORVANE\nLOGISTICS LIMITED whose registered offices are at 2 Mill "
    "Row (hereinafter together called \"the Tenants\")\nWHEREAS:\nThis Deed is supplemental to a Lease.\n"
)
REGISTERED_RUN = (
    "Deed of Company Arrangement\n\nTallowin Holdings Limited (ACN 000 000 001) (Company) Tallowin (Retail) Pty "
    "Ltd (ACN 000 000 002) (Retail Co) and Quenby Capital Pty Ltd as trustee for the Quenby Family Trust (ABN 00 "
    "000 000 003) (Proponent)\n\nContents\n1 Definitions\n"
)
REGISTERED_BARE = (
    "Bid implementation agreement Harlan Civil Pty Ltd as trustee for The Harlan Unit Trust ABN Corrow Group "
    "Limited ACN Pellow & Vine ABN Office: Level 3, 10 Pitt Street, Sydney NSW 2000 Legal practitioners "
    "employed by Pellow & Vine are members of the scheme.\n"
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # The caption names both parties; the cover's own lines only repeat the company.
        (CAPTION, {"Brackwell Instruments Corp.": "Brackwell Instruments Corp.", "Tamsin R. Ovenden": "Tamsin R. Ovenden"}),
        # The caption names the tenant that the cover's label block leaves out.
        (LEASE_CAPTION, {"HARROWGATE ASSOCIATES": "HARROWGATE ASSOCIATES", "Pellmore Data Co. Inc.": "Pellmore Data Co. Inc."}),
        (COMPANY_AND_PERSON, {"KESTREL VALE HOLDINGS LIMITED": "KESTREL VALE HOLDINGS LIMITED", "MARTIN OKONKWO DALE": "MARTIN OKONKWO DALE"}),
    ],
)
def test_cover_shapes_bind_their_parties_at_their_names(text: str, expected: dict[str, str]) -> None:
    bound = _bound_spans(text)
    assert set(bound) == set(expected)
    for name, source in expected.items():
        start = text.index(source)
        assert bound[name] == (start, start + len(source))


def test_a_caption_line_names_the_parties_after_the_title() -> None:
    assert _laid_out(CAPTION) == [
        _at(CAPTION, "Brackwell Instruments Corp.", "caption"),
        _at(CAPTION, "Tamsin R. Ovenden", "caption"),
    ]


def test_a_company_stacked_with_a_person_needs_no_role_line() -> None:
    assert _laid_out(COMPANY_AND_PERSON) == [
        _at(COMPANY_AND_PERSON, "KESTREL VALE HOLDINGS LIMITED", "cover"),
        _at(COMPANY_AND_PERSON, "MARTIN OKONKWO DALE", "cover"),
    ]


def test_a_party_label_over_stacked_names_binds_each() -> None:
    assert set(_bound_spans(LABEL_STACK)) == {
        "Tidewell Bank Limited", "Alder Quay Trading Limited", "Birchmoor Components Limited", "Corran Precision Limited"
    }
    stack_start = LABEL_STACK.index("|Borrower")
    stacked = [(n, s, p) for n, s, p in _laid_out(LABEL_STACK) if p > stack_start]
    assert stacked == [
        ("Alder Quay Trading Limited", "label", LABEL_STACK.index("Alder Quay Trading Limited", stack_start)),
        _at(LABEL_STACK, "Birchmoor Components Limited", "label"),
        _at(LABEL_STACK, "Corran Precision Limited", "label"),
    ]


def test_companies_run_on_in_one_item_are_each_a_party() -> None:
    assert _laid_out(RUN_ON_ITEM) == [
        _at(RUN_ON_ITEM, "FENLOW ESTATES LIMITED", "item"),
        _at(RUN_ON_ITEM, "ORVANE GROUP LIMITED", "item"),
        _at(RUN_ON_ITEM, "ORVANE TRADING LIMITED", "run"),
        _at(RUN_ON_ITEM, "ORVANE\nLOGISTICS LIMITED", "run"),
    ]
    # The first item's second line ends in a definition: still that item, not an unmarked one
    # that would close the list before "(2)".
    assert set(_bound_spans(RUN_ON_ITEM)) == {
        "FENLOW ESTATES LIMITED", "ORVANE GROUP LIMITED", "ORVANE TRADING LIMITED", "ORVANE LOGISTICS LIMITED"
    }


def test_a_cover_run_into_one_line_reads_each_closed_entry() -> None:
    assert _laid_out(REGISTERED_RUN) == [
        _at(REGISTERED_RUN, "Tallowin Holdings Limited", "cover"),
        _at(REGISTERED_RUN, "Tallowin (Retail) Pty Ltd", "cover"),
        _at(REGISTERED_RUN, "Quenby Capital Pty Ltd", "cover"),
    ]


def test_a_firm_without_a_legal_form_on_a_run_on_cover_is_no_party() -> None:
    # The trust a trustee acts for and the law firm (no legal form) are not read.
    assert _laid_out(REGISTERED_BARE) == [
        _at(REGISTERED_BARE, "Harlan Civil Pty Ltd", "cover"),
        _at(REGISTERED_BARE, "Corrow Group Limited", "cover"),
    ]


@pytest.mark.parametrize(
    "text",
    [
        # A cover naming the law firm that prepared the document, with its address.
        "SHARE SALE AGREEMENT\n\nPrepared by\n\nHARGROVE & PENN\nSolicitors\n12 Bell Street\nLondon EC1 1AA\n"
        "Ref: JR/1234\n",
        # A caption whose dash is followed by no names: a schedule's heading, cited documents.
        "Services Agreement - Schedule of Fees and Charges\n\nSERVICES AGREEMENT\n",
        "Sublease Agreement - Master Lease Agreement and Consent Agreement\n\nSUBLEASE\n",
        # One name after the dash is no caption listing parties.
        "Employment Agreement - Quentin Hale\n\nEMPLOYMENT AGREEMENT\n",
        # A label over an address: the label row's one name, no stack of parties.
        "Borrower:\nAlder Quay Trading Limited\n12 Harbour Road\nKowloon\n",
        # Cited agreements stacked under a label are documents, not parties.
        "Related Agreements:\nMaster Supply Agreement\nQuality Agreement\n",
        # A heading split by "AND" beside prose in capitals.
        "HOLLIS PARK LIMITED (COMPANY NO. 1)\nwhich is hereinafter called \"The Lessor\"\nOF THE ONE PART\n-AND-\n",
        # One entry closed by a company number is no run-on cover (at least two).
        "Deed of Guarantee Tallowin Holdings Limited (ACN 000 000 001) gives this guarantee.\n",
    ],
)
def test_no_party_in_cover_shapes_that_name_none(text: str) -> None:
    laid_out = _laid_out(text)
    assert [n for n, _, _ in laid_out if n != "Alder Quay Trading Limited"] == []
    assert len(laid_out) <= 1


def test_a_stacked_person_has_at_most_the_word_bound() -> None:
    inside = "DATED 1 MAY 2020\nORRIN WELD LIMITED\nand\nANNA MARIA VALE ROSS\nSERVICE AGREEMENT\n"
    over = "DATED 1 MAY 2020\nORRIN WELD LIMITED\nand\nANNA MARIA VALE ROSS DUNN\nSERVICE AGREEMENT\n"
    assert len("ANNA MARIA VALE ROSS".split()) == _MAX_PERSON_WORDS
    assert [n for n, _, _ in _laid_out(inside)] == ["ORRIN WELD LIMITED", "ANNA MARIA VALE ROSS"]
    assert _laid_out(over) == []


def test_a_label_stack_reads_at_most_the_item_limit() -> None:
    words = ["Alder", "Birch", "Cedar", "Damson", "Elm", "Fir", "Gorse", "Hazel", "Ivy", "Juniper", "Larch", "Maple", "Nettle"]
    names = [f"{word} Quay Trading Limited" for word in words]
    assert len(names) == _ITEM_LIMIT + 1
    text = "|Borrower\n" + "\n".join(names) + "\n|2.\n"
    read = [n for n, _, _ in _laid_out(text)]
    assert read == names[:_ITEM_LIMIT]


def test_a_run_on_cover_is_read_only_on_the_first_page() -> None:
    entries = "Tallowin Holdings Limited (ACN 1) (Company) Quenby Capital Pty Ltd (ACN 2) (Proponent)\n"
    at_bound = "x" * (_COVER_RUN_CHARS - 1) + "\n" + entries
    before = "x" * (_COVER_RUN_CHARS - 2) + "\n" + entries
    assert [n for n, _, _ in _laid_out(before)] == ["Tallowin Holdings Limited", "Quenby Capital Pty Ltd"]
    assert _laid_out(at_bound) == []


def test_a_caption_is_read_only_among_the_first_cells() -> None:
    # The caption is a filer's line above the cover: in the 8th cell it is read, in the 9th not.
    caption = "Consulting Agreement - Brackwell Instruments Corp. and Tamsin R. Ovenden\n"
    assert _CAPTION_CELLS == 8
    eighth = "".join(f"Line {i}\n" for i in range(7)) + caption + "Schedule\n"
    ninth = "".join(f"Line {i}\n" for i in range(8)) + caption + "Schedule\n"
    assert _laid_out(eighth) == [
        _at(eighth, "Brackwell Instruments Corp.", "caption"),
        _at(eighth, "Tamsin R. Ovenden", "caption"),
    ]
    assert _laid_out(ninth) == []
