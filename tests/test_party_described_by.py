"""A company named after a party's definition and "of" (issue 9, stop 31): "the undersigned
stockholder (the "Stockholder") of Seneca Therapeutics, Inc. ... (the "Company")" describes the
stockholder by the company it holds; that company is no party to the voting agreement. Before,
its own definition made it one. The document's own term keeps its company ("(this "Agreement")
of Pippy Lane LLC"). Names are invented."""

from __future__ import annotations

from ingest.names import after_non_party_lead
from tests.helpers import bound_party_names

VOTING = (
    "VOTING AGREEMENT\n\nThis VOTING AGREEMENT (this \"Agreement\") is entered into as of December 12, 2018, "
    "by and among Palisade Bio Holdings, Inc., a Delaware corporation (\"Parent\"), and the undersigned "
    "stockholder (the \"Stockholder\") of Seneca Therapeutics, Inc., a Delaware corporation (the "
    "\"Company\").\n\nRECITALS\n"
)


def test_a_company_joined_by_of_to_a_partys_definition_is_no_party() -> None:
    assert after_non_party_lead(VOTING, VOTING.index("Seneca"))
    assert bound_party_names(VOTING) == {"Palisade Bio Holdings, Inc."}


def test_the_documents_own_term_keeps_its_company() -> None:
    text = (
        "OPERATING AGREEMENT\n\nThis Operating Agreement (this \"Agreement\") of Pippy Lane LLC, a Pennsylvania "
        "limited liability company (the \"Company\"), is entered into by Harbor Light Inc. (the "
        "\"Member\").\n\nARTICLE I\n"
    )
    assert not after_non_party_lead(text, text.index("Pippy"))
    assert "Pippy Lane LLC" in bound_party_names(text)
