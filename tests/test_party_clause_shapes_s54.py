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
