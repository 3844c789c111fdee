"""An instrument's makers and the other parties its clause names (issue 9, stop 33).

- "This Pledge Agreement is entered into by Tiger Capital Inc. and Sun Harbor Trading LLC.": the
  makers after "made/entered into/executed by" are parties, as names after "between" are. Before,
  a clause without "between" and without defined terms bound no party at all.
- "made by Harbor Holdings, Inc. for the benefit of Kestrel Bank Ltd. (the "Lender")": the
  beneficiary's lead opens the name the definition belongs to. Before, "Lender" became an alias
  of Harbor Holdings, Inc., and a question about the guaranty "between Harbor Holdings and the
  Lender" would have been bound to the wrong company.
- "in respect of the obligations of Cove Partners LLC (the "Borrower")": likewise the obligor's.
- "between the Borrower and Kestrel Bank Ltd. (the "Lender")": a role word after "the" is no part
  of the name the definition reads.

Names are invented.
"""

from __future__ import annotations

import pytest

from ingest.definitions import find_definitions, made_by_windows
from tests.helpers import bound_party_aliases


@pytest.mark.parametrize("verb", ["is entered into by", "is made by", "is executed by", "is made as of May 1, 2020 by"])
def test_the_makers_of_an_instrument_without_between_are_its_parties(verb: str) -> None:
    text = f"PLEDGE AGREEMENT\n\nThis Pledge Agreement {verb} Tiger Capital Inc. and Sun Harbor Trading LLC.\n\n1. Pledge.\n"
    [(start, end)] = made_by_windows(text)
    assert text[start:end].startswith("by Tiger Capital Inc.")
    assert text[start:end].endswith("Sun Harbor Trading LLC.")
    # (The sentence's period stays on "LLC.", as after "between": the registry's keys drop it.)
    assert sorted(bound_party_aliases(text)) == ["Sun Harbor Trading LLC.", "Tiger Capital Inc."]


def test_makers_with_descriptions_are_each_a_party() -> None:
    text = (
        "PLEDGE AGREEMENT\n\nThis Pledge Agreement is made by Tiger Capital Inc., a Delaware corporation, and "
        "Sun Harbor Trading LLC, a Texas limited liability company.\n\n1. Pledge.\n"
    )
    assert bound_party_aliases(text) == {"Sun Harbor Trading LLC": [], "Tiger Capital Inc.": []}


def test_by_and_between_is_no_makers_clause() -> None:
    text = "SUPPLY AGREEMENT\n\nThis Agreement is made by and between Tiger Capital Inc. and Sun Harbor Trading LLC.\n"
    assert made_by_windows(text) == []
    # (The sentence's period stays on "LLC.", as after "between": the registry's keys drop it.)
    assert sorted(bound_party_aliases(text)) == ["Sun Harbor Trading LLC.", "Tiger Capital Inc."]


def test_a_makers_clause_in_the_recitals_is_no_party_clause() -> None:
    # A recital citing how another instrument was made names that instrument's makers.
    text = (
        "SUPPLY AGREEMENT\n\nThis Supply Agreement is dated May 1, 2020.\n\nWHEREAS, a Guaranty was executed by "
        "Harbor Holdings, Inc. in 2019;\n\n1. Supply.\n"
    )
    assert made_by_windows(text) == []


@pytest.mark.parametrize(
    "lead",
    [
        "for the benefit of",
        "in favor of",
        ", a Delaware corporation, in favour of",
    ],
)
def test_a_term_after_a_beneficiary_is_the_beneficiarys(lead: str) -> None:
    text = f"GUARANTY\n\nThis Guaranty is made by Harbor Holdings, Inc.{'' if lead.startswith(',') else ' '}{lead} Kestrel Bank Ltd. (the \"Lender\").\n\n1. Guaranty.\n"
    lender = next(d for d in find_definitions(text) if d.term == "Lender")
    start = text.index("Kestrel")
    assert (lender.name.text, lender.name.start, lender.name.end) == ("Kestrel Bank Ltd.", start, start + 17)
    assert bound_party_aliases(text) == {"Harbor Holdings, Inc.": [], "Kestrel Bank Ltd.": ["Lender"]}


def test_a_term_after_the_obligor_a_guaranty_covers_is_the_obligors() -> None:
    text = (
        "GUARANTY\n\nThis Guaranty is made by Harbor Holdings, Inc. in respect of the obligations of Cove Partners "
        "LLC (the \"Borrower\") under the Loan Agreement dated May 1, 2019 between the Borrower and Kestrel Bank "
        "Ltd. (the \"Lender\").\n\n1. Guaranty.\n"
    )
    terms = {d.term: d.name for d in find_definitions(text)}
    assert (terms["Borrower"].text, terms["Borrower"].start) == ("Cove Partners LLC", text.index("Cove"))
    assert (terms["Lender"].text, terms["Lender"].start) == ("Kestrel Bank Ltd.", text.index("Kestrel"))
    assert bound_party_aliases(text) == {
        "Cove Partners LLC": ["Borrower"],
        "Harbor Holdings, Inc.": [],
        "Kestrel Bank Ltd.": ["Lender"],
    }


def test_a_term_of_the_maker_itself_stays_the_makers() -> None:
    # Guard: the maker's own definition before the beneficiary lead is untouched, and a term made
    # from the maker's name after the lead is still the maker's.
    text = (
        "GUARANTY\n\nThis Guaranty is made by Harbor Holdings, Inc. (the \"Guarantor\") for the benefit of "
        "Kestrel Bank Ltd. (the \"Lender\").\n\n1. Guaranty.\n"
    )
    assert bound_party_aliases(text) == {"Harbor Holdings, Inc.": ["Guarantor"], "Kestrel Bank Ltd.": ["Lender"]}


def test_a_loan_agreement_cited_in_the_recitals_names_no_party_of_the_guaranty() -> None:
    # The only "between" stands in the recitals, citing the loan agreement the guaranty supports:
    # before, the borrower it names was bound as a party of the guaranty.
    text = (
        "GUARANTY\n\nTHIS GUARANTY (this \"Guaranty\") is made as of April 9, 2020 by ELDERWOOD HOLDINGS, LLC, a "
        "Delaware limited liability company (\"Guarantor\"), in favor of SUMMIT PASS CAPITAL FUNDING, LLC, a "
        "Delaware limited liability company (\"Lender\").\n\nRECITALS\n\nA.  Pursuant to that certain Loan "
        "Agreement of even date herewith (the \"Loan Agreement\") between ELDERWOOD ST. CHARLES OPCO, LLC, a "
        "Missouri limited liability company (\"Borrower\"), and Lender, Lender has agreed to make a loan.\n"
    )
    assert bound_party_aliases(text) == {
        "ELDERWOOD HOLDINGS, LLC": ["Guarantor"],
        "SUMMIT PASS CAPITAL FUNDING, LLC": ["Lender"],
    }


def test_the_first_between_before_the_recitals_is_never_taken_for_a_cited_one() -> None:
    # Guard: an amendment's own clause cites its parent ("that certain") and is still its own.
    text = (
        "AMENDMENT NO. 1\n\nThis Amendment No. 1 to that certain Supply Agreement dated May 1, 2018 is made "
        "between Tiger Capital Inc. (\"Tiger\") and Sun Harbor Trading LLC (\"Sun\").\n\nRECITALS\n\nWHEREAS, "
        "the parties wish to amend the Supply Agreement.\n"
    )
    assert bound_party_aliases(text) == {"Sun Harbor Trading LLC": ["Sun"], "Tiger Capital Inc.": ["Tiger"]}
