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

from . import conferences
from .model import STATUSES

MAX_QUERY = 500
MAX_PAGE_SIZE = 100
MAX_WINDOW = 10_000
MAX_FILTER_VALUES = 20
SORTS = ("relevance", "newest", "oldest", "citations")
MIN_YEAR, MAX_YEAR = 1900, 2100


class InvalidRequest(ValueError):
    """A parameter a client got wrong; the message says which and why (HTTP 400)."""

    def __init__(self, parameter: str, message: str):
        super().__init__(f"{parameter}: {message}")
        self.parameter = parameter
        self.message = message


@dataclass(frozen=True)
class Facet:
    """A filterable, countable field: ``name`` is the URL parameter."""

    name: str
    field: str
    size: int
    label: str


FACETS: tuple[Facet, ...] = (
    Facet("conference", "conference", 60, "Conference"),
    Facet("year", "year", 80, "Year"),
    Facet("topic", "topics", 40, "Topic"),
    Facet("status", "status", 15, "Status"),
    Facet("track", "track", 15, "Track"),
    Facet("keyword", "keywords.raw", 15, "Keyword"),
    Facet("author", "author_names.raw", 15, "Author"),
    Facet("affiliation", "affiliations.raw", 15, "Affiliation"),
    Facet("has_code", "has_code", 2, "Code"),
)
FACET_BY_NAME = {f.name: f for f in FACETS}


@dataclass(frozen=True)
class SearchRequest:
    q: str = ""
    filters: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    years: tuple[tuple[int, int], ...] = ()
    sort: str = "relevance"
    page: int = 1
    page_size: int = 20
    search_after: tuple | None = None

    @property
    def offset(self) -> int:
        return (self.page - 1) * self.page_size

    def selected(self, facet: str) -> tuple[str, ...]:
        if facet == "year":
            return tuple(year_text(r) for r in self.years)
        return self.filters.get(facet, ())

    def with_page(self, page: int) -> SearchRequest:
        return replace(self, page=page, search_after=None)

    def to_params(self, **changes: object) -> list[tuple[str, str]]:
        """Query-string pairs reproducing this request (the state lives in the URL)."""
        pairs: list[tuple[str, str]] = []
        if self.q:
            pairs.append(("q", self.q))
        for facet in FACETS:
            pairs.extend((facet.name, v) for v in self.selected(facet.name))
        if self.sort != "relevance":
            pairs.append(("sort", self.sort))
        if self.page_size != 20:
            pairs.append(("page_size", str(self.page_size)))
        if self.page != 1:
            pairs.append(("page", str(self.page)))
        return pairs


def year_text(span: tuple[int, int]) -> str:
    return str(span[0]) if span[0] == span[1] else f"{span[0]}-{span[1]}"


_YEAR = re.compile(r"^\s*(\d{4})\s*(?:[-–]\s*(\d{4})\s*)?$")


def parse_year(value: str) -> tuple[int, int]:
    match = _YEAR.match(value)
    if not match:
        raise InvalidRequest("year", f"'{value[:40]}' is not a year or a range like 2018-2022")
    lo = int(match.group(1))
    hi = int(match.group(2) or lo)
    if lo > hi:
        lo, hi = hi, lo
    if lo < MIN_YEAR or hi > MAX_YEAR:
        raise InvalidRequest("year", f"'{value[:40]}' is outside {MIN_YEAR}-{MAX_YEAR}")
    return lo, hi


def parse_request(args: Mapping[str, Sequence[str]], *, allow_search_after: bool = False,
                  max_page_size: int = MAX_PAGE_SIZE) -> SearchRequest:
    """Validate query-string values (each a list, since parameters may repeat)."""
    def one(name: str, default: str = "") -> str:
        values = args.get(name) or []
        return values[-1] if values else default

    q = one("q").strip()
    if len(q) > MAX_QUERY:
        raise InvalidRequest("q", f"the query is longer than {MAX_QUERY} characters")
    filters: dict[str, tuple[str, ...]] = {}
    for facet in FACETS:
        # Count what was sent (blanks and repeats too): the limit bounds the request, not the filter.
        if len(args.get(facet.name) or []) > MAX_FILTER_VALUES:
            raise InvalidRequest(facet.name, f"at most {MAX_FILTER_VALUES} values")
        if facet.name == "year":
            continue
        values = [v.strip() for v in args.get(facet.name) or [] if v.strip()]
        if any(len(v) > 300 for v in values):
            raise InvalidRequest(facet.name, "a value is longer than 300 characters")
        if facet.name == "conference":
            values = [slug for slug in map(conferences.canonical_slug, values) if slug]
        elif facet.name == "status":
            bad = [v for v in values if v.lower() not in STATUSES]
            if bad:
                raise InvalidRequest("status", f"'{bad[0][:40]}' is not one of {', '.join(STATUSES)}")
            values = [v.lower() for v in values]
        elif facet.name == "has_code":
            values = [_boolean(v) for v in values]
        if values:
            filters[facet.name] = tuple(dict.fromkeys(values))
    years = tuple(dict.fromkeys(parse_year(v) for v in args.get("year") or [] if v.strip()))
    sort = one("sort", "relevance").lower() or "relevance"
    if sort not in SORTS:
        raise InvalidRequest("sort", f"'{sort[:40]}' is not one of {', '.join(SORTS)}")
    page = _integer("page", one("page", "1"), 1, MAX_WINDOW)
    page_size = _integer("page_size", one("page_size", "20"), 1, max_page_size)
    if page * page_size > MAX_WINDOW:
        hint = "; use search_after to go further" if allow_search_after else ""
        raise InvalidRequest("page", f"results beyond the first {MAX_WINDOW:,} cannot be paged to{hint}")
    after = None
    token = one("search_after")
    if token:
        if not allow_search_after:
            raise InvalidRequest("search_after", "only the JSON API pages with search_after")
        after = decode_cursor(token)
    return SearchRequest(q=q, filters=filters, years=years, sort=sort, page=page, page_size=page_size,
                         search_after=after)


def _integer(name: str, value: str, lo: int, hi: int) -> int:
    try:
        number = int(value.strip())
    except ValueError:
        raise InvalidRequest(name, f"'{value[:40]}' is not a whole number") from None
    if not lo <= number <= hi:
        raise InvalidRequest(name, f"must be between {lo} and {hi:,}")
    return number


def _boolean(value: str) -> str:
    lowered = value.lower()
    if lowered in ("1", "true", "yes", "on"):
        return "true"
    if lowered in ("0", "false", "no", "off"):
        return "false"
    raise InvalidRequest("has_code", f"'{value[:40]}' is not true or false")


def encode_cursor(sort_values: Sequence) -> str:
    raw = json.dumps(list(sort_values), separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(token: str) -> tuple:
    try:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        values = json.loads(raw)
    except (binascii.Error, ValueError, UnicodeDecodeError):
        raise InvalidRequest("search_after", "not a cursor returned by this API") from None
    if not isinstance(values, list) or not 1 <= len(values) <= 4 or not all(
            isinstance(v, (int, float, str)) or v is None for v in values):
        raise InvalidRequest("search_after", "not a cursor returned by this API")
    return tuple(values)
