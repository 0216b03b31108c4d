"""Read-side operations on the index: search, one paper, similar papers, suggestions, browse data.

The web calls these and never builds Elasticsearch bodies itself.
"""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

import elastic_transport
from elasticsearch import ApiError, Elasticsearch, NotFoundError

from . import conferences, taxonomy
from .documents import SUMMARY_FIELDS, from_source
from .errors import BadQuery, IndexMissing, SearchFailed, SearchOverloaded, SearchUnavailable
from .facets import FACETS
from .limits import EXPORT_LIMIT, MAX_SUGGEST_PREFIX
from .model import Paper
from .request import SearchRequest
from .results import SearchResults, shape
from .search_body import build_search
from .semantic import EMBEDDING, build_like, build_ranked, embedder, knn_clause
from .sorting import BROWSE_SORT, sort_clauses

log = logging.getLogger(__name__)
_PROFILE_AGGS = {
    "years": {"terms": {"field": "year", "size": 100, "order": {"_key": "desc"}}},
    "coauthors": {"terms": {"field": "author_names.raw", "size": 21}},
    "conferences": {"terms": {"field": "conference", "size": 50}},
}
_VISIBLE = {"bool": {"filter": FACETS.default_filters()}}
# Control characters: the completion suggester rejects some (U+001E, U+001F are reserved), none helps.
_CONTROL = re.compile(r"[\x00-\x1f\x7f]+")


_OVERLOADED = (429, 502, 503, 504)


@contextmanager
def translated() -> Iterator[None]:
    """The one place Elasticsearch's exceptions become the search layer's (:mod:`.errors`)."""
    try:
        yield
    except (elastic_transport.ConnectionError, elastic_transport.ConnectionTimeout) as exc:
        log.warning("Elasticsearch unavailable: %s", exc)
        raise SearchUnavailable(str(exc)) from exc
    except ApiError as exc:
        status = exc.meta.status
        if status in _OVERLOADED:
            raise SearchOverloaded(str(exc)) from exc
        if status == 404:
            raise IndexMissing(str(exc)) from exc
        log.error("Elasticsearch rejected a request (%s): %s", status, exc)
        raise (BadQuery if status == 400 else SearchFailed)(str(exc)) from exc


T = TypeVar("T")


def _translating(method: Callable[..., T]) -> Callable[..., T]:
    @functools.wraps(method)
    def wrapper(*args: Any, **kwargs: Any) -> T:
        with translated():
            return method(*args, **kwargs)
    return wrapper


SUGGESTION_KINDS = ("title", "author", "topic", "conference")


@dataclass(frozen=True)
class Suggestion:
    """A completion; ``key`` identifies what it opens (slug, author name or paper id), the web makes the URL."""

    kind: str  # one of SUGGESTION_KINDS
    text: str
    key: str


@dataclass
class ConferenceSummary:
    slug: str
    name: str
    count: int
    years: list[tuple[int, int]]


@dataclass
class AuthorProfile:
    name: str
    total: int
    papers: list[Paper]
    years: list[tuple[int, int]]
    coauthors: list[tuple[str, int]]
    affiliations: list[tuple[str, int]]
    conferences: list[tuple[str, int]]


@dataclass
class Overview:
    total: int
    conferences: list[ConferenceSummary]
    topics: list[tuple[str, str, int]]
    newest: list[Paper] = field(default_factory=list)


class PaperSearch:
    """Every read the site and the API make; Elasticsearch errors leave as :mod:`.errors` exceptions."""

    def __init__(self, es: Elasticsearch, alias: str):
        self.es = es
        self.alias = alias

    @_translating
    def search(self, req: SearchRequest) -> SearchResults:
        resp = self.es.search(index=self.alias, **build_ranked(req))
        return shape(req, resp.body)

    @_translating
    def like_text(self, req: SearchRequest, text: str) -> SearchResults:
        """Papers nearest to a text (an abstract, a draft), under the request's filters and paging."""
        vector = embedder().embed_one(text)
        if not vector.any():  # no words in the text: nothing is near it
            return SearchResults(req, 0, [])
        resp = self.es.search(index=self.alias, **build_like(req, vector.tolist()))
        return shape(req, resp.body)

    @_translating
    def export(self, req: SearchRequest, limit: int = EXPORT_LIMIT) -> list[Paper]:
        """Up to ``limit`` papers of the result set, in its order, with every field."""
        body = build_search(replace(req, page=1, page_size=limit, search_after=None),
                            facets=False, highlight=False, source=["*"])
        body["_source"] = {"includes": ["*"], "excludes": [EMBEDDING]}
        body.pop("suggest", None)
        resp = self.es.search(index=self.alias, **body)
        return [from_source(h["_source"]) for h in resp["hits"]["hits"]]

    @_translating
    def paper(self, paper_id: str) -> Paper | None:
        """The paper, or None when there is no such id (a missing index raises :class:`IndexMissing`)."""
        try:
            doc = self.es.get(index=self.alias, id=paper_id, source_excludes=[EMBEDDING])
        except NotFoundError as exc:
            if exc.error == "index_not_found_exception":
                raise
            return None
        return from_source(doc["_source"])

    @_translating
    def similar(self, paper_id: str, size: int = 6, within: Sequence[dict] = ()) -> list[Paper]:
        """Papers like this one: nearest by embedding when it has an abstract, else more_like_this on its words.

        ``within``: extra filters on the candidates (a benchmark compares both methods on one population).
        """
        try:
            stored = self.es.get(index=self.alias, id=paper_id, source_includes=[EMBEDDING, "abstract"])["_source"]
        except NotFoundError as exc:
            if exc.error == "index_not_found_exception":
                raise
            return []
        if stored.get(EMBEDDING) and (stored.get("abstract") or "").strip():
            knn = knn_clause(SearchRequest(page_size=size), stored[EMBEDDING], k=size,
                             extra_filters=[{"bool": {"must_not": [{"ids": {"values": [paper_id]}}]}}, *within])
            resp = self.es.search(index=self.alias, size=size, _source=SUMMARY_FIELDS, knn=knn)
            return [from_source(h["_source"]) for h in resp["hits"]["hits"]]
        return self.more_like_this(paper_id, size, within)

    @_translating
    def more_like_this(self, paper_id: str, size: int = 6, within: Sequence[dict] = ()) -> list[Paper]:
        """Papers sharing this one's distinctive words (title, abstract, keywords)."""
        resp = self.es.search(index=self.alias, size=size, _source=SUMMARY_FIELDS, query={"bool": {
            "must": [{"more_like_this": {
                "fields": ["title", "abstract", "keywords"],
                "like": [{"_index": self.alias, "_id": paper_id}],
                "min_term_freq": 1, "min_doc_freq": 2, "max_query_terms": 30,
                "minimum_should_match": "20%",
            }}],
            "filter": [_VISIBLE, *within],
        }})
        return [from_source(h["_source"]) for h in resp["hits"]["hits"]]

    @_translating
    def suggest(self, prefix: str, size: int = 8) -> list[Suggestion]:
        """Completions for the search box: titles and authors from the index, topics and conferences by name."""
        prefix = _CONTROL.sub(" ", prefix).strip()[:MAX_SUGGEST_PREFIX]
        if not prefix:
            return []
        out: list[Suggestion] = []
        lowered = prefix.lower()
        for conf in conferences.KNOWN:
            if conf.name.lower().startswith(lowered) or conf.slug.startswith(lowered):
                out.append(Suggestion("conference", conf.name, conf.slug))
        for topic in taxonomy.TOPICS:
            if any(w.startswith(lowered) for w in [topic.label.lower(), *topic.label.lower().split()]):
                out.append(Suggestion("topic", topic.label, topic.slug))
        resp = self.es.search(index=self.alias, size=0, suggest={
            "title": {"prefix": prefix, "completion": {"field": "title_suggest", "size": size,
                                                        "skip_duplicates": True}},
            "author": {"prefix": prefix, "completion": {"field": "author_suggest", "size": 4,
                                                         "skip_duplicates": True}},
        }, _source=["paper_id"])
        suggest = resp.body.get("suggest", {})
        for option in suggest.get("author", [{}])[0].get("options", []):
            out.append(Suggestion("author", option["text"], option["text"]))
        for option in suggest.get("title", [{}])[0].get("options", []):
            out.append(Suggestion("title", option["text"], option["_id"]))
        return out[: size + 4]

    @_translating
    def overview(self, newest: int = 20) -> Overview:
        """Front page: paper counts per conference and year, topics, and the newest papers."""
        resp = self.es.search(index=self.alias, size=newest, _source=SUMMARY_FIELDS, query=_VISIBLE,
                              sort=sort_clauses(BROWSE_SORT),
                              track_total_hits=True, aggs={
                                  "conf": {"terms": {"field": "conference", "size": 200},
                                           "aggs": {"years": {"terms": {"field": "year", "size": 100,
                                                                        "order": {"_key": "desc"}}}}},
                                  "topics": {"terms": {"field": "topics", "size": 100}},
                              })
        body = resp.body
        confs = [ConferenceSummary(b["key"], conferences.label(b["key"]), b["doc_count"],
                                   [(int(y["key"]), y["doc_count"]) for y in b["years"]["buckets"]])
                 for b in body["aggregations"]["conf"]["buckets"]]
        topics = [(b["key"], taxonomy.label(b["key"]), b["doc_count"])
                  for b in body["aggregations"]["topics"]["buckets"]]
        return Overview(body["hits"]["total"]["value"], confs, topics,
                        [from_source(h["_source"]) for h in body["hits"]["hits"]])

    @_translating
    def author(self, name: str, size: int = 200) -> AuthorProfile:
        resp = self.es.search(index=self.alias, size=size, _source=SUMMARY_FIELDS,
                              query={"term": {"author_names.raw": name}}, track_total_hits=True,
                              sort=sort_clauses(BROWSE_SORT),
                              aggs=_PROFILE_AGGS)
        body = resp.body
        aggs = body["aggregations"]
        return AuthorProfile(
            name=name,
            total=body["hits"]["total"]["value"],
            papers=[from_source(h["_source"]) for h in body["hits"]["hits"]],
            years=[(int(b["key"]), b["doc_count"]) for b in aggs["years"]["buckets"]],
            coauthors=[(b["key"], b["doc_count"]) for b in aggs["coauthors"]["buckets"] if b["key"] != name][:20],
            affiliations=_author_affiliations(name, [from_source(h["_source"]) for h in body["hits"]["hits"]]),
            conferences=[(b["key"], b["doc_count"]) for b in aggs["conferences"]["buckets"]],
        )

    @_translating
    def conference(self, slug: str) -> ConferenceSummary | None:
        resp = self.es.search(index=self.alias, size=0, query={"term": {"conference": slug}},
                              aggs={"years": {"terms": {"field": "year", "size": 100, "order": {"_key": "desc"}}}},
                              track_total_hits=True)
        total = resp["hits"]["total"]["value"]
        if not total:
            return None
        years = [(int(b["key"]), b["doc_count"]) for b in resp["aggregations"]["years"]["buckets"]]
        return ConferenceSummary(slug, conferences.label(slug), total, years)

    @_translating
    def ready(self) -> bool:
        return bool(self.es.indices.exists_alias(name=self.alias))


def _author_affiliations(name: str, papers: list[Paper]) -> list[tuple[str, int]]:
    """The author's own affiliations (aligned per author in the source), most frequent first."""
    counts: dict[str, int] = {}
    for paper in papers:
        for author in paper.authors:
            if author.name == name and author.affiliation:
                for part in author.affiliation.split("; "):
                    counts[part] = counts.get(part, 0) + 1
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:10]
