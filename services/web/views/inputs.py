"""The request as typed values: a validated :class:`SearchRequest`, a similar request and its
text, a format chosen from a table, the paper or the person a URL names, the venues that have papers, a reading
list's ids, a typed score.

Every view reads its input through these, so a parameter means the same on every route
(one digit rule, one page clamp, one set of messages); a bad value is
:class:`InvalidRequest`, a 400 with a message that says which and why. A conference a URL
names must have papers here: the list of those is finite and known (the index's), so a
slug that names none is a 400 that lists them, never an empty answer that looks like a
search's (nor a facet value made up from the slug).
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Mapping
from dataclasses import replace
from typing import Any, TypeVar

from flask import abort, request
from pydantic import BaseModel, ConfigDict, Field, StrictBool, ValidationError
from werkzeug.datastructures import MultiDict

from services.search.answers.browse import ConferenceSummary
from services.search.answers.people import PersonPage
from services.search.answers.stats import VenueYear
from services.search.catalogue import venues
from services.search.errors import InvalidRequest
from services.search.limits import (
    DEFAULT_PAGE_SIZE,
    LIST_IDS_PATTERN,
    MAX_AUTHOR_NAME,
    MAX_LIST_PAPERS,
    MAX_PAGE_SIZE,
    MAX_PAPER_ID,
    MAX_SIMILAR_TEXT,
    MAX_SOURCE_URL,
    MAX_SUGGEST_PREFIX,
    MAX_WINDOW,
    MAX_YEAR,
    MIN_YEAR,
    PAPER_ID_PATTERN,
    PERSON_PAGE_PAPERS,
)
from services.search.query.facets import FACETS
from services.search.query.request import SearchRequest, number_in_range, parse_added, parse_request, whole_number
from services.search.records.model import Paper
from services.search.records.people import is_person_id

from .. import extensions

SIMILAR_PAGING = ("page", "page_size")
"""Keys a similar request takes besides ``text`` and the facets (no q, sort or mode: the text ranks)."""


def search_request(*, api: bool = False, args: MultiDict | None = None, **overrides: list[str]) -> SearchRequest:
    """The query string as a search; browse pages pass ``overrides`` (their conference, year or topic)
    on top of the URL's filters. Only the API pages with ``search_after``."""
    source = request.args if args is None else args
    values = {key: source.getlist(key) for key in source}
    for key, extra in overrides.items():
        values[key] = list(dict.fromkeys([*values.get(key, []), *extra]))
    req = parse_request(values, allow_search_after=api)
    _with_papers(FACETS["conference"].parse(source.getlist("conference")))  # a browse page's own slug is its view's
    return req


def new_request(*, api: bool = False) -> SearchRequest:
    """/new's search: any search's parameters, within ``days`` (7 or 30) or ``since`` (a time: cookie-free "new
    since your last visit"), the most recently added first unless another order is asked for."""
    req = search_request(api=api) if api else page_request()
    added = parse_added(request.args.get("days"), request.args.get("since"))
    return replace(req, added=added, sort="added" if "sort" not in request.args else req.sort)


def page_request(**overrides: list[str]) -> SearchRequest:
    """A page's search; a page beyond the paging window is clamped to the deepest one (the view redirects)."""
    page = whole_number(request.args.get("page", "").strip())
    if page is not None and page > 1:
        size = whole_number(request.args.get("page_size", "").strip())
        deepest = MAX_WINDOW // (size if size else DEFAULT_PAGE_SIZE)
        if page > deepest:
            args = request.args.copy()
            args["page"] = str(deepest)
            return search_request(args=args, **overrides)
    return search_request(**overrides)


def asks_other_page(req: SearchRequest) -> bool:
    """Does the URL name its page otherwise than ``req`` reads it (clamped, or spelled "02")?"""
    requested = request.args.get("page", "1").strip()
    return whole_number(requested) is not None and requested != str(req.page)


def one_venue_year(req: SearchRequest) -> tuple[str, int] | None:
    """The conference-year a search is narrowed to (one conference and one single year selected), if any."""
    chosen, years = req.selected("conference"), req.filters.get("year", ())
    if len(chosen) == 1 and len(years) == 1 and years[0][0] == years[0][1]:
        return venues.canonical_slug(chosen[0]), years[0][0]
    return None


def one_of(name: str, choices: Collection[str], default: str, *, blank_is_default: bool = False) -> str:
    """A parameter that names one of ``choices`` (case-insensitive), ``default`` when absent."""
    value = request.args.get(name, default).lower()
    if blank_is_default and not value:
        value = default
    if value not in choices:
        raise InvalidRequest(name, f"'{value[:20]}' is not one of {', '.join(choices)}")
    return value


def suggest_prefix() -> str:
    q = request.args.get("q", "")
    if len(q) > MAX_SUGGEST_PREFIX:
        raise InvalidRequest("q", f"suggestions take at most {MAX_SUGGEST_PREFIX} characters")
    return q


def paper_or_404(paper_id: str) -> Paper:
    """The paper a URL names (ids longer than any are cut, then not found)."""
    found = extensions.reads().paper(paper_id[:MAX_PAPER_ID])
    if not found:
        abort(404, description=f"No paper with id '{paper_id[:MAX_PAPER_ID]}'.")
    return found


def person_or_404(person_id: str, *, size: int = PERSON_PAGE_PAPERS) -> PersonPage:
    """The page of the person a URL names, at the URL's ``page`` (``size`` papers a page): a 404 with a message for
    an id that is not one in form (never looked up) or that no person ever had."""
    if not is_person_id(person_id):
        abort(404, description=f"'{person_id[:40]}' is not a person id (a person's address is /people/p and 12 "
                               "hex digits).")
    found = extensions.reads().person(person_id, _integer_arg("page", 1, MAX_WINDOW) or 1, size)
    if not found:
        abort(404, description=f"No person with the id '{person_id}'.")
    return found


def person_page_size() -> int:
    """The API's ``page_size`` of a person's papers (the site's pages list PERSON_PAGE_PAPERS)."""
    return _integer_arg("page_size", 1, MAX_PAGE_SIZE) or PERSON_PAGE_PAPERS


def _integer_arg(name: str, lo: int, hi: int) -> int | None:
    """A whole-number parameter within [lo, hi] (absent or blank: None); anything else is a 400."""
    text = request.args.get(name, "").strip()
    return number_in_range(name, text, lo, hi) if text else None


def author_name() -> str:
    """The API's ``name`` of the people of a name: required, at most MAX_AUTHOR_NAME characters."""
    name = request.args.get("name")
    if name is None:
        raise InvalidRequest("name", "required: the name whose people to list")
    if len(name) > MAX_AUTHOR_NAME:
        raise InvalidRequest("name", f"at most {MAX_AUTHOR_NAME} characters")
    return name


LIST_IDS = "ids"  # the parameter of a reading list: ids separated by commas (limits.LIST_IDS_PATTERN)
_LIST_IDS = re.compile(LIST_IDS_PATTERN)
_PAPER_ID = re.compile(PAPER_ID_PATTERN)


def paper_ids() -> tuple[str, ...]:
    """The reading list's paper ids, in their order, each once; () when absent."""
    values = request.args.getlist(LIST_IDS)
    for value in values:
        if not _LIST_IDS.match(value):  # the pattern as the OpenAPI document gives it (its $ as Python reads it)
            parts = [part.strip(" ") for part in value.split(",")]
            if len(parts) > MAX_LIST_PAPERS:
                raise InvalidRequest(LIST_IDS, f"a list holds at most {MAX_LIST_PAPERS} papers, not {len(parts):,}")
            bad = next((part for part in parts if part and not _PAPER_ID.fullmatch(part)), value)
            raise InvalidRequest(LIST_IDS, f"'{bad[:40]}' is not a paper id (letters, digits, '-', '.', '_'; at most "
                                           f"{MAX_PAPER_ID} characters)")
    ids = tuple(dict.fromkeys(part.strip(" ") for value in values for part in value.split(",") if part.strip(" ")))
    if len(ids) > MAX_LIST_PAPERS:  # the parameter repeated
        raise InvalidRequest(LIST_IDS, f"a list holds at most {MAX_LIST_PAPERS} papers, not {len(ids):,}")
    return ids


SCORE = "score"  # a typed mean review score (the score box)
MAX_SCORE = 100  # no review scale goes beyond this


def typed_score() -> float | None:
    """The ``score`` parameter as a number ("6.25", or "6,25" as many keyboards type it); None when absent."""
    text = request.args.get(SCORE, "").strip().replace(",", ".")
    if not text:
        return None
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and 0 <= value <= MAX_SCORE) or len(text) > 12:
        raise InvalidRequest(SCORE, f"'{text[:20]}' is not a mean score: give a number such as 6.25")
    return value


def venue_year_or_404(slug: str, year: int) -> VenueYear:
    """The statistics of the conference-year a URL names (any spelling of its slug), or a 404."""
    slug = venues.canonical_slug(slug)
    found = extensions.reads().venue_years(slug, year) if slug and MIN_YEAR <= year <= MAX_YEAR else []
    if not found:
        abort(404, description=f"We have no papers from {venues.label(slug) if slug else 'that venue'} {year}.")
    return found[0]


def api_venue_year(slug: str, year: int) -> str:
    """The conference slug of an API path's venue-year (any spelling: ``NIPS`` is ``neurips``), empty when
    the path's text has no slug in it; a year out of range is a 400."""
    if not MIN_YEAR <= year <= MAX_YEAR:
        raise InvalidRequest("year", f"must be between {MIN_YEAR} and {MAX_YEAR}")
    return venues.canonical_slug(slug)


def similar_text(value: Any) -> str:
    """The text to embed; one without words (only spaces, say) is valid and finds nothing."""
    if not isinstance(value, str) or not value:
        raise InvalidRequest("text", "give the text to find similar papers for (a non-empty string)")
    if len(value) > MAX_SIMILAR_TEXT:
        raise InvalidRequest("text", f"the text is longer than {MAX_SIMILAR_TEXT:,} characters")
    # JSON may carry lone surrogates ("\udc00"), which no tokenizer takes: they become U+FFFD.
    return value.encode("utf-8", "surrogatepass").decode("utf-8", "replace")


def similar_request(params: Mapping[str, Any], *, form: bool = False) -> SearchRequest:
    """The filters and paging of a similar request, validated like the search's query string.

    JSON bodies give page and page_size as numbers; a ``form`` gives every value as text.
    """
    allowed = {*SIMILAR_PAGING, *(facet.name for facet in FACETS)}
    args: dict[str, list[str]] = {}
    for key, value in params.items():
        if key == "text":
            continue
        if key not in allowed:
            raise InvalidRequest(key, f"not a filter; use text, {', '.join(SIMILAR_PAGING)} or a facet name")
        if key in SIMILAR_PAGING and not form:  # JSON numbers, as the OpenAPI document says
            if isinstance(value, float) and value.is_integer():
                value = int(value)  # 20.0 is an integer to JSON Schema
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidRequest(key, "give a whole number")
            args[key] = [str(value)]
            continue
        values = value if isinstance(value, list) else [value]
        if not all(isinstance(v, str) for v in values):
            raise InvalidRequest(key, "give a string or a list of strings")
        args[key] = values
    # Ranked by kNN: the semantic mode's paging (page, no search_after cursor).
    req = replace(parse_request(args), mode="semantic")
    _with_papers(req.selected("conference"))
    return req


def venues_with_papers() -> list[ConferenceSummary]:
    """The venues that have papers here: the catalogue's in its order, then any others by name."""
    have = {c.slug: c for c in extensions.reads().overview(newest=0).conferences}
    listed = [have.pop(venue.slug) for venue in venues.KNOWN if venue.slug in have]
    return listed + sorted(have.values(), key=lambda c: c.name.casefold())


def _with_papers(slugs: Collection[str]) -> None:
    """A 400 unless every conference slug has papers here (one cached read each; the list only on a miss)."""
    reads = extensions.reads()
    missing = [slug for slug in slugs if reads.conference(slug) is None]
    if missing:
        named = ", ".join(f"'{slug[:40]}'" + (f" ({venues.label(slug)})" if venues.catalogued(slug) else "")
                          for slug in missing)
        raise InvalidRequest("conference", f"no papers from {named} here; the venues with papers are "
                                           + ", ".join(c.slug for c in venues_with_papers()))


M = TypeVar("M", bound=BaseModel)


class ReindexOptions(BaseModel):
    """The admin API's reindex body; every key is optional."""

    model_config = ConfigDict(extra="forbid")

    from_sources: StrictBool = Field(False, description="Re-read every recorded source (after a change to how "
                                                        "records are normalised) instead of copying the stored papers.")


class SourceToFollow(BaseModel):
    """The admin API's body to follow a source (``POST /api/v1/admin/sources``)."""

    model_config = ConfigDict(extra="forbid")

    url: str = Field(description="An http(s) URL of a paperlists file.", max_length=MAX_SOURCE_URL)
    venue_years: list[str] = Field([], description="The venue-years it lists (CONFERENCE:YEAR); default: read "
                                                   "from its records at the first poll.", max_length=100)
    interval: str = Field("6h", description="How often to poll: 6h, 30m, 2d or seconds.", max_length=20)
    partial: StrictBool = Field(False, description="The file is not the whole list of its venue-years: never prune.")


def json_body(model: type[M]) -> M:
    """The request's JSON body as ``model`` (no body: the model's defaults); anything else is a 400
    naming the first key that does not fit, a key the model lacks included."""
    body = request.get_json(silent=True) if request.data else {}
    if not isinstance(body, dict):
        raise InvalidRequest("body", f"expected a JSON object with the keys {', '.join(model.model_fields)}")
    try:
        return model.model_validate(body)
    except ValidationError as exc:
        first = exc.errors()[0]
        raise InvalidRequest(".".join(str(part) for part in first["loc"]) or "body", first["msg"]) from None
