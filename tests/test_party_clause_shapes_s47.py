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
