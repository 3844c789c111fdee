"""Label rows and stacked capacities, more shapes (stop 23, issue 9 party recall): a field
labelled by a counterpart role that prose rarely defines ("Pledgor:", "Sublandlord:", "Trustee:"
of ``label_roles_extra`` in ``ner_models/party_layout.json``), and a bank's branch on the line
below its name in a cover's party list. Invented names, the real spaCy pipeline; each case asserts
the exact names bound, and the exact span where the name runs over a line."""

from __future__ import annotations

from ingest.annotate import annotate_document
from ingest.definitions import find_definitions
from ingest.names import party_name_forms
from ingest.party_layout import label_slots
from tests.helpers import bound_party_names


def test_pledge_label_rows_bind_pledgor_and_pledgee() -> None:
    text = (
        "STOCK PLEDGE AGREEMENT\n\nPledgor: Quorrel Holdings, Inc., a Delaware corporation\n"
        "Pledgee: Harbourline Capital LLC, a New York limited liability company\n"
        "Address: 100 Main Street, Westport\n\n"
        "1. Pledge. The Pledgor pledges the Shares to the Pledgee.\n"
    )
    slots = label_slots(text)
    assert [(s.term, s.name.text) for s in slots] == [
        ("Pledgor", "Quorrel Holdings, Inc."),
        ("Pledgee", "Harbourline Capital LLC"),
    ]
    first = slots[0].name
    assert text[first.start : first.end] == "Quorrel Holdings, Inc."
    assert bound_party_names(text) == {"Quorrel Holdings, Inc.", "Harbourline Capital LLC"}


def test_a_label_of_someone_acting_for_a_party_still_binds_no_one() -> None:
    # "Bank:" of payment details stays excluded; "Manager:" is no label role.
    text = (
        "SERVICES AGREEMENT\n\nTrustee: Wrenfield Trust Company, N.A.\nManager: Quillon Property Services LLC\n"
        "Bank: Harbour Savings Bank, N.A.\n\n1. Services. The Manager provides the services.\n"
    )
    assert [(s.term, s.name.text) for s in label_slots(text)] == [("Trustee", "Wrenfield Trust Company, N.A.")]


def test_a_branch_on_the_line_below_its_bank_is_one_party() -> None:
    text = (
        "                     TERM LOAN FACILITY AGREEMENT\n\n                                    Between\n\n"
        "                          KESTREL HOLDINGS LIMITED\n                                  as Borrower\n\n"
        "                                      and\n\n"
        "                  THE MERCHANTS AND HARBOUR BANK OF WESTLAND,\n"
        "                                HARBOUR CITY BRANCH\n                                    as Agent\n\n"
        "THIS AGREEMENT is dated 1 May 2001.\n"
    )
    assert bound_party_names(text) == {
        "KESTREL HOLDINGS LIMITED", "THE MERCHANTS AND HARBOUR BANK OF WESTLAND, HARBOUR CITY BRANCH"
    }
    # The binding cites the name as written over both lines.
    annotations = annotate_document(text, [(0, len(text))], doc_id="doc", revision="rev")
    bank = next(s for s in annotations.subjects if s.subject_id == "org:merchants and harbour bank of westland harbour city branch")
    binding = next(b for b in bank.bindings if b.relation == "party_to")
    start = text.index("THE MERCHANTS")
    end = text.index("CITY BRANCH") + len("CITY BRANCH")
    assert (binding.char_start, binding.char_end) == (start, end)


def test_a_numbered_company_is_a_party() -> None:
    text = (
        "SECOND AMENDMENT\nTO\nLEASE\nAMENDMENT made as of this 9th day of November, 1998 by and between THE\n"
        '2020 COMPANY ("Owner"), a New York Limited Partnership, having an office at 12 Harbour Street, and\n'
        'QUILLON CORPORATION ("Tenant"), a Delaware Corporation, having an address at 12 Harbour Street.\n'
        "BACKGROUND\nOwner and Tenant are parties to a certain lease.\n"
    )
    assert bound_party_names(text) == {"THE 2020 COMPANY", "QUILLON CORPORATION"}


def test_the_undersigned_leads_a_numbered_party_list() -> None:
    # Dutch drafting ("DE ONDERGETEKENDEN") opens its party list with "THE UNDERSIGNED".
    text = (
        "LICENSE AGREEMENT\n\nTHE UNDERSIGNED\n|1.\n|Stichting Westmere Universiteit, a foundation organised under "
        "the laws of the Netherlands, established at Harbourweg 9, Nijmegen (hereinafter referred to as "
        "\u201cLicensor\u201d);\nAND\n|2.\n|Quorratech Therapeutics B.V., a company organised under the laws of The "
        "Netherlands, hereinafter referred to as the \u201cLicensee\u201d;\nWHEREAS\n|A.\n|Licensor has an invention.\n"
    )
    assert bound_party_names(text) == {"Stichting Westmere Universiteit", "Quorratech Therapeutics B.V."}


def test_a_division_is_bound_as_written_and_keyed_by_its_own_name() -> None:
    text = (
        "SALES REPRESENTATIVE AGREEMENT\nThis is a Sales Representative Agreement (the \"Agreement\") effective "
        "January 1, 2006, between (i) QUILLON LIFT, a Division of Westmark Industries, Inc., a Delaware corporation "
        "(\"Manufacturer\"); and (ii) HARBOURSIDE MARKETING, INC., a Florida corporation (\"Representative\").\n"
        "Recitals\nA. Manufacturer makes lifts.\n"
    )
    assert bound_party_names(text) == {"QUILLON LIFT, a Division of Westmark Industries, Inc.", "HARBOURSIDE MARKETING, INC."}
    annotations = annotate_document(text, [(0, len(text))], doc_id="doc", revision="rev")
    division = next(s for s in annotations.subjects if s.subject_id == "org:quillon lift")
    assert "QUILLON LIFT" in division.aliases
    # The company the division belongs to is no party of its own.
    assert not any(s.subject_id == "org:westmark industries" for s in annotations.subjects
                   if any(b.relation == "party_to" for b in s.bindings))
    # (Stop 64: a division is no legal person, so the party is also asked for by the company that
    # contracts through it; still one party, keyed by the division's name.)
    assert party_name_forms("QUILLON LIFT, a Division of Westmark Industries, Inc.") == [
        "QUILLON LIFT, a Division of Westmark Industries, Inc.", "Westmark Industries, Inc.", "QUILLON LIFT"
    ]


def test_a_shouted_names_own_and_does_not_split_the_defined_party() -> None:
    text = (
        "AGREEMENT\n\n     AGREEMENT made as of October 31, 2011, by and between HARBOUR SPORTS, A Division\n"
        "of Westmark Broadcasting Inc., 51 West 52nd Street, New York, New York 10019 (herein\n"
        'called "Harbour"), and QUORRA SPORTS AND ENTERTAINMENT, INC., 254 South Ronald\n'
        'Reagan Boulevard, Suite 134, Longwood, Florida 32750 (herein called "Licensor").\n\n'
        "     In consideration of the mutual covenants herein contained, the parties agree as follows:\n"
    )
    definitions = {d.term: d.name.text for d in find_definitions(text) if d.name is not None}
    assert definitions["Licensor"] == "QUORRA SPORTS AND ENTERTAINMENT, INC."
    assert bound_party_names(text) == {
        "HARBOUR SPORTS, A Division of Westmark Broadcasting Inc.", "QUORRA SPORTS AND ENTERTAINMENT, INC."
    }


def test_a_shouted_and_after_a_legal_form_still_joins_two_parties() -> None:
    # "ACME INC. AND BETA LLC": the name before the "AND" closes with its legal form.
    text = (
        "LICENSE AGREEMENT\n\nThis License Agreement is made by and between the Licensor and KESTREL WORKS INC. AND "
        'QUORRA SYSTEMS LLC, 12 Harbour Street, Westport (the "Licensee").\n\n1. Grant.\n'
    )
    definitions = {d.term: d.name.text for d in find_definitions(text) if d.name is not None}
    assert definitions["Licensee"] == "QUORRA SYSTEMS LLC"


def test_a_company_a_party_acts_for_beside_itself_is_a_party() -> None:
    text = (
        "CO-BRAND AGREEMENT\nThis co-brand agreement (the \"Agreement\") is entered into as of May 8, 2001 by and "
        "between KESTREL CARD SERVICES, L.P., a Rhode Island limited partnership, for itself and on behalf of Kestrel "
        "Bank (RI), National Association (collectively \"Kestrel\"), and Quorra Networks LLC, a Delaware limited "
        "liability company (\"Quorra\"). WHEREAS, Kestrel issues cards.\n"
    )
    assert bound_party_names(text) == {
        "KESTREL CARD SERVICES, L.P.", "Kestrel Bank (RI), National Association", "Quorra Networks LLC"
    }
    # Without a legal form it names no one ("for itself and on behalf of its Affiliates").
    plain = text.replace("Kestrel Bank (RI), National Association", "its Affiliates")
    assert bound_party_names(plain) == {"KESTREL CARD SERVICES, L.P.", "Quorra Networks LLC"}


def test_a_definition_under_a_heading_line_names_the_party_on_its_own_line() -> None:
    text = (
        "**** INDICATES OMITTED MATERIAL FILED\nSEPARATELY WITH THE COMMISSION.\nPURCHASING AGREEMENT\n"
        "QUILLON CHEMICALS, INC. (\u201cBUYER\u201d) hereby agrees to purchase from HARBOUR LIME COMPANY "
        "(\u201cSELLER\u201d), and SELLER hereby agrees to sell to said BUYER the following products:\n"
        "PRODUCTS: Quicklime.\n"
    )
    definitions = {d.term: d.name.text for d in find_definitions(text) if d.name is not None}
    assert definitions["BUYER"] == "QUILLON CHEMICALS, INC."
    assert definitions["SELLER"] == "HARBOUR LIME COMPANY"
    start = text.index("QUILLON")
    buyer = next(d for d in find_definitions(text) if d.term == "BUYER")
    assert (buyer.name.start, buyer.name.end) == (start, start + len("QUILLON CHEMICALS, INC."))
