"""``attest audit revalidate``: re-resolve every citation recorded in the audit log.

Entries that carry an ``evidence`` list (``evidence_query``, ``sweep_query``, ``sweep_rule``) are
read page by page in append order; each distinct citation is checked once against the stored
revision text as the local operator (the check is about the text, not about who may read it;
a deleted document is reported as such).
"""

from __future__ import annotations

from typing import Any

from ingest.statuses import CitationStatus
from ingest.store.port import AuditQuery, Principal, Store
from service.sweeps.citations import CitationResolver, citation_key

PAGE = 1000


def revalidate_audit(store: Store, *, since: str | None = None) -> dict[str, Any]:
    resolver = CitationResolver(store, Principal.local_operator())
    seen: dict[tuple[Any, ...], str] = {}
    mismatches: list[dict[str, Any]] = []
    n_entries = n_citations = 0
    offset = 0
    while True:
        page = store.list_audit(AuditQuery(since=since, limit=PAGE, offset=offset))
        for entry in page:
            evidence = entry.get("evidence")
            if not isinstance(evidence, list) or not evidence:
                continue
            n_entries += 1
            for item in evidence:
                n_citations += 1
                key = citation_key(item) + (item.get("excerpt"),)
                if key not in seen:
                    seen[key] = resolver.check(item).status
                if seen[key] != CitationStatus.VALID:
                    mismatches.append({
                        "seq": entry.get("seq"), "at": entry.get("at"), "action": entry.get("action"),
                        "request_id": entry.get("request_id"), "evidence_id": item.get("id"),
                        "doc_id": item["doc_id"], "revision": item["revision"],
                        "char_start": item["char_start"], "char_end": item["char_end"],
                        "status": seen[key],
                    })
        if len(page) < PAGE:
            break
        offset += PAGE
    return {"since": since, "entries": n_entries, "citations": n_citations,
            "distinct_citations": len(seen), "mismatches": mismatches}
