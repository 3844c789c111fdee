"""The relevance model: does a verified unit answer the question?

A cross-encoder or an extractive QA model would be the field's tool for this; none ships its
weights inside a package these machines can install (checked: see docs/ARCHITECTURE.md), and
nothing may be downloaded at run time. So the model is linear over eight signals of a unit:
all-MiniLM-L6-v2 (the project's embedder) question-sentence cosine similarity; similarity to a
known attribute's description (or to the description of the clause type an open question asks
about, ``service/data/clause_types.json``); the share of the question's content words the unit
contains; a text cue; the unit's fused retrieval score; BM25 of the question's and the topic's
words among the candidate's units; the best similarity of its neighbours (context); and its
length. Weights and thresholds are data (``service/data/relevance.json``), fitted and calibrated
on the tune split of the CUAD dev set (``bench/fit_relevance.py``, ``bench/cuad_eval.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from service.evidence.data import load


@dataclass(frozen=True, slots=True)
class RelevanceModel:
    name: str
    w_question: float
    w_description: float
    w_lexical: float
    w_cue: float
    w_retrieval: float
    w_bm25: float  # BM25 of the question's and topic's words among the candidate's units
    w_context: float  # the best similarity of the unit's neighbours in its chunk
    w_length: float  # a clause, not a fragment: min(words, 40) / 40
    evidence_floor: float  # an open-attribute unit is cited from here
    # A known attribute's unit that its typed rule (cue, description similarity) turns away
    # still states it from here, unless the attribute requires a value (None: never).
    evidence_floor_known: float | None
    sufficient_known: float  # a known attribute's answer is sufficient from here (best unit)
    sufficient_open: float  # an open attribute's answer is sufficient from here (best unit)

    def sufficient(self, open_attribute: bool) -> float:
        return self.sufficient_open if open_attribute else self.sufficient_known

    def score(
        self,
        sim_question: float,
        sim_description: float | None,
        cue: bool,
        retrieval: float,
        lexical: float = 0.0,
        *,
        bm25: float = 0.0,
        context: float = 0.0,
        length: float = 0.0,
    ) -> float:
        """Relevance of one unit. Without a known attribute the description term is the question
        similarity again, so open and known attributes share one scale and one threshold."""
        description = sim_question if sim_description is None else sim_description
        return (
            self.w_question * sim_question
            + self.w_description * description
            + self.w_lexical * max(0.0, min(1.0, lexical))
            + self.w_cue * (1.0 if cue else 0.0)
            + self.w_retrieval * max(0.0, min(1.0, retrieval))
            + self.w_bm25 * max(0.0, min(1.0, bm25))
            + self.w_context * context
            + self.w_length * max(0.0, min(1.0, length))
        )


@lru_cache(maxsize=1)
def relevance_model() -> RelevanceModel:
    raw = load("relevance.json")
    w = raw["weights"]
    return RelevanceModel(
        name=raw["model"],
        w_question=float(w["question"]),
        w_description=float(w["description"]),
        w_lexical=float(w.get("lexical", 0.0)),
        w_cue=float(w["cue"]),
        w_retrieval=float(w["retrieval"]),
        w_bm25=float(w.get("bm25", 0.0)),
        w_context=float(w.get("context", 0.0)),
        w_length=float(w.get("length", 0.0)),
        evidence_floor=float(raw["evidence_floor"]),
        evidence_floor_known=float(raw["evidence_floor_known"]) if raw.get("evidence_floor_known") is not None else None,
        sufficient_known=float(raw["sufficient"]["known_attribute"]),
        sufficient_open=float(raw["sufficient"]["open_attribute"]),
    )
