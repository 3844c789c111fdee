"""Registry questions, answered from the registry's bindings, each citing the binding's source span:

  * "Who are the parties to the consulting agreement with Sphere 3D?": the agreement is gated
    exactly as any agreement question (title and named parties, ``gate.gate_agreement``); the
    answer is every ``party_to`` binding to it;
  * "Which agreements is Acme a party to?": the entity is gated by its exact name
    (``gate.resolve_entity``); the answer is every agreement its ``party_to`` bindings point to;
  * "What is the title of the X agreement?": X is gated; the answer is the title ingest read,
    citing its span;
  * "What agreements amend the X agreement?": X is gated; the answer is every visible agreement
    whose title says it amends (``amendment_title`` of ``open_questions.json``) and whose title
    names X's title, citing the amendment's title span.

Shapes are data (``service/data/open_questions.json``). The registry look-ups are ACL-filtered
inside the store; nothing here reads a document the caller may not read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ingest.names import name_at
from ingest.normalize import normalise_org
from ingest.text import name_words
from ingest.schema import Chunk
from ingest.statuses import Confidence
from ingest.store.port import Principal, Store
from service.evidence import gate
from service.evidence.conclude import source_url
from service.evidence.data import load
from service.evidence.models import Claim, EvidenceItem
from service.evidence.subject_class import SubjectClass, name_problem, parse_question
from service.evidence.titles import clean_title, expand_abbreviations

MAX_REGISTRY_EVIDENCE = 50


@dataclass(frozen=True, slots=True)
class RegistryQuestion:
    ask: str  # parties | agreements_of | amendments_of
    target: str  # the agreement phrase or the party name, as written
    shape: str


@lru_cache(maxsize=1)
def _shapes() -> dict[str, Any]:
    raw = load("open_questions.json")
    return {
        "registry": [(s["id"], s["ask"], re.compile(s["regex"], re.IGNORECASE)) for s in raw["registry"]],
        "amendment": re.compile(raw["amendment_title"], re.IGNORECASE),
    }


def parse_registry_question(question: str) -> RegistryQuestion | None:
    text = " ".join(question.split()).rstrip(" ?.!")
    for shape_id, ask, pattern in _shapes()["registry"]:
        m = pattern.match(text)
        if m:
            target = (m.groupdict().get("agreement") or m.groupdict().get("party") or "").strip()
            if target:
                return RegistryQuestion(ask, target, shape_id)
    return None


def agreement_class(rq: RegistryQuestion) -> SubjectClass | None:
    """The agreement a registry question names, read by the same rules as any agreement question
    ("the <title> between/with <parties>")."""
    phrase = rq.target if re.match(r"(?i)(?:the|this|that|an?)\s", rq.target) else f"the {rq.target}"
    sc = parse_question(f"What does {phrase} say?")
    if sc.kind != "agreement_attribute" or not sc.agreement_title:
        return None
    sc.attribute, sc.attribute_label, sc.understood = rq.ask, {"parties": "parties", "amendments_of": "amendments"}.get(rq.ask, rq.ask), True
    sc.pattern = rq.shape
    return sc


def party_class(rq: RegistryQuestion) -> SubjectClass:
    # A name with stray punctuation (an unbalanced quote) fails closed, as in any question.
    problem = name_problem(rq.target)
    return SubjectClass(
        understood=True, kind="entity_attribute", name=rq.target, attribute="agreements",
        attribute_label="agreements it is a party to", names=[rq.target], pattern=rq.shape,
        failures=[problem] if problem else [],
    )


def span_item(
    store: Store, doc_id: str, revision: str, start: int, end: int, item_id: str, retrieved_at: str,
    chunks: dict[tuple[str, str], list[Chunk]], texts: dict[tuple[str, str], str],
) -> EvidenceItem | None:
    """An evidence item for a registry span: its chunk gives title, page and section; lines come
    from the revision text. None when the span lies in no chunk of the revision."""
    key = (doc_id, revision)
    if key not in chunks:
        chunks[key] = store.revision_chunks(doc_id, revision)
        texts[key] = store.revision_text(doc_id, revision) or ""
    chunk = next((c for c in chunks[key] if c.char_start <= start < c.char_end), None)
    text = texts[key]
    if chunk is None or not text or end > len(text):
        return None
    return EvidenceItem(
        id=item_id, doc_id=doc_id, revision=revision, title=chunk.title, page=chunk.page,
        section=list(chunk.section), line_start=text.count("\n", 0, start) + 1,
        line_end=text.count("\n", 0, max(start, end - 1)) + 1, char_start=start, char_end=end,
        excerpt=text[start:end], score=1.0, confidence=Confidence.HIGH, retrieved_at=retrieved_at,
        source_url=source_url(doc_id, revision, start, end),
        attribute_match={"cue": "registry binding", "similarity": 1.0, "relevance": 1.0},
        value=None,
    )


@dataclass(slots=True)
class RegistryAnswer:
    evidence: list[EvidenceItem]
    claims: list[Claim]


class _Collected:
    """What one registry answer collects: evidence items numbered ``E1``, ``E2``, … and claims
    ``C1``, ``C2``, … in the order they are added, with each cited revision's chunks and text
    read once (``span_item``)."""

    def __init__(self, store: Store, retrieved_at: str) -> None:
        self.store = store
        self.retrieved_at = retrieved_at
        self.evidence: list[EvidenceItem] = []
        self.claims: list[Claim] = []
        self._chunks: dict[tuple[str, str], list[Chunk]] = {}
        self._texts: dict[tuple[str, str], str] = {}

    @property
    def full(self) -> bool:
        return len(self.evidence) >= MAX_REGISTRY_EVIDENCE

    def cite(self, doc_id: str, revision: str, start: int, end: int) -> EvidenceItem | None:
        """The span as the next evidence item (added), or None when no chunk holds it."""
        item = span_item(self.store, doc_id, revision, start, end, f"E{len(self.evidence) + 1}",
                         self.retrieved_at, self._chunks, self._texts)
        if item is not None:
            self.evidence.append(item)
        return item

    def claim(self, **fields: Any) -> None:
        self.claims.append(Claim(id=f"C{len(self.claims) + 1}", **fields))

    def answer(self) -> RegistryAnswer:
        return RegistryAnswer(self.evidence, self.claims)


def _written_name(item: EvidenceItem, registry_name: str) -> str:
    """The party's name as the cited binding span writes it (the name that opens the span): one
    registry subject can hold namesakes in different legal forms, so its registry name may be
    another document's spelling. The registry name when no name opens the span."""
    excerpt = item.excerpt
    name = name_at(excerpt, 0, len(excerpt))
    written = " ".join(name.text.split()) if name is not None else ""
    return written if normalise_org(written) == normalise_org(registry_name) else registry_name


def answer_parties(
    store: Store, principal: Principal, candidates: list[gate.Candidate], retrieved_at: str
) -> RegistryAnswer:
    out = _Collected(store, retrieved_at)
    for c in sorted(candidates, key=lambda c: c.subject_id):
        parties = store.find_subjects(principal, relation="party_to", parent_id=c.subject_id, limit=gate.REGISTRY_LIMIT)
        for party in sorted(parties, key=lambda p: p.subject_id):
            bindings = sorted(
                (b for b in party.bindings if b.relation == "party_to" and b.object_id == c.subject_id),
                key=lambda b: (b.doc_id, b.char_start, b.char_end),
            )
            ids = []
            for b in bindings[:2]:
                if out.full:
                    break
                item = out.cite(b.doc_id, b.revision, b.char_start, b.char_end)
                if item is not None:
                    ids.append(item.id)
            if not ids:
                continue
            roles = sorted({b.role for b in bindings if b.role})
            role = f" ({', '.join(roles)})" if roles else ""
            first = next(e for e in out.evidence if e.id == ids[0])
            out.claim(
                subject_id=party.subject_id, attribute="party_to",
                statement=f"{_written_name(first, party.name)} is a party{role} to {c.subject.name}",
                value={"type": "entity", "value": party.subject_id, "name": party.name}, evidence_ids=ids,
            )
    return out.answer()


def answer_agreements_of(
    store: Store, principal: Principal, candidates: list[gate.Candidate], retrieved_at: str
) -> RegistryAnswer:
    out = _Collected(store, retrieved_at)
    for c in sorted(candidates, key=lambda c: c.subject_id):
        bindings = sorted(
            (b for b in c.subject.bindings if b.relation == "party_to"),
            key=lambda b: (b.object_id, b.doc_id, b.char_start),
        )
        ids = sorted({b.object_id for b in bindings})
        visible = {s.subject_id: s for s in store.find_subjects(principal, subject_ids=ids, limit=gate.REGISTRY_LIMIT)} if ids else {}
        for agreement_id in ids:
            if agreement_id not in visible or out.full:
                continue
            # Another legal person under the same key signed this one ("Kestrel GmbH" asked,
            # "Kestrel, Inc." written): not an agreement of the entity asked about.
            if set(gate._docs_of(visible[agreement_id])) & set(c.excluded_docs):
                continue
            b = next(b for b in bindings if b.object_id == agreement_id)
            item = out.cite(b.doc_id, b.revision, b.char_start, b.char_end)
            if item is None:
                continue
            role = f" as {b.role}" if b.role else ""
            out.claim(
                subject_id=c.subject_id, attribute="party_to",
                statement=f"{_written_name(item, c.subject.name)} is a party{role} to {visible[agreement_id].name}",
                value={"type": "entity", "value": agreement_id, "name": visible[agreement_id].name},
                evidence_ids=[item.id],
            )
    return out.answer()


def answer_amendments(
    store: Store, principal: Principal, candidates: list[gate.Candidate], retrieved_at: str
) -> RegistryAnswer:
    """Agreements whose title says they amend and names the asked agreement's title ("AMENDMENT
    NO. 2 TO THE DISTRIBUTION AGREEMENT"), citing the amendment's title span."""
    amendment = _shapes()["amendment"]
    out = _Collected(store, retrieved_at)
    agreements = store.find_subjects(principal, type="agreement", limit=5000)
    for c in sorted(candidates, key=lambda c: c.subject_id):
        target = expand_abbreviations(clean_title(str(c.subject.attributes.get("title") or c.subject.name)))
        target = re.sub(r"^(?:amendment|addendum)\b.*?\bto\s+(?:the\s+)?", "", target)
        for other in sorted(agreements, key=lambda s: s.subject_id):
            title = str(other.attributes.get("title") or other.name)
            words = " ".join(name_words(expand_abbreviations(clean_title(title))))
            if other.subject_id == c.subject_id or not amendment.search(title) or f" {target}" not in f" {words}":
                continue
            mention = next(iter(sorted(other.mentions, key=lambda m: (m["doc_id"], m.get("char_start") or 0))), None)
            if mention is None or mention.get("char_start") is None or out.full:
                continue
            item = out.cite(mention["doc_id"], mention["revision"], mention["char_start"], mention["char_end"])
            if item is None:
                continue
            out.claim(
                subject_id=other.subject_id, attribute="amends",
                statement=f"{other.name} amends {c.subject.name}",
                value={"type": "entity", "value": other.subject_id, "name": other.name}, evidence_ids=[item.id],
            )
    return out.answer()


def answer_title(
    store: Store, principal: Principal, candidates: list[gate.Candidate], retrieved_at: str
) -> RegistryAnswer:
    """The title ingest read for each gated agreement, citing the title's span in its document."""
    out = _Collected(store, retrieved_at)
    for c in sorted(candidates, key=lambda c: c.subject_id):
        mentions = sorted(
            (m for m in c.subject.mentions if m.get("char_start") is not None and m["doc_id"] in c.doc_ids),
            key=lambda m: (m["doc_id"], m["char_start"]),
        )
        if not mentions or out.full:
            continue
        m = mentions[0]
        item = out.cite(m["doc_id"], m["revision"], m["char_start"], m["char_end"])
        if item is None:
            continue
        title = str(c.subject.attributes.get("title") or c.subject.name)
        out.claim(
            subject_id=c.subject_id, attribute="title",
            statement=f"The agreement is titled {item.excerpt!r}",
            value={"type": "title", "value": title}, evidence_ids=[item.id],
        )
    return out.answer()


ANSWERS = {
    "parties": answer_parties, "agreements_of": answer_agreements_of, "amendments_of": answer_amendments,
    "title": answer_title,
}
