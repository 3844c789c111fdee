"""Party and title shapes of stop 64 (issue 9), each found on a labelled set of real contract
openings (``bench/gate_sets.py``: the halves B of sets new12 and new13, read this stop after their
clean figures were taken at stop 63); the names here are invented. Each test but the guards fails
on the code before its rule.

- Party letter rows ("Party A：X Limited") after a contents page are read: the layout reads on
  past the contents page when such a row follows it.
- An institution named for its fields is read over their commas ("QUILLMOOR COLLEGE OF SCIENCE,
  TECHNOLOGY AND MEDICINE"), as a ministry named for its portfolios already was.
- A state university's campus after "at" is part of its name ("The University of Westland at
  Harbor Hill").
- An "and" before a lower-case word joins a party's description, never the next party ("with its
  office and place of business at ..."); a slot after the list's "and" described as a body formed
  under a law ("a foundation incorporated under the laws of ...") is a party.
- A cover's title above a contents page is also the fuller heading over the preamble after it
  ("LICENSE AGREEMENT" on the cover, "EXCLUSIVE PATENT LICENSE AGREEMENT" over "This Agreement").
- A title read from the preamble's own sentence goes on to the name that sentence defines ('This
  First Amendment to License Agreement and Asset Transfer (the "First Amendment")').
- A heading a page's text layer wrote twice with no break is the title once.
- A division's parent company, the legal person that contracts through it, is another name of the
  party ("Quill Citations, a division of Orvelle Account Management LLC").

From the halves A of sets new14 and new15, collected this stop by helpers who read no Attest code
and read after their clean figures were taken:

- "with reference to the following facts:" opens lettered recitals: the parties to the master
  lease a recital names ("Zapco ..., as landlord, and Quill Enterprises, Inc. ..., as tenant,
  entered into ...") are no parties of the sublease; before, the learned review added one, and a
  question naming it passed the gate.
- When the grammar reads fewer than two parties, a model entity in the clause that a form's colon
  follows is a field label ("City of Arcadia Address:", "City,State,Zip Code:"), a town before a
  state code and ZIP code is an address, and a short capitals label before a code is an
  identifier's ("CIN U72200KA2009PTC048999"); none is a party.
- A name after "registered with" is a registry, no party ("registered with Ministry of Corporate
  Affairs").
- A field's word ("TECHNOLOGY") is no person's: "INTREPID TECHNOLOGY AND RESOURCES BIOGAS, LLC"
  is one company, not a person and a company.
- A place right after a postal code closes an address, and no definition's term names it ("...,
  Jersey, JE2 4WQ, Channel Islands (the "Company")").
- A translation's heading in sentence case with its kind before the agreement word ("Sales
  contract of Industrial and Mineral Products") is the title.
- A bilingual cover writes each name in Chinese, then in English, with "和 and" between: the lines
  with no Latin letter are no cells of the layout, and the English names stack as on any cover.

The gate test runs on a real SQLite store filled by the real ingest pipeline (spaCy, MiniLM)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ingest.agreements import agreement_names
from ingest.names import party_name_forms
from ingest.party_layout import LAYOUT_SCAN_CHARS, layout_end
from tests.helpers import agreement_title, bound_party_names
from tests.kb import KB, ingested_kb

CONTENTS_THEN_LABELS = (
    "Exhibit 10.4\n|Technical Service Framework Agreement\n|Contract Number ：\nTable of Contents\n|1.\n|Definition\n|3\n"
    "|2.\n|Services Scope\n|4\n|3.\n|Fees\n|5\n2\n|Technical Service Framework Agreement\n|Contract Number ：\n"
    "Party A：Quillmoor JFZ (Asia) Holdings Limited\nAddress：Room 1910, Tower 3, Harbour City, Kowloon, HK\n"
    "Contact Person： Orvelle Tam\nAnd\nParty B：Orvelle Ayers Technologies Limited\nAddress：16/F, Asia Tower, Central\n"
    "Contact Person： Quill Mo\nBased on the principle of good faith, Party A and Party B have reached this Technology "
    "Service Framework Agreement to be jointly observed.\n"
)
FIELDS_COLLEGE = (
    "INTELLECTUAL PROPERTY LICENCE AGREEMENT\n\nTHIS INTELLECTUAL PROPERTY LICENCE AGREEMENT is made on 2019\n\nBETWEEN\n\n"
    "(1)\n\nQUILLMOOR COLLEGE OF SCIENCE, TECHNOLOGY AND MEDICINE (incorporated by Royal Charter) whose registered "
    "address is Exhibition Road, London (\u201cLicensor\u201d); and\n\n(2)\n\nORVELLE LIMITED (registered in England and "
    "Wales under number 08341001) the registered office of which is at 52 Princes Gate, London (\u201cLicensee\u201d).\n\n"
    "INTRODUCTION\n\n(A) The Licensee wishes to acquire a licence.\n"
)
CAMPUS_AT = (
    "SPONSORED RESEARCH AGREEMENT\n\nSPONSORED RESEARCH AGREEMENT, effective June 30, 2002, by and between The University "
    "of Westland at Harbor Hill, having an address at 308 Bynum Hall, Harbor Hill, Westland (the \u201cUniversity\u201d), "
    "and Orvelle Cell Technologies, Inc., a corporation existing under the laws of the State of Delaware (the "
    "\u201cSponsor\u201d).\nWITNESSETH:\nWHEREAS, University and Sponsor wish to collaborate;\n"
)
FOUNDATION_AFTER_ADDRESS = (
    "DEVELOPMENT COLLABORATION AGREEMENT\n\nThis DEVELOPMENT COLLABORATION Agreement (this \u201cAgreement\u201d) is "
    "entered into on October 8, 2021, by and between QUILL BIOTECHNOLOGY HOLDINGS, INC. (\u201cQuill\u201d), with its "
    "office and place of business at 680 E Colorado Blvd., Pasadena, CA 91101 and STICHTING HET ORVELLE KANKER "
    "INSTITUUT \u2013 ANTONI VAN HARBOR ZIEKENHUIS, a foundation incorporated under the laws of The Netherlands, with "
    "its registered office at Plesmanlaan 121, Amsterdam (\u201cOKI-AHZ\u201d or \u201cInstitution\u201d) and STICHTING "
    "QUILLCODE INSTITUTE, a foundation incorporated under the laws of The Netherlands (\u201cQuillcode\u201d). Each of "
    "Quill, OKI-AHZ and Quillcode are referred to as a \u201cParty\u201d and together as, the \u201cParties.\u201d\n\n"
    "WHEREAS, Quill owns the Compound.\n"
)
COVER_THEN_CONTENTS = (
    "Exhibit 10.15\n\nQUILLMOOR INSTITUTE FOR BIOMEDICAL RESEARCH\n\nand\n\nORVELLE PHARMACEUTICALS, INC.\n\n"
    "LICENSE AGREEMENT\n\n\n\nTABLE OF CONTENTS\n\nRECITALS\n\n1\n\n1.\n\nDefinitions\n\n2\n\n2.\n\nGrant of Rights\n\n9\n\n"
    "\n\nQUILLMOOR INSTITUTE FOR BIOMEDICAL RESEARCH\n\nEXCLUSIVE PATENT LICENSE AGREEMENT\n\nThis Agreement, effective "
    "as of April 4, 2013 (the \u201cEFFECTIVE DATE\u201d), is between the Quillmoor Institute for Biomedical Research "
    "(\u201cQUILLMOOR\u201d), a Delaware corporation, and Orvelle Pharmaceuticals, Inc. (\u201cCOMPANY\u201d), a "
    "Delaware corporation.\n\nRECITALS\n\nWHEREAS, QUILLMOOR owns patents.\n"
)
SELF_NAMED_AMENDMENT = (
    "Exhibit 10.3\nFirst Amendment To\nLicense Agreement And Asset Transfer Between\nThe Westland Board Of Regents\nAnd\n"
    "Orvelle Healthcare Corp.\nWestland File UA09-108\nThis First Amendment to License Agreement and Asset Transfer (the "
    "\u201cFirst Amendment\u201d) is made effective on the date of the last signature below and is between The Westland "
    "Board of Regents, a body corporate (\u201cWESTLAND\u201d), and Orvelle Healthcare Corporation, a Delaware "
    "corporation (\u201cLICENSEE\u201d).\nWHEREAS, WESTLAND and LICENSEE are parties to a License Agreement.\n"
)
DOUBLED_HEADING = (
    "AGREEMENT FOR PROCESSING PARKING CITATIONSAGREEMENT FOR PROCESSING PARKING CITATIONS\nThis Service Agreement is "
    "made by and between Quill Citations, a division of Orvelle Account Management LLC, 633 W. Wisconsin Avenue, "
    "Milwaukee, WI 53203, hereinafter referred to as \"Contractor\" and The City of Harborton, FL, a municipal "
    "corporation, hereinafter referred to as \"Agency\".\n1. The laws of Florida govern.\n"
)


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory, embedder) -> Iterator[KB]:
    yield from ingested_kb(
        tmp_path_factory, embedder, "shapes-s64", {"framework": CONTENTS_THEN_LABELS, "licence": COVER_THEN_CONTENTS, "parking": DOUBLED_HEADING}
    )


def test_party_letter_rows_after_a_contents_page_are_read() -> None:
    # Before: the layout stopped at "Table of Contents", and no party was bound.
    assert bound_party_names(CONTENTS_THEN_LABELS) == {"Quillmoor JFZ (Asia) Holdings Limited", "Orvelle Ayers Technologies Limited"}


def test_the_layout_reads_past_contents_only_when_party_rows_follow() -> None:
    labelled = CONTENTS_THEN_LABELS
    assert layout_end(labelled) == len(labelled)
    # (A guard: a contents page with no party letter's row after it still ends the layout.)
    plain = labelled.replace("Party A：", "Seller ").replace("Party B：", "Buyer ")
    assert layout_end(plain) == plain.index("Table of Contents")
    # (Bounded: past the contents page, at most LAYOUT_SCAN_CHARS more.)
    long = labelled + "A line of the terms.\n" * LAYOUT_SCAN_CHARS
    assert layout_end(long) == long.index("Table of Contents") + len("Table of Contents") + LAYOUT_SCAN_CHARS


def test_the_party_rows_after_contents_pass_the_gate(kb: KB) -> None:
    docs, _ = kb.docs(
        "What law governs the Technical Service Framework Agreement between Quillmoor JFZ (Asia) Holdings Limited "
        "and Orvelle Ayers Technologies Limited?"
    )
    assert docs == {"framework"}


def test_an_institution_named_for_its_fields_is_read_over_its_commas() -> None:
    # Before: "QUILLMOOR COLLEGE OF SCIENCE" was bound.
    assert bound_party_names(FIELDS_COLLEGE) == {"QUILLMOOR COLLEGE OF SCIENCE, TECHNOLOGY AND MEDICINE", "ORVELLE LIMITED"}


def test_guard_a_company_and_a_list_after_it_stay_apart() -> None:
    text = (
        "SUPPLY AGREEMENT\n\nThis Supply Agreement is made by and among Quillmoor Holdings Inc., Orvelle Trading LLC "
        "and Harbor Logistics Ltd. (together, the \"Parties\").\n\n1. Supply.\n"
    )
    assert bound_party_names(text) == {"Quillmoor Holdings Inc.", "Orvelle Trading LLC", "Harbor Logistics Ltd."}


def test_a_universitys_campus_after_at_is_part_of_its_name() -> None:
    # Before: "The University of Westland" was bound, without its campus.
    assert bound_party_names(CAMPUS_AT) == {"The University of Westland at Harbor Hill", "Orvelle Cell Technologies, Inc."}


def test_guard_an_address_after_at_is_no_campus() -> None:
    text = CAMPUS_AT.replace("at Harbor Hill, having an address at 308", "at its offices at 308")
    assert bound_party_names(text) == {"The University of Westland", "Orvelle Cell Technologies, Inc."}


def test_a_foundation_after_an_address_and_the_lists_and_is_a_party() -> None:
    # Before: "office and place of business" opened the second slot, and the foundation, with no
    # legal form, was no party.
    assert bound_party_names(FOUNDATION_AFTER_ADDRESS) == {
        "QUILL BIOTECHNOLOGY HOLDINGS, INC.",
        "STICHTING HET ORVELLE KANKER INSTITUUT \u2013 ANTONI VAN HARBOR ZIEKENHUIS",
        "STICHTING QUILLCODE INSTITUTE",
    }


def test_a_covers_title_is_also_the_fuller_heading_after_the_contents(kb: KB) -> None:
    title, aliases = agreement_names(COVER_THEN_CONTENTS)
    assert title is not None and title.text == "LICENSE AGREEMENT"
    fuller = [a for a in aliases if a.text == "EXCLUSIVE PATENT LICENSE AGREEMENT"]
    assert len(fuller) == 1 and COVER_THEN_CONTENTS[fuller[0].start : fuller[0].end] == "EXCLUSIVE PATENT LICENSE AGREEMENT"
    for asked in ("EXCLUSIVE PATENT LICENSE AGREEMENT", "LICENSE AGREEMENT"):
        docs, _ = kb.docs(
            f"What law governs the {asked} between Quillmoor Institute for Biomedical Research and Orvelle Pharmaceuticals, Inc.?"
        )
        assert docs == {"licence"}


def test_guard_a_different_heading_after_the_contents_is_no_alias() -> None:
    text = COVER_THEN_CONTENTS.replace("EXCLUSIVE PATENT LICENSE AGREEMENT", "EXCLUSIVE PATENT SUPPLY AGREEMENT")
    _, aliases = agreement_names(text)
    assert "EXCLUSIVE PATENT SUPPLY AGREEMENT" not in {a.text for a in aliases}


def test_a_title_read_from_the_preamble_goes_on_to_its_defined_name() -> None:
    # Before: "First Amendment to License Agreement", cut at "and".
    assert agreement_title(SELF_NAMED_AMENDMENT) == "First Amendment to License Agreement and Asset Transfer"


def test_a_heading_written_twice_without_a_break_is_the_title_once() -> None:
    title, _ = agreement_names(DOUBLED_HEADING)
    assert title is not None
    assert (title.text, title.start, title.end) == ("AGREEMENT FOR PROCESSING PARKING CITATIONS", 0, 42)


def test_a_divisions_parent_is_another_name_of_the_party(kb: KB) -> None:
    assert party_name_forms("Quill Citations, a division of Orvelle Account Management LLC") == [
        "Quill Citations, a division of Orvelle Account Management LLC",
        "Orvelle Account Management LLC",
        "Quill Citations",
    ]
    for contractor in ("Orvelle Account Management LLC", "Quill Citations"):
        docs, _ = kb.docs(
            f"What law governs the AGREEMENT FOR PROCESSING PARKING CITATIONS between {contractor} and City of Harborton?"
        )
        assert docs == {"parking"}


def test_guard_a_subsidiarys_parent_is_no_name_of_the_party() -> None:
    assert party_name_forms("Quill Citations, a subsidiary of Orvelle Holdings LLC") == [
        "Quill Citations, a subsidiary of Orvelle Holdings LLC"
    ]


SUBLEASE = (
    "                              SUBLEASE AGREEMENT\n\n\n\nTHIS SUBLEASE AGREEMENT (this \"SUBLEASE\") is entered "
    "into as of July 20, 1999,\nby and between QUILLMOOR STUDIOS LTD, a New York corporation (\"SUBLANDLORD\"),\nand "
    "ORVELLE THEORY CORPORATION, a Delaware corporation (\"SUBTENANT\"), with\nreference to the following facts:\n\n"
    "A.       Harbor 1500 Investment, L.P., a Delaware limited partnership (\"MASTER\n         LANDLORD\"), as "
    "landlord, and Quill Enterprises, Inc. (\"QUILL\n         ENTERPRISES\"), as tenant, entered into that certain "
    "Amended and\n         Restated Lease dated as of November 11, 1997 (the \"MASTER LEASE\").\n"
)
SITE_HOST = (
    "Electric Vehicle Charge Station Site Host Agreement This Electric Vehicle Charge Station Site Host Agreement "
    "(\"Agreement\") is effective as of the Sponsor Approval Date(the\"Effective Date\")between: Quill Connect,Inc.(a "
    "California Corporation)(\"Quill Connect\"): 615 North Nash Street Suite 203 El Segundo,CA 90245 -and- Charging "
    "Site Host: City of Orvelle Address: 240 West Huntington Drive City,State,Zip Code: Orvelle,CA 91066 Contact Name: "
    "Jane Roe Telephone Number(s): (626)254-2708 Quill Connect and the Charging Site Host(either individually\"Party\""
    "or collectively\"Parties\")agree as follows: 1. Term of Agreement\n"
)
LICENSOR_REGISTERED = (
    "End-User License Agreement\n\nThis End-User License Agreement (The Agreement) is made 2nd day of May 2014\n\n"
    "BETWEEN\nQUILLMOOR TECHNOLOGIES PRIVATE LIMITED, a company incorporated under the Companies Act, 1956\nregistered "
    "with Ministry of Corporate Affairs by CIN U72200KA2009PTC048999 and having its registered office\nat #2733, 1st "
    "Floor, 27th Main, Bangalore-560102, INDIA, (hereinafter referred to as the Licensor)\nAND\nOrvelle Creative, a "
    "firm of Dhaka, having its registered office at House # 54, Dhaka 1213 Bangladesh\n\nWHEREAS\n(A) Licensor owns "
    "the Software.\n"
)


@pytest.fixture(scope="module")
def sublease_kb(tmp_path_factory: pytest.TempPathFactory, embedder) -> Iterator[KB]:
    yield from ingested_kb(tmp_path_factory, embedder, "shapes-s64-sublease", {"sublease": SUBLEASE})


def test_parties_a_lettered_recital_names_are_no_parties() -> None:
    # Before: the learned review added "Quill Enterprises, Inc.", a party to the master lease.
    assert bound_party_names(SUBLEASE) == {"QUILLMOOR STUDIOS LTD", "ORVELLE THEORY CORPORATION"}


def test_a_master_lease_party_fails_the_sublease_gate(sublease_kb: KB) -> None:
    docs, _ = sublease_kb.docs("What law governs the SUBLEASE AGREEMENT between Quill Enterprises, Inc. and ORVELLE THEORY CORPORATION?")
    assert docs == set()
    docs, _ = sublease_kb.docs("What law governs the SUBLEASE AGREEMENT between QUILLMOOR STUDIOS LTD and ORVELLE THEORY CORPORATION?")
    assert docs == {"sublease"}


def test_field_labels_and_an_address_town_are_no_parties() -> None:
    # Before: "Orvelle Address", "State" and "Orvelle" were bound from the model's entities.
    assert bound_party_names(SITE_HOST) == {"Quill Connect,Inc."}


def test_a_registry_and_an_identifiers_label_are_no_parties() -> None:
    # Before: "Ministry of Corporate Affairs" and "CIN" were bound.
    assert "Ministry of Corporate Affairs" not in bound_party_names(LICENSOR_REGISTERED)
    assert "CIN" not in bound_party_names(LICENSOR_REGISTERED)
    assert "QUILLMOOR TECHNOLOGIES PRIVATE LIMITED" in bound_party_names(LICENSOR_REGISTERED)


BILINGUAL_COVER = (
    "Exhibit 10.1\n越宝企业管理咨询（广州）有限公司\nQuillmoor Enterprise Management Consulting（Guangzhou） Corporation Limited\n"
    "和 and\n孟雪琴\nMeng Orvelle\n周永益\nZhou Harbor\n及 and\n广东藏宝天下艺术品有限公司\nGuangdong Quill Artworks Corporation Limited\n"
    "独家管理咨询服务协议\nExclusive Management Consultation Service Agreement\nDated: January 20th，2018\n"
    "This Exclusive Management Consultation Service Agreement (this \u201cAgreement\u201d) is made and entered into, as of "
    "January 20th, 2018, by the Parties as follows (the Parties will hereinafter be individually referred to as a "
    "\u201cParty\u201d):\n"
)


def test_a_bilingual_covers_english_names_are_the_parties() -> None:
    # Before: no party was bound; the Chinese lines broke the cover's stack.
    assert bound_party_names(BILINGUAL_COVER) == {
        "Quillmoor Enterprise Management Consulting（Guangzhou） Corporation Limited",
        "Meng Orvelle",
        "Zhou Harbor",
        "Guangdong Quill Artworks Corporation Limited",
    }


SALES_CONTRACT = (
    "Sales contract of Industrial and Mineral Products\nContract No._____\nSupplier:Taiyuan Quillmoor Carbon Black Co., Ltd\n"
    "Buyer: Henan Orvelle Tyre Co., Ltd\nPlace of signing contract: Qingxu:Taiyuan\nDate of signing contract: January 30, 2008\n"
    "1. Product name, trade mark, model, quantity, amount of money, delivery time and quantity\n"
)


def test_a_translated_sentence_case_heading_is_the_title() -> None:
    # Before: no title, and so no agreement and no party.
    assert agreement_title(SALES_CONTRACT) == "Sales contract of Industrial and Mineral Products"
    assert bound_party_names(SALES_CONTRACT) == {"Taiyuan Quillmoor Carbon Black Co., Ltd", "Henan Orvelle Tyre Co., Ltd"}


@pytest.mark.parametrize("line", ["This contract of sale", "The agreement of the parties", "Sales contract is made"])
def test_guard_prose_in_sentence_case_is_no_title(line: str) -> None:
    title, _ = agreement_names(f"{line}\nSupplier: Taiyuan Quillmoor Co., Ltd\nBuyer: Henan Orvelle Co., Ltd\n1. Goods.\n")
    assert title is None or title.text != line


def test_a_fields_word_is_no_persons() -> None:
    text = (
        "SUPPLY AND OPERATIONS AGREEMENT\nTHIS SUPPLY AND OPERATIONS AGREEMENT (\"Agreement\") is made and entered into "
        "this 13th day of October, 2006, by and between QUILLMOOR DAIRY, INC., an Idaho corporation (\"Dairy\") and "
        "ORVELLE TECHNOLOGY AND RESOURCES BIOGAS, LLC, an Idaho limited liability company (\"Orvelle\").\nRECITALS\n"
    )
    # Before: "ORVELLE TECHNOLOGY" (a person) and "RESOURCES BIOGAS, LLC" were bound.
    assert bound_party_names(text) == {"QUILLMOOR DAIRY, INC.", "ORVELLE TECHNOLOGY AND RESOURCES BIOGAS, LLC"}


def test_a_place_after_a_postal_code_is_no_party() -> None:
    text = (
        "1 Placing Agreement relating to The Quillmoor Group plc (1) The Quillmoor Group plc (2) Orvelle Hunt LLP Dated 26 "
        "June 2013\n\n3 This Agreement is made on Between: 26 June 2013 (1) The Quillmoor Group plc (registered in "
        "Jersey, Channel Islands with company number 13177) whose registered office is at 2nd Floor, Minden House, Minden "
        "Place, St. Helier, Jersey, JE2 4WQ, Channel Islands (the \"Company\"); and (2) Orvelle Hunt LLP (registered in England and "
        "Wales with number OC357088) whose registered office is at Moor House, London EC2Y 5ET (the \"Broker\"). "
        "Background: (A) The Company proposes to acquire Noble.\n"
    )
    # Before: "Channel Islands" was bound, the antecedent of "Company".
    assert bound_party_names(text) == {"The Quillmoor Group plc", "Orvelle Hunt LLP"}


def test_guard_an_institution_after_a_postal_code_is_still_a_party() -> None:
    text = (
        "ENDORSEMENT AGREEMENT This Endorsement Agreement (\"Agreement\"), dated as of July 1 2014 is hereby entered into "
        "between Quillmoor America, Inc. (\"Quillmoor\"), an Oregon corporation with its principal place of business at "
        "5055 N. Greeley Avenue, Oregon 97217, Orvelle A & M University (\"University\"). WHEREAS, the University "
        "operates an athletics program.\n"
    )
    assert "Orvelle A & M University" in bound_party_names(text)

