"""A role defined right after the last company of a party list (issue 9, stop 31): "among Marlow
Korea Inc., Lotus Korea Inc. and Quartz Bank Ltd. (the "Lender")" defines Quartz Bank Ltd. as the
Lender. Before, the definition went back to the clause's first name, and "the Lender" became an
alias of Marlow Korea Inc.: a question about the Lender would have been about the wrong company.
A plural term may name the whole list and is left alone. Names are invented."""

from __future__ import annotations

import pytest

from ingest.definitions import find_definitions
from tests.helpers import bound_party_aliases


@pytest.mark.parametrize(
    "clause",
    [
        "among Marlow Korea Inc., Lotus Korea Inc. and Quartz Bank Ltd.",
        "between Marlow Korea Inc. and Quartz Bank Ltd.",
    ],
)
def test_a_role_after_the_last_listed_company_is_that_companys(clause: str) -> None:
    text = f"LOAN AGREEMENT\n\nThis Loan Agreement is made {clause} (the \"Lender\").\n\n1. Loan.\n"
    lender = next(d for d in find_definitions(text) if d.term == "Lender")
    start = text.index("Quartz")
    assert (lender.name.text, lender.name.start, lender.name.end) == ("Quartz Bank Ltd.", start, start + 16)
    aliases = bound_party_aliases(text)
    assert aliases["Quartz Bank Ltd."] == ["Lender"]
    assert aliases["Marlow Korea Inc."] == []

