"""Legal forms that are words in another case (issue 9): "AG", "SA", "SE", "NA", "AB" and "ASA"
are legal forms only as written in capitals ("case_exact_forms" of legal_suffixes.json), so
"Mid-Cal Ag Aviation Inc." is one name, not "Mid-Cal Ag" (before, the title-case "Ag" ended the
name and the party was recorded as "Mid-Cal Ag"); and a German company being formed, "GmbH i.G."
("in Gründung"), keeps its whole form. Names are invented."""

from __future__ import annotations

from ingest.names import ends_in_legal_suffix, name_at
from ingest.normalize import legal_form_words, normalise_org
from tests.helpers import bound_party_names


def _clause(first: str, second: str) -> str:
    return (
        "SERVICES AGREEMENT\n\nThis Agreement is made as of May 1, 2015 between "
        f"{first}, a California corporation (\"Operator\"), and {second} (\"Owner\").\n\n1. Services.\n"
    )


def test_a_title_case_ag_inside_a_name_is_a_word() -> None:
    text = _clause("Mid-Cal Ag Aviation Inc.", "Redwood Farms LLC")
    assert bound_party_names(text) == {"Mid-Cal Ag Aviation Inc.", "Redwood Farms LLC"}
    start = text.index("Mid-Cal")
    found = name_at(text, start, len(text))
    assert (found.text, found.start, found.end) == ("Mid-Cal Ag Aviation Inc.", start, start + 24)


def test_other_case_exact_forms_read_as_words_in_title_case() -> None:
    for word in ("Sa", "Se", "Na", "Ab"):
        name = f"Ocean {word} Holdings Inc."
        assert bound_party_names(_clause(name, "Redwood Farms LLC")) == {name, "Redwood Farms LLC"}, word
    assert not ends_in_legal_suffix("Kessler Invest Ag")
    assert ends_in_legal_suffix("Kessler Invest AG")


def test_capitalised_forms_still_end_names() -> None:
    text = (
        "SUPPLY AGREEMENT\n\nThis Agreement is made between KESSLER INVEST AG (\"Supplier\"), "
        "Fenwick Pharma AG, Basel (\"Buyer\") and Lumina SA (\"Agent\").\n\n1. Supply.\n"
    )
    assert bound_party_names(text) == {"KESSLER INVEST AG", "Fenwick Pharma AG", "Lumina SA"}


def test_a_company_in_formation_keeps_its_form() -> None:
    text = (
        "SHAREHOLDERS AGREEMENT\n\nThis Agreement is made between Nordlicht Solar GmbH i.G., Hamburg "
        "(\"Company\"), and Kessler Invest AG i.G. (\"Investor\").\n\n1. Shares.\n"
    )
    assert bound_party_names(text) == {"Nordlicht Solar GmbH i.G.", "Kessler Invest AG i.G."}
    # The registry key is the company's, formed or not.
    assert normalise_org("Nordlicht Solar GmbH i.G.") == normalise_org("Nordlicht Solar GmbH") == "nordlicht solar"


def test_a_company_in_formation_is_the_same_legal_person_to_the_gate() -> None:
    # The gate tells two companies of one name apart only when neither's forms hold the other's
    # (``legal_form_words``): "GmbH i.G." holds "GmbH", so a question naming "Nordlicht Solar
    # GmbH" still finds the company being formed, while "Nordlicht Solar AG" does not.
    formed = legal_form_words("Nordlicht Solar GmbH i.G.")
    assert formed == {"gmbh", "ig"}
    assert legal_form_words("Nordlicht Solar GmbH") <= formed
    assert not legal_form_words("Nordlicht Solar AG") <= formed
