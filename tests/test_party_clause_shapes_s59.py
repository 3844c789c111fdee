"""Party clause and title shapes of stop 59 (issue 9), each found on a fresh labelled set of real
contract openings (realDT-DY); the names here are invented. Each test but the guards fails on the
code before its rule (checked by running these tests against that code).
"""

from __future__ import annotations

from ingest.annotate import annotate_document
from tests.helpers import agreement_title, bound_party_names


def test_a_trade_name_opened_by_a_lower_case_the() -> None:
    text = (
        "SALES AND SERVICE AGREEMENT\nTHIS AGREEMENT made this 1st day of May, 1998 between Harrow Marine Industries"
        " Incorporated (hereinafter referred to as \"Harrow\") and Quill Marine Recreation, Inc., doing business as\n"
        "the Boathouse with its principal place of business at 12 Dock Street, being a corporation of the State of"
        " Delaware (hereinafter referred to as \"Dealer\"), whereby it is agreed as follows:\n"
    )
    # Before, the trade name was dropped: "the" opened no name after "doing business as".
    annotations = annotate_document(text, [(0, len(text))], doc_id="d", revision="r")
    (quill,) = [s for s in annotations.subjects if s.subject_id == "org:quill marine recreation"]
    assert "Quill Marine Recreation, Inc., doing business as the Boathouse" in quill.aliases


def test_a_heading_line_above_the_name_is_no_part_of_it() -> None:
    text = (
        "EXHIBIT 10.11A\nSino-Foreign Joint Venture Contract\nPart I General Rules and Definitions\n"
        "The Westland Medical Group Company Limited (hereafter abbreviated to Party A) and\n"
        "Quillwin Newtech Ltd. of the British Virgin Islands (hereafter abbreviated to\nParty B), in accordance"
        " with the law.\n"
    )
    # Before, "Definitions The Westland Medical Group Company Limited".
    assert bound_party_names(text) == {"The Westland Medical Group Company Limited", "Quillwin Newtech Ltd."}


def test_guard_a_joining_word_before_the_line_break_keeps_the_name_whole() -> None:
    text = 'This Agreement is made between First Bank of\nThe West Inc. (the "Bank") and Quill Corp. ("Quill").'
    assert bound_party_names(text) == {"First Bank of The West Inc.", "Quill Corp."}


def test_a_brand_in_mixed_case_that_spells_a_function_word() -> None:
    text = (
        "LICENSE AGREEMENT\n     THIS AGREEMENT, dated as of January 10, 2006, is between QTVN (\u201cLicensor\u201d), and"
        " iN HARBOUR L.L.C. (\u201cLicensee\u201d).\n"
    )
    # Before, "HARBOUR L.L.C.": "iN" was read as the preposition "in".
    assert bound_party_names(text) == {"QTVN", "iN HARBOUR L.L.C."}


def test_an_exhibit_label_of_a_letter_and_a_number_is_no_title_word() -> None:
    text = (
        "Exhibit B-1 UTILITY SERVICE AGREEMENT This Service Agreement is made by and among Westport Gas Company,"
        " an Ohio corporation (\"WGC\"), and Quill Services, Inc., a Delaware corporation (the \"Service Company\").\n"
    )
    # Before, "B-1 UTILITY SERVICE AGREEMENT".
    assert agreement_title(text) == "UTILITY SERVICE AGREEMENT"


def test_guard_a_models_letter_and_number_joined_to_more_stays_a_title_word() -> None:
    text = "C-3/C-4 SATELLITE TRANSPONDER SERVICE AGREEMENT\nThis Agreement is made between Quill Inc. and Harrow LLC.\n"
    assert agreement_title(text) == "C-3/C-4 SATELLITE TRANSPONDER SERVICE AGREEMENT"


def test_a_name_in_capitals_wrapped_inside_a_prose_preamble() -> None:
    text = (
        "PRIMARY DISTRIBUTION AGREEMENT\n\nPrimary Distribution Agreement dated May 13, 1999, between HARROW PAPER &"
        " FOOD\nSERVICE, INC. (HARROW), and QUILL RESTAURANT COMPANY, INC. (QRC).\n\nBACKGROUND\n"
    )
    # Before, "SERVICE, INC.": the run-in cover reader took the line as a list of its own.
    assert bound_party_names(text) == {"HARROW PAPER & FOOD SERVICE, INC.", "QUILL RESTAURANT COMPANY, INC."}


def test_bound_the_line_above_a_wrapped_name_is_read_for_80_characters_at_most() -> None:
    from ingest.names import NameSpan
    from ingest.party_layout import _wrapped_over_line_above

    head = "HARROW " + "PAPER " * 14  # 91 characters of capitals before the line break
    text = f"between {head.strip()}\nSERVICE, INC. (HARROW), and QUILL COMPANY, INC. (QUILL)."
    name = NameSpan("SERVICE, INC.", text.index("SERVICE"), text.index("SERVICE") + len("SERVICE, INC."))
    # The name would open 91 characters up the line, past the bound; a reading from inside its
    # run of capitals is none, so the name is left as read.
    assert _wrapped_over_line_above(text, name, len(text), frozenset()) == name
    short = "between HARROW PAPER\nSERVICE, INC. (HARROW), and QUILL COMPANY, INC. (QUILL)."
    name = NameSpan("SERVICE, INC.", short.index("SERVICE"), short.index("SERVICE") + len("SERVICE, INC."))
    assert _wrapped_over_line_above(short, name, len(short), frozenset()).text == "HARROW PAPER\nSERVICE, INC."


def test_taiwans_dotted_initials_are_a_place() -> None:
    text = (
        "AMENDMENT TO FOUNDRY CAPACITY AGREEMENT\nThis Amendment (\"Amendment II\") is entered into as of July 3, 1996"
        " by and amongst Westland Semiconductor Corporation, a Taiwan corporation having its principal place of\n"
        "business at No. 3, Hsinchu City,\nTaiwan, R.O.C. (\"WSC\"), and Quill Semiconductor Corporation, a Delaware"
        " corporation having a place of business at 10 Main Street, San Jose, U.S.A. (\"Quill\").\n"
    )
    # Before, "R.O.C." was a party too.
    assert bound_party_names(text) == {"Westland Semiconductor Corporation", "Quill Semiconductor Corporation"}


def test_a_numbered_section_after_the_preamble_ends_the_list_of_names() -> None:
    text = (
        "Exhibit 10.39\n\nCONSULTING AGREEMENT\n\n \n\nThis is to confirm the agreement between Jane Harrow"
        " (\u201cConsultant\u201d), and Quillgen, Inc. (formerly known as Quill Pharmaceuticals, Inc.), a Delaware"
        " corporation (the \u201cCompany\u201d), for consulting services (the \u201cAgreement\u201d).  The terms of"
        " the arrangements between Consultant and the Company are as follows:\n\n \n\n1.             Term of"
        " Agreement.  This Agreement will commence on the effective date of the combination (through a subsidiary"
        " merger) of Company and"
        " Westgen, Inc. and will continue until terminated.\n"
    )
    # Before, "Westgen, Inc." (a company merged in, named in section 1) was a party too.
    assert bound_party_names(text) == {"Jane Harrow", "Quillgen, Inc."}


def test_a_persons_town_after_of_is_no_part_of_the_name() -> None:
    text = (
        "QUILL PUBLISHING GROUP, INC. PUBLISHING AGREEMENT This AGREEMENT is effective the 1st day of October, 1997,"
        " between Adam B. Harrow of Seattle, Washington (hereinafter called the Author) and Quill Publishing Group,"
        " Inc., whose principal place of business is at 14 Interurban Avenue, Seattle, Washington, 98168,"
        " (hereinafter called the Publisher). I. GRANT OF RIGHTS\n"
    )
    # Before, "Adam B. Harrow of Seattle".
    assert bound_party_names(text) == {"Adam B. Harrow", "Quill Publishing Group, Inc."}


def test_guard_a_city_named_after_of_stays_a_party() -> None:
    text = 'This Agreement is between the City of Westport, Washington ("City") and Quill Inc. ("Quill").'
    assert bound_party_names(text) == {"City of Westport, Washington", "Quill Inc."}


def test_roman_numerals_and_a_dash_number_the_parties() -> None:
    text = (
        "SUPPLY AGREEMENT\nThat each other are:\nI- QUILL BRASIL LTDA, a limited liability company, herein represented"
        " in accordance with its Bylaws, hereinafter designated simply \"QUILL\"; and, on the other hand,\n"
        "II- HARROW ENERGIA S.A., a joint-stock company, herein represented by its officers, hereinafter referred to"
        " as simply \"HARROW\".\n"
    )
    # Before, "I- QUILL BRASIL LTDA".
    assert bound_party_names(text) == {"QUILL BRASIL LTDA", "HARROW ENERGIA S.A."}


def test_two_parties_under_one_registry_key_record_both_legal_forms() -> None:
    text = (
        "DISTRIBUTION AND LICENSE AGREEMENT\nTHIS DISTRIBUTION AND LICENSE AGREEMENT (this \"Agreement\") is made"
        " as of November 4, 2004, BY AND AMONG: HARROW THERAPEUTICS, INC., a company incorporated under the laws of"
        " the State of Delaware (hereinafter referred to as: \"HARROW\"); HARROW THERAPEUTICS, N.V., a company"
        " constituted under the laws of Belgium and wholly-owned subsidiary of HARROW (hereinafter referred to as:"
        " \"HARROW NV\"); and GRUPO QUILL INTERNACIONAL, S.A., a Spanish company (\"QUILL\").\n"
    )
    annotations = annotate_document(text, [(0, len(text))], doc_id="d", revision="r")
    (agreement,) = [s for s in annotations.subjects if s.type == "agreement"]
    # Before, only [["inc"]]: the N.V. was kept by its definition alone, and the gate then refused
    # "HARROW THERAPEUTICS, N.V." as a namesake in another legal form.
    assert agreement.attributes["party_forms"]["org:harrow therapeutics"] == [["inc"], ["nv"]]


def test_a_heading_in_capitals_over_two_lines_is_an_alias_whole() -> None:
    from ingest.agreements import agreement_names

    text = (
        "VALUE-ADDED\nRESELLER AGREEMENT\nTHIS\nAGREEMENT\nis made and entered into as of Dec 10, 2007 by and between"
        " Quillnet Holdings, Inc. (\"RESELLER\") and HARROW, LLC (\"HARROW\").\n"
    )
    title, aliases = agreement_names(text)
    # The title reader keeps the line it can prove; the whole heading is one of its names, which
    # the gate matches exactly (before, a question naming "VALUE-ADDED RESELLER AGREEMENT" was refused).
    assert title is not None and title.text == "RESELLER AGREEMENT"
    assert [(a.text, a.source) for a in aliases if a.source == "heading_block"] == [
        ("VALUE-ADDED RESELLER AGREEMENT", "heading_block")
    ]


def test_guard_a_legend_or_a_place_line_joins_no_heading_block() -> None:
    from ingest.agreements import agreement_names

    text = (
        "PORTIONS HAVE BEEN FILED WITH THE COMMISSION.\nPROMOTIONAL SERVICE AGREEMENT\nHOUSTON, TEXAS\n"
        "This Promotional Service Agreement is made between Quill Corp. (\"Quill\") and Harrow Inc. (\"Harrow\").\n"
    )
    _, aliases = agreement_names(text)
    assert [a for a in aliases if a.source == "heading_block"] == []


def test_bound_a_heading_block_holds_at_most_four_lines() -> None:
    from ingest.agreements import agreement_names

    text = "ALPHA\nQUILL\nHARROW\nWESTLAND\nSUPPLY AGREEMENT\nThis Supply Agreement is made between Acme Inc. and Beta LLC.\n"
    _, aliases = agreement_names(text)
    # The title's line and the three nearest above it; "ALPHA" is a fifth line and stays out.
    assert [a.text for a in aliases if a.source == "heading_block"] == ["QUILL HARROW WESTLAND SUPPLY AGREEMENT"]
