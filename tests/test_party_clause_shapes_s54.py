"""Party clause shapes of stop 54 (issue 9): a letter-spaced "B E T W E E N:" opening a party
clause, a recital's item letter before a party's term, subsidiaries and affiliates a clause lists
after their parent, and a role defined after "incorporated in <place>". Names are invented. Each
test but the guards fails on the code before its rule.
"""

from __future__ import annotations

from ingest.definitions import find_definitions
from tests.helpers import bound_party_aliases, bound_party_names


def _antecedents(text: str) -> list[tuple[str, str]]:
    return [(d.term, d.name.text) for d in find_definitions(text) if d.name is not None]


_SPACED_COVER = (
    "NON-COMPETITION AGREEMENT THIS AGREEMENT made as of the 31st day of May, 2002 (the \"Effective Date\")."
    " B E T W E E N: HAROLD QUENTIN ROE, a businessman residing in the Province of Ontario (hereinafter"
    ' referred to as the "Kestrel Principal") OF THE FIRST PART - and - QUORVANT ELECTRONICS GROUP INC., a'
    " corporation incorporated pursuant to the laws of the Province of Ontario (hereinafter referred to as"
    ' "QEG") OF THE SECOND PART WHEREAS: A. QEG has acquired all of the shares of Kestrel Inc. (the'
    ' "Kestrel Group") from the Kestrel Principal pursuant to a share purchase agreement among QEG, the'
    ' Vendors and the Kestrel Group dated as of May 31, 2002 (the "Share Purchase Agreement"); B. Prior to'
    " the completion of the acquisition, the Principal was a director of Kestrel Inc.;\n"
)


def test_a_letter_spaced_between_opens_the_party_clause() -> None:
    # Before, the person was never bound; with one party short, the model's names from the
    # recitals ("B. Prior", "Kestrel Group") were taken instead.
    assert bound_party_aliases(_SPACED_COVER) == {
        "HAROLD QUENTIN ROE": ["Kestrel Principal"],
        "QUORVANT ELECTRONICS GROUP INC.": ["QEG"],
    }
    # Guard: the letters must run as the word; a spaced-out word that is no keyword opens nothing.
    other = _SPACED_COVER.replace("B E T W E E N:", "B E T W E E X:", 1)
    assert "HAROLD QUENTIN ROE" not in bound_party_names(other)


def test_a_recital_item_letter_before_a_partys_term_names_that_party() -> None:
    # Before, "D. WebMall" was bound as a third party (the term "Mall" was read as its alias).
    # (The reseller is named only on an addendum the text does not hold.)
    text = (
        'WEBMALL.COM RESELLER AND MALL AGREEMENT THIS RESELLER AND MALL AGREEMENT (the "AGREEMENT") is made and'
        ' entered into as of the date set forth on the Addendum attached hereto (the "ADDENDUM"), between and'
        " among WEBMALL.COM, INC., a California corporation, and NETWAYPOINT, a Nevada corporation , on the one"
        ' hand (collectively, "WEBMALL"), and the Reseller identified on the Addendum, on the other hand'
        ' ("RESELLER"). R E C I T A L S A. Reseller is an established business entity (the "Systems"). B.'
        ' WebMall owns an Internet storefront-building services package (the "SERVICES"). C. The Services are'
        " delivered through the Internet. D. WebMall desires to (i) sell the Services to Reseller and (ii)"
        ' develop an on-line electronic shopping mall (as further described herein, the "Mall"). AGREEMENT NOW,'
        " THEREFORE, the parties hereto covenant and agree as follows:\n"
    )
    assert bound_party_names(text) == {"WEBMALL.COM, INC.", "NETWAYPOINT"}
    # Guard: an initial before a name the contract gives no term to is still read as a person's.
    person = (
        'This Consulting Agreement is made between Quorvant Systems, Inc. ("Company") and J. Pellridge, an'
        ' individual ("Consultant").\n'
    )
    assert bound_party_aliases(person) == {"Quorvant Systems, Inc.": ["Company"], "J. Pellridge": ["Consultant"]}


def test_subsidiaries_listed_after_their_parent_are_parties() -> None:
    # Before, only the first subsidiary after "and its subsidiaries" was bound.
    text = (
        "This Support Services Agreement is entered into this 31st day of January, 1996, by and among Quorvant"
        " Group, Inc., a Delaware corporation, Harbor & Co., a California corporation, and its subsidiaries"
        " Harbor Insurance Services Corporation and Harbor Financial Corporation, each California corporations,"
        ' and Westland Bank National Association ("WB"). RECITALS A. The parties have agreed.\n'
    )
    assert {"Harbor Insurance Services Corporation", "Harbor Financial Corporation"} <= bound_party_names(text)
    # Guard: a singular "subsidiary" names one company; the name after its "and" is read as before.
    single = text.replace("and its subsidiaries Harbor Insurance Services Corporation and Harbor Financial"
                          " Corporation, each California corporations,",
                          "and its subsidiary Harbor Insurance Services Corporation, a California corporation,")
    assert "Harbor Insurance Services Corporation" in bound_party_names(single)


def test_affiliated_companies_named_after_a_defined_party_are_parties() -> None:
    text = (
        "AGREEMENT FOR THE SALE AND PURCHASE OF COAL\n\nThis Coal Supply Agreement (the \"Agreement\") is entered"
        " into as of the 1st day of May, 2000, by Quorvant Energy Corporation, a corporation incorporated in"
        ' Delaware, (hereinafter referred to as\nthe "Supplier") and its affiliated mining companies, Quorvant'
        " Ridge Mining Company, Inc. and Pellridge Mining Company, Inc. (collectively hereinafter referred to as"
        ' the "Producer") and Westland Electric Power Company, a District of Columbia corporation (hereinafter'
        ' referred to as the "Purchaser").\n\nFor and in consideration of the mutual covenants, the parties agree'
        " as follows:\n"
    )
    assert bound_party_names(text) == {
        "Quorvant Energy Corporation",
        "Quorvant Ridge Mining Company, Inc.",
        "Pellridge Mining Company, Inc.",
        "Westland Electric Power Company",
    }


def test_a_role_after_incorporated_in_a_place_is_the_companys() -> None:
    # Before, "Supplier" was read as Delaware's term, and the company had no role.
    text = (
        "This Supply Agreement is entered into as of the ____ day of _______, ____, by Quorvant Energy"
        ' Corporation, a corporation incorporated in Delaware, (the "Supplier") and Westland Electric Power Company, a District of Columbia corporation'
        ' (the "Purchaser").\n'
    )
    assert _antecedents(text) == [("Supplier", "Quorvant Energy Corporation"), ("Purchaser", "Westland Electric Power Company")]
    # Guard: the laws-of form reads as before.
    laws = text.replace("incorporated in Delaware", "incorporated under the laws of Delaware", 1)
    assert _antecedents(laws)[0] == ("Supplier", "Quorvant Energy Corporation")


def test_a_third_company_after_a_second_bare_and_on_a_cover_is_a_party() -> None:
    # Before, the third company was never read: the chain after the second name wanted a comma.
    text = (
        "MANUFACTURING AND SUPPLY AGREEMENT By and Between QUORVANT CONSUMER PRODUCTS, INC. and WESTLAND ZHEN"
        " ELECTRONIC ENGINEERING CO., LTD. and WESTLAND HARBOUR ELECTRICAL EQUIPMENT CO., LTD."
        " ---------------------------- Dated as of January 17, 2002 ----------------------------\n"
        "TABLE OF CONTENTS ARTICLE I. DEFINITIONS\n"
    )
    assert bound_party_names(text) == {
        "QUORVANT CONSUMER PRODUCTS, INC.",
        "WESTLAND ZHEN ELECTRONIC ENGINEERING CO., LTD.",
        "WESTLAND HARBOUR ELECTRICAL EQUIPMENT CO., LTD.",
    }
    # Guard: a name without a legal form after the bare "and" is no party of the chain.
    plain = text.replace("WESTLAND HARBOUR ELECTRICAL EQUIPMENT CO., LTD.", "WESTLAND HARBOUR ELECTRICAL EQUIPMENT", 1)
    assert "WESTLAND HARBOUR ELECTRICAL EQUIPMENT" not in bound_party_names(plain)


def test_a_partys_term_defined_again_in_a_recital_stays_that_partys() -> None:
    # Before, "Licensee" went to the parent the recital is about, bound as a third party.
    text = (
        "BRAND LICENSING AGREEMENT\nThis Brand Licensing Agreement (the \"Agreement\") is made on June 25, 2014,"
        ' between Pellridge Beverage Company, Inc. (the "Licensee"), a Delaware corporation, and QUORVANT'
        ' FIZZ, L.P. (the "Licensor"), a California limited partnership.\nWITNESSETH:\nWHEREAS, Westland'
        ' Resources, Inc., the parent company of Pellridge Beverage Company, Inc. (the "Licensee"), is a'
        " publicly traded company; and\nWHEREAS, Licensor is in the business of developing beverages;\n"
    )
    assert bound_party_aliases(text) == {
        "Pellridge Beverage Company, Inc.": ["Licensee"],
        "QUORVANT FIZZ, L.P.": ["Licensor"],
    }
    assert [name for term, name in _antecedents(text) if term == "Licensee"] == ["Pellridge Beverage Company, Inc."] * 2
    # Guard: a term defined for the first time after such an appositive is still the described name's.
    first = text.replace('(the "Licensee"), a Delaware', "a Delaware", 1)
    assert [name for term, name in _antecedents(first) if term == "Licensee"] == ["Westland Resources, Inc."]


def test_parties_hereinafter_named_in_a_translated_preamble() -> None:
    # Before, neither party was bound: "named" was no verb of a "hereinafter" definition.
    text = (
        "AGREEMENT FOR THE SUGARCANE SUPPLY\n\nBy this private instrument, the Parties,\n\nQUORVANT – COMPANHIA"
        " BRASILEIRA DE PROPRIEDADES AGRÍCOLAS, joint stock company enrolled at the National Register of"
        " Corporate Taxpayers (CNPJ) under 07.628.528/0001-59, headquartered in the city of São Paulo, herein"
        " duly represented pursuant to its By Laws, hereinafter named “QUORVANT”; and\n\nPELLRIDGE – COMPANHIA"
        " BRASILEIRA DE ENERGIA RENOVÁVEL, joint stock company enrolled at the National Register of Corporate"
        " Taxpayers (CNPJ) under 08.070.566/0001-00, headquartered in the city of São Paulo, herein duly"
        " represented pursuant to its By Laws, hereinafter named “PELLRIDGE”,\n\nBy mutual agreement execute"
        " this Agreement for Sugarcane Supply (“AGREEMENT”).\n\nI – PRELIMINARY STATEMENTS\n"
    )
    assert bound_party_aliases(text) == {
        "QUORVANT – COMPANHIA BRASILEIRA DE PROPRIEDADES AGRÍCOLAS": ["QUORVANT"],
        "PELLRIDGE – COMPANHIA BRASILEIRA DE ENERGIA RENOVÁVEL": ["PELLRIDGE"],
    }


def test_a_shouted_role_hereinafter_without_quotes_and_the_brazilian_s_a_form() -> None:
    # Before, the S/A company was never bound and neither party had its role.
    text = (
        "TRADEMARK USE LICENSE AGREEMENT\nBy this private instrument (“Agreement”).\nQUORVANT EDITORA E"
        " DISTRIBUIDORA S/A, a closely-held corporation with its principal place of business in the"
        " municipality of Belo Horizonte, herein represented in the form of its By-Laws, hereinafter referred"
        " to as LICENSOR; and\nPELLRIDGE SISTEMAS DE ENSINO S.A., a closely-held corporation with its principal"
        " place of business in the municipality of São Paulo, herein represented in the form of its By-Laws,"
        " hereinafter referred to as LICENSEE.\nLICENSOR and LICENSEE are individually referred to as “Party”.\n"
    )
    assert bound_party_aliases(text) == {
        "QUORVANT EDITORA E DISTRIBUIDORA S/A": ["LICENSOR"],
        "PELLRIDGE SISTEMAS DE ENSINO S.A.": ["LICENSEE"],
    }
    # Guard: a lower-case word after "hereinafter referred to as" is prose, no term.
    prose = text.replace("hereinafter referred to as LICENSEE.", "hereinafter referred to as licensee.", 1)
    assert bound_party_aliases(prose)["PELLRIDGE SISTEMAS DE ENSINO S.A."] == []


def test_spanish_and_argentine_legal_forms_close_a_name() -> None:
    from ingest.names import ends_in_legal_suffix

    for name in ("Global Quorvant, S.L.U.", "Establecimiento Pellridge S.A.C.I.F.A.", "Westland Editora S/A"):
        assert ends_in_legal_suffix(name), name
    text = (
        "This Management Services Agreement is made and entered into as of 12 December 2012, by Global"
        " Quorvant, S.L.U. a company duly incorporated in accordance with the laws of the Kingdom of Spain"
        " (the “Advisor”) and Global Pellridge, S.L.U. a company duly incorporated in accordance with the laws"
        " of the Kingdom of Spain (“Holdco 2”).\n"
    )
    assert bound_party_aliases(text) == {"Global Quorvant, S.L.U.": ["Advisor"], "Global Pellridge, S.L.U.": ["Holdco 2"]}


def test_the_filers_caption_on_an_edgar_header_line_opens_no_party_clause() -> None:
    # Before, the caption's "BY AND AMONG THE COMPANY, QUORVANT SOLUTIONS, S.L." was a party and the
    # preamble's own parties after it went unbound.
    text = (
        "EX-10.1 2 ex101.htm DEVELOPMENT AND EXCLUSIVE LICENSE AGREEMENT, BY AND AMONG THE COMPANY, QUORVANT"
        " SOLUTIONS, S.L., AND PELLRIDGE BIOSYSTEM, S.L., DATED NOVEMBER 26, 2013. ex101.htm\n\n\nExhibit 10.1\n"
        "DEVELOPMENT AND EXCLUSIVE LICENSE AGREEMENT\n\nAGREEMENT, dated as of November 26, 2013, among Quorvant"
        " Solutiones, S.L. (“Quorvant”), PELLRIDGE Biosystem, S.L. (“Subco”), a subsidiary wholly owned by"
        " Quorvant, both of which are formed under the laws of Spain, and Westland Valley Mines Inc., a Nevada"
        " corporation (the “Company”).\n\nWhereas, Quorvant has developed certain technology;\n"
    )
    assert bound_party_names(text) == {"Quorvant Solutiones, S.L.", "PELLRIDGE Biosystem, S.L.", "Westland Valley Mines Inc."}
    # Guard: a filing run into one line keeps its party clause on the header's line.
    run_in = (
        "EX-10 4 exh10-15.txt 10.15 QUORVANT CHANNEL PARTNER AGREEMENT This Agreement is entered into this 11th"
        ' day of October, 2005 by and between Quorvant Corporation, a Delaware corporation ("Quorvant"), and'
        ' Pellridge Communications, Inc., a Delaware corporation ("CP"). ' + "The parties agree as follows. " * 8
    )
    assert bound_party_names(run_in) == {"Quorvant Corporation", "Pellridge Communications, Inc."}


def test_a_prefixed_legal_form_before_a_page_number_run_into_the_line() -> None:
    # Before, "AB SKF Page" was read on into the page number and never bound.
    text = "SUPPLY AGREEMENT between Quorvant Aps and AB Pellridge Page 1 of 23\n\nTABLE OF CONTENTS 1. DEFINITIONS\n"
    assert bound_party_names(text) == {"Quorvant Aps", "AB Pellridge"}


_AMENDMENT_RECITALS = (
    "AMENDMENT NO. 3 TO LOAN AND SECURITY AGREEMENT\n\nThis AMENDMENT NO. 3 TO LOAN AND SECURITY AGREEMENT (this"
    ' "Amendment") is entered into as of June 30, 2021, by and among QUORVANT SURGICAL, INC., a Delaware'
    ' corporation ("Quorvant"), and PELLRIDGE VENTURE LENDING, INC., a Maryland corporation ("Lender").\n\n'
    "RECITALS\n\nA. Borrower and Lender are parties to that certain Loan and Security Agreement dated as of"
    ' September 18, 2019 (the "Loan Agreement").\n\nB. Quorvant Surgical Holdings, Inc., the parent of'
    ' Quorvant, has executed a Guaranty in favor of Lender dated as of September 18, 2019 (the "Guaranty").\n\n'
    "C. Lessee's obligations under the Loan Agreement are guaranteed by Westland Holdings, LLC"
    ' ("Guarantor") pursuant to that certain Guaranty.\n'
)


def test_a_recital_item_letter_is_no_part_of_the_name_after_it() -> None:
    from ingest.names import NameSpan, without_enumerator

    start = _AMENDMENT_RECITALS.index("B. Quorvant Surgical Holdings")
    name = NameSpan("B. Quorvant Surgical Holdings, Inc.", start, start + len("B. Quorvant Surgical Holdings, Inc."))
    assert without_enumerator(_AMENDMENT_RECITALS, name).text == "Quorvant Surgical Holdings, Inc."
    # Guard: a person's initial with no lettered item beside it stays in the name.
    lone = "This Consulting Agreement is made.\nB. Pellridge shall advise the Company.\n"
    at = lone.index("B. Pellridge")
    assert without_enumerator(lone, NameSpan("B. Pellridge", at, at + 12)).text == "B. Pellridge"


def test_a_recital_subject_that_executed_the_agreement_it_defines_is_no_party() -> None:
    # Before, "B. Quorvant Surgical Holdings, Inc." (the guarantor of another instrument) and
    # "C. Lessee's" were bound as parties.
    assert bound_party_aliases(_AMENDMENT_RECITALS) == {
        "QUORVANT SURGICAL, INC.": ["Quorvant"],
        "PELLRIDGE VENTURE LENDING, INC.": ["Lender"],
    }


def test_a_third_company_a_recital_names_after_two_defined_parties_is_no_party() -> None:
    # The recital-subject rule (a recital may define a party the clause names by role) holds only
    # while the clause has named fewer than two parties with their terms. A guard: before this
    # stop the item letter kept "D. Westland ..." out; with the letter read off, this rule does.
    text = (
        "ATM VAULT CASH AGREEMENT THIS ATM VAULT CASH AGREEMENT (\"Agreement\") is entered into as of February 1,"
        ' 2001 between Quorvant Bank and Trust ("QBT"), a Louisiana financial institution and Pellridge, Inc., a'
        ' Texas Corporation ("ATM Owner"). RECITALS: A. ATM Owner leases various automated teller machines. B.'
        ' QBT is a party to agreements with regional networks (the "Networks"). C. ATM Owner desires to enter'
        " into a cash arrangement with QBT. D. Westland Data Services, LLC. (\"WDS\") may act from time to time as"
        " an independent contractor on behalf of QBT.\n"
    )
    assert bound_party_names(text) == {"Quorvant Bank and Trust", "Pellridge, Inc."}


def test_a_persons_name_holds_its_particles() -> None:
    # Before, each of these was cut to its first name.
    for person in ("Jan van der Berg", "Luis de la Torre", "Maria dos Santos", "Ahmed bin Rashid", "Ciarán Ó Briain"):
        text = (
            "CONSULTING AGREEMENT\n\nThis Consulting Agreement is made between Quorvant Inc., a Delaware corporation"
            f' ("Company"), and {person}, an individual ("Consultant").\n'
        )
        assert bound_party_aliases(text) == {"Quorvant Inc.": ["Company"], person: ["Consultant"]}, person
    # Guard: a particle does not join a party's name to the prose after it.
    prose = (
        'This Agreement is made between Quorvant Inc. ("Company") and Pellridge LLC ("Agent"). Agent shall act'
        " as the Company's agent in the territory of Westland.\n"
    )
    assert bound_party_names(prose) == {"Quorvant Inc.", "Pellridge LLC"}


def test_a_definitions_reading_from_the_line_below_is_the_tail_of_the_party_read_whole() -> None:
    # Before, "Global Technology Development Limited" (with "Party B") was bound beside the whole
    # name "Beijing Quorvant Global Technology Development Limited" as a second party.
    text = (
        "CONSULTING SERVICES AGREEMENT\nThis Consulting\nServices Agreement (this \"Agreement\") is dated 01/05/2010,"
        " and is entered into\nin Beijing, China between PELLRIDGE HOLDING LTD, a company incorporated under\nthe"
        " laws of British Virgin Islands (Party A), Suite 1706, 17/F,Tower 1, China\nHong Kong City, 33 Canton"
        " Road, Tsimshatsui, Kowloon, Hong Kong and Beijing Quorvant\nGlobal Technology Development Limited, a"
        ' company with joint stock limited liability\norganized under the laws of the PRC ("Party B"), with a'
        " registered address at\n3, Xijing Road, Beijing China 100081,. Party A and Party B are referred to"
        ' collectively\nin this Agreement as the "Parties."\nRECITALS\n'
    )
    assert bound_party_aliases(text) == {
        "PELLRIDGE HOLDING LTD": ["Party A"],
        "Beijing Quorvant Global Technology Development Limited": ["Party B"],
    }


def test_a_plural_subsidiary_lead_lists_at_most_six_companies() -> None:
    # The bound at its edge, on the reader of the lead alone (the clause's comma list may still
    # read more names): six subsidiaries after the lead are read, a seventh is not.
    from ingest.annotate import Party, _named_subsidiaries
    from ingest.names import NameSpan

    subsidiaries = [f"Harbor {word} Corporation" for word in ("Alpha", "Beta", "Gamma", "Delta", "Epsilon", "Zeta", "Eta")]
    text = f"Quorvant Group, Inc. and its subsidiaries {', '.join(subsidiaries[:-1])} and {subsidiaries[-1]}, each a corporation.\n"
    parent = Party("org:quorvant group", "ORG", NameSpan("Quorvant Group, Inc.", 0, 20), None, 0, 20)
    assert [p.name.text for p in _named_subsidiaries(text, [parent], [])] == subsidiaries[:6]
    # Guard: a singular lead reads one.
    single = text.replace("subsidiaries", "subsidiary", 1)
    assert [p.name.text for p in _named_subsidiaries(single, [parent], [])] == subsidiaries[:1]


def test_a_list_read_as_one_name_keeps_its_last_member() -> None:
    # Guard on the tail rule alone: a reading that joins two names over "and" is no longer
    # reading of its last member (``_halves_joined_over_and`` decides those).
    from ingest.annotate import Party, _tails_of_longer_readings
    from ingest.names import NameSpan

    text = "between Quorvant Inc. and Pellridge LLC (each a Party) and Beijing Westland\nGlobal Trading Limited"
    joined_at, tail_at = text.index("Quorvant"), text.index("Pellridge")
    joined = Party("org:quorvant and pellridge", "ORG", NameSpan("Quorvant Inc. and Pellridge LLC", joined_at, tail_at + 13), None, joined_at, tail_at + 13)
    member = Party("org:pellridge", "ORG", NameSpan("Pellridge LLC", tail_at, tail_at + 13), "Party", tail_at, tail_at + 13)
    whole_at, short_at = text.index("Beijing"), text.index("Global")
    whole = Party("org:beijing westland global trading", "ORG", NameSpan(text[whole_at:], whole_at, len(text)), None, whole_at, len(text))
    short = Party("org:global trading", "ORG", NameSpan(text[short_at:], short_at, len(text)), "Party B", short_at, len(text))
    survivors, tails = _tails_of_longer_readings([joined, member, whole, short])
    assert [p.entity_id for p in survivors] == [joined.entity_id, member.entity_id, whole.entity_id]
    assert survivors[2].role == "Party B"
    assert {eid: kept.entity_id for eid, kept in tails.items()} == {short.entity_id: whole.entity_id}
