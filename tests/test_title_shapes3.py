"""Agreement title shapes of unseen contracts (issue 9, titles3): a letter's subject heading, a
cover page under an exhibit caption, a legend above an instrument heading, page legends and
filer's descriptions that are no title, a cited agreement that is no title, a heading the text
calls itself by. Invented names throughout; each test asserts the exact title and its span."""

from __future__ import annotations

from ingest.agreements import agreement_names, find_title


def _title(text: str) -> tuple[str, int, int] | None:
    title, _ = agreement_names(text)
    if title is None:
        return None
    assert " ".join(text[title.start : title.end].split()) == title.text
    return title.text, title.start, title.end


LETTER = (
    "Quorra Trading Limited\n12 Harbour Road\nKowloon\n\nAttn: Mr Ivo Pell\n\nDear Sirs,\n"
    "{subject}\n"
    "We are pleased to offer you the following facilities on the terms and conditions set out in this letter.\n"
)


def test_a_letter_agreement_is_titled_by_the_caps_line_under_its_salutation() -> None:
    text = LETTER.format(subject="TERM LOAN FACILITY")
    start = text.index("TERM LOAN")
    assert _title(text) == ("TERM LOAN FACILITY", start, start + 18)


def test_a_letter_subject_leaves_its_defined_term_out() -> None:
    text = LETTER.format(subject='TERM LOAN FACILITY UNDER THE HARBOUR GUARANTEE SCHEME ("HGS SCHEME")')
    start = text.index("TERM LOAN")
    assert _title(text) == ("TERM LOAN FACILITY UNDER THE HARBOUR GUARANTEE SCHEME", start, start + 53)


def test_a_letter_subject_must_be_a_heading_in_capitals() -> None:
    # A reference line, a sentence or a line in mixed case names no letter.
    assert _title(LETTER.format(subject="Re: Banking Facilities")) is None
    assert _title(LETTER.format(subject="Further to our meeting, we confirm the facilities below.")) is None
    assert _title(LETTER.format(subject="QUORRA TRADING LIMITED")) is None  # a company's name
    # No words of a contract after the salutation: a cover letter, no letter agreement.
    cover = "Dear Sirs,\nANNUAL REPORT\nPlease find our annual report enclosed.\n"
    assert find_title(cover) is None


def test_an_exhibit_caption_gives_way_to_the_cover_heading_its_party_list_follows() -> None:
    text = (
        "EXHIBIT B TO THE PARTICIPATION AGREEMENT\n\nAMENDED AND RESTATED\n\nTERM LOAN AGREEMENT\n\namong\n\n"
        "ZARVIX LABS, INC.,\nas Borrower,\n\nQUORRA BANK, N.A.,\nas Agent\n\nDated as of May 1, 2020\n"
    )
    start = text.index("AMENDED")
    assert _title(text) == ("AMENDED AND RESTATED TERM LOAN AGREEMENT", start, text.index("\n\namong"))
    # Alone, the caption stays the title of what it heads (a schedule's own name).
    alone = "EXHIBIT B TO THE PARTICIPATION AGREEMENT\n\nFORM OF NOTICE\n\n1. Notices shall be in writing.\n"
    assert _title(alone) == ("B TO THE PARTICIPATION AGREEMENT", 8, 40)


def test_a_legend_in_capitals_takes_one_heading_line_whatever_its_length() -> None:
    text = (
        "EXHIBIT 4\n"
        "THIS NOTE HAS NOT BEEN REGISTERED UNDER THE SECURITIES ACT OF\n"
        "1933, AS AMENDED, AND MAY NOT BE SOLD, PLEDGED,\n"
        "HYPOTHECATED OR TRANSFERRED EXCEPT PURSUANT TO AN EFFECTIVE\n"
        "REGISTRATION STATEMENT OR AN EXEMPTION\n"
        "FROM REGISTRATION UNDER THE ACT.\n"
        "ZARVIX LABS, INC.\n"
        "PROMISSORY NOTE\n"
        "$50,000.00 May 1, 2020\n"
        "FOR VALUE RECEIVED, Zarvix Labs, Inc. promises to pay to Quorra Capital LLC the principal sum,"
        " as set out in this Note.\n"
    )
    start = text.index("PROMISSORY")
    assert _title(text) == ("PROMISSORY NOTE", start, start + 15)


def test_subject_to_contract_is_a_legend_not_a_title() -> None:
    text = (
        "SUBJECT TO CONTRACT DATA HOSTING AGREEMENT BETWEEN ZARVIX LABS LTD - and - Quorra Systems Inc"
        " <PAGE> 2 CONTENTS 1 Definitions 2 Hosting"
    )
    start = text.index("DATA")
    assert _title(text) == ("DATA HOSTING AGREEMENT", start, start + 22)


def test_accented_capitals_are_caps_words_of_a_heading() -> None:
    text = (
        "VERTRIEBSVERTRAG- DISTRIBUTION AGREEMENT zwischen between Zarvix Labs GmbH, Hauptstraße 1,"
        " Berlin (die „Gesellschaft\") and Quorra Systems LLC"
    )
    text = "GESCHÄFTS" + text
    assert _title(text) == ("GESCHÄFTSVERTRIEBSVERTRAG- DISTRIBUTION AGREEMENT", 0, 49)


def test_the_filers_description_after_an_edgar_header_in_a_run_in_filing_is_no_title() -> None:
    text = (
        "EX-10.4 3 dex104.txt CONSULTANCY AGREEMENT EXHIBIT 10.4 DATED MAY 2020 ====== ZARVIX LABS"
        " LIMITED - and - IVO PELL ------ CONSULTANCY SERVICE AGREEMENT ------ DATE: 1st May 2020 PARTIES: 1."
        " ZARVIX LABS LIMITED"
    )
    start = text.index("CONSULTANCY SERVICE AGREEMENT")
    assert _title(text) == ("CONSULTANCY SERVICE AGREEMENT", start, start + 29)
    # "EXHIBIT 10.4" right after the file name is the document's own first words, not a description.
    text = "EX-10.4 3 ex10_4.txt EXHIBIT 10.4 DATA HOSTING AGREEMENT ------ Between ZARVIX LABS LIMITED and IVO PELL"
    start = text.index("DATA")
    assert _title(text) == ("DATA HOSTING AGREEMENT", start, start + 22)


def test_a_cover_role_ends_the_party_list_run_into_the_title() -> None:
    text = (
        "Dated 1 May 2020 ZARVIX LABS LTD. AS BORROWER and QUORRA BANK LIMITED, HARBOUR BRANCH ACTING AS AGENT"
        " TERM FACILITY AGREEMENT ALLEN & PELL SOLICITORS TABLE OF CONTENTS"
    )
    start = text.index("TERM FACILITY")
    assert _title(text) == ("TERM FACILITY AGREEMENT", start, start + 23)


def test_a_caps_agreement_that_prose_cites_is_no_title() -> None:
    text = (
        "Exhibit 10.3\nANNEX B\nTERMS OF TRANSFER\n"
        "Pursuant to the terms of the BLOCK SHARE TRANSFER AGREEMENT dated 1 May 2020 among the Seller and"
        " Quorra Bank (the \"Agreement\"), the Seller and Quorra Bank set out the transfer below:\n"
        "The Seller and Quorra Bank confirm that these Terms of Transfer form part of the Agreement.\n"
    )
    start = text.index("TERMS OF TRANSFER")
    assert _title(text) == ("TERMS OF TRANSFER", start, start + 17)


def test_a_heading_line_the_text_calls_itself_by_is_the_title() -> None:
    text = (
        "Deed of Share Pledge  Pell & Co | Ref: 4471\n\nPage 1\n\nDeed of Share Pledge\n\n"
        "Zarvix Labs Pty Ltd (Pledgor) Quorra Bank Limited (Pledgee)\n\n"
        "1. Definitions\n2. Purpose of this Deed\n"
    )
    start = text.index("Deed of Share Pledge\n\nZarvix")
    assert _title(text) == ("Deed of Share Pledge", start, start + 20)
    # A line the text never takes up is no name of it.
    assert _title(text.replace("Purpose of this Deed", "Purpose")) is None


def test_a_contract_heading_in_sentence_case_is_the_title() -> None:
    text = (
        "Exhibit 10.8\n\nMarch 2021 edition\n\nContract for supply of packaging materials\n\n"
        "Contract number: QX-2021-88\n\nSupplier: Zarvix Packaging Co., Ltd.\n\nBuyer: Quorra Foods Co., Ltd.\n"
    )
    start = text.index("Contract for")
    assert _title(text) == ("Contract for supply of packaging materials", start, start + 42)
    # A sentence is no heading: its words go on with a verb.
    prose = "Exhibit 10.8\n\nContract for supply is hereby renewed\n\nSupplier: Zarvix Packaging Co., Ltd.\n"
    assert _title(prose) is None


def test_a_name_in_capitals_before_a_title_case_title_is_no_part_of_it() -> None:
    text = "Dated: 1 May 2020 (1) ZARVIX LABS LIMITED (2) IVO PELL Consultancy Agreement\n\nCONTENTS\n"
    start = text.index("Consultancy")
    assert _title(text) == ("Consultancy Agreement", start, start + 21)


def test_a_caption_sentence_gives_way_to_the_heading_the_preamble_repeats() -> None:
    text = (
        "Warehouse Lease Agreement between Zarvix Labs Corp. and Quorra Realty, Inc.\n\n"
        "EX-10.5 2 0002.txt EXHIBIT 10.5 CONTENTS SECTION 1 - PREMISES 2 WAREHOUSE LEASE This"
        " Warehouse Lease is entered into by Quorra Realty, Inc. and Zarvix Labs Corp. as of May 1, 2020."
    )
    start = text.index("WAREHOUSE LEASE")
    assert _title(text) == ("WAREHOUSE LEASE", start, start + 15)


def test_a_filing_stamps_clock_time_is_no_title_word() -> None:
    text = (
        "Filed with Records Office 03/02/2020 4:15:07 PM CONSULTING AGREEMENT BETWEEN ZARVIX LABS AND QUORRA LLP"
        ' Section A. Zarvix Labs engages Quorra LLP as its consultant on the terms below.'
    )
    start = text.index("CONSULTING")
    assert _title(text) == ("CONSULTING AGREEMENT", start, start + 20)


def test_a_heading_run_into_one_line_goes_on_with_and_up_to_its_rule() -> None:
    text = (
        "EXHIBIT 10.7 -------- RETIREMENT AGREEMENT AND MUTUAL RELEASE, DATED MAY 1, 2020, OF ZARVIX LABS"
        " WITH IVO PELL 2 RETIREMENT AGREEMENT AND MUTUAL RELEASE ------------ 1. Ivo Pell retires from Zarvix Labs"
    )
    start = text.index("RETIREMENT")
    assert _title(text) == ("RETIREMENT AGREEMENT AND MUTUAL RELEASE", start, start + 39)


def test_a_heading_drawn_in_a_box_is_one_title_over_its_lines() -> None:
    text = (
        "Exhibit 10.1\nCONVENIENCE\nTRANSLATION\n****************\nSHORT\nTERM WAREHOUSE LEASE AGREEMENT\n"
        "****************\nLESSOR\n(\"Lessor\"):\nZARVIX LABS K.K.\n"
    )
    start = text.index("SHORT")
    assert _title(text) == ("SHORT TERM WAREHOUSE LEASE AGREEMENT", start, text.index("\n****", start))
    # Without the box the line above is no part of the heading.
    open_text = text.replace("****************\nSHORT", "SHORT\n").replace("AGREEMENT\n****************", "AGREEMENT\n")
    start = open_text.index("TERM WAREHOUSE")
    assert _title(open_text) == ("TERM WAREHOUSE LEASE AGREEMENT", start, start + 30)


def test_the_agreement_word_alone_that_the_preamble_repeats_in_a_run_in_filing() -> None:
    text = "Exhibit 10.10 AGREEMENT THIS AGREEMENT made at Springfield on 1 May 2020, between Zarvix Labs Pvt. Ltd."
    start = text.index("AGREEMENT")
    assert _title(text) == ("AGREEMENT", start, start + 9)


def test_a_heading_that_opens_with_the_keeps_it_and_the_title_without_it_is_an_alias() -> None:
    text = (
        "THE HARBOR POINT SUPPLY AGREEMENT\n\n"
        'This Supply Agreement (the "Agreement") is made as of May 1, 2020 between Zarvix Labs, Inc. and Quorra LLC.\n'
    )
    title, aliases = agreement_names(text)
    assert title is not None and (title.text, title.start, title.end) == ("THE HARBOR POINT SUPPLY AGREEMENT", 0, 33)
    assert ("HARBOR POINT SUPPLY AGREEMENT", 4, 33, "heading") in [(a.text, a.start, a.end, a.source) for a in aliases]
    # After page furniture on its line the article is read as noise, as before.
    run_in = "EXHIBIT 10.1 THE HARBOR POINT SUPPLY AGREEMENT This agreement is made between Zarvix Labs and Quorra LLC."
    start = run_in.index("HARBOR")
    assert _title(run_in) == ("HARBOR POINT SUPPLY AGREEMENT", start, start + 29)


def test_a_kind_word_above_a_title_that_opens_with_the_agreement_word_is_its_first_word() -> None:
    text = "Supply\nContract of Packaging Materials\n|\nSeller:\nZarvix Packaging Co., Ltd.\n|\nBuyer:\nQuorra Foods Co., Ltd.\n"
    assert _title(text) == ("Supply Contract of Packaging Materials", 0, 38)
    # A name above it is no kind: the title stays as its line has it.
    named = text.replace("Supply\n", "Zarvix\n")
    assert _title(named) == ("Contract of Packaging Materials", 7, 38)


def test_an_instrument_without_an_agreement_word_is_titled_by_the_heading_it_calls_itself_by() -> None:
    text = (
        "THIS WARRANT HAS NOT BEEN REGISTERED UNDER THE SECURITIES ACT OF 1933.\n\nZARVIX LABS, INC.\n\n"
        "WARRANT TO PURCHASE COMMON STOCK\n\nWarrant No. W-12\n\n"
        "FOR VALUE RECEIVED, Quorra Capital LLC may purchase shares of Zarvix Labs, Inc. as this Warrant provides.\n"
    )
    start = text.index("WARRANT TO")
    assert _title(text) == ("WARRANT TO PURCHASE COMMON STOCK", start, start + 32)


def test_the_article_opening_a_sentence_is_no_title_word() -> None:
    # "The agreement between ..." is prose about an agreement: no heading, no title.
    assert _title("The agreement between Zarvix Labs, Inc. and Quorra LLC expires next year.") is None
    assert _title("The Supply Agreement between Zarvix Labs, Inc. and Quorra LLC expires next year.") == (
        "Supply Agreement", 4, 20,
    )


def test_a_letter_titled_by_its_subject_line_reads_its_parties_as_a_letter() -> None:
    from ingest.annotate import annotate_document

    text = (
        "Zarvix Trading Limited\n12 Harbour Road\nKowloon\n\nAttn: Mr Ivo Pell\n\nDear Sirs,\n"
        'TERM LOAN FACILITY UNDER THE HARBOUR GUARANTEE SCHEME ("HGS SCHEME")\n'
        'Quorra Bank Limited (the "Bank") is pleased to offer the facility below under the Harbour Guarantee'
        ' Scheme of Kestrel Insurance Limited ("KIL") on the terms and conditions set out in this letter.\n'
        "BORROWER: Zarvix Trading Limited\n\nYours faithfully,\nQuorra Bank Limited\n\n"
        "Accepted and agreed:\nZarvix Trading Limited\n"
    )
    result = annotate_document(text, [(0, len(text))], doc_id="letter", revision="r1")
    agreement = next(s for s in result.subjects if s.type == "agreement")
    assert agreement.name == "TERM LOAN FACILITY UNDER THE HARBOUR GUARANTEE SCHEME"
    parties = {s.name for s in result.subjects if s.subject_id in agreement.attributes["parties"]}
    # The insurer the letter mentions is defined in its prose, never a party of the letter.
    assert parties == {"Quorra Bank Limited", "Zarvix Trading Limited"}
