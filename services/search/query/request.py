"""The search request as a typed value, validated once at the boundary.

The web turns query-string parameters into a :class:`SearchRequest`; query building
and result shaping only ever see this object.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta, timezone
from functools import cached_property
from typing import Any

from services.search.errors import InvalidRequest, QueryTooLong
from services.search.limits import (
    DEFAULT_PAGE_SIZE,
    MAX_PAGE_SIZE,
    MAX_QUERY,
    MAX_SINCE,
    MAX_SINCE_DAYS,
    MAX_WINDOW,
)

from .facets import FACETS, Facet, FacetRegistry
from .query_language import ParsedQuery, parse
from .reading import QueryReading, read
from .sorting import DEFAULT_SORT, SORTS, cursor_fits, effective_sort

# /new's windows: the days parameter and its value in SearchRequest.added; "since" goes back at most a year.
ADDED_WINDOWS = {"7": "7d", "30": "30d"}
DEFAULT_DAYS = "7"
# The values of an on/off parameter (``autocorrect``).
SWITCH = {"1": True, "true": True, "on": True, "0": False, "false": False, "off": False}
# How results are ranked: BM25 on the words, kNN on the query's embedding, or both summed.
MODES = ("lexical", "semantic", "hybrid")
DEFAULT_MODE = "lexical"


@dataclass(frozen=True)
class SearchRequest:
    """What to search: query text, facet selections (parsed values per facet name), order and page.

    ``facets`` is the registry the selections belong to: the app's :data:`FACETS` unless a
    caller (a test) brings its own; it takes no part in equality. ``counted`` names the
    facets to count: ``None`` is the registry's default ones plus any with a selection.
    """

    q: str = ""
    filters: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)
    sort: str = DEFAULT_SORT
    page: int = 1
    page_size: int = DEFAULT_PAGE_SIZE
    search_after: tuple | None = None
    mode: str = DEFAULT_MODE
    facets: FacetRegistry = field(default=FACETS, compare=False, repr=False)
    counted: tuple[str, ...] | None = None
    # Papers added or changed lately only (/new): "7d" or "30d" (the last days), or an ISO 8601 date or time
    # ("new since your last visit", cookie-free); never read from /search's own parameters.
    added: str = ""
    autocorrect: bool = True  # a query that finds nothing shows its correction's papers ("search instead": False)
    # Set by the search itself, never by a URL: the last word also matches the words it starts, when
    # the words as typed found too little (the person is still typing it: "direct preference optim").
    expand_last: bool = False

    @cached_property
    def parsed(self) -> ParsedQuery:
        """``q`` parsed once per request."""
        return parse(self.q)

    @cached_property
    def reading(self) -> QueryReading:
        """``q`` read once per request (its title and name keys, its cut last word, its splits): the text query,
        the ranking, the body, kNN and the answers all read this."""
        return read(self.parsed, self.q)

    @cached_property
    def counted_facets(self) -> tuple[Facet, ...]:
        """The facets whose values this search counts, in registry order (the body asks four times)."""
        names = set(self.counted if self.counted is not None else self.facets.counted_by_default)
        return tuple(f for f in self.facets if f.name in names or (self.counted is None and f.name in self.filters))

    @property
    def offset(self) -> int:
        return (self.page - 1) * self.page_size

    def selected(self, facet: str) -> tuple[str, ...]:
        """The selected values of a facet in their URL form."""
        values = self.filters.get(facet, ())
        return tuple(self.facets[facet].text(v) for v in values)

    def with_page(self, page: int, **changes: Any) -> SearchRequest:
        """Page ``page`` of this search (its cursor dropped), with any other ``changes`` (``page_size=0``)."""
        return replace(self, page=page, search_after=None, **changes)

    def counting(self, facet: str) -> SearchRequest:
        """The same search also counting ``facet`` (an on-demand facet the user opened)."""
        names = (*(f.name for f in self.counted_facets), facet)
        return replace(self, counted=tuple(f.name for f in self.facets if f.name in names))

    def without_filters(self) -> SearchRequest:
        return self.with_page(1, filters={})

    def to_params(self) -> list[tuple[str, str]]:
        """Query-string pairs reproducing this request (the state lives in the URL)."""
        pairs: list[tuple[str, str]] = []
        if self.q:
            pairs.append(("q", self.q))
        for facet in self.facets:
            pairs.extend((facet.name, v) for v in self.selected(facet.name))
        if self.sort != DEFAULT_SORT:
            pairs.append(("sort", self.sort))
        if self.mode != DEFAULT_MODE:
            pairs.append(("mode", self.mode))
        if self.page_size != DEFAULT_PAGE_SIZE:
            pairs.append(("page_size", str(self.page_size)))
        if self.page != 1:
            pairs.append(("page", str(self.page)))
        if self.counted is not None:
            pairs.append(("facets", ",".join(self.counted)))
        if not self.autocorrect:
            pairs.append(("autocorrect", "0"))
        if self.added:
            pairs.append(("days", self.added[:-1]) if self.added in ADDED_WINDOWS.values() else ("since", self.added))
        return pairs


def parse_request(args: Mapping[str, Sequence[str]], *, allow_search_after: bool = False,
                  max_page_size: int = MAX_PAGE_SIZE, facets: FacetRegistry = FACETS) -> SearchRequest:
    """Validate query-string values (each a list, since parameters may repeat)."""
    def one(name: str, default: str = "") -> str:
        values = args.get(name) or []
        return values[-1] if values else default

    q = one("q").strip()
    if len(q) > MAX_QUERY:
        raise QueryTooLong(q, MAX_QUERY)  # never cut mid-word into a search for half a word
    filters: dict[str, tuple[Any, ...]] = {}
    for facet in facets:
        values = facet.parse(args.get(facet.name) or [])
        if values:
            filters[facet.name] = values
    sort = one("sort", DEFAULT_SORT).lower() or DEFAULT_SORT
    if sort not in SORTS:
        raise InvalidRequest("sort", f"'{sort[:40]}' is not one of {', '.join(SORTS)}")
    mode = one("mode", DEFAULT_MODE) or DEFAULT_MODE
    if mode not in MODES:
        raise InvalidRequest("mode", f"'{mode[:40]}' is not one of {', '.join(MODES)}")
    page = number_in_range("page", one("page", "1"), 1, MAX_WINDOW)
    page_size = number_in_range("page_size", one("page_size", str(DEFAULT_PAGE_SIZE)), 1, max_page_size)
    if page * page_size > MAX_WINDOW:
        hint = "; use search_after to go further" if allow_search_after else ""
        raise InvalidRequest("page", f"results beyond the first {MAX_WINDOW:,} cannot be paged to{hint}")
    autocorrect = one("autocorrect", "1").lower()
    if autocorrect not in SWITCH:
        raise InvalidRequest("autocorrect", f"'{autocorrect[:40]}' is not one of {', '.join(SWITCH)}")
    req = SearchRequest(q=q, filters=filters, sort=sort, page=page, page_size=page_size, mode=mode,
                        facets=facets, counted=_counted(args.get("facets"), facets), autocorrect=SWITCH[autocorrect])
    token = one("search_after")
    if not token:
        return req
    if not allow_search_after:
        raise InvalidRequest("search_after", "only the JSON API pages with search_after")
    if mode != DEFAULT_MODE:
        raise InvalidRequest("search_after", f"mode={mode} pages with page, not search_after")
    return replace(req, search_after=decode_cursor(token, sort, not req.parsed.is_empty))


def parse_added(days: str | None, since: str | None) -> str:
    """/new's window: ``days`` (7 or 30; default 7) or ``since`` (an ISO 8601 date or time, at most a year back)."""
    if since:
        if len(since) > MAX_SINCE:
            raise InvalidRequest("since", f"must be at most {MAX_SINCE} characters (an ISO 8601 date or time)")
        try:
            when = datetime.fromisoformat(since.strip().replace("Z", "+00:00"))
        except ValueError:
            raise InvalidRequest("since", "must be an ISO 8601 date or time, such as 2026-05-01 or "
                                          "2026-05-01T12:00:00Z") from None
        when = when if when.tzinfo else when.replace(tzinfo=timezone.utc)
        if when < datetime.now(timezone.utc) - timedelta(days=MAX_SINCE_DAYS):
            raise InvalidRequest("since", f"must be within the last {MAX_SINCE_DAYS} days")
        return when.astimezone(timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")
    chosen = (days or DEFAULT_DAYS).strip()
    if chosen not in ADDED_WINDOWS:
        raise InvalidRequest("days", f"must be one of {', '.join(ADDED_WINDOWS)}")
    return ADDED_WINDOWS[chosen]


def _counted(raw: Sequence[str] | None, facets: FacetRegistry) -> tuple[str, ...] | None:
    """The ``facets`` parameter (comma-separated, repeatable) as facet names; None when absent."""
    if raw is None:
        return None
    names = [n.strip().lower() for value in raw for n in value.split(",") if n.strip()]
    for name in names:
        if name not in facets:
            raise InvalidRequest("facets", f"'{name[:40]}' is not one of {', '.join(facets.names)}")
    return tuple(dict.fromkeys(names))


_DIGITS = re.compile(r"[0-9]+")  # ASCII only: int() also takes "1_0", "+1", " 1" and "٢"
_HUGE = 10**18  # what a number of more digits reads as: beyond every limit, never a long conversion


def whole_number(text: str) -> int | None:
    """``text`` as the API reads a number (ASCII digits only, no sign, blank or "_"), else None.

    The one digit rule of every parameter (``page``, ``page_size``) wherever it is read.
    """
    if not _DIGITS.fullmatch(text):
        return None
    digits = text.lstrip("0")
    return int(digits or "0") if len(digits) <= 18 else _HUGE


def number_in_range(name: str, value: str, lo: int, hi: int) -> int:
    """``value`` as a whole number from ``lo`` to ``hi``, else :class:`InvalidRequest` naming ``name``."""
    number = whole_number(value)
    if number is None:
        raise InvalidRequest(name, f"'{value[:40]}' is not a whole number (digits 0-9 only)")
    if not lo <= number <= hi:
        raise InvalidRequest(name, f"must be between {lo} and {hi:,}")
    return number


def encode_cursor(sort: str, sort_values: Sequence) -> str:
    """An opaque ``search_after`` token: the sort's name and the last hit's sort values."""
    raw = json.dumps([sort, *sort_values], separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(token: str, sort: str, has_text: bool) -> tuple:
    """The sort values of a cursor made for ``sort``, checked against that order's keys before any search."""
    forged = InvalidRequest("search_after", f"not a cursor returned by this API for sort={sort}")
    try:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        values = json.loads(raw)
    except (binascii.Error, ValueError, UnicodeDecodeError, RecursionError):
        raise forged from None
    if not isinstance(values, list) or not values or values[0] != sort:
        raise forged
    if not cursor_fits(effective_sort(sort, has_text), values[1:]):
        raise forged
    return tuple(values[1:])
