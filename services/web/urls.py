"""Every URL the web builds: absolute ones from ``PAPERLIST_PUBLIC_URL``, a search's URL with
parameters changed, a facet value toggled, the page a changed selection goes to, a feed's URL.

Absolute URLs never come from the request's ``Host`` header: a forged ``Host`` must not
reach answers that caches and exports keep. Templates call these as globals
(:mod:`.render.templating`); views and renderers import them.

A results page links thousands of variations of its own search (facet toggles, chart
bars and cells): each request's parameters are encoded once (:class:`PreparedQuery`, one
per request and path for the current request) and a link is the concatenation of
pre-encoded parts, not an ``urlencode`` of every pair per link (issue 17: 7,340 of them
per page were a third of its render). The output is what ``urlencode`` gives, byte for byte,
with the parameters in the canonical order (:func:`canonical_order`), the one the edge
keys by (:mod:`services.web.http.canonical`): the URL a visitor sees and shares is the one
form of its search.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from operator import itemgetter
from typing import TypeVar
from urllib.parse import quote, quote_plus

from flask import current_app, g, has_request_context, request, url_for

from services.search.query.request import SearchRequest
from services.search.records.model import Paper

API_PREFIX = "/api/"  # paths that answer JSON, errors included (the contract's error envelope)
SEARCH_ENDPOINT = "pages.search"
NEW_ENDPOINT = "pages.new"  # /new narrows within its own window, as /search does
PAPER_ENDPOINT = "pages.paper"
PERSON_ENDPOINT = "people.page"
AUTHOR_ENDPOINT = "pages.author"
_SEGMENT_SAFE = "!$&'()*+,/:;=@"  # what the URL map's default converter leaves unquoted in a path segment
Pair = TypeVar("Pair", bound=tuple)  # (name, ...): a decoded value, or the pair already encoded
_NAME = itemgetter(0)


def canonical_order(pairs: Iterable[Pair]) -> list[Pair]:
    """Query-string ``pairs`` in canonical order: by parameter name (their first item), stably,
    so a repeated parameter's values keep their order.

    The one ordering of the web: the links built here and the canonical query of a request
    (:func:`services.web.http.canonical.canonical_query`) both use it, so they cannot disagree.
    """
    return sorted(pairs, key=_NAME)


def is_api_path(path: str) -> bool:
    return path.startswith(API_PREFIX)


def public_url(path: str = "") -> str:
    """``path`` on the site's public base URL (PAPERLIST_PUBLIC_URL, kept without a trailing slash)."""
    return current_app.config["SETTINGS"].public_url + path


def absolute_url(endpoint: str, **values: object) -> str:
    return public_url(url_for(endpoint, **values))


def paper_path(paper_id: str) -> str:
    """``url_for(PAPER_ENDPOINT, paper_id=paper_id)``, with the path before the id built once per request:
    a result list links each of its hits, and through the URL map each link cost 12 us (20 hits: a
    tenth of an uncached API search's own time)."""
    prefix = g.get("paper_path_prefix")
    if prefix is None:
        prefix = g.paper_path_prefix = url_for(PAPER_ENDPOINT, paper_id="-").removesuffix("-")
    return prefix + quote(paper_id, safe=_SEGMENT_SAFE)


def person_path(person_id: str) -> str:
    """``url_for(PERSON_ENDPOINT, person_id=person_id)``, the path before the id built once per request (as
    :func:`paper_path`: a results page links every author of every hit)."""
    prefix = g.get("person_path_prefix")
    if prefix is None:
        prefix = g.person_path_prefix = url_for(PERSON_ENDPOINT, person_id="-").removesuffix("-")
    return prefix + quote(person_id, safe=_SEGMENT_SAFE)


def author_path(paper: Paper, place: int) -> str:
    """Where the author at ``place`` of ``paper`` leads: their person's page, else (undecided) the page of the name."""
    person = paper.person_of(place)
    return person_path(person) if person else url_for(AUTHOR_ENDPOINT, name=paper.authors[place].name)


class PreparedQuery:
    """A request's query string on a path, encoded once; :meth:`changed` builds its variations."""

    def __init__(self, path: str, req: SearchRequest):
        self.path = path
        self.req = req
        self.parts = canonical_order((k, _pair(k, v)) for k, v in req.to_params())
        self.selected: dict[str, tuple[str, ...]] = {}
        self._encoded: dict[tuple[str, str], str] = {}

    def changed(self, changes: Mapping[str, object]) -> str:
        """The URL with some parameters changed (None removes one; a list or tuple repeats it),
        its parameters in canonical order."""
        parts = [pair for pair in self.parts if pair[0] not in changes]
        kept = len(parts)
        for key, value in changes.items():
            if value is None:
                continue
            for v in value if isinstance(value, (list, tuple)) else (value,):
                text = str(v)
                encoded = self._encoded.get((key, text))
                if encoded is None:
                    encoded = self._encoded[(key, text)] = _pair(key, text)
                parts.append((key, encoded))
        if len(parts) > kept:
            parts = canonical_order(parts)  # the kept ones are in order already
        return f"{self.path}?{'&'.join(part for _, part in parts)}" if parts else self.path

    def selected_of(self, facet: str) -> tuple[str, ...]:
        found = self.selected.get(facet)
        if found is None:
            found = self.selected[facet] = self.req.selected(facet)
        return found


def _pair(key: str, value: str) -> str:
    return f"{quote_plus(key)}={quote_plus(value)}"


def prepared(path: str, req: SearchRequest) -> PreparedQuery:
    """``req`` on ``path`` encoded once per request (kept on the request's ``g``; made anew outside one)."""
    if not has_request_context():
        return PreparedQuery(path, req)
    kept: dict[tuple[int, str], PreparedQuery] = g.setdefault("paperlist_queries", {})
    found = kept.get((id(req), path))
    if found is None or found.req is not req:
        found = kept[(id(req), path)] = PreparedQuery(path, req)
    return found


def url_with(path: str, req: SearchRequest, **changes: object) -> str:
    """URL of ``req`` with some parameters changed (None removes one)."""
    return prepared(path, req).changed(changes)


def results_path() -> str:
    """Where a changed selection is shown: a browse page's own filters become ordinary ones of
    /search, so the page is never headed "NeurIPS 2017" while it lists something else."""
    return request.path if request.endpoint in (SEARCH_ENDPOINT, NEW_ENDPOINT) else url_for(SEARCH_ENDPOINT)


def toggle(req: SearchRequest, facet: str, value: str) -> str:
    """URL with one facet value added or removed (facet clicks go back to page 1)."""
    query = prepared(results_path(), req)
    selected = query.selected_of(facet)
    selected = tuple(v for v in selected if v != value) if value in selected else (*selected, value)
    return query.changed({facet: selected or None, "page": None})


def query_url(path: str, pairs: Iterable[tuple[str, str]]) -> str:
    """``path`` with these parameters (decoded name, value), in canonical order and encoding."""
    parts = [_pair(k, v) for k, v in canonical_order(pairs)]
    return f"{path}?{'&'.join(parts)}" if parts else path


def list_url(paper_ids: Iterable[str]) -> str:
    """The shareable reading list of these papers (``/list?ids=a,b``), or the empty list's page."""
    ids = ",".join(paper_ids)
    return query_url(url_for("lists.page"), [("ids", ids)] if ids else [])


def similar_url(req: SearchRequest, text: str) -> str:
    """The ``/similar`` page of a text and its filters, as a link (GET); the page's order is the text's own."""
    return url_with(url_for("like_text.page"), req, mode=None, text=text)


def feed_url(req: SearchRequest) -> str:
    """The Atom feed of a search (order and paging are the feed's own); of /new's window, /new.atom."""
    return url_with(url_for("feeds.new_feed" if req.added else "feeds.search_feed"), req, page=None, sort=None,
                    page_size=None)
