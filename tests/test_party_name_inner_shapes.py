"""Party names whose inner words looked like an end or an address (issue 9, stop 31): a firm's
"& Co." inside a longer name ("Fizz & Co. Beverages, LLC"; before, the name ended at "Co."), a
company named for its building ("1200 MARKET STREET ASSOCIATES, LLC"; before, the street number and
street word made it an address and the party lost its number), and persons with a middle initial
closing a group list after a description of their relation ("Daniel K. Ortega and Priya Raman, the
members of Seller (each, a "Member" ..."; before, the initial made no person's shape and the
description broke the list), and a university's place after "in" ("Washington University in St.
Louis"; before, the name ended at "University"). Names are invented, universities apart."""

from __future__ import annotations

import pytest

from ingest.names import name_at, party_name_forms, party_name_problem
from tests.helpers import bound_party_aliases, bound_party_names


def _between(first: str, second: str) -> str:
    return (
        "TRADEMARK LICENSE AGREEMENT\n\nThis Trademark License Agreement is entered into as of October 1, "
        f"2012 by and between {first}, an Ohio corporation (\"Licensor\"), and {second}, an Ohio "
        "limited liability company (\"Licensee\").\n\nRECITALS\n"
    )


def test_an_ampersand_co_inside_a_longer_name_is_a_word_of_it() -> None:
    text = _between("The Coca-Cola Bottling Company of Northern Ohio", "Fizz & Co. Beverages, LLC")
    assert bound_party_names(text) == {"The Coca-Cola Bottling Company of Northern Ohio", "Fizz & Co. Beverages, LLC"}


def test_an_ampersand_co_before_a_comma_still_ends_its_name() -> None:
    text = (
        "UNDERWRITING AGREEMENT\n\nThis Agreement is made between Harbor Light Inc. (\"Company\") and "
        "Goldman Sachs & Co. LLC (\"Underwriter\").\n\n1. Shares\n"
    )
    assert bound_party_names(text) == {"Harbor Light Inc.", "Goldman Sachs & Co. LLC"}


def test_a_company_named_for_its_building_is_a_party() -> None:
    text = _between("1200 MARKET STREET ASSOCIATES, LLC", "CLEARPATH DIAGNOSTICS, INC.")
    assert bound_party_names(text) == {"1200 MARKET STREET ASSOCIATES, LLC", "CLEARPATH DIAGNOSTICS, INC."}


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("1200 MARKET STREET ASSOCIATES, LLC", None),
        ("200 Park Avenue Partners, L.P.", None),
        ("751 Miller Drive, SE", "address"),
        ("751 Miller Drive SE", "address"),
        ("508 Island Ave. Reno NV", "address"),
        ("508 Island Ave. Reno, NV", "address"),
        ("100 Main Street Suite 200 LLC", "address"),
    ],
)
def test_street_shaped_names(name: str, problem: str | None) -> None:
    assert party_name_problem(name) == problem


def test_persons_with_initials_after_a_relation_description_close_a_group_list() -> None:
    text = (
        "ASSET PURCHASE AGREEMENT\n\nThis Asset Purchase Agreement (this \"Agreement\") is entered into as "
        "of November 2, 2017, by and among Cedar Ridge Software, Inc., a Washington corporation "
        "(\"Buyer\"), Bitwise Solutions LLC, an Oregon limited liability company (\"Seller\"), and Daniel "
        "K. Ortega and Priya Raman, the members of Seller (each, a \"Member\" and together, the "
        "\"Members\").\n\nRECITALS\n"
    )
    assert bound_party_names(text) == {
        "Cedar Ridge Software, Inc.", "Bitwise Solutions LLC", "Daniel K. Ortega", "Priya Raman",
    }


@pytest.mark.parametrize(
    "university",
    ["The Trustees of Columbia University in the City of New York", "Washington University in St. Louis"],
)
def test_a_universitys_place_after_in_is_part_of_its_name(university: str) -> None:
    text = (
        "SPONSORED RESEARCH AGREEMENT\n\nThis Sponsored Research Agreement is entered into as of January 1, "
        f"2021 by and between {university}, a not-for-profit corporation (\"University\"), and Helix Edge "
        "Therapeutics, Inc. (\"Sponsor\").\n\nBACKGROUND\n"
    )
    assert bound_party_names(text) == {university, "Helix Edge Therapeutics, Inc."}
    found = name_at(text, text.index(university), len(text))
    assert (found.text, found.end) == (university, text.index(university) + len(university))


def test_a_place_after_in_ends_other_names() -> None:
    # Only a university or college takes its place; a company "based in Boston" does not.
    text = "Kestrel Bio Group in Boston, a Delaware corporation"
    assert name_at(text, 0, len(text)).text == "Kestrel Bio Group"


def test_a_universitys_initials_define_it_with_its_place() -> None:
    text = (
        "LICENSE AGREEMENT\n\nThis Agreement is made by and between Washington University in St. Louis, a "
        "Missouri nonprofit corporation (\"WU\"), and Kestrel Bio, Inc. (\"Licensee\").\n\n1. Grant\n"
    )
    assert bound_party_aliases(text) == {"Washington University in St. Louis": ["WU"], "Kestrel Bio, Inc.": ["Licensee"]}


ENDORSEMENT = (
    "ENDORSEMENT AGREEMENT\n\nThis Endorsement Agreement is made as of May 1, 2019 between Velocity Sports "
    "Inc. (the \"Company\") and Marcus {open}Flash{close} Thompson (the \"Athlete\").\n\n1. Endorsement.\n"
)


@pytest.mark.parametrize(("open_quote", "close_quote"), [('"', '"'), ("\u201c", "\u201d")])
def test_a_nickname_in_quotes_is_inside_a_persons_name(open_quote: str, close_quote: str) -> None:
    # Stop 32: before, the name ended at the quote and the party was "Marcus", aliased "Athlete".
    text = ENDORSEMENT.format(open=open_quote, close=close_quote)
    written = f"Marcus {open_quote}Flash{close_quote} Thompson"
    start = text.index("Marcus")
    name = name_at(text, start, len(text))
    assert (name.text, name.start, name.end) == (written, start, start + len(written))
    # (The party's name is read with straight quotes; the curly spelling has the same key.)
    aliases = bound_party_aliases(text)
    assert set(aliases) == {"Velocity Sports Inc.", 'Marcus "Flash" Thompson'}
    person = aliases['Marcus "Flash" Thompson']
    # The person is also asked for without the nickname; no form drops the surname.
    assert {"Marcus Thompson", "Athlete"} <= set(person) and "Marcus" not in person


def test_a_nickname_needs_a_surname_after_it_and_no_company_takes_one() -> None:
    # A quoted word closing a name is a definition's term, not a nickname ("Acme Inc. "Acme""
    # and 'Jane Roe "Executive" and' end before the quote); a company keeps its own name.
    assert name_at('Jane Roe "Executive" and Acme', 0, 29).text == "Jane Roe"
    assert name_at('Kestrel Foods LLC "Buyer" Harbor', 0, 32).text == "Kestrel Foods LLC"
    # An organisation's head word after the quotes makes it a company's name with a term.
    assert name_at('Harbour "Blue" Trust and', 0, 24).text == "Harbour"


def test_the_name_without_the_nickname_is_the_entity_ids() -> None:
    from ingest.normalize import normalise_person

    assert party_name_forms('Dr. Marcus "Flash" Thompson') == [
        'Dr. Marcus "Flash" Thompson', 'Marcus "Flash" Thompson', "Marcus Thompson",
    ]
    assert normalise_person("Marcus \u201cFlash\u201d Thompson") == normalise_person("Marcus Thompson") == "marcus thompson"


def test_a_nickname_is_read_only_within_its_bounds() -> None:
    # At the bounds: a nickname of two words after a given name of two words reads on to the
    # surname; a third quoted word, or a third given name, is no nickname's shape.
    assert name_at('Mary Ann "Big Mac" Jones and', 0, 28).text == 'Mary Ann "Big Mac" Jones'
    assert name_at('Mary Ann "Big Mac Daddy" Jones and', 0, 34).text == "Mary Ann"
    assert name_at('Mary Ann Lee "Flash" Jones and', 0, 30).text == "Mary Ann Lee"
