"""The front door's reads of papers near something: a text ("papers like mine") and a paper ("similar papers").

Both fuse kNN on an embedding with more_like_this on words (:mod:`.query.fusion`, :mod:`.query.similar`).
They are :class:`~.service.PaperSearch`'s reads like any other (it inherits them), kept in a module of their
own so that the front door stays a size one can read; they search through its budgeted ``_search``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from elasticsearch import NotFoundError

from services.search.answers import people as person_pages
from services.search.answers.results import SearchResults, paged, shape
from services.search.engine.boundary import translating
from services.search.query import similar
from services.search.query.fusion import DEPTH, LIKE_TEXT, SIMILAR, Weights
from services.search.query.request import SearchRequest
from services.search.query.semantic import build_like
from services.search.records.documents import from_source
from services.search.records.embedding import EMBEDDING, embedder
from services.search.records.model import Paper

if TYPE_CHECKING:
    from elasticsearch import Elasticsearch

    from services.search.records.people import Person


class NearbyReads:
    """Papers near a text or a paper; the class that inherits these gives ``_search``, ``_es``, ``alias``, ``people``."""

    alias: str

    def _search(self, **kwargs: Any) -> Any:  # pragma: no cover - PaperSearch's
        raise NotImplementedError

    @property
    def _es(self) -> Elasticsearch:  # pragma: no cover - PaperSearch's
        raise NotImplementedError

    def people(self, person_ids) -> dict[str, Person]:  # pragma: no cover - PaperSearch's
        raise NotImplementedError

    @translating
    def like_text(self, req: SearchRequest, text: str) -> SearchResults:
        """Papers nearest to a text (an abstract, a draft), under the request's filters and paging:
        kNN on its embedding fused with more_like_this on its words (:mod:`.query.fusion`); the facets
        count the kNN neighbours."""
        return person_pages.label_people(self._like_text(req, text, LIKE_TEXT), self.people)

    def _like_text(self, req: SearchRequest, text: str, weights: Weights) -> SearchResults:
        found = self._like_text_hits(req, text, weights)
        if found is None:  # no known words in the text: nothing is near it
            return SearchResults(req, 0, [])
        semantic, lexical, window = found
        hits = similar.fused_hits(weights, semantic["hits"]["hits"], lexical) if lexical else semantic["hits"]["hits"]
        return shape(req, paged(semantic, hits, window))

    def _like_text_hits(self, req: SearchRequest, text: str,
                        weights: Weights) -> tuple[dict[str, Any], list[dict], dict[str, int]] | None:
        """The kNN response (with the facets), the more_like_this hits (none with a zero lexical
        weight) and the page window; None when the text has no known word."""
        vector = embedder().embed_one(text)
        if not vector.any():
            return None
        depth = max(DEPTH, req.offset + req.page_size)
        body = build_like(req, vector.tolist())
        window = {"size": body.pop("size"), "from": body.pop("from")}
        body["knn"]["k"] = max(body["knn"]["k"], depth)
        body["knn"]["num_candidates"] = max(body["knn"]["num_candidates"], depth)
        semantic = self._search(size=depth, **body).body
        lexical: list[dict] = []
        if weights.lexical:
            lexical = self._search(**similar.text_like_body(text, depth, body["knn"]["filter"])).body["hits"]["hits"]
        return semantic, lexical, window

    @translating
    def similar(self, paper_id: str, size: int = 6) -> list[Paper]:
        """Papers like this one: nearest by embedding fused with more_like_this on its words
        (:mod:`.query.similar`) when it has an abstract and a vector, else more_like_this alone."""
        return self._similar(paper_id, size, SIMILAR)

    def _similar(self, paper_id: str, size: int, weights: Weights) -> list[Paper]:
        depth = size if not (weights.lexical and weights.semantic) else max(DEPTH, size)
        semantic, lexical = self._similar_hits(paper_id, depth, weights)
        hits = similar.fused_hits(weights, semantic, lexical) if semantic and lexical else semantic or lexical
        return [from_source(h["_source"]) for h in hits[:size]]

    def _similar_hits(self, paper_id: str, depth: int, weights: Weights) -> tuple[list[dict], list[dict]]:
        """kNN hits (none without a vector and an abstract, or a semantic weight) and more_like_this
        hits (none with a zero lexical weight, unless kNN has none), ``depth`` of each."""
        bodies = self._similar_bodies(paper_id, depth)
        if bodies is None:
            return [], []
        neighbours, like = bodies
        semantic = self._search(**neighbours)["hits"]["hits"] if neighbours and weights.semantic else []
        lexical = [] if semantic and not weights.lexical else self._search(**like)["hits"]["hits"]
        return semantic, lexical

    def _similar_bodies(self, paper_id: str, depth: int) -> tuple[dict | None, dict] | None:
        """The kNN body (None without a vector and an abstract) and the more_like_this body of a stored
        paper's neighbours, ``depth`` hits each; None when there is no such paper."""
        try:
            stored = self._es.get(index=self.alias, id=paper_id, source_includes=[EMBEDDING, "abstract"])["_source"]
        except NotFoundError as exc:
            if exc.error == "index_not_found_exception":
                raise
            return None
        embedded = stored.get(EMBEDDING) and (stored.get("abstract") or "").strip()
        neighbours = similar.neighbours_body(paper_id, stored[EMBEDDING], depth) if embedded else None
        return neighbours, similar.paper_like_body(self.alias, paper_id, depth)

