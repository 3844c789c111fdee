"""Party clause shapes of stop 58 (issue 9): covers and "Parties" blocks of English and Australian
drafting. Each was found on a fresh labelled set of real contract openings; the names here are
invented. Each test but the guards fails on the code before its rule (checked by running these
tests against that code).
"""

from __future__ import annotations

from ingest.names import ends_in_legal_suffix
from tests.helpers import agreement_title, bound_party_names


def test_a_parties_block_whose_entries_give_their_address_after_of() -> None:
    text = (
        "Dated 3 May 2007\n\nManufacturing and Development Agreement\n\n\nParties\n"
        "Quillfab (Aust) Pty Ltd ACN 100 200 300\n"
        "of 9 The Crescent, Mount Waverley, Victoria  3149, Australia (Quillfab)\n\n \n"
        "Harrowsense, Inc.\nof 1270 High Bluff Dr., Suite 200, San Diego, CA 92130,\nU.S.A. (Harrowsense)\n\n"
        "Background\nA. Quillfab carries on a business of making devices.\n"
    )
    # Before, "Quillfab (Aust) Pty Ltd" and two pieces of its address from the model's fallback
    # ("Crescent", "Victoria 3149"); Harrowsense was lost.
    assert bound_party_names(text) == {"Quillfab (Aust) Pty Ltd", "Harrowsense, Inc."}
    assert agreement_title(text) == "Manufacturing and Development Agreement"


def test_a_parties_block_with_each_entry_on_one_line() -> None:
    text = (
        "CONSULTANCY AGREEMENT\n\nPARTIES\n"
        "Northbank Analytics Limited whose registered office is at 4 Quay Lane, Leeds (Northbank)\n"
        "Harrow Vale Pty Ltd ABN 12 345 678 901 of Level 3, 10 Pitt Street, Sydney (Harrow)\n\n"
        "BACKGROUND\nNorthbank provides analytics.\n"
    )
    assert bound_party_names(text) == {"Northbank Analytics Limited", "Harrow Vale Pty Ltd"}


def test_a_numbered_cover_list_with_a_person_beside_the_title() -> None:
    text = (
        "EXHIBIT 4.12\n\n                  DATED 23 April 2004\n\n"
        "                  (1)   KESTREL HOLDINGS PLC\n\n                  (2)   ADRIAN MORLAND\n\n"
        "                                 -----------------\n"
        "                                 SERVICE AGREEMENT\n"
        "                                 -----------------\n"
    )
    # Before, nothing: a person's name filling its line was no item of a list without a lead.
    assert bound_party_names(text) == {"KESTREL HOLDINGS PLC", "ADRIAN MORLAND"}
    assert agreement_title(text) == "SERVICE AGREEMENT"


def test_guard_a_numbered_list_of_bare_words_without_a_title_beside_it_names_no_person() -> None:
    # Guard (passes before and after): the person's line counts only on a cover, beside its title
    # or date line; numbered headings elsewhere name no one.
    text = (
        "(1) KESTREL HOLDINGS PLC\n(2) GENERAL TERMS\n\nThe parties agree as follows.\n"
    )
    assert "GENERAL TERMS" not in bound_party_names(text)


def test_a_cover_run_into_one_line_with_the_date_first() -> None:
    assert ends_in_legal_suffix("HARBOUR ENERGY P.L.C.")
    text = (
        "DATED 7 DECEMBER, 1999 HARBOUR ENERGY P.L.C. and QUILLSERVE, INC. FRAMEWORK AGREEMENT"
        " STONEGATE LLP One Silk Street London EC2Y 8HQ Tel: (44-171) 456 2000 Ref: JPC/CXC <PAGE> 2"
        " CONTENTS CLAUSE HEADING PAGE 1 Definitions and Interpretation..................... 2\n"
    )
    # Before, nothing: the run-in cover was read only with its heading first, and "P.L.C." was no
    # legal form a name could end in.
    assert bound_party_names(text) == {"HARBOUR ENERGY P.L.C.", "QUILLSERVE, INC."}
    assert agreement_title(text) == "FRAMEWORK AGREEMENT"


def test_a_label_naming_one_role_twice_over_a_slash() -> None:
    text = (
        "RACING SERIES\nOFFICIAL ORGANIZER/PROMOTER AGREEMENT\nThe undersigned hereby applies for the right"
        " to conduct a race sanctioned by Championship Racing Series, Inc. (\"CRS\"), upon the following"
        " terms and conditions.\nTrack: City of Houston Temporary Circuit\nLocation: Brown Convention Center\n"
        "Organizer/Promoter: Gulfside Grand Prix LLC\nAddress: 100 Main Street\nHouston, TX 77001\n"
    )
    # (Never the last word of a longer label: "Tenant's Broker:" names a broker, no party.)
    # Before, only the sanctioning body: "Organizer/Promoter:" was no party label.
    assert bound_party_names(text) == {"Championship Racing Series, Inc.", "Gulfside Grand Prix LLC"}


def test_role_labels_inside_a_party_list_run_into_one_line() -> None:
    text = (
        "Exhibit 10.2 TECHNOLOGY SHARING AGREEMENT OF FEED PRODUCTS This Agreement has been entered into as of"
        " October 26, 2005 in Wuqing, Tianjin, P.R.C. by the following Parties: Assignor: Tianjin Quillan"
        " Biological Development Co.,Ltd.( Hereinafter \" Party A\") Legal Registered Office: Wuqing New Tech"
        " Industrial Park, Tianjin, P.R.C. Legal Person: LI,JINYU Assignee: Tianjin Quillan Biological"
        " Engineering Ltd.( called Party B below) Legal Registered Office: No.6, Yuanquan Rd. Wuqing, Tianjin,"
        " P.R.C Legal Person: LI,JINYU Whereas Party A holds the ownership of 10 feed products.\n"
    )
    # Before, nothing: "Assignor:" and "Assignee:" opened no field inside the run-together line.
    assert bound_party_names(text) == {
        "Tianjin Quillan Biological Development Co.,Ltd.",
        "Tianjin Quillan Biological Engineering Ltd.",
    }


def test_a_confidential_treatment_legend_run_into_the_heading_is_no_title() -> None:
    text = (
        "Exhibit 10.42 CERTAIN PORTIONS OF THIS EXHIBIT HAVE BEEN OMITTED AND FILED SEPARATELY WITH THE"
        " SECURITIES AND EXCHANGE COMMISSION PURSUANT TO A REQUEST FOR CONFIDENTIAL TREATMENT AIRFRAME PURCHASE"
        " AGREEMENT BETWEEN HARBOUR AERONAUTICA S.A. AND QUILL HOLDINGS, S.A. INDEX ARTICLE PAGE 1."
        " DEFINITIONS.......... 5\n"
    )
    # Before, "PURSUANT TO A REQUEST FOR CONFIDENTIAL TREATMENT AIRFRAME PURCHASE AGREEMENT".
    assert agreement_title(text) == "AIRFRAME PURCHASE AGREEMENT"
    assert agreement_title("WASTEWATER TREATMENT AGREEMENT\n\nThis Wastewater Treatment Agreement is made"
                           " between Harbour Water Ltd. and Quill Town Inc.\n") == "WASTEWATER TREATMENT AGREEMENT"


def test_the_heading_under_a_cover_list_names_what_the_prose_calls_this_agreement() -> None:
    text = (
        "Exhibit 10.1\nDATED 18 April 2013\n(1) HARBOUR INNOVATION LIMITED\nand\n(2) QUILLSCAN DIAGNOSTICS LIMITED\n"
        "EXCLUSIVE LICENCE OF TECHNOLOGY\n(HARBOUR PROJECT No.: [**])\nTHIS AGREEMENT is made on 18 April 2013\n"
        "BETWEEN:\n(1)\nHARBOUR INNOVATION LIMITED (Company No. 2199542) whose registered office is at 1 Quay"
        " Lane, Oxford (the \"Licensor\"); and\n(2)\nQUILLSCAN DIAGNOSTICS LIMITED (Company No. 1234567) whose"
        " registered office is at 1 High St, Oxford (the \"Licensee\").\n"
    )
    # Before, "Agreement" (the preamble's "THIS AGREEMENT"): the heading has no agreement word.
    assert agreement_title(text) == "EXCLUSIVE LICENCE OF TECHNOLOGY"
    assert bound_party_names(text) == {"HARBOUR INNOVATION LIMITED", "QUILLSCAN DIAGNOSTICS LIMITED"}


def test_a_heading_without_an_agreement_word_right_before_between() -> None:
    text = (
        "CERTAIN PORTIONS OF THIS EXHIBIT HAVE BEEN OMITTED. A COMPLETE COPY OF THIS EXHIBIT HAS BEEN FILED WITH"
        " THE SECURITIES AND EXCHANGE COMMISSION. DIGITAL MEDIA PARTNERSHIP BETWEEN HARBOUR COMPUTER CORPORATION"
        " AND QUILL SPORTS, INC. THIS AGREEMENT (the \"Agreement\") is made as of January 1, 1999 by and between"
        " QUILL SPORTS, INC., a Delaware corporation (\"Quill\") and HARBOUR COMPUTER CORPORATION, a Delaware"
        " corporation (\"HARBOUR\"). RECITALS WHEREAS, Quill makes sports coverage.\n"
    )
    # Before, "Agreement": the heading holds no agreement word.
    assert agreement_title(text) == "DIGITAL MEDIA PARTNERSHIP"
    assert bound_party_names(text) == {"HARBOUR COMPUTER CORPORATION", "QUILL SPORTS, INC."}


def test_a_legal_form_written_before_the_quoted_name() -> None:
    text = (
        "SUPPLY CONTRACT No. 5\nThis Contract is made between Open Joint Stock Company \u201cHarbourgaz\u201d"
        " (hereinafter \u201cSupplier\u201d), represented by Director I. Petrov, and Limited Liability Company"
        " \u201cQuill Brewery\u201d (hereinafter \u201cBuyer\u201d), represented by Director P. Ivanov.\n"
    )
    # Before, "Open Joint Stock Company" and 'Limited Liability Company "Quill Brewery' (no closing quote).
    assert bound_party_names(text) == {
        'Open Joint Stock Company "Harbourgaz"',
        'Limited Liability Company "Quill Brewery"',
    }
    short = 'SUPPLY CONTRACT No. 5\nThis Contract is made between OJSC "Harbourgaz" (hereinafter "Supplier") and LLC "Quill Brewery" (hereinafter "Buyer").\n'
    # Before, nothing.
    assert bound_party_names(short) == {'OJSC "Harbourgaz"', 'LLC "Quill Brewery"'}


def test_a_heading_written_twice_in_the_same_case_is_the_title_once() -> None:
    text = (
        "AMENDED AND RESTATED LICENSE AGREEMENT\nAMENDED AND RESTATED LICENSE\nAGREEMENT\nThis\nAmended and"
        " Restated License Agreement (\"Agreement\") is entered into this 14 day\nof July, 2008, by and between"
        " Harbour, Inc. (\"Licensor\"), a California\ncorporation and Quill Pharmaceuticals, Inc. (\"Licensee\"),"
        " a Delaware\ncorporation.\nRECITALS\n"
    )
    # Before, the heading twice over.
    assert agreement_title(text) == "AMENDED AND RESTATED LICENSE AGREEMENT"


def test_a_caps_name_run_into_its_caps_description() -> None:
    text = (
        "MANUFACTURING LICENSE AGREEMENT THIS AGREEMENT dated the 5th day of September 2003 BETWEEN: HARBOUR"
        " BREWING COMPANY A DELAWARE CORPORATION, U.S.A. having offices at 121 Interpark Boulevard, San Antonio,"
        " Texas (hereinafter referred to as \"Licensor\") and QUILL UP LIMITED, A BRITISH VIRGIN ISLANDS"
        " CORPORATION having offices at 28 Yee Wo Street, Hong Kong (hereinafter referred to as \"Licensee\")"
        " ARTICLE 1. RECITALS 1.1 Licensor brews beer.\n"
    )
    # Before, "HARBOUR BREWING COMPANY A DELAWARE CORPORATION".
    assert bound_party_names(text) == {"HARBOUR BREWING COMPANY", "QUILL UP LIMITED"}


def test_a_cover_name_wrapped_over_two_lines() -> None:
    text = (
        "Dated: 5 June 2009\nHARBOUR IMMUNOTEC LIMITED\nand\nSHANGHAI QUILL LONG MARCH MEDICAL\nSCIENCE CO. LTD.\n"
        "and\nSHANGHAI XIN CHANG MEDICAL DEVICE CO. LTD.\nDISTRIBUTORSHIP AGREEMENT\n"
    )
    # Before, "SCIENCE CO. LTD." and the third company; the first was lost with the wrapped second.
    assert bound_party_names(text) == {
        "HARBOUR IMMUNOTEC LIMITED",
        "SHANGHAI QUILL LONG MARCH MEDICAL SCIENCE CO. LTD.",
        "SHANGHAI XIN CHANG MEDICAL DEVICE CO. LTD.",
    }


def test_terms_given_by_hereafter_abbreviated_to() -> None:
    text = (
        "Sino-Foreign Joint Venture Contract\nPart I General Rules and Definitions\nThe Nanjing Quill Group Company"
        " Limited (hereafter abbreviated to Party A) and\nHarbour Newtech Ltd. of the British Virgin Islands"
        " (hereafter abbreviated to\nParty B), in accordance with the Law, have agreed to set up a joint venture.\n"
    )
    # Before, nothing: "hereafter abbreviated to" defined no term.
    assert bound_party_names(text) == {"The Nanjing Quill Group Company Limited", "Harbour Newtech Ltd."}


def test_an_exhibit_number_ending_in_a_letter_is_no_title_word() -> None:
    text = (
        "EXHIBIT 10.E DISTRIBUTOR SALES AGREEMENT (BRANDED) HARBOUR COMPANY, U.S.A. This CONTRACT and AGREEMENT"
        " made and entered into by and between Harbour Company, U.S.A., having an office at 800 Bell, Houston,"
        " Texas hereinafter called \"Seller\", and QUILL OIL, INC. having an office at 100 N.E. 27TH STREET, MINOT,"
        " ND 58701, hereinafter called \"Buyer\". 1. PERIOD: Unless sooner terminated.\n"
    )
    # Before, "E DISTRIBUTOR SALES AGREEMENT (BRANDED)".
    assert agreement_title(text) == "DISTRIBUTOR SALES AGREEMENT (BRANDED)"
