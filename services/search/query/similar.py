"""Papers like this one, or like this text: the more_like_this half of each, and the two halves fused.

"Similar papers" on a paper's page and "papers like my text" each ask two lists: the nearest
papers by embedding (kNN, :mod:`.semantic`) and the papers sharing the most distinctive words
(more_like_this, here), and fuse them by their scores (:mod:`.fusion`, weights chosen on a
dev split by ``bench/relevance/similar_quality.py``). The front door sends the bodies.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from services.search.limits import MAX_SIMILAR_TEXT
from services.search.records.documents import SUMMARY_FIELDS

from .fusion import Weights, fuse
from .request import SearchRequest
from .search_body import VISIBLE
from .semantic import knn_clause

Body = dict[str, Any]


def like_clause(like: Body) -> Body:
    """A more_like_this clause on a paper's (or a text's) distinctive words: title, abstract, keywords."""
    return {"more_like_this": {"fields": ["title", "abstract", "keywords"], **like,
                               "min_term_freq": 1, "min_doc_freq": 2, "max_query_terms": 30,
                               "minimum_should_match": "20%"}}


def paper_like_body(alias: str, paper_id: str, size: int) -> Body:
    """The listed papers sharing the stored paper's distinctive words."""
    return {"size": size, "_source": SUMMARY_FIELDS, "query": {"bool": {
        "must": [like_clause({"like": [{"_index": alias, "_id": paper_id}]})],
        "filter": [VISIBLE],
    }}}


def text_like_body(text: str, size: int, filters: Sequence[Body]) -> Body:
    """The papers sharing a text's distinctive words, under the same filters as its kNN half."""
    return {"size": size, "_source": {"includes": SUMMARY_FIELDS}, "query": {"bool": {
        "must": [like_clause({"like": text[:MAX_SIMILAR_TEXT]})], "filter": filters}}}


def neighbours_body(paper_id: str, vector: list[float], size: int) -> Body:
    """The papers nearest to a stored paper's vector, the paper itself left out."""
    knn = knn_clause(SearchRequest(page_size=size), vector, k=size,
                     extra_filters=[{"bool": {"must_not": [{"ids": {"values": [paper_id]}}]}}])
    return {"size": size, "_source": SUMMARY_FIELDS, "knn": knn}


def scored(hits: list[Body]) -> list[tuple[str, float]]:
    """A hit list as :func:`.fusion.fuse` reads it: ``(id, score)``, best first."""
    return [(h["_id"], h["_score"] or 0.0) for h in hits]


def fused_hits(weights: Weights, semantic: list[Body], lexical: list[Body]) -> list[Body]:
    """Both hit lists fused by their scores (:func:`.fusion.fuse`), each hit once, its score the fused one."""
    by_id = {h["_id"]: h for h in lexical} | {h["_id"]: h for h in semantic}
    fused = fuse([(weights.semantic, scored(semantic)), (weights.lexical, scored(lexical))], weights.method)
    return [{**by_id[paper_id], "_score": score} for paper_id, score in fused]
