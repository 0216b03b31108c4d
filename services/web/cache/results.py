"""The result cache in front of Elasticsearch, for pages and the API alike.

:class:`CachedSearch` implements :class:`~services.web.extensions.SiteReads` (the search layer's
:class:`~services.search.reads.SearchReads` and the web's fragments) method by
method, in front of the real service: each cached read names the type of its answer (its
codec, :mod:`.codec`); ``export``, ``like_text``, ``venue_matches`` and ``ready`` pass straight through (too
large, a POSTed text or .bib, or a health check).

* **Key**: the read's name and its arguments rendered canonically (a
  :class:`SearchRequest` as its sorted parameters), plus the index generation read once
  per request (:mod:`.store`). A write to the index bumps the generation, so the next
  request misses and sees the new data.
* **Stale copy**: every answer is also kept under a generation-free key for a day; when
  Elasticsearch is down or too slow (:class:`SearchUnavailable`) that copy is served,
  marked stale, instead of a 503.
* **Written after the answer**: a miss's entry (and its stale copy) is serialised and written once the
  answer has been sent (:func:`~services.web.requestctx.after_sending`), so its client does not wait for the
  serialising (0.15 ms for 20 hits) nor the round trip; the single-flight lock goes with that write.
* **Redis down**: requests are served uncached (``bypass``).
* **Fragments**: HTML the web renders from reads of one request alone (:meth:`CachedSearch.fragment`)
  is kept the same way, so it changes with the generation like the reads it is made of.
* **Incomplete answers** (results whose ``left_out`` names facets or a suggestion that ran out
  of time) are served but never stored: the next request asks again.
* **An earlier answer while the new one is made** (issue 52's cold cliff): a write bumps the
  generation and every cached request misses at once, so an ingest sent the crowd to Elasticsearch
  together. A miss whose stale copy was made in a generation that ended less than
  ``PAPERLIST_CACHE_REFRESH_WINDOW`` seconds ago (0, the default: never) is answered with that copy, marked
  stale, and the request that holds the entry's single-flight lock computes the new answer after
  sending (at most :data:`REFRESHES_IN_FLIGHT` at a time per process; past that it leaves the entry
  to a later request). So an answer may lack the writes of the last window, never older ones, and
  only until its refresh lands. Fragments are rendered in their request, so they are not answered
  this way, and nothing computed from a stale read is kept.

Per request the outcome goes to ``X-Cache`` (``hit``, ``miss``, ``stale``, ``bypass``).
``Cache-Control: no-cache`` on the request skips reading (benchmarks of the uncached path)
but still stores the answer; views whose policy says ``cached_reads=False`` (admin) never
touch the cache.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import math
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from flask import has_request_context, request

from services.search.answers.browse import AuthorProfile, ConferenceSummary, Overview
from services.search.answers.people import PersonPage
from services.search.answers.results import Exported, Matches, SearchResults
from services.search.answers.stats import Institutions, Trends, VenueYear
from services.search.answers.suggest import Suggestion
from services.search.answers.venue_match import CitedWork, VenueMatch
from services.search.engine.boundary import BudgetSpent, Deadlines, start_deadline
from services.search.engine.generation import GenerationRead
from services.search.errors import SearchUnavailable
from services.search.limits import AUTHOR_PAGE_PAPERS, EXPORT_LIMIT, FRONT_PAGE_PAPERS, MAP_MATCHES, PERSON_PAGE_PAPERS
from services.search.query.request import SearchRequest
from services.search.reads import SearchReads
from services.search.records.followed import FollowedSource
from services.search.records.model import Paper
from services.search.records.people import Person
from services.search.records.venue_maps import VenueMap

from .. import policy, requestctx
from ..http import metrics
from ..requestctx import BYPASS, HIT, MISS, STALE
from .codec import Codec, codec_for
from .store import CacheDown, ResultStore

log = logging.getLogger("services.web.cache")

KEY_VERSION = "4"  # bump when the stored shape of an answer changes (4: a stale copy says its generation, issue 52)
REFRESHES_IN_FLIGHT = 2  # per process: answers computed after sending the previous one (the rest of the threads serve)
FRAGMENT = "fragment:"
_UNDECODABLE = object()


class CachedSearch:
    """The app's search reads with the result cache in front of ``service`` (none when ``store`` is None)."""

    def __init__(self, service: SearchReads, store: ResultStore | None, refresh_window: float = 0.0):
        self.service = service
        self.store = store
        self.refresh_window_ms = refresh_window * 1000  # 0: a miss is always answered by Elasticsearch
        self._refreshing = threading.BoundedSemaphore(REFRESHES_IN_FLIGHT)

    # -- cached reads ------------------------------------------------------------------
    def search(self, req: SearchRequest) -> SearchResults:
        return self._read("search", SearchResults, self.service.search, req)

    def trends(self, req: SearchRequest) -> Trends:
        return self._read("trends", Trends, self.service.trends, req)

    def venue_years(self, conference: str, year: int | None = None) -> list[VenueYear]:
        return self._read("venue_years", list[VenueYear], self.service.venue_years, conference, year)

    def institutions(self, conference: str, year: int) -> Institutions:
        return self._read("institutions", Institutions, self.service.institutions, conference, year)

    def feed(self, req: SearchRequest) -> list[Paper]:
        return self._read("feed", list[Paper], self.service.feed, req)

    def venue_map(self, conference: str, year: int) -> VenueMap | None:
        return self._read("venue_map", VenueMap | None, self.service.venue_map, conference, year)

    def followed_sources(self) -> list[FollowedSource]:
        """Never kept: a poll changes the registry without a new generation (the edge keeps it seconds)."""
        return _timed("followed_sources", self.service.followed_sources, ())

    def map_matches(self, req: SearchRequest, limit: int = MAP_MATCHES) -> Matches:
        return self._read("map_matches", Matches, self.service.map_matches, req, limit)

    def paper(self, paper_id: str) -> Paper | None:
        return self._read("paper", Paper | None, self.service.paper, paper_id)

    def papers_by_id(self, paper_ids: Sequence[str]) -> list[Paper]:
        return self._read("papers_by_id", list[Paper], self.service.papers_by_id, tuple(paper_ids))

    def similar(self, paper_id: str, size: int = 6) -> list[Paper]:
        return self._read("similar", list[Paper], self.service.similar, paper_id, size)

    def suggest(self, prefix: str, size: int = 8) -> list[Suggestion]:
        return self._read("suggest", list[Suggestion], self.service.suggest, prefix, size)

    def overview(self, newest: int = FRONT_PAGE_PAPERS) -> Overview:
        return self._read("overview", Overview, self.service.overview, newest)

    def author(self, name: str, size: int = AUTHOR_PAGE_PAPERS) -> AuthorProfile:
        return self._read("author", AuthorProfile, self.service.author, name, size)

    def person(self, person_id: str, page: int = 1, size: int = PERSON_PAGE_PAPERS) -> PersonPage | None:
        return self._read("person", PersonPage | None, self.service.person, person_id, page, size)

    def people_named(self, name: str) -> list[Person]:
        return self._read("people_named", list[Person], self.service.people_named, name)

    def people(self, person_ids: Sequence[str]) -> dict[str, Person]:
        return self._read("people", dict[str, Person], self.service.people, tuple(person_ids))

    def conference(self, slug: str) -> ConferenceSummary | None:
        return self._read("conference", ConferenceSummary | None, self.service.conference, slug)

    # -- the web's own fragments ----------------------------------------------------------
    def fragment(self, name: str, req: SearchRequest, render: Callable[[SearchRequest], str]) -> str:
        """HTML the web renders from reads of ``req`` alone (a search's trends, asked when a results page's section
        is opened), kept like a read: the same generation key, single flight and stale copy."""
        return self._read(f"{FRAGMENT}{name}", str, render, req)

    # -- passed through ----------------------------------------------------------------
    def export(self, req: SearchRequest, limit: int = EXPORT_LIMIT) -> Exported:
        return self.service.export(req, limit)

    def like_text(self, req: SearchRequest, text: str) -> SearchResults:
        return self.service.like_text(req, text)

    def venue_matches(self, works: Sequence[CitedWork]) -> list[VenueMatch]:
        return self.service.venue_matches(works)

    def ready(self) -> bool:
        return self.service.ready()

    # -- the cache -----------------------------------------------------------------------
    def _read(self, name: str, kind: Any, call: Callable, *args: Any) -> Any:
        if self.store is None or not has_request_context() or not policy.current().cached_reads:
            return _timed(name, call, args)
        req = next((a for a in args if isinstance(a, SearchRequest)), None)
        return self._through_cache(name, codec_for(kind), call, args, req)

    def _through_cache(self, name: str, codec: Codec, call: Callable, args: tuple, req: SearchRequest | None) -> Any:
        store = self.store
        assert store is not None
        state = requestctx.current()
        gen = store.generation()
        if gen is None:  # Redis unavailable
            state.note(BYPASS)
            return _timed(name, call, args)
        digest = digest_of(name, args)
        key = store.fresh_key(gen.number, digest)
        leader = False
        if not no_cache_requested():
            try:
                leader, raw = store.get_or_lead(key)
                if raw is None:
                    previous = self._previous(name, codec, gen, digest, req)
                    if previous is not _UNDECODABLE:
                        self._refresh_after_sending(name, call, args, codec, key, digest, gen, leader)
                        state.note(STALE)
                        return previous
                if raw is None and not leader:
                    raw = store.wait(key, _wait_limit())
            except CacheDown as exc:
                store.failed(exc)
                state.note(BYPASS)
                return _timed(name, call, args)
            if raw is not None:
                value = _decoded(codec, raw, req)
                if value is not _UNDECODABLE:
                    state.note(HIT)
                    return value
            outcome = MISS
        else:
            outcome = BYPASS
        stale_before = state.cache_outcomes.count(STALE)
        try:
            value = _timed(name, call, args)
        except SearchUnavailable:
            if leader:
                store.quietly(store.release, key)
            copy = store.quietly(store.stale, store.stale_key(digest))
            stale = _UNDECODABLE if copy is None else _decoded(codec, copy[1], req)
            if stale is _UNDECODABLE:
                raise
            state.note(STALE)
            return stale
        except Exception:
            if leader:
                store.quietly(store.release, key)
            raise
        if getattr(value, "left_out", ()) or state.cache_outcomes.count(STALE) > stale_before:
            # Hits without what ran out of time (facets, a suggestion), or a fragment rendered from a stale
            # read: shown once, never kept.
            if leader:
                store.quietly(store.release, key)
        else:  # serialised and stored once the answer is sent (reads are not changed after they return)
            requestctx.after_sending(lambda: _keep(store, key, digest, codec.dumps(value), gen))
        state.note(outcome)
        return value

    def _previous(self, name: str, codec: Codec, gen: GenerationRead, digest: str, req: SearchRequest | None) -> Any:
        """An earlier generation's answer of a read that missed (its stale copy) when that generation ended
        within the refresh window (:attr:`refresh_window_ms`), so the answer lacks no write older than the
        window; else ``_UNDECODABLE``. Nothing is read unless some write was that recent."""
        window = self.refresh_window_ms
        if not window or gen.age_ms is None or gen.age_ms > window or name.startswith(FRAGMENT):
            return _UNDECODABLE
        store = self.store
        assert store is not None
        copy = store.stale(store.stale_key(digest))
        if copy is None or copy[0] >= gen.number:
            return _UNDECODABLE
        ended = store.ended_ms_ago(copy[0])
        return _UNDECODABLE if ended is None or ended > window else _decoded(codec, copy[1], req)

    def _refresh_after_sending(self, name: str, call: Callable, args: tuple, codec: Codec, key: str, digest: str,
                               gen: GenerationRead, leader: bool) -> None:
        """The new answer of an entry answered with its previous one, computed once the answer is sent by the
        request holding its lock, with a search budget of its own; without a free refresh slot the lock goes
        and a later request tries again."""
        store = self.store
        assert store is not None
        if not leader:
            return
        if not self._refreshing.acquire(blocking=False):
            store.quietly(store.release, key)
            return

        def refresh() -> None:
            try:
                start_deadline(Deadlines.search)
                value = _timed(name, call, args)
                if getattr(value, "left_out", ()):
                    store.quietly(store.release, key)
                else:
                    _keep(store, key, digest, codec.dumps(value), gen)
            except Exception:
                store.quietly(store.release, key)
                raise
            finally:
                self._refreshing.release()

        requestctx.after_sending(refresh)


def _keep(store: ResultStore, key: str, digest: str, raw: bytes, gen: GenerationRead) -> None:
    """An answer made in ``gen``: its entry (kept no longer than the settling window), its stale copy, its lock gone."""
    store.quietly(store.store, key, store.stale_key(digest), raw, gen.settle_ms, _reflected(gen))


def _reflected(gen: GenerationRead) -> int:
    """The generation whose every write an answer made now is sure to reflect: the one before while the
    last write may not be searchable yet (settling), so a copy never looks younger than its data."""
    return gen.number - 1 if gen.settle_ms else gen.number


def _wait_limit() -> float:
    """How long an identical miss may wait for its leader: what the request's budget has left (it started
    at the front, services.web.http.queueing; the store caps it with its own wait); none once spent."""
    try:
        return Deadlines().left(math.inf)
    except BudgetSpent:
        return 0.0


def no_cache_requested() -> bool:
    return "no-cache" in (request.headers.get("Cache-Control") or "").lower()


def _decoded(codec: Codec, raw: bytes, req: SearchRequest | None) -> Any:
    try:
        return codec.loads(raw, req)
    except ValueError:  # pydantic's ValidationError: an entry of an older shape, or garbage
        log.warning("result cache: dropping an entry that does not decode")
        return _UNDECODABLE


def _timed(name: str, call: Callable, args: tuple) -> Any:
    started = time.perf_counter()
    try:
        return call(*args)
    finally:
        metrics.observe_search(name, time.perf_counter() - started)


def _canonical(value: Any) -> Any:
    if isinstance(value, SearchRequest):
        out = {}
        for f in dataclasses.fields(value):
            if not f.compare:
                continue
            item = getattr(value, f.name)
            if f.name == "filters":
                item = {facet: sorted(value.selected(facet)) for facet in sorted(item)}
            out[f.name] = item
        return out
    return value


def digest_of(name: str, args: tuple) -> str:
    """The cache key's digest of a read: its name and its arguments, canonically."""
    text = json.dumps([KEY_VERSION, name, [_canonical(a) for a in args]],
                      separators=(",", ":"), ensure_ascii=False, default=repr)
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()
