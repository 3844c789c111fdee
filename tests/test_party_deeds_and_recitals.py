"""A Commonwealth deed's party list, a recital's guarantors and a cited clause's defined term
(issue 9, stop 33; names invented).

- "DEED OF ASSIGNMENT\\n\\nDate: ...\\n\\nParties\\n\\n1. Kestrel Ridge Minerals Pty Ltd ACN ... (Assignor)":
  "deed of" opens an instrument title, and a "Parties" heading shows the text is the instrument.
  Before, no title was read, so no agreement record and no party at all.
- "B.  The Loan will be guaranteed by ... (collectively, "Guarantor")": a recital's letter and
  "The" before a thing's defined term make no party name. Before, "B. The Loan" was a party.
- "by and among the Company, Aspen Hollow Partners IV, L.P. and ..." in a cited agreement's
  clause: a candidate the learned review reads over a defined term and a comma is no one name.
"""

from __future__ import annotations

from ingest.agreements import agreement_names
from tests.helpers import bound_party_aliases

DEED = (
    "DEED OF ASSIGNMENT\n\nDate: 28 February 2022\n\nParties\n\n"
    "1.  Kestrel Ridge Minerals Pty Ltd ACN 612 345 789 of Level 9, 240 St Georges Terrace, Perth WA 6000 (Assignor)\n\n"
    "2.  Coolabah Nominees Pty Ltd ACN 098 765 432 in its capacity as trustee of the Coolabah Family Trust of 15 "
    "Raglan Street, Mosman NSW 2088 (Assignee)\n\n"
    "Background\n\nA.  The Assignor and the Assignee are parties to the Royalty Deed dated 4 May 2016.\n"
)


def test_a_deed_with_a_parties_heading_is_titled_and_its_parties_bound() -> None:
    title, _ = agreement_names(DEED)
    assert title is not None and (title.text, title.start, title.end) == ("DEED OF ASSIGNMENT", 0, 18)
    assert bound_party_aliases(DEED) == {
        "Coolabah Nominees Pty Ltd": ["Assignee"],
        "Kestrel Ridge Minerals Pty Ltd": ["Assignor"],
    }


def test_a_deed_heading_over_a_memo_is_no_title() -> None:
    # Guard: the heading alone, over prose that is no instrument, titles nothing.
    memo = "DEED OF ASSIGNMENT\n\nNotes for the board: the royalty position is unchanged since May.\n"
    assert agreement_names(memo)[0] is None


def test_a_recitals_lettered_thing_term_is_no_party() -> None:
    text = (
        "LOAN AGREEMENT\n\nTHIS LOAN AGREEMENT (this \"Agreement\") is made and entered into as of September 27, "
        "2019, by and between BAYFRONT MARINA PARTNERS, LLC, a Florida limited liability company (\"Borrower\"), "
        "and COASTAL HERITAGE BANK, a Florida banking corporation (\"Lender\").\n\nRECITALS\n\nA.  Borrower has "
        "requested that Lender make a term loan to Borrower (the \"Loan\").\n\nB.  The Loan will be guaranteed by "
        "Raymond T. Castellanos and Castellanos Family Holdings, L.P. (collectively, \"Guarantor\") pursuant to a "
        "Guaranty Agreement of even date herewith.\n"
    )
    assert bound_party_aliases(text) == {
        "BAYFRONT MARINA PARTNERS, LLC": ["Borrower"],
        "COASTAL HERITAGE BANK": ["Lender"],
    }


def test_a_cited_clauses_term_and_name_read_as_one_are_no_party() -> None:
    text = (
        "JOINDER AGREEMENT\n\nThis JOINDER AGREEMENT (this \"Joinder\") is made and entered into as of September 30, "
        "2021 by and between Kittering Family Investments II, LLC, a Delaware limited liability company (the "
        "\"Joining Holder\"), and Wrenfield Holdings Corp., a Delaware corporation (the \"Company\").\n\nReference is "
        "made to the Stockholders Agreement, dated as of March 1, 2018 (as amended from time to time, the "
        "\"Stockholders Agreement\"), by and among the Company, Aspen Hollow Partners IV, L.P. and the other "
        "stockholders of the Company party thereto.\n\n1.  Joinder. The Joining Holder hereby agrees.\n"
    )
    assert bound_party_aliases(text) == {
        "Kittering Family Investments II, LLC": ["Joining Holder"],
        "Wrenfield Holdings Corp.": ["Company"],
    }


def test_one_the_text_says_is_not_a_party_is_none() -> None:
    # Before, the principal investigator was bound twice ("Natalia V. Crenshaw" and with "M.D.").
    text = (
        "CLINICAL TRIAL AGREEMENT\n\nThis Clinical Trial Agreement (the \"Agreement\") is entered into by and between "
        "Veradyne Therapeutics Ltd., a company organized under the laws of Ireland (\"Sponsor\"), and St. Aldhelm's "
        "Regional Medical Center, Inc., a Texas nonprofit corporation (\"Institution\"). Natalia V. Crenshaw, M.D. "
        "(\"Principal Investigator\") has read this Agreement and acknowledges her obligations hereunder but is not "
        "a party to this Agreement.\n\n1.  Conduct of the Study\n\nIN WITNESS WHEREOF\n\nPRINCIPAL INVESTIGATOR\n\n"
        "/s/ Natalia V. Crenshaw\nNatalia V. Crenshaw, M.D.\n"
    )
    assert bound_party_aliases(text) == {
        "St. Aldhelm's Regional Medical Center, Inc.": ["Institution"],
        "Veradyne Therapeutics Ltd.": ["Sponsor"],
    }


def test_not_a_party_to_another_agreement_says_nothing_of_this_one() -> None:
    text = (
        "SUPPLY AGREEMENT\n\nThis Agreement is made between Tiger Capital Inc. (\"Tiger\"), which is not a party to "
        "the Credit Agreement, and Sun Harbor Trading LLC (\"Sun\").\n"
    )
    assert bound_party_aliases(text) == {"Sun Harbor Trading LLC": ["Sun"], "Tiger Capital Inc.": ["Tiger"]}
