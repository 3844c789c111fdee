"""``EntityId``: exact parses, exact rejections, and the round trip of every id format ingest
writes (issue 15: one type instead of parsing ids by hand)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ingest.entity_id import EntityId, of_type
from ingest.errors import InvalidInputError
from ingest.normalize import agreement_id


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        ("org:acme holdings", ("org", "acme holdings", None)),
        ("person:jane doe", ("person", "jane doe", None)),
        ("jurisdiction:delaware", ("jurisdiction", "delaware", None)),
        ("role:chief executive officer", ("role", "chief executive officer", None)),
        ("agreement:master supply agreement@msa-2021", ("agreement", "master supply agreement", "msa-2021")),
        # A doc id may hold '@' and ':' (README, "Document ids"); the key never holds '@'.
        ("agreement:supply agreement@legal@acme.com:v2", ("agreement", "supply agreement", "legal@acme.com:v2")),
        # The title-level id an amendment's parent binding points to.
        ("agreement:license agreement", ("agreement", "license agreement", None)),
        # A name without word characters has always been stored as "<type>:".
        ("org:", ("org", "", None)),
        ("place:san mateo: ca", ("place", "san mateo: ca", None)),
    ],
)
def test_parse_and_format_round_trip(text: str, parts: tuple[str, str, str | None]) -> None:
    parsed = EntityId.parse(text)
    assert (parsed.type, parsed.key, parsed.doc_id) == parts
    assert str(parsed) == text
    assert EntityId(*parts) == parsed


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("acme holdings", "not an entity id: 'acme holdings': no '<type>:'"),
        ("", "not an entity id: '': no '<type>:'"),
        (":acme", "not an entity id: ':acme': type '' is not lowercase letters and '_'"),
        ("Org:acme", "not an entity id: 'Org:acme': type 'Org' is not lowercase letters and '_'"),
        ("org :acme", "not an entity id: 'org :acme': type 'org ' is not lowercase letters and '_'"),
        ("org:acme@doc-1", "not an entity id: 'org:acme@doc-1': only agreement ids name a document, not 'org'"),
        ("agreement:supply agreement@", "not an entity id: 'agreement:supply agreement@': empty doc id after '@'"),
    ],
)
def test_malformed_ids_are_rejected_with_the_reason(text: str, message: str) -> None:
    with pytest.raises(InvalidInputError) as caught:
        EntityId.parse(text)
    assert caught.value.message == message
    assert EntityId.try_parse(text) is None


def test_constructing_checks_the_parts_too() -> None:
    with pytest.raises(InvalidInputError, match="holds '@'"):
        EntityId("org", "a@b")
    with pytest.raises(InvalidInputError, match="only agreement ids name a document"):
        EntityId("person", "jane doe", "doc-1")


def test_agreement_ids_from_ingest_parse_back() -> None:
    text = agreement_id("MASTER SUPPLY AGREEMENT", "contracts@acme:7")
    assert text == "agreement:master supply agreement@contracts@acme:7"
    parsed = EntityId.parse(text)
    assert parsed == EntityId("agreement", "master supply agreement", "contracts@acme:7")
    assert parsed.title_level() == EntityId("agreement", "master supply agreement")
    assert str(parsed.title_level()) == "agreement:master supply agreement"


def test_of_type_keeps_order_and_skips_other_types_and_malformed_ids() -> None:
    ids = ["jurisdiction:new york", "org:acme", "jurisdiction:delaware", "no colon", "Jurisdiction:x"]
    assert [e.key for e in of_type(ids, "jurisdiction")] == ["new york", "delaware"]
    assert of_type(ids, "agreement") == []


def test_the_gate_reads_an_agreements_document_from_its_id() -> None:
    """Doc ids may hold '@': the document of ``agreement:<title>@<doc_id>`` is all of it (the
    hand-written ``rsplit("@")`` this replaced gave ``acme.com``)."""
    from ingest.schema import Subject
    from service.evidence.gate import _docs_of

    mention = {"doc_id": "other", "revision": "r1", "char_start": 0, "char_end": 5}
    agreement = Subject("agreement:supply agreement@legal@acme.com", "Supply Agreement", "agreement",
                        [], {}, [], [mention])
    org = Subject("org:acme", "Acme", "org", [], {}, [], [mention])
    assert _docs_of(agreement) == ("legal@acme.com",)
    assert _docs_of(org) == ("other",)


ROOT = Path(__file__).resolve().parents[1]
HAND_PARSE = re.compile(r"""\.(?:r?split|r?partition)\(\s*["'][:@]["']|\.startswith\(\s*["'][a-z_]+:["']\)""")


def test_no_code_parses_entity_ids_by_hand() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for top in ("ingest", "service", "bench")
        for path in sorted((ROOT / top).rglob("*.py"))
        if path.name != "entity_id.py"
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if HAND_PARSE.search(line)
    ]
    assert found == []
    # The pattern catches the forms it replaced.
    for line in ('e.split(":", 1)[1]', "sid.rsplit('@', 1)[-1]", 'e.startswith("jurisdiction:")', 'x.partition(":")'):
        assert HAND_PARSE.search(line), line
