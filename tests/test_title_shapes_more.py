"""Agreement title shapes of unseen contracts (issue 9, titles19): a product or programme line
over a title-case heading on a cover, a subtitle after the heading's dash, and instruments
titled by a caps heading without an agreement word ("ACKNOWLEDGEMENT", "LIMITED WAIVER") over
prose that cites another agreement. Invented names throughout; each test asserts the exact
title and its span."""

from __future__ import annotations

from ingest.agreements import Title, _instrument_heading, agreement_names


def _title(text: str) -> tuple[str, int, int] | None:
    title, _ = agreement_names(text)
    if title is None:
        return None
    assert " ".join(text[title.start : title.end].split()) == title.text
    return title.text, title.start, title.end


PARTY_A = "Party A: Zentora Freight Co., Ltd.\n\nParty B: Pellridge Analytics LLC\n\nPlace of signing: Harbor City\n"


def test_a_programme_line_over_a_title_case_heading_on_a_cover_is_one_title() -> None:
    text = "Exhibit 4.5\n\nZentora Smart Freight Platform\n\nCooperation Agreement\n\n" + PARTY_A
    start = text.index("Zentora Smart")
    end = text.index("Cooperation Agreement") + len("Cooperation Agreement")
    assert _title(text) == ("Zentora Smart Freight Platform Cooperation Agreement", start, end)
    # No blank line between, an EDGAR header above: the same.
    tight = "EX-4.5 4 zen-ex4.htm EX-4.5\n\nZentora Smart Freight Platform\nCooperation Agreement\n\n" + PARTY_A
    start = tight.index("Zentora Smart")
    assert _title(tight) == ("Zentora Smart Freight Platform Cooperation Agreement", start, start + 52)


def test_a_line_over_a_heading_that_is_no_first_line_of_words_stays_apart() -> None:
    # A party line above the descriptor: the descriptor no longer opens the cover.
    text = "Exhibit 4.5\n\nDana Pell\n\nZentora Smart Freight Platform\n\nCooperation Agreement\n\n" + PARTY_A
    start = text.index("Cooperation Agreement")
    assert _title(text) == ("Cooperation Agreement", start, start + 21)


def test_a_company_named_again_in_the_party_clause_is_no_part_of_the_heading() -> None:
    text = (
        "Pellridge Analytics\nConsulting Agreement\n\nThis Consulting Agreement is made as of March 1, 2021 between"
        " Pellridge Analytics LLC and Dana Pell.\n"
    )
    start = text.index("Consulting Agreement")
    assert _title(text) == ("Consulting Agreement", start, start + 20)


def test_labels_versions_and_legends_over_a_heading_are_no_part_of_it() -> None:
    for above in ("Conformed Copy", "Schedule A", "Halcyon Systems Confidential", "Dated 1 May 2021"):
        text = f"Exhibit 10.1\n{above}\nDevelopment and Cross-Licensing Agreement\nbetween\nZentora Freight Co., Ltd.\nand\nPellridge Analytics LLC\n"
        start = text.index("Development and")
        assert _title(text) == ("Development and Cross-Licensing Agreement", start, start + 41), above


def test_a_caps_letterhead_over_a_caps_heading_stays_apart() -> None:
    # A caps line the party clause never repeats ("the Company") is as often the company's
    # letterhead as a part of the title: caps lines join by layout only.
    text = (
        "QUORVANT SYSTEMS\n\nEMPLOYMENT AGREEMENT\n\nThis Employment Agreement is made as of March 1, 2021 between"
        " the Company and Dana Pell.\n"
    )
    start = text.index("EMPLOYMENT AGREEMENT")
    assert _title(text) == ("EMPLOYMENT AGREEMENT", start, start + 20)


def test_the_descriptor_line_has_at_most_six_words() -> None:
    six = "Exhibit 4.5\n\nZentora Smart Freight Routing Marketplace Platform\n\nCooperation Agreement\n\n" + PARTY_A
    assert _title(six)[0] == "Zentora Smart Freight Routing Marketplace Platform Cooperation Agreement"
    seven = six.replace("Zentora Smart", "Zentora Global Smart")
    start = seven.index("Cooperation Agreement")
    assert _title(seven) == ("Cooperation Agreement", start, start + 21)


RESELLER = (
    "Exhibit 10.2\n{heading}\nThis establishes an agreement between Quorvant Systems, LLC (Quorvant) and Pellridge"
    " Analytics, Inc. (Reseller) for the purpose of reselling the Quorvant Products.\n1. Reseller Qualification\n"
)


def test_a_subtitle_after_the_headings_dash_is_part_of_the_title() -> None:
    heading = "Quorvant Branded Reseller Agreement - Analytics Suite Specific"
    text = RESELLER.format(heading=heading)
    assert _title(text) == (heading, 13, 13 + len(heading))
    # In capitals the dash still ends the title (CUAD names such headings without the qualifier).
    text = RESELLER.format(heading="MASTER SERVICES AGREEMENT - CLOUD HOSTING")
    assert _title(text) == ("MASTER SERVICES AGREEMENT", 13, 38)


def test_an_edition_a_draft_a_company_or_a_party_list_after_the_dash_is_no_subtitle() -> None:
    for tail in ("DRAFT", "Execution Version", "Page 1", "Quorvant Systems, Inc.", "Confidential", "and Pellridge"):
        text = RESELLER.format(heading=f"Branded Reseller Agreement - {tail}")
        assert _title(text) == ("Branded Reseller Agreement", 13, 39), tail


def test_a_subtitle_has_at_most_six_words() -> None:
    six = "Reseller Agreement - Analytics Suite for Public Sector Accounts"
    assert _title(RESELLER.format(heading=six)) == (six, 13, 13 + len(six))
    seven = "Reseller Agreement - Analytics Suite for the Public Sector Accounts"
    assert _title(RESELLER.format(heading=seven)) == ("Reseller Agreement", 13, 31)


def test_a_caps_acknowledgement_heading_wins_over_an_agreement_its_prose_cites() -> None:
    text = (
        "Exhibit 10.7\nMay 19, 2021\nACKNOWLEDGEMENT\nFollowing our meeting, the Board has closed its Loyalty"
        ' Bonus Plan. Your employment agreement dated February 1, 2021 (your "Employment Agreement") names the'
        " Loyalty Bonus Plan, and you and we agree that its bonus terms no longer apply.\n"
    )
    start = text.index("ACKNOWLEDGEMENT")
    assert _title(text) == ("ACKNOWLEDGEMENT", start, start + 15)


def test_a_waiver_heading_wins_over_the_credit_agreement_it_refers_to() -> None:
    text = (
        'LIMITED WAIVER\n\nReference is made to the Credit Agreement dated as of June 1, 2020 (the "Credit'
        ' Agreement") between Quorvant Systems, Inc. and Pellridge Bank. The Lender hereby waives the default'
        " under Section 7.1.\n"
    )
    assert _title(text) == ("LIMITED WAIVER", 0, 14)


def test_a_note_is_titled_by_its_heading_when_it_promises_to_pay() -> None:
    text = (
        "SECURED PROMISSORY NOTE\n\n$250,000\n\nFOR VALUE RECEIVED, Quorvant Systems, Inc. promises to pay to"
        " Pellridge Analytics LLC the sum above under the Loan Agreement dated May 1, 2020.\n"
    )
    assert _title(text) == ("SECURED PROMISSORY NOTE", 0, 23)


def test_a_caps_noun_heading_over_prose_that_is_no_instrument_titles_nothing() -> None:
    # A minute that mentions an agreement: no preamble, no self-reference, no promise; the
    # heading "CONSENT" titles nothing, and the cited agreement stays the reader's fallback.
    text = "CONSENT\n\nThe Board discussed the Supply Agreement dated May 1, 2020 with Pellridge Analytics LLC.\n"
    title = _title(text)
    assert title is not None and title[0] == "Supply Agreement"


def test_a_common_noun_instrument_in_title_case_is_no_heading() -> None:
    # "Warrant No. W-12" under the warrant's caps heading is its number line.
    text = (
        "ZARVIX LABS, INC.\n\nWARRANT TO PURCHASE COMMON STOCK\n\nWarrant No. W-12\n\n"
        "FOR VALUE RECEIVED, Quorra Capital LLC may purchase shares of Zarvix Labs, Inc. as this Warrant provides.\n"
    )
    start = text.index("WARRANT TO")
    assert _title(text) == ("WARRANT TO PURCHASE COMMON STOCK", start, start + 32)


GUARANTY_RUN_IN = (
    'Exhibit 10.9 GUARANTY THIS GUARANTY (this "Guaranty") is made as of March 1, 2021 by Quorvant Systems, Inc.'
    " in favor of Pellridge Bank."
)


def test_a_filing_run_into_one_line_is_titled_by_the_instrument_heading_it_opens_with() -> None:
    assert _title(GUARANTY_RUN_IN) == ("GUARANTY", 13, 21)
    note = (
        "Exhibit 10.8 Secured Promissory Note $250,000 March 1, 2021 FOR VALUE RECEIVED, Quorvant Systems, Inc."
        " promises to pay to Pellridge Analytics LLC the principal sum."
    )
    assert _title(note) == ("Secured Promissory Note", 13, 36)
    caps = note.replace("Secured Promissory Note", "SECURED PROMISSORY NOTE")
    assert _title(caps) == ("SECURED PROMISSORY NOTE", 13, 36)


def test_a_run_in_instrument_heading_needs_the_text_to_speak_as_one() -> None:
    # A press line that opens with a noun heading and says nothing of itself titles nothing.
    text = (
        "Exhibit 99.1 RELEASE Quorvant Systems, Inc. reported quarterly revenue of $12 million and expects to"
        " open two offices in Harbor City next year."
    )
    assert _title(text) is None


def test_a_run_in_line_is_one_longer_than_120_characters_unless_the_preamble_follows_its_heading() -> None:
    from ingest.agreements import _RUN_IN_LINE_CHARS, _run_in_instrument

    assert _RUN_IN_LINE_CHARS == 120
    note = (
        "Exhibit 10.8 Secured Promissory Note $250,000 March 1, 2021 FOR VALUE RECEIVED, Quorvant Systems, Inc."
        " promises to pay to Pellridge Analytics LLC the principal sum."
    )
    at_bound = note[:113] + "x" * (120 - 113)
    assert len(at_bound) == 120 and _run_in_instrument(at_bound) is None
    past = at_bound + "y"
    assert _run_in_instrument(past) == Title("Secured Promissory Note", 13, 36)
    # A short line whose heading runs into the preamble's "This" is run in whatever its length.
    short = GUARANTY_RUN_IN[:113] + "x" * (120 - 113)
    assert _run_in_instrument(short) == Title("GUARANTY", 13, 21)


def test_a_run_in_instrument_that_names_its_subject_ends_where_the_preamble_starts() -> None:
    from ingest.agreements import _run_in_instrument

    text = (
        "Exhibit 10.4\nASSIGNMENT AND ASSUMPTION OF LEASE This ASSIGNMENT is made as of May 1, 2010 by Quorvant"
        ' Systems, Inc. ("Assignor") to Pellridge LLC ("Assignee").\n'
    )
    start = text.index("ASSIGNMENT")
    assert _run_in_instrument(text) == Title("ASSIGNMENT AND ASSUMPTION OF LEASE", start, start + 34)
    assert _title(text) == ("ASSIGNMENT AND ASSUMPTION OF LEASE", start, start + 34)
    title_case = "Assignment of Patent Rights This Assignment is made as of May 1, 2010 by Quorvant Systems, Inc. to Pellridge LLC.\n"
    assert _title(title_case) == ("Assignment of Patent Rights", 0, 27)
    # Its caps instrument word is no title-case heading: "ASSIGNMENT" alone was read before.
    caps = title_case.replace("Assignment of Patent Rights", "ASSIGNMENT OF PATENT RIGHTS", 1)
    assert _title(caps) == ("ASSIGNMENT OF PATENT RIGHTS", 0, 27)
    # Without the preamble's "This" after it the subject has no end: no run-in title.
    assert _run_in_instrument(caps.replace(" This Assignment is", " is", 1)) is None
    # The subject's bound: at most 8 words after the leading ones.
    long = "ASSIGNMENT OF " + " ".join(["PATENT"] * 9) + " This Assignment is made by Quorvant Systems, Inc.\n"
    assert _run_in_instrument(long) is None
    assert _run_in_instrument(long.replace("PATENT ", "", 1)) is not None


def test_a_filings_label_lines_take_no_place_among_the_heading_lines() -> None:
    # Five heading lines are read; the EDGAR header or source line above is not counted, so the
    # instrument heading, the fifth line of words after it, is still among them.
    body = (
        "Exhibit 10.24\n\nDRAFT 3\n\nQUORVANT SYSTEMS, INC.\n\nHARBOR POINT CAMPUS\n\nBUILDING 7\n\n"
        "SUBLEASE\n\nThis Sublease is made as of March 1, 2021 by and between Quorvant Systems, Inc. and Pellridge LLC.\n"
    )
    for label in ("EX-10.24 20 ex10-24.htm EX-10.24\n\n", "Source: QUORVANT SYSTEMS, INC., 10-K, 3/1/2019\n\n"):
        text = label + body
        start = text.index("SUBLEASE")
        assert _instrument_heading(text) == Title("SUBLEASE", start, start + 8), label
    # One more line of words pushes the heading to the sixth place: not read.
    assert _instrument_heading("EX-10.24 20 ex10-24.htm EX-10.24\n\n" + body.replace("BUILDING 7", "BUILDING 7\n\nLOT 12")) is None


def test_a_heading_split_by_a_blank_line_is_joined_when_the_text_repeats_it_whole() -> None:
    text = (
        "EXCLUSIVE\n\nDISTRIBUTION AGREEMENT\n\nbetween\n\nQUORVANT SYSTEMS, INC.\n\nand\n\nPELLRIDGE LLC\n\n"
        "Dated as of March 1, 2021\n\n\nRECITALS\n\nWHEREAS, the parties wish to enter into this exclusive"
        " distribution agreement.\n"
    )
    assert _title(text) == ("EXCLUSIVE DISTRIBUTION AGREEMENT", 0, 33)
    # Two blank lines between: apart.
    apart = text.replace("EXCLUSIVE\n\n", "EXCLUSIVE\n\n\n", 1)
    assert _title(apart) == ("DISTRIBUTION AGREEMENT", 12, 34)


def test_a_title_opening_with_the_agreement_word_goes_on_over_a_blank_line_after_a_joining_word() -> None:
    text = (
        "AGREEMENT FOR THE SALE AND PURCHASE OF THE\n\nENTIRE ISSUED SHARE CAPITAL OF HARBOR POINT\n\nLIMITED\n\n"
        "BETWEEN\n\nQUORVANT SYSTEMS, INC.\n\nAND\n\nPELLRIDGE LLC\n"
    )
    end = text.index("LIMITED") + 7
    assert _title(text) == (
        "AGREEMENT FOR THE SALE AND PURCHASE OF THE ENTIRE ISSUED SHARE CAPITAL OF HARBOR POINT LIMITED", 0, end
    )


def test_a_run_in_letter_is_titled_by_its_heading_after_its_date() -> None:
    text = (
        "Exhibit 10.7 April 19, 2021 ACKNOWLEDGEMENT Following our meeting, the Board has closed its Loyalty"
        " Bonus Plan. Your employment letter names the Loyalty Bonus Plan, and you and we"
        " agree that its bonus terms no longer apply."
    )
    assert _title(text) == ("ACKNOWLEDGEMENT", 28, 43)
    # A date further on than a date's width is no leading date: the heading is not reached.
    late = text.replace("April 19, 2021", "on the eleventh of April in 2021,")
    assert _title(late) is None
    # Run in, an agreement the prose cites still titles the text: the run-in heading reader is
    # the last resort (a run-in line gives too little shape to overrule a title found).
    cited = text.replace("Your employment letter", 'Your employment agreement (your "Employment Agreement")')
    assert _title(cited)[0] == "Employment Agreement"


def test_a_title_case_instrument_word_that_a_connector_continues_is_no_run_in_heading() -> None:
    from ingest.agreements import _run_in_instrument

    text = (
        "Zentora License and Distribution Agreement - Quorvant Systems, Inc. and Pellridge KK ZENTORA LICENSE AND"
        ' DISTRIBUTION AGREEMENT THIS LICENSE AND DISTRIBUTION AGREEMENT (this "Agreement") is made and entered'
        " into on July 24, 2002 by and between QUORVANT SYSTEMS, INC. and PELLRIDGE KK."
    )
    assert _run_in_instrument(text) is None
    assert _run_in_instrument(text.replace("License and Distribution Agreement -", "License -", 1)) == Title(
        "Zentora License", 0, 15
    )


def test_an_explanatory_note_above_the_text_is_no_instrument_heading() -> None:
    # "Note" alone is no instrument word (a filing's "EXPLANATORY NOTE" legend); a promissory,
    # convertible or secured note is.
    text = (
        "EXPLANATORY NOTE\n\nThis exhibit restates the Supply Agreement dated as of March 1, 2019 between Quorvant"
        " Systems, Inc. and Pellridge Analytics LLC, as amended.\n"
    )
    assert _title(text) == ("Supply Agreement", 44, 60)
    note = text.replace("EXPLANATORY NOTE", "CONVERTIBLE NOTE").replace("This exhibit restates", "FOR VALUE RECEIVED, under")
    assert _title(note) == ("CONVERTIBLE NOTE", 0, 16)


def test_a_line_of_title_opening_words_above_a_caps_heading_continues_it() -> None:
    # Stop 54. Before, "EXCLUSIVE WORLD WIDE" was dropped: only one opening word alone joined.
    from tests.helpers import agreement_title

    cover = "\nBETWEEN\nQUORVANT MOTOR CORPORATION\nAND\nPELLRIDGE AFRICA CORPORATION\n\nThis agreement is made.\n"
    assert agreement_title("EXCLUSIVE WORLD WIDE\nDISTRIBUTION AGREEMENT" + cover) == "EXCLUSIVE WORLD WIDE DISTRIBUTION AGREEMENT"
    assert agreement_title("INTERNATIONAL\nDISTRIBUTION AGREEMENT" + cover) == "INTERNATIONAL DISTRIBUTION AGREEMENT"
    # Guard: a line holding another word (a letterhead's name) stays apart.
    assert agreement_title("QUORVANT INTERNATIONAL\nDISTRIBUTION AGREEMENT" + cover) == "DISTRIBUTION AGREEMENT"


def test_at_most_three_title_opening_words_above_a_caps_heading_continue_it() -> None:
    # The bound at its edge (stop 54): a line of four such words is no part of the heading.
    from tests.helpers import agreement_title

    cover = "\nBETWEEN\nQUORVANT MOTOR CORPORATION\nAND\nPELLRIDGE AFRICA CORPORATION\n\nThis agreement is made.\n"
    assert agreement_title("SOLE EXCLUSIVE WORLD WIDE\nDISTRIBUTION AGREEMENT" + cover) == "DISTRIBUTION AGREEMENT"
