"""Two standard drafting forms of issue 9 (names invented for these tests, not from CUAD): the
Indian "BY AND BETWEEN ... of the ONE PART; AND ... of the OTHER PART" form, whose addresses end in
a city and a postal code, and the one-sided instrument (a guaranty, a note, a deed) that is "made
... by" its maker "in favor of" its beneficiary. Real spaCy pipeline; each bound party's exact name
and the exact source text of its ``party_to`` binding, and the names that must never be bound.
"""

from __future__ import annotations

import pytest

from ingest.names import party_name_problem
from tests.test_party_shapes_general import _bound_spans, _span

SHAPES: dict[str, tuple[str, dict[str, str]]] = {
    # "Pvt. Ltd." is a legal form; "Mumbai 400021" (a city and a PIN code) is the address.
    "indian_one_part_other_part": (
        "SERVICES AGREEMENT\n\nThis Services Agreement is made on 5 January 2022\n\nBY AND BETWEEN\n\n"
        "KAVERI DATAWORKS PRIVATE LIMITED, a company incorporated under the Companies Act, 2013, having its "
        "registered office at 14 Residency Road, Bengaluru 560025 (hereinafter referred to as the \"Service "
        "Provider\", which expression shall, unless repugnant to the context, include its successors and "
        "permitted assigns) of the ONE PART;\n\nAND\n\nSaptarishi Retail Pvt. Ltd., a company incorporated "
        "under the Companies Act, 1956, having its registered office at 3rd Floor, Marine Plaza, Mumbai 400021 "
        "(hereinafter referred to as the \"Client\") of the OTHER PART.\n\nWHEREAS\n",
        {
            "KAVERI DATAWORKS PRIVATE LIMITED": "KAVERI DATAWORKS PRIVATE LIMITED, a company incorporated under "
            "the Companies Act, 2013, having its registered office at 14 Residency Road, Bengaluru 560025 "
            "(hereinafter referred to as the \"Service Provider\", which expression shall, unless repugnant to "
            "the context, include its successors and permitted assigns)",
            "Saptarishi Retail Pvt. Ltd.": "Saptarishi Retail Pvt. Ltd., a company incorporated under the "
            "Companies Act, 1956, having its registered office at 3rd Floor, Marine Plaza, Mumbai 400021 "
            "(hereinafter referred to as the \"Client\")",
        },
    ),
    # FIRST / SECOND / THIRD PART, a person among them, a PIN code written "201 301".
    "indian_first_second_third_part": (
        "SHAREHOLDERS AGREEMENT\n\nThis Agreement is executed on 2 April 2020 BY AND AMONG:\n\nNILGIRI AGRO "
        "PRIVATE LIMITED, a company incorporated under the Companies Act, 2013, having its registered office at "
        "22 Mount Road, Chennai 600002 (hereinafter referred to as the \"Company\") of the FIRST PART;\n\n"
        "Deccan Seed Ventures Private Limited, a company having its registered office at Banjara Hills, "
        "Noida 201 301 (hereinafter referred to as the \"Investor\") of the SECOND PART;\n\nAND\n\nRavi "
        "Shankar Menon, residing at 9 Lake View, Kochi 682011 (hereinafter referred to as the \"Promoter\") of "
        "the THIRD PART.\n\nWHEREAS\n",
        {
            "NILGIRI AGRO PRIVATE LIMITED": "NILGIRI AGRO PRIVATE LIMITED, a company incorporated under the "
            "Companies Act, 2013, having its registered office at 22 Mount Road, Chennai 600002 (hereinafter "
            "referred to as the \"Company\")",
            "Deccan Seed Ventures Private Limited": "Deccan Seed Ventures Private Limited, a company having its "
            "registered office at Banjara Hills, Noida 201 301 (hereinafter referred to as the \"Investor\")",
            "Ravi Shankar Menon": "Ravi Shankar Menon, residing at 9 Lake View, Kochi 682011 (hereinafter "
            "referred to as the \"Promoter\")",
        },
    ),
    # "Pvt." / "Pte." / "Sdn." end no sentence: the name before the definition is the company,
    # not the city that closes its address ("Bengaluru" alone is no party).
    "pvt_ltd_city_without_postal_code": (
        "SERVICES AGREEMENT\n\nThis Agreement is made BY AND BETWEEN\n\nKaveri Data Pvt. Ltd., a company "
        "incorporated under the Companies Act, 2013, having its registered office at Residency Road, Bengaluru "
        "(hereinafter referred to as the \"Provider\") of the ONE PART;\n\nAND\n\nLion City Components Pte. Ltd., "
        "a company incorporated in Singapore (hereinafter referred to as the \"Client\") of the OTHER PART.\n\n"
        "WHEREAS\n",
        {
            "Kaveri Data Pvt. Ltd.": "Kaveri Data Pvt. Ltd., a company incorporated under the Companies Act, 2013, "
            "having its registered office at Residency Road, Bengaluru (hereinafter referred to as the \"Provider\")",
            "Lion City Components Pte. Ltd.": "Lion City Components Pte. Ltd., a company incorporated in Singapore "
            "(hereinafter referred to as the \"Client\")",
        },
    ),
    # The maker after "is made as of <date, with a comma> by", the beneficiary after "in favor of".
    "guaranty_made_by_in_favor_of": (
        "GUARANTY\n\nTHIS GUARANTY (this \"Guaranty\") is made as of March 9, 2021 by Tamarack Forge Holdings, "
        "Inc., a Minnesota corporation (\"Guarantor\"), in favor of Silver Ridge Bank, N.A., a national banking "
        "association (\"Lender\").\n\nRECITALS\n",
        {
            "Tamarack Forge Holdings, Inc.": "Tamarack Forge Holdings, Inc., a Minnesota corporation (\"Guarantor\")",
            "Silver Ridge Bank, N.A.": "Silver Ridge Bank, N.A., a national banking association (\"Lender\")",
        },
    ),
    # British spelling "in favour of", a deed dated without a comma.
    "deed_of_guarantee_in_favour_of": (
        "DEED OF GUARANTEE\n\nTHIS DEED OF GUARANTEE (this \"Deed\") is made on 4 May 2020 by Fellgate "
        "Engineering Limited, a company incorporated in England and Wales (\"Guarantor\"), in favour of "
        "Thornbury Commercial Finance plc (\"Beneficiary\").\n\n1. Guarantee\n",
        {
            "Fellgate Engineering Limited": "Fellgate Engineering Limited, a company incorporated in England and "
            "Wales (\"Guarantor\")",
            "Thornbury Commercial Finance plc": "Thornbury Commercial Finance plc (\"Beneficiary\")",
        },
    ),
    # A note made by its maker "for the benefit of" its holder.
    "note_made_by_for_the_benefit_of": (
        "SECURED PROMISSORY NOTE\n\nTHIS SECURED PROMISSORY NOTE (this \"Note\") is made as of August 14, "
        "2018 by Ridgeline Solar LLC, a Colorado limited liability company (\"Maker\"), for the benefit of "
        "Copperhead Capital Partners, L.P., a Delaware limited partnership (\"Holder\").\n\n1. Payment.\n",
        {
            "Ridgeline Solar LLC": "Ridgeline Solar LLC, a Colorado limited liability company (\"Maker\")",
            "Copperhead Capital Partners, L.P.": "Copperhead Capital Partners, L.P., a Delaware limited "
            "partnership (\"Holder\")",
        },
    ),
    # The parent after "a wholly owned subsidiary of" is no party.
    "guaranty_made_by_subsidiary_of": (
        "GUARANTY\n\nTHIS GUARANTY (this \"Guaranty\") is made as of May 5, 2017 by Brannock "
        "Tools, Inc., a wholly owned subsidiary of Corliss Group Holdings, Inc. (\"Guarantor\"), in favor of "
        "Eastlake Savings Bank (\"Lender\").\n\nRECITALS\n",
        {
            "Brannock Tools, Inc.": "Brannock Tools, Inc., a wholly owned subsidiary of Corliss Group Holdings, "
            "Inc. (\"Guarantor\")",
            "Eastlake Savings Bank": "Eastlake Savings Bank (\"Lender\")",
        },
    ),
    # "made and given ... by", "executed and delivered ... by": the same maker slot.
    "note_made_and_given": (
        "PROMISSORY NOTE\n\nTHIS PROMISSORY NOTE (this \"Note\") is made and given as of June 30, 2016 by "
        "Larchmont Cabinetry, Inc. (\"Maker\"), in favor of Wexford Community Bank (\"Payee\").\n\n1. Payment.\n",
        {
            "Larchmont Cabinetry, Inc.": "Larchmont Cabinetry, Inc. (\"Maker\")",
            "Wexford Community Bank": "Wexford Community Bank (\"Payee\")",
        },
    ),
    "guaranty_executed_and_delivered": (
        "GUARANTY\n\nTHIS GUARANTY (this \"Guaranty\") is executed and delivered as of July 1, 2015 by Ostrander "
        "Mills LLC, an Ohio limited liability company (\"Guarantor\"), for the benefit of Greywater Leasing "
        "Corp. (\"Lessor\").\n\nRECITALS\n",
        {
            "Ostrander Mills LLC": "Ostrander Mills LLC, an Ohio limited liability company (\"Guarantor\")",
            "Greywater Leasing Corp.": "Greywater Leasing Corp. (\"Lessor\")",
        },
    ),
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_form_binds_exactly_its_parties_with_their_source_spans(shape: str) -> None:
    text, expected = SHAPES[shape]
    assert _bound_spans(text) == {name: _span(text, source) for name, source in expected.items()}


@pytest.mark.parametrize(
    "address",
    [
        "Mumbai 400021",  # India, six digits
        "Noida 201 301",  # India, written in two groups
        "Shanghai 200120",  # China
        "Berlin 10117",  # Germany, city first
        "Tokyo 100-0005",  # Japan
        "Sao Paulo 01310-100",  # Brazil
        "Warszawa 00-950",  # Poland
        "Stockholm 111 52",  # Sweden
        "Sydney NSW 2000",  # Australia, state then four digits
        "Lincolnshire, IL 60069",  # US, state then ZIP (as before)
    ],
)
def test_a_city_and_a_postal_code_is_an_address(address: str) -> None:
    assert party_name_problem(address) == "address"


@pytest.mark.parametrize(
    "name",
    ["Vintage Fund 2019, L.P.", "Atlas Growth Fund 2000", "Granite Fund III 2021", "1847 Goedeker Inc.", "Nordic 2000 AB"],
)
def test_a_year_or_vintage_in_a_name_is_no_postal_code(name: str) -> None:
    assert party_name_problem(name) is None
