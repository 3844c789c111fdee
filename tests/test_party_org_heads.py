"""Organisation names without a legal form or with their boundaries cut wrongly (issue 9, orgnames):
a head noun (Bank, Trust, University, ...) names an organisation where a layout or a capacity marks
the slot, a bracketed place and "of <region>" belong to the name, a branch or a financial group after
the legal form goes on with it, and "a division of", an exhibit label or a foreign-script
rewriting end it. Invented names, the real spaCy pipeline; each case asserts the exact names.
"""

from __future__ import annotations

import pytest

from ingest.names import ends_in_legal_suffix, legal_name, name_at, organisation_head
from ingest.party_capacities import capacity_names
from tests.helpers import bound_party_names

NAME_AT: list[tuple[str, str]] = [
    # A bracketed jurisdiction after the legal form, before the description.
    ("KESTREL BANK, NA (USA), a national banking association", "KESTREL BANK, NA (USA)"),
    # ... and after a name by its head noun, over a line break.
    ("Harbour Keystone Trust\n(Delaware),  a business trust", "Harbour Keystone Trust\n(Delaware)"),
    # ... but not a bracketed word that is no place, nor a place after a bare name.
    ("KESTREL BANK, NA (Nasdaq), a national banking association", "KESTREL BANK, NA"),
    ("Jane Roe (Delaware), an individual", "Jane Roe"),
    # "of <region>" after a word legal form is the registered name.
    ('Quillon Packaging Corporation of America ("Lessee")', "Quillon Packaging Corporation of America"),
    # A division is written with its company: the name as written holds both (stop 23; the
    # registry key stays the division's, ``party_name_forms``); a subsidiary's parent is no part.
    (
        "HARBOUR VALLEY GAS COMPANY A DIVISION OF WESTMARK ENERGY CORPORATION TABLE",
        "HARBOUR VALLEY GAS COMPANY A DIVISION OF WESTMARK ENERGY CORPORATION",
    ),
    ("QUILLON LIFT, a Division of Westmark Industries, Inc., a Delaware corporation", "QUILLON LIFT, a Division of Westmark Industries, Inc."),
    # ... only when the company's name has a legal form; a division of a department is not read on.
    ("Quillon Lift, a division of Westmark Holdings and its affiliates", "Quillon Lift"),
    ("Harbour Valley Gas Company, a subsidiary of Westmark Energy Corporation", "Harbour Valley Gas Company"),
    # A page number and exhibit label run into the first line, before a name with a legal form.
    ("1 EXHIBIT 1.1 QUILLON CASUALTY GROUP, INC. 1,250,000 UNITS", "QUILLON CASUALTY GROUP, INC."),
    # ... but a heading under the label is no name with its label cut off.
    ("Exhibit 10.1\nENGLISH\nTRANSLATION ONLY", None),
    # "CORP., LTD." is one run of forms: the branch after it still follows the form.
    ("KESTREL MINSHENG BANKING CORP., LTD. HARBOUR BRANCH\n", "KESTREL MINSHENG BANKING CORP., LTD. HARBOUR BRANCH"),
    # ... and a lower-case word after a form is no next form ("incorporated in").
    ("QUAYSIDE PARTNERS S.A R.L. incorporated and registered in Luxembourg", "QUAYSIDE PARTNERS S.A R.L."),
    ("HARBOUR HOLDINGS LIMITED incorporated in Scotland", "HARBOUR HOLDINGS LIMITED"),
    # A shouted name's own AND/OF spend none of its twelve words.
    (
        "INDUSTRIAL AND TRADING BANK OF WESTLAND HARBOUR EAST NORTH QUAY SCIENCE PARK SUB-BRANCH\n",
        "INDUSTRIAL AND TRADING BANK OF WESTLAND HARBOUR EAST NORTH QUAY SCIENCE PARK SUB-BRANCH",
    ),
    # A Mexican bank's financial group after its form.
    (
        "Banco Quillon, S.A., Institucion de Banca Multiple, Grupo Financiero Quillon, in its capacity",
        "Banco Quillon, S.A., Institucion de Banca Multiple, Grupo Financiero Quillon",
    ),
]


@pytest.mark.parametrize(("text", "expected"), NAME_AT)
def test_name_at_reads_the_organisation_name(text: str, expected: str | None) -> None:
    found = name_at(text, 0, len(text))
    assert (found.text if found is not None else None) == expected


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Harbour Parklands Trust", True),
        ("MIDLAND BANK", True),
        ("The University of Westland", True),
        ("Bank of Kestrel", True),
        ("Trust", False),
        ("the Bank", False),
        ("Jane Roe", False),
        ("Harbour Parklands Trust Deed", False),
        ("Westland Holdings of Kestrel", False),
    ],
)
def test_organisation_head(name: str, expected: bool) -> None:
    assert organisation_head(name) is expected


def test_the_legal_name_before_a_trade_name_has_the_form() -> None:
    name = "QUILLON FUND SERVICES, INC. D/B/A HARBOUR FUND SERVICES"
    assert legal_name(name) == "QUILLON FUND SERVICES, INC."
    assert ends_in_legal_suffix(legal_name(name)) and not ends_in_legal_suffix(name)


def test_a_capacity_after_the_name_and_its_description() -> None:
    """ "X BANK, a federally chartered savings association, as Administrative Agent": the
    description between the name and its "as" is skipped; the bank needs no legal form."""
    text = (
        "THIS AMENDMENT is made as of May 1, 2020, among QUILLON HOLDINGS LLC, a Delaware limited liability "
        "company (the \"Borrower\"), WESTMARK BANK, a federally chartered savings association, as "
        "Administrative Agent (the \"Agent\"), and the Lenders party hereto."
    )
    assert [n.text for n in capacity_names(text, [(text.index("among"), len(text))])] == ["WESTMARK BANK"]


@pytest.mark.parametrize(
    ("description", "expected"),
    [
        # At the bound: eight words after the article are skipped ...
        ("a savings and loan association chartered under federal law", ["WESTMARK BANK"]),
        # ... nine are not, and the bank without a legal form is no entry.
        ("a savings and loan association chartered under the federal law", []),
    ],
)
def test_a_description_before_a_capacity_is_bounded(description: str, expected: list[str]) -> None:
    text = f"THIS AMENDMENT is made among WESTMARK BANK, {description}, as Administrative Agent, and the Lenders."
    assert [n.text for n in capacity_names(text, [(text.index("among"), len(text))])] == expected


def test_a_group_of_names_goes_on_over_a_foreign_script_rewriting() -> None:
    text = (
        "Dated 2 May 2022\n\nQUILLON GROUP LIMITED\n\nas Borrower\n\n"
        "KESTREL BANK (CHINA) LIMITED HARBOUR BRANCH 某某銀行上海分行\n\n"
        "WESTMARK BANK LIMITED\n\nas Arrangers\n\nFACILITY AGREEMENT\n"
    )
    assert [n.text for n in capacity_names(text, [(0, len(text))])] == [
        "QUILLON GROUP LIMITED",
        "KESTREL BANK (CHINA) LIMITED HARBOUR BRANCH",
        "WESTMARK BANK LIMITED",
    ]


SHAPES: dict[str, tuple[str, set[str]]] = {
    "bracketed_jurisdiction_of_a_trust": (
        "CUSTODY AGREEMENT\n\nAGREEMENT dated as of July 1, 2001, between Quillon Trust, LLC\n(\"Custodian\"), a "
        "limited liability company, and Harbour Keystone  Trust\n(Delaware),  a business trust organized under the "
        "laws of the State of Delaware (\"Customer\").\n\nWHEREAS, Customer is an investment company.",
        {"Quillon Trust, LLC", "Harbour Keystone Trust (Delaware)"},
    ),
    "corporation_of_a_region": (
        "RENTAL SCHEDULE\n\nThis RENTAL SCHEDULE, dated as of June 1, 1995, between Westmark Finance Group, a "
        "Massachusetts general partnership (\"Lessor\"), and Quillon Packaging Corporation of America (\"Lessee\") "
        "incorporates the Master Lease. Lessor hereby leases to Lessee the equipment.",
        {"Westmark Finance Group", "Quillon Packaging Corporation of America"},
    ),
    "shouted_and_on_a_title_line": (
        "SPONSORSHIP AGREEMENT Between THE UNIVERSITY OF WESTLAND And HARBOUR MANAGEMENT, LP THIS SPONSORSHIP "
        "AGREEMENT is made and entered into by and between Harbour Management, LP (\"HMLP\") and the University "
        "of Westland (the \"Sponsor\"). WHEREAS, HMLP has obtained certain rights.",
        {"Harbour Management, LP", "University of Westland"},
    ),
    "beneficiary_inside_the_clause": (
        "GUARANTY AGREEMENT THIS GUARANTY AGREEMENT (this \"Guaranty\") is executed as of July 1, 2006, by QUILLON "
        "HOLDINGS, INC., a Texas corporation (\"Guarantor\"), whose address for notice purposes is 12 Elm Avenue, "
        "Westland, Texas 70001, for the benefit of WESTMARK CAPITAL BANK, NATIONAL ASSOCIATION, a national banking "
        "association (\"Lender\"). Guarantor agrees as follows.",
        {"QUILLON HOLDINGS, INC.", "WESTMARK CAPITAL BANK, NATIONAL ASSOCIATION"},
    ),
    "made_by_after_a_dated_comma": (
        "LICENSE AGREEMENT\n\nTHIS LICENSE AGREEMENT (this \"Agreement\") is entered into as of\nMay 18, 2003, by "
        "Quillon Medical Co., Inc., a Nevada corporation with offices at 12 Campus Parkway, Westport, New "
        "Jersey 07753, United States of America (\"QMC\"), and Harbour Devices Ltd., a Korean company "
        "(\"Harbour\").\n\nBACKGROUND\n",
        {"Quillon Medical Co., Inc.", "Harbour Devices Ltd."},
    ),
    "trust_on_a_cover_run_into_one_line": (
        "Harbour Park Business Hub - Development Agreement\n\n1 Harbour Park Business Hub - Development Agreement "
        "Dated 2.0 Westland Harbour Parklands Trust (ABN ) ( Owner ) Quillon Developments Pty Ltd (ACN ) ( Developer "
        ") and Kestrel Holdings Pty Limited (ABN ) (together Guarantor )\n\n2 Contents Details 6 General terms 8\n",
        {"Westland Harbour Parklands Trust", "Quillon Developments Pty Ltd", "Kestrel Holdings Pty Limited"},
    ),
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_party_shape_binds_exactly_its_parties(shape: str) -> None:
    text, names = SHAPES[shape]
    assert bound_party_names(text) == names
