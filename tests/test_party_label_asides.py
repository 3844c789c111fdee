"""A party label with a long "hereinafter" aside before its colon (issue 9, civil-law forms):
'Lessee (hereinafter referred to as "Party B"): X Co., Ltd.', as Chinese contracts in English
write their party rows. Before, an aside longer than 30 characters made the row no label, and
the second party was lost. Names are invented."""

from __future__ import annotations

from ingest.party_layout import label_slots
from tests.helpers import bound_party_names

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
