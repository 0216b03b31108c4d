"""Search bodies ranked by embeddings: kNN (``mode=semantic``), BM25 plus kNN (``hybrid``), "like this text".

The core distribution has no RRF (``"unknown retriever [rrf]"``), so hybrid uses what
core offers: ``query`` and ``knn`` in one request, each hit's score the sum of the BM25
score and the boosted kNN similarity. kNN scores lie in [0, 1] (cosine, as (1 + cos) / 2)
while BM25 scores of a title match run to 20–60, so the kNN boost is chosen to reorder
close calls and add papers the words miss without displacing an exact-title hit
(``bench/relevance/similar_quality.py`` measures it).

Filters are kNN pre-filters: every selected facet (and the default that hides rejected
papers) plus ``conference:``/``year:`` scopes, so the k neighbours all match them; the
facets are counted over those k neighbours.
"""

from __future__ import annotations

from typing import Any

from services.search.limits import SEMANTIC_CANDIDATES, SEMANTIC_K
from services.search.records.documents import SUMMARY_FIELDS
from services.search.records.embedding import EMBEDDING, embedder

from .ranking import known_item_filters
from .request import SearchRequest
from .search_body import LEXICAL_MATCHES, aggregations, build_search, facet_filters, scope_filters

KNN_BOOST = 20.0
"""Weight of the kNN similarity in hybrid mode, against a BM25 score (see the module docstring)."""
NAMED_BOOST = 10.0
"""Score of a paper the query names, in semantic mode: above any kNN similarity (at most 1)."""


def knn_clause(req: SearchRequest, vector: list[float], *, k: int | None = None,
               extra_filters: list[dict[str, Any]] = ()) -> dict[str, Any]:
    """kNN over the request's filters; ``k`` covers the requested page (at least SEMANTIC_K, for the facets)."""
    k = k or max(SEMANTIC_K, req.offset + req.page_size)
    filters = [*facet_filters(req).values(), *scope_filters(req), *extra_filters]
    return {"field": EMBEDDING, "query_vector": vector, "k": k,
            "num_candidates": max(k, SEMANTIC_CANDIDATES), "filter": filters}


def query_text(req: SearchRequest) -> str:
    """The words to embed: the query without its scopes and operators."""
    return req.reading.free_text.strip()


def build_ranked(req: SearchRequest) -> dict[str, Any]:
    """The search body of ``req`` in its mode; a query with no free text stays lexical (nothing to embed)."""
    text = query_text(req) if req.mode != "lexical" else ""
    vector = embedder().embed_one(text) if text else None
    if vector is None or not vector.any():
        return build_search(req)
    vector = vector.tolist()
    if req.mode == "semantic":
        body = build_like(req, vector)
        named = named_query(req, body["knn"]["filter"])
        if named:
            body["query"] = named
        return body
    body = build_search(req)
    body["knn"] = {**knn_clause(req, vector), "boost": KNN_BOOST}
    # How many papers the words match (kNN always finds neighbours): is the query a typo?
    matching = [body["query"], *([body["post_filter"]] if "post_filter" in body else [])]
    body.setdefault("aggs", {})[LEXICAL_MATCHES] = {"filter": {"bool": {"filter": matching}}}
    return body


def named_query(req: SearchRequest, filters: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The papers whose whole title or name the query is, first in ``mode=semantic`` too.

    A name carries little meaning for an embedding ("LoRA", "DPO"): kNN alone left the
    paper so named out of its top 100. Added as a query beside the kNN, it puts those
    papers above every neighbour (kNN scores are at most 1) and leaves the rest to kNN.
    """
    named = [f for factor, f in known_item_filters(req.reading) if factor in ("title", "name")]
    if not named:
        return None
    return {"constant_score": {"boost": NAMED_BOOST, "filter": {"bool": {
        "should": named, "minimum_should_match": 1, "filter": filters}}}}


def build_like(req: SearchRequest, vector: list[float]) -> dict[str, Any]:
    """Nearest papers to a vector, in the search response's shape (hits, total, facets)."""
    body: dict[str, Any] = {
        "knn": knn_clause(req, vector),
        "size": req.page_size,
        "from": req.offset,
        "track_total_hits": True,
        "_source": {"includes": SUMMARY_FIELDS},
        "aggs": aggregations(req, facet_filters(req)),
    }
    return body
