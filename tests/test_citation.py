"""One ``Citation`` model for the location fields (issue 15). The citing types inherit it, so the
fields stay flat: every API, MCP and sweep-report body keeps exactly the fields it had."""

from __future__ import annotations

import pytest
from pydantic import BaseModel

from service.api.schemas import BindingView, SearchHit, SourceView
from service.citation import CITATION_FIELDS, Citation, RevisionSpan
from service.evidence.models import EvidenceItem, RejectedEvidence
from service.mcp.models import McpEvidenceItem, McpSearchHit, SourceResult, TableEvidence
from service.sweeps.report import citation_view

SPAN = {"doc_id", "revision", "char_start", "char_end"}
LOCATION = SPAN | {"page", "section", "line_start", "line_end"}

# The fields of each body as they were before the types shared Citation (the wire format).
WIRE_FIELDS: dict[type[BaseModel], set[str]] = {
    EvidenceItem: LOCATION | {"id", "title", "excerpt", "score", "confidence", "retrieved_at",
                              "source_url", "attribute_match", "value"},
    SearchHit: LOCATION | {"chunk_id", "title", "text", "score", "bm25_rank", "knn_rank"},
    TableEvidence: LOCATION | {"id", "excerpt", "source_url", "resource_uri"},
}
WIRE_FIELDS[RejectedEvidence] = WIRE_FIELDS[EvidenceItem] | {"reason"}
WIRE_FIELDS[McpEvidenceItem] = WIRE_FIELDS[EvidenceItem] | {"resource_uri"}
WIRE_FIELDS[McpSearchHit] = WIRE_FIELDS[SearchHit] | {"source_url", "resource_uri"}
# The span alone: a registry binding and a source view (whose lines sit in ``location``).
SPAN_FIELDS: dict[type[BaseModel], set[str]] = {
    BindingView: SPAN | {"relation", "object_id", "object_name", "role"},
    SourceView: SPAN | {"current", "title", "filename", "passage", "context_before", "context_after",
                        "context_start", "context_end", "text_length", "location", "previous", "next"},
}
SPAN_FIELDS[SourceResult] = SPAN_FIELDS[SourceView] | {"request_id", "source_data_notice"}


def test_citation_fields() -> None:
    assert CITATION_FIELDS == (
        "doc_id", "revision", "char_start", "char_end", "page", "section", "line_start", "line_end"
    )
    assert tuple(RevisionSpan.model_fields) == ("doc_id", "revision", "char_start", "char_end")


@pytest.mark.parametrize("model", list(WIRE_FIELDS), ids=lambda m: m.__name__)
def test_citing_types_inherit_citation_and_keep_their_wire_fields(model: type[BaseModel]) -> None:
    assert issubclass(model, Citation)
    schema = model.model_json_schema()
    assert set(schema["properties"]) == WIRE_FIELDS[model]  # flat: no nested "citation" object
    for name in CITATION_FIELDS:
        assert name in schema["required"]
    assert schema["properties"]["page"] == {"anyOf": [{"type": "integer"}, {"type": "null"}], "title": "Page"}


@pytest.mark.parametrize("model", list(SPAN_FIELDS), ids=lambda m: m.__name__)
def test_span_types_inherit_revision_span_and_keep_their_wire_fields(model: type[BaseModel]) -> None:
    assert issubclass(model, RevisionSpan) and not issubclass(model, Citation)
    assert set(model.model_json_schema()["properties"]) == SPAN_FIELDS[model]


def test_a_search_hit_dumps_the_same_flat_body() -> None:
    body = {
        "chunk_id": "c1", "doc_id": "msa", "revision": "r1", "title": "MSA", "page": None,
        "section": ["1. TERM"], "line_start": 3, "line_end": 4, "char_start": 20, "char_end": 90,
        "text": "The term is five years.", "score": 0.5, "bm25_rank": 1, "knn_rank": None,
    }
    assert SearchHit.model_validate(body).model_dump(mode="json") == body
    with pytest.raises(ValueError, match="line_start"):
        SearchHit.model_validate({k: v for k, v in body.items() if k != "line_start"})


def test_the_sweep_report_citation_view_has_the_location_title_and_excerpt() -> None:
    item = {name: f"v-{name}" for name in CITATION_FIELDS} | {"title": "T", "excerpt": "E", "id": "E1", "score": 1}
    assert citation_view(item) == {name: f"v-{name}" for name in CITATION_FIELDS} | {"title": "T", "excerpt": "E"}
