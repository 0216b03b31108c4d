"""Read-side operations on the index: search, one paper, similar papers, suggestions, browse data.

The web calls these and never builds Elasticsearch bodies itself.
"""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

import elastic_transport
from elasticsearch import ApiError, Elasticsearch, NotFoundError

from . import authors, conferences, taxonomy
from .documents import SUMMARY_FIELDS, from_source
from .errors import BadQuery, IndexMissing, SearchFailed, SearchOverloaded, SearchUnavailable
from .facets import FACETS
from .limits import EXPORT_LIMIT, MAX_SUGGEST_PREFIX
from .model import Paper
from .name_keys import author_key
from .request import SearchRequest
from .results import SearchResults, shape
from .search_body import build_search
from .sorting import BROWSE_SORT, sort_clauses

log = logging.getLogger(__name__)
_PROFILE_AGGS = {
    "years": {"terms": {"field": "year", "size": 100, "order": {"_key": "desc"}}},
    # More buckets than shown: spellings of one co-author merge in Python (authors.merged_coauthors).
    "coauthors": {"terms": {"field": "author_names.raw", "size": 60}},
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
    shared_name: bool = False  # papers by several people may share this name (authors.looks_shared)


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
        resp = self.es.search(index=self.alias, **build_search(req))
        return shape(req, resp.body)

    @_translating
    def export(self, req: SearchRequest, limit: int = EXPORT_LIMIT) -> list[Paper]:
        """Up to ``limit`` papers of the result set, in its order, with every field."""
        body = build_search(replace(req, page=1, page_size=limit, search_after=None),
                            facets=False, highlight=False, source=["*"])
        body.pop("suggest", None)
        resp = self.es.search(index=self.alias, **body)
        return [from_source(h["_source"]) for h in resp["hits"]["hits"]]

    @_translating
    def paper(self, paper_id: str) -> Paper | None:
        """The paper, or None when there is no such id (a missing index raises :class:`IndexMissing`)."""
        try:
            doc = self.es.get(index=self.alias, id=paper_id)
        except NotFoundError as exc:
            if exc.error == "index_not_found_exception":
                raise
            return None
        return from_source(doc["_source"])

    @_translating
    def similar(self, paper_id: str, size: int = 6) -> list[Paper]:
        resp = self.es.search(index=self.alias, size=size, _source=SUMMARY_FIELDS, query={"bool": {
            "must": [{"more_like_this": {
                "fields": ["title", "abstract", "keywords"],
                "like": [{"_index": self.alias, "_id": paper_id}],
                "min_term_freq": 1, "min_doc_freq": 2, "max_query_terms": 30,
                "minimum_should_match": "20%",
            }}],
            "filter": [_VISIBLE],
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
        papers = [from_source(h["_source"]) for h in body["hits"]["hits"]]
        return AuthorProfile(
            name=name,
            total=body["hits"]["total"]["value"],
            papers=papers,
            years=[(int(b["key"]), b["doc_count"]) for b in aggs["years"]["buckets"]],
            coauthors=authors.merged_coauthors(name, _buckets(aggs["coauthors"]), limit=20),
            affiliations=_author_affiliations(name, papers),
            conferences=[(b["key"], b["doc_count"]) for b in aggs["conferences"]["buckets"]],
            shared_name=authors.looks_shared(name, papers),
        )

    @_translating
    def canonical_author(self, name: str) -> str | None:
        """The most frequent spelling of ``name`` ignoring case and accents, or None when no paper has it."""
        key = author_key(name)
        if not key:
            return None
        resp = self.es.search(index=self.alias, size=0, query={"term": {"author_keys": key}},
                              aggs={"names": {"terms": {"field": "author_names.raw", "size": 50}}})
        return authors.canonical_spelling(key, _buckets(resp.body["aggregations"]["names"]))

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


def _buckets(agg: dict) -> list[tuple[str, int]]:
    return [(b["key"], b["doc_count"]) for b in agg["buckets"]]


def _author_affiliations(name: str, papers: list[Paper]) -> list[tuple[str, int]]:
    """The author's own affiliations (aligned per author in the source), most frequent first."""
    counts: dict[str, int] = {}
    for paper in papers:
        for author in paper.authors:
            if author.name == name and author.affiliation:
                for part in author.affiliation.split("; "):
                    counts[part] = counts.get(part, 0) + 1
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:10]
