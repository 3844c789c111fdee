"""The learned party-candidate scorer (issue 9, ``ingest/party_scorer.py``): the exact features
of invented candidates, the shipped model's decisions on clear cases, deterministic training,
the bounds, and the weights file's loading errors. Every name here is invented."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

from ingest import party_scorer as ps
from ingest.errors import AttestError, InternalError
from ingest.names import NameSpan, lowercase_words

ROOT = Path(__file__).resolve().parents[1]

CONTRACT = (
    "MASTER SERVICES AGREEMENT\n\n"
    "This Master Services Agreement is made by and between Brindlewood Analytics, Inc., a Delaware "
    "corporation (\"Provider\"), and Quillfeather Logistics LLC, c/o Marrowby Partners LLP, 12 Elm Road "
    "(\"Customer\").\n\n1. Services.\n"
)
TERMS = frozenset({"provider", "customer"})


def _at(text: str, name: str) -> NameSpan:
    start = text.index(name)
    return NameSpan(name, start, start + len(name))


def _active(row: np.ndarray) -> list[str]:
    return [name for name, value in zip(ps.FEATURE_NAMES, row, strict=True) if value]


def _trainer():
    spec = importlib.util.spec_from_file_location("train_party_scorer", ROOT / "scripts" / "train_party_scorer.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_candidates_and_their_exact_features() -> None:
    grammar = [_at(CONTRACT, "Brindlewood Analytics, Inc.")]
    found = ps.candidates(CONTRACT, grammar, [], lowercase_words(CONTRACT), TERMS)
    assert [(c.name.text, c.name.start, c.name.end, c.grammar) for c in found] == [
        ("Brindlewood Analytics, Inc.", 81, 108, True),
        ("Quillfeather Logistics LLC", 151, 177, False),
        ("Marrowby Partners LLP", 183, 204, False),
        ("Elm Road", 209, 217, False),
    ]
    rows = ps.features(CONTRACT, found, [])
    assert _active(rows[0]) == [
        "bias", "legal_form", "grammar", "words_2_3", "rank_0", "opening_first_1000", "before_between",
        "before_and", "before_by", "after_description", "mentions", "made_sentence",
    ]
    assert _active(rows[1]) == [
        "bias", "legal_form", "words_2_3", "rank_1", "opening_first_1000", "before_and", "mentions", "made_sentence",
    ]
    # The addressee's firm: after "c/o", an address follows.
    assert _active(rows[2]) == [
        "bias", "legal_form", "words_2_3", "rank_2", "opening_first_1000", "before_non_party_lead",
        "after_address", "mentions", "made_sentence",
    ]
    assert _active(rows[3]) == [
        "bias", "person_shape", "words_2_3", "rank_3_5", "opening_first_1000", "before_digit",
        "after_defined_term", "mentions", "made_sentence",
    ]
    # One mention each: log(2) / 3.
    assert rows[0][ps.FEATURE_NAMES.index("mentions")] == pytest.approx(np.log(2) / 3)


def test_defined_terms_and_false_party_shapes_are_no_candidates() -> None:
    text = "Notices go to: Provider; Delaware; 1707 Main Street; Statement of Work; Orrin Vale Corp.\n"
    found = ps.candidates(text, [], [], lowercase_words(text), frozenset({"provider"}))
    # A defined term, a place, an address from its number and a document are no candidates; what
    # is left is for the model to score ("Main Street" and "Work" score low).
    assert [c.name.text for c in found] == ["Main Street", "Work", "Orrin Vale Corp."]


def test_shipped_model_decides_clear_cases() -> None:
    model = ps.model()
    assert (model.add_threshold, model.drop_threshold, model.additions_limit) == (0.65, 0.1, 2)
    text = CONTRACT.replace("c/o Marrowby Partners LLP, 12 Elm Road ", "a Delaware limited liability company ")
    grammar = [_at(text, "Brindlewood Analytics, Inc.")]
    quill = _at(text, "Quillfeather Logistics LLC")
    spans = [(quill.start, quill.end, "ORG")]
    found = ps.candidates(text, grammar, spans, lowercase_words(text), TERMS)
    p = dict(zip((c.name.text for c in found), ps.probabilities(ps.features(text, found, spans), model.weights)))
    assert p["Brindlewood Analytics, Inc."] > 0.95  # the grammar's party, kept
    # The addressee after "c/o" in the first contract is far below the add threshold.
    found_co = ps.candidates(CONTRACT, grammar, [], lowercase_words(CONTRACT), TERMS)
    p_co = dict(zip((c.name.text for c in found_co), ps.probabilities(ps.features(CONTRACT, found_co, []), model.weights)))
    assert p_co["Marrowby Partners LLP"] < model.add_threshold
    assert p_co["Elm Road"] < 0.05


def test_review_adds_a_signed_party_and_bars_a_non_party_lead() -> None:
    text = (
        "SUPPLY AGREEMENT\n\nThis Supply Agreement is made between Harwick Foods Ltd. (\"Buyer\") and the supplier "
        "named below, care of Tolland Mills Corp.\n\nIN WITNESS WHEREOF the parties sign.\n\n"
        "HARWICK FOODS LTD.\nBy: /s/ Ann Roe\n\nOSPREY GRAIN COMPANY LLC\nBy: /s/ Bo Park\n"
    )
    grammar = [_at(text, "Harwick Foods Ltd.")]
    always = ps.ScorerModel(ps.model().weights, 0.0, 0.0, 5)
    verdict = ps.review(text, grammar, [], lowercase_words(text), frozenset({"buyer"}), always)
    added = [name.text for name, _, _ in verdict.additions]
    # Even at threshold 0 a name after "care of" is never added; the limit bounds the rest.
    # Best first: the signed companies, then the signatories.
    assert added == ["HARWICK FOODS LTD.", "OSPREY GRAIN COMPANY LLC", "Ann Roe", "Bo Park"]
    # At the shipped threshold the signed companies join, the signatories and the "care of"
    # name never (the caller then drops the signed form of the known party). Since the review
    # learned from realE's signature-only parties, a company signing "By:" for a party the opening
    # calls "the supplier named below" joins without the model's ORG label.
    shipped = ps.review(text, grammar, [], lowercase_words(text), frozenset({"buyer"}))
    assert [name.text for name, _, _ in shipped.additions] == ["HARWICK FOODS LTD.", "OSPREY GRAIN COMPANY LLC"]
    osprey = _at(text, "OSPREY GRAIN COMPANY LLC")
    tagged = ps.review(text, grammar, [(osprey.start, osprey.end, "ORG")], lowercase_words(text), frozenset({"buyer"}))
    assert [name.text for name, _, _ in tagged.additions] == ["OSPREY GRAIN COMPANY LLC", "HARWICK FOODS LTD."]
    one = ps.review(text, grammar, [], lowercase_words(text), frozenset({"buyer"}), ps.ScorerModel(always.weights, 0.0, 0.0, 1))
    assert len(one.additions) == 1 and one.drops == []
    dropping = ps.review(text, grammar, [], lowercase_words(text), frozenset({"buyer"}), ps.ScorerModel(always.weights, 1.0, 1.0, 0))
    assert (dropping.additions, dropping.drops) == ([], grammar)


def test_candidates_are_bounded() -> None:
    limit = ps._vocab().candidates_limit
    names = ", ".join(f"Zephyr{chr(65 + i % 26)}{chr(65 + i // 26)} Holdings Corp." for i in range(limit + 30))
    text = "This Agreement is made between " + names + ".\n"
    assert len(text) < ps._vocab().opening_chars
    found = ps.candidates(text, [], [], lowercase_words(text), frozenset())
    assert len(found) == limit


def test_training_is_deterministic() -> None:
    trainer = _trainer()
    grammar = [_at(CONTRACT, "Brindlewood Analytics, Inc.")]
    found = ps.candidates(CONTRACT, grammar, [], lowercase_words(CONTRACT), TERMS)
    rows = np.vstack([ps.features(CONTRACT, found, [])] * 3)
    labels = np.array([1.0, 1.0, 0.0, 0.0] * 3)
    first, second = trainer.fit(rows, labels), trainer.fit(rows, labels)
    assert first.tolist() == second.tolist()
    assert ps.probabilities(rows[:4], first).round(3).tolist() == ps.probabilities(rows[:4], second).round(3).tolist()
    assert ps.probabilities(rows[:2], first).min() > ps.probabilities(rows[2:4], first).max()


def _weights_file(tmp_path: Path, **changes: object) -> Path:
    data = json.loads(ps.WEIGHTS_FILE.read_text(encoding="utf-8"))
    data.update(changes)
    path = tmp_path / "weights.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_weights_file_loads_and_its_errors_are_internal(tmp_path: Path) -> None:
    assert ps.load_model(_weights_file(tmp_path)).weights.shape == (len(ps.FEATURE_NAMES),)
    missing = tmp_path / "none.json"
    with pytest.raises(InternalError, match=r"party scorer weights missing at .*none\.json: train them with scripts/train_party_scorer\.py"):
        ps.load_model(missing)
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    with pytest.raises(InternalError, match="could not be read"):
        ps.load_model(broken)
    cases = [
        ({"features": ["bias"]}, "were trained on other features: retrain them"),
        ({"weights": [0.0]}, "one finite number per feature is required"),
        ({"weights": [float("nan")] * len(ps.FEATURE_NAMES)}, "one finite number per feature is required"),
        ({"weights": None}, "'features' and 'weights' lists are required"),
        ({"add_threshold": 1.5}, "'add_threshold' must be a probability"),
        ({"drop_threshold": True}, "'drop_threshold' must be a probability"),
        ({"additions_limit": -1}, "'additions_limit' must be a count"),
    ]
    for changes, message in cases:
        with pytest.raises(AttestError, match=message) as raised:
            ps.load_model(_weights_file(tmp_path, **changes))
        assert isinstance(raised.value, InternalError)


def test_running_footer_and_signatory_features() -> None:
    footer = "Source: ZYLOMARK HOLDINGS INC., 10-K, 3/1/2019"
    text = (
        f"{footer}\n\nLICENSE AGREEMENT\n\nThis Agreement is made between Pellucid Arts LLC and Vantor Ltd.\n\n{footer}\n\n"
        "IN WITNESS WHEREOF\n\nVANTOR LTD.\nBy: Quenby Advisors GP, LLC, its general partner\n\n"
        f"{footer}\n"
    )
    found = ps.candidates(text, [], [], lowercase_words(text), frozenset())
    rows = dict(zip((c.name.text for c in found), ps.features(text, found, [])))
    header = rows["ZYLOMARK HOLDINGS INC."]
    assert header[ps.FEATURE_NAMES.index("running_header")] == 1.0
    assert rows["Pellucid Arts LLC"][ps.FEATURE_NAMES.index("running_header")] == 0.0
    assert rows["Quenby Advisors GP, LLC"][ps.FEATURE_NAMES.index("signatory_by")] == 1.0
    # A signatory after "By:" is never added, whatever its probability.
    verdict = ps.review(text, [], [], lowercase_words(text), frozenset(), ps.ScorerModel(ps.model().weights, 0.0, 0.0, 10))
    added = [name.text for name, _, _ in verdict.additions]
    assert "Quenby Advisors GP, LLC" not in added
    assert "Pellucid Arts LLC" in added
