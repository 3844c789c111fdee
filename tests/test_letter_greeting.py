"""A letter agreement that greets its addressee by one name (issue 9, stop 31): "Dear Jonathan:"
or "Dear Ms. Holloway:" under an addressee block whose line names the person in full ("Mr.
Jonathan Reyes"). Before, only a greeting by the full name ("Dear Mara Quell,") bound the
person, and an employment or consulting letter lost its individual party. Names are invented."""

from __future__ import annotations

from ingest.letter_parties import letter_names
from tests.helpers import bound_party_names

EMPLOYMENT = (
    "LETTER AGREEMENT\n\nJune 5, 2018\n\nMr. Jonathan Reyes\n14 Birch Lane\nPalo Alto, CA 94301\n\n"
    "Dear Jonathan:\n\nThis letter agreement (the \"Agreement\") confirms the terms of your employment "
    "with Aldergrove Networks, Inc. (the \"Company\").\n\n1. Position.\n"
)


def test_a_given_name_greeting_binds_the_addressee_named_in_full() -> None:
    start = EMPLOYMENT.index("Jonathan Reyes")
    assert [(n.text, n.start, n.end) for n in letter_names(EMPLOYMENT)] == [("Jonathan Reyes", start, start + 14)]
    assert bound_party_names(EMPLOYMENT) == {"Jonathan Reyes", "Aldergrove Networks, Inc."}


def test_an_honorific_and_surname_greeting_binds_the_addressee() -> None:
    text = (
        "June 5, 2018\n\nMs. Karen T. Holloway\n14 Birch Lane\nPalo Alto, CA 94301\n\nDear Ms. Holloway:\n\n"
        "This letter agreement confirms the terms of your consulting engagement with Aldergrove "
        "Networks, Inc. (the \"Company\").\n\n1. Services.\n"
    )
    assert [n.text for n in letter_names(text)] == ["Karen T. Holloway"]


def test_every_honorific_of_the_lexicon_greets_the_addressee() -> None:
    # The honorifics come from legal_suffixes.json, not a list of the letter reader's own
    # ("Prof." was missing from that list).
    text = (
        "June 5, 2018\n\nProf. Elena Marsh\nDepartment of Chemistry\nBoston, MA 02115\n\nDear Prof. Marsh:\n\n"
        "This letter agreement confirms the terms of your advisory engagement with Aldergrove "
        "Networks, Inc. (the \"Company\").\n\n1. Services.\n"
    )
    start = text.index("Elena Marsh")
    assert [(n.text, n.start, n.end) for n in letter_names(text)] == [("Elena Marsh", start, start + 11)]


def test_a_contact_greeted_by_name_is_no_party() -> None:
    # "Attention: John Miller" is a contact line of the addressee block, not the addressee.
    text = (
        "June 5, 2018\n\nAldergrove Networks, Inc.\n14 Birch Lane\nAttention: John Miller\n\nDear John:\n\n"
        "This letter agreement confirms the terms of the supply by Birch Foods LLC (the \"Supplier\").\n\n1. Supply.\n"
    )
    assert [n.text for n in letter_names(text)] == ["Aldergrove Networks, Inc."]


def test_a_greeting_in_a_text_that_states_no_contract_names_nobody() -> None:
    text = "June 5, 2018\n\nMr. Jonathan Reyes\n14 Birch Lane\n\nDear Jonathan:\n\nThank you for your visit.\n"
    assert letter_names(text) == []
