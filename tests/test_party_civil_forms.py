"""Party clauses of civil-law, Commonwealth and Asian drafting (issue 9, civil; names invented for
these tests, not from CUAD or any filing): representation clauses ("represented by its CEO ...",
"vertreten durch", "By its Directors Messrs. ..."), the office holder standing for its organisation
("between CEO of X and the president of Y"), "OF THE FIRST PART AND: ..." lists, an enumerator
read into a name, and the legal forms of many countries. Real spaCy pipeline; each case asserts
the exact set of bound party names.
"""

from __future__ import annotations

import pytest

from ingest.agreements import has_agreement_preamble
from ingest.names import (
    NameSpan,
    ends_in_legal_suffix,
    name_at,
    office_holders_organisation,
    representation_lead,
    without_enumerator,
)
from tests.test_party_shapes_general import _bound_spans

CASES: dict[str, tuple[str, set[str]]] = {
    # The representative after "represented in this act by" (and the role words after "acting
    # as") is no party: the definition after the representation clause is the company's.
    "represented_in_this_act_by": (
        "SUPPLY AGREEMENT\n\nAGREEMENT ENTERED BETWEEN \"COMERCIAL DEL VALLE ORIENTE S.A. DE C.V.\"\n"
        "REPRESENTED IN THIS ACT BY MR. JORGE ALBERTO RAMIREZ ACTING AS LEGAL REPRESENTATIVE, HEREINAFTER "
        "\"CVO\" AND TALLIS OPTICS LLC REPRESENTED IN THIS ACT BY MR. PETER QUINN ACTING AS PRESIDENT "
        "HEREINAFTER \"TALLIS\" IN ACCORDANCE WITH THE FOLLOWING CLAUSES.\n\nCLAUSES\n",
        {"COMERCIAL DEL VALLE ORIENTE S.A. DE C.V.", "TALLIS OPTICS LLC"},
    ),
    # Two directors with ID numbers, joined by "and", act for the partnership and the company.
    "by_its_directors_messrs": (
        "LEASE AGREEMENT\n\nMade and signed in Haifa on the 3rd day of May 2004\n\nBETWEEN:\n\n"
        "KARMEL ESTATES LTD. (COMPANY NO. 510000001)\nBy its Directors Messrs. Avi Golan (I.D. No. 1234567) "
        "and Dan Peretz (I.D. No. 7654321)\nwho are duly authorized to sign on behalf of the Company, "
        "hereinafter called \"The Lessor\"\n\nOF THE ONE PART\n\n-AND-\n\nNOVARIS MEDICAL LTD. (COMPANY "
        "NO. 512000002)\nBy Messrs. ORI LEVIN (I.D.NO.2222222) AND GIL SHAHAR (I.D.NO.3333333) who are duly "
        "authorized to sign on behalf of the Company, hereinafter called \"The Lessee\"\n\nOF THE OTHER "
        "PART\n\nWHEREAS the Lessor owns the premises;\n",
        {"KARMEL ESTATES LTD.", "NOVARIS MEDICAL LTD."},
    ),
    # "Represented by the Managing director" on a stacked cover: each company, not its director.
    "represented_by_managing_director": (
        "PATENT LICENSE AGREEMENT\nbetween\nSolvenda Patent GmbH\nRepresented by the Managing director\n"
        "Dr. Anton Brenner\nMarktstrasse 4\n55411 Bingen am Rhein\n- referred to as licensor below -\nand\n"
        "Hydrolux Systems GmbH\nrepresented by the Managing director\nDr. Karla Weiss\nRingstrasse 9\n"
        "45699 Herten\n- referred to as licensee below -\nPREAMBLE\nThe licensor grants rights.\n",
        {"Solvenda Patent GmbH", "Hydrolux Systems GmbH"},
    ),
    # The office holder stands for the organisation, whose name holds "of" and "and".
    "office_holder_of_organisation": (
        "LICENSE AGREEMENT\nThis License Agreement, dated as of the 5th day of March, 2004, is entered\n"
        "into by and between CEO of Quorra Agritech Inc. (Hereinafter referred to as\n\"Executor\") and the "
        "president of Westland Institute of Soil Science and\nHorticulture (hereinafter referred to as "
        "\"Researcher\").\nWHEREAS, the Executor wishes to license the know-how.\n",
        {"Quorra Agritech Inc.", "Westland Institute of Soil Science and Horticulture"},
    ),
    # "OF THE FIRST PART AND:" closes one party and opens the next; a person among companies.
    "first_second_third_part": (
        "ASSET PURCHASE AGREEMENT\nTHIS AGREEMENT dated for reference the 2nd day of June, 2003.\nBETWEEN:\n"
        "BRACKEN CATALOGUE INC., a company incorporated under the laws of the Province of Manitoba (herein "
        "called the \"Vendor\") OF THE FIRST PART AND: HAROLD PIKE, businessperson, of 12 Elm Street, Regina, "
        "Saskatchewan (herein called the \"Principal\") OF THE SECOND PART AND: NORTHLINE DIRECT INC., a "
        "company incorporated under the federal laws of Canada (herein called the \"Purchaser\") OF THE THIRD "
        "PART WITNESSES THAT WHEREAS: A. The Vendor sells goods.\n",
        {"BRACKEN CATALOGUE INC.", "HAROLD PIKE", "NORTHLINE DIRECT INC."},
    ),
    # "made at <place> this": a preamble without a heading; "(Pvt.) Ltd." is one legal form.
    "made_at_place_pvt_ltd": (
        "Exhibit 10.4 AGREEMENT THIS AGREEMENT made at Nagpur this 4th day of May 2001, between M/s "
        "Sitara Remedies Pvt. Ltd., a company incorporated under the Companies Act, 1956, hereinafter "
        "referred to as \"the Company\" of the ONE PART AND Marigold Drug Co. (Pvt.) Ltd., a company "
        "incorporated under the Companies Act, 1956, hereinafter referred to as \"the Manufacturer\" of the "
        "OTHER PART. WHEREAS: A. The Company makes medicines.\n",
        # (The subject keeps the name as written; its entity id and an alias drop the "M/s".)
        {"M/s Sitara Remedies Pvt. Ltd.", "Marigold Drug Co. (Pvt.) Ltd."},
    ),
    # A numbered "PARTIES:" list: the enumerator "1." is no part of the company's name.
    "enumerated_registered_office": (
        "SERVICE AGREEMENT\nDATE: 3rd June 2001\nPARTIES: 1. THE HALLAM FOUNDRY COMPANY LIMITED (registered "
        "no: 123456) whose registered office is at 4 Mill Lane, Sheffield S1 2AB (\"the Company\"). 2. KELDA WIRE "
        "LIMITED (registered no: 654321) whose registered office is at 6 Oak Close, Leeds LS6 2AB (\"the "
        "Supplier\"). OPERATIVE PROVISIONS: 1. INTERPRETATION\n",
        {"THE HALLAM FOUNDRY COMPANY LIMITED", "KELDA WIRE LIMITED"},
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_civil_law_party_forms_bind_exactly(case: str) -> None:
    text, expected = CASES[case]
    assert set(_bound_spans(text)) == expected


def test_the_representation_clause_runs_to_its_boundary() -> None:
    text = (
        "ACME S.A., represented by its CEO Jane Roe (ID No. 1) and John Doe, hereinafter \"Acme\", and "
        "BETA GMBH, vertreten durch den Geschäftsführer Hans Berg"
    )
    lead = representation_lead(text, text.index("Jane"))
    assert lead is not None and lead.group() == "represented by"
    assert representation_lead(text, text.index("John")) is not None
    # "hereinafter" closes the clause: the next company is a party again.
    assert representation_lead(text, text.index("BETA")) is None
    assert representation_lead(text, text.index("Hans")).group() == "vertreten durch"
    assert representation_lead(text, text.index("ACME")) is None
    # After "and", a company is the next party; a person is one more representative.
    joined = "between Acme S.A. represented by Jane Roe and Beta GmbH represented by Jo Li and Al Ng"
    assert representation_lead(joined, joined.index("Beta")) is None
    assert representation_lead(joined, joined.index("Al Ng")).group() == "represented by"


def test_a_representation_clause_is_looked_for_within_its_bound() -> None:
    # The lead is searched at most 300 characters back: a name further on is outside the clause.
    text = "ACME S.A., represented by " + "x" * 300 + " Jane Roe"
    assert representation_lead(text, text.index("Jane")) is None
    near = "ACME S.A., represented by " + "x" * 250 + " Jane Roe"
    assert representation_lead(near, near.index("Jane")) is not None


def test_office_holder_and_enumerator_are_no_part_of_a_name() -> None:
    text = "between the President of the Orla Institute of Marine Studies and 1. ACME LIMITED"
    start = text.index("the President")
    end = text.index(" and 1.")
    office = NameSpan(text[start:end], start, end)
    assert office_holders_organisation(text, office).text == "Orla Institute of Marine Studies"
    # A general partner is a party in its own right: no office to drop.
    partner = "General Partner of Acme Fund"
    assert office_holders_organisation(partner, NameSpan(partner, 0, len(partner))).text == partner
    numbered = NameSpan("1. ACME LIMITED", text.index("1."), len(text))
    assert without_enumerator(text, numbered).text == "ACME LIMITED"


@pytest.mark.parametrize(
    "name",
    [
        "Tanaka Trading GK", "Hoshino Seiki KK", "Pemberton Holdings Sdn. Bhd.", "Merlion Tech Pte. Ltd.",
        "Grupo Alvora S.A.B. de C.V.", "Banco Nortal, S.A. de C.V.", "Wisla Sp. z o.o.",
        "Ravi Foods (Pvt.) Ltd.", "Lumen Analytics Private Limited", "Tremblay Ltée", "Desert Palm FZ-LLC",
        "Harbour Bay DAC", "Volga Trade PJSC", "Sava Storitve d.o.o.", "Kobe Seiko Kabushiki Kaisha",
    ],
)
def test_legal_forms_of_many_countries_close_a_name(name: str) -> None:
    text = f"{name} (the \"Party\")"
    found = name_at(text, 0, len(text))
    assert found is not None and found.text == name
    assert ends_in_legal_suffix(found.text)


def test_civil_law_preamble_verbs_make_an_agreement() -> None:
    assert has_agreement_preamble("THIS AGREEMENT is concluded on the 2nd day of May 2015 between:")
    assert has_agreement_preamble("THIS AGREEMENT made at Nagpur this 4th day of May 2001, between")
    # A place must be a proper name: "made at the office this" is prose, not a preamble.
    assert not has_agreement_preamble("the agreement made at the office this morning was lost")
