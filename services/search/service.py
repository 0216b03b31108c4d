"""Read-side operations on the index: search, one paper, similar papers, suggestions, browse data, people.

:class:`PaperSearch` implements :class:`~.reads.SearchReads`, what the web calls; the web
never builds Elasticsearch bodies itself. Every public method is an entry point
(:func:`~.engine.boundary.translating`) and every search goes through :meth:`PaperSearch._search`.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from functools import partial
from typing import Any

import elastic_transport
from elasticsearch import Elasticsearch, NotFoundError

from services.search.answers import authors, browse, corrections, stats, venue_match
from services.search.answers import people as person_pages
from services.search.answers.browse import AuthorProfile, ConferenceSummary, Overview
from services.search.answers.corrections import Meant
from services.search.answers.people import PersonPage
from services.search.answers.results import (
    LEFT_OUT_FACETS,
    LEFT_OUT_SUGGESTIONS,
    Exported,
    Matches,
    SearchResults,
    shape,
    suggestion,
)
from services.search.answers.stats import Institutions, Trends, VenueYear
from services.search.answers.suggest import PEOPLE_SUGGESTED, Suggestion, shape_suggestions, suggest_body
from services.search.answers.venue_match import CitedWork, VenueMatch
from services.search.engine import followed_store, map_store, people_store
from services.search.engine.boundary import BudgetSpent, Deadlines, translating
from services.search.engine.breaker import CircuitBreaker
from services.search.engine.client import TimedClients
from services.search.query import breadth
from services.search.query.request import SearchRequest
from services.search.query.search_body import LEXICAL_MATCHES, build_search, build_suggest, sample_facets
from services.search.query.semantic import build_ranked
from services.search.records.documents import from_source
from services.search.records.embedding import EMBEDDING
from services.search.records.followed import FollowedSource
from services.search.records.model import Paper
from services.search.records.name_keys import author_key, block_key
from services.search.records.people import Person
from services.search.records.venue_maps import VenueMap

from . import limits
from .errors import OptionalTimedOut, SearchFailed, TimedOut
from .nearby import NearbyReads

log = logging.getLogger(__name__)
# Control characters: the completion suggester rejects some (U+001E, U+001F are reserved), none helps.
_CONTROL = re.compile(r"[\x00-\x1f\x7f]+")


class PaperSearch(NearbyReads):
    """Every read the site and the API make; Elasticsearch errors leave as :mod:`.errors` exceptions."""

    def __init__(self, es: Elasticsearch, alias: str, *, deadlines: Deadlines | None = None,
                 breaker: CircuitBreaker | None = None, maps_index: str | None = None, people_index: str | None = None):
        self.es = es
        self.timed = TimedClients(es)
        self.alias = alias
        self.maps_index = maps_index or f"{alias}-maps"
        self.people_index = people_index or f"{alias}-people"
        self.followed_index = followed_store.index_of(alias)
        self.deadlines = deadlines
        self.breaker = breaker

    @property
    def _es(self) -> Elasticsearch:
        """The client with this call's deadline (without deadlines, as tools use it, the client's own)."""
        return self.timed(self.deadlines.left(self.deadlines.call)) if self.deadlines else self.es

    def _search(self, *, optional_aggs: bool = False, index: str | None = None, **kwargs: Any) -> Any:
        """Every search this class sends (to the alias, or ``index``: the people's): its share of the request's
        deadline, a server-side timeout, and never a partial answer (reads by id go through :attr:`_es`).

        ``optional_aggs``: the aggregations are what the caller can do without (facets, trends):
        Elasticsearch stops at the facets budget already, so that the time left still answers.
        """
        kwargs["index"] = index or self.alias
        if not self.deadlines:
            return self.es.search(**kwargs)
        timeout = self.deadlines.left(self.deadlines.call)
        # Server side: stop collecting at half the client deadline rather than run on unseen.
        kwargs.setdefault("timeout", self.deadlines.server_timeout(timeout, aggregations=optional_aggs))
        if not optional_aggs:
            resp = self.timed(timeout).search(**kwargs)
        else:
            try:  # a busy cluster that cannot answer in time: what can be done without is left out
                resp = self.timed(self.deadlines.optional_call(timeout)).search(**kwargs)
            except elastic_transport.ConnectionTimeout as exc:
                raise OptionalTimedOut(f"Elasticsearch did not answer the optional aggregations in time: {exc}") from exc
        if resp.body.get("timed_out"):
            # Partial hits and counts would contradict each other on a page (and be cached):
            # an overloaded cluster answers 503 or the last good answer instead.
            raise (OptionalTimedOut if optional_aggs else TimedOut)(
                "Elasticsearch ran out of time and answered with partial results")
        return resp

    def _hits_first(self, req: SearchRequest) -> SearchResults:
        """The results of ``req``; when its facet counts run out of time, its hits without them. One search
        asks for both, told to stop at the facets budget. A timed-out answer is partial (its hits and counts
        would contradict each other): the hits are then asked for alone with the time left, and the results
        say the facets were left out. Only the hits' own failure (down, hung, out of time) fails the call."""
        body = build_ranked(req)
        if check := breadth.count_body(req, body):  # a broad search's facets are counted on a sample
            body = sample_facets(body, breadth.sample_share(self._search(**check).body["hits"]["total"]["value"]))
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
        return person_pages.label_people(self._searched(req), self.people)  # one read of the people it counts

    def _searched(self, req: SearchRequest) -> SearchResults:
        results = self._hits_first(req)
        if not corrections.may_mean_more(req, results.matched) or corrections.named(
                req, results.matched, [hit.paper for hit in results.hits]):
            return results
        try:
            meant = self._meant(req, results.matched)
        except (TimedOut, BudgetSpent):
            # The hits are what was asked for: a correction or "did you mean" that runs out of time is left out.
            results.left_out = (*results.left_out, LEFT_OUT_SUGGESTIONS)
            return results
        if meant.request is not req:
            results = self._hits_first(meant.request)
        results.corrected_from, results.suggestion = meant.corrected_from, meant.suggestion
        if not meant.corrected_from:
            results.hint = corrections.hint(req.parsed, results.total or results.hidden_total)
        return results

    def _meant(self, req: SearchRequest, matched: int, *, suggest: bool = True) -> Meant:
        """What a request whose words matched few papers means (:func:`corrections.meant`), counted here."""
        return corrections.meant(req, matched, self._count, self._suggested, suggest=suggest)

    def _suggested(self, req: SearchRequest) -> str | None:
        """The phrase suggester's correction of ``req``'s free text (a request of its own), or None."""
        body = build_suggest(req)
        return suggestion(self._search(size=0, suggest=body).body.get("suggest")) if body else None

    def _meant_request(self, req: SearchRequest, matched: int, papers: Sequence[Paper]) -> SearchRequest:
        """The request another read of ``req`` answers for (trends, export, feed follow the search), from the
        papers it matched and the first of them it read."""
        if not corrections.may_mean_more(req, matched) or corrections.named(req, matched, papers):
            return req
        return self._meant(req, matched, suggest=False).request

    def _count(self, req: SearchRequest) -> int:
        """How many papers ``req``'s words match (no hits, facets or highlights fetched)."""
        body = build_search(req, facets=False, highlight=False)
        body.pop("sort", None)
        body.update(size=0, **{"from": 0})
        return self._search(**body).body["hits"]["total"]["value"]

    @translating
    def export(self, req: SearchRequest, limit: int = limits.EXPORT_LIMIT) -> Exported:
        """Up to ``limit`` papers of the result set, in its order, with every field, and the set's size."""
        exported = self._export(req, limit)
        meant = self._meant_request(req, exported.total, exported.papers)
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
        trends, first = self._trends(req)
        meant = self._meant_request(req, trends.total, first)
        return trends if meant is req else self._trends(meant)[0]

    def _trends(self, req: SearchRequest) -> tuple[Trends, list[Paper]]:
        """The trends of ``req``, and its first papers (as many as a search must hold to be told named)."""
        resp = stats.aggregate(self._optional_aggregate,
                               lambda buckets: stats.trends_body(req, buckets, papers=limits.SUGGEST_BELOW))
        return stats.shape_trends(resp), [from_source(h["_source"]) for h in resp["hits"]["hits"]]

    @translating
    def venue_years(self, conference: str, year: int | None = None) -> list[VenueYear]:
        """Venue statistics of a conference's years (or one year), oldest first; [] when none."""
        return stats.shape_venue(conference, stats.aggregate(
            self._aggregate, lambda buckets: stats.venue_body(conference, year, buckets)))

    @translating
    def institutions(self, conference: str, year: int) -> Institutions:
        """Who publishes at a conference-year: its top institutions by listed papers and by oral and spotlight
        papers, each with its papers at the conference per year."""
        found = self._search(**stats.institutions_body(conference, year, limits.TOP_INSTITUTIONS,
                                                       limits.TOP_TIERED_INSTITUTIONS)).body
        top = stats.shape_institutions(conference, year, found)
        if not top.names:  # no affiliations: no trends to read
            return top
        years = self._search(**stats.institution_years_body(conference, top.names)).body
        return stats.shape_institutions(conference, year, found, years)

    @translating
    def feed(self, req: SearchRequest) -> list[Paper]:
        """A page of the result set, without facets, highlights or suggestions (a feed's entries)."""
        entries, total = self._feed(req)
        meant = self._meant_request(req, total, entries)
        return entries if meant is req else self._feed(meant)[0]

    def _feed(self, req: SearchRequest) -> tuple[list[Paper], int]:
        body = build_search(req, facets=False, highlight=False)
        body.pop("suggest", None)
        resp = self._search(**body)
        return [from_source(h["_source"]) for h in resp["hits"]["hits"]], resp["hits"]["total"]["value"]

    @translating
    def venue_map(self, conference: str, year: int) -> VenueMap | None:
        """The stored map of a venue-year (:mod:`.records.venue_maps`), or None."""
        return map_store.load(self._es, self.maps_index, conference, year)

    @translating
    def followed_sources(self) -> list[FollowedSource]:
        """The followed sources and what their last polls found (the freshness page)."""
        return followed_store.all_sources(self._es, self.followed_index)

    @translating
    def map_matches(self, req: SearchRequest, limit: int = limits.MAP_MATCHES) -> Matches:
        """The ids of a search's first ``limit`` papers (what a map highlights), and how many match."""
        body = build_search(req.with_page(1, page_size=limit), facets=False, highlight=False)
        body["_source"] = False
        body.pop("suggest", None)
        resp = self._search(**body)
        return Matches(tuple(h["_id"] for h in resp["hits"]["hits"]), resp["hits"]["total"]["value"])

    def _aggregate(self, body: dict[str, Any], index: str | None = None) -> dict[str, Any]:
        return self._search(index=index, **body).body

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
    def venue_matches(self, works: Sequence[CitedWork]) -> list[VenueMatch]:
        """Each cited work's venue paper, in order (:mod:`.answers.venue_match`): a search of their whole titles
        (VENUE_MATCH_BATCH a search), then an ``msearch`` of cut titles for those it did not find."""
        keys = list(dict.fromkeys(w.key for w in works if venue_match.match_body(w)))
        found: dict[str, list[Paper]] = {}
        for at in range(0, len(keys), limits.VENUE_MATCH_BATCH):
            found.update(venue_match.by_title_key(
                self._search(**venue_match.whole_titles_body(keys[at:at + limits.VENUE_MATCH_BATCH])).body))
        decided = [venue_match.decide(work, found.get(work.key, [])) for work in works]
        again = [i for i, d in enumerate(decided) if d.outcome == venue_match.NOT_FOUND]
        cut = self._candidates([venue_match.match_body(works[i], cut=True) for i in again])
        for i, answer in zip(again, cut, strict=True):
            if answer:
                decided[i] = venue_match.decide(works[i], venue_match.candidates(answer))
        return decided

    def _candidates(self, bodies: Sequence[dict | None]) -> list[dict]:
        """The answers of ``bodies`` in order ({} for None), VENUE_MATCH_BATCH searches a call (each its share of
        the request's budget)."""
        searches = [part for body in bodies if body for part in ({"index": self.alias}, body)]
        batch = 2 * limits.VENUE_MATCH_BATCH
        answers = iter([a for at in range(0, len(searches), batch)
                        for a in self._es.msearch(searches=searches[at:at + batch]).body["responses"]])
        read = [next(answers) if body else {} for body in bodies]
        if failed := next((a["error"] for a in read if "error" in a), None):
            raise SearchFailed(f"a venue match failed: {failed}")
        return read

    @translating
    def suggest(self, prefix: str, size: int = 8) -> list[Suggestion]:
        """Completions for the search box: titles (by their start, then by words anywhere) and authors
        from the index, topics and conferences by name (:mod:`.answers.suggest`)."""
        prefix = _CONTROL.sub(" ", prefix).strip()[:limits.MAX_SUGGEST_PREFIX]
        if not prefix:
            return []
        people = self._aggregate(people_store.completion_body(prefix, PEOPLE_SUGGESTED), self.people_index)
        return shape_suggestions(prefix, self._aggregate(suggest_body(prefix, size)), size,
                                 people_store.shape_completions(people))

    @translating
    def overview(self, newest: int = limits.FRONT_PAGE_PAPERS) -> Overview:
        """Front page: listed papers per conference and year, topics, and the newest conference-year's papers."""
        overview, lead = browse.shape_overview(self._search(**browse.overview_body()).body)
        if lead and newest:
            papers = self._search(**browse.newest_body(*lead, newest))
            overview.newest = [from_source(h["_source"]) for h in papers["hits"]["hits"]]
            overview.newest_venue, overview.newest_count = lead, papers["hits"]["total"]["value"]
        return overview

    @translating
    def author(self, name: str, size: int = limits.AUTHOR_PAGE_PAPERS) -> AuthorProfile:
        """The papers of every spelling of ``name`` that folds to its key (case and accents aside:
        "Remi Munos" and "Rémi Munos" are one page), under its most frequent spelling; rejected and
        withdrawn papers left out and counted apart."""
        key = author_key(name)
        return authors.shape_profile(name, key, self._search(**authors.profile_body(key, size)).body)

    @translating
    def person(self, person_id: str, page: int = 1, size: int = limits.PERSON_PAGE_PAPERS) -> PersonPage | None:
        """A person and a page of their papers (:mod:`.answers.people`), a retired id's successors, or None."""
        return person_pages.person_page(person_id, page, size, search=self._aggregate, many=self.people,
                                        load=partial(people_store.load, self._es, self.people_index))

    @translating
    def people_named(self, name: str) -> list[Person]:
        """The people of a name's block (:func:`~.records.name_keys.block_key`), the most papers first."""
        return people_store.shape_named(self._aggregate(people_store.named_body(block_key(name)), self.people_index))

    @translating
    def people(self, person_ids: Sequence[str]) -> dict[str, Person]:
        """The people of these ids that the people index holds (retired and unknown ids left out)."""
        return people_store.many(self._es, self.people_index, person_ids)

    @translating
    def conference(self, slug: str) -> ConferenceSummary | None:
        """Listed papers per year (as the conference's pages list them), hidden ones counted apart."""
        return browse.shape_conference(slug, self._search(**browse.conference_body(slug)).body)

    @translating
    def ready(self) -> bool:
        es = self.timed(self.deadlines.left(self.deadlines.ready_call)) if self.deadlines else self.es
        return bool(es.indices.exists_alias(name=self.alias))

