"""Party clause shapes read from the misses of real contract openings (issue 9, stop 47: the
cases of the reading set realW that no CUAD contract shares a party with). Names are invented and
texts rewritten from the shapes. Each test but the guards fails on the code before its rule.
"""

from __future__ import annotations

from ingest.letter_parties import letter_names
from ingest.names import name_before
from tests.helpers import bound_party_names, defined_terms


def test_a_name_right_before_located_at_is_the_party_the_address_belongs_to() -> None:
    # Before, the sponsor was lost and "Utah 84070" was read as the definition's antecedent: no
    # legal form closes "Harbour States FDAF".
    text = (
        "NAMING RIGHTS AGREEMENT\nThis Naming Rights Agreement (\"Agreement\") is made by and between Quarry "
        "Operations, LLC, a Colorado limited liability company (\"Owner\") located at 1 Telstar Drive, Suite 5, "
        "Colorado Springs, Colorado 80920 and, Harbour States FDAF located at 9 South 300 West, Suite 200, Sandy, "
        "Utah 84070 (\"Sponsor\").\nRecitals\n"
    )
    assert bound_party_names(text) == {"Quarry Operations, LLC", "Harbour States FDAF"}
    assert defined_terms(text)["Sponsor"] == "Harbour States FDAF"


def test_a_degree_after_a_person_is_read_with_the_name_before_it() -> None:
    # Before, the antecedent of the representative's term was "Ph.D." alone.
    text = (
        "CONSULTING AGREEMENT This Consulting Agreement (this \"Agreement\") is entered into this 17th day of "
        "October 2006 by and among Quillon Technologies, Inc. (the \"Company\"), a New Jersey corporation; Roe "
        "Consulting, Inc. (the \"Consultant\"), a New Jersey corporation and, as to Sections 3 and 5 only, Arthur "
        "Roe, Ph.D. (the \"Consultant's Representative\"), an individual. WITNESSETH THAT:\n"
    )
    assert bound_party_names(text) == {"Quillon Technologies, Inc.", "Roe Consulting, Inc.", "Arthur Roe, Ph.D."}
    sentence = "and Arthur Roe, M.D. (the"
    found = name_before(sentence, sentence.index(" (the"))
    assert found is not None and found.text == "Arthur Roe, M.D."


def test_an_unquoted_acronym_of_the_company_before_it_defines_a_term() -> None:
    # Before, the service provider was lost: an unquoted "(IRG)" was read as no definition.
    text = (
        "THE QUILL RELATIONS GROUP INC.\nLETTER OF AGREEMENT\nDate: July 30, 2004\nSection 1. Services to be "
        "Rendered. The purpose of this letter is to set forth the terms and conditions on which The Quill "
        "Relations Group, Inc. (QRG) agrees to provide Harrow Holding Inc. (the \"Company\") investor relations "
        "services.\nSection 2. Fees. The Company shall pay to QRG a fee.\n"
    )
    assert bound_party_names(text) == {"The Quill Relations Group, Inc.", "Harrow Holding Inc."}
    assert defined_terms(text)["QRG"] == "The Quill Relations Group, Inc."


def test_guard_an_unquoted_word_that_is_no_acronym_of_the_name_defines_nothing() -> None:
    text = (
        "SUPPLY AGREEMENT\nThis Supply Agreement is made between Kestrel Labs Inc. (USA) and Harrow Foods "
        "Limited (\"Buyer\").\n1. Supply.\n"
    )
    assert "USA" not in defined_terms(text)


def test_a_remark_on_a_coming_change_of_name_stands_between_the_name_and_its_term() -> None:
    # Before, the customer was lost: the remark's parenthesis hid the name from the definition.
    text = (
        "LETTER OF AGREEMENT\nDate: September 10, 2009\nSection 1. Services to be Rendered. The purpose of this "
        "letter is to set forth the terms on which The Quill Relations Group, Inc. (QRG) agrees to provide JAG "
        "Harbour Holdings, Inc. (which is\nin the process of changing its corporate name to Westport Holdings\n"
        "Inc.) (the \u201cCompany\u201d) a communications program.\n"
    )
    assert defined_terms(text)["Company"] == "JAG Harbour Holdings, Inc."
    assert bound_party_names(text) == {"The Quill Relations Group, Inc.", "JAG Harbour Holdings, Inc."}


def test_the_firm_an_engagement_letter_says_is_retained_is_its_sender() -> None:
    # Before, only the addressee was bound: the sender names itself only as the firm retained.
    letter = (
        "March 17, 2009\nJane Q. Roe, CEO\nQuill Energy, Inc.\n4450 Belden Village St., Suite 800\nCanton, Ohio "
        "44718\nRe: Quill Energy, Inc. (\u201cClient\u201d)\nDear Ms. Roe:\nWe are pleased your firm is retaining "
        "Harbour Keys, LLC (\u201cHK\u201d or the \u201cFirm\u201d). The purpose of this letter is to set forth our "
        "mutual understanding as to the terms and conditions of HK\u2019s engagement.\n"
    )
    assert "Harbour Keys, LLC" in {n.text for n in letter_names(letter)}
    acronym = (
        "October 3, 2007\nMr. Ezra Roe\nClear Lake Group\n5020 Sunrise Hwy\nDear Mr. Roe:\nI appreciate your "
        "decision to retain Avalon Strategic Communications (ASC)\nto render its public relations services. This "
        "letter will serve to confirm the terms of our agreement.\n"
    )
    assert "Avalon Strategic Communications" in {n.text for n in letter_names(acronym)}


def test_guard_a_retained_name_with_no_definition_or_an_acronym_of_other_words_is_no_sender() -> None:
    for body in (
        "I appreciate your decision to retain Avalon Strategic Communications to render services.",
        "I appreciate your decision to retain Avalon Strategic Communications (XYZ) to render services.",
    ):
        letter = "October 3, 2007\nMr. Ezra Roe\nClear Lake Group\nDear Mr. Roe:\n" + body + " This letter states our agreement.\n"
        assert "Avalon Strategic Communications" not in {n.text for n in letter_names(letter)}


def test_a_person_in_a_role_row_of_the_header_is_a_party_though_an_address_row_follows() -> None:
    # Before, the licensor was lost: a person's row over "Address:" was read as a notice block.
    text = (
        "Exhibit 10.9\n(English Translation)\nExclusive Licensing Agreement\nLicensor: Runyan Wang\nAddress: No. 312, "
        "Tiexi District, Shenyang City, P.R. China.\nRepresentative: Runyan Wang\nLicensee: Daqing Harbour Biotech "
        "Co., Ltd.\nAddress: East side of Railway, Zhaoyuan County, P.R. China.\nDate: April 10th, 2006\nWhereas, the "
        "Licensor has cultivation technology.\n"
    )
    assert bound_party_names(text) == {"Runyan Wang", "Daqing Harbour Biotech Co., Ltd."}


def test_guard_a_person_in_a_notice_block_after_the_agreement_words_is_no_party() -> None:
    text = (
        "SUPPLY AGREEMENT\nThis Supply Agreement is made between Kestrel Labs Inc. (\"Supplier\") and Harrow Foods "
        "Limited (\"Buyer\").\n12. Notices. Notices shall be sent to:\nSupplier: Jane Roe\nAddress: 1 Elm Street, "
        "Westport\nTel: 555 0100\n"
    )
    assert bound_party_names(text) == {"Kestrel Labs Inc.", "Harrow Foods Limited"}


def test_a_person_and_a_company_read_as_one_name_are_two_parties() -> None:
    # Before, "Martin Roe and Harbour Resolutions Group LLC" was one party (realH's h066 and h032
    # shapes: a person, "and", a company with its legal form).
    text = (
        "INDEPENDENT CONTRACTOR AGREEMENT\nThis Independent Contractor Agreement (\"Agreement\") is made by and "
        "between Quillby Assistance Corporation, a Delaware corporation (\"QAC\"), and Martin Roe and Harbour "
        "Resolutions Group LLC (jointly, \"Contractor\").\n1. Services.\n"
    )
    assert bound_party_names(text) == {
        "Quillby Assistance Corporation", "Martin Roe", "Harbour Resolutions Group LLC"
    }


def test_guard_a_firm_style_or_a_coordinated_name_stays_one_name() -> None:
    for name in ("Morgan Roe and Bockius LLP", "Harbour Research and Development Services Ltd"):
        text = (
            "ENGAGEMENT AGREEMENT\nThis Engagement Agreement (\"Agreement\") is made by and between Quillby "
            f"Holdings, Inc. (\"QH\"), and {name} (\"Firm\").\n1. Services. The research and development "
            "services shall be provided.\n"
        )
        assert bound_party_names(text) == {"Quillby Holdings, Inc.", name}, name


def test_an_artist_or_a_performer_row_names_a_party() -> None:
    # Before, "ARTIST: Quill Entertainment" named no party: "Artist" was no party role.
    text = (
        "EXHIBIT 10.10\nTELEVISION EMPLOYMENT AGREEMENT\n-PRODUCING SERVICES-\nDated: as of May 21, 1997\nPRODUCER: "
        "Harbour Development Corp.\n100 Elm Street\nAttn: Jane Roe\nARTIST: Quill Entertainment\n200 Oak Street\n"
        "Copy To: John Roe, Esq.\n1. PRODUCTION: Producer shall produce the Picture with Artist.\n"
    )
    assert bound_party_names(text) == {"Harbour Development Corp.", "Quill Entertainment"}


def test_more_parties_of_a_role_row_each_alone_on_a_line_over_the_same_rows() -> None:
    # Before, only the first pledgor was bound (realY's Y016 shape: the other pledgors are listed
    # under "Party B:" each with its own address and identity rows, and no label of their own).
    text = (
        "Exhibit 10.5\nEquity Pledge Agreement\nThis Equity Pledge Agreement (hereinafter referred to as \u201cthis "
        "Agreement\u201d) was signed by the following parties on March 29, 2019:\nParty A: Harbour (Shenzhen) Robotics "
        "Co., Ltd. (hereinafter referred to as \u201cPledgee\u201d)\nAddress: Room 201, Shenzhen\nParty B: Haitao "
        "Qiang (hereinafter referred to as \u201cPledgor\u201d)\nAddress: ***\nID card number: ***\nBing Zhou\nAddress: "
        "***\nID card number: ***\nShenzhen Quill Growth Equity Investment Fund Partnership (Limited Partnership)\n"
        "Registered address: Room 201, Shenzhen\nParty C: Harbour (Shenzhen) Holdings Co., Ltd.\nAddress: Room 201, "
        "Shenzhen\n"
    )
    assert bound_party_names(text) == {
        "Harbour (Shenzhen) Robotics Co., Ltd.",
        "Haitao Qiang",
        "Bing Zhou",
        "Shenzhen Quill Growth Equity Investment Fund Partnership (Limited Partnership)",
        "Harbour (Shenzhen) Holdings Co., Ltd.",
    }


def test_guard_a_label_value_on_the_next_line_is_no_further_entry() -> None:
    # "Legal Representative:" alone, its value under it: the value is the row's, no party's.
    text = (
        "Exhibit 10.5\nService Agreement\nParty A: Harbour (Shenzhen) Robotics Co., Ltd.\nLegal Representative:\n"
        "Haitao Qiang\nAddress: Room 201, Shenzhen\nParty B: Quill Consulting Co., Ltd.\nAddress: Room 5, Beijing\n"
        "Whereas, Party A needs services.\n"
    )
    assert bound_party_names(text) == {"Harbour (Shenzhen) Robotics Co., Ltd.", "Quill Consulting Co., Ltd."}


def test_the_person_a_loan_out_company_furnishes_is_no_party() -> None:
    # Before, the talent was bound beside the company that furnishes its services (realY's Y039
    # and realW's W006 shapes).
    text = (
        "ENDORSEMENT AGREEMENT\nThis Endorsement Agreement (this \u201cAgreement\u201d) is entered into as of October 29, "
        "2020 by and between K. Roe Enterprises, Inc. (\u201cFurnishing Company\u201d), a California corporation, for "
        "the services of Kevin Roe (\u201cTalent\u201d) and Quill Oral Care Inc. (\u201cQuill\u201d), a British Columbia "
        "corporation.\nWHEREAS, Furnishing Company has the authority to furnish the services of Talent.\n"
    )
    assert bound_party_names(text) == {"K. Roe Enterprises, Inc.", "Quill Oral Care Inc."}


def test_guard_a_firm_joined_by_an_ampersand_stays_one_name() -> None:
    text = (
        "AGREEMENT\nTHIS AGREEMENT is made this 1st day of May, 1997, by and between K.W.Q., Inc., 1700 Broadway, "
        "New York (\"KW\") and Full Moon & High Tide Productions, Inc. (\"Lender\").\n1. The Series.\n"
    )
    assert bound_party_names(text) == {"K.W.Q., Inc.", "Full Moon & High Tide Productions, Inc."}


def test_guard_a_label_value_running_on_over_its_line_is_one_party() -> None:
    # "Changchun\nYongxin Dirui ... Co., Ltd.": the second line is the value's, no further entry.
    text = (
        "Exhibit\n10.37\nParty\nA:\n|\nChangchun\nQuill Dirui Medical Co., Ltd.\n|\nAddress:\n2152 Nanhuan Rd., "
        "Changchun, Jilin Province.\nParty\nB:\n|\nTonghua\nHarbour Pharmaceutical Co., Ltd.\n|\nThis\nDistribution "
        "Agreement (the \u201cAgreement\u201d) is entered into by and between Party A\nand Party B.\n"
    )
    assert bound_party_names(text) == {"Changchun Quill Dirui Medical Co., Ltd.", "Tonghua Harbour Pharmaceutical Co., Ltd."}


def test_a_building_named_after_care_of_is_part_of_the_address() -> None:
    # Before, the model's "Walker House" was bound (realV's V008 shape): "c/o" opens an address
    # like "located at".
    text = (
        "LICENSE AGREEMENT This AGREEMENT is made by and between Quillon Pharmaceuticals Limited, a corporation "
        "organized and existing under the laws of the Cayman Islands, having a principal place of business c/o "
        "Harbour Secretaries, Walker House, Grand Cayman, Cayman Islands (\"Quillon\"), and the Dipartimento di "
        "Biologia Sperimentale dell'Universita di Cagliari, having a principal place of business at Cittadella "
        "Universitaria, 09133 Monserrato, Cagliari, Italy (the \"University\"). INTRODUCTION 1. The parties wish to "
        "cooperate.\n"
    )
    assert "Walker House" not in bound_party_names(text)


def test_companies_stacked_with_their_address_lines_between_and_lines_are_parties() -> None:
    # Before, only the first company of the stack was bound (realV's V024 shape): the address lines
    # under each name hid the "and" line from the cover reader.
    text = (
        "MASTER AGREEMENT FOR RESEARCH SERVICES\nbetween\nQuill Onkologie gGmbH\nFreiligrathstrasse 12\nD-55131 "
        "Mainz\nhereinafter referred to as \u201cQUILL\u201c\nand\nHarbourTech AG\nAn der Goldgrube 12\nD-55131 Mainz\n"
        "hereinafter referred to as \u201cHARBOUR\u201c\nas well as the subsidiaries of HARBOUR:\nHarbourTech RNA GmbH\n"
        "An der Goldgrube 12\nD-55131 Mainz\nand\nHarbourTech Diagnostics GmbH\nAn der Goldgrube 12\nD-55131 Mainz\n"
        "and\nWestport Peptide Technologies GmbH\nVolmerstrasse 5\nD-12489 Berlin\nhereinafter jointly referred to as "
        "\u201cHARBOUR SUBSIDIARIES\u201d\ndated\n01 January 2015\nPREAMBLE\n"
    )
    bound = bound_party_names(text)
    assert {"HarbourTech RNA GmbH", "HarbourTech Diagnostics GmbH", "Westport Peptide Technologies GmbH"} <= bound


def test_guard_lines_with_numbers_above_an_and_line_need_a_company_above_them() -> None:
    from ingest.party_layout import layout_names

    # Past address lines only a name with a legal form stacks: an institute read by its head noun
    # over two numbered lines is no cover's name.
    text = "Harbour Research Institute\nRoom 12\nBuilding 3\nand\nWestport Logistics GmbH\nshall carry the goods.\n"
    assert [n.name.text for n in layout_names(text) if n.shape == "cover"] == []
    text = "Harbour Research GmbH\nRoom 12\nBuilding 3\nand\nWestport Logistics GmbH\nshall carry the goods.\n"
    assert [n.name.text for n in layout_names(text) if n.shape == "cover"] == ["Harbour Research GmbH", "Westport Logistics GmbH"]
