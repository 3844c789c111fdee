"""Party labels (issue 9, civil-law forms): a long "hereinafter" aside before the colon,
'Lessee (hereinafter referred to as "Party B"): X Co., Ltd.', as Chinese contracts in English
write their party rows (before, an aside longer than 30 characters made the row no label, and
the second party was lost), a label in square brackets ("[Lessee] :X"), and a "Legal Name:" row
under a bare role label ("Transferor (Party A):"). Names are invented."""

from __future__ import annotations

from ingest.definitions import find_definitions
from ingest.party_layout import label_slots
from tests.helpers import bound_party_aliases, bound_party_names

LEASE = (
    "Tenement Lease Agreement\nLessor (hereinafter referred to as \u201cParty A\u201d): Quartz Lotus Park Co., Ltd.\n"
    "Lessee (hereinafter referred to as \u201cParty B\u201d): Marlow Weiteng Construction Co., Ltd.\n"
    "As a private business incubator operated by Party A, the park provides office space.\nArticle 1: Leased property\n"
)


def test_a_label_with_a_hereinafter_aside_names_its_party() -> None:
    assert [(s.term, s.name.text, s.name.start) for s in label_slots(LEASE)] == [
        ("Lessor", "Quartz Lotus Park Co., Ltd.", 72),
        ("Lessee", "Marlow Weiteng Construction Co., Ltd.", 147),
    ]
    assert bound_party_names(LEASE) == {"Quartz Lotus Park Co., Ltd.", "Marlow Weiteng Construction Co., Ltd."}


def test_other_aside_lead_words_and_a_letter_only_label() -> None:
    text = (
        "Sales Contract\nSeller (hereinafter called \"Party A\"): Quartz Lotus Park Co., Ltd.\n"
        "Party B (herein \"Buyer\"): Marlow Weiteng Construction Co., Ltd.\nArticle 1: Goods\n"
    )
    assert [(s.term, s.name.text) for s in label_slots(text)] == [
        ("Seller", "Quartz Lotus Park Co., Ltd."),
        ("Party B", "Marlow Weiteng Construction Co., Ltd."),
    ]


def test_an_aside_without_a_hereinafter_lead_stays_bounded() -> None:
    # Past 30 characters only a "hereinafter"/"herein" aside makes a label: a long note in
    # brackets before a colon is prose, not a party row.
    text = (
        "Sales Contract\nThe goods (as listed in the schedule attached hereto): Quartz Lotus Park Co., Ltd.\n"
        "Article 1: Goods\n"
    )
    assert label_slots(text) == []


def test_a_bracketed_label_names_its_party() -> None:
    # A translated Japanese form: "[Lessee] :X" rows under the heading.
    text = (
        "Master Rental Agreement\n[Translation]\nContract No.L5LEAA05\nJuly 16, 2003\n[Lessee] :QUARTZ JAPAN LIMITED\n"
        "[Lessor] : Marlow Capital Leasing K.K.\nThe Lessor and the Lessee have reached an agreement regarding the "
        "Master Rental Agreement (the \u201cAgreement\u201d) as specified below.\nArticle 1. Rental\n"
    )
    assert [(s.term, s.name.text) for s in label_slots(text)] == [
        ("Lessee", "QUARTZ JAPAN LIMITED"),
        ("Lessor", "Marlow Capital Leasing K.K."),
    ]
    assert bound_party_names(text) == {"QUARTZ JAPAN LIMITED", "Marlow Capital Leasing K.K."}
    # "[Translation]" has no colon: no label.
    assert all(s.term != "Translation" for s in label_slots(text))


def test_a_name_row_under_a_bare_role_label_names_the_party() -> None:
    text = (
        "Equity Transfer Agreement\nI. Basic Information\nDate of Execution: 10 December 2025\nTransferor (Party A):\n"
        "Legal Name: Quartz City Haoyuan Chemical Company Limited\nRegistered Address:\nLegal Representative:\n"
        "Transferee (Party B):\nEnterprise Name: Marlow Rongyuan Pharmaceutical Co., Ltd.\nRegistered Address:\n"
        "II. Recitals\n"
    )
    assert [(s.term, s.name.text) for s in label_slots(text)] == [
        ("Transferor", "Quartz City Haoyuan Chemical Company Limited"),
        ("Transferee", "Marlow Rongyuan Pharmaceutical Co., Ltd."),
    ]
    assert bound_party_names(text) == {
        "Quartz City Haoyuan Chemical Company Limited", "Marlow Rongyuan Pharmaceutical Co., Ltd.",
    }


def test_another_label_under_a_bare_role_label_is_no_value() -> None:
    # "Registered Address:" under "Transferor:" names no party.
    text = "Equity Transfer Agreement\nTransferor:\nRegistered Address: 12 Quartz Road, Marlow City\nII. Recitals\n"
    assert label_slots(text) == []


def test_a_contact_row_above_a_blank_line_belongs_to_the_block_before() -> None:
    # Stop 31: the pledgee's "Address:" row stood within two rows of "Pledgor: Wang Lei", which
    # made the pledgor's row a notice contact and lost the person.
    text = (
        "EQUITY PLEDGE AGREEMENT\n\nThis Equity Pledge Agreement is entered into in Beijing by and among:\n\n"
        "Pledgee: Quartz Lotus Technology Co., Ltd., a wholly foreign-owned enterprise\n"
        "Address: No. 8 Zhongguancun Street, Haidian District, Beijing\n\n"
        "Pledgor: Wang Lei, a PRC citizen\nID No.: 110101198001010000\n\nArticle 1 Definitions\n"
    )
    assert [(s.term, s.name.text, s.name.start) for s in label_slots(text)] == [
        ("Pledgee", "Quartz Lotus Technology Co., Ltd.", text.index("Quartz")),
        ("Pledgor", "Wang Lei", text.index("Wang")),
    ]
    assert (text.index("Quartz"), text.index("Wang")) == (105, 246)
    assert bound_party_names(text) == {"Quartz Lotus Technology Co., Ltd.", "Wang Lei"}
    # In a notice block (no blank line) the contact row still marks a contact, not a party.
    notice = (
        "EQUITY PLEDGE AGREEMENT\n\nPledgee: Quartz Lotus Technology Co., Ltd.\n\n"
        "Notices to the Pledgee:\nAddress: No. 8 Zhongguancun Street, Beijing\nAttention: Li Na\n\nArticle 1\n"
    )
    assert [(s.term, s.name.text) for s in label_slots(notice)] == [("Pledgee", "Quartz Lotus Technology Co., Ltd.")]


def test_a_definition_inside_a_label_is_the_rows_values() -> None:
    # Stop 31: '(hereinafter referred to as "Party B")' in the lessee's label went back to the
    # name on the line above, so the lessor was aliased "Party B" (and the title line plus
    # "Lessor" was read as a name for "Party A").
    text = LEASE.replace("\u201c", "\"").replace("\u201d", "\"")
    named = {d.term: (d.name.text, d.name.start) for d in find_definitions(text) if d.name is not None}
    assert named["Party A"] == ("Quartz Lotus Park Co., Ltd.", text.index("Quartz"))
    assert named["Party B"] == ("Marlow Weiteng Construction Co., Ltd.", text.index("Marlow"))
    assert bound_party_aliases(LEASE) == {
        "Quartz Lotus Park Co., Ltd.": ["Lessor", "Party A"],
        "Marlow Weiteng Construction Co., Ltd.": ["Lessee", "Party B"],
    }


def test_a_label_aside_without_a_value_defines_nothing() -> None:
    text = "Sales Contract\nSeller (hereinafter \"Party A\"):\nsee the schedule\nArticle 1: Goods\n"
    assert [d.name for d in find_definitions(text) if d.term == "Party A"] == [None]
