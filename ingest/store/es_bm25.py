"""BM25 over what one principal may read, on Elasticsearch: the embedded store's formula with the
principal's own statistics, computed client-side.

Lucene scores a match with the shard's statistics (document count, each word's document
frequency, average length) over every indexed copy: other principals' documents, old revisions
and deleted copies not yet merged away. A principal's scores and order then moved with
documents they cannot read (a side channel). The test node has no scripting module, so the
scores cannot be changed inside Elasticsearch; instead:

* **At ingest** each chunk copy gets its words as the embedded store's FTS5 index counts them
  (:func:`term_fields`): ``text_tokens`` (its length in tokens, an integer with doc values),
  ``text_terms`` (its distinct terms, a ``keyword`` field: one indexed term each) and
  ``text_tf`` (term -> frequency, ``_source`` only). The tokenizer is SQLite's own
  (``unicode61 remove_diacritics 2`` in a private in-memory FTS5 table), not a copy of it, so
  lengths, terms and frequencies are exactly those of ``ingest/store/sqlite_bm25.py``. Each
  frequency is also indexed as marks (``text_tf_terms``: ``term#2`` ... ``term#tf``), so a query
  can read it back as a score without loading ``_source``.
* **Statistics** (:func:`stats_request`): one ``size: 0`` search whose query is the principal's
  visibility alone: ``track_total_hits`` gives N, a ``filters`` aggregation of one ``term`` on
  ``text_terms`` per word gives each df, a ``sum`` of ``text_tokens`` the average length.
  Aggregations run over the index's live documents that match, so old revisions, deleted copies
  and other principals' documents count for nothing; they are also exact with several shards.
* **Candidates** (:func:`candidates_request`): the matches of the request's filters, ordered by
  a score that uses no collection statistics of Lucene's: per word, a named clause of constant
  scores, the word's IDF from the principal's statistics plus ``TF_STEP`` per frequency mark
  (so the order is the sum of the IDFs of the words a chunk holds, nudged by their frequencies;
  ties by chunk id), at most ``window`` of them. Each hit's length comes from doc values and
  each word's frequency from its clause's score (``include_named_queries_score``): no stored
  field and no ``_source`` is read (loading ``_source`` cost 5x more at 1,000 candidates). A
  frequency at the clause's cap (``TF_CLAUSES``) is read from ``_source`` instead.
* **Scores** (:func:`score`): FTS5's formula (``sqlite_bm25``: ``k1 = 1.2``, ``b = 0.75``,
  ``idf = ln((N - df + 0.5) / (df + 0.5))`` at least 1e-6, summed per word in the given word
  order), so a candidate's score is bitwise the embedded store's for the same visible set.

Every match is scored when there are at most ``window`` of them (always the case for the
contract suite and the evidence path's doc-filtered queries, whose window is the result-window
limit); past that the window is an approximation, and :func:`window_is_exact` tells whether the
top n is provably the exact one anyway (a chunk outside the window scores less than
``(k1 + 1)`` times its IDF sum).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any, Sequence

# The embedded store's formula constants: one formula for both stores (pruning: sqlite.prune_words).
from ingest.store.sqlite_bm25 import B, K1, fts_term, idf

# The embedded store's chunks_fts tokenizer (ingest/store/sqlite.py's schema): the terms, lengths
# and frequencies written here must be the ones its BM25 reads (tests/test_es_bm25_visible.py
# compares the scores of both stores on one corpus).
FTS_TOKENIZE = "unicode61 remove_diacritics 2"
# The fields term_fields writes on every chunk copy.
FIELDS = ("text_tokens", "text_terms", "text_tf", "text_tf_terms")
# First chunks mapping version whose copies carry the fields above (mappings/chunks.v2.json).
TERMS_VERSION = 2
# A keyword term longer than Lucene's limit (32,766 bytes) would fail the whole chunk: such a
# "word" (a run of 8,192 letters) is left out of text_terms (mapping ignore_above) and so never
# matches here, where the embedded store would find it.
MAX_TERM_CHARS = 8191
# Frequency marks asked per word (term#2 .. term#TF_CLAUSES); a chunk at the cap has its exact
# frequency read from _source. At most MAX_CLAUSES in a query: long doc-filtered questions ask
# fewer marks per word (never below 2).
TF_CLAUSES = 16
MAX_CLAUSES = 1024
# Score of one frequency mark: small beside an IDF (it only nudges the order) and large beside
# float32 rounding of a clause's score (about 1e-6 per mark), so a frequency decodes exactly.
TF_STEP = 1e-3
# Candidates scored per unfiltered query: a CUAD question of 10 words OR-matches thousands of
# chunks at 50k; this many, best by their IDF sum, are scored exactly (bench/search.py).
WINDOW = 1000
# Candidates of a doc-filtered query (the evidence path's bounded document set): every match up
# to index.max_result_window, so these are exact unless the documents hold more matches.
DOC_FILTERED_WINDOW = 10_000


@dataclass(frozen=True, slots=True)
class Statistics:
    """The principal's statistics: visible chunks, their average length, df per word."""

    rows: int
    average_length: float
    df: dict[str, int]

    def idf(self, word: str) -> float:
        return idf(self.rows, self.df.get(word, 0))


def term_fields(texts: Sequence[str]) -> list[dict[str, Any]]:
    """Per text, the chunk copy's BM25 fields: ``text_tokens``, ``text_terms`` (sorted),
    ``text_tf`` and its marks ``text_tf_terms`` (``term#k`` for k = 2 .. tf; as many as the
    chunk's tokens beyond its distinct terms), counted by SQLite's FTS5 with the embedded store's tokenizer (one private
    in-memory table per call, so a batch costs one connection)."""
    out: list[dict[str, Any]] = [{"text_tokens": 0, "text_terms": [], "text_tf": {}, "text_tf_terms": []}
                                 for _ in texts]
    if not texts:
        return out
    db = sqlite3.connect(":memory:")
    try:
        db.execute(f"CREATE VIRTUAL TABLE t USING fts5(text, tokenize='{FTS_TOKENIZE}')")
        db.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance')")
        db.executemany("INSERT INTO t(rowid, text) VALUES (?, ?)",
                       ((i, text or "") for i, text in enumerate(texts)))
        for doc, term, count in db.execute(
            "SELECT doc, term, count(*) FROM v GROUP BY doc, term ORDER BY doc, term"
        ):
            fields = out[doc]
            fields["text_tokens"] += count
            fields["text_tf"][term] = count
            fields["text_terms"].append(term)
            fields["text_tf_terms"].extend(f"{term}#{k}" for k in range(2, count + 1))
    finally:
        db.close()
    return out


def stats_request(visibility: list[dict[str, Any]], terms: Sequence[str]) -> dict[str, Any]:
    """The search body of the principal's statistics for ``terms`` (FTS terms, distinct):
    ``visibility`` is the principal's visibility clauses only, never the request's other
    filters (they narrow the candidates, not the statistics, as in the embedded store)."""
    aggs: dict[str, Any] = {"tokens": {"sum": {"field": "text_tokens"}}}
    if terms:
        aggs["df"] = {"filters": {"filters": {t: {"term": {"text_terms": t}} for t in terms}}}
    return {"size": 0, "track_total_hits": True, "query": {"bool": {"filter": visibility}},
            "aggs": aggs}


def statistics(response: dict[str, Any], words: Sequence[str]) -> Statistics:
    """The :class:`Statistics` of a :func:`stats_request` response, df keyed by query word."""
    rows = int(response["hits"]["total"]["value"])
    buckets = response["aggregations"].get("df", {}).get("buckets", {})
    total = float(response["aggregations"]["tokens"]["value"] or 0.0)
    return Statistics(
        rows=rows,
        average_length=total / rows if rows else 0.0,
        df={w: int(buckets.get(fts_term(w), {}).get("doc_count", 0)) for w in words},
    )


def tf_clauses(terms: int) -> int:
    """Frequency marks asked per word for a query of ``terms`` terms (``MAX_CLAUSES`` bound)."""
    return max(2, min(TF_CLAUSES, MAX_CLAUSES // max(1, terms)))


def candidates_request(filters: list[dict[str, Any]], words: Sequence[str], stats: Statistics,
                       window: int) -> dict[str, Any]:
    """The search body of the candidates: chunks matching ``filters`` and at least one of
    ``words`` (those the principal's statistics know), best first by the sum of their words'
    IDFs (principal's statistics: constant scores, no Lucene statistics) plus ``TF_STEP`` per
    frequency mark, ties by chunk id; at most ``window``, counted exactly up to
    ``window + 1`` so the caller knows if all were taken. Each word's clause is named by its
    term; its score gives the frequency back (:func:`frequencies`). Only doc values are
    returned (chunk id, length)."""
    plan = Plan.of(words, stats)
    terms, cap = sorted(dict(plan.terms).items()), plan.cap
    return {
        "query": {"bool": {
            "filter": filters,
            "should": [
                {"bool": {"should": [
                    {"constant_score": {"filter": {"term": {"text_terms": t}}, "boost": idf}},
                    *({"constant_score": {"filter": {"term": {"text_tf_terms": f"{t}#{k}"}},
                                          "boost": TF_STEP}} for k in range(2, cap + 1)),
                ], "_name": t}}
                for t, idf in terms
            ],
            "minimum_should_match": 1,
        }},
        "sort": [{"_score": "desc"}, {"chunk_id": "asc"}],
        "track_scores": True,
        "size": window,
        "track_total_hits": window + 1,
        "_source": False,
        "stored_fields": "_none_",
        "docvalue_fields": ["chunk_id", "text_tokens"],
        "include_named_queries_score": True,
    }


@dataclass(frozen=True, slots=True)
class Plan:
    """One query's scoring plan, computed once (not per candidate): each scored word's FTS
    term and IDF in the query's word order (words the principal's chunks do not hold are
    left out, as the embedded store skips them), and the marks asked per term."""

    terms: tuple[tuple[str, float], ...]
    average_length: float
    cap: int

    @classmethod
    def of(cls, words: Sequence[str], stats: Statistics) -> "Plan":
        terms = tuple((fts_term(w), stats.idf(w)) for w in words if stats.df.get(w, 0))
        return cls(terms=terms, average_length=stats.average_length,
                   cap=tf_clauses(len({t for t, _ in terms})))


def frequencies(hit: dict[str, Any], plan: Plan) -> tuple[dict[str, int], list[str]]:
    """(term -> frequency, terms whose frequency reached the clause cap) of one candidate hit:
    a clause scores the word's IDF (as a float32) plus ``TF_STEP`` per mark beyond the first
    occurrence. Terms at the cap need their exact frequency from ``_source``."""
    weights = dict(plan.terms)
    out: dict[str, int] = {}
    capped: list[str] = []
    for term, named in (hit.get("matched_queries") or {}).items():
        if term not in weights:
            continue
        tf = 1 + round((float(named) - weights[term]) / TF_STEP)
        out[term] = tf
        if tf >= plan.cap:
            capped.append(term)
    return out, capped


def score(tf: dict[str, int], length: int, plan: Plan) -> float:
    """A candidate's BM25 score (higher is better) from its term frequencies and length,
    term by term in the plan's (the query's word) order, with the principal's statistics: the
    same operations in the same order as ``sqlite_bm25.scores``, so the float is the embedded
    store's bit for bit."""
    length_f = float(length)
    total = 0.0
    for term, idf in plan.terms:
        freq = float(tf.get(term, 0))
        if not freq:
            continue
        total += idf * freq * (K1 + 1.0) / (freq + K1 * (1.0 - B + B * length_f / plan.average_length))
    return total


def window_is_exact(ranked: Sequence[float], n: int, taken: int, exhaustive: bool,
                    last_proxy: float) -> bool:
    """Whether the top ``n`` of a window is the top ``n`` of every match: all matches were
    taken, or the n-th best exact score beats what any chunk left out could reach. A left-out
    chunk's IDF sum is at most ``last_proxy`` (the window's last), and each word adds less than
    ``(k1 + 1)`` times its IDF, so it scores below ``(k1 + 1) * last_proxy`` (the proxy is a
    float32 in Elasticsearch: a relative margin of 1e-5 covers its rounding)."""
    if exhaustive:
        return True
    if taken < n or len(ranked) < n:
        return False
    return ranked[n - 1] > (K1 + 1.0) * last_proxy * (1.0 + 1e-5)
