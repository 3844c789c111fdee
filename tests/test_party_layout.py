"""The layout reader (issue 9, party recall): parties written in a layout rather than a prose
clause. List items after a lead, label rows and table rows, cover pages that stack the names with
a separator line, the "of the ONE PART" idiom; addresses, representatives and registration
numbers beside them are no parties. Invented names throughout; the real spaCy pipeline binds
the parties (``_bound_spans``), and ``layout_names`` is checked on its own for exact spans.
"""

from __future__ import annotations

import pytest

from ingest.annotate import annotate_document
from ingest.names import lowercase_words, party_name_forms
from ingest.party_layout import (
    LAYOUT_SCAN_CHARS,
    _CELL_LIMIT,
    _ITEM_LIMIT,
    cells,
    layout_end,
    layout_names,
)
from tests.test_party_shapes_general import _bound_spans

SHAPES: dict[str, tuple[str, set[str]]] = {
    # A numbered list in table cells, the marker alone in its cell; the second party is a person
    # whose item goes on with an identity card number.
    "numbered_items_in_cells": (
        "DIRECTOR'S SERVICE CONTRACT\nDated: 1 March 2021\nPARTIES:\n|(1)\n|Harlow Vane, Inc., a Bermuda company with "
        "company number 7654321, whose office is at 9 Quay Street, Hamilton (the \"Company\")\n"
        "and\n|(2)\n|Odile Brennan Marsh, passport number K1234567 (the \"Director\").\nRECITALS:\n|(A)\n"
        "|The Company wishes to engage the Director.\n",
        {"Harlow Vane, Inc.", "Odile Brennan Marsh"},
    ),
    # Bulleted items after "The parties:", each with its address after a comma.
    "bulleted_items": (
        "SOFTWARE LICENCE AGREEMENT\n\nThe parties:\n\n• Corvid Analytics GmbH, Hauptstrasse 5, 10115 Berlin\n"
        "• Pellucid Systems AB, Storgatan 1, 111 52 Stockholm\n\nhave agreed as follows.\n\n1. Licence\n",
        {"Corvid Analytics GmbH", "Pellucid Systems AB"},
    ),
    # A numbered list run into one line by a converted filing, after the title.
    "inline_numbered_items": (
        "EXHIBIT 4.2 ASSET TRANSFER DEED (1) Tolworth Carding Limited (in liquidation) (2) Gresley Moor Limited "
        "ASSET TRANSFER DEED THIS DEED is dated as set out in Part 1 WHEREAS A. The Transferor owns the Assets.\n",
        {"Tolworth Carding Limited", "Gresley Moor Limited"},
    ),
    # Unmarked items after a lead: each a name and its definition filling the line, with its
    # identity number, registered address and legal representative on the rows below.
    "defined_items_with_particulars": (
        "SHARE PLEDGE CONTRACT\nThis Share Pledge Contract (the \u201cContract\u201d) is concluded in Suzhou on "
        "March 2, 2021 between the following parties:\nWen Jiaqi (the \u201cPledgor\u201d)\nID No.: [REDACTED]\n"
        "Suzhou Lanxi Consulting Co., Ltd. (the \u201cPledgee\u201d)\nRegistered address: No. 7 Renmin Road, Suzhou.\n"
        "Legal representative: Gao Min\nSuzhou Beiyu Network Technology Co., Ltd. (the \u201cCompany\u201d)\n"
        "Registered address: No. 9 Ganjiang Road, Suzhou.\nLegal representative: Wen Jiaqi.\nThe Pledgor, the "
        "Pledgee and the Company are each a \u201cParty\u201d.\nWHEREAS the Pledgor holds the Company\u2019s equity.\n",
        {"Wen Jiaqi", "Suzhou Lanxi Consulting Co., Ltd.", "Suzhou Beiyu Network Technology Co., Ltd."},
    ),
    # "Party A" / "Party B" rows, each followed by address and representative rows.
    "party_letter_rows": (
        "COOPERATION AGREEMENT\n\nParty A: Lanting Qiaoyu Technology Co., Ltd.\nAddress: Room 1, No. 8 Wenyi "
        "Road, Hangzhou\nLegal Representative: Wen Qiao\n\nParty B: Fenghe Trading Co., Ltd.\nAddress: No. 3 "
        "Binhe Road, Ningbo\nLegal Representative: Su Lin\n\nWHEREAS, Party A provides services.\n",
        {"Lanting Qiaoyu Technology Co., Ltd.", "Fenghe Trading Co., Ltd."},
    ),
    # A "Party C1" row (a numbered third party) with its long description on the same line.
    "numbered_party_letter": (
        "SHARE PLEDGE CONTRACT\n\nThis Contract is entered into among the following parties on 9 October 2020:\n\n"
        "Party A: QINGLAN ADVISORY (SUZHOU) CO., LTD., registered under code 91320000123456789X\n\nParty B: "
        "SUZHOU MINGDE HOLDING CO., LTD., a company with limited liability\n\nParty C1: SUZHOU YUANHE INVESTMENT "
        "LIMITED PARTNERSHIP, registered under code 91320000987654321Y\n\nWHEREAS, Party C holds the shares "
        "of Party B.\n",
        {
            "QINGLAN ADVISORY (SUZHOU) CO., LTD.",
            "SUZHOU MINGDE HOLDING CO., LTD.",
            "SUZHOU YUANHE INVESTMENT LIMITED PARTNERSHIP",
        },
    ),
    # Table rows "|Licensor|X|"; a notice block's "Recipient:" under "Tel:" names a contact.
    "table_rows": (
        "LICENSE AGREEMENT\n\n|Licensor|Harrowgate Software Corp.|\n|Licensee|Pinecrest Data LLC|\n|Address|"
        "14 Alder Lane, Boise, Idaho 83702|\n\nNotices:\nTel: 555-0100\nRecipient: Ines Caldera\n\n"
        "WHEREAS, Licensor owns software.\n",
        {"Harrowgate Software Corp.", "Pinecrest Data LLC"},
    ),
    # A role label over the name on the next line.
    "label_over_value": (
        "ASSET PURCHASE AGREEMENT\n\nSeller:\nMoorcroft Tool Works, Inc.\n\nBuyer:\nAshby Lathe Company, LLC\n\n"
        "RECITALS\n\nSeller makes tools.\n",
        {"Moorcroft Tool Works, Inc.", "Ashby Lathe Company, LLC"},
    ),
    # A cover's list after its lead, each name over its description line, no commas.
    "cover_list_with_description_lines": (
        "Component Purchase Agreement\nby and among\nHollowell Corporation\na Nevada corporation\n"
        "Brixton Labs, Inc.\nan Oregon corporation\nand\nDaventry Corporation\na Utah corporation\n"
        "March 3, 2011\nTABLE OF CONTENTS\n1. DEFINITIONS 1\n",
        {"Hollowell Corporation", "Brixton Labs, Inc.", "Daventry Corporation"},
    ),
    # A lease cover: each name over its description and its role alone on a line.
    "cover_role_words": (
        "WAREHOUSE LEASE AGREEMENT\n\nBETWEEN\n\nBRAMWELL REALTY, L.P.,\n\nan Idaho limited partnership\n\n"
        "LANDLORD\n\nAND\n\nTHE OSTRANDER GROUP, INC.,\n\na Vermont corporation\n\nTENANT\n\nTABLE OF CONTENTS\n",
        {"BRAMWELL REALTY, L.P.", "THE OSTRANDER GROUP, INC."},
    ),
    # A deed's cover: "-to-" between dashes separates like "-and-".
    "cover_deed_to": (
        "HALDANE PROPERTIES LIMITED\n-to-\nWYNFORD HOLDINGS LIMITED\n=======\nRENT REVIEW AGREEMENT\nfor the "
        "warehouse at Unit 4\nTABLE OF CONTENTS\n",
        {"HALDANE PROPERTIES LIMITED", "WYNFORD HOLDINGS LIMITED"},
    ),
    # A cover page: two names stacked with a dashed separator line.
    "cover_dashed_separator": (
        "DATED 4 MAY 2018\n\nCALDERWOOD FOODS LIMITED\n\n- and -\n\nBRISKET & BAY PLC\n\n\nSUPPLY AGREEMENT\n\n"
        "TABLE OF CONTENTS\n1. Definitions 2\n",
        {"CALDERWOOD FOODS LIMITED", "BRISKET & BAY PLC"},
    ),
    # A cover page whose names each have a role line under them.
    "cover_role_lines": (
        "RETAIL LEASE AGREEMENT\n\n12 NORTH ELM AVENUE\nSPRINGVALE, OHIO\n\nWESTMARK PLAZA LLC\nAS "
        "LANDLORD\n\nAND\n\nORRIN DIGITAL GROUP LLC\nAS TENANT\n\n\nTABLE OF CONTENTS\nSection Page\n",
        {"WESTMARK PLAZA LLC", "ORRIN DIGITAL GROUP LLC"},
    ),
    # Quoted role lines, a date line above.
    "cover_quoted_roles": (
        "Final Form\nCRUDE OIL GATHERING AGREEMENT\nMarch 3, 2020\nRED MESA GATHERING LP\n\"Gatherer\"\n"
        "and\nHOLLIS PETROLEUM CORPORATION\n\"Producer\"\nTABLE OF CONTENTS Page\nArticle I\n",
        {"RED MESA GATHERING LP", "HOLLIS PETROLEUM CORPORATION"},
    ),
    # The Indian "of the ONE PART" / "of the OTHER PART" idiom with "M/s".
    "one_part_idiom": (
        "SERVICES AGREEMENT\n\nTHIS AGREEMENT is made at Pune on 1 April 2019 BY AND BETWEEN M/s Kaveri Lumen "
        "Private Limited, a company incorporated under the Companies Act, 1956, having its registered office at "
        "12 FC Road, Pune 411004 (hereinafter referred to as the \"Company\") of the ONE PART; AND M/s "
        "Tarangini Softech Pvt. Ltd., having its office at 5 MG Road, Bengaluru 560001 (hereinafter referred "
        "to as the \"Vendor\") of the OTHER PART.\n\nWHEREAS the Company needs services.\n",
        {"M/s Kaveri Lumen Private Limited", "M/s Tarangini Softech Pvt. Ltd."},
    ),
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_layout_shape_binds_exactly_its_parties(shape: str) -> None:
    text, expected = SHAPES[shape]
    assert set(_bound_spans(text)) == expected


def test_a_firm_prefix_is_no_part_of_the_legal_name() -> None:
    # "M/s" (Messrs) is written before the firm's name: the entity id and the name a question
    # asks by are the name without it.
    assert party_name_forms("M/s Kaveri Lumen Private Limited") == [
        "M/s Kaveri Lumen Private Limited",
        "Kaveri Lumen Private Limited",
    ]
    assert party_name_forms("M/S. Kaveri Lumen Private Limited")[-1] == "Kaveri Lumen Private Limited"
    # Only before a name: "Messrs" alone is no firm.
    assert party_name_forms("Messrs Holt") == ["Messrs Holt"]
    text = SHAPES["one_part_idiom"][0]
    subjects = annotate_document(text, [(0, len(text))], doc_id="doc", revision="rev").subjects
    agreement = next(s for s in subjects if s.type == "agreement")
    bound = {
        s.subject_id: set(s.aliases)
        for s in subjects
        for b in s.bindings
        if b.relation == "party_to" and b.object_id == agreement.subject_id
    }
    assert set(bound) == {"org:kaveri lumen", "org:tarangini softech"}
    assert "Kaveri Lumen Private Limited" in bound["org:kaveri lumen"]


def _laid_out(text: str) -> list[tuple[str, str, int]]:
    return [(n.name.text, n.shape, n.name.start) for n in layout_names(text, lowercase_words(text))]


def test_a_slot_defines_only_its_first_parenthesis() -> None:
    # "(2) A ("A"), B ("B") and C": the item's slot ends at its own definition; the names defined
    # after it in the same numbered item are parties of their own.
    text = (
        "AMENDMENT AGREEMENT\n\nThis Amendment (this \"Amendment\") is made and entered into as of May 1, 2020 by "
        "and among (1) Tarnby AB, a Swedish corporation (\"Tarnby\"), and (2) Kestrel Kogyo Co., Ltd., a Japanese "
        "corporation (\"Kestrel\"), Kestrel Holdings USA, Inc., an Ohio corporation (\"Kestrel Holding\") and "
        "Lumio Industry Co., Ltd., a Chinese company (\"Lumio\").\n\nRECITALS\n"
    )
    laid_out = layout_names(text, lowercase_words(text))
    assert [(n.name.text, n.slot_end) for n in laid_out] == [
        ("Tarnby AB", text.index('("Tarnby")') + len('("Tarnby")')),
        ("Kestrel Kogyo Co., Ltd.", text.index('("Kestrel")') + len('("Kestrel")')),
    ]
    assert set(_bound_spans(text)) == {
        "Tarnby AB", "Kestrel Kogyo Co., Ltd.", "Kestrel Holdings USA, Inc.", "Lumio Industry Co., Ltd.",
    }


def test_list_items_are_read_with_exact_spans() -> None:
    text = SHAPES["numbered_items_in_cells"][0]
    assert _laid_out(text) == [
        ("Harlow Vane, Inc.", "item", text.index("Harlow")),
        ("Odile Brennan Marsh", "item", text.index("Odile")),
    ]


def test_label_rows_read_the_party_not_its_address_or_representative() -> None:
    text = SHAPES["party_letter_rows"][0]
    assert _laid_out(text) == [
        ("Lanting Qiaoyu Technology Co., Ltd.", "label", text.index("Lanting")),
        ("Fenghe Trading Co., Ltd.", "label", text.index("Fenghe")),
    ]
    bound = _bound_spans(text)
    assert not {"Wen Qiao", "Su Lin", "Hangzhou", "Ningbo"} & set(bound)


def test_a_party_label_broken_over_table_cells_is_one_label() -> None:
    text = "AGREEMENT\n|Party\n|A: Yunshan Beacon Ltd.\n|Address:\n|Room 5, Building 2, Beijing\n"
    assert _laid_out(text) == [("Yunshan Beacon Ltd.", "label", text.index("Yunshan"))]


def test_a_cover_reads_both_stacked_names() -> None:
    text = SHAPES["cover_role_lines"][0]
    assert _laid_out(text) == [
        ("WESTMARK PLAZA LLC", "cover", text.index("WESTMARK")),
        ("ORRIN DIGITAL GROUP LLC", "cover", text.index("ORRIN")),
    ]


@pytest.mark.parametrize(
    "text",
    [
        # A heading split by "AND" stacks no names, nor one split by a bare "TO".
        "INTELLECTUAL PROPERTY\nAND\nTECHNOLOGY TRANSFER\nAGREEMENT\n",
        "AMENDMENT NO. 1\nTO\nNORTHWIND HOLDINGS LLC\nOPERATING AGREEMENT\n",
        # A group described, not named: its members are in a schedule.
        "SHARE PURCHASE AGREEMENT\n\nBETWEEN:\n\n(1) THE PERSONS whose names are set out in schedule 1 "
        "(the \"Sellers\"); and\n\n(2) THE SHAREHOLDERS OF ORRIN LTD. (the \"Founders\").\n",
        # Section headings after "The parties agree as follows:" are no list of parties.
        "The parties hereby agree as follows:\n1. Improvement Fee.\n(a) Brightwell will pay a fee.\n",
        # A notice block's contact and a representative are no parties.
        "Notices:\nContact person: Mara Quill\nTel: 555-0101\nRepresentative:\nHOLM BRANDT\nTelephone: 555-0102\n",
        # A lettered recital "A." opening a name with initials is no list marker.
        "between\nA. L. Varden ASA, Storgata 3, 0155 Oslo\n",
    ],
)
def test_no_party_in_layouts_that_name_none(text: str) -> None:
    assert _laid_out(text) == []


def test_a_bare_name_on_a_cover_needs_its_role_line() -> None:
    with_roles = "LEASE\n\nJONAH TREMAINE\nAS LANDLORD\n\nAND\n\nPERPETUA OAKES\nAS TENANT\n\nTABLE OF CONTENTS\n"
    without = "LEASE\n\nJONAH TREMAINE\n\nAND\n\nPERPETUA OAKES\n\nTABLE OF CONTENTS\n"
    assert [n for n, _, _ in _laid_out(with_roles)] == ["JONAH TREMAINE", "PERPETUA OAKES"]
    assert _laid_out(without) == []


def test_the_layout_ends_at_the_recitals() -> None:
    text = "AGREEMENT\n\nWHEREAS the parties met.\n\nBETWEEN:\n(1) Alder Row Limited; and\n(2) Birch Row Limited\n"
    assert layout_end(text) == text.index("WHEREAS")
    assert _laid_out(text) == []


def test_the_layout_is_read_only_in_the_opening_chars() -> None:
    lead = "BETWEEN:\n(1) Alder Row Limited; and\n(2) Birch Row Limited\n"
    inside = "x" * (LAYOUT_SCAN_CHARS - len(lead) - 1) + "\n" + lead
    assert len(inside) == LAYOUT_SCAN_CHARS
    assert [n for n, _, _ in _laid_out(inside)] == ["Alder Row Limited", "Birch Row Limited"]
    past = "x" * LAYOUT_SCAN_CHARS + "\n" + lead
    assert _laid_out(past) == []


def test_cells_are_bounded() -> None:
    text = "a\n" * (_CELL_LIMIT + 50)
    found = cells(text, len(text))
    assert len(found) == _CELL_LIMIT
    assert found[-1].start == 2 * (_CELL_LIMIT - 1)


def test_cells_split_at_table_bars_and_column_gaps() -> None:
    text = "|Licensor|Acme Corp.|\nNORTH LTD        SOUTH LTD\n"
    assert [(c.text, c.row, c.in_table) for c in cells(text, len(text))] == [
        ("Licensor", 0, True),
        ("Acme Corp.", 0, True),
        ("NORTH LTD", 1, False),
        ("SOUTH LTD", 1, False),
    ]


def test_a_list_reads_at_most_the_item_limit() -> None:
    items = "".join(f"({i}) Firm{chr(64 + i)} Holdings Limited;\n" for i in range(1, _ITEM_LIMIT + 3))
    text = "BETWEEN:\n" + items
    names = [n for n, _, _ in _laid_out(text)]
    assert len(names) == _ITEM_LIMIT
    assert names[0] == "FirmA Holdings Limited"
    assert names[-1] == f"Firm{chr(64 + _ITEM_LIMIT)} Holdings Limited"
