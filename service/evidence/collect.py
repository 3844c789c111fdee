"""EVIDENCE_RETRIEVAL -> EVIDENCE_EXTRACTION -> EVIDENCE_VERIFIED for a fixed subject class and
the candidates that passed the gate, as one function (``collect``) shared by answers
(``machine.py``) and table cells (``table.py``), so a cell and an answer never differ. A module of
its own so that the table needs no import of the machine (which imports the class-level
questions, which import the table).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from ingest.embedder import Embedder
from ingest.settings import Settings
from ingest.store.port import Principal, Store
from service.evidence import conclude, gate, units, verify
from service.evidence.data import ClauseType, clause_type_for, cues
from service.evidence.models import Scope
from service.evidence.subject_class import SubjectClass


def _targets(
    sc: SubjectClass, query_question: str, embedder: Embedder, clause: ClauseType | None, whole_question: str = ""
) -> verify.Targets:
    """The question's vector (always) and a description vector (a known attribute's, or the
    clause type an open question asks about), both cached per process and model: the same
    question asked twice embeds once."""
    question = verify.description_vector(embedder, "question", query_question or sc.attribute_label or "-")
    key = sc.attribute or "-"
    if sc.kind == "entity_role" and sc.understood:
        description = f"{sc.role} of {sc.parent_entity}. {cues().role_attribute['description']}"
    elif sc.attribute in cues().attributes:
        description = cues().attributes[sc.attribute].description
    elif clause is not None:
        description, key = clause.description, f"clause:{clause.key}"
    else:
        description = ""
    vector = verify.description_vector(embedder, key, description) if description else None
    attribute = cues().attributes.get(sc.attribute or "")
    topic = attribute.query if attribute is not None else (clause.query if clause is not None else "")
    return verify.Targets(
        question, vector, verify.question_words(query_question), clause.text_cues if clause is not None else (),
        topic_words=verify.question_words(topic), value_type=conclude.open_value_type(sc, whole_question),
    )


def _attribute_description(sc: SubjectClass, clause: ClauseType | None = None) -> str:
    """Words added to the retrieval query: a known attribute's description and search words, or
    the search words of the clause type an open question asks about."""
    data = cues()
    if sc.kind == "entity_role" and sc.understood:
        return f"{sc.role} of {sc.parent_entity}"
    attribute = data.attributes.get(sc.attribute or "")
    if attribute is not None:
        return f"{attribute.description} {attribute.query}"
    return clause.query if clause is not None else ""


def open_clause_type(sc: SubjectClass, query_question: str) -> ClauseType | None:
    """The clause type an open question asks about (``service/data/clause_types.json``), if any:
    question-side expansion for the words analysts use."""
    return clause_type_for(query_question) if sc.attribute == conclude.OPEN_ATTRIBUTE else None


def query_question(sc: SubjectClass, question: str) -> str:
    """The question without the agreement title and party names: the search is already confined
    to the agreement's document, where those names are in nearly every chunk and would only drown
    the attribute's words (for BM25 and for the query vector alike)."""
    if sc.kind != "agreement_attribute" and sc.attribute != conclude.OPEN_ATTRIBUTE:
        return question
    out = question
    for name in sorted({sc.agreement_title or "", *sc.parties, *sc.names}, key=lambda n: (-len(n), n)):
        if name:
            out = re.sub(re.escape(name), "\x00", out, flags=re.IGNORECASE)
    # "<party> and its affiliates" names the party's group: part of the subject phrase, not of
    # what is asked (left behind, "affiliates" would read as a question about affiliates).
    out = re.sub(r"\x00[.,]?\s*,?\s*(?:and|&)\s+(?:its|their)\s+(?:respective\s+)?(?:affiliates|subsidiaries)\b", "\x00", out, flags=re.IGNORECASE)
    # The words that only joined the names go with them ("in the _ between _ and _" -> "in"):
    # left behind they are noise to the relevance model.
    out = re.sub(r"(?:\b(?:the|this|that|an?|between|among|with|by|and|or|of|to|under|in)\s+|[,&]\s*)*\x00", "\x00", out, flags=re.IGNORECASE)
    out = re.sub(r"\x00(?:'s|’s)?", " ", out)
    return " ".join(out.split())


@dataclass(frozen=True, slots=True)
class Findings:
    """What retrieval, extraction and verification produced for a fixed subject class and
    candidate list (the input of CONCLUDED)."""

    searches: int
    chunks: int
    documents: int
    units: int
    assessed: list[verify.Assessed]


def collect(
    sc: SubjectClass,
    candidates: Sequence[gate.Candidate],
    principal: Principal,
    scope: Scope | None,
    question: str,
    *,
    store: Store,
    embedder: Embedder,
    settings: Settings,
    embed_cap: int = verify.EMBED_MAX_UNITS,
) -> Findings:
    """EVIDENCE_RETRIEVAL -> EVIDENCE_EXTRACTION -> EVIDENCE_VERIFIED for candidates that passed
    the gate: each stage a function of the previous one's typed output. The class-level table
    (``table.py``) runs the same function per agreement, so a cell and an answer never differ."""
    asked = query_question(sc, question)
    clause = open_clause_type(sc, asked)
    attribute = cues().attributes.get(sc.attribute or "")
    search_words = attribute.query if attribute is not None else (clause.query if clause is not None else "")
    searches = units.plan_searches(
        sc, candidates, principal, scope, _attribute_description(sc, clause), asked, search_words
    )
    hits = units.retrieve(store, embedder, searches, depth=settings.retrieval_depth, rrf_k=settings.rrf_k)
    if (attribute is not None and attribute.opening) or sc.attribute == conclude.OPEN_ATTRIBUTE:
        # A contract's opening states its title, parties and dates, which an open question may
        # well be about and which a search for the question's words ranks poorly.
        hits += units.opening_hits(store, principal, candidates, {h.chunk.chunk_id for h in hits})
    extracted = units.extract_units(hits)
    verified = verify.verify_units(extracted, sc, candidates, scope.as_of if scope else None)
    vectors = unit_vectors(verified, sc, asked, embedder, embed_cap)
    assessed = verify.assess_units(verified, vectors, sc, _targets(sc, asked, embedder, clause, question))
    return Findings(len(searches), len(hits), len({h.chunk.doc_id for h in hits}), len(extracted), assessed)


def unit_vectors(
    verified: Sequence[verify.Verified], sc: SubjectClass, query_question: str, embedder: Embedder, embed_cap: int
) -> dict[int, np.ndarray]:
    """Vectors of the verified units, by index. Every unit whose vector ingest stored is scored
    (reading costs next to nothing); units without one (an index from before sentence vectors
    were stored) are embedded now, at most ``embed_cap`` of them, pre-ranked by
    ``verify.units_to_embed``."""
    stored = units.stored_vectors([v.unit for v in verified], embedder.dimension)
    vectors = {i: vec for i, vec in enumerate(stored) if vec is not None and verified[i].reason is None}
    if any(v.reason is None and i not in vectors for i, v in enumerate(verified)):
        words = verify.question_words(query_question)
        chosen = [i for i in verify.units_to_embed(verified, sc, words, embed_cap) if i not in vectors]
        vectors.update(zip(chosen, units.embed_units(embedder, [verified[i].unit for i in chosen])))
    return vectors
