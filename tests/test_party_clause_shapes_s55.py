"""Party clause and title shapes of stop 55 (issue 9). Each was found on a fresh labelled set of
real contract openings; the names here are invented. Each test but the guards fails on the code
before its rule (checked by running these tests against that code).
"""

from __future__ import annotations

from ingest.agreements import Title, _instrument_heading
from ingest.definitions import between_windows, find_definitions
from tests.helpers import agreement_title, bound_party_aliases, bound_party_names


def _antecedents(text: str) -> dict[str, str]:
    return {d.term: d.name.text for d in find_definitions(text) if d.name is not None}


# --- people and their representatives ---


def test_a_professor_is_asked_for_without_the_title() -> None:
    text = (
        "CONSULTING AGREEMENT\nThis CONSULTING AGREEMENT is entered into by and between: Kestrel Medical Research"
        " Ltd. (\u201cKestrel\u201d), whose address is P.O. Box 1, Jerusalem; Professor Dana Quill (\u201cProf."
        " Quill\u201d), whose address is care of Kestrel; and Harrow Therapeutics Inc. (the \u201cCompany\u201d).\n"
    )
    aliases = bound_party_aliases(text)
    # Before, the person was asked for only as "Professor Dana Quill".
    assert "Dana Quill" in aliases["Professor Dana Quill"]


def test_a_representative_acting_for_a_company_is_no_party() -> None:
    text = (
        "Consulting Agreement\nThis is an agreement dated May 7, 2003 by and between Josh Pellridge having residence"
        " at 157 Ridgeway Circle Arnold, MD 21012 (hereinafter referred to as The Consultant), and Jamie Quill,"
        " acting on behalf and in representation of T & Q2, Inc. (OTCBB: TTQQ), whose address is 65 Grande Avenue,"
        " Berkeley Heights, NJ 07922 (hereinafter referred to as The Company).\n"
    )
    # Before, Jamie Quill was bound with the term "The Company".
    assert bound_party_aliases(text) == {"Josh Pellridge": ["The Consultant"], "T & Q2, Inc.": ["The Company"]}
    # Guard: the person without the lead is the party the term names.
    plain = text.replace(", acting on behalf and in representation of T & Q2, Inc. (OTCBB: TTQQ)", "")
    assert _antecedents(plain)["The Company"] == "Jamie Quill"


# --- addresses, dates and company numbers around names ---


def test_a_city_with_its_state_written_out_and_a_postal_code_is_an_address() -> None:
    text = (
        "Consulting Agreement\nTHIS AGREEMENT, made this 8 day of May, 2000 by and between Wrenfield Interactive,"
        " Inc., a Florida corporation, having its principle office at 20283 State Road 7, Suite 300. Boca Grande,"
        ' Florida 33498 ("Company"), Pellmore Management Corporation, California Corporation, having its principle'
        ' office at 11 Foxhurst Way, San Jose, California 95120 ("Consultant").\n'
    )
    # Before, "Boca Grande" was bound as the Company.
    assert bound_party_aliases(text) == {
        "Wrenfield Interactive, Inc.": ["Company"],
        "Pellmore Management Corporation": ["Consultant"],
    }


def test_a_cover_date_line_under_the_last_name_is_no_part_of_it() -> None:
    for date in ("1 DECEMBER 1994", "DECEMBER 1, 1994"):
        text = (
            "LICENSE AGREEMENT\nBETWEEN\nQUILLON, INC.\nAND\nTHE TRUSTEES OF THE UNIVERSITY OF WESTLAND\n"
            f"{date}\nTABLE OF CONTENTS\n"
        )
        # Before, the date was read into the university's name.
        assert bound_party_names(text) == {"QUILLON, INC.", "THE TRUSTEES OF THE UNIVERSITY OF WESTLAND"}, date


def test_the_company_a_term_is_made_from_defines_it_across_a_broken_description() -> None:
    text = (
        "DISTRIBUTION AGREEMENT made November 1995 PARTIES SYSTEM QUILL SOFTWARE LIMITED a company incorporated in"
        ' the Isle of Man of ("System Quill Software") AND S Q TECH PTY LIMITED ACN 002 957 128 of Level 18, Bondi'
        ' Junction (the "Distributor") INTRODUCTION A. The Distributor has distributed the Licensed Programs.\n'
    )
    # Before, the first party had no definition and was never bound.
    assert _antecedents(text)["System Quill Software"] == "SYSTEM QUILL SOFTWARE LIMITED"
    assert bound_party_aliases(text) == {
        "SYSTEM QUILL SOFTWARE LIMITED": ["System Quill Software"],
        "S Q TECH PTY LIMITED": ["Distributor"],
    }
    # Guard: a description longer than the bound (80 characters) keeps the name apart.
    far = text.replace("incorporated in the Isle of Man of", "incorporated in the Isle of Man " + "x " * 30 + "of")
    assert "System Quill Software" not in _antecedents(far)


# --- lists of parties ---


def test_a_party_listed_after_a_members_long_description_and_term() -> None:
    text = (
        'COLLABORATION AGREEMENT This Agreement ("Agreement"), effective as of June 28, 1996, by and among Quill'
        " Genome Sciences, Inc., a corporation organized under the laws of the State of Delaware, having a place of"
        " business at 9410 Key West Avenue, Rockville, Maryland 20850, for itself and its AFFILIATES, as defined below"
        ' (collectively including such AFFILIATES "QGS"), Wrenning Corporation, a corporation organized under the'
        " laws of the State of New Jersey, having a place of business at 2000 Galloping Hill Road, Kenilworth, New"
        " Jersey 07033, and Wrenning Plough Ltd., a Swiss corporation having its principal place of business at"
        ' Lucerne, Switzerland, each for itself and its AFFILIATES (collectively "WP"). WITNESSETH THAT: WHEREAS QGS'
        " holds gene sequence information.\n"
    )
    # Before, Wrenning Corporation was never read.
    assert bound_party_names(text) == {"Quill Genome Sciences, Inc.", "Wrenning Corporation", "Wrenning Plough Ltd."}


def test_an_unquoted_member_term_does_not_end_the_list() -> None:
    text = (
        "JOINT DEVELOPMENT AGREEMENT\nThis Joint Development Agreement (Agreement) is entered into as of July 10,"
        " 2001 (Effective Date) by and among Wren International Corporation, a Delaware corporation (Licensor),"
        " Quillbeni Corporation, a Japanese corporation (Quillbeni), and Tsukiwren Kikai Co., Ltd., a Japanese"
        " corporation (TSK) (each of Quillbeni and TSK, a Licensee).\n"
    )
    # Before, Quillbeni Corporation was never read.
    assert bound_party_names(text) == {"Wren International Corporation", "Quillbeni Corporation", "Tsukiwren Kikai Co., Ltd."}


def test_a_name_its_description_calls_a_corporation_is_a_party_without_a_legal_form() -> None:
    text = (
        "FOUNDRY AGREEMENT\nThis FOUNDRY AGREEMENT is made this 3rd day of August, 2009, by and between QUILL DEVICE"
        " TECHNOLOGY, INC., a Delaware corporation (\u201cQDT\u201d), Wrenwan Semiconductor Manufacturing Co., Ltd.,"
        " a company duly incorporated under the laws of the Republic of China, and WSMC North America, a California"
        " corporation with its principal place of business at 2585 Junction Avenue, San Jose, CA 95014 (together with"
        " Wrenwan Semiconductor Manufacturing Co., Ltd., \u201cWSMC\u201d).\n"
    )
    # Before, WSMC North America (no legal form) was never bound.
    assert bound_party_names(text) == {
        "QUILL DEVICE TECHNOLOGY, INC.", "Wrenwan Semiconductor Manufacturing Co., Ltd.", "WSMC North America",
    }
    # Guard: a description naming no kind of company keeps such a name out.
    person = text.replace("a California corporation", "a California resident")
    assert "WSMC North America" not in bound_party_names(person)


def test_a_flattened_covers_names_run_on_one_after_another() -> None:
    text = (
        "MONONGAWREN USAGE AGREEMENT Dated as of June 1, 1999 By and Among QUILL TRANSPORTATION, INC. NORFOLK"
        " HARBOUR RAILWAY COMPANY PENNSYLVANIA QUAY LINES LLC NEW YORK WREN LINES LLC TABLE OF CONTENTS Page"
        " Section 1. Definitions. . . . . . 4\n"
    )
    # Before, only the first company was bound.
    assert bound_party_names(text) == {
        "QUILL TRANSPORTATION, INC.", "NORFOLK HARBOUR RAILWAY COMPANY", "PENNSYLVANIA QUAY LINES LLC",
        "NEW YORK WREN LINES LLC",
    }


def test_a_company_named_inside_another_is_another_party_when_each_has_its_own_term() -> None:
    text = (
        "ADMINISTRATION SERVICES AGREEMENT\nAGREEMENT made as of the 15th day of May, 1997 by and between First"
        ' Wren-West Life & Annuity Insurance Company ("FWWL"), a New York corporation, and Wren-West Life &'
        ' Annuity Insurance Company ("WWL&A"), a Colorado corporation.\nWHEREAS, FWWL desires WWL&A to perform'
        " services.\n"
    )
    # Before, the second company was taken for a shorter mention of the first.
    assert bound_party_aliases(text) == {
        "First Wren-West Life & Annuity Insurance Company": ["FWWL"],
        "Wren-West Life & Annuity Insurance Company": ["WWL&A"],
    }


def test_the_word_after_co_before_the_description_closes_the_name() -> None:
    text = (
        "AGREEMENT This Agreement is made on this 23 day of December, 1993 between Western Quill Corporation"
        ' ("Seller"), a Texas corporation, and Wren-Cola Bottling Co. Consolidated, a Delaware corporation having'
        ' its principal place of business at Charlotte, NC 28210 ("Buyer"). WITNESSETH: WHEREAS, Seller makes'
        " bottles.\n"
    )
    # Before, the name was cut at "Co.".
    assert bound_party_aliases(text) == {
        "Western Quill Corporation": ["Seller"],
        "Wren-Cola Bottling Co. Consolidated": ["Buyer"],
    }
    # Guard: a place after "Co." is no part of the name.
    place = text.replace("Co. Consolidated", "Co. Delaware")
    assert "Wren-Cola Bottling Co. Delaware" not in bound_party_names(place)


# --- what is no party ---


def test_the_parties_of_an_agreement_the_preamble_amends_are_not_this_ones() -> None:
    text = (
        "AMENDED AND RESTATED TRADEMARK LICENSE AGREEMENT\nTHIS AGREEMENT, entered into as of the 21st day of"
        ' October, 1996, by and between Quill Brands L.P., a Delaware limited partnership ("QB") and Quill'
        ' Direct, Inc., a Delaware corporation ("QD"), amends and restates the Trademark License Agreement'
        " between QB and Wrenstork Inc. until April 1, 1994, as amended.\nWHEREAS, QB owns the trademarks.\n"
    )
    # Before, Wrenstork Inc. was bound as a third party.
    assert bound_party_names(text) == {"Quill Brands L.P.", "Quill Direct, Inc."}
    # The party clause ends where the cited agreement's sentence part starts.
    windows = between_windows(text)
    assert len(windows) == 1 and windows[0][1] == text.index("amends and restates")


def test_the_firm_owning_a_covers_copyright_is_no_party() -> None:
    text = (
        "OPTION AGREEMENT\n\n\nbetween\n\n\nTHE UNIVERSITY COURT OF\n\nTHE UNIVERSITY OF WRENDEEN\n\n\nand\n\n\n"
        "QUILL SCIENCE LIMITED\n\n\n\n\nPELLMORE COMMERCIAL LLP\n\n5th Floor, 125 Princes Street, Edinburgh, EH2"
        " 4AD\n\nTELEPHONE 0131 226 8200\n\nCopyright \u00a9 2011, PELLMORE COMMERCIAL LLP.\n\nAll rights"
        " reserved.\n\n\n1\n\n\nOPTION AGREEMENT\n\nBETWEEN\n\n(1)\n\nTHE UNIVERSITY COURT OF THE UNIVERSITY OF"
        " WRENDEEN, a charity formed under the laws of Scotland (the \u201cUniversity\u201d);\n\n(2)\n\nQUILL"
        " SCIENCE LIMITED, a company incorporated in Scotland (\u201cQuill Science\u201d).\n"
    )
    assert "PELLMORE COMMERCIAL LLP" not in bound_party_names(text)
    assert {"THE UNIVERSITY COURT OF THE UNIVERSITY OF WRENDEEN", "QUILL SCIENCE LIMITED"} <= bound_party_names(text)


# --- titles ---


def test_a_deeds_cover_lists_its_parties_before_its_title() -> None:
    text = (
        "Exhibit 10.5\n\nQUILL ENERGY GROUP LIMITED\n\nACN 002 148 361\n\nWREN RESOURCES LLC\n\nand\n\nPELLCAP PTY"
        " LTD\n\nACN 601 893 109\n\nand\n\nBRUCE WILLIAM QUARRY\n\n\n\nAMENDED AND RESTATED\n\n \n\nCONSULTANCY"
        " SERVICES DEED\n\n\n\nTHIS DEED is made this 19th day of September 2014.\n\nBETWEEN:\n\nQUILL ENERGY GROUP"
        " LIMITED of Level 7, Sydney (\u201cCompany\u201d)\n\nand\n\nPELLCAP PTY LTD of Sydney (\u201cConsultant\u201d)\n"
    )
    # Before, the heading lay past the first five heading lines and the title was "Agreement".
    assert agreement_title(text) == "AMENDED AND RESTATED CONSULTANCY SERVICES DEED"
    start = text.index("CONSULTANCY SERVICES DEED")
    assert _instrument_heading(text) == Title("CONSULTANCY SERVICES DEED", start, start + 25)


def test_an_adjective_line_above_a_services_heading_opens_the_title() -> None:
    text = (
        "Exhibit 10.1\nADMINISTRATIVE\nSERVICES AGREEMENT\nBETWEEN\nFIRST WREN AMERICA CORPORATION\nAND\nQUILL"
        " HERITAGE LIFE INSURANCE COMPANY\n"
    )
    assert agreement_title(text) == "ADMINISTRATIVE SERVICES AGREEMENT"


# --- second batch of the stop (sets realCF-realCM) ---


def test_german_partnership_forms_after_and_co_are_legal_forms() -> None:
    text = (
        "SUPPLY AGREEMENT\nThis Supply Agreement is entered into between Quill Donner Automotive Division, a"
        ' division of Wren Technologies, Inc., a Delaware corporation ("QDAD"), and Continental Wrenves AG & Co.'
        ' oHG, a corporation organized under the laws of Germany ("CW"). QDAD and CW may be referred to herein'
        ' individually as a "party".\n'
    )
    # Before, "Co. oHG" was bound as a party of its own and the company cut at "AG".
    assert "Continental Wrenves AG & Co. oHG" in bound_party_names(text)
    assert "Co. oHG" not in bound_party_names(text)
    contract = (
        "SUPPLY CONTRACT\n\ndated as of January 3, 2006 by and among\n\nQuillrand S.p.A., a company incorporated"
        " under the laws of Italy (hereafter called Customer)\n\nand\n\nNordwren Arzneimittel GmbH & Co., a company"
        " incorporated under the laws of Germany (hereafter called Supplier)\n"
    )
    assert "Nordwren Arzneimittel GmbH & Co." in bound_party_names(contract)


def test_a_members_description_may_wrap_onto_the_next_line() -> None:
    text = (
        "QUILL PCS MANAGEMENT AGREEMENT\n\n      This QUILL PCS MANAGEMENT AGREEMENT is made as of November 5, 1999,\n"
        "between Quill Spectrum L.P., a Delaware limited partnership, WrenCo, L.P.,\na Delaware limited partnership,"
        " APQ PCS, LLC, a Delaware limited liability\ncompany, PellieCo, L.P., a Delaware limited partnership, and"
        " Shenwren\nPersonal Communications Company, a Virginia corporation (\"Manager\").\n\n"
        "                                    RECITALS\n\n      A. Quill Spectrum L.P. holds licenses.\n"
    )
    # Before, the list stopped at the description broken over the line, and PellieCo was lost.
    assert "PellieCo, L.P." in bound_party_names(text)


def test_by_and_through_opens_a_capacity_not_a_party() -> None:
    text = (
        "DISTRIBUTION AGREEMENT DATED APRIL 15, 2000 DISTRIBUTION AGREEMENT ENTERED INTO BY AND BETWEEN WRENOLA,"
        " INC. BY AND THROUGH ITS PERSONAL COMMUNICATIONS SECTOR LATIN AMERICA GROUP AND CELLQUILL, LTD. APRIL 15,"
        " 2000 INDEX OF CLAUSES 1. APPOINTMENT AS EXPORT DISTRIBUTOR..... 1\n"
    )
    # Before, the second party was read as "THROUGH ITS ... AND CELLQUILL, LTD.".
    assert bound_party_names(text) == {"WRENOLA, INC.", "CELLQUILL, LTD."}


def test_a_name_the_party_is_also_known_by_is_no_antecedent() -> None:
    text = (
        "PETROLEUM SERVICES SUBCONTRACT THIS AGREEMENT DATED AS OF JANUARY 14, 1996. BETWEEN: QXY NIGERIA"
        " OILFIELD SERVICES LTD., a body corporate incorporated under the laws of Barbados and having an office in"
        ' the City of Christ Church, Barbados (hereinafter called "Contractor") wholly owned by Canadian Quill'
        " Petroleum LTD. AND: ATWREN PETROLEUM INTERNATIONAL LIMITED, (also known as Atwren Petroleum"
        " International Nigeria Ltd.), a body corporate incorporated under the laws of the Federal Republic of"
        ' Nigeria, and having an office in the City of Lagos, Nigeria (hereinafter called "Atwren") -and- SUMMIT'
        ' OIL & GAS WORLDWIDE LTD, a body corporate incorporated under the laws of the Bahamas (hereinafter called'
        ' "Summit").\n'
    )
    # Before, the name in the remark took the definition and stood as the party.
    assert _antecedents(text)["Atwren"] == "ATWREN PETROLEUM INTERNATIONAL LIMITED"


def test_a_recitals_subject_after_two_defined_parties_is_a_third_company() -> None:
    text = (
        "SECOND AMENDED AND RESTATED RESEARCH AND LICENSE AGREEMENT\nThis Agreement is entered into as of July 26,"
        " 2007, by and between Brainwren Cell Therapeutics Inc., a company formed under the laws of the State of"
        " Delaware (\u201cLicensee\u201d) and Ramot at Quill Aviv University Ltd., a company formed under the laws of"
        " Israel, having a place of business at Quill Aviv University in Ramat-Aviv, Israel (\u201cRamot\u201d),"
        " for the purpose of amending and replacing the Research and License Agreement between the parties dated"
        ' March 30, 2006 (the "First Amended and Restated Research and License Agreement"), which replaced the'
        " previous Research and License Agreement between the parties dated July 12, 2004 (the \u201cOriginal"
        " Agreement\u201d).\n"
        "WHEREAS, Quill Aviv University (\u201cQAU\u201d) owns exclusive rights to certain technology;\n"
    )
    # Before, the university was bound as a third party with the term "QAU".
    assert bound_party_aliases(text) == {
        "Brainwren Cell Therapeutics Inc.": ["Licensee"],
        "Ramot at Quill Aviv University Ltd.": ["Ramot"],
    }
    # Guard: with one party defined so far, the recital's subject still defines a party.
    one = text.replace(" (\u201cLicensee\u201d)", "")
    assert "Quill Aviv University" in bound_party_names(one)


def test_a_numbered_or_sentence_case_agreement_heading_is_the_title() -> None:
    numbered = (
        "1\nEXHIBIT 10.10\nAGREEMENT NO. 01-08/98\nThis Agreement (\"the Agreement\") is made and entered into this"
        " 1st day of August, 1998 in Moscow\nbetween\nQuillcom of Moscow, a closed joint-stock company (\"QCM\") and"
        ' Company WTU-Inform, a limited partnership ("WTU-Inform").\n'
    )
    # Before, both titles were the fallback "Agreement".
    assert agreement_title(numbered) == "AGREEMENT NO. 01-08/98"
    sentence = (
        "Exhibit 4.10\n \nAgreement for the provision of services and the allocation of expenses\n \nMade and"
        " entered into in Kibbutz Sdot Wren, on October 14, 2021\n \nBy and between:\nQuillstone Ltd., P.C."
        " 51-143950-7\n"
    )
    assert agreement_title(sentence) == "Agreement for the provision of services and the allocation of expenses"
    # Guard: a sentence that goes on past a full stop is prose, no heading.
    prose = sentence.replace("of expenses\n", "of expenses is attached. The parties met.\n")
    assert not (agreement_title(prose) or "").startswith("Agreement for the provision")


# --- bounds of this stop's readers, each at its edge ---


def test_the_run_on_and_member_readers_stop_at_their_bounds() -> None:
    from ingest.annotate import _AFTER_MEMBER_TERMS_LIMIT, _RUN_ON_LIMIT, _after_member_terms, _caps_run_on
    from ingest.names import name_at

    names = [f"QUILL {chr(65 + i)}X HOLDINGS LLC" for i in range(_RUN_ON_LIMIT + 2)]
    cover = "By and Among " + " ".join(names) + " TABLE OF CONTENTS"
    first = name_at(cover, cover.index(names[0]), len(cover))
    assert [n.text for n in _caps_run_on(cover, first, len(cover))] == names[1 : _RUN_ON_LIMIT + 1]

    members = [f"Wren {chr(65 + i)}x Corporation" for i in range(_AFTER_MEMBER_TERMS_LIMIT + 2)]
    clause = "among Quill Inc., a Delaware corporation (\"Q0\"), " + ", ".join(
        f'{m}, a Delaware corporation ("W{i}")' for i, m in enumerate(members)
    )
    read = [n.text for n in _after_member_terms(clause, 0, len(clause))]
    assert read == members[:_AFTER_MEMBER_TERMS_LIMIT]


def test_a_dangling_title_line_joins_over_at_most_three_blank_lines() -> None:
    from ingest.agreements import _DANGLING_BLANK_LINES, _with_line_above

    def joined(blanks: int) -> str:
        text = "Exhibit 10.5\n\nAMENDED AND RESTATED\n" + "\n" * blanks + "CONSULTANCY SERVICES DEED\n\nTHIS DEED is made.\n"
        start = text.index("CONSULTANCY")
        return _with_line_above(text, Title("CONSULTANCY SERVICES DEED", start, start + 25)).text

    assert joined(_DANGLING_BLANK_LINES) == "AMENDED AND RESTATED CONSULTANCY SERVICES DEED"
    assert joined(_DANGLING_BLANK_LINES + 1) == "CONSULTANCY SERVICES DEED"
