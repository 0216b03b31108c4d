"""The search service with the inner lists of its two fusions exposed, for the benchmarks that tune them.

"Similar papers" and "papers like my text" each fuse a kNN list with a more_like_this list
(``services/search/query/similar.py``, weights in ``query/fusion.py``). Choosing the weights and
the method needs the two lists apart, and the same reads under other weights; the product
needs neither, so they live here: :class:`FusionLists` is :class:`PaperSearch` plus those reads
(``bench/relevance/similar_quality.py`` scores every fusion on them; ``tests/unit/search/query/test_fusion.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

from services.search.engine.boundary import translating
from services.search.query.fusion import DEPTH, Weights
from services.search.query.request import SearchRequest
from services.search.query.similar import scored
from services.search.records.model import Paper
from services.search.service import PaperSearch

Scored = list[tuple[str, float]]
BOTH = Weights(semantic=1, lexical=1)


class FusionLists(PaperSearch):
    """:class:`PaperSearch` with the lists its fusions join, and its similar papers under other weights."""

    @classmethod
    def over(cls, service: PaperSearch) -> FusionLists:
        """The same index, client, deadlines and breaker as ``service`` (the app's, behind its cache)."""
        return cls(service.es, service.alias, deadlines=service.deadlines, breaker=service.breaker)

    @translating
    def similar_with(self, weights: Weights, paper_id: str, size: int = 6) -> list[Paper]:
        """:meth:`similar` with other fusion weights (a zero weight leaves that list out)."""
        return self._similar(paper_id, size, weights)

    @translating
    def similar_candidates(self, paper_id: str, depth: int = DEPTH, within: Sequence[dict] = ()) -> tuple[Scored, Scored]:
        """The kNN and more_like_this lists :meth:`similar` fuses, ``(id, score)`` best first (kNN empty
        when the paper has no vector or abstract); ``within``: filters on both (one population)."""
        bodies = self._similar_bodies(paper_id, depth)
        if bodies is None:
            return [], []
        neighbours, like = bodies
        semantic = self._search(**narrowed(neighbours, within))["hits"]["hits"] if neighbours else []
        return scored(semantic), scored(self._search(**narrowed(like, within))["hits"]["hits"])

    @translating
    def like_text_candidates(self, req: SearchRequest, text: str) -> tuple[Scored, Scored]:
        """The kNN and more_like_this lists :meth:`like_text` fuses, ``(id, score)`` best first."""
        found = self._like_text_hits(req, text, BOTH)
        return (scored(found[0]["hits"]["hits"]), scored(found[1])) if found else ([], [])


def narrowed(body: dict, within: Sequence[dict]) -> dict:
    """A kNN or a bool-query body of the similar lists with more filters (the product never narrows them)."""
    if "knn" in body:
        return {**body, "knn": {**body["knn"], "filter": [*body["knn"]["filter"], *within]}}
    query = body["query"]["bool"]
    return {**body, "query": {"bool": {**query, "filter": [*query["filter"], *within]}}}
