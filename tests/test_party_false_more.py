"""False parties, more shapes (issue 9, precision): role and class nouns, a defined thing's
antecedent, a table of contents' headings, addresses, a filing's redaction placeholders, law
firms and a party's term joined to a name. Invented names, the real spaCy pipeline; each case
asserts the exact reason or the exact names bound, and a near miss that stays a party.
"""

from __future__ import annotations

import pytest

from ingest.definitions import find_definitions
from ingest.names import NameSpan, contents_entry, names_a_thing, party_name_problem
from tests.helpers import bound_party_names

PROBLEMS: list[tuple[str, str | None]] = [
    # A class of people, alone or described by the company they hold.
    ("THE PERSONS", "role"),
    ("THE SHAREHOLDERS OF QUILLFORD SYSTEMS LTD.", "role"),
    ("The Members of Wrenfield Holdings LLC", "role"),
    # A role made another role by a modifier or a prefix.
    ("Master Landlord", "role"),
    ("Sublandlord", "role"),
    ("Co-Borrower", "role"),
    # ... but a modifier alone is no role, and a name after a class word without "of" stays.
    ("Master", None),
    ("Shareholder Services Corp.", None),
    ("The Regents of the University of Westland", None),
    # A number named by an organisation's head noun is a company (stop 23); with a street or
    # building word it stays an address.
    ("THE 1010 COMPANY", None),
    ("1010 Harbour Street", "address"),
    ("12 Harbour Building", "address"),
    # A filing's placeholders over a redacted name or street.
    ("Xxx Xxxxx", "redacted"),
    ("Xxxxxxxx Xxxxxxxxx", "redacted"),
    ("Xerxes Xu", None),
    # Addresses: a postal code after "D.C.", a street number and street word before a legal
    # form's letters, a town with its country code, a street written as one word.
    ("D.C. 20006", "address"),
    ("412 Larkspur Drive, SE", "address"),
    ("Kestelbach/DE", "address"),
    ("Wrenveien", "address"),
    ("Quillalleen", "address"),
    # ... but a numbered company is no address, nor a name merely holding a street ending.
    ("4412090 B.C. Ltd.", None),
    ("Norvegen Shipping AS", None),
    # A label or a defined sum, and a thing alone.
    ("Sublease Date", "thing"),
    ("Improvement Fee.", "thing"),
    ("FACILITY", "thing"),
    ("Harbour Products", None),
    # A law firm named on a cover or in a notice.
    ("Messrs Quillan & Co Advocates & Solicitors", "adviser"),
    ("Wrenfield Barristers LLP", "adviser"),
    ("Solis Advisory LLP", None),
]


@pytest.mark.parametrize(("name", "reason"), PROBLEMS)
def test_party_name_problem_reason(name: str, reason: str | None) -> None:
    assert party_name_problem(name) == reason


def test_a_defined_thing_names_no_party() -> None:
    assert names_a_thing("Offering Price")
    assert names_a_thing("the Building")
    assert not names_a_thing("Collateral Agent")
    text = (
        'Quillmark Capital Corp. ("QCC") agrees to sell up to 1,000 shares at a price of $1.00 per '
        'Offered Share (the "Offering Price").\n'
    )
    terms = {d.term: d.is_party_alias for d in find_definitions(text)}
    assert terms == {"QCC": True, "Offering Price": False}


def test_contents_entries_are_headings() -> None:
    text = "TABLE OF CONTENTS\nSECTION 1. DEFINITIONS; PLEDGE OF SHARES............ 1\n"
    first = text.index("DEFINITIONS")
    second = text.index("PLEDGE OF SHARES")
    assert contents_entry(text, NameSpan("DEFINITIONS", first, first + len("DEFINITIONS")))
    assert contents_entry(text, NameSpan("PLEDGE OF SHARES", second, second + len("PLEDGE OF SHARES")))
    # The leader is looked for within 80 characters of the heading's end: past that, no entry.
    far = "TABLE\nQUILL HOLDINGS LIMITED" + " x" * 45 + "...... 1\n"
    start = far.index("QUILL")
    assert not contents_entry(far, NameSpan("QUILL HOLDINGS LIMITED", start, start + 22))
    prose = "This Agreement is made between Quill Holdings Limited and Wren Bank plc.\n"
    start = prose.index("Quill")
    assert not contents_entry(prose, NameSpan("Quill Holdings Limited", start, start + 22))


def test_sublease_key_provisions_bind_their_parties_and_no_role() -> None:
    text = (
        "SUBLEASE\nKEY PROVISIONS\n|Sublease Date:\n|March 3, 2021\n|Sublandlord:\n"
        "|QUILLFORD CLINICS, INC., a Georgia corporation\n|Subtenant:\n|WRENSTONE MD, INC., a Nevada corporation\n"
        "|Master Landlord:\n|HARBOUR MOB II, LLC, a Georgia limited liability company\n|Master Lease:\n"
        "|Lease between Master Landlord, as landlord, and Sublandlord, as tenant, dated June 1, 2015.\n"
    )
    # The roles in the master lease's line are no parties; the label rows of the sublease's own
    # parties bind their values (stop 23: "Sublandlord"/"Subtenant" are label roles), the master
    # landlord's row (a party of another lease) binds no one.
    assert bound_party_names(text) == {"QUILLFORD CLINICS, INC.", "WRENSTONE MD, INC."}


def test_a_recitals_joined_term_binds_no_other_party() -> None:
    text = (
        "PLEDGE AGREEMENT\n\nThis PLEDGE AGREEMENT is made by Quill Warehouse Trust 2020-1, a Delaware "
        'statutory trust (the "Grantor"), in favor of WRENFIELD GROUP, LLC, a Delaware limited liability '
        'company (the "Secured Party").\n\nRecitals\n\nThe Secured Party has entered into a letter agreement '
        'between the Secured Party and Harbour Credit Services, Inc. ("HCS").\n'
    )
    assert bound_party_names(text) == {"Quill Warehouse Trust 2020-1", "WRENFIELD GROUP, LLC"}


def test_a_covers_redacted_address_binds_no_party() -> None:
    # With one company and a class of investors, the model's fallback reads the clause's names:
    # the placeholders over the redacted address are none.
    text = (
        "SUPPLEMENTAL AGREEMENT\nBETWEEN:\n(1) | QUILLON TECHNOLOGIES PTE. LTD. (Company Registration No. "
        "201400001W), a company incorporated under the laws of Singapore, with its registered address at "
        '00 Xxxxx Xxxxxxx, #00-00, Xxxxxxxxx 000000 (the "Company"); and | |\n(2) | THE PERSONS '
        'WHOSE NAMES ARE SET OUT IN SCHEDULE 1 (collectively, the "Investors").\n'
    )
    assert bound_party_names(text) == {"QUILLON TECHNOLOGIES PTE. LTD."}


def test_an_enumerated_last_party_is_the_terms_antecedent() -> None:
    # "and (ii) X ..., hereinafter called "Lessee"": the enumerator opens the next party; the
    # trustee named before it is no antecedent.
    text = (
        "by and between (i) Wrenfield Square 12 Limited Liability Company, a District of Columbia limited "
        'liability company, hereinafter called "Lessor," as successor in interest to The Wrenfield Associates, '
        "and Quill Editors, Inc., Trustee, the owners of record, and (ii) Harlan, Webb & Oster, Inc. a "
        'Massachusetts corporation, hereinafter called "Lessee." WITNESSETH: '
    )
    antecedents = {d.term: d.name.text if d.name else None for d in find_definitions(text)}
    assert antecedents == {
        "Lessor": "Wrenfield Square 12 Limited Liability Company",
        "Lessee": "Harlan, Webb & Oster, Inc.",
    }


def test_a_cover_joint_over_a_known_party_splits_the_names() -> None:
    # The prose's second definition is spaced apart and not read; the cover's "X And Y" read as
    # one name ran over into the known party's name: the name before the joint is the other party.
    text = (
        "OFFICIAL SPONSORSHIP AGREEMENT Between THE UNIVERSITY OF WESTLAND And QUILLFIELD MANAGEMENT, LP "
        'THIS SPONSORSHIP AGREEMENT ( the " Agreement") is made and entered into as of the last date written '
        'below ( the " Effective Date") by and between Quillfield Management, LP (" QMLP") and the University '
        'of Westland ( the " Sponsor"). The Sponsor and QMLP may be referred to individually as " Party".\n'
    )
    assert bound_party_names(text) == {"Quillfield Management, LP", "University of Westland"}


@pytest.mark.parametrize(("gap", "entry"), [(80, True), (81, False)])
def test_a_dot_leader_counts_up_to_80_characters_after_the_heading(gap: int, entry: bool) -> None:
    text = "TABLE\nQUILL HOLDINGS LIMITED" + "x" * gap + "....... 1\n"
    start = text.index("QUILL")
    assert contents_entry(text, NameSpan("QUILL HOLDINGS LIMITED", start, start + 22)) is entry


@pytest.mark.parametrize(("spaces", "entry"), [(10, True), (11, False)])
def test_a_section_number_counts_within_20_characters_before_the_heading(spaces: int, entry: bool) -> None:
    # "SECTION 1." (10 characters) and the spaces after it must fit the 20 characters looked at.
    text = "CONTENTS\nSECTION 1." + " " * spaces + "GRANT OF SECURITY\n"
    start = text.index("GRANT")
    assert contents_entry(text, NameSpan("GRANT OF SECURITY", start, start + 17)) is entry
