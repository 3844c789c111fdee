"""Party clause shapes read from the misses of real contract openings (issue 9, stop 46: the cases
of the reading sets realH, realN, realO, realP, realQ, realS and realT that no CUAD contract shares
a party with). Names are invented and texts rewritten from the shapes. Each test but the guards
fails on the code before its rule.
"""

from __future__ import annotations

from ingest.agreements import find_title
from ingest.names import name_at, party_name_forms
from ingest.sentences import sentence_spans
from tests.helpers import bound_party_names, defined_terms


def agreement_title(text: str) -> str | None:
    title = find_title(text)
    return title.text if title is not None else None


def test_a_full_stop_that_ends_a_sentence_ends_the_name_before_it() -> None:
    # Before, the amendment's last party was "Dana Whitlow. Capitalized": the name read on over
    # the full stop into the next sentence.
    text = (
        "AMENDMENT NO. 2 TO THE PURCHASE AGREEMENT\nThis AMENDMENT NO. 2 (the \"Amendment\") to the Purchase "
        "Agreement, dated as of May 5, 2020 (the \"Purchase Agreement\"), by and among Corvane Holdings I L.P., a "
        "Delaware limited partnership (\"Corvane\"), and Dana Whitlow, is effective as of June 9, 2020, by and among "
        "Corvane and Dana Whitlow. Capitalized terms used herein shall have the meaning set forth in the Purchase "
        "Agreement.\nWHEREAS, the parties hereto are the parties to the Purchase Agreement.\n"
    )
    assert bound_party_names(text) == {"Corvane Holdings I L.P.", "Dana Whitlow"}
    sentence = "and Dana Whitlow. The Buyer shall pay"
    assert name_at(sentence, 4, len(sentence)).text == "Dana Whitlow"


def test_guard_an_abbreviation_or_a_legal_form_after_the_full_stop_keeps_the_name_whole() -> None:
    for text, name in (
        ("and St. Jude Medical, Inc. shall", "St. Jude Medical, Inc."),
        ("and Warner Bros. Pictures Inc. (the", "Warner Bros. Pictures Inc."),
        ("and Acme Mfg. Co. shall", "Acme Mfg. Co."),
        ("and Dr. Reddy Labs Ltd. (the", "Dr. Reddy Labs Ltd."),
        ("and U.S. Bank National Association, as", "U.S. Bank National Association"),
        # An Indian honorific, "M/s.", before a firm's name.
        ("and M/s. Raghavan Textiles, a partnership firm", "M/s. Raghavan Textiles"),
    ):
        found = name_at(text, 4, len(text))
        assert found is not None and found.text == name, text
    # The honorific is an abbreviation for the sentence splitter too.
    text = "Leased to M/s. Raghavan Textiles. The rent is due."
    assert [text[s:e] for s, e in sentence_spans(text, 0, len(text))] == ["Leased to M/s. Raghavan Textiles.", "The rent is due."]


def test_a_party_described_after_a_or_an_is_not_the_description() -> None:
    # Before, the term "Company" was read as the description "Delaware limited liability company",
    # and the party it defines was lost.
    text = (
        "AMENDMENT TO THE PURCHASE AGREEMENT\nThis AMENDMENT (the \"Amendment\") TO THE PURCHASE AGREEMENT, dated "
        "as of April 16, 2020 (the \"Purchase Agreement\"), by and among Corvane Holdings I L.P., a Delaware limited "
        "partnership (\"Corvane\"), Harrow Bay Partners, LLC, a Delaware limited liability company (the "
        "\"Company\"), Harrow Capital Corporation, an Illinois corporation (the \"Trading Advisor\") and Harrow "
        "Holding Company, a Virginia corporation (\"HHC\"), is effective as of the 6th day of December, 2020, by "
        "and among Corvane, the Company and the Trading Advisor.\nWHEREAS, the parties are the parties to the "
        "Purchase Agreement.\n"
    )
    assert defined_terms(text)["Company"] == "Harrow Bay Partners, LLC"
    assert bound_party_names(text) == {
        "Corvane Holdings I L.P.",
        "Harrow Bay Partners, LLC",
        "Harrow Capital Corporation",
        "Harrow Holding Company",
    }


def test_a_bare_item_number_before_a_party_opens_no_name() -> None:
    # Before, the first party was "1 NORTHGATE GENOMICS LIMITED" and the second was lost.
    text = (
        "JOINT VENTURE AGREEMENT\nTHIS Research Agreement (the \"Agreement\"), effective as of 31 March 1998 is "
        "entered into\nBETWEEN:\n1     NORTHGATE GENOMICS LIMITED a corporation doing business at 16 Science Park, "
        "Milton Road, Cambridge CB4 4GH, England (hereinafter called \"the\n      Company\"); and\n2     THE "
        "COUNCIL OF THE WESTLAND INSTITUTE OF MEDICAL RESEARCH, having its\n      registered office at 300 Herston "
        "Road, Brisbane (hereinafter called\n      \"WIMR\").\nTHE CIRCUMSTANCES:\nA.    Words defined in this "
        "Agreement have the same meanings in these recitals.\n"
    )
    assert bound_party_names(text) == {
        "NORTHGATE GENOMICS LIMITED",
        "THE COUNCIL OF THE WESTLAND INSTITUTE OF MEDICAL RESEARCH",
    }


def test_guard_a_number_inside_a_line_stays_part_of_the_name() -> None:
    # Only an item number that opens its line and stands apart from the name is dropped.
    text = "by and between 21  Century Holdings LLC, a"
    found = name_at(text, 15, len(text))
    assert found is not None and found.text.startswith("21")


def test_latin_drafting_on_the_other_part_and_a_roman_numeral_open_a_party() -> None:
    # Before, no party was bound: "on the other part" and "II)" stood before the name, the terms
    # follow "hereinafter simply referred to as" without brackets, and "e" split the name.
    text = (
        "DISTRIBUTION AGREEMENT\nBy this private instrument:\nOn the one part,\nI) LIVRARIA AURORA S.A., a "
        "joint-stock company with its principal place of business at Av. das Flores, 72, Pinheiros, in the City "
        "of São Paulo, herein represented in the form of its By-Laws, hereinafter simply referred to as\n"
        "\u201cPUBLISHER\u201d;\nand, on the other part,\nII) SOUSA E MORAIS DISTRIBUIDORA DE LIVROS LTDA, a private "
        "company with its principal place of business at Avenida Gomes, 670, Fortaleza, herein represented in the "
        "form of its Articles of Association/By-Laws, hereinafter simply referred to as\n\u201cDISTRIBUTOR\u201d,\n"
        "the PUBLISHER and the DISTRIBUTOR are hereinafter jointly referred to as \u201cParties\u201d.\nPREAMBLE\n"
    )
    terms = defined_terms(text)
    assert terms["PUBLISHER"] == "LIVRARIA AURORA S.A."
    assert terms["DISTRIBUTOR"] == "SOUSA E MORAIS DISTRIBUIDORA DE LIVROS LTDA"
    assert bound_party_names(text) == {"LIVRARIA AURORA S.A.", "SOUSA E MORAIS DISTRIBUIDORA DE LIVROS LTDA"}


def test_spanish_names_joined_by_y_and_argentine_legal_forms() -> None:
    # Before: "CAMPOSUR S.A.C." and "Sierra Inversiones".
    text = (
        "SERVICES AGREEMENT\nAgreement made in the Autonomous City of Buenos Aires on the 12th day of November of "
        "2015 by and between:\n(i) CAMPOSUR S.A.C.I.F. y A., domiciled at Moreno 877, Piso 23 in the Autonomous "
        "City of Buenos Aires (hereinafter \u201cCAMPOSUR\u201d) as party of the one part;\n(ii) Sierra Inversiones y "
        "Representaciones Sociedad Anónima, domiciled at Bolívar 108 in the Autonomous City of Buenos Aires "
        "(hereinafter \u201cSIERRA\u201d), as party of the second part.\nWHEREAS:\n"
    )
    assert bound_party_names(text) == {"CAMPOSUR S.A.C.I.F. y A.", "Sierra Inversiones y Representaciones Sociedad Anónima"}


def test_a_clause_the_look_back_window_cut_opens_no_name() -> None:
    # Before, the words the 700-character window happened to start at ("Taxpayers Register") were
    # bound as the party a group term defines.
    padding = "enrolled with the National Corporate Taxpayers Register of the Ministry of Finance under No. 12, " * 9
    text = (
        "DISTRIBUTION AGREEMENT\nBy this private instrument:\nI) LIVRARIA AURORA S.A., a joint-stock company "
        + padding
        + "and LIVRARIA BOREAL S.A., a joint-stock company " + padding
        + "hereinafter jointly referred to simply as\n\u201cPUBLISHING HOUSE\u201d;\nPREAMBLE\n"
    )
    assert "Taxpayers Register" not in bound_party_names(text)
    assert defined_terms(text)["PUBLISHING HOUSE"] != "Taxpayers Register"


def test_the_place_a_party_is_formed_under_does_not_close_its_clause() -> None:
    # Before, "Korea" and "Republic of Korea" were bound, and the two Korean parties were lost: the
    # place's definition closed each party's clause.
    text = (
        "Joint Venture Agreement\nThis Joint Venture Agreement (this \u201cAgreement\u201d) is made this 23th day of "
        "February, 2005 by and among:\nKansai Sheet Glass Co., Ltd., a corporation (kabushiki kaisha) duly "
        "organized and existing under the laws of Japan, having its head office at 7-1, Seiran, Otsu, Japan "
        "(\u201cKSG\u201d);\nHanbit Display Co., Ltd., a corporation (chusik hoesa) duly organized and existing "
        "under the laws of the Republic of Korea (\u201cKorea\u201d), having its principal office at 20, Yeoido-dong, "
        "Seoul, Korea (\u201cHBD\u201d); and\nMokpo Glass Processing Co., Ltd., a corporation (chusik hoesa) duly "
        "organized and existing under the laws of the Republic of Korea (\u201cKorea\u201d), having its principal "
        "office at 1007, Paju-si, Korea (the \u201cJVC\u201d).\nWITNESSETH:\n"
    )
    assert bound_party_names(text) == {
        "Kansai Sheet Glass Co., Ltd.",
        "Hanbit Display Co., Ltd.",
        "Mokpo Glass Processing Co., Ltd.",
    }


def test_guard_a_government_party_defined_by_its_own_term_is_still_a_party() -> None:
    # Only a place after "the laws of" is set aside; a state that is itself a party stays one.
    text = (
        "FUNDING AGREEMENT\nThis Funding Agreement is made by and between the State of Israel (the \"State\"), "
        "and Kestrel Labs, Inc., a Delaware corporation (\"Kestrel\").\nWHEREAS, the State funds research.\n"
    )
    assert bound_party_names(text) == {"State of Israel", "Kestrel Labs, Inc."}
    assert defined_terms(text)["State"] == "State of Israel"


def test_a_flattened_heading_written_again_by_the_preamble_is_the_title_once() -> None:
    # Before, the title was "AGREEMENT Agreement": the heading ran into the preamble's first word.
    text = (
        "AGREEMENT Agreement for advertising services effective July 1, 1999, between Harbourline Corporation, "
        "(hereinafter referred to as the \"Client\") with offices at 1 King Street West, Toronto, Ontario and Tern "
        "Communications Inc. (hereinafter referred to as the \"Agency\") with offices at 2 Yonge Street, Toronto.\n"
    )
    assert agreement_title(text) == "AGREEMENT"
    # A title that only shares its words with the next ones is left alone.
    assert agreement_title(
        "LICENSE AGREEMENT\n\nThis License Agreement is made between Acme Inc. (\"Licensor\") and Beta Corp. (\"Licensee\").\n"
    ) == "LICENSE AGREEMENT"


def test_a_line_that_goes_on_with_the_sentence_above_is_no_heading() -> None:
    # Before, the title was "Agreement as Appendix I.", a definition's second line.
    text = (
        "EXHIBIT 4.119\n\n\nTHIS AGREEMENT dated for reference and made effective  ________\n\nBETWEEN:\n\n"
        "         NORTH RIDGE RESOURCES INC., a company incorporated pursuant to the laws of British Columbia\n\n"
        "         (\"NRR\")\n\nAND:\n\n         SILVER BASIN CORP., a company incorporated pursuant to the laws of "
        "British Columbia\n\n         (\"SBC\")\n\nNOW THEREFORE the parties hereto agree as follows:\n\n1.       "
        "INTERPRETATION\n\n1.01     In this Agreement the following words shall have the following meanings:\n\n"
        "         (a)      \"ACCOUNTING PROCEDURE\" means the procedure attached to this\n                  "
        "Agreement as Appendix I.\n\n         (b)      \"AFFILIATE\" has the meaning given to it in this Agreement.\n"
    )
    assert agreement_title(text) != "Agreement as Appendix I."
    assert bound_party_names(text) == {"NORTH RIDGE RESOURCES INC.", "SILVER BASIN CORP."}


def test_german_firm_prefix_and_a_street_the_model_tags_are_no_party_words() -> None:
    # Before, "Co. Ostler Bau KG" and the street "Lindauer Str" were bound: "Co." translates the
    # German "Fa." (Firma) before a firm's name, and the model tagged the street as an ORG.
    text = (
        "# Addendum to the Tenancy agreement dated 27.07/09.08.1995\nBetween\nthe Co. Ostler Bau KG, Lindauer Str. "
        "11, Munich\nrepresented by its general partner\n- hereinafter referred to as the Landlord \u2013\nand\nthe "
        "Co. Brenner Systems GmbH & Co. KG, Kemptener Str. 14, 86165 Augsburg represented by its director\n- "
        "hereinafter referred to as the Tenant -\nwith regard to different areas of the property, the following is "
        "agreed upon as an addendum to the tenancy agreement.\n#### I. Extension of the current rental term\n"
    )
    bound = bound_party_names(text)
    assert not any("Str" in name for name in bound)
    # The entity id is made from the name without the prefix.
    assert party_name_forms("Co. Ostler Bau KG")[-1] == "Ostler Bau KG"
    assert party_name_forms("Fa. Huber Bau GmbH")[-1] == "Huber Bau GmbH"
    # The prefix needs its full stop: "Co Op Bank Ltd." is a name of its own.
    assert party_name_forms("Co Op Bank Ltd.")[-1] == "Co Op Bank Ltd."


def test_a_full_stop_before_a_list_item_on_the_next_line_ends_the_name() -> None:
    # Before, "Developer. - 2.2" was bound: the name read over the line break into the next item.
    text = "this Agreement between Customer and Developer.\n- 2.2 \"Customer\" shall mean"
    found = name_at(text, text.index("Developer"), len(text))
    assert found is not None and found.text == "Developer"
    # A legal form on the next line still closes the name it belongs to.
    wrapped = "and ACME HOLDINGS CO.\nLTD. shall"
    assert name_at(wrapped, 4, len(wrapped)).text == "ACME HOLDINGS CO.\nLTD."
