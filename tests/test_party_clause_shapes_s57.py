"""Party clause and title shapes of stop 57 (issue 9). Each was found on a fresh labelled set of
real contract openings; the names here are invented. Each test but the guards fails on the code
before its rule (checked by running these tests against that code).
"""

from __future__ import annotations

from ingest.names import names_a_document, party_name_problem
from tests.helpers import agreement_title, bound_party_names


# --- party clauses ---


def test_a_parties_are_clause_with_a_group_definition_and_enumerated_items() -> None:
    text = (
        "EXHIBIT 10.13\nPROFESSIONAL SERVICES RETAINER CONTRACT\n"
        "This Professional Services Retainer Contract (the \"Contract\") is dated as of May 1, 2006.\n"
        "The parties (each a \"Party\" and, collectively, the \"Parties\") to this Contract are:\n"
        "(a) Harbour Ridge Oil Corporation, a Nevada Corporation (also the \"Company\"); and\n"
        "(b) Daniel K. Ortwell, a resident of Portland, Texas USA (also \"Ortwell\").\n"
        "Premises\n- Ortwell is a licensed engineer.\n"
    )
    # Before, nothing: the definition between "parties" and "to" hid the clause; then the semicolon
    # before "(b)" and the middle initial's full stop ended it.
    assert bound_party_names(text) == {"Harbour Ridge Oil Corporation", "Daniel K. Ortwell"}


def test_a_name_the_model_reads_as_one_organisation_is_not_split_at_its_and() -> None:
    text = (
        "Long Term Supply Contract\nThis Long Term Supply Contract (this \u201cAgreement\u201d) is entered into"
        " on 1st July 2006 by and between:\nKestrel Solar Co., Ltd, a company duly established under the law"
        " of China (\u201cParty A\u201d); and\nHebei Jinlu Industry and Commerce Group Co., Ltd., a company"
        " duly established under the law of China (\u201cParty B\u201d).\nWHEREAS, Party A makes cells;\n"
    )
    # Before, "Hebei Jinlu Industry" (read as a person) and "Commerce Group Co., Ltd.".
    assert bound_party_names(text) == {
        "Kestrel Solar Co., Ltd",
        "Hebei Jinlu Industry and Commerce Group Co., Ltd.",
    }


def test_an_amendment_term_with_a_number_sign_and_a_party_with_its_affiliates() -> None:
    assert names_a_document("Amendment #1") and names_a_document("Amendment No. 2")
    assert not names_a_document("Party B") and not names_a_document("Series 2")
    text = (
        "AMENDMENT # 1 TO MAJOR ACCOUNT LICENSE AGREEMENT BETWEEN HARBOUR MEDICAL SYSTEMS AND QUILLSOFT INC."
        " This Amendment #1 (\"Amendment #1\") to the Major Account License Agreement between Harbour Medical"
        " Systems and Affiliates (\"Customer\") and Quillsoft Inc. (\"QUILLSOFT\") dated June 28, 2002 (the"
        " \"Agreement\"), is made as of the Effective Date by and among Customer and QUILLSOFT. RECITAL On"
        " June 28, 2002, Customer and QUILLSOFT entered into the Agreement.\n"
    )
    # Before, "HARBOUR MEDICAL SYSTEMS AND QUILLSOFT INC." (the heading, read as the antecedent of
    # "Amendment #1") and "Harbour Medical Systems and Affiliates"; the title lost its head.
    assert bound_party_names(text) == {"Harbour Medical Systems", "Quillsoft Inc."}
    assert agreement_title(text) == "AMENDMENT # 1 TO MAJOR ACCOUNT LICENSE AGREEMENT"


def test_an_institution_after_between_the_and_the_old_parts_of_a_deed() -> None:
    assert party_name_problem("Party of the First Part") == "role"
    text = (
        "THIS INDENTURE OF LEASE is made and entered into on this 26th day of November, 1974 between the"
        " KESTREL TRIBE OF INDIANS OF THE KESTREL RESERVATION, of Kestrel Agency, State of Montana, Party of"
        " the First Part, hereinafter called Lessor, and HARLOW RESOURCES, a partnership, of Billings,"
        " Montana, Party of the Second Part, hereinafter called Lessee, for the purpose of amending that"
        " certain Coal Mining Lease.\n"
    )
    # Before, "KESTREL" and "Party of the First Part" (from the model's entities).
    assert bound_party_names(text) == {"KESTREL TRIBE OF INDIANS OF THE KESTREL RESERVATION", "HARLOW RESOURCES"}
    # Guard: a company's department after "between the" is not read as a party (which of the two
    # is the party the name cannot tell), nor a reading run on into a description.
    unit = (
        "SUPPLY AGREEMENT\n1. PARTIES: This Agreement is between the Medical Specialties\nDepartment of Westland"
        " Mining and Manufacturing Company (\"3W\") and Quill, Inc.\n(\"Quill\"). This Agreement only applies"
        " to the Medical Specialties Department of 3W.\n2. PURPOSE: Quill buys products.\n"
    )
    assert bound_party_names(unit) == {"Quill, Inc."}
    described = (
        "SUPPLY AGREEMENT\nThis Agreement is entered into this 1st day of January, 1995 by and between the"
        " Harlan Company an Ohio Corporation (hereinafter referred to as \"Buyer\") and Quill Hydraulics Inc,"
        " an Iowa Corporation (hereinafter referred to as \"Seller\").\n"
    )
    assert "Harlan Company an Ohio Corporation" not in bound_party_names(described)


def test_a_local_government_named_with_its_state() -> None:
    text = (
        "MANAGEMENT SERVICES AGREEMENT\n\nTHIS MANAGEMENT SERVICES AGREEMENT (hereinafter \"Agreement\") is"
        " made and entered into as of May 26, 1998, by and between the\nCOUNTY OF HARLAN, TEXAS (the"
        " \"County\"), a political subdivision of the State\nof Texas, and KESTREL SERVICES CORPORATION"
        " (\"Manager\").\nRECITALS:\n"
    )
    # Before, only the corporation: the antecedent read was "TEXAS", a place.
    assert bound_party_names(text) == {"COUNTY OF HARLAN, TEXAS", "KESTREL SERVICES CORPORATION"}


def test_a_lower_case_run_opening_a_name_and_a_product_title() -> None:
    text = (
        "Version Date: September 16, 1999\n\n                  iQUILL AGREEMENT\n\nHarbournetworking, Inc."
        " (\"HNI\"), a Delaware corporation with its principal\noffice located at One Harbour Plaza,"
        " Annapolis, MD 21401 and bidtoQuill\n(\"Client\"), a Florida corporation, with its principal office"
        " located at 2335\nN.W. 107th Avenue, Miami, FL 33172, hereby agree that the following terms\nwill"
        " apply.\n"
    )
    # Before, no agreement (the heading's "iQUILL" was no caps word) and "toQuill" for the client.
    assert agreement_title(text) == "iQUILL AGREEMENT"
    assert bound_party_names(text) == {"Harbournetworking, Inc.", "bidtoQuill"}


def test_a_heading_defining_itself_as_the_agreement() -> None:
    text = (
        "Exhibit 10.27\nSOFTWARE LICENSE (\"AGREEMENT\")\nCustomer Name: HARBOUR COMMERCE ONLINE, INC."
        " (\"Customer\")\nIn accordance with the following terms and conditions, q3 Technologies, Inc.\n"
        "(\"q3\") agrees to license the System to Customer.\n"
    )
    # Before, no title and so no agreement at all.
    assert agreement_title(text) == "SOFTWARE LICENSE"
    assert bound_party_names(text) == {"HARBOUR COMMERCE ONLINE, INC.", "q3 Technologies, Inc."}


def test_a_defined_terms_possessive_a_contents_entry_and_a_cited_document_are_no_parties() -> None:
    possessive = (
        "STRATEGIC MARKETING AGREEMENT THIS STRATEGIC MARKETING AGREEMENT (this \"Agreement\"), dated as of"
        " December 20, 1999, is being entered into by and between Harbour Music d/b/a Harbour Entertainment,"
        " a New York general partnership (\"Group\") and QUILLdirect, Inc., a Delaware corporation"
        " (\"Company\"): WHEREAS, Group and Company believe there are synergies between Group's business and"
        " Company's business; NOW, THEREFORE, the parties agree as follows.\n"
    )
    # Before, "Group's" and "Company's" too.
    assert bound_party_names(possessive) == {"Harbour Music d/b/a Harbour Entertainment", "QUILLdirect, Inc."}
    contents = (
        "Joint Venture Contract\nBetween\nShandong Kestrel Chemical Industrial Company\nLtd.\nAnd\nHarbour"
        " Alliance\nVentures\nIncorporated\n_____ _____, 1999\nTable of Contents\n1 GENERAL PROVISIONS......1\n"
        "4 PURPOSE, SCOPE AND SCALE OF PRODUCTION OF THE JV CO.....................3\n5 TOTAL AMOUNT......3\n"
    )
    # Before, "SCALE OF PRODUCTION OF THE JV CO." too.
    assert bound_party_names(contents) == {
        "Shandong Kestrel Chemical Industrial Company Ltd.",
        "Harbour Alliance Ventures Incorporated",
    }
    cited = (
        "AMENDMENT NO. 3 This Amendment No. 3 (\"AMENDMENT NO. 3\") is made this 2nd day of January, 2002,"
        " between Harlow Telecommunications Enterprises, L.L.C. (\"CUSTOMER\") and Kestrel Network Services,"
        " Inc. (\"KNS\"), to those certain Program Enrollment Terms (the \"PET\"), to that certain Services"
        " Agreement dated September 30, 2000.\n"
    )
    # Before, "Program Enrollment Terms" too.
    assert bound_party_names(cited) == {
        "Harlow Telecommunications Enterprises, L.L.C.",
        "Kestrel Network Services, Inc.",
    }


# --- titles ---


def test_a_heading_ending_in_for_goes_on_below_and_a_department_is_no_title_word() -> None:
    cover = (
        "AGREEMENT FOR\nQUILL TICKET VENDING MACHINES (QTVMs)\nBETWEEN\nTHE HARLAN STATE LOTTERY\nAND\n"
        "KESTREL LOTTERY, INC. (Kestrel)\nDECEMBER 1, 1996\n\nThis Agreement is made as of December 1, 1996.\n"
    )
    # Before, "AGREEMENT FOR".
    assert agreement_title(cover) == "AGREEMENT FOR QUILL TICKET VENDING MACHINES (QTVMs)"
    department = (
        "STATE OF WESTLAND\nHUMAN SERVICES DEPARTMENT\nMEDICAID MANAGED CARE SERVICES AGREEMENT\n\nThis"
        " agreement (\"Agreement\") between the Westland Human Services Department (\"HSD\") and Kestrel Health"
        " Corp. (\"CONTRACTOR\") specifies the terms.\n"
    )
    # Before, "HUMAN SERVICES DEPARTMENT MEDICAID MANAGED CARE SERVICES AGREEMENT".
    assert agreement_title(department) == "MEDICAID MANAGED CARE SERVICES AGREEMENT"


def test_a_party_name_without_its_legal_form_opening_the_heading() -> None:
    text = (
        "QUILLONLINE.COM DISTRIBUTOR MALL AND STOREFRONT AGREEMENT\n\nThis Agreement is made between"
        " QUILLONLINE.COM, INC., a Utah corporation (\"QUILLONLINE\"), and Harlow Bid, Inc. (\"DISTRIBUTOR\").\n"
    )
    # Before, the heading whole.
    assert agreement_title(text) == "DISTRIBUTOR MALL AND STOREFRONT AGREEMENT"
    # Guard: a bare name made of title words stays in the title.
    guard = (
        "MASTER SERVICES AGREEMENT\n\nThis Agreement is made between Master Inc., a Delaware corporation"
        " (\"Master\"), and Beta LLC (\"Beta\").\n"
    )
    assert agreement_title(guard) == "MASTER SERVICES AGREEMENT"
    # Guard: nor one made of words the text writes in lower case.
    common = (
        "MORTGAGE LOAN SUBSERVICING AGREEMENT\n\nThis Agreement is made between Mortgage Inc., a Florida"
        " corporation (\"Owner\"), and Harbour Servicing LLC (\"Subservicer\"), for the mortgage loans.\n"
    )
    assert agreement_title(common) == "MORTGAGE LOAN SUBSERVICING AGREEMENT"


def test_an_ordinal_on_the_cover_and_a_run_in_amendment_naming_its_parent() -> None:
    cover = (
        "Exhibit 10.42 THIRD LOAN AGREEMENT Dated July 26, 2000 KESTREL PHARMACEUTICALS, INC. AND HARBOUR"
        " INNOVATIONS, INCORPORATED CONTENTS\nARTICLE Page 1 Terms 4 2 Advances 8\n2 LOAN AGREEMENT This Loan"
        " Agreement is made between Kestrel Pharmaceuticals, Inc. (\"Borrower\") and Harbour Innovations,"
        " Incorporated (\"Lender\").\n"
    )
    # Before, "LOAN AGREEMENT".
    assert agreement_title(cover) == "THIRD LOAN AGREEMENT"
    run_in = (
        "EXHIBIT 10.31(b) EXECUTION VERSION AMENDMENT NO. 1 This AMENDMENT NO. 1 to the Agreements (as"
        " hereinafter defined) (this \"Amendment\"), dated as of December 20, 2006, is made by and among Harlow"
        " Incorporated, a Tennessee corporation (\"Harlow\"), and Kestrel, Inc, a Delaware corporation"
        " (\"Kestrel\"). WITNESSETH: WHEREAS, Harlow is party to that certain Product Sourcing Agreement (the"
        " \"Kestrel Product Sourcing Agreement\"); WHEREAS, the parties desire to amend the Kestrel Product"
        " Sourcing Agreement.\n"
    )
    # Before, "Kestrel Product Sourcing Agreement" (a recital's term, read as the heading).
    assert agreement_title(run_in) == "AMENDMENT NO. 1"


# --- the stop's second round (half A of realDH-realDM) ---


def test_an_initial_joined_by_an_ampersand_opens_a_name() -> None:
    text = (
        "STRATEGIC COOPERATION AGREEMENT\nParty A: KESTREL GENETIC EBT, S.L. (\"KesGen\") located at Almeria,"
        " Spain.\nParty B: A & C HARBOUR AGRICULTURE DEVELOPING INC. (A&C) located at Oak Brook, IL.\n"
        "Recitals:\nThe two parties agree.\n"
    )
    # Before, "C HARBOUR AGRICULTURE DEVELOPING INC." (the "A" was read as an article).
    assert bound_party_names(text) == {"KESTREL GENETIC EBT, S.L.", "A & C HARBOUR AGRICULTURE DEVELOPING INC."}


def test_bare_item_numbers_on_a_flattened_clause_and_a_cover_role_word() -> None:
    numbered = (
        "EXHIBIT 10.1 MARKETING REPRESENTATION AGREEMENT THIS AGREEMENT is made the 24th day of June, 1998"
        " BETWEEN 1 KESTREL AUTO RACING ITEMS, INC., 755 West Big Beaver Road, Troy, Michigan 48084 (\"KARI\");"
        " and 2 HARBOUR MARKETING AG, Zentralstrasse 1, 6003 Lucerne, Switzerland (\"HM\"). WHEREAS A KARI"
        " governs a racing series.\n"
    )
    # Before, "1 KESTREL AUTO RACING ITEMS, INC." and "2 HARBOUR MARKETING AG".
    assert bound_party_names(numbered) == {"KESTREL AUTO RACING ITEMS, INC.", "HARBOUR MARKETING AG"}
    cover = (
        "Exhibit 10.43 A330-200 FREIGHTER PURCHASE AGREEMENT Dated as of June 20, 2007 between Kestrel S.A.S.,"
        " Seller and HARLOW FREIGHTER LLC Buyer HARLOW FREIGHTER LLC - A330-200F - June 2007 C O N T E N T S\n"
        "0 - DEFINITIONS\n"
    )
    # Before, "Seller and HARLOW FREIGHTER LLC".
    assert bound_party_names(cover) == {"Kestrel S.A.S.", "HARLOW FREIGHTER LLC"}


def test_an_acronym_of_a_longer_phrase_defines_no_party_by_its_last_word() -> None:
    text = (
        "Exhibit 10.12\nSHIPBUILDING CONTRACT\nFOR THE CONSTRUCTION OF A\n154,800 Cubic Meter\nLNG Carrier\n"
        "Between\nKestrel Heavy Industries Co., Ltd.\nAS \u201cBuilder\u201d\nAND\nHARBOUR-five Ltd.\nAS \u201cBuyer\u201d\n"
        "TABLE OF CONTENTS\n|\nPREAMBLE\n|\n3\n|\nARTICLE I HEALTH, SAFETY, SECURITY AND ENVIRONMENT (\u201cHSSE\u201d)\n|\n4\n"
    )
    # Before, "ENVIRONMENT" was a party, and the title "SHIPBUILDING CONTRACT FOR THE CONSTRUCTION OF A".
    assert bound_party_names(text) == {"Kestrel Heavy Industries Co., Ltd.", "HARBOUR-five Ltd."}
    assert agreement_title(text) == "SHIPBUILDING CONTRACT"


def test_a_document_the_prose_cites_after_a_comma_is_no_title() -> None:
    text = (
        "Exhibit 10.1 June 19, 2002 Mr. Daniel M. Wardell, Jr. 800 W. Lower Road Springboro, Ohio 45066 Dear"
        " Dan: Reference is made to the agreement between us, dated March 1, 2000 (\"Prior Agreement\"),"
        " setting forth your benefits. Upon your execution of a counterpart of this letter, the Prior Agreement"
        " shall be deemed amended and is restated to read as set forth. Kestrel Steel Corporation (\"KSC\" or"
        " \"Company\") values its officers. As an officer of KSC, you will have the opportunity as outlined in"
        " Section A of this Executive Officer Severance Agreement (\"Agreement\") to receive benefits.\n"
    )
    # Before, "Prior Agreement" (the comma before "the" hid the citation).
    assert agreement_title(text) == "Executive Officer Severance Agreement"
