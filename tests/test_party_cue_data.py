"""The party readers' cue words are data (ner_models/party_filters.json), loaded once: the note
reader's promise qualifiers and maker leads, the words that open a listed party's former name,
and the document words that end a model entity in the model fallback. Each test shows the data
file drives the reader. Invented names only."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from ingest import annotate
from ingest.annotate import _collective_names, _model_clause_names, _promise_names, former_names, note_cues
from ingest.definitions import between_windows
from ingest.lexicons import load_json

MAKER = "Pellingham Pumps, Inc."
PAYEE = "Gorse Lane Capital, Ltd."


def _data(**changes: list[str]) -> dict[str, Any]:
    return {**load_json("party_filters.json"), **changes}


@pytest.fixture
def cues_from(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """Make the note reader use the cues built from a changed copy of party_filters.json."""

    def use(data: dict[str, Any]) -> None:
        monkeypatch.setattr(annotate, "_note_cues", lambda: note_cues(data))

    yield use


def _read(text: str) -> list[tuple[str, int]]:
    return [(n.text, n.start) for n in _promise_names(text)]


@pytest.mark.parametrize("lead", load_json("party_filters.json")["maker_leads"])
def test_each_maker_lead_of_the_data_file_opens_the_makers_clause(lead: str) -> None:
    # The sentence starts at "Series 7": without the lead the maker would be read from there.
    text = f"Series 7. {lead.upper()}, {MAKER} promises to pay to {PAYEE} the sum."
    assert _read(text) == [(MAKER, text.index(MAKER)), (PAYEE, text.index(PAYEE))]


def test_a_maker_lead_added_to_the_data_file_is_read(cues_from: Any) -> None:
    # "Against value given" opens no maker's clause until the data file says so: the sentence
    # start is read instead, and "Against" is no name with a legal form.
    text = f"Against value given: {MAKER} promises to pay to {PAYEE} the sum."
    assert _read(text) == [(PAYEE, text.index(PAYEE))]
    cues_from(_data(maker_leads=[*load_json("party_filters.json")["maker_leads"], "against value given:"]))
    assert _read(text) == [(MAKER, text.index(MAKER)), (PAYEE, text.index(PAYEE))]


def test_the_promise_takes_its_qualifiers_from_the_data_file() -> None:
    text = f"{MAKER} jointly and severally promises to pay to {PAYEE}."
    promise = annotate._note_cues().promise.search(text)
    assert promise is not None and promise.start() == text.index("jointly") and promise.end() == text.index(PAYEE)
    # Without "jointly"/"severally" in the data, the promise starts at its verb.
    bare = note_cues(_data(promise_qualifiers=["absolutely", "unconditionally", "and"])).promise.search(text)
    assert bare is not None and bare.start() == text.index("promises")
    # An invented qualifier in the data is part of the promise.
    irrevocable = f"{MAKER} irrevocably promises to pay to {PAYEE}."
    added = note_cues(_data(promise_qualifiers=["irrevocably"])).promise.search(irrevocable)
    assert added is not None and added.start() == irrevocable.index("irrevocably")


def test_the_cues_are_loaded_once() -> None:
    assert annotate._note_cues() is annotate._note_cues()


@pytest.mark.parametrize(
    ("word", "skipped"),
    # "statute" and "schedule" are document words of party_filters.json; "charter" and
    # "holdings" are none.
    [("Charter", False), ("Statute", True), ("Schedule", True), ("Holdings", False)],
)
def test_the_model_fallback_drops_an_entity_a_document_word_follows(word: str, skipped: bool) -> None:
    assert (word.casefold() in load_json("party_filters.json")["document_words"]) == skipped
    text = f"This Agreement is made between Orrin Tools {word}, of Westland, and Beta Vale LLC."
    begin = text.index("Orrin")
    found = _model_clause_names(text, [(begin, begin + len("Orrin Tools"), "ORG")], frozenset())
    assert [n.text for n, _ in found] == ([] if skipped else ["Orrin Tools"])


GROUP = (
    "This Agreement is made between Vale Tours, Inc. ({lead} Amber Trips, Inc.), Orrin Travel, Inc. and "
    'Cobalt Stays LLC (collectively, the "Sellers"), and Beta Bank LLC (the "Buyer").'
)
SELLERS = ["Vale Tours, Inc.", "Orrin Travel, Inc.", "Cobalt Stays LLC"]


def _listed(text: str) -> list[str]:
    return [n.text for n in _collective_names(text, between_windows(text))]


@pytest.mark.parametrize("lead", load_json("party_filters.json")["former_name_leads"])
def test_each_former_name_lead_of_the_data_file_keeps_the_list_whole(lead: str) -> None:
    assert _listed(GROUP.format(lead=lead)) == SELLERS


def test_a_former_name_lead_added_to_the_data_file_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    # "once known as" is no lead of the file: its aside closes the list, whose first name is lost.
    text = GROUP.format(lead="once known as")
    assert _listed(text) == SELLERS[1:]
    data = _data(former_name_leads=[*load_json("party_filters.json")["former_name_leads"], "once known as"])
    monkeypatch.setattr(annotate, "_former_names", lambda: former_names(data))
    assert _listed(text) == SELLERS
