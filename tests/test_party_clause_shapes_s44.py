"""Party clause and title shapes read from the misses of real contract openings (issue 9, stop 44:
the reading sets realU and realR, and the cases of realAA and realK that no CUAD contract shares a
party with). Names are invented and texts rewritten from the shapes. Each test but the guards
fails on the code before its rule.
"""

from __future__ import annotations

from ingest.names import name_at, party_name_problem
from tests.helpers import agreement_title, bound_party_aliases, bound_party_names, defined_terms


def test_an_and_joining_a_pair_of_common_words_stays_inside_the_name() -> None:
    # Before, "Kinneret Research" and "Development Company Ltd." were two parties.
    text = (
        "LICENSE AGREEMENT\n\nThis License Agreement is made by and between Kinneret Research and Development "
        "Company Ltd., a company organized under the laws of the State of Israel (KINNERET), and Orrin "
        "Therapeutics, Inc., a Delaware corporation (ORRIN).\n\nWHEREAS, KINNERET owns the Patent Rights.\n"
    )
    assert bound_party_names(text) == {"Kinneret Research and Development Company Ltd.", "Orrin Therapeutics, Inc."}


def test_an_institution_named_with_a_pair_is_read_whole_and_its_acronym_defines_it() -> None:
    # Before, "Mechanical College" held the term, and then no party held it: the term "WSU" is
    # the acronym of three of the name's words in a row, not of the whole name.
    text = (
        "Exhibit 10.4\n\nLICENSE AGREEMENT\n\nThe Board of Regents of Westmoor State University and Agricultural and "
        "Mechanical College, a public constitutional corporation of the State of Oregon (\"WSU\"); and Halden Crop "
        "Sciences, Ltd., a North Carolina corporation (\"HALDEN\"); enter into the following Agreement effective "
        "May 1, 2001.\n\nWHEREAS WSU owns certain patent rights;\n"
    )
    name = "The Board of Regents of Westmoor State University and Agricultural and Mechanical College"
    assert defined_terms(text)["WSU"] == name
    assert bound_party_names(text) == {name, "Halden Crop Sciences, Ltd."}


def test_guard_an_and_between_two_companies_is_still_a_list() -> None:
    # ("Sales and Marketing" is a listed pair; here the "and" still joins two parties.)
    text = "This Agreement is made between Sales Holdings Inc. (\"SHI\") and Marketing Partners LLC (\"MP\").\n"
    assert defined_terms(text)["MP"] == "Marketing Partners LLC"
    assert bound_party_names(text) == {"Sales Holdings Inc.", "Marketing Partners LLC"}


def test_a_legal_form_word_inside_a_name_goes_on_to_the_names_own_form() -> None:
    # Before, the name stopped at "Corporation".
    assert name_at("Research Corporation Technologies, Inc., a Delaware", 0, 60).text == (
        "Research Corporation Technologies, Inc."
    )
    text = (
        "LICENSE AGREEMENT\n\nEffective May 31, 2001, Fennick Corporation Technologies, Inc., a Delaware nonprofit "
        "corporation, with offices at 10 Main Road, Suite 600, Tucson, AZ USA 85711, (\"FCT\"), and Tallis Bio Ltd., a corporation organized under the laws of the United Kingdom "
        "(\"Licensee\"), agree as follows:\n"
    )
    assert bound_party_names(text) == {"Fennick Corporation Technologies, Inc.", "Tallis Bio Ltd."}
    # (Guard: a heading after a company's name is not read into it.)
    assert name_at("ACME CORPORATION SUPPLY AGREEMENT", 0, 40).text == "ACME CORPORATION"


def test_a_name_read_over_for_when_the_term_takes_its_letters_from_the_words_after() -> None:
    text = (
        "FIRST AMENDMENT TO SERVICES AGREEMENT\n\nThis First Amendment is made as of October 15, 1995, by and among "
        "QRV INCORPORATED, a Delaware corporation (\"QRV\"), NATIONAL CORPORATION FOR RURAL CREDIT, a District of "
        "Columbia corporation (\"NCRC\"), and QRV PARTNERS, INC., a Delaware corporation (\"Partners\").\n"
    )
    assert defined_terms(text)["NCRC"] == "NATIONAL CORPORATION FOR RURAL CREDIT"
    assert "NATIONAL CORPORATION FOR RURAL CREDIT" in bound_party_names(text)


def test_a_role_held_for_another_party_before_a_name_is_no_part_of_it() -> None:
    # Before, "Licensor's Agent, TALLOW BRAND LICENSING, INC." was bound as the name.
    text = (
        "LICENSE AGREEMENT\n\nTHIS LICENSE AGREEMENT dated as of June 1, 1997 among HARTWELL ATHLETIC CORPORATION "
        "(\"Licensor\"), a Delaware corporation, Brisco Apparel Inc. (\"Licensee\"), an Illinois corporation, and "
        "Licensor's Agent, TALLOW BRAND LICENSING, INC. (\"TBL\"), a Connecticut corporation.\n\nWHEREAS, Licensor "
        "owns the marks;\n"
    )
    assert bound_party_names(text) == {"HARTWELL ATHLETIC CORPORATION", "Brisco Apparel Inc.", "TALLOW BRAND LICENSING, INC."}
    assert bound_party_aliases(text)["TALLOW BRAND LICENSING, INC."] == ["TBL"]


def test_an_and_inside_an_address_opens_no_party() -> None:
    # Before, "Technological Development Zone" held "Party B" and the company lost it.
    text = (
        "COOPERATION AGREEMENT\n\nThis Cooperation Agreement is entered into on May 9, 2020, by and between:\n"
        "Hanlin Agricultural University, a university located at No. 7 Park Road, Economic and Technological "
        "Development Zone, Hanlin City, hereinafter referred to as \"Party A\", and\nHanlin Ruiye Biological "
        "Products Co., Ltd, a company located at No. 9 Park Road, Economic and Technological Development Zone, "
        "Hanlin City to support the project, hereinafter referred to as \"Party B\",\nCollectively referred to as "
        "the \"Parties\".\n"
    )
    assert defined_terms(text)["Party B"] == "Hanlin Ruiye Biological Products Co., Ltd"
    assert bound_party_names(text) == {"Hanlin Agricultural University", "Hanlin Ruiye Biological Products Co., Ltd"}


def test_a_place_and_an_entity_kind_describe_and_name_no_party() -> None:
    for description in ("California General Partnership", "Texas General\nPartnership", "Delaware Joint Venture"):
        assert party_name_problem(description) == "description"
    assert party_name_problem("Harbor Partnership") is None
    text = (
        "FIRST AMENDMENT\nTO THE JOINT VENTURE AGREEMENT\n\nTHIS FIRST AMENDMENT to the Joint Venture Agreement of "
        "the Kestrel No. 2 Investments, a California General\nPartnership (the \"Partnership\"), is made by and "
        "between Onyx & Garnet Corp., a Nevada corporation (\"Onyx\"), and Larkin Mining Co., Inc., a Delaware "
        "corporation (\"Larkin\").\n"
    )
    assert bound_party_names(text) == {"Onyx & Garnet Corp.", "Larkin Mining Co., Inc."}


def test_a_legal_forms_period_may_stand_for_the_comma_before_a_description() -> None:
    # Before, "Delaware corporation" held "WDC"; and "Granite Exploration Corporation" lost "GREXCO",
    # a short word made of the first letters of its words.
    text = (
        "JOINT VENTURE AGREEMENT\n\nJoint Venture Agreement made this 24th day of May, 1999 by and between Amberly "
        "Resources, Inc., a California corporation (\"Amberly\"), Amberly Drilling Corp. a Delaware corporation "
        "(\"WDC\") with an office at 400 Fifth Avenue, New York, New York 10017, Granite Exploration Corporation, a "
        "New Mexico corporation with its principal office in Albuquerque, New Mexico (\"GREXCO\") and Tolland Oil "
        "Company, an Oklahoma corporation (\"Tolland\").\n"
    )
    terms = defined_terms(text)
    assert terms["WDC"] == "Amberly Drilling Corp."
    assert terms["GREXCO"] == "Granite Exploration Corporation"
    assert bound_party_names(text) == {
        "Amberly Resources, Inc.", "Amberly Drilling Corp.", "Granite Exploration Corporation", "Tolland Oil Company",
    }


def test_persons_listed_with_commas_are_separate_parties() -> None:
    # Before, "Ellen R. Vasquez, Tomas K. Brandt, Halvard Corporation" was one party.
    text = (
        "SHAREHOLDERS AGREEMENT\n\nTHIS AGREEMENT is made and entered into on January 22, 1999 by and among Cobalt "
        "Data Systems, Inc., a Virginia corporation (the \"Company\"), and Ellen R. Vasquez, Tomas K. Brandt, "
        "Halvard Corporation, a Colorado corporation, and Meridian Journal Corporation, a South Carolina "
        "corporation (each a \"Shareholder\").\n"
    )
    assert bound_party_names(text) == {
        "Cobalt Data Systems, Inc.", "Ellen R. Vasquez", "Tomas K. Brandt", "Halvard Corporation",
        "Meridian Journal Corporation",
    }


def test_a_covers_singular_spelling_of_a_party_is_no_second_party() -> None:
    text = (
        "JOINT VENTURE SHAREHOLDERS' AGREEMENT\n\n\n                PARTIES\n\n            HALCYON LABS INC\n\n"
        "                 AND\n\n            SILVER CREST\n            HOLDING LTD\n\n\nAGREEMENT made the 31 day of "
        "August, 2000\n\nPARTIES HALCYON LABS INC.\n\n        of 12 Von Karman Avenue, Irvine, California, United "
        "States of America (\"PARTY A\")\n\nAND     SILVER CREST HOLDINGS LTD of PO Box 95, Road Town, Tortola, "
        "British Virgin Islands (\"PARTY B\")\n\nINTRODUCTION\n\nA.      Party A develops dietary supplements.\n"
    )
    names = bound_party_names(text)
    assert "SILVER CREST HOLDINGS LTD" in names
    assert not any("HOLDING LTD" in n and "HOLDINGS" not in n for n in names)


def test_a_confidential_treatment_legends_body_is_no_part_of_the_title() -> None:
    text = (
        "CERTAIN\nPORTIONS OF THE EXHIBIT HAVE BEEN OMITTED AND FILED WITH THE SECURITIES\nAND\nEXCHANGE COMMISSION\n"
        "DISTRIBUTORSHIP\nAGREEMENT\nTHIS\nAGREEMENT IS MADE AS OF THE 24th DAY OF August, 2007, by and between Brook "
        "Spring Water, Inc, (Supplier) a Nevada corporation, and Helix Water Limited, (Distributor) a company of "
        "the United Kingdom;\n"
    )
    assert agreement_title(text) == "DISTRIBUTORSHIP AGREEMENT"
    # (Guard: a title with the word in it keeps it.)
    guard = "SALES COMMISSION AGREEMENT\n\nThis Sales Commission Agreement is made between Acme Inc. (\"Acme\") and Beta LLC (\"Beta\").\n"
    assert agreement_title(guard) == "SALES COMMISSION AGREEMENT"


def test_a_joining_word_alone_on_its_line_joins_a_split_heading() -> None:
    text = (
        "EXHIBIT 10.11\nINFOMERCIAL PRODUCTION\nAND\nPRODUCT MANAGEMENT AGREEMENT\nThis Production/Management "
        "Agreement (\"Agreement\") is dated as of March 5, 1996 and is made by and among LUMEN MARKETING, INC., a "
        "Colorado corporation (\"LUMEN\"), and Osprey Corp., a Colorado corporation (\"CLIENT\").\n"
    )
    assert agreement_title(text) == "INFOMERCIAL PRODUCTION AND PRODUCT MANAGEMENT AGREEMENT"


def test_a_term_closed_by_a_semicolon_opens_a_long_parenthesis() -> None:
    # Before, the last member's parenthesis ran past 250 characters and defined nothing.
    group = (
        "MSG, Arlen, Brook, Coyle, Dunmore, Ellery, and Farrow are sometimes referred to herein individually as "
        "\"Member\" and collectively, together with any additional members hereinafter admitted to the Company in "
        "accordance with this Agreement, as the \"Members\""
    )
    text = (
        "LIMITED LIABILITY COMPANY AGREEMENT OF TALLWOOD, LLC\n\nLIMITED LIABILITY COMPANY AGREEMENT OF TALLWOOD, LLC, "
        "dated as of August 2, 2004, among Media Syndicate Group, Inc. (\"MSG\"), Pia K. Arlen (\"Arlen\"), Tomas R. "
        "Brook (\"Brook\") and Nadia Farrow (\"Farrow\"; " + group + ").\n\nA. Tallwood, LLC (the \"Company\") was "
        "formed as a limited liability company.\n"
    )
    assert defined_terms(text)["Farrow"] == "Nadia Farrow"
    assert bound_party_names(text) == {"Media Syndicate Group, Inc.", "Pia K. Arlen", "Tomas R. Brook", "Nadia Farrow"}


def test_the_company_an_agreement_is_of_is_no_party_the_review_adds() -> None:
    text = (
        "EXECUTION COPY\n\nAMENDED AND RESTATED LIMITED LIABILITY COMPANY AGREEMENT OF TALLWOOD, LLC\n\nAMENDED AND "
        "RESTATED LIMITED LIABILITY COMPANY AGREEMENT OF TALLWOOD, LLC, dated as of August 2, 2004, among Media "
        "Syndicate Group, Inc. (\"MSG\"), Pia K. Arlen (\"Arlen\") and Tomas R. Brook (\"Brook\").\n\nW I T N E S S E T "
        "H:\n\nA. TALLWOOD, LLC (the \"Company\") was formed as a limited liability company pursuant to the Delaware "
        "Limited Liability Company Act.\n"
    )
    assert bound_party_names(text) == {"Media Syndicate Group, Inc.", "Pia K. Arlen", "Tomas R. Brook"}


def test_a_copy_label_run_into_a_caption_line_ends_the_caption() -> None:
    text = (
        # (A mirror's copy that runs the filing's lines together.)
        "EX-2 2 tallwoodagree.txt AGREEMENT OF TALLWOOD EXECUTION COPY AMENDED AND RESTATED LIMITED LIABILITY "
        "COMPANY AGREEMENT OF TALLWOOD, LLC AMENDED AND RESTATED LIMITED LIABILITY COMPANY AGREEMENT OF TALLWOOD, "
        "LLC, dated as of August 2, 2004, among Media Syndicate Group, Inc. (\"MSG\") and Pia K. Arlen (\"Arlen\"). "
        "W I T N E S S E T H: A. Tallwood, LLC (the \"Company\") was formed as a limited liability company.\n"
    )
    assert agreement_title(text) == "AMENDED AND RESTATED LIMITED LIABILITY COMPANY AGREEMENT"


def test_a_field_opened_by_a_time_word_and_of_is_no_party() -> None:
    assert party_name_problem("Term of Consulting Service") == "thing"
    assert party_name_problem("Date of Closing") == "thing"
    assert party_name_problem("Bank of Westland") is None
