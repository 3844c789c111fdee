"""Signature blocks that name a party nowhere else (issue 9, tune half A misses; names invented
for these tests, not from CUAD or any filing): an execution clause in its own words ("By signing
below, ...") leads the signatures like "IN WITNESS WHEREOF", and the defined terms written after a
head's name ("Quillan Forge Systems, Inc. ("Harlow")") do not hide the name from the "By:" below.
Real spaCy pipeline for the bound parties.
"""

from __future__ import annotations

from ingest.annotate import _signature_names, _signature_start
from tests.helpers import bound_party_names

# A long paper (past the short paper's unled block reader), so only a led signature block reads
# the heads.
_FILLER = "".join(
    f"{n}. The Customer shall order the Products described in Schedule {n} under the Agreement and shall "
    f"pay each invoice within thirty days of its date, in the currency the invoice states.\n\n"
    for n in range(3, 60)
)

AMENDMENT = (
    "AMENDMENT NO. 2\n\nDated as of March 3, 2011\n\n"
    "Reference is hereby made to that certain Supply Agreement dated as of May 1, 2009 (\"Agreement\"), "
    "between Harlow Kettle Works, Inc. (\"Harlow\") and Brindle Pumps, Inc. (\"Customer\").\n\n"
    "The parties agree to modify the Agreement as follows:\n\n"
    "1. Harlow's rights and obligations under the Agreement pass to its successor named below, which "
    "is hereby substituted for Harlow as \"Harlow\" under the Agreement.\n\n"
    "2. Prices in Schedule A are amended as set out in Annex 1.\n\n"
    + _FILLER
    + "By signing in the places indicated below, the parties hereto accept and agree to all of the terms "
    "and conditions hereof.\n\n"
    "Brindle Pumps, Inc. Quillan Forge Systems, Inc. (\"Harlow\") (\"Customer\") By: /s/ Ada Voss By: /s/ Lee Marsh "
    "Name: Ada Voss Lee Marsh Its: President Its: Vice President\n"
)

WITNESSED_WITH_TERM = (
    "SERVICES AGREEMENT\n\nThis Services Agreement is made between Orrin Fell Labs LLC (\"Client\") and "
    "Mosswood Data Inc. (\"Provider\").\n\n"
    + _FILLER
    + "IN WITNESS WHEREOF, the parties have executed this Agreement.\n\n"
    "ORRIN FELL LABS LLC\nBy: /s/ Tam Ruiz\nName: Tam Ruiz\n\n"
    "PELLAM HOSTING CORP. (the \"Host\")\nBy: /s/ Ines Gower\nName: Ines Gower\n"
)


def test_by_signing_below_leads_the_signatures() -> None:
    start = AMENDMENT.index("By signing in the places indicated below")
    assert _signature_start(AMENDMENT) == start
    # "By signing this form" with no "below" leads nothing: the walk ends at the sentence's end.
    assert _signature_start("By signing this form the applicant agrees. Nothing else.\n" + _FILLER) is None


def test_heads_before_their_defined_terms_are_read() -> None:
    names = [n.text for n in _signature_names(AMENDMENT)]
    assert names == ["Quillan Forge Systems, Inc."]


def test_successor_named_only_where_it_signs_is_bound() -> None:
    assert bound_party_names(AMENDMENT) == {
        "Harlow Kettle Works, Inc.",
        "Brindle Pumps, Inc.",
        "Quillan Forge Systems, Inc.",
    }


def test_witnessed_head_with_a_term_is_bound() -> None:
    assert bound_party_names(WITNESSED_WITH_TERM) == {
        "Orrin Fell Labs LLC",
        "Mosswood Data Inc.",
        "PELLAM HOSTING CORP.",
    }
