"""A name typed without its accents is the same registry key as the name the contract writes
with them (stop 22): "Distribuidora Nunez" for "Distribuidora Núñez", "Ltee" for "Ltée". Folding
stops at combining marks: letters of their own ("ø") and scripts without marks stay as written.
Normalisation on names; the gate on a real SQLite store filled by the real ingest pipeline
(spaCy, MiniLM). Nothing is mocked; every name is invented."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ingest.normalize import legal_form_words, normalise_org, normalise_person
from ingest.text import fold_marks
from tests.kb import KB, ingested_kb


@pytest.mark.parametrize(
    ("written", "typed"),
    [
        ("Distribuidora Núñez, S.A. de C.V.", "DISTRIBUIDORA NUNEZ, S.A. DE C.V."),
        ("Société Vérane S.A.", "Societe Verane SA"),
        ("Hôtel Beaulac Ltée", "Hotel Beaulac Ltee"),
        ("Kälteanlagen Grünwald GmbH", "Kalteanlagen Grunwald GmbH"),
        ("Verdant Holdings S.à r.l.", "Verdant Holdings S.a r.l."),
    ],
)
def test_a_name_typed_without_its_marks_is_the_written_names_key(written: str, typed: str) -> None:
    assert normalise_org(written) == normalise_org(typed)
    assert legal_form_words(written) == legal_form_words(typed)


def test_people_fold_too_and_other_letters_stay() -> None:
    assert normalise_person("José Núñez") == normalise_person("Jose Nunez") == "jose nunez"
    # No base letter with a mark: kept, so "Oresund" is another name.
    assert normalise_org("Øresund Marine ApS") == "øresund marine"
    assert fold_marks("北京星河科技有限公司") == "北京星河科技有限公司"
    assert fold_marks("acme holdings") == "acme holdings"


SUPPLY = (
    "DISTRIBUTION AGREEMENT\n\nThis Distribution Agreement is made on 2 March 2021 by and between Distribuidora "
    "Núñez, S.A. de C.V., a Mexican company (\"Distributor\"), and Société Vérane S.A., a French company "
    "(\"Supplier\").\n\n1. Governing Law. This Agreement shall be governed by the laws of France.\n"
)


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory, embedder) -> Iterator[KB]:
    yield from ingested_kb(tmp_path_factory, embedder, "name-marks-kb", {"supply": SUPPLY})


@pytest.mark.parametrize(
    "question",
    [
        "What law governs the Distribution Agreement between Distribuidora Núñez, S.A. de C.V. and Société Vérane S.A.?",
        "What law governs the Distribution Agreement between Distribuidora Nunez, S.A. de C.V. and Societe Verane S.A.?",
    ],
)
def test_the_party_binds_with_or_without_its_marks(kb: KB, question: str) -> None:
    docs, result = kb.docs(question)
    assert docs == {"supply"}, result.rejected


def test_another_name_still_does_not_bind(kb: KB) -> None:
    docs, result = kb.docs(
        "What law governs the Distribution Agreement between Distribuidora Nunes, S.A. de C.V. and Societe Verane S.A.?"
    )
    assert docs == set()
    assert result.unresolved == ["Distribuidora Nunes, S.A. de C.V."]
