"""Party clause shapes read from the misses of real contract openings (issue 9, stop 45: the cases
of the reading sets realAE and realAC that no CUAD contract shares a party with). Names are
invented and texts rewritten from the shapes. Each test but the guards fails on the code before
its rule.
"""

from __future__ import annotations

from ingest.names import name_at, party_name_problem, slot_name_at, surname_first
from ingest.party_layout import label_slots
from tests.helpers import bound_party_names, defined_terms


def test_a_person_written_surname_first_is_one_name_in_a_numbered_party_list() -> None:
    # Before, the party was "Lau" alone (the slot stopped at the comma) or "Mei Ling" (the model's
    # tag of the given names), and a place of the first party's address ("Wan Chai") was bound too.
    text = (
        "EXHIBIT 10.7\nFINANCE DIRECTOR EMPLOYMENT AGREEMENT\nTHIS AGREEMENT is made on March 2nd, 2021\nBETWEEN\n"
        "|(1)\n|Harbourview Biotech Limited, registration number 1234567, a company which has its registered office "
        "at 9/F, Lockhart Tower, 12-14 Hennessy Road, Wan Chai, Hong Kong (the \u201cCompany\u201d); and\n|(2)\n"
        "|Lau, Mei Ling, holder of HKID number ******* (the \u201cFinance Director\u201d).\nIT IS AGREED as follows:-\n"
        "|1.\n|Definitions\n"
    )
    assert bound_party_names(text) == {"Harbourview Biotech Limited", "Lau, Mei Ling"}
    # The same shape in plain lines, the surname in capitals and the given names hyphenated.
    plain = (
        "EMPLOYMENT AGREEMENT\nTHIS AGREEMENT is made on January 18th, 2021\nBETWEEN\n(1) Harbourview Biotech "
        "Limited, a company whose registered office is at 12 Hennessy Road, Wan Chai, Hong Kong (the \"Company\"); "
        "and\n(2) CHEUNG, Wai-Man, holder of passport number 12345 (the \"Employee\").\nIT IS AGREED as follows:\n"
    )
    assert bound_party_names(plain) == {"Harbourview Biotech Limited", "CHEUNG, Wai-Man"}


def test_guard_a_comma_list_of_two_words_is_no_surname_first() -> None:
    # Only a person's description (a definition, "holder of", "born", an identity document) closes
    # a surname-first name; a list of companies goes on.
    text = "between Alpha, Beta and Gamma Corp. (the"
    first = slot_name_at(text, 8, len(text))
    assert first is not None and first.text == "Alpha, Beta and Gamma Corp."
    assert surname_first("Alpha, Beta (the", name_at("Alpha, Beta (the", 0, 16), 16).text == "Alpha, Beta"
    # A place after the comma is the party's seat, no given name.
    seat = "Harlow, Texas (the"
    assert surname_first(seat, name_at(seat, 0, len(seat)), len(seat)).text == "Harlow"


def test_an_unquoted_term_after_hereinafter_defines_a_party_block() -> None:
    # Before, nothing was bound: the terms had no quotes, and the first block's reading ran up
    # over the heading lines, so "Switzerland" held the term.
    text = (
        "SERVICE AGREEMENT\ndated as of 1 January 2023\n|Lindqvist Holding AG, a Swiss company with its principal "
        "place of business at Bahnhofstrasse 6, 6300 Zug, Switzerland\n(hereinafter the\nService Provider)\n|and\n"
        "|Norvale Corp, a British Virgin Islands company with its principal place of business at Craigmuir "
        "Chambers, Road Town, Tortola VG1110, British Virgin Islands\n(hereinafter the\nRecipient)\n"
        "|(collectively, the Parties\n|and individually, a Party)\nThis Service Agreement enters into force as of "
        "the date it is signed by the Parties.\nRECITALS\n"
    )
    terms = {" ".join(term.split()): name for term, name in defined_terms(text).items()}
    assert terms["Service Provider"] == "Lindqvist Holding AG"
    assert terms["Recipient"] == "Norvale Corp"
    assert bound_party_names(text) == {"Lindqvist Holding AG", "Norvale Corp"}


def test_guard_an_unquoted_parenthesis_without_hereinafter_needs_a_role() -> None:
    # "(Transporter)" is a role; "(Zug Office)" without "hereinafter" defines nothing.
    text = "This Agreement is made between Harlow Gas Ltd. (Transporter) and Kestrel Sensorik AG (Zug Office).\n"
    terms = defined_terms(text)
    assert terms.get("Transporter") == "Harlow Gas Ltd."
    assert "Zug Office" not in terms


def test_a_table_row_labelled_by_the_partys_own_short_name_binds_it() -> None:
    # Before, the third company was not bound: its row's label is a quoted short name, no role.
    # And a company named in the "Premises:" (the recitals) was bound as a party.
    text = (
        "Exhibit 10-a\nSHARE EXCHANGE AGREEMENT\nDate: March 3, 2023\nParties:\n"
        "\u201cOrtega\u201d | Ortega International, Inc., a Nevada corporation 20 Holbeche Road, Arndell Park, NSW "
        "2148 Australia\n|\n"
        "\u201cKMB United\u201d | KMB United Group Limited, an International Business Company organized in the "
        "Republic of Seychelles Room 12XB, Block B, Shenzhen, 518083 P.R. China\n|\n"
        "\u201cKMB Capital\u201d | KMB Capital Limited, a limited company organized in the British Virgin Islands "
        "Room 12XB, Block B, Shenzhen, 518083 P.R. China\n|\n"
        "Premises:\nA. | Ortega is a Nevada corporation that files reports with the Securities and Exchange "
        "Commission. |\nB. | KMB United owns 90% of the outstanding share capital of Lorimer International Co., "
        "Ltd. (\u201cLorimer\u201d), a limited company organized in Hong Kong. |\n"
        "C. | KMB Capital owns 100% of the outstanding capital stock of KMB United. |\nAgreement:\n"
    )
    slots = {slot.term: slot.name.text for slot in label_slots(text)}
    assert slots["KMB Capital"] == "KMB Capital Limited"
    assert bound_party_names(text) == {"Ortega International, Inc.", "KMB United Group Limited", "KMB Capital Limited"}


def test_a_label_value_in_another_script_is_followed_by_the_latin_name_below() -> None:
    text = (
        "Exhibit 10.3\nSales Contract\nContract Number:20211101\nParty A:\nHarbour Lantern Limited\n"
        "Party B: \u5bcc\u539f\u96c6\u5718\uff08\u570b\u969b\uff09\u6709\u9650\u516c\u53f8\n"
        "GOLDEN CRANE GROUP (INTERNATIONAL) LIMITED\nAfter negotiation, both parties confirm the following "
        "contents and reach the following terms regarding the sale of goods, and hereby sign this contract:\n"
        "(I) Confirmation of sales contents\n"
    )
    # Before, the row's value was read from the line of other script and named no one.
    slots = {slot.term: slot.name.text for slot in label_slots(text)}
    assert slots == {"Party A": "Harbour Lantern Limited", "Party B": "GOLDEN CRANE GROUP (INTERNATIONAL) LIMITED"}
    assert bound_party_names(text) == {"Harbour Lantern Limited", "GOLDEN CRANE GROUP (INTERNATIONAL) LIMITED"}


def test_a_role_shared_with_another_party_is_still_a_label() -> None:
    text = (
        "Exhibit 10.12\nMoney Lending Agreement (Excerpt)\nContracting Parties\n\nDebtor: HARUKA TRADING CO., LTD "
        "(Representative Director: Mori Kenji)\n\nJoint Guarantor: MORI KENJI\n\nLender: Aoba Shinkin Bank "
        "(Nakano Branch)\n\nLoan Terms\n\n1.Purpose: Funds for payment of expenses\n"
    )
    slots = {slot.term: slot.name.text for slot in label_slots(text)}
    assert slots["Joint Guarantor"] == "MORI KENJI"
    assert {n.casefold() for n in bound_party_names(text)} == {"haruka trading co., ltd", "mori kenji", "aoba shinkin bank"}


def test_a_year_in_brackets_inside_a_name_is_a_word_of_it() -> None:
    assert name_at("Galil Electronic (1992) Technologies Ltd., an Israeli company", 0, 60).text == (
        "Galil Electronic (1992) Technologies Ltd."
    )
    # (Guard: a year in brackets before prose is no name word.)
    assert name_at("Section 5 (2019) The Company", 0, 28) is None


def test_a_recital_opening_glued_to_its_next_word_is_no_party() -> None:
    assert party_name_problem("Whereasthe Entrepreneur") == "clause"
    assert party_name_problem("Whereat Holdings Ltd.") is None


def test_a_recital_citing_another_agreements_party_clause_names_none_of_this_ones_parties() -> None:
    # Before, "this Agreement" earlier in the recital made its sentence the document's own clause,
    # so the cited agreement's first party ("the "SPAC"") was bound.
    text = (
        "EXHIBIT 10.3\n\nLOCK-UP AGREEMENT\n\nThis Lock-Up Agreement (this \u201cAgreement\u201d) is made and entered "
        "into as of May 1, 2022 by and among Marren, Inc., a Delaware corporation (the \u201cDomesticated SPAC\u201d) "
        "and each of Tollund Investment Co., a Cayman Islands exempted company (\u201cSponsor\u201d), and certain "
        "holders of securities set forth on Schedule I hereto (the \u201cHolders\u201d).\n\nRECITALS\n\nWHEREAS, "
        "capitalized terms used but not otherwise defined in this Agreement shall have the meanings ascribed to "
        "such terms in the Business Combination Agreement, dated as of April 14, 2022, by and among Tollund "
        "Acquisition Co., a Cayman Islands exempted company (the \u201cSPAC\u201d), Brisk Merger Sub Inc., a Delaware "
        "corporation (\u201cMerger Sub\u201d) and Marren, Ltd., a Cayman Islands exempted company (the "
        "\u201cCompany\u201d).\n\nWHEREAS, the Holders desire to enter into this Agreement.\n"
    )
    assert bound_party_names(text) == {"Marren, Inc.", "Tollund Investment Co."}


def test_the_new_readers_stop_at_their_bounds() -> None:
    from ingest.annotate import _ADDRESS_LOOKBACK, _inside_address_before
    from ingest.definitions import _LINES_LOOKED_AT, _line_opening_party

    # At most three given names after a surname.
    three = "Chau, Tien Hsiang Mei, holder of"
    four = "Chau, Tien Hsiang Mei Ling, holder of"
    assert surname_first(three, name_at(three, 0, 4), len(three)).text == "Chau, Tien Hsiang Mei"
    assert surname_first(four, name_at(four, 0, 4), len(four)).text == "Chau"
    # An address lead counts only within its lookback.
    lead = "office at "
    near = lead + "x" * (_ADDRESS_LOOKBACK - len(lead) - 1) + " Wan Chai"
    far = lead + "x" * (_ADDRESS_LOOKBACK - len(lead)) + " Wan Chai"
    assert _inside_address_before(near, 0, near.index("Wan Chai"))
    assert not _inside_address_before(far, 0, far.index("Wan Chai"))

    # A party's own line is looked for on the first lines of the clause only.
    def clause(heading_lines: int) -> str:
        return "".join(f"Heading {i}\n" for i in range(heading_lines)) + "|Lindqvist Holding AG, a Swiss company\n("

    last = clause(_LINES_LOOKED_AT - 1)
    found = _line_opening_party("\n" + last, 0, len(last))
    assert found is not None and found.text == "Lindqvist Holding AG"
    past = clause(_LINES_LOOKED_AT)
    assert _line_opening_party("\n" + past, 0, len(past)) is None
