"""Routing an open question to a known typed attribute by meaning.

The phrasebook's question cues (``attribute_cues.json``) and the clause types' question cues
(``clause_types.json``) are the high-precision first step. A question that neither reads as a
known attribute nor names a clause type ("What is the commencement date of X?", "Is liability
limited under X?") would otherwise be answered by relevance alone, without the attribute's typed
rules (text cues, values, the contract's opening for dates). This step compares the question
(agreement title and party names removed) with the description of every known agreement
attribute and every clause type, all with all-MiniLM-L6-v2 (the product's embedder): when the
nearest description is a known attribute's, its cosine reaches ``routing.min_similarity`` and
it leads the runner-up by ``routing.min_margin``, the question asks that attribute. A clause type
nearest keeps the question open (its descriptions compete so that "does the license extend to
affiliates" does not become the plain licence grant). No phrase list is involved: the
descriptions are the same ones the relevance model reads, and the two numbers are calibrated on
the tune phrasings (``bench/route_calibration.py``; the curve is in docs/ARCHITECTURE.md).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np

from ingest.embedder import Embedder
from service.evidence.data import clause_types, cues, load
from service.evidence.subject_class import SubjectClass

OPEN_ATTRIBUTE = "question"  # conclude.OPEN_ATTRIBUTE (not imported: conclude imports verify)
NOT_ROUTED = frozenset({"obligations"})  # generic "what must a party do": never a routing target


@dataclass(frozen=True, slots=True)
class RoutingRule:
    min_similarity: float
    min_margin: float


@dataclass(frozen=True, slots=True)
class Route:
    """The nearest description to a question: ``target`` is an attribute key or
    ``clause:<key>``; ``similarity`` its cosine, ``margin`` its lead over the runner-up."""

    target: str
    similarity: float
    margin: float

    @property
    def attribute(self) -> str | None:
        return None if self.target.startswith("clause:") else self.target


@lru_cache(maxsize=1)
def routing_rule() -> RoutingRule:
    raw = load("attribute_cues.json")["routing"]
    return RoutingRule(float(raw["min_similarity"]), float(raw["min_margin"]))


def route_targets() -> list[tuple[str, str]]:
    """(key, description) of every routing target, in a fixed order: the known agreement
    attributes (file order), then the clause types (file order)."""
    attributes = [
        (key, a.description) for key, a in cues().attributes.items()
        if a.subject == "agreement" and key not in NOT_ROUTED
    ]
    return attributes + [(f"clause:{c.key}", c.description) for c in clause_types()]


_matrix_cache: dict[str, tuple[list[str], np.ndarray]] = {}


def _target_matrix(embedder: Embedder) -> tuple[list[str], np.ndarray]:
    """Description vectors, embedded once per process and model (one batch)."""
    cached = _matrix_cache.get(embedder.model_name)
    if cached is None:
        targets = route_targets()
        vectors = np.asarray(embedder.embed([d for _, d in targets]), dtype=np.float32)
        cached = ([k for k, _ in targets], vectors)
        _matrix_cache[embedder.model_name] = cached
    return cached


def nearest(question_vector: np.ndarray, embedder: Embedder) -> Route:
    """The nearest routing target to a (unit-normalised) question vector. Cosines are rounded
    so that float noise between embedding batches cannot move a decision; ties go to the
    earlier target."""
    keys, matrix = _target_matrix(embedder)
    sims = [round(float(s), 5) for s in matrix @ question_vector]
    order = sorted(range(len(keys)), key=lambda i: (-sims[i], i))
    best, second = order[0], order[1]
    return Route(keys[best], sims[best], round(sims[best] - sims[second], 5))


def routed(route: Route, rule: RoutingRule | None = None) -> str | None:
    """The attribute a route asks, or None (a clause type is nearest, or too weak a match)."""
    rule = rule or routing_rule()
    if route.attribute is None or route.similarity < rule.min_similarity or route.margin < rule.min_margin:
        return None
    return route.attribute


def route_by_meaning(
    sc: SubjectClass, question_vector: np.ndarray, embedder: Embedder, *, has_clause_type: bool
) -> tuple[SubjectClass, Route | None]:
    """An open agreement question that names no clause type, routed to the known attribute its
    meaning is nearest to (see the module doc); any other subject class is returned as it is.
    Also returns the route that was examined (for the trace), if any."""
    if sc.kind != "agreement_attribute" or sc.attribute != OPEN_ATTRIBUTE or has_clause_type:
        return sc, None
    route = nearest(question_vector, embedder)
    attribute = routed(route)
    if attribute is None:
        return sc, route
    return replace(
        sc, attribute=attribute, attribute_label=cues().attributes[attribute].label,
        pattern="attribute_by_meaning",
    ), route
