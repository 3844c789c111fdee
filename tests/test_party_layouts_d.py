"""Party layouts the readers missed on real openings (issue 9, coverD), each written here with
invented names: a cover that stacks the parties one per line beside its title, a letter's
addressees listed with their company numbers, a civil-law opening's representatives "acting on
behalf of" the companies, a party clause in capitals joined by a lower-case "and", a prefixed role
("Sublandlord") as a party's term, and the filer's EDGAR label or "FOR VALUE RECEIVED" read as a
name. Negatives: stacks with no title beside them, chains with one company, "acting on behalf of"
a group, and names in capitals joined by a capital "AND" stay as they were.
"""

from __future__ import annotations

import pytest

from ingest.definitions import find_definitions
from ingest.names import NameSpan, lowercase_words, party_name_problem, prefixed_role, shouted_joint
from ingest.party_layout import _COVER_RUN_CHARS, _ITEM_LIMIT, layout_names
from tests.test_party_shapes_general import _bound_spans


def _laid_out(text: str) -> list[tuple[str, str, int]]:
    return [(n.name.text, n.shape, n.name.start) for n in layout_names(text, lowercase_words(text))]


def _at(text: str, name: str, shape: str) -> tuple[str, str, int]:
    assert text.count(name) == 1, name
    return name, shape, text.index(name)


def _span(text: str, source: str, through: str | None = None) -> tuple[int, int]:
    """The span of ``source``; with ``through``, up to the end of that text after it (a defined
    party's binding runs to its definition's close)."""
    assert text.count(source) == 1, source
    start = text.index(source)
    if through is None:
        return start, start + len(source)
    return start, text.index(through, start) + len(through)


# --- A cover stacking the parties one per line beside its title or date line ---

TITLE_STACK = (
    "Exhibit 10.4\n\nLicence Agreement\n\nDated 4 March 2011\n\nMarrowby Institute of Applied Research Organisation\n\n"
    "Quenda Biotech Holdings Limited ACN 000 111 222\n\nQuenda Limited ACN 000 333 444\n\nLicence Agreement\n\n"
    "Contents\n\n1 Interpretation 3\n"
)
STACK_OVER_TITLE = (
    "Exhibit 10.9\n\nTarrowin Limited\n\nBellcourt Assay Pty Ltd\n\nResearch Collaboration Agreement\n\n"
    "Ref: 1234/5678\n\nContents\n\n1 Interpretation 1\n"
)


def test_a_cover_stack_beside_its_title_binds_each_name() -> None:
    assert _laid_out(TITLE_STACK) == [
        _at(TITLE_STACK, "Marrowby Institute of Applied Research Organisation", "stack"),
        _at(TITLE_STACK, "Quenda Biotech Holdings Limited", "stack"),
        _at(TITLE_STACK, "Quenda Limited", "stack"),
    ]
    bound = _bound_spans(TITLE_STACK)
    # "Quenda Limited" is the parent, a party of its own, though its words sit inside the other's.
    assert bound == {
        "Marrowby Institute of Applied Research Organisation": _span(TITLE_STACK, "Marrowby Institute of Applied Research Organisation"),
        "Quenda Biotech Holdings Limited": _span(TITLE_STACK, "Quenda Biotech Holdings Limited"),
        "Quenda Limited": _span(TITLE_STACK, "Quenda Limited"),
    }


def test_a_cover_stack_over_its_title_binds_each_name() -> None:
    assert _bound_spans(STACK_OVER_TITLE) == {
        "Tarrowin Limited": _span(STACK_OVER_TITLE, "Tarrowin Limited"),
        "Bellcourt Assay Pty Ltd": _span(STACK_OVER_TITLE, "Bellcourt Assay Pty Ltd"),
    }


@pytest.mark.parametrize(
    "text",
    [
        # No title or date line beside the stack: a notice list, not a cover.
        "SUPPLY AGREEMENT\n\nThis Agreement is made between the parties below.\n\nNotices go to:\n"
        "Harwick Freight Limited\nOsgood Carriers Limited\nSuite 4, 10 Dock Road\n",
        # One company alone beside the title is a letterhead, not a stack.
        "Pellin Works Limited\n\nSupply Agreement\n\nContents\n",
        # Organisations by their head noun only, none with a legal form: a heading pair.
        "Grant Agreement\n\nWestmoor Research Foundation\nEastmoor Medical Institute\n\nContents\n",
    ],
)
def test_stacks_without_a_title_or_a_legal_form_are_not_read(text: str) -> None:
    assert [s for _, s, _ in _laid_out(text) if s == "stack"] == []


def test_a_stack_is_read_on_the_first_page_only() -> None:
    padding = "Pages of the schedule follow here.\n" * (_COVER_RUN_CHARS // 34 + 1)
    late = padding + "\nLicence Agreement\n\nTarrowin Limited\n\nBellcourt Assay Pty Ltd\n\nContents\n"
    assert [s for _, s, _ in _laid_out(late) if s == "stack"] == []


# --- A letter's addressees listed with their company numbers ---

ADDRESSEES = (
    "Westray Bank plc\n1 Market Row\nLeeds\n\n"
    "The Directors\n"
    "ORMAND GROUP LIMITED (Registered No.:100001), FALWORTH\n"
    "CIRCUITS LIMITED (Registered No.: 100002), ORMAND TOOLING LIMITED (Registered No.:\n"
    "100003), KESTOW\nDESIGNS & PRINT LIMITED\n(Registered No.: 100004) and\n"
    "ORMAND SALES LIMITED (Registered No.: 100005)\n"
    "Each with its registered office at:\n2 Mill Lane\nLeeds\n\n"
    "1 June 2004\n\nDear Sirs\n\nFACILITY LETTER\n\nWe are pleased to offer you (each a \"Borrower\") a facility "
    "on the terms of this letter agreement.\n"
)


def test_addressees_closed_by_company_numbers_are_each_a_party() -> None:
    assert [n for n in _laid_out(ADDRESSEES) if n[1] == "stack"] == [
        _at(ADDRESSEES, "ORMAND GROUP LIMITED", "stack"),
        _at(ADDRESSEES, "FALWORTH\nCIRCUITS LIMITED", "stack"),
        _at(ADDRESSEES, "ORMAND TOOLING LIMITED", "stack"),
        _at(ADDRESSEES, "KESTOW\nDESIGNS & PRINT LIMITED", "stack"),
        _at(ADDRESSEES, "ORMAND SALES LIMITED", "stack"),
    ]
    # "The Directors" above the list is an attention line, no part of the first name.
    assert all(not name.startswith("The") for name, _, _ in _laid_out(ADDRESSEES))


@pytest.mark.parametrize(
    "text",
    [
        # One company with its number is a registered office line, not a list of addressees.
        "The Directors\nORMAND GROUP LIMITED (Registered No.: 100001)\n2 Mill Lane\nLeeds\n\nFACILITY LETTER\n",
        # Names joined by prose, not by a comma or "and", are no chain.
        "ORMAND GROUP LIMITED (Registered No.: 100001) guarantees the debts of ORMAND SALES LIMITED "
        "(Registered No.: 100005)\n",
    ],
)
def test_a_single_registered_name_is_no_chain(text: str) -> None:
    assert [s for _, s, _ in _laid_out(text) if s == "stack"] == []


def test_a_chain_holds_at_most_the_item_limit() -> None:
    # One name a line, so that only the chain reads them (a line of two is a cover run): the
    # chain stops at the limit, and the one name left over is no chain of its own.
    names = ",\n".join(f"ORMAND {chr(65 + i)}{chr(65 + i)} LIMITED (Registered No.: {100000 + i})" for i in range(_ITEM_LIMIT + 1))
    text = "The Directors\n" + names + "\n\nFACILITY LETTER\n"
    read = [n for n, s, _ in _laid_out(text) if s == "stack"]
    assert len(read) == _ITEM_LIMIT
    assert read[-1] == f"ORMAND {chr(64 + _ITEM_LIMIT)}{chr(64 + _ITEM_LIMIT)} LIMITED"


def test_a_chain_is_read_on_the_first_page_only() -> None:
    chain = "ORMAND GROUP LIMITED (Registered No.: 100001),\nORMAND SALES LIMITED (Registered No.: 100005)\n"
    at_bound = "x" * (_COVER_RUN_CHARS - 1) + "\n" + chain
    before = "x" * (_COVER_RUN_CHARS - 2) + "\n" + chain
    assert [n for n, s, _ in _laid_out(before) if s == "stack"] == ["ORMAND GROUP LIMITED", "ORMAND SALES LIMITED"]
    assert [n for n, s, _ in _laid_out(at_bound) if s == "stack"] == []


# --- A civil-law opening's representatives acting on behalf of the companies ---

ACTING_FOR = (
    "Exhibit 10.2\nEXCLUSIVE SUPPLY AGREEMENT\nIn Osaka, on March 3, 2015.\nPARTIES\n"
    "On the one hand, Mr. Kenji Arata, of full legal age, acting in representation and on behalf of Hoshida "
    "Kogyo Co. Ltd. (hereinafter Hoshida or the Supplier), with its registered office at 1-2-3 Kita, Osaka; in "
    "his capacity as president.\n"
    "And on the other hand, Ms. Dana Prewitt, of full legal age, acting in the name and on behalf of Larchmont "
    "Goods, Inc. (hereinafter Larchmont or the Distributor), with its registered office at 9 Elm Road, "
    "Portland, Oregon; in her capacity as chief executive.\n"
    "WHEREAS\nI. Hoshida makes the products.\n"
)


def test_the_companies_representatives_act_for_are_the_parties() -> None:
    assert _bound_spans(ACTING_FOR) == {
        "Hoshida Kogyo Co. Ltd.": _span(ACTING_FOR, "Hoshida Kogyo Co. Ltd."),
        "Larchmont Goods, Inc.": _span(ACTING_FOR, "Larchmont Goods, Inc."),
    }


def test_acting_on_behalf_of_a_group_or_after_the_recitals_names_no_party() -> None:
    text = (
        "AGENCY AGREEMENT\nThis Agreement is made between Pellow Bank plc (the \"Agent\") and Quarry Lane "
        "Holdings Inc. (the \"Company\").\nWHEREAS the Agent, acting on behalf of the Lenders (as defined), and "
        "Jane Roe, acting on behalf of Osric Media Ltd. (\"Osric\"), met.\n"
    )
    assert set(_bound_spans(text)) == {"Pellow Bank plc", "Quarry Lane Holdings Inc."}


# --- A party clause in capitals joined by a lower-case "and" ---

SHOUTED = (
    "CONSULTING AGREEMENT\nThis Agreement is made and entered into effect May 2, 2016 by and between THE "
    "HALVERSON DESIGN GROUP and PERRIN LABS, INC. (\"PERRIN LABS\").\n1. THE HALVERSON DESIGN GROUP shall serve "
    "as consultant to PERRIN LABS.\n"
)


def test_a_lower_case_and_between_names_in_capitals_joins_two_parties() -> None:
    bound = _bound_spans(SHOUTED)
    assert set(bound) == {"THE HALVERSON DESIGN GROUP", "PERRIN LABS, INC."}
    assert bound["PERRIN LABS, INC."] == _span(SHOUTED, "PERRIN LABS, INC.", '("PERRIN LABS")')


def test_shouted_joint_splits_only_names_in_capitals_around_a_lower_case_and() -> None:
    joined = NameSpan("THE HALVERSON DESIGN GROUP and PERRIN LABS, INC.", 10, 58)
    assert shouted_joint(joined) == NameSpan("PERRIN LABS, INC.", 41, 58)
    # A capital "AND" is part of a name in capitals; a name in title case keeps its "and".
    assert shouted_joint(NameSpan("HARBOUR AND QUAY HOLDINGS LIMITED", 0, 33)) is None
    assert shouted_joint(NameSpan("Pellow and Vine Holdings Limited", 0, 32)) is None
    # Neither side with a legal form: no evidence of two parties.
    assert shouted_joint(NameSpan("ALDER GROUP and BIRCH WORKS", 0, 27)) is None


# --- A prefixed role as a party's term; a filer's label and "FOR VALUE RECEIVED" as names ---

SUBLEASE = (
    "EX-10.9 4 quill-ex10-9.txt EXHIBIT 10.9 SUBLEASE AGREEMENT 10 Harbour Street Boston, Massachusetts THIS "
    "SUBLEASE AGREEMENT, (the \"Sublease\") is entered into as of the 2nd day of May, 2003, by and between THE "
    "WESTLAKE MUTUAL ASSURANCE COMPANY, a Vermont corporation, (\"Sublandlord\") and Orrin Data Group, Inc., a "
    "Delaware corporation (\"Subtenant\"). WHEREAS, Sublandlord is the tenant of the Premises.\n"
)


def test_a_prefixed_role_defines_a_party_and_the_filer_label_is_none() -> None:
    assert _bound_spans(SUBLEASE) == {
        "THE WESTLAKE MUTUAL ASSURANCE COMPANY": _span(SUBLEASE, "THE WESTLAKE MUTUAL ASSURANCE COMPANY", '("Sublandlord")'),
        "Orrin Data Group, Inc.": _span(SUBLEASE, "Orrin Data Group, Inc.", '("Subtenant")'),
    }
    sublandlord = next(d for d in find_definitions(SUBLEASE) if d.term == "Sublandlord")
    assert sublandlord.is_party_alias


def test_prefixed_role_reads_the_role_after_its_prefix() -> None:
    roles = ["Landlord", "Borrower", "Tenant"]
    assert prefixed_role("Sublandlord", roles)
    assert prefixed_role("Co-Borrower", roles)
    assert not prefixed_role("Landlord", roles)
    assert not prefixed_role("Subsidiary", roles)


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("EX-10.9 4", "filing label"),
        ("EX-99.1", "filing label"),
        ("FOR VALUE RECEIVED", "clause"),
        ("Exley Partners LLC", None),
        ("EX-7 Holdings Inc.", None),
    ],
)
def test_a_filer_label_and_a_note_lead_are_no_names(name: str, problem: str | None) -> None:
    assert party_name_problem(name) == problem
