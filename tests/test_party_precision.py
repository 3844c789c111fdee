"""False parties: the general shapes of text that the preamble grammar can mistake for a party
(addresses, capitalised contract prose, documents, places, role and common words), checked by
``party_name_problem`` alone and end to end through ``annotate_document`` with the real pipeline.
The two end-to-end cases are the false parties the previous round found in CUAD contracts
(Sphere 3D's consulting agreement and Cardlytics' maintenance schedule), rebuilt in their shape."""

from __future__ import annotations

import pytest

from ingest.annotate import annotate_document
from ingest.names import lowercase_words, party_name_problem


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("1707 Toronto Ont.", "address"),
        ("Emeryville, CA. 94608", "address"),
        ("Toronto, Ontario M5C 3B5", "address"),
        ("London EC2V 7HN", "address"),
        ("THE FOREGOING IS UNDERSTOOD AND AGREED TO BY", "clause"),
        ("Pursuant", "clause"),
        ("Statement of Work", "document"),
        ("First Amendment", "document"),
        ("Delaware", "place"),
        ("People's Republic of China", "place"),
        ("North America", "place"),
        ("Delaware limited liability company", "description"),
        ("30 MW", "address"),
        ("Investment Company Act of 1940", "document"),
        ("Financial Director Mr R Moore", "signatory"),
        ("C.    Client", "role"),
        ("Bank", "role"),
    ],
)
def test_false_party_shapes_are_named(name: str, problem: str) -> None:
    assert party_name_problem(name) == problem


@pytest.mark.parametrize(
    "name",
    [
        "Sphere 3D Corp.",
        "695014 B.C. Ltd. dba Galaxy Telecom",
        "State of Texas",
        "City of Fort Stockton",
        "The University of Iowa",
        "NIGEL CROCKETT",
        "U.S. Bank National Association",
        "3M",
        "Wells Fargo Mortgage Backed Securities 2006-6 Trust",
    ],
)
def test_real_party_names_pass(name: str) -> None:
    assert party_name_problem(name, lowercase_words("the provider shall deliver units unless")) is None


def test_a_word_the_document_writes_in_lower_case_is_no_name() -> None:
    common = lowercase_words("The provider shall, unless agreed, deliver the units.")
    assert party_name_problem("Provider", common) == "common word"
    assert party_name_problem("C.    Provider", common) == "common word"
    # Capitalised everywhere it occurs: a name.
    assert party_name_problem("Detto", common) is None
    # A host name is no lower-case word: CyberShop stays a name next to "www.cybershop.com".
    assert party_name_problem("CyberShop", lowercase_words("see www.cybershop.com or sales@cybershop.com")) is None


def _parties(text: str) -> list[tuple[str, str]]:
    annotations = annotate_document(text, [(0, len(text))], doc_id="doc", revision="rev")
    agreement = next(s for s in annotations.subjects if s.type == "agreement")
    names = {s.subject_id: s.name for s in annotations.subjects}
    return sorted((party, names[party]) for party in agreement.attributes["parties"])


def test_an_address_between_name_and_role_is_not_a_party() -> None:
    text = (
        "Exhibit 10.12 CONSULTING AGREEMENT\n\nTHIS CONSULTING AGREEMENT is made and entered into as of "
        "June 1st, 2020 (the \"Effective Date\") by and between GROUPE PARAMEUS CORP , a (hereinafter, the "
        "\"Consultant\"), with an address at 80 Cumberland street, suite 1707 Toronto Ont. (the \"Consultant\"), "
        "and Sphere 3D Corp., with an address at 895 Don Mills Road Bldg 2 Toronto Ontario Canada (\"Company\").\n\n"
        "WHEREAS, Consultant has experience in investor relations.\n"
    )
    assert _parties(text) == [
        ("org:groupe parameus", "GROUPE PARAMEUS CORP"),
        ("org:sphere 3d", "Sphere 3D Corp."),
    ]


def test_a_signature_lead_in_is_not_a_party_and_the_name_after_it_is() -> None:
    text = (
        "SCHEDULE TO Software License, Customization and Maintenance Agreement\n\n"
        "This Schedule is made under the Software License, Customization, and Maintenance Agreement, by and "
        "between Northwind Analytics, Inc. (\"Supplier\") and Harbor Bank, N.A. (\"Harbor\").\n\n"
        "The attached Schedule A is hereby incorporated.\n\n"
        "THE FOREGOING IS UNDERSTOOD AND AGREED TO BY:   Northwind Analytics, Inc. (\"Supplier\")   "
        "Harbor Bank, N.A. (\"Harbor\")\n\nBy:  /s/ Jo Smith  By:  /s/ Al Jones\n"
    )
    assert _parties(text) == [
        ("org:harbor bank", "Harbor Bank, N.A."),
        ("org:northwind analytics", "Northwind Analytics, Inc."),
    ]


def test_an_officer_signing_without_by_is_no_party_unless_the_preamble_names_the_person() -> None:
    opening = (
        "SUPPLY AGREEMENT\n\nThis Supply Agreement is made by and between Paratide Pharma, Inc. (\"Buyer\") "
        "and Carbo Synthesis AG (\"Seller\").\n\nWHEREAS, Seller makes compounds.\n\n"
    )
    signatures = "IN WITNESS WHEREOF the parties sign.\n\nCARBO SYNTHESIS AG\n\n/s/ Silke Erbeck\n\n/s/ Stephan Fritschi\n"
    assert [p for p, _ in _parties(opening + signatures)] == ["org:carbo synthesis", "org:paratide pharma"]


def test_short_names_used_before_the_full_names_are_no_parties_of_their_own() -> None:
    text = (
        "FLEET SUPPLY AGREEMENT\n\nThis Agreement including the Schedules made between SEV and DCL.\n\n"
        "DATED 13 October 2005\n\nDAIRY CREST LIMITED (Company no 2085882) whose registered office is at "
        "Claygate House, Esher (\"DCL\")\n\nSEV GROUP LIMITED (company no 4463640) whose registered office is "
        "at Unit 1, Washington (\"SEV\")\n\n1. Definitions\n"
    )
    assert _parties(text) == [("org:dairy crest", "DAIRY CREST LIMITED"), ("org:sev group", "SEV GROUP LIMITED")]


def test_a_document_title_with_a_legal_form_inside_is_no_party() -> None:
    assert party_name_problem("Restated Agreement of Limited Partnership") == "document"
    assert party_name_problem("Cedar Basin Gas Transmission Limited Partnership") is None
