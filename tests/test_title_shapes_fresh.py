"""Agreement title shapes that the second, held-out probe (``bench/title_shapes.py --fresh``,
``bench/data/title_shapes_fresh.json``, written before reading CUAD texts) found failing on
main, and the three defects noticed earlier (a multi-line amendment title kept its newlines, a
statement of work took its parent's date, a memo headed "Office Lease" became an agreement).
Each with its exact title and span, and the ``amends`` / ``schedule_of`` reading where there is
one."""

from __future__ import annotations

from ingest.agreements import (
    agreement_date,
    agreement_names,
    amendment_of,
    has_agreement_preamble,
    not_a_contract,
    parent_amendment,
)
from service.evidence.titles import amendment_key

PREAMBLE = (
    ' (this "Agreement") is made as of September 12, 2016 by and between Northwind Technologies Corp. ("Northwind")'
    ' and Pelican Data Systems Ltd. ("Pelican").\n\n1. DEFINITIONS\n'
)


def _title(text: str) -> tuple[str, int, int] | None:
    title, _ = agreement_names(text)
    return (title.text, title.start, title.end) if title else None


def _relation(text: str) -> tuple[str, str | None, int, int] | None:
    title, aliases = agreement_names(text)
    assert title is not None
    read = parent_amendment(title, aliases, text)
    return (read[0].relation, read[0].parent, read[1], read[2]) if read else None


def test_a_spelled_number_after_number_is_the_amendments_number() -> None:
    amendment = amendment_of("Amendment Number Two to the Hosting Agreement")
    assert amendment is not None
    assert (amendment.number, amendment.parent) == ("two", "Hosting Agreement")
    # The gate compares it alike with the other ways of writing the second amendment.
    assert amendment_key("Amendment Number Two to the Hosting Agreement") == amendment_key(
        "Second Amendment to Hosting Agreement"
    )
    assert amendment_key("Amendment Number Two to the Hosting Agreement") != amendment_key(
        "Amendment No. 3 to the Hosting Agreement"
    )
    # "two" alone after the word is prose, not a number.
    assert amendment_of("Amendment two").number is None  # type: ignore[union-attr]


def test_an_appendix_naming_its_parent_is_titled_by_that_line() -> None:
    text = "APPENDIX 2 TO MASTER LICENSE AGREEMENT\n\nSUPPORT LEVELS\n\n1. Response times are set out below.\n"
    assert _title(text) == ("APPENDIX 2 TO MASTER LICENSE AGREEMENT", 0, 38)
    assert _relation(text) == ("schedule_of", "MASTER LICENSE AGREEMENT", 0, 38)
    # An appendix label over a title of its own stays page furniture.
    text = "APPENDIX C SAMPLE OF SERVICES AGREEMENT\n\nThis Services Agreement" + PREAMBLE
    assert _title(text) == ("SAMPLE OF SERVICES AGREEMENT", 11, 39)


def test_governed_by_names_the_parent_of_a_statement_of_work() -> None:
    text = (
        "Statement of Work #3\n\nThis Statement of Work #3 (\"SOW\") is issued under and governed by the Master"
        " Services Agreement dated June 1, 2018 between Northwind Technologies Corp. and Pelican Data Systems Ltd.\n"
    )
    assert _title(text) == ("Statement of Work #3", 0, 20)
    start = text.index("Master Services Agreement")
    assert _relation(text) == ("schedule_of", "Master Services Agreement", start, start + 25)


def test_a_line_right_above_a_split_caps_heading_continues_it() -> None:
    text = "INTELLECTUAL PROPERTY\nCROSS-LICENSE AND\nTECHNOLOGY TRANSFER AGREEMENT\n\nThis Agreement" + PREAMBLE
    assert _title(text) == ("INTELLECTUAL PROPERTY CROSS-LICENSE AND TECHNOLOGY TRANSFER AGREEMENT", 0, 69)
    text = "MASTER\nFRANCHISE\nAGREEMENT\n\nThis Agreement" + PREAMBLE
    assert _title(text) == ("MASTER FRANCHISE AGREEMENT", 0, 26)
    # A blank line between, a company name or page furniture above: not part of the title.
    text = "INTELLECTUAL PROPERTY\n\nCROSS-LICENSE AND\nTECHNOLOGY TRANSFER AGREEMENT\n\nThis Agreement" + PREAMBLE
    assert _title(text) == ("CROSS-LICENSE AND TECHNOLOGY TRANSFER AGREEMENT", 23, 70)
    text = "NORTHWIND TECHNOLOGIES CORP.\nJOINT DEVELOPMENT\nAGREEMENT\n\nThis Agreement" + PREAMBLE
    assert _title(text) == ("JOINT DEVELOPMENT AGREEMENT", 29, 56)
    text = "EXECUTION VERSION\nJOINT DEVELOPMENT\nAGREEMENT\n\nThis Agreement" + PREAMBLE
    assert _title(text) == ("JOINT DEVELOPMENT AGREEMENT", 18, 45)
    # Two lines that each stand alone stay apart, as before.
    text = "NORTHWIND TECHNOLOGIES\nSUPPLY AGREEMENT\n\nThis Agreement" + PREAMBLE
    assert _title(text) == ("SUPPLY AGREEMENT", 23, 39)


def test_an_amendment_heading_over_lines_is_one_title_with_white_space_collapsed() -> None:
    text = (
        "AMENDMENT AND TERMINATION\n\nOF\n\nJOINT VENTURE AGREEMENT\n\nThis Amendment and Termination"
        " Agreement" + PREAMBLE
    )
    assert _title(text) == ("AMENDMENT AND TERMINATION OF JOINT VENTURE AGREEMENT", 0, 54)


def test_a_press_release_or_a_memo_has_no_title_and_no_agreement() -> None:
    release = (
        "Exhibit 99.1\n\nFOR IMMEDIATE RELEASE\n\nNorthwind Technologies Announces Distribution Agreement with"
        " Pelican Data Systems\n\nRENO, Nev., May 1, 2019 -- Northwind Technologies Corp. today announced that it has"
        " entered into a Distribution Agreement with Pelican Data Systems Ltd.\n"
    )
    assert not_a_contract(release) and agreement_names(release) == (None, [])
    assert not has_agreement_preamble(release)
    # Without a release heading, the announcement in the opening says the same.
    headline = release.split("FOR IMMEDIATE RELEASE\n\n", 1)[1]
    assert not_a_contract(headline) and agreement_names(headline) == (None, [])
    memo = (
        "MEMORANDUM\n\nTO: Board of Directors\nFROM: Dana Whitfield\nRE: Office Lease\n\nManagement recommends that"
        " the Company renew the Office Lease on the terms below.\n"
    )
    assert agreement_names(memo) == (None, [])
    # A contract that mentions an announcement after its preamble, or a memorandum of
    # understanding, is still a contract.
    text = "SUPPLY AGREEMENT\n\nThis Supply Agreement" + PREAMBLE + "\nNorthwind today announced the launch.\n"
    assert not not_a_contract(text) and _title(text) == ("SUPPLY AGREEMENT", 0, 16)
    mou = "MEMORANDUM OF UNDERSTANDING\n\nThis Memorandum of Understanding is entered into as of May 2, 2019.\n"
    assert not not_a_contract(mou) and _title(mou) == ("MEMORANDUM OF UNDERSTANDING", 0, 27)


def test_an_instrument_heading_needs_the_text_to_speak_of_itself_by_it() -> None:
    memo = (
        "Office Lease\n\nThe Company leases its headquarters under a lease that expires in 2021. Management"
        " recommends renewal on the terms summarised below.\n"
    )
    assert agreement_names(memo) == (None, [])
    lease = "Office Lease\n\nThis Lease sets out the terms on which Harbor Point Properties LLC lets the premises.\n"
    assert _title(lease) == ("Office Lease", 0, 12)
    rider = "ENDORSEMENT\n\nEffective Date: July 1, 2019\n\nAll other terms of this contract remain unchanged.\n"
    assert _title(rider) == ("ENDORSEMENT", 0, 11)
    # An instrument's own wording says the same.
    guarantee = "GUARANTEE\n\nIn consideration of the Lender extending credit, the undersigned hereby guarantees the debt.\n"
    assert _title(guarantee) == ("GUARANTEE", 0, 9)
    indenture = "INDENTURE\n\ndated as of May 1, 2019\n\nbetween Northwind Technologies Corp. and Harbor Bank, N.A.\n"
    assert _title(indenture) == ("INDENTURE", 0, 9)


def test_a_compensation_plan_is_titled_with_its_company_and_year() -> None:
    text = (
        "NORTHWIND TECHNOLOGIES CORP. 2010 STOCK INCENTIVE PLAN\n\n1. Purpose. The purpose of the Northwind"
        ' Technologies Corp. 2010 Stock Incentive Plan (the "Plan") is to attract and retain employees.\n'
    )
    assert _title(text) == ("NORTHWIND TECHNOLOGIES CORP. 2010 STOCK INCENTIVE PLAN", 0, 54)
    # A plan a memo talks about is no title.
    memo = "Stock Incentive Plan\n\nThe committee discussed whether a new plan is needed next year.\n"
    assert agreement_names(memo) == (None, [])


def test_an_agreement_heading_going_on_with_and_is_one_title() -> None:
    text = (
        "NORTHWIND TECHNOLOGIES CORP.\n1200 Harbor Drive\n\nApril 2, 2018\n\nRE: SEPARATION AGREEMENT AND GENERAL"
        " RELEASE\n\nDear Dana:\n\nThis letter sets out the terms of your separation.\n"
    )
    start = text.index("SEPARATION")
    assert _title(text) == ("SEPARATION AGREEMENT AND GENERAL RELEASE", start, start + 40)
    text = "Settlement Agreement and Mutual Release\n\nThis Settlement Agreement" + PREAMBLE
    assert _title(text) == ("Settlement Agreement and Mutual Release", 0, 39)
    # A party list after the heading is no part of it.
    text = "SUPPLY AGREEMENT AND NORTHWIND TECHNOLOGIES CORP.\n\nThis Supply Agreement" + PREAMBLE
    assert _title(text) == ("SUPPLY AGREEMENT", 0, 16)


def test_an_agreement_regarding_heading_is_the_title() -> None:
    text = (
        "EXHIBIT A\n\nAGREEMENT REGARDING JOINT FILING\n\nThe undersigned hereby agree that the statement on Schedule"
        " 13D is filed on behalf of each of them.\n"
    )
    assert _title(text) == ("AGREEMENT REGARDING JOINT FILING", 11, 43)


def test_a_heading_is_extended_to_the_entity_it_is_the_agreement_of() -> None:
    text = (
        "AMENDED AND RESTATED\nLIMITED LIABILITY COMPANY AGREEMENT\nOF\nHARBOR POINT HOLDINGS, LLC\n\nThis Agreement"
        + PREAMBLE
    )
    assert _title(text) == (
        "AMENDED AND RESTATED LIMITED LIABILITY COMPANY AGREEMENT OF HARBOR POINT HOLDINGS, LLC", 0, 86,
    )
    # The heading without the entity stays one of its names.
    _, aliases = agreement_names(text)
    assert [(a.text, a.start, a.end, a.source) for a in aliases if a.source == "heading"] == [
        ("AMENDED AND RESTATED LIMITED LIABILITY COMPANY AGREEMENT", 0, 56, "heading"),
    ]
    text = "LIMITED PARTNERSHIP AGREEMENT OF HARBOR POINT FUND, L.P.\n\nThis Agreement" + PREAMBLE
    assert _title(text) == ("LIMITED PARTNERSHIP AGREEMENT OF HARBOR POINT FUND, L.P.", 0, 56)
    # No legal form: not an entity.
    text = "PURCHASE AGREEMENT\nOF\nREAL PROPERTY\n\nThis Agreement" + PREAMBLE
    assert _title(text) == ("PURCHASE AGREEMENT", 0, 18)


def test_a_statement_of_work_never_takes_its_parents_date() -> None:
    text = (
        "STATEMENT OF WORK NO. 4\n\nThis Statement of Work No. 4 is entered into under the Master Services Agreement"
        " dated January 1, 2020 between Northwind Technologies Corp. and Pelican Data Systems Ltd.\n"
    )
    assert agreement_date(text, 0, len(text)) is None
    # Its own date, when it has one, after the parent's.
    text = text.replace("Ltd.\n", "Ltd., and is made as of March 3, 2021.\n")
    date = agreement_date(text, 0, len(text))
    assert date is not None and date.iso == "2021-03-03"
    # "This Amendment to X dated D": D is the amendment's date unless the sentence dates it later.
    text = "This First Amendment to Lease dated as of June 1, 2020 is made between A LLC and B Inc.\n"
    assert agreement_date(text, 0, len(text)).iso == "2020-06-01"  # type: ignore[union-attr]
    text = (
        "This Amendment No. 2 to the Supply Agreement dated May 1, 2010 (the \"Supply Agreement\") is made as of"
        " June 2, 2020 between A LLC and B Inc.\n"
    )
    assert agreement_date(text, 0, len(text)).iso == "2020-06-02"  # type: ignore[union-attr]
    # A contract's own preamble date is unchanged.
    text = "This Supply Agreement" + PREAMBLE
    assert agreement_date(text, 0, len(text)).iso == "2016-09-12"  # type: ignore[union-attr]


def test_every_opening_of_the_fresh_title_probe_comes_out_exactly() -> None:
    from bench.title_shapes import check, fresh_cases

    cases = fresh_cases()
    assert len(cases) >= 40
    assert {name: problem for name, (text, title, relation) in cases.items() if (problem := check(text, title, relation))} == {}
