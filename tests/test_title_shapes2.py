"""Agreement title shapes read from how contracts lay out their title (issue 9, titles that hold
on unseen contracts): a heading the preamble repeats, a heading cut short or lengthened by the
preamble, a cover page, a title that opens with the agreement word and carries its subject
after it. Invented names throughout; each test asserts the exact title, its span and its
aliases."""

from __future__ import annotations

from ingest.agreements import agreement_names, parent_amendment

PREAMBLE = (
    ' (the "Agreement") is made as of May 1, 2020 by and between Zarvix Labs, Inc. ("Zarvix") and'
    ' Quorra Systems LLC ("Quorra").\n\n1. TERMS\n'
)


def _names(text: str) -> tuple[tuple[str, int, int] | None, list[tuple[str, str]]]:
    title, aliases = agreement_names(text)
    if title is not None:
        assert " ".join(text[title.start : title.end].split()) == title.text
    return (title.text, title.start, title.end) if title else None, [(a.text, a.source) for a in aliases]


def test_a_heading_repeated_by_the_preamble_is_the_title_with_its_tail() -> None:
    # Run into one line: the caps heading goes on after the agreement word, and the preamble
    # right after it repeats every word, so the whole heading is the title.
    text = (
        "Exhibit 99.4 RELEASE AND SETTLEMENT AGREEMENT AND COVENANT This Release And Settlement Agreement"
        ' And Covenant ("the Agreement") is entered into by and between Zarvix Labs, Inc. and Quorra Systems LLC.'
    )
    assert _names(text) == (
        ("RELEASE AND SETTLEMENT AGREEMENT AND COVENANT", 13, 58),
        [],  # the preamble's name is the title's own words, "the Agreement" only a defined term
    )


def test_a_letterhead_name_before_the_repeated_heading_is_no_part_of_the_title() -> None:
    text = (
        "EXHIBIT 10.2 BRAMBLE FINANCE, INCORPORATED MASTER LEASE AGREEMENT This MASTER LEASE AGREEMENT"
        ' ("MLA") is dated as of May 1, 2020 by and between Bramble Finance Incorporated and Quorra Systems LLC.'
    )
    assert _names(text) == (("MASTER LEASE AGREEMENT", 43, 65), [])
    # Words before the repeated heading that are no company's name stay title words: the
    # preamble's shorter name is then an alias.
    text = (
        "EXHIBIT 10.2 PRIVATE LABEL MASTER LEASE AGREEMENT This MASTER LEASE AGREEMENT"
        ' ("MLA") is dated as of May 1, 2020 by and between Bramble Finance Incorporated and Quorra Systems LLC.'
    )
    assert _names(text) == (
        ("PRIVATE LABEL MASTER LEASE AGREEMENT", 13, 49),
        [("MASTER LEASE AGREEMENT", "self_name")],
    )


def test_a_document_without_an_agreement_word_is_titled_by_the_heading_its_preamble_repeats() -> None:
    text = (
        "EQUIPMENT SCHEDULE AND DELIVERY RECEIPT NO. K-7 This EQUIPMENT SCHEDULE AND DELIVERY RECEIPT, dated as"
        ' of May 1, 2020, between Bramble Finance Incorporated ("Lessor") and Quorra Systems LLC ("Lessee").'
    )
    assert _names(text) == (("EQUIPMENT SCHEDULE AND DELIVERY RECEIPT NO. K-7", 0, 47), [])


def test_the_heading_wins_over_a_preamble_name_that_only_adds_an_article() -> None:
    text = (
        "THIRD AMENDMENT TO SECOND AMENDED AND RESTATED LOAN AGREEMENT\n\nThis THIRD AMENDMENT TO THE SECOND"
        " AMENDED AND RESTATED LOAN AGREEMENT" + PREAMBLE
    )
    assert _names(text) == (
        ("THIRD AMENDMENT TO SECOND AMENDED AND RESTATED LOAN AGREEMENT", 0, 61),
        [("THIRD AMENDMENT TO THE SECOND AMENDED AND RESTATED LOAN AGREEMENT", "self_name")],
    )


def test_a_heading_spelling_its_words_with_a_hyphen_stays_the_title() -> None:
    text = "CO-MARKETING AGREEMENT\n\nThis Comarketing Agreement" + PREAMBLE
    assert _names(text) == (("CO-MARKETING AGREEMENT", 0, 22), [("Comarketing Agreement", "self_name")])


def test_a_longer_heading_is_the_title_and_the_preambles_short_name_an_alias() -> None:
    # Principle: the heading is what the document shows as its name; the preamble's name made of
    # heading words is a short form of it (and a question may ask by either).
    text = "PATENT AND KNOW-HOW LICENSE AGREEMENT\n\nThis License Agreement" + PREAMBLE
    assert _names(text) == (
        ("PATENT AND KNOW-HOW LICENSE AGREEMENT", 0, 37),
        [("License Agreement", "self_name")],
    )


def test_a_heading_broken_over_lines_is_joined_when_a_cover_line_shows_it_whole() -> None:
    text = (
        "EXCLUSIVE SOURCING FRAMEWORK AGREEMENT\nEXCLUSIVE\nSOURCING FRAMEWORK AGREEMENT\nBy and among\n"
        "Zarvix Labs Limited\nAnd\nQuorra Systems Co., Ltd.\n\nTHIS EXCLUSIVE SOURCING\nAGREEMENT (this Agreement)"
        " is entered into on 2 May 2020 by and among Zarvix Labs Limited and Quorra Systems Co., Ltd.\n"
    )
    assert _names(text)[0] == ("EXCLUSIVE SOURCING FRAMEWORK AGREEMENT", 39, 77)


def test_a_title_opening_with_the_agreement_word_goes_on_over_its_lines() -> None:
    text = (
        "Dated 2020\n\n(1) THE PERSONS listed in schedule 1\n\n(2) Quorra Systems Inc\n\n"
        "AGREEMENT FOR THE SALE AND PURCHASE OF THE\nENTIRE ISSUED SHARE CAPITAL OF ZARVIX WIDGETS\nLIMITED\n\n"
        "THIS AGREEMENT is made on this 4th day of April 2020\n\nBETWEEN:\n"
    )
    assert _names(text)[0] == (
        "AGREEMENT FOR THE SALE AND PURCHASE OF THE ENTIRE ISSUED SHARE CAPITAL OF ZARVIX WIDGETS LIMITED",
        74,
        170,
    )
    # A line under it that names the parties is no part of it.
    text = "AGREEMENT FOR THE PROVISION OF\nHOSTING SERVICES\nBETWEEN ZARVIX LABS, INC. AND QUORRA SYSTEMS LLC\n\nThis Agreement" + PREAMBLE
    assert _names(text)[0] == ("AGREEMENT FOR THE PROVISION OF HOSTING SERVICES", 0, 47)


def test_a_one_line_filing_titled_by_the_heading_before_its_preamble() -> None:
    # The cover's title runs into "BETWEEN", the first page's into "THIS AGREEMENT is made"; an
    # exhibit's letter label before it is page furniture.
    text = (
        "Exhibit 10.1 AGREEMENT FOR FIRM STORAGE OF REFINED PRODUCTS IN THE PORT OF LAKEVIEW BETWEEN ZARVIX"
        " TERMINALS L.L.C. AND QUORRA FUELS COMPANY TABLE OF CONTENTS I. Definitions 2 II. Storage 4 Exhibit A"
        " Exhibit B AGREEMENT FOR FIRM STORAGE OF REFINED PRODUCTS IN THE PORT OF LAKEVIEW THIS AGREEMENT is"
        " made and entered into this 2nd day of May, 2020, by and between ZARVIX TERMINALS L.L.C. and QUORRA"
        " FUELS COMPANY."
    )
    assert _names(text)[0] == (
        "AGREEMENT FOR FIRM STORAGE OF REFINED PRODUCTS IN THE PORT OF LAKEVIEW",
        210,
        280,
    )


def test_an_instrument_titled_only_on_its_cover_page() -> None:
    text = (
        "Exhibit 10.1\n\n\nRETAIL STORE SUBLEASE\n\n400 HARBOR VIEW ROAD\nLAKEVIEW, OREGON\n\nZARVIX PROPERTIES LLC\n"
        "AS LANDLORD\n\nAND\n\nQUORRA OUTFITTERS LLC\nAS TENANT\n\n\nTABLE OF CONTENTS\nSection   Page\n1. Premises   2\n"
    )
    assert _names(text) == (("RETAIL STORE SUBLEASE", 15, 36), [])
    # The same heading over a memo's lines, with no party list and no preamble, titles nothing.
    memo = "RETAIL STORE SUBLEASE\n\nNotes for the site visit on Friday.\n\nThe roof needs repair.\n"
    assert _names(memo) == (None, [])


def test_an_addendum_heading_laid_out_in_table_cells_names_its_parent() -> None:
    text = (
        'SECOND ADDENDUM\n|\nto\n|\nFleet Services Agreement 2018 ("Agreement")\n|\ndated\n|\n3 March 2017\n|\n'
        "between\n|\nZarvix Labs AS, Oslo (\"Zarvix\")\n|\nand\n|\nQuorra Systems AS, Bergen (\"Quorra\")\n"
        "WHEREAS the parties wish to extend the Agreement;\n"
    )
    title, aliases = agreement_names(text)
    assert title is not None
    # The rules between the cells ("|") are no words of the title; the defined term is not either.
    assert (title.text, title.start, title.end) == ("SECOND ADDENDUM to Fleet Services Agreement 2018", 0, 52)
    read = parent_amendment(title, aliases, text)
    assert read is not None and (read[0].relation, read[0].parent) == ("amends", "Fleet Services Agreement 2018")


def test_a_power_of_attorney_and_a_letter_of_credit_are_titled_instruments() -> None:
    text = (
        "POWER OF ATTORNEY\n\nKNOW ALL PERSONS BY THESE PRESENTS, that Zarvix Labs, Inc. hereby appoints"
        " Quorra Systems LLC as its true and lawful attorney-in-fact.\n"
    )
    assert _names(text) == (("POWER OF ATTORNEY", 0, 17), [])
    text = (
        "IRREVOCABLE STANDBY LETTER OF CREDIT NO. 4471\n\nBeneficiary: Zarvix Labs, Inc.\n\n"
        "We hereby establish in your favor our irrevocable standby letter of credit.\n"
    )
    assert _names(text) == (("IRREVOCABLE STANDBY LETTER OF CREDIT NO. 4471", 0, 45), [])


def test_an_assignment_titled_by_what_it_assigns() -> None:
    text = (
        "ASSIGNMENT OF TRADEMARKS\n\nFOR GOOD AND VALUABLE CONSIDERATION, the receipt of which is hereby"
        ' acknowledged, Zarvix Labs, Inc. ("Assignor") hereby assigns to Quorra Systems LLC ("Assignee") all'
        " right, title and interest in the marks.\n"
    )
    assert _names(text) == (("ASSIGNMENT OF TRADEMARKS", 0, 24), [])
    # A note headed so, that neither has a preamble nor speaks as an instrument, is no contract.
    assert _names("ASSIGNMENT OF DUTIES\n\nPlease see the rota for next week.\n") == (None, [])


def test_a_heading_that_names_its_subject_after_the_agreement_word_is_the_title() -> None:
    text = (
        "Exhibit 10.7\nCooperation Agreement on Cold Chain Logistics in the Harbor Area\n"
        "Party A: Zarvix Labs Co., Ltd.\nParty B: Quorra Systems Co., Ltd.\n"
        "This Agreement was entered into between Zarvix Labs Co., Ltd. and Quorra Systems Co., Ltd.\n"
    )
    # The part up to the agreement word is an alias: it is how the contract is often named.
    assert _names(text) == (
        ("Cooperation Agreement on Cold Chain Logistics in the Harbor Area", 13, 77),
        [("Cooperation Agreement", "heading")],
    )
    # A company named after "FOR" is no subject: the heading is the agreement word's run.
    text = "SERVICES AGREEMENT FOR ZARVIX LABS, INC.\n\nThis Services Agreement" + PREAMBLE
    assert _names(text)[0] == ("SERVICES AGREEMENT", 0, 18)


def test_a_heading_centred_over_two_lines_is_one_title() -> None:
    text = (
        "EX-10.1\n\n"
        "                                 CLINICAL DATA\n\n"
        "                         MANAGEMENT SERVICES AGREEMENT\n\n"
        "                            BETWEEN ZARVIX AND QUORRA\n\n"
        'This Master Agreement, dated as of the Effective Date, is between Zarvix Labs Ltd. ("Zarvix") and\n'
        'Quorra Systems Corporation ("Quorra").\n'
    )
    assert _names(text)[0] == ("CLINICAL DATA MANAGEMENT SERVICES AGREEMENT", 42, 111)
    # Lines that do not share a middle stay apart: the lower line alone is the heading.
    text = text.replace("                                 CLINICAL DATA", "CLINICAL DATA")
    assert _names(text)[0] == ("MANAGEMENT SERVICES AGREEMENT", 49, 78)


def test_a_form_without_a_heading_line_is_titled_by_its_name_for_itself() -> None:
    text = (
        "EXHIBIT 10.4 THE ZARVIX STATE BANK EQUIPMENT LEASE C/O ZARVIX LEASING 12 MAIN STREET LAKEVIEW"
        " EQUIPMENT LEASE NUMBER 4471 DATED AS OF MAY 1, 2020 NAME AND ADDRESS OF LESSEE: QUORRA SYSTEMS LLC"
        " LEASE PROVISIONS 1. LEASE. LESSOR HEREBY AGREES TO LEASE TO LESSEE THE PROPERTY DESCRIBED IN A"
        " SUPPLEMENT TO THIS EQUIPMENT LEASE FROM TIME TO TIME SIGNED BY LESSOR AND LESSEE.\n"
    )
    assert _names(text) == (("EQUIPMENT LEASE", 35, 50), [])


def test_a_centred_letterhead_over_the_heading_is_no_part_of_the_title() -> None:
    text = (
        "                               ZARVIX LABS\n\n"
        "                            SUPPLY AGREEMENT\n\n"
        'This Supply Agreement is made between Zarvix Labs, Inc. ("Zarvix") and Quorra Systems LLC ("Quorra").\n'
    )
    assert _names(text)[0] == ("SUPPLY AGREEMENT", 72, 88)


def test_the_makers_of_a_titled_instrument_bind_to_its_record() -> None:
    # Untitled, a power of attorney made no agreement record and its makers bound to nothing.
    from ingest.annotate import annotate_document

    text = (
        'POWER OF ATTORNEY\n\nKNOW ALL PERSONS BY THESE PRESENTS, that Zarvix Labs, Inc., a Delaware corporation'
        ' ("Grantor"), hereby appoints Quorra Systems LLC ("Agent") as its true and lawful attorney-in-fact.\n'
    )
    annotations = annotate_document(text, [(0, len(text))], doc_id="poa", revision="r1")
    agreement = next(s for s in annotations.subjects if s.type == "agreement")
    assert agreement.name == "POWER OF ATTORNEY"
    assert agreement.attributes["parties"] == ["org:zarvix labs", "org:quorra systems"]


def test_a_question_reads_the_new_instrument_titles_as_titles() -> None:
    # The question side builds its instrument titles from the same list, so a title ingest can
    # record is one a question can name.
    from service.evidence.subject_class import parse_question

    read = parse_question("What law governs the Power of Attorney between Zarvix Labs, Inc. and Quorra Systems LLC?")
    assert (read.pattern, read.agreement_title, read.parties, read.failures) == (
        "agreement_attribute_instrument",
        "Power of Attorney",
        ["Zarvix Labs, Inc.", "Quorra Systems LLC"],
        [],
    )
    read = parse_question("What law governs the Letter of Credit No. 4471 between Zarvix Labs, Inc. and Quorra Systems LLC?")
    assert (read.agreement_title, read.parties) == ("Letter of Credit No. 4471", ["Zarvix Labs, Inc.", "Quorra Systems LLC"])


def test_an_instrument_over_a_key_provisions_table_of_party_roles() -> None:
    text = (
        "Exhibit 10.28\nSUBLEASE\nKEY PROVISIONS\n|Sublease Date:\n|May 1, 2020\n|Sublandlord:\n"
        "|ZARVIX CLINICS, INC., a Georgia corporation\n|Subtenant:\n|QUORRA MD, INC., a Nevada corporation\n"
    )
    assert _names(text) == (("SUBLEASE", 14, 22), [])
    # A label that is no party role ("Premises:") shows no party list.
    assert _names("Exhibit 10.28\nSUBLEASE\nKEY PROVISIONS\n|Premises:\n|Suite 251\n") == (None, [])


def test_page_furniture_lines_take_no_place_among_the_heading_lines() -> None:
    text = (
        "1\nEXHIBIT 10.3(d)\nLOAN NO.\nGP-1234-5678\nSMALL BUSINESS LENDING PROGRAM\nGUARANTY\nMay 1, 2020\n"
        'In order to induce Zarvix Bank, N.A. ("Lender") to make a loan to Quorra Systems LLC ("Debtor"),'
        " the Undersigned hereby unconditionally guarantees to Lender the payment of the note.\n"
    )
    # (Stop 59: the heading's capitals lines over the title, furniture left out, are an alias.)
    assert _names(text) == (("GUARANTY", 71, 79), [("SMALL BUSINESS LENDING PROGRAM GUARANTY", "heading_block")])


def test_a_legend_sentence_before_the_repeated_heading_is_no_part_of_the_title() -> None:
    text = (
        "EXHIBIT 10.1 CONFIDENTIAL TREATMENT REQUEST [ * ] INDICATES INFORMATION THAT HAS BEEN OMITTED AND THIS"
        " INFORMATION HAS BEEN FILED UNDER SEPARATE COVER WITH THE COMMISSION HOSTING AND SUPPORT AGREEMENT THIS"
        ' HOSTING AND SUPPORT AGREEMENT (the "AGREEMENT") is entered into as of May 1, 2020 by and between'
        " Zarvix Labs, Inc. and Quorra Systems LLC."
    )
    assert _names(text) == (("HOSTING AND SUPPORT AGREEMENT", 171, 200), [])
