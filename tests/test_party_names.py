"""Party name shapes added for issue 9's unseen-contract recall, with the real spaCy pipeline.

Each case asserts the exact set of parties bound to the agreement by ``party_to`` (their names as
written, so a name cut short or a prose run read as a name fails), and, where a shape adds one,
the exact alias keys the registry looks them up by.
"""

from __future__ import annotations

import pytest

from ingest.annotate import annotate_document
from ingest.names import name_at, name_before, party_name_forms, slot_name_at

SHAPES: dict[str, tuple[str, set[str]]] = {
    # Lower-case words inside a name that ends in a legal form; "Made" may start it.
    "inner_lower_case_words": (
        "DISTRIBUTION AGREEMENT\n\nThis Distribution Agreement is made by and between Pay at Home Corp., "
        "a Nevada corporation (\"PAH\"), and Made in Nature, LLC, a Colorado limited liability company "
        "(\"MIN\").\n\nWHEREAS, PAH sells goods.",
        {"Pay at Home Corp.", "Made in Nature, LLC"},
    ),
    "inner_words_two_in_a_row": (
        "LICENSE AGREEMENT\n\nThis License Agreement is made between Love on a Leash, LLC (\"Licensor\") "
        "and Back to Basics, Inc. (\"Licensee\").\n\nRECITALS",
        {"Love on a Leash, LLC", "Back to Basics, Inc."},
    ),
    # "/" and a lone "-" inside a name; "*" inside a word.
    "slash_and_dash": (
        "TRANSFER AGENCY AGREEMENT\n\nThis Agreement is made between Blackstone / GSO Long-Short Credit "
        "Income Fund (the \"Fund\") and K*TEC Holdings - Europe S.E. (the \"Agent\").\n\nWHEREAS",
        {"Blackstone / GSO Long-Short Credit Income Fund", "K*TEC Holdings - Europe S.E."},
    ),
    # A parenthesised series right before the legal form: also bound without it (alias below).
    "qualifier_before_form": (
        "JOINT FILING AGREEMENT\n\nThe undersigned agree to file jointly.\n\nIN WITNESS WHEREOF, the "
        "undersigned execute this agreement.\n\nTHE ROWAN FUND XII (MASTER), L.P.\n\nBy: /s/ Ann Lee\n\n"
        "ROWAN PARTNERS - OFFSHORE MASTER FUND II, L.P.\n\nBy: /s/ Ann Lee\n",
        {"THE ROWAN FUND XII (MASTER), L.P.", "ROWAN PARTNERS - OFFSHORE MASTER FUND II, L.P."},
    ),
    # The signers list themselves in an acknowledgment, each with a description.
    "undersigned_list": (
        "MAINTENANCE AGREEMENT\n\nThis Maintenance Agreement is made by Tern Equity Investors IV, L.P. (the "
        "\"Investor\") in favor of Harbor Bank National Association (the \"Agent\").\n\nRECITALS:\n\n"
        "1. Maintenance.\n\nIN WITNESS WHEREOF, the parties have signed.\n\nACKNOWLEDGMENT OF BORROWERS\n\n"
        "The undersigned, QUARRY CORPORATION, a Delaware corporation, K*TEC OPERATING CORP., a Delaware "
        "corporation, QUARRY GCO, L.P., a Texas limited partnership, and RM ELECTRONICS, INC., a New "
        "Hampshire corporation (collectively, the \"Borrowers\"), hereby acknowledge receipt.\n",
        {
            "Tern Equity Investors IV, L.P.", "Harbor Bank National Association", "QUARRY CORPORATION",
            "K*TEC OPERATING CORP.", "QUARRY GCO, L.P.", "RM ELECTRONICS, INC.",
        },
    ),
    # "is entered into by the City of ..., Texas, a ... city ("COFS")": the party follows "by".
    "entered_into_by": (
        "AGREEMENT BETWEEN THE CITY AND STW\n\nThis AGREEMENT regarding water wells (the \"AGREEMENT\") is "
        "entered into by the City of Fort Stockton, Texas, a Texas Type A-General Law city (\"COFS\") and "
        "STW Resources Holding Corp., a Nevada corporation (\"STW\"), effective as of the last date of "
        "signature.\n\nWHEREAS, COFS owns water rights.",
        # (A local government's state is part of its name however its term is defined; the bare
        # city stays an alias, ``party_name_forms``.)
        {"City of Fort Stockton, Texas", "STW Resources Holding Corp."},
    ),
    # A form's field names the party in a role; the other party is in the preamble.
    "form_field_role_name": (
        "Software License and Maintenance Agreement     Agreement Number:  CW251207\n\nCompany Name:  "
        "Cardlytics, Inc.\n\nCompany Address:  621 North Avenue NE  Atlanta, GA 30308\n\nThis SOFTWARE "
        "LICENSE AND MAINTENANCE AGREEMENT (\"Agreement\") is entered into by and between Bank of America, "
        "N.A. (\"Bank of America\"), a national banking association, and the above-named Supplier.\n",
        {"Cardlytics, Inc.", "Bank of America, N.A."},
    ),
    # "X, a Division of Y (the "Agent")": the division and its company are both parties.
    "division_of": (
        "AGENCY AGREEMENT\n\nLadies and Gentlemen:\n\nOsprey Financial Corporation, a federal corporation "
        "(the \"Company\"), hereby confirms its agreement with Charles Webb & Company, a Division of Keefe, "
        "Bruyette & Woods, Inc. (the \"Agent\"), as follows:\n\nSection 1. The Offering.\n",
        {"Osprey Financial Corporation", "Charles Webb & Company", "Bruyette & Woods, Inc."},
    ),
    # Two blocks' names on one line, one space apart.
    "side_by_side_signature_names": (
        "RESELLER AGREEMENT\n\nThe parties below agree to the attached terms.\n\n1. Terms.\n\n"
        "IN WITNESS WHEREOF, the Parties have executed this Agreement.\n\n"
        "Vayyar Imaging Ltd. IndeLiving Holdings, Inc.\n\nBy: /s/ Ann Lee By: /s/ Raj Patel\n",
        {"Vayyar Imaging Ltd.", "IndeLiving Holdings, Inc."},
    ),
    # Four parties without defined terms, a comma-separated list closed by "and".
    "among_comma_list": (
        "SUPPLY AGREEMENT\n\nThis Agreement is made among Alpha Inc., Beta LLC, Gamma Corp., and Delta Ltd. "
        "(each a \"Party\").\n\nWHEREAS",
        {"Alpha Inc.", "Beta LLC", "Gamma Corp.", "Delta Ltd."},
    ),
    # The party clause names a group that a recital defines.
    "group_defined_in_recital": (
        "SUPPLY AGREEMENT\n\nThis Agreement is made between Alpha Inc. (\"Alpha\") and the Sellers.\n\n"
        "WHEREAS, Beta LLC, Gamma Corp. and Delta Ltd. (collectively, the \"Sellers\") own the goods.\n\n1. Sale.",
        {"Alpha Inc.", "Beta LLC", "Gamma Corp.", "Delta Ltd."},
    ),
    # A group defined past the opening pages that the party clause does not name is no party.
    "group_not_named_by_the_clause": (
        "SUPPLY AGREEMENT\n\nThis Agreement is made between Alpha Inc. (\"Alpha\") and Omega LLC "
        "(\"Omega\").\n\nWHEREAS, Alpha sells goods.\n\n" + "1. Sale. Alpha sells goods to Omega. " * 100
        + "\n\nWHEREAS, Beta LLC, Gamma Corp. and Delta Ltd. (collectively, the \"Sellers\") own the goods.",
        {"Alpha Inc.", "Omega LLC"},
    ),
    # "(a) ... and (b) X, as the indenture agent": an enumerated party after "its affiliates".
    "enumerated_after_and": (
        "AGENCY AGREEMENT\n\nThis Agreement is made by and between Bolt Stores, Inc. and its affiliates "
        "(collectively, \"Merchant\"), on the one hand, and (a) a joint venture of Gale Retail, Inc. (\"Gale\") "
        "and (b) Wren Savings Fund Society, FSB, as the indenture agent, on the other hand.\n\nRECITALS",
        {"Bolt Stores, Inc.", "Gale Retail, Inc.", "Wren Savings Fund Society, FSB"},
    ),
    # A term that names a document defines no party, and a defined term alone is no party.
    "document_terms_and_defined_terms": (
        "MAINTENANCE AGREEMENT\n\nThis Agreement is made by and between Comet Wireless, LLC (\"Vendor\") and "
        "Atlas Mobility LLC (\"Atlas\").\n\nWHEREAS, concurrently, the Parties entered into that Backhaul Agreement "
        "between Vendor and Atlas Corp. (the \"Transport Agreement\"), and that agreement between Orion "
        "Inc. and Atlas.\n\n1. Services.",
        {"Comet Wireless, LLC", "Atlas Mobility LLC"},
    ),
}


def _annotate(text: str):
    return annotate_document(text, [(0, len(text))], doc_id="doc", revision="rev")


def _bound(annotations) -> dict[str, list[str]]:
    """Per subject bound to the agreement by party_to: its name -> its aliases."""
    agreement = next(s for s in annotations.subjects if s.type == "agreement")
    return {
        subject.name: subject.aliases
        for subject in annotations.subjects
        if any(b.relation == "party_to" and b.object_id == agreement.subject_id for b in subject.bindings)
    }


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_party_shape_binds_exactly_its_parties(shape: str) -> None:
    text, names = SHAPES[shape]
    assert set(_bound(_annotate(text))) == names


def test_a_qualified_name_is_bound_whole_and_never_without_its_qualifier() -> None:
    """ "(Bermuda) Ltd." names a different company from "Ltd.": the name without the qualifier
    is not an alias, so a question about the unqualified company does not bind this party."""
    text, _ = SHAPES["qualifier_before_form"]
    annotations = _annotate(text)
    bound = _bound(annotations)
    assert bound["THE ROWAN FUND XII (MASTER), L.P."] == []
    ids = {s.name: s.subject_id for s in annotations.subjects}
    assert ids["THE ROWAN FUND XII (MASTER), L.P."] == "org:rowan fund xii master"
    assert party_name_forms("Columbia Laboratories (Bermuda) Ltd.") == ["Columbia Laboratories (Bermuda) Ltd."]
    assert party_name_forms("Acme (UK) Holdings Ltd") == ["Acme (UK) Holdings Ltd"]


def test_binding_span_covers_the_name_with_inner_words() -> None:
    text, _ = SHAPES["inner_lower_case_words"]
    annotations = _annotate(text)
    agreement = next(s for s in annotations.subjects if s.type == "agreement")
    [made] = [s for s in annotations.subjects if s.name == "Made in Nature, LLC"]
    [binding] = [b for b in made.bindings if b.relation == "party_to" and b.object_id == agreement.subject_id]
    assert text[binding.char_start : binding.char_end].startswith("Made in Nature, LLC")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Pay at Home Corp. (\"P\")", "Pay at Home Corp."),
        ("Made in Nature, LLC, a Colorado", "Made in Nature, LLC"),
        # Without a legal form at the end, lower-case words end the name.
        ("Acme Holdings in favor of Beta Corp.", "Acme Holdings"),
        ("Pay at Home, a store", "Pay"),
        # Two names each with a form are two names.
        ("Acme Corp. and Beta LLC", "Acme Corp."),
        # More than two lower-case words in a row are prose.
        ("Acme to be sold to Beta Corp.", "Acme"),
    ],
)
def test_name_at_inner_words(text: str, expected: str) -> None:
    found = name_at(text, 0, len(text))
    assert found is not None and found.text == expected


def test_role_word_or_article_never_starts_an_inner_word_name() -> None:
    """"the Note issued by the Company to Jetco Holdings, LLC": prose, not a party."""
    text = "the Note issued by the Company to Jetco Holdings, LLC (\"Jetco\")"
    found = name_at(text, text.index("Company"), len(text))
    assert found is not None and found.text == "Company"


def test_name_before_runs_back_over_inner_words() -> None:
    text = "Supplier:\nMade in Nature, LLC\nBy:"
    found = name_before(text, text.index("\nBy:"))
    assert found is not None and (found.text, found.start) == ("Made in Nature, LLC", text.index("Made"))


# Shapes added for the remaining party-clause misses (synthetic preambles; the tune contracts they
# stand for are named per case). Each case: the text, then per bound party the exact text of its
# binding's source span (where the party clause names it).
SLOT_SHAPES: dict[str, tuple[str, dict[str, str]]] = {
    # An all-lower-case name in the clause's slot, written the same way in the letterhead
    # (tune: "between AstroNutrition.com and deep systems.").
    "lower_case_name_in_slot": (
        "03/01/05\n\nVancouver, BC   help@bright.ca   bright hosting\n\nHosting Agreement\n\nThis is a managed "
        "hosting agreement between AstroFoods.com and bright hosting.  The term is 12 months.\n\nFees are due.",
        {"AstroFoods.com": "AstroFoods.com", "bright hosting": "bright hosting"},
    ),
    # A lower-case word inside a name that ends in a legal form, in the slot after "AND"
    # (tune: "AND Petro data Management Services Limited., With principal offices ...").
    "lower_case_inner_word_in_slot": (
        "STRATEGIC ALLIANCE AGREEMENT\n\nThis Agreement is made by and between:    KALLO Inc.    With principal "
        "offices at 15 Allstate Parkway, Markham, Canada (\"KALLO\")          AND       Petro data Management "
        "Services Limited.,          With principal offices at 1 Motorways Avenue, Lagos, Nigeria   As of the "
        "date set forth below.",
        {
            "KALLO Inc.": "KALLO Inc.    With principal offices at 15 Allstate Parkway, Markham, Canada (\"KALLO\")",
            "Petro data Management Services Limited": "Petro data Management Services Limited",
        },
    ),
    # A column's "For and on behalf of" whose name stands below a signature rule
    # (tune: "For and on behalf of\n\n ------\n\n IXNET Limited").
    "behalf_name_below_a_rule": (
        "CONSTRUCTION AND MAINTENANCE AGREEMENT\n\n1. Terms. The parties listed below agree.\n\nIN WITNESS "
        "WHEREOF the parties have signed.\n\n     For and on behalf of      Harbor Telecom AG\n\n     "
        "---------------------------\n\n     For and on behalf of Quill Communications, Inc.      For and on "
        "behalf of\n\n     ---------------------------\n\n\n\n     ORIEL NET Limited\n\n     "
        "---------------------------\n",
        {
            "Harbor Telecom AG": "Harbor Telecom AG",
            "Quill Communications, Inc.": "Quill Communications, Inc.",
            "ORIEL NET Limited": "ORIEL NET Limited",
        },
    ),
    # A name defined inside a recital's predicate is no party; the clause's parties stay
    # (tune: "WHEREAS, COFS has an existing Capitan Reef Aquifer ("CRA") water well").
    "recital_predicate_term_is_no_party": (
        "COOPERATION AGREEMENT\n\nThis AGREEMENT (the \"AGREEMENT\") is entered into by the City of Fort "
        "Stockton, Texas, a Texas city (\"COFS\") and STW Resources Holding Corp., a Nevada corporation "
        "(\"STW\").\n\nWHEREAS, COFS owns the groundwater rights; and\n\nWHEREAS, COFS has an existing "
        "Capitan Reef Aquifer (\"CRA\") water well located on COFS property.\n\nNOW, THEREFORE, the parties agree.",
        {
            "City of Fort Stockton, Texas": "City of Fort Stockton, Texas, a Texas city (\"COFS\")",
            "STW Resources Holding Corp.": "STW Resources Holding Corp., a Nevada corporation (\"STW\")",
        },
    ),
}


def _bound_spans(text: str) -> dict[str, str]:
    """Per party bound by party_to: the text of its binding's source span."""
    annotations = _annotate(text)
    agreement = next(s for s in annotations.subjects if s.type == "agreement")
    return {
        subject.name: text[binding.char_start : binding.char_end]
        for subject in annotations.subjects
        for binding in subject.bindings
        if binding.relation == "party_to" and binding.object_id == agreement.subject_id
    }


@pytest.mark.parametrize("shape", sorted(SLOT_SHAPES))
def test_party_slot_shape_binds_exactly_its_parties_with_their_spans(shape: str) -> None:
    text, expected = SLOT_SHAPES[shape]
    assert _bound_spans(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        # Written once only: one lower-case run alone is prose.
        "Hosting Agreement\n\nThis is a hosting agreement between AstroFoods.com and bright hosting.  Fees are due.",
        # "its affiliates" fills the slot, and is written twice.
        "Hosting Agreement\n\nThis is an agreement between AstroFoods.com and its affiliates.  AstroFoods.com and "
        "its affiliates pay.",
        # A role word in lower case is no name.
        "Hosting Agreement\n\nThis is an agreement between AstroFoods.com and the licensee.  The licensee pays.",
    ],
)
def test_a_lower_case_run_in_the_slot_is_no_party_without_a_second_writing(text: str) -> None:
    assert set(_bound_spans(text)) == {"AstroFoods.com"}


def test_recital_subject_still_defines_a_party() -> None:
    """Only a recital's predicate is refused: "WHEREAS, Jane Quill Roe ("Roe") is the Seller"."""
    text = (
        "SALE AGREEMENT\n\nThis Agreement is made by and between Lark Brewing Inc. (\"Lark\") and the Seller.\n\n"
        "WHEREAS, Jane Quill Roe (\"Roe\") is the Seller and owns the brewery.\n\nNOW, THEREFORE, the parties agree."
    )
    assert _bound_spans(text) == {
        "Lark Brewing Inc.": "Lark Brewing Inc. (\"Lark\")",
        "Jane Quill Roe": "Jane Quill Roe (\"Roe\")",
    }


@pytest.mark.parametrize(
    ("text", "expected", "forms"),
    [
        # A trade name after a dash that closes the name (tune: "For and on behalf of Emirates
        # Telecommunications Corporation - ETISALAT").
        (
            "Emirates Telecommunications Corporation - ETISALAT\n\n",
            "Emirates Telecommunications Corporation - ETISALAT",
            ["Emirates Telecommunications Corporation - ETISALAT", "ETISALAT", "Emirates Telecommunications Corporation"],
        ),
        ("Acme Holdings, Inc. – Acme Direct (\"Acme\")", "Acme Holdings, Inc. – Acme Direct",
         ["Acme Holdings, Inc. – Acme Direct", "Acme Direct", "Acme Holdings, Inc."]),
        # "- dba": the dash is no part of the legal name.
        ("Lark Brewing Inc. - dba Full Sail Taproom, an Oregon corporation", "Lark Brewing Inc. - dba Full Sail Taproom",
         ["Lark Brewing Inc. - dba Full Sail Taproom", "Full Sail Taproom", "Lark Brewing Inc."]),
        # A dash that opens prose is no trade name.
        ("Quill Networks Ltd. - Exhibit A to this agreement lists the goods.", "Quill Networks Ltd.", ["Quill Networks Ltd."]),
        # A dash before the legal form joins one name.
        ("MEZZANINE PARTNERS - OFFSHORE MASTER FUND II, L.P.\n", "MEZZANINE PARTNERS - OFFSHORE MASTER FUND II, L.P.",
         ["MEZZANINE PARTNERS - OFFSHORE MASTER FUND II, L.P."]),
    ],
)
def test_trade_name_after_a_dash(text: str, expected: str, forms: list[str]) -> None:
    found = name_at(text, 0, len(text))
    assert found is not None and (found.text, found.start) == (expected, 0)
    assert party_name_forms(found.text) == forms


def test_dash_trade_name_in_a_signature_binds_with_its_span() -> None:
    text = (
        "CONSTRUCTION AND MAINTENANCE AGREEMENT\n\n1. Terms. The parties listed below agree.\n\nIN WITNESS "
        "WHEREOF the parties have signed.\n\n     For and on behalf of      Harbor Telecommunications "
        "Corporation - HARTEL\n\n     ---------------------------\n\n     For and on behalf of      Quill "
        "Communications, Inc.\n"
    )
    annotations = _annotate(text)
    bound = _bound_spans(text)
    assert set(bound.values()) == {"Harbor Telecommunications Corporation - HARTEL", "Quill Communications, Inc."}
    [harbor] = [s for s in annotations.subjects if "HARTEL" in [s.name, *s.aliases]]
    assert "Harbor Telecommunications Corporation - HARTEL" in [harbor.name, *harbor.aliases]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Petro data Management Services Limited.,  With principal offices", "Petro data Management Services Limited"),
        ("bright hosting.  The term", None),  # written once in this text: no name
        # "and" between lower-case words joins two names, not one (tune: "between Trip shareholders
        # and Azul S.A.").
        ("Trip shareholders and Azul S.A., TRIP became", "Trip"),
        # The slot must close right after a wide reading.
        ("Acme sold to Beta Corp. the goods", "Acme"),
        # A role word never starts a wide reading.
        ("Licensee agrees to Beta Corp., and", "Licensee"),
    ],
)
def test_slot_name_at(text: str, expected: str | None) -> None:
    found = slot_name_at(text, 0, len(text))
    assert (found.text if found else None) == expected
    if found is not None:
        assert found.start == 0 and text[found.start : found.end] == expected


# The model fallback: the grammar reads no party from these clauses ("between the following
# parties: the supplier, namely ..."), so the model's ORG/PERSON entities inside the clause are
# the parties. (Real spaCy pipeline.)
MODEL_FALLBACK: dict[str, tuple[str, dict[str, str]]] = {
    "namely_clause": (
        "SUPPLY AGREEMENT\n\nThis Supply Agreement is entered into on 1 May 2019 between the following parties: "
        "the supplier, namely Jiangsu Hengrui Medicine, and the buyer, namely Tellus Health Partners.\n\n"
        "1. Supply. The supplier supplies goods.",
        {"Jiangsu Hengrui Medicine": "Jiangsu Hengrui Medicine", "Tellus Health Partners": "Tellus Health Partners"},
    ),
    "described_parties": (
        "CONSULTING AGREEMENT\n\nThis Consulting Agreement is made this 1st day of May, 2019 between the company "
        "known as Northwind Traders and an individual named Maria Anders.\n\n1. Services. The consultant "
        "provides services.",
        {"Northwind Traders": "Northwind Traders", "Maria Anders": "Maria Anders"},
    ),
}


@pytest.mark.parametrize("shape", sorted(MODEL_FALLBACK))
def test_model_entities_inside_the_party_clause_are_the_fallback(shape: str) -> None:
    text, expected = MODEL_FALLBACK[shape]
    assert _bound_spans(text) == expected


def test_model_fallback_is_not_used_when_the_grammar_reads_two_parties() -> None:
    """The clause's grammar names two parties; the model's other ORG in the clause (a regulator
    the preamble mentions) is no party."""
    text = (
        "LICENSE AGREEMENT\n\nThis License Agreement is made between Lark Brewing Inc. (\"Lark\") and Quill "
        "Networks Ltd. (\"Quill\"), as filed with the Securities and Exchange Commission.\n\n1. License."
    )
    assert set(_bound_spans(text)) == {"Lark Brewing Inc.", "Quill Networks Ltd."}


def test_model_fallback_refuses_capitalised_prose() -> None:
    """"Support Services" is tagged ORG by the model, but the document writes both words in lower
    case: prose, not a name. The other party still comes from the model."""
    text = (
        "SUPPORT AGREEMENT\n\nThis Agreement is made between the following parties: the customer, namely Tellus "
        "Health Partners, for Support Services and Product Maintenance.\n\n1. Support services. The vendor "
        "provides support services and product maintenance."
    )
    assert _bound_spans(text) == {"Tellus Health Partners": "Tellus Health Partners"}


def test_model_fallback_reads_no_clause_from_between_the_parties() -> None:
    """"the entire agreement between the parties" opens no party clause, so the model's ORG in
    the shouted prose after it ("UNFAIR COMPETITION") is no party (tune: a supplier contract)."""
    text = (
        "SUPPLIER CONTRACT\n\n1. By execution of this Supplier Contract (\"Contract\"), Acme Supply Inc. "
        "(\"Supplier\") agrees that all trademarks are owned by the Licensor.\n\n5. This Contract is the entire "
        "agreement between the parties and shall supersede any purchase order.\n\n7. VIOLATION OF THIS AGREEMENT "
        "BY SUPPLIER MAY RESULT IN PROSECUTION FOR PLAYBOY PROPERTIES INFRINGEMENT, UNFAIR COMPETITION AND "
        "OTHER CAUSES OF ACTION."
    )
    assert _bound_spans(text) == {"Acme Supply Inc.": "Acme Supply Inc. (\"Supplier\")"}
