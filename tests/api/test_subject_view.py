"""The registry view is a typed API schema (issue 15): ``SubjectView`` in service/api/schemas.py,
shared by /v1/subjects, the MCP ``find_subjects`` tool and ``attest entities --json``."""

from __future__ import annotations

from ingest.schema import Binding, Subject
from service.api.schemas import SubjectView


def test_openapi_describes_subjects_with_subject_view(client) -> None:
    spec = client.get("/openapi.json").json()
    schemas = spec["components"]["schemas"]
    items = schemas["SubjectList"]["properties"]["subjects"]["items"]
    assert items == {"$ref": "#/components/schemas/SubjectView"}
    view = schemas["SubjectView"]
    assert set(view["required"]) == {"subject_id", "name", "type", "aliases", "attributes", "bindings"}
    assert view["properties"]["bindings"]["items"] == {"$ref": "#/components/schemas/BindingView"}
    assert set(schemas["BindingView"]["required"]) == {
        "relation", "object_id", "object_name", "role", "doc_id", "revision", "char_start", "char_end",
    }


def test_subject_view_keeps_the_registry_fields_and_drops_mentions() -> None:
    binding = Binding("party_to", "agreement:supply agreement@d1", "Supply Agreement", "Seller",
                      "d1", "r1", 10, 24)
    subject = Subject("org:acme", "Acme, Inc.", "org", ["Acme"], {"kind": "x"}, [binding],
                      [{"doc_id": "d1", "revision": "r1", "char_start": 10, "char_end": 24}])
    assert SubjectView.of(subject).model_dump(mode="json") == {
        "subject_id": "org:acme",
        "name": "Acme, Inc.",
        "type": "org",
        "aliases": ["Acme"],
        "attributes": {"kind": "x"},
        "bindings": [{
            "relation": "party_to", "object_id": "agreement:supply agreement@d1",
            "object_name": "Supply Agreement", "role": "Seller", "doc_id": "d1", "revision": "r1",
            "char_start": 10, "char_end": 24,
        }],
    }
