"""Party clause and title shapes of stop 53 (issue 9): a role defined after the last of two
parties when a description stands between, and run-in instrument headings that name their
subject. Names are invented. Each test but the guards fails on the code before its rule.
"""

from __future__ import annotations

from ingest.definitions import find_definitions
from tests.helpers import bound_party_aliases, bound_party_names


def _antecedents(text: str) -> list[tuple[str, str]]:
    return [(d.term, d.name.text) for d in find_definitions(text) if d.name is not None]


def test_a_role_after_the_second_partys_description_is_the_second_partys() -> None:
    # Before, "Buyer" went to the first name of the clause, Quorvant Systems, Inc.
    text = 'This Agreement is made by and between Quorvant Systems, Inc. and Pellridge Inc., a Texas corporation ("Buyer").\n'
    assert _antecedents(text) == [("Buyer", "Pellridge Inc.")]
    assert bound_party_aliases(text) == {"Quorvant Systems, Inc.": [], "Pellridge Inc.": ["Buyer"]}


def test_a_role_after_the_second_partys_description_after_a_closing_comma_and() -> None:
    text = (
        "This Assignment is entered into this 1st day of August, 1991, by and between Quorvant Systems, Inc., a"
        " Delaware corporation, and E. Pellridge and Company, a Texas Corporation, having its principal place of"
        ' business at 5 Main Street, Austin, Texas 78731 (hereinafter "Assignee").\n'
    )
    assert _antecedents(text) == [("Assignee", "E. Pellridge and Company")]


def test_a_definition_of_a_group_after_the_last_party_is_no_role_of_that_party() -> None:
    # Guard: "each a Party" names both, so the rule leaves the definition to the reading before it.
    text = (
        'This Agreement is made by and between Quorvant Systems, Inc. and Pellridge Inc., each a Texas corporation'
        ' (each a "Party").\n'
    )
    assert "Pellridge Inc." not in {name for _, name in _antecedents(text)}
    # Guard: a role right after a party with its own role before stays each party's.
    both = (
        'This Agreement is made by and between Quorvant Systems, Inc., a Delaware corporation ("Assignor"), and'
        ' Pellridge Inc., a Texas corporation ("Assignee").\n'
    )
    assert _antecedents(both) == [("Assignor", "Quorvant Systems, Inc."), ("Assignee", "Pellridge Inc.")]


def test_a_group_member_described_as_a_company_is_a_party_without_a_legal_form_in_its_name() -> None:
    # Before, the caps name without a legal form was dropped from the group and never bound.
    text = (
        "THIS AGREEMENT is made between and among Quorvant Systems, Inc., a California corporation, and"
        ' NETWAYPOINT, a Nevada corporation , on the one hand (collectively, "QUORVANT"), and Pellridge Corp.,'
        ' on the other hand ("RESELLER").\n'
    )
    assert bound_party_names(text) == {"Quorvant Systems, Inc.", "NETWAYPOINT", "Pellridge Corp."}
    # Guard: a member described as a person, or not described, still needs a name of its own kind.
    plain = text.replace(", a Nevada corporation ,", ",", 1)
    assert "NETWAYPOINT" not in bound_party_names(plain)


def test_a_party_letter_row_holds_an_institution_named_over_lower_case_joiners() -> None:
    text = (
        "Technology Cooperation Agreement\nParty A: Xidelong (China) Co., Ltd.\n"
        "Party B: Westland Institute of Sports Science of the General Administration of Sport of Westland\n"
        "In accordance with the law, Party A and Party B agree as follows.\n"
    )
    whole = "Westland Institute of Sports Science of the General Administration of Sport of Westland"
    assert bound_party_aliases(text) == {"Xidelong (China) Co., Ltd.": ["Party A"], whole: ["Party B"]}
    # Guard: the row must end with the name; a description after it leaves the slot unread as one.
    described = text.replace("of Sport of Westland\n", "of Sport of Westland, a public institution of the state\n", 1)
    assert whole not in bound_party_names(described)


def test_two_trades_joined_by_and_inside_a_company_name_are_one_name() -> None:
    # Before, "Hubei Chutian Broadcasting" and "Television Network Co., Ltd." were two parties.
    text = (
        "This Exclusive Cooperation Agreement is made by and between Hubei Chutian Broadcasting and Television"
        ' Network Co., Ltd. ("Party A") and Hubei Chutian Video Communication Network Co., Ltd. ("Party B").\n'
    )
    assert bound_party_aliases(text) == {
        "Hubei Chutian Broadcasting and Television Network Co., Ltd.": ["Party A"],
        "Hubei Chutian Video Communication Network Co., Ltd.": ["Party B"],
    }
    # Guard: a name that is no trade before "and" still opens a party of its own.
    two = text.replace("Broadcasting and Television Network", "Harbor and Television Network", 1)
    assert "Harbor and Television Network Co., Ltd." not in bound_party_names(two)


def test_the_cover_pages_fuller_title_over_the_preambles_heading() -> None:
    from ingest.agreements import Title, find_title

    text = (
        "Exhibit 10.38\n\nEXCLUSIVE LICENSE AGREEMENT\n\nby and between\n\nWestland Medical Center and\n\n"
        "Quorvant Therapeutics Inc.\n\ndated as of November 1, 2013\n\n-1-\n\n\nLICENSE AGREEMENT\n\n"
        "THIS AGREEMENT is made as of November 1, 2013 by and between Westland Medical Center, Inc. and Quorvant"
        ' Therapeutics Inc. ("Licensee").\n'
    )
    start = text.index("EXCLUSIVE")
    assert find_title(text) == Title("EXCLUSIVE LICENSE AGREEMENT", start, start + 27)
    # Guard: a cover with other words than title-opening ones names another document.
    other = text.replace("EXCLUSIVE LICENSE AGREEMENT", "PATENT LICENSE AGREEMENT", 1)
    assert find_title(other).text == "LICENSE AGREEMENT"


def test_a_one_word_heading_run_into_the_preambles_title_is_read_once() -> None:
    from ingest.agreements import Title, find_title

    text = (
        "EX-10.4 2 v032427_ex10-4.txt CONFIDENTIAL TREATMENT The registrant requests confidential treatment"
        ' of Section 3(b) of this License Agreement. LICENSE LICENSE AGREEMENT ("Agreement") made as of'
        ' November 4, 2004, by and between Quorvant Group, Inc. ("Licensee") and JANE ROE ("Licensor").\n'
    )
    start = text.index("LICENSE AGREEMENT (")
    assert find_title(text) == Title("LICENSE AGREEMENT", start, start + 17)


def test_a_mark_closing_a_defined_term_keeps_the_definition() -> None:
    # Before, '("IOS(R)")' was no definition (its parenthesis closed at the mark) and the party
    # named only there was never bound.
    text = (
        'CONSULTING AGREEMENT\nQuorvant Holding Group, Inc. ("Quorvant") hereby enters into a Consulting\n'
        'Agreement with Pellridge Optical Systems, Inc. ("POS(R)"). Both parties agree\nto be bound by the'
        " following terms.\n"
    )
    assert bound_party_aliases(text) == {"Quorvant Holding Group, Inc.": ["Quorvant"], "Pellridge Optical Systems, Inc.": ["POS"]}


def test_a_term_of_a_names_first_word_and_initials_is_that_names() -> None:
    # Before, "Ogilvy PR" went to the letterhead's company and the agency was no party; the
    # salutation above the subject heading ran into the title.
    text = (
        "JUNE 22, 1999\nQUORVANT INC.\nDEAR XXXXX,\nLETTER OF AGREEMENT\nThe following constitutes our mutual"
        " understanding with respect to your\nretention of Pellridge Public Relations Worldwide (hereinafter"
        ' "Pellridge PR") as\npublic relations consultant to "Quorvant" (hereinafter "CLIENT").\n'
    )
    assert _antecedents(text)[0] == ("Pellridge PR", "Pellridge Public Relations Worldwide")
    aliases = bound_party_aliases(text)
    assert aliases["Pellridge Public Relations Worldwide"] == ["Pellridge PR"]
    assert "Pellridge PR" not in aliases.get("QUORVANT INC.", [])
    from ingest.agreements import find_title

    assert find_title(text).text == "LETTER OF AGREEMENT"


def test_a_letter_of_intent_or_memorandum_that_names_its_subject_is_titled_whole() -> None:
    from ingest.agreements import find_title

    # Before, both were titled "Agreement".
    loi = (
        "LETTER OF INTENT FOR THE ESTABLISHMENT OF A JOINT VENTURE\nQUORVANT INC. / PELLRIDGE INC.\n"
        "Entered into on January 30, 2004\n\n1. Purpose\n\nQuorvant Inc. (hereafter QI) and Pellridge Inc."
        " (hereafter PI) will establish a Joint Venture.\n"
    )
    assert find_title(loi).text == "LETTER OF INTENT FOR THE ESTABLISHMENT OF A JOINT VENTURE"
    mou = (
        "MEMORANDUM OF UNDERSTANDING ON THE JOINT DEVELOPMENT OF SOLAR PARKS\n\nThis Memorandum of Understanding"
        ' is made on May 1, 2010 between Quorvant Inc. ("Quorvant") and Pellridge Ltd. ("Pellridge").\n'
    )
    assert find_title(mou).text == "MEMORANDUM OF UNDERSTANDING ON THE JOINT DEVELOPMENT OF SOLAR PARKS"


def test_an_institution_read_to_its_rows_end_is_at_most_16_words() -> None:
    from ingest.party_layout import _MAX_INSTITUTION_WORDS, _slot_name

    assert _MAX_INSTITUTION_WORDS == 16
    head = "Westland Institute of Sports Science of the General Administration"
    at_bound = f"{head} of Sport of Westland of Westland Division"
    past = f"{at_bound} Office"
    assert (len(at_bound.split()), len(past.split())) == (16, 17)
    assert _slot_name(at_bound, 0, len(at_bound), frozenset()).text == at_bound
    # Past the bound the row is not read whole: the name reader's own shorter reading is no
    # slot's (it does not fill the row).
    assert _slot_name(past, 0, len(past), frozenset()) is None
