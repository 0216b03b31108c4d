"""Read-side operations on the index: search, one paper, similar papers, suggestions, browse data.

:class:`PaperSearch` implements :class:`~.reads.SearchReads`, what the web calls; the web
never builds Elasticsearch bodies itself. Every public method is an entry point
(:func:`~.boundary.translating`) and every search goes through :meth:`PaperSearch._search`.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import elastic_transport
from elasticsearch import Elasticsearch, NotFoundError

from . import authors, conferences, corrections, taxonomy, venue_maps
from .boundary import BudgetSpent, Deadlines, translating
from .breaker import CircuitBreaker
from .browse import AuthorProfile, ConferenceSummary, Overview, newest_conference_year, previews_after
from .documents import SUMMARY_FIELDS, from_source
from .errors import OptionalTimedOut, TimedOut
from .facets import FACETS
from .fusion import DEPTH, LIKE_TEXT, SIMILAR, Weights, fuse
from .limits import (AUTHOR_PAGE_PAPERS, EXPORT_LIMIT, FRONT_PAGE_PAPERS, MAP_MATCHES, MAX_SIMILAR_TEXT,
                     MAX_SUGGEST_PREFIX, SUGGEST_BELOW, TOP_INSTITUTIONS, TOP_TIERED_INSTITUTIONS)
from .model import Paper
from .name_keys import author_key
from .corrections import Meant, hint, keep_case, use_correction
from .reads import Exported, Suggestion
from .request import SearchRequest
from .results import LEFT_OUT_FACETS, LEFT_OUT_SUGGESTIONS, SearchResults, shape, suggestion
from .search_body import LEXICAL_MATCHES, build_search, build_suggest
from .semantic import EMBEDDING, build_like, build_ranked, embedder, knn_clause
from .sorting import BROWSE_SORT, sort_clauses
from .stats import (Institutions, Trends, VenueYear, aggregate, institution_years_body, institutions_body,
                    shape_institutions, shape_trends, shape_venue, trends_body, venue_body)
from .suggest import shape_suggestions, suggest_body
from .venue_maps import Matches, VenueMap

log = logging.getLogger(__name__)
_PROFILE_AGGS = {
    "years": {"terms": {"field": "year", "size": 100, "order": {"_key": "desc"}}},
    # More buckets than shown: spellings of one co-author merge in Python (authors.merged_coauthors).
    "coauthors": {"terms": {"field": "author_names.raw", "size": 60}},
    "conferences": {"terms": {"field": "conference", "size": 50}},
}
_VISIBLE = {"bool": {"filter": FACETS.default_filters()}}
_HIDDEN = {"bool": {"must_not": [_VISIBLE]}}
# Control characters: the completion suggester rejects some (U+001E, U+001F are reserved), none helps.
_CONTROL = re.compile(r"[\x00-\x1f\x7f]+")


class PaperSearch:
    """Every read the site and the API make; Elasticsearch errors leave as :mod:`.errors` exceptions."""

    def __init__(self, es: Elasticsearch, alias: str, *, deadlines: Deadlines | None = None,
                 breaker: CircuitBreaker | None = None, maps_index: str | None = None):
        self.es = es
        self.alias = alias
        self.maps_index = maps_index or f"{alias}-maps"
        self.deadlines = deadlines
        self.breaker = breaker

    @property
    def _es(self) -> Elasticsearch:
        """The client with this call's deadline (without deadlines, as tools use it, the client's own)."""
        return self.es.options(request_timeout=self.deadlines.left(self.deadlines.call)) if self.deadlines else self.es

    def _search(self, *, optional_aggs: bool = False, **kwargs: Any) -> Any:
        """Every search this class sends: its share of the request's deadline, a server-side
        timeout, and never a partial answer (reads by id go through :attr:`_es`, with the deadline).

        ``optional_aggs``: the aggregations are what the caller can do without (facets, trends):
        Elasticsearch stops at the facets budget already, so that the time left still answers.
        """
        if not self.deadlines:
            return self.es.search(index=self.alias, **kwargs)
        timeout = self.deadlines.left(self.deadlines.call)
        # Server side: stop collecting at half the client deadline rather than run on unseen.
        kwargs.setdefault("timeout", self.deadlines.server_timeout(timeout, aggregations=optional_aggs))
        if not optional_aggs:
            resp = self.es.options(request_timeout=timeout).search(index=self.alias, **kwargs)
        else:
            try:  # a busy cluster that cannot answer in time: what can be done without is left out
                resp = self.es.options(request_timeout=self.deadlines.optional_call(timeout)).search(
                    index=self.alias, **kwargs)
            except elastic_transport.ConnectionTimeout as exc:
                raise OptionalTimedOut(f"Elasticsearch did not answer the optional aggregations in time: {exc}") from exc
        if resp.body.get("timed_out"):
            # Partial hits and counts would contradict each other on a page (and be cached):
            # an overloaded cluster answers 503 or the last good answer instead.
            raise (OptionalTimedOut if optional_aggs else TimedOut)(
                "Elasticsearch ran out of time and answered with partial results")
        return resp

    def _hits_first(self, req: SearchRequest) -> SearchResults:
        """The results of ``req``; when its facet counts run out of time, its hits without them.

        One search asks for both, told to stop at the facets budget. A timed-out answer is
        partial (its hits and counts would contradict each other): the hits are then asked for
        alone with the time left, and the results say the facets were left out. Only the
        hits' own failure (Elasticsearch down, hung, or out of time for them too) fails the call.
        """
        body = build_ranked(req)
        aggs = body.get("aggs") or {}
        optional = {name for name in aggs if name != LEXICAL_MATCHES}
        if not optional or not self.deadlines:
            return shape(req, self._search(**body).body)
        try:
            return shape(req, self._search(optional_aggs=True, **body).body)
        except TimedOut:
            log.warning("facet counts out of time: answering with the hits alone")
        kept = {name: agg for name, agg in aggs.items() if name not in optional}
        body = {k: v for k, v in body.items() if k != "aggs"} | ({"aggs": kept} if kept else {})
        results = shape(req, self._search(**body).body)
        results.left_out = (*results.left_out, LEFT_OUT_FACETS)
        return results

    @translating
    def search(self, req: SearchRequest) -> SearchResults:
        """The results of ``req``, or of what it means when its words matched (nearly) nothing (:meth:`_meant`)."""
        results = self._hits_first(req)
        if not self._may_mean_more(req, results.matched):
            return results
        try:
            meant = self._meant(req, results.matched, suggest=not corrections.names_a_hit(req, results.hits))
        except (TimedOut, BudgetSpent):
            # The hits are what was asked for: a correction or "did you mean" that runs out of time is left out.
            results.left_out = (*results.left_out, LEFT_OUT_SUGGESTIONS)
            return results
        if meant.request is not req:
            results = self._hits_first(meant.request)
        results.corrected_from, results.suggestion = meant.corrected_from, meant.suggestion
        if not meant.corrected_from:
            results.hint = hint(req.parsed, results.total)
        return results

    def _may_mean_more(self, req: SearchRequest, matched: int) -> bool:
        return matched < SUGGEST_BELOW and req.mode != "semantic" and bool(req.parsed.free_text())

    def _meant(self, req: SearchRequest, matched: int, *, suggest: bool = True) -> Meant:
        """What a request whose words matched few papers means: the same words with the last one still
        being typed (``direct preference optim``), or — when they matched nothing — the spelling
        correction's. Decided on counts alone, so that the search, its trends, its export and its feed,
        each asking this for the same request, all answer the same set; and decided on the words
        without the filters, so that narrowing a search by one of its facet values answers exactly the
        papers that value counted (``robot`` within one keyword is still ``robot``, never ``robot*``).

        ``suggest=False``: no "did you mean" is wanted when the words matched something. The phrase
        suggester costs 2-6x the search itself on the full corpus (150-300 ms against 40-140 ms) and,
        past zero hits, only ever adds a link: it is skipped when the query names one of its hits
        (:func:`.corrections.names_a_hit`) and for the reads that only need the set (trends, export,
        feed). With zero hits it always runs: its correction replaces the answer.
        """
        meant = Meant(req)
        words = req.without_filters()
        if req.filters:
            matched = self._count(words)
            if matched >= SUGGEST_BELOW:
                return meant
        if req.parsed.still_typed():
            found = self._count(replace(words, expand_last=True))
            if found > matched:
                meant.request, matched = replace(req, expand_last=True), found
                if matched >= SUGGEST_BELOW:
                    return meant
        if matched and not suggest:
            return meant
        suggest = build_suggest(req)
        correction = suggestion(self._search(size=0, suggest=suggest).body.get("suggest")) if suggest else None
        if correction:
            corrected_q = keep_case(req.q, correction)
            found = self._count(replace(words, q=corrected_q, autocorrect=True))
            if req.autocorrect and use_correction(matched, found):
                meant.request = req.with_page(1, q=corrected_q, autocorrect=True)
                meant.corrected_from = req.q
            elif found:  # "did you mean" only where it leads somewhere
                meant.suggestion = corrected_q
        return meant

    def _meant_request(self, req: SearchRequest, matched: int) -> SearchRequest:
        """The request another read of ``req`` answers for (trends, export, feed follow the search)."""
        return self._meant(req, matched, suggest=False).request if self._may_mean_more(req, matched) else req

    def _count(self, req: SearchRequest) -> int:
        """How many papers ``req``'s words match (no hits, facets or highlights fetched)."""
        body = build_search(req, facets=False, highlight=False)
        body.pop("sort", None)
        body.update(size=0, **{"from": 0})
        return self._search(**body).body["hits"]["total"]["value"]

    @translating
    def like_text(self, req: SearchRequest, text: str) -> SearchResults:
        """Papers nearest to a text (an abstract, a draft), under the request's filters and paging:
        kNN on its embedding fused with more_like_this on its words (:mod:`.fusion`); the facets
        count the kNN neighbours."""
        return self._like_text(req, text, LIKE_TEXT)

    @translating
    def like_text_with(self, weights: Weights, req: SearchRequest, text: str) -> SearchResults:
        """:meth:`like_text` with other fusion weights (a zero weight leaves that list out): for benchmarks."""
        return self._like_text(req, text, weights)

    @translating
    def like_text_candidates(self, req: SearchRequest,
                             text: str) -> tuple[list[tuple[str, float]], list[tuple[str, float]]]:
        """The kNN and more_like_this lists :meth:`like_text` fuses, ``(id, score)`` best first: for benchmarks."""
        found = self._like_text_hits(req, text, Weights(semantic=1, lexical=1))
        return (_scored(found[0]["hits"]["hits"]), _scored(found[1])) if found else ([], [])

    def _like_text(self, req: SearchRequest, text: str, weights: Weights) -> SearchResults:
        found = self._like_text_hits(req, text, weights)
        if found is None:  # no known words in the text: nothing is near it
            return SearchResults(req, 0, [])
        semantic, lexical, window = found
        hits = _fused_hits(weights, semantic["hits"]["hits"], lexical) if lexical else semantic["hits"]["hits"]
        return shape(req, _window(semantic, hits, window))

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
            lexical = self._search(size=depth, _source={"includes": SUMMARY_FIELDS}, query={"bool": {
                "must": [_like({"like": text[:MAX_SIMILAR_TEXT]})], "filter": body["knn"]["filter"]}}).body["hits"]["hits"]
        return semantic, lexical, window

    @translating
    def export(self, req: SearchRequest, limit: int = EXPORT_LIMIT) -> Exported:
        """Up to ``limit`` papers of the result set, in its order, with every field, and the set's size."""
        exported = self._export(req, limit)
        meant = self._meant_request(req, exported.total)
        return exported if meant is req else self._export(meant, limit)

    def _export(self, req: SearchRequest, limit: int) -> Exported:
        body = build_search(req.with_page(1, page_size=limit),
                            facets=False, highlight=False, source=["*"])
        body["_source"] = {"includes": ["*"], "excludes": [EMBEDDING]}
        body.pop("suggest", None)
        resp = self._search(**body)
        return Exported([from_source(h["_source"]) for h in resp["hits"]["hits"]], resp["hits"]["total"]["value"])

    @translating
    def trends(self, req: SearchRequest) -> Trends:
        """Per-year, per-conference and per-topic counts of exactly the hits of ``req``."""
        trends = self._trends(req)
        meant = self._meant_request(req, trends.total)
        return trends if meant is req else self._trends(meant)

    def _trends(self, req: SearchRequest) -> Trends:
        return shape_trends(aggregate(self._optional_aggregate, lambda buckets: trends_body(req, buckets)))

    @translating
    def venue_years(self, conference: str, year: int | None = None) -> list[VenueYear]:
        """Venue statistics of a conference's years (or one year), oldest first; [] when none."""
        return shape_venue(conference, aggregate(self._aggregate, lambda buckets: venue_body(conference, year, buckets)))

    @translating
    def institutions(self, conference: str, year: int) -> Institutions:
        """Who publishes at a conference-year: its top institutions by listed papers and by oral and spotlight
        papers, each with its papers at the conference per year."""
        found = self._search(**institutions_body(conference, year, TOP_INSTITUTIONS, TOP_TIERED_INSTITUTIONS)).body
        top = shape_institutions(conference, year, found)
        if not top.names:  # no affiliations: no trends to read
            return top
        years = self._search(**institution_years_body(conference, top.names)).body
        return shape_institutions(conference, year, found, years)

    @translating
    def feed(self, req: SearchRequest) -> list[Paper]:
        """A page of the result set, without facets, highlights or suggestions (a feed's entries)."""
        entries, total = self._feed(req)
        meant = self._meant_request(req, total)
        return entries if meant is req else self._feed(meant)[0]

    def _feed(self, req: SearchRequest) -> tuple[list[Paper], int]:
        body = build_search(req, facets=False, highlight=False)
        body.pop("suggest", None)
        resp = self._search(**body)
        return [from_source(h["_source"]) for h in resp["hits"]["hits"]], resp["hits"]["total"]["value"]

    @translating
    def venue_map(self, conference: str, year: int) -> VenueMap | None:
        """The stored map of a venue-year (:mod:`.venue_maps`), or None."""
        return venue_maps.load(self._es, self.maps_index, conference, year)

    @translating
    def map_matches(self, req: SearchRequest, limit: int = MAP_MATCHES) -> Matches:
        """The ids of a search's first ``limit`` papers (what a map highlights), and how many match."""
        body = build_search(replace(req, page=1, page_size=limit, search_after=None), facets=False, highlight=False)
        body["_source"] = False
        body.pop("suggest", None)
        resp = self._search(**body)
        return Matches(tuple(h["_id"] for h in resp["hits"]["hits"]), resp["hits"]["total"]["value"])

    def _aggregate(self, body: dict[str, Any]) -> dict[str, Any]:
        return self._search(**body).body

    def _optional_aggregate(self, body: dict[str, Any]) -> dict[str, Any]:
        """An aggregation a page can do without (its trends): it stops at the facets budget."""
        return self._search(optional_aggs=True, **body).body

    @translating
    def paper(self, paper_id: str) -> Paper | None:
        """The paper, or None when there is no such id (a missing index raises :class:`IndexMissing`)."""
        try:
            doc = self._es.get(index=self.alias, id=paper_id, source_excludes=[EMBEDDING])
        except NotFoundError as exc:
            if exc.error == "index_not_found_exception":
                raise
            return None
        return from_source(doc["_source"])

    @translating
    def papers_by_id(self, paper_ids: Sequence[str]) -> list[Paper]:
        """The papers of these ids that exist, in the order given, each once (a reading list)."""
        wanted = list(dict.fromkeys(paper_ids))
        if not wanted:
            return []
        docs = self._es.mget(index=self.alias, ids=wanted, source_excludes=[EMBEDDING])["docs"]
        return [from_source(d["_source"]) for d in docs if d.get("found")]

    @translating
    def similar(self, paper_id: str, size: int = 6, within: Sequence[dict] = ()) -> list[Paper]:
        """Papers like this one: nearest by embedding fused with more_like_this on its words
        (:mod:`.fusion`) when it has an abstract and a vector, else more_like_this alone.

        ``within``: extra filters on the candidates (a benchmark compares the methods on one population).
        """
        return self._similar(paper_id, size, within, SIMILAR)

    @translating
    def similar_with(self, weights: Weights, paper_id: str, size: int = 6, within: Sequence[dict] = ()) -> list[Paper]:
        """:meth:`similar` with other fusion weights (a zero weight leaves that list out): for benchmarks."""
        return self._similar(paper_id, size, within, weights)

    @translating
    def similar_candidates(self, paper_id: str, depth: int = DEPTH,
                           within: Sequence[dict] = ()) -> tuple[list[tuple[str, float]], list[tuple[str, float]]]:
        """The kNN and more_like_this lists :meth:`similar` fuses, ``(id, score)`` best first (kNN
        empty when the paper has no vector or abstract): for benchmarks of the fusion."""
        semantic, lexical = self._similar_hits(paper_id, depth, within, Weights(semantic=1, lexical=1))
        return _scored(semantic), _scored(lexical)

    def _similar(self, paper_id: str, size: int, within: Sequence[dict], weights: Weights) -> list[Paper]:
        depth = size if not (weights.lexical and weights.semantic) else max(DEPTH, size)
        semantic, lexical = self._similar_hits(paper_id, depth, within, weights)
        hits = _fused_hits(weights, semantic, lexical) if semantic and lexical else semantic or lexical
        return [from_source(h["_source"]) for h in hits[:size]]

    def _similar_hits(self, paper_id: str, depth: int, within: Sequence[dict],
                      weights: Weights) -> tuple[list[dict], list[dict]]:
        """kNN hits (none without a vector and an abstract, or a semantic weight) and more_like_this
        hits (none with a zero lexical weight, unless kNN has none), ``depth`` of each."""
        try:
            stored = self._es.get(index=self.alias, id=paper_id, source_includes=[EMBEDDING, "abstract"])["_source"]
        except NotFoundError as exc:
            if exc.error == "index_not_found_exception":
                raise
            return [], []
        semantic: list[dict] = []
        if stored.get(EMBEDDING) and (stored.get("abstract") or "").strip() and weights.semantic:
            knn = knn_clause(SearchRequest(page_size=depth), stored[EMBEDDING], k=depth,
                             extra_filters=[{"bool": {"must_not": [{"ids": {"values": [paper_id]}}]}}, *within])
            semantic = self._search(size=depth, _source=SUMMARY_FIELDS, knn=knn)["hits"]["hits"]
        lexical = self._more_like_this_hits(paper_id, depth, within) if weights.lexical or not semantic else []
        return semantic, lexical

    @translating
    def more_like_this(self, paper_id: str, size: int = 6, within: Sequence[dict] = ()) -> list[Paper]:
        """Papers sharing this one's distinctive words (title, abstract, keywords)."""
        return self._more_like_this(paper_id, size, within)

    def _more_like_this(self, paper_id: str, size: int, within: Sequence[dict]) -> list[Paper]:
        return [from_source(h["_source"]) for h in self._more_like_this_hits(paper_id, size, within)]

    def _more_like_this_hits(self, paper_id: str, size: int, within: Sequence[dict]) -> list[dict]:
        resp = self._search(size=size, _source=SUMMARY_FIELDS, query={"bool": {
            "must": [_like({"like": [{"_index": self.alias, "_id": paper_id}]})],
            "filter": [_VISIBLE, *within],
        }})
        return resp["hits"]["hits"]

    @translating
    def suggest(self, prefix: str, size: int = 8) -> list[Suggestion]:
        """Completions for the search box: titles (by their start, then by words anywhere) and authors
        from the index, topics and conferences by name (:mod:`.suggest`)."""
        prefix = _CONTROL.sub(" ", prefix).strip()[:MAX_SUGGEST_PREFIX]
        if not prefix:
            return []
        return shape_suggestions(prefix, self._search(**suggest_body(prefix, size)).body, size)

    @translating
    def overview(self, newest: int = FRONT_PAGE_PAPERS) -> Overview:
        """Front page: listed papers per conference and year, topics, and the newest conference-year's papers."""
        resp = self._search(size=0, query=_VISIBLE, track_total_hits=True, aggs={
            "conf": {"terms": {"field": "conference", "size": 200},
                     "aggs": {"years": {"terms": {"field": "year", "size": 100, "order": {"_key": "desc"}},
                                        "aggs": {"abstracts": {"filter": {"term": {"has_abstract": True}}}}}}},
            "topics": {"terms": {"field": "topics", "size": 100}},
        })
        body = resp.body
        confs = [ConferenceSummary(b["key"], conferences.label(b["key"]), b["doc_count"],
                                   [(int(y["key"]), y["doc_count"]) for y in b["years"]["buckets"]],
                                   kind=conferences.lookup(b["key"]).kind,
                                   abstracts={int(y["key"]): y["abstracts"]["doc_count"] for y in b["years"]["buckets"]})
                 for b in body["aggregations"]["conf"]["buckets"]]
        topics = [(b["key"], taxonomy.label(b["key"]), b["doc_count"])
                  for b in body["aggregations"]["topics"]["buckets"]]
        overview = Overview(body["hits"]["total"]["value"], confs, topics)
        lead = newest_conference_year(confs)
        overview.previews = previews_after(confs, lead)
        if lead and newest:
            slug, year = lead
            papers = self._search(size=newest, _source=SUMMARY_FIELDS,
                                    sort=sort_clauses(BROWSE_SORT), track_total_hits=True,
                                    query={"bool": {"filter": [_VISIBLE, {"term": {"conference": slug}},
                                                               {"term": {"year": year}}]}})
            overview.newest = [from_source(h["_source"]) for h in papers["hits"]["hits"]]
            overview.newest_venue, overview.newest_count = lead, papers["hits"]["total"]["value"]
        return overview

    @translating
    def author(self, name: str, size: int = AUTHOR_PAGE_PAPERS) -> AuthorProfile:
        """The papers of every spelling of ``name`` that folds to its key (case and accents aside:
        "Remi Munos" and "Rémi Munos" are one page), under its most frequent spelling; rejected and
        withdrawn papers left out and counted apart."""
        key = author_key(name)
        resp = self._search(size=size, _source=SUMMARY_FIELDS,
                              query={"term": {"author_keys": key}}, post_filter=_VISIBLE,
                              track_total_hits=True, sort=sort_clauses(BROWSE_SORT),
                              aggs={"listed": {"filter": _VISIBLE, "aggs": _PROFILE_AGGS},
                                    "hidden": {"filter": _HIDDEN},
                                    "spellings": {"terms": {"field": "author_names.raw", "size": 50}}})
        body = resp.body
        aggs = body["aggregations"]["listed"]
        papers = [from_source(h["_source"]) for h in body["hits"]["hits"]]
        spellings = authors.spellings(key, _buckets(body["aggregations"]["spellings"]))
        shown = spellings[0][0] if spellings else name
        return AuthorProfile(
            name=shown,
            total=body["hits"]["total"]["value"],
            papers=papers,
            years=[(int(b["key"]), b["doc_count"]) for b in aggs["years"]["buckets"]],
            coauthors=authors.merged_coauthors(shown, _buckets(aggs["coauthors"]), limit=20),
            affiliations=_author_affiliations(key, papers),
            conferences=[(b["key"], b["doc_count"]) for b in aggs["conferences"]["buckets"]],
            hidden=body["aggregations"]["hidden"]["doc_count"],
            shared_name=authors.looks_shared(shown, papers),
            spellings=spellings,
        )

    @translating
    def conference(self, slug: str) -> ConferenceSummary | None:
        """Listed papers per year (as the conference's pages list them), hidden ones counted apart."""
        resp = self._search(size=0, query={"term": {"conference": slug}},
                              aggs={"years": {"terms": {"field": "year", "size": 100, "order": {"_key": "desc"}},
                                              "aggs": {"listed": {"filter": _VISIBLE}}}},
                              track_total_hits=True)
        if not resp["hits"]["total"]["value"]:
            return None
        buckets = resp["aggregations"]["years"]["buckets"]
        years = [(int(b["key"]), b["listed"]["doc_count"]) for b in buckets if b["listed"]["doc_count"]]
        hidden = {int(b["key"]): b["doc_count"] - b["listed"]["doc_count"] for b in buckets
                  if b["doc_count"] > b["listed"]["doc_count"]}
        return ConferenceSummary(slug, conferences.label(slug), sum(n for _, n in years), years,
                                 sum(hidden.values()), hidden, kind=conferences.lookup(slug).kind)

    @translating
    def ready(self) -> bool:
        es = self.es.options(request_timeout=self.deadlines.left(self.deadlines.ready_call)) if self.deadlines else self.es
        return bool(es.indices.exists_alias(name=self.alias))


def _buckets(agg: dict) -> list[tuple[str, int]]:
    return [(b["key"], b["doc_count"]) for b in agg["buckets"]]


def _author_affiliations(key: str, papers: list[Paper]) -> list[tuple[str, int]]:
    """The author's own affiliations (aligned per author in the source), most frequent first."""
    counts: dict[str, int] = {}
    for paper in papers:
        for author in paper.authors:
            if author.affiliation and author_key(author.name) == key:
                for part in author.affiliation.split("; "):
                    counts[part] = counts.get(part, 0) + 1
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:10]


def _like(like: dict[str, Any]) -> dict[str, Any]:
    """A more_like_this clause on a paper's (or a text's) distinctive words: title, abstract, keywords."""
    return {"more_like_this": {"fields": ["title", "abstract", "keywords"], **like,
                               "min_term_freq": 1, "min_doc_freq": 2, "max_query_terms": 30,
                               "minimum_should_match": "20%"}}


def _fused_hits(weights: Weights, semantic: list[dict], lexical: list[dict]) -> list[dict]:
    """Both hit lists fused by their scores (:func:`.fusion.fuse`), each hit once, its score the fused one."""
    by_id = {h["_id"]: h for h in lexical} | {h["_id"]: h for h in semantic}
    fused = fuse([(weights.semantic, _scored(semantic)), (weights.lexical, _scored(lexical))], weights.method)
    return [{**by_id[paper_id], "_score": score} for paper_id, score in fused]


def _scored(hits: list[dict]) -> list[tuple[str, float]]:
    return [(h["_id"], h["_score"] or 0.0) for h in hits]


def _window(resp: dict[str, Any], hits: list[dict], window: dict[str, int]) -> dict[str, Any]:
    """``resp`` with the page ``window`` (from, size) of ``hits``; the total counts every hit that could be paged to."""
    start = window["from"]
    total = max(resp["hits"]["total"]["value"], len(hits))
    return {**resp, "hits": {**resp["hits"], "total": {**resp["hits"]["total"], "value": total},
                             "hits": hits[start:start + window["size"]]}}
