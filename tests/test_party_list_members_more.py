"""Members of a party list and the next member after a comma (issue 9, stop 33; names invented).

- "Dennis R. Pulaski, Patricia A. Pulaski-Moore and The Pulaski 2012 Irrevocable Trust (each a
  "Seller" ...)": a double-barrelled surname is a person's name, a trust is a member by its head
  noun, and the reading over the list's last "and" is split at it. Before, only Dennis R. Pulaski
  was a party.
- ", the Marlow Springs Economic Development Corporation, a Type A economic development
  corporation organized under Chapter 504 of the Texas Local Government Code ("MSEDC")": "the"
  and a capitalised name after a comma open the next member. Before, "MSEDC" defined "Texas Local
  Government Code", which became a party.
"""

from __future__ import annotations

from ingest.annotate import _person_before_and, _personal_name
from ingest.definitions import find_definitions
from ingest.names import NameSpan
from tests.helpers import bound_party_aliases

SELLERS = (
    "MEMBERSHIP INTEREST PURCHASE AGREEMENT\n\nThis Agreement is made as of July 31, 2019, by and among Oakhurst "
    "Environmental Services, Inc., a Delaware corporation (\"Buyer\"), Dennis R. Pulaski, Patricia A. "
    "Pulaski-Moore and The Pulaski 2012 Irrevocable Trust (each a \"Seller\" and collectively the \"Sellers\"), "
    "and Pulaski Septic & Drain, L.L.C., a Wisconsin limited liability company (the \"Company\").\n\nRECITALS\n"
)


def test_every_member_of_a_list_with_a_trust_and_a_double_barrelled_name_is_a_party() -> None:
    assert bound_party_aliases(SELLERS) == {
        "Dennis R. Pulaski": [],
        "Oakhurst Environmental Services, Inc.": ["Buyer"],
        "Patricia A. Pulaski-Moore": [],
        "Pulaski Septic & Drain, L.L.C.": ["Company"],
        "The Pulaski 2012 Irrevocable Trust": [],
    }


def test_a_persons_name_may_hold_a_hyphen_or_an_apostrophe_but_no_digit() -> None:
    assert _personal_name("Patricia A. Pulaski-Moore")
    assert _personal_name("Liam O'Brien")
    assert not _personal_name("Pulaski 2012 Trust")
    assert not _personal_name("Patricia A. -Moore")


def test_a_reading_over_the_lists_and_is_split_only_before_a_member_of_its_own() -> None:
    whole = "Patricia A. Pulaski-Moore and The Pulaski 2012 Irrevocable Trust"
    assert _person_before_and(NameSpan(whole, 10, 10 + len(whole))) == NameSpan("Patricia A. Pulaski-Moore", 10, 35)
    # A firm named after its founder and his sons stays one name; so does a pair of persons,
    # which the list reader counts as two.
    for one in ("John Smith and Sons Ltd.", "Mary Jones and Robert Lee"):
        assert _person_before_and(NameSpan(one, 0, len(one))) == NameSpan(one, 0, len(one))


def test_the_and_a_capitalised_name_after_a_comma_open_the_next_member() -> None:
    text = (
        "ECONOMIC DEVELOPMENT AGREEMENT\n\nThis Agreement is entered into by and among the City of Marlow Springs, "
        "a Texas home-rule municipality (\"City\"), the Marlow Springs Economic Development Corporation, a Type A "
        "economic development corporation organized under Chapter 504 of the Texas Local Government Code "
        "(\"MSEDC\"), and Thornbury Fulfillment Centers, LLC, a Delaware limited liability company (\"Company\").\n"
    )
    msedc = next(d for d in find_definitions(text) if d.term == "MSEDC")
    start = text.index("Marlow Springs Economic")
    assert (msedc.name.text, msedc.name.start) == ("Marlow Springs Economic Development Corporation", start)
    assert bound_party_aliases(text) == {
        "City of Marlow Springs": ["City"],
        "Marlow Springs Economic Development Corporation": ["MSEDC"],
        "Thornbury Fulfillment Centers, LLC": ["Company"],
    }


def test_a_description_after_a_comma_still_describes_the_previous_member() -> None:
    # Guard: ", the sole member of ..." is lower case after "the": no new member.
    text = (
        "SERVICES AGREEMENT\n\nThis Agreement is made between Quill Labs LLC, the sole member of which is Harbor "
        "Holdings, Inc. (\"Quill\"), and Sun Harbor Trading LLC (\"Sun\").\n"
    )
    assert bound_party_aliases(text)["Quill Labs LLC"] == ["Quill"]


def test_a_definition_alone_under_a_paragraph_defines_the_paragraph_above() -> None:
    # A party block laid out in paragraphs (Canadian drafting): each name and its description,
    # a blank line, then its definition alone. Before, "Purchaser" and "Principal" defined the
    # "Province of Ontario" their descriptions end with, and the limited partnership lost
    # "Vendor" to the general partner it acts by.
    text = (
        "ASSET PURCHASE AGREEMENT\n\nTHIS ASSET PURCHASE AGREEMENT is made as of the 15th day of April, 2021,\n\n"
        "B E T W E E N:\n\nNORTHSHORE BREWING LIMITED PARTNERSHIP, a limited partnership formed under the laws of "
        "the Province of Ontario, by its general partner, NORTHSHORE BREWING GP INC.\n\n(the \"Vendor\")\n\n"
        "- and -\n\nLAKEHEAD BEVERAGE CORP., a corporation incorporated under the laws of the Province of "
        "Ontario\n\n(the \"Purchaser\")\n\n- and -\n\nGAVIN R. McTAVISH, an individual resident in the City of "
        "Thunder Bay, in the Province of Ontario\n\n(the \"Principal\")\n\nRECITALS:\n"
    )
    names = {d.term: (d.name.text, d.name.start) for d in find_definitions(text) if d.name is not None}
    assert names["Vendor"] == ("NORTHSHORE BREWING LIMITED PARTNERSHIP", text.index("NORTHSHORE BREWING LIMITED"))
    assert names["Purchaser"] == ("LAKEHEAD BEVERAGE CORP.", text.index("LAKEHEAD"))
    assert names["Principal"] == ("GAVIN R. McTAVISH", text.index("GAVIN"))
    assert bound_party_aliases(text) == {
        "GAVIN R. McTAVISH": ["Principal"],
        "LAKEHEAD BEVERAGE CORP.": ["Purchaser"],
        "NORTHSHORE BREWING LIMITED PARTNERSHIP": ["Vendor"],
    }


def test_a_name_after_the_laws_of_is_never_a_definitions_antecedent() -> None:
    # Guard: on one line the company before the description already owns the definition.
    text = (
        "SUPPLY AGREEMENT\n\nThis Agreement is made between Tiger Capital Inc. (\"Tiger\") and Lakehead Beverage "
        "Corp., a corporation incorporated under the laws of the Commonwealth of Kestrel (the \"Buyer\").\n"
    )
    buyer = next(d for d in find_definitions(text) if d.term == "Buyer")
    assert (buyer.name.text, buyer.name.start) == ("Lakehead Beverage Corp.", text.index("Lakehead"))
