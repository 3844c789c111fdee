"""Party-clause shapes found on a held-out set of real executed contracts (issue 9), rewritten with
invented names: a year inside a name, a description written without its comma, a firm's name
joined by "&", a cover line that runs on into the title's subject, a title-case "Between" over a
name with an inner "and", a "PARTY\\nA:" label broken over lines, a clause opened by "is entered
into by", a cover page's list of names and description lines, and an offer letter's sender and
addressee. Real spaCy pipeline; the exact set of names bound by ``party_to``.
"""

from __future__ import annotations

import pytest

from ingest.letter_parties import letter_names as _letter_names
from ingest.names import name_at, party_name_problem
from tests.test_party_shapes_general import _bound_spans

SHAPES: dict[str, tuple[str, set[str]]] = {
    # "(2019)" is a qualifier inside the name, before its legal form.
    "year_inside_name": (
        "EMPLOYMENT AGREEMENT\n\nThis Employment Agreement is entered into as of May 1, 2021, by and among "
        "HARBOR LANE HOLDINGS (2019), LLC (\"Holdings\" or the \"Company\"), a limited liability company doing "
        "business under the laws of the State of Florida, and PETRA VALLIANT, a resident of Georgia "
        "(\"Executive\").\n\nRECITALS\n\nWHEREAS, the Company operates several publishing businesses.\n",
        {"HARBOR LANE HOLDINGS (2019), LLC", "PETRA VALLIANT"},
    ),
    # "Marlowe Company an Idaho corporation": the description follows without its comma.
    "description_without_comma": (
        "DISTRIBUTION AGREEMENT\n\nTHIS DISTRIBUTION AGREEMENT (\"Agreement\") is made this 3rd day of March, "
        "2009, by and between QUILLFORD BREWING COMPANY INC, a Nevada corporation (hereinafter called "
        "\"Supplier\") whose address is 12 Harbor Way, Reno, Nevada 89501 and Marlowe Company an Idaho "
        "corporation (hereinafter called \"Distributor\") whose address is 40 Pine Road, Boise, Idaho 83702.\n\n"
        "WHEREAS, Supplier sells beverages.\n",
        {"QUILLFORD BREWING COMPANY INC", "Marlowe Company"},
    ),
    # Every word of "LENDERS BANK & TRUST COMPANY" is also a role word; the ampersand makes it a firm.
    "ampersand_firm_of_role_words": (
        "ADMINISTRATION AGREEMENT\n\nAGREEMENT made as of June 2, 2006 by and between ORCHARD VALLEY FUNDS, a "
        "statutory trust organized under the laws of Delaware (the \"Fund\"), and LENDERS BANK & TRUST COMPANY, "
        "a Vermont trust company (the \"Bank\"). WHEREAS, the Fund is a registered investment company.\n",
        {"ORCHARD VALLEY FUNDS", "LENDERS BANK & TRUST COMPANY"},
    ),
    # The cover line goes on past the second name: "RELATING TO ..." is the title's subject.
    "cover_line_runs_into_subject": (
        "EXHIBIT 10.7 FIRM TRANSPORTATION AGREEMENT DATED MAY 1, 2010 BETWEEN GRANITE PASS GAS LLC AND "
        "WILLOWMERE ENERGY SERVICES COMPANY RELATING TO TRANSPORTATION OF NATURAL GAS IN THE STATE OF "
        "LOUISIANA TABLE OF CONTENTS I. Definitions 2 II. Transportation Service 8\n",
        {"GRANITE PASS GAS LLC", "WILLOWMERE ENERGY SERVICES COMPANY"},
    ),
    # A title-case "Between" opens the clause; "AND" inside the first name joins no two parties.
    "title_case_between_inner_and": (
        "EX-10.4 2 exhibit.txt EXHIBIT 10.4 AMENDED RESEARCH AGREEMENT ---------- Between KESTREL RESEARCH AND "
        "DEVELOPMENT COMPANY LIMITED ---------- a company duly registered under the laws of Israel of PO Box 12, "
        "Haifa 31000, Israel (hereinafter, \"KESTREL\"). And NOVAGEN LABS, INC. a company duly registered under "
        "the laws of the state of Oregon (hereinafter, the \"COMPANY\") PREAMBLE: WHEREAS: (A) in the course of "
        "research the scientist arrived at an invention.\n",
        {"KESTREL RESEARCH AND DEVELOPMENT COMPANY LIMITED", "NOVAGEN LABS, INC."},
    ),
    # "Services and Development Ltd." is the end of the first party's name, not a third party.
    "inner_and_before_legal_form": (
        "ADDITIONAL RESEARCH AGREEMENT\n\nThis Additional Research Agreement, by and between Brightwater Medical "
        "Research Services and Development Ltd., a company incorporated under the laws of Israel "
        "(\"Brightwater\") and Cedar Neuro Therapeutics Ltd., a company incorporated under the laws of Israel "
        "(the \"Company\"), is entered into as of the Effective Date.\n\nWHEREAS, the Parties entered into a "
        "research agreement.\n",
        {"Brightwater Medical Research Services and Development Ltd.", "Cedar Neuro Therapeutics Ltd."},
    ),
    # "PARTY\nA:" and a name broken over lines; a company defined in the recitals is no party.
    "party_label_broken_over_lines": (
        "EXCLUSIVE\nDISTRIBUTION AGREEMENT\nPARTY\nA: HUNAN\nQINGSHAN MOTOR GROUP CO., LTD.\nADDRESS: QINGSHAN "
        "INDUSTRIAL PARK, HUNAN, CHINA\nPARTY\nB: HUNAN\nLISHUI PARTS CO., LTD\nADDRESS: LISHUI HIGH-TECH PARK, "
        "HUNAN, CHINA\nRECITALS\nWHEREAS,\nParty B is a joint-venture company organized by Party A and Orrin "
        "Trading Limited (\"Orrin\") under the laws of the People's Republic of China; and\nWHEREAS,\nParty A "
        "desires that Party B become its exclusive distributor.\n",
        {"HUNAN QINGSHAN MOTOR GROUP CO., LTD.", "HUNAN LISHUI PARTS CO., LTD"},
    ),
    # Opened by "and is entered into by": no "between", a person with "Dr." as the second party.
    "entered_into_by_clause": (
        "Scientific Advisory Board Agreement\n\nThis Scientific Advisory Board Agreement (the \"Agreement\"), "
        "shall be effective as March 1, 2021 (the \"Effective Date\"), and is entered into by Larkspur "
        "Therapeutics, Inc., with a business address at 12 Main Street, Denver, Colorado 80202 (the "
        "\"Company\"), and Dr. Miriam Okafor with a business address at 4 Elm Lane, Asheville, NC 28801 (the "
        "\"Advisor\"). This Agreement replaces all previous agreements between the Company and Advisor.\n\n"
        "Witnesseth\n\nWhereas, the Company desires the benefit of the Advisor's knowledge.\n",
        {"Larkspur Therapeutics, Inc.", "Dr. Miriam Okafor"},
    ),
    # A cover page: each name on its line, its description on the next, the last after an "and" line.
    "cover_list_of_lines": (
        "Amended and Restated Exclusive Supply Agreement\nby and among\nQuartzline Corporation\na California "
        "corporation\nBetaSil, Inc.\na California corporation\nand\nHollis Medical Corporation\na Minnesota "
        "corporation\nJuly 6, 2004\nEXCLUSIVE SUPPLY AGREEMENT: Page 1\nTABLE OF CONTENTS\n1. DEFINITIONS.\n"
        "2. SALE AND PURCHASE OF MATERIALS.\n2.1 Delegation of Supplier's duties to BetaSil.\n",
        {"Quartzline Corporation", "BetaSil, Inc.", "Hollis Medical Corporation"},
    ),
    # The document's own defined term is no antecedent: "under this MSA (each, a "SOW")".
    "document_term_is_no_party": (
        "MASTER SERVICES AGREEMENT\n\nThis Master Services Agreement (\"MSA\") is entered into as of March 2, "
        "2021 between Oakridge Data LLC, a New York limited liability company (\"Provider\"), and Tallis Foods "
        "Corp., a Delaware corporation (\"Client\").\n\n1. Statements of Work. Provider shall perform the "
        "services described in statements of work executed by both parties under this MSA (each, a "
        "\"SOW\").\n\n2. Governing Law. This MSA shall be governed by the laws of the State of New York.\n",
        {"Oakridge Data LLC", "Tallis Foods Corp."},
    ),
    # The target a share purchase's background names is no party of the sale.
    "share_purchase_target_in_background": (
        "SHARE PURCHASE AGREEMENT\n\nPARTIES\n\n1. BRAMBLE HOLDINGS LIMITED, a company registered in Scotland "
        "with company number SC100001 (Seller).\n\n2. CORVID PARTNERS LIMITED, a company registered in England "
        "with company number 09000001 (Buyer).\n\nBACKGROUND\n\nThe Seller is the legal and beneficial owner "
        "of the entire issued share capital of Heron Marine Services Limited (the Company).\n\n1. Sale and "
        "purchase. The Seller shall sell and the Buyer shall buy the Shares.\n",
        {"BRAMBLE HOLDINGS LIMITED", "CORVID PARTNERS LIMITED"},
    ),
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_real_shape_binds_exactly_its_parties(shape: str) -> None:
    text, expected = SHAPES[shape]
    assert set(_bound_spans(text)) == expected


def test_a_year_qualifier_stays_inside_a_name() -> None:
    text = "between NORTHGATE PARTNERS (2014), L.P. and others"
    assert name_at(text, 8, len(text)).text == "NORTHGATE PARTNERS (2014), L.P."


def test_a_list_number_in_parentheses_starts_no_name() -> None:
    # "(2)" numbers the next party; only a number right before a legal form is part of a name.
    text = "by and among (1) Alder Corp. and (2) Kestrel Kogyo Co., Ltd., a company"
    assert name_at(text, text.index("(2)"), len(text)) is None
    assert name_at(text, text.index("Kestrel"), len(text)).text == "Kestrel Kogyo Co., Ltd."


@pytest.mark.parametrize(
    ("text", "name"),
    [
        # An article before a jurisdiction opens the party's description.
        ("Marlowe Company an Idaho corporation (hereinafter", "Marlowe Company"),
        # An article before any other word is part of the name.
        ("Love on a Leash, LLC (\"Seller\")", "Love on a Leash, LLC"),
    ],
)
def test_a_description_after_an_article_ends_the_name(text: str, name: str) -> None:
    assert name_at(text, 0, len(text)).text == name


def test_a_participle_after_a_legal_form_ends_the_name() -> None:
    text = "WILLOWMERE ENERGY SERVICES COMPANY RELATING TO SECTION 311"
    assert name_at(text, 0, len(text)).text == "WILLOWMERE ENERGY SERVICES COMPANY"


@pytest.mark.parametrize(
    ("name", "problem"),
    [("LENDERS BANK & TRUST COMPANY", None), ("Bank and Trust Company", "role")],
)
def test_an_ampersand_makes_role_words_a_firm(name: str, problem: str | None) -> None:
    assert party_name_problem(name) == problem


def test_offer_letter_names_its_sender_and_the_addressee_it_greets() -> None:
    text = (
        "STRICTLY PRIVATE AND CONFIDENTIAL\nMarch 4, 2022\nTobias Lindqvist\n18 Harbour Street\n"
        "Dear Tobias Lindqvist,\nAPPOINTMENT AS Regional Director\nWe, Northwind Staffing Pte. Ltd. (Reg. No. "
        "201911111Z) (\"Company\"), are pleased to offer you the position of Regional Director.\n"
    )
    assert [n.text for n in _letter_names(text)] == ["Tobias Lindqvist", "Northwind Staffing Pte. Ltd."]


def test_a_greeting_without_an_address_block_names_no_party() -> None:
    text = "March 4, 2022\nDear Tobias Lindqvist,\nThank you for your interest in our services.\n"
    assert _letter_names(text) == []
