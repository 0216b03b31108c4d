"""HTML pages: the front page, results, a paper, the browse pages (a name's page lists its people), the API's docs."""

from __future__ import annotations

from flask import Blueprint, abort, jsonify, make_response, redirect, render_template, request, url_for

from services.search.answers.authors import same_work
from services.search.answers.results import LEFT_OUT_FACETS, LEFT_OUT_SUGGESTIONS
from services.search.answers.stats import VenueYear
from services.search.catalogue import taxonomy, venues
from services.search.errors import SearchUnavailable
from services.search.limits import MAX_AUTHOR_NAME
from services.search.query.request import ADDED_WINDOWS, SearchRequest
from services.search.query.sorting import DEFAULT_SORT, effective_sort

from .. import extensions
from ..http.headers import left_out as left_out_of
from ..policy import policy
from ..render import bibtex
from ..render import trends as trends_render
from ..render.openapi import openapi_document, undocumented
from ..urls import person_path, public_url, url_with
from .inputs import asks_other_page, new_request, one_venue_year, page_request, paper_or_404, search_request

bp = Blueprint("pages", __name__)

# A request to show for each GET operation of /api/docs (by operationId).
API_EXAMPLES = {
    "search": "/api/v1/search?q=diffusion&conference=neurips&year=2020-2025&page_size=5",
    "suggest": "/api/v1/suggest?q=bengio",
    "export": "/api/v1/export?q=diffusion&year=2024&format=csv",
}


# What a results page says it left out when it ran out of time (services.search.answers.results.LEFT_OUT_*).
LEFT_OUT_LABELS = {LEFT_OUT_FACETS: "the filter counts", LEFT_OUT_SUGGESTIONS: "spelling suggestions"}


def trends_url(req: SearchRequest, total: int) -> str | None:
    """Where a results page's folded trends come from when opened (views.trends), or None: no papers, no trends.
    Of the search whatever its page, order or page size (every page has the same trends)."""
    return url_with(url_for("trends.page"), req, page=None, sort=None, page_size=None) if total else None


def shown_sort(req: SearchRequest) -> str:
    """The order a results page says it runs in: the request's, or without query words the browse
    order — within one year "Orals first" (tier, then title; A-Z for a journal, which has no tiers),
    else newest first."""
    if req.sort != DEFAULT_SORT or not req.parsed.is_empty:
        return req.sort
    years = req.filters.get("year", ())
    if len(years) == 1 and years[0].low == years[0].high:
        venue = one_venue_year(req)
        return "title" if venue and venues.lookup(venue[0]).is_journal else "tier"
    return effective_sort(req.sort, False)


def narrowed_to(req: SearchRequest, venue: VenueYear | None) -> VenueYear | None:
    """The statistics of the one conference-year a search is narrowed to (its status facet says what the
    source lacks); a conference-year page has them already."""
    wanted = one_venue_year(req)
    if not wanted:
        return None
    if venue and (venue.conference, venue.year) == wanted:
        return venue
    found = extensions.reads().venue_years(*wanted)
    return found[0] if found else None


def on_map(req: SearchRequest) -> str | None:
    """The map of a search narrowed to one venue-year (its papers highlighted), where that venue-year has a map."""
    wanted = one_venue_year(req)
    summary = extensions.reads().conference(wanted[0]) if wanted else None
    if not summary or summary.papers_in(wanted[1]) < extensions.settings().map_min_papers:
        return None
    return url_with(url_for("maps.page", slug=wanted[0], year=wanted[1]), req,
                    conference=None, year=None, page=None, sort=None, page_size=None)


def _render_results(template: str, req: SearchRequest, **context):
    results = extensions.reads().search(req)
    if req.page > results.pages or asks_other_page(req):
        # Past the last page: show the last one (its own URL, so paging links stay right).
        last = min(results.pages, req.page)
        return redirect(url_with(request.path, req, page=last if last > 1 else None), code=302)
    req = results.request  # a correction's results are its request's: the page, its links and trends follow them
    left_out = results.left_out
    context.update(results=results, req=req, trends_url=trends_url(req, results.total), sort_shown=shown_sort(req),
                   narrowed=narrowed_to(req, context.get("venue")) if results.total else None,
                   on_map=on_map(req) if results.total and "venue" not in context else None,
                   left_out=[LEFT_OUT_LABELS[part] for part in left_out], facets_left_out=LEFT_OUT_FACETS in left_out)
    if request.args.get("partial") == "1":
        page = jsonify(results=render_template("_results.html", **context),
                       facets=render_template("_facets.html", **context),
                       head=render_template("_results_head.html", **context),
                       scope=render_template("_scope.html", **context),
                       total=results.total)
    else:
        page = make_response(render_template(template, **context))
    return left_out_of(page, left_out)  # hits without what ran out of time: said so, and kept nowhere


def _extra_filters(**own: list[str]) -> bool:
    """Does the URL ask for more than the browse page's own selection (or a query)?"""
    if request.args.get("q", "").strip():
        return True
    req = page_request()
    for facet in req.filters:
        if facet not in own or set(req.selected(facet)) != set(own[facet]):
            return True
    return False


def _browse(template: str, own: dict[str, list[str]], **context):
    """A browse page, or — with filters of its own added — the search it has become."""
    if _extra_filters(**own):
        req = search_request(**own)
        return redirect(url_with(url_for("pages.search"), req), code=302)
    return _render_results(template, page_request(**own), **context)


@bp.get("/")
@policy(edge=True, whole_answer=True)
def index():
    return render_template("index.html", overview=extensions.reads().overview())


@bp.get("/search")
@policy(edge=True, whole_answer=True)
def search():
    return _render_results("search.html", page_request())


@bp.get("/new")
@policy(edge=True, whole_answer=True)
def new():
    """What's new: papers added or changed in the last 7 or 30 days (``days``), or since a time (``since``),
    filterable like a search; its Atom feed is ``/new.atom``."""
    req = new_request()
    window = f"since {req.added}" if req.added not in ADDED_WINDOWS.values() else f"in the last {req.added[:-1]} days"
    return _render_results("search.html", req, heading=f"New {window}",
                           subtitle="Papers added or changed here, the most recent first; narrow them like any search.")


@bp.get("/conferences")
@policy(edge=True, whole_answer=True)
def conferences_index():
    overview = extensions.reads().overview(newest=0)
    known = {c.slug: i for i, c in enumerate(venues.KNOWN)}
    listed = sorted(overview.conferences, key=lambda c: (known.get(c.slug, len(known)), c.name.lower()))
    return render_template("conferences.html", overview=overview, listed=listed)


@bp.get("/topics")
@policy(edge=True, whole_answer=True)
def topics_index():
    overview = extensions.reads().overview(newest=0)
    counts = {slug: n for slug, _, n in overview.topics}
    return render_template("topics.html", topics=[(t, counts.get(t.slug, 0)) for t in taxonomy.TOPICS],
                           overview=overview)


@bp.get("/api/docs")
@policy(edge=True)
@undocumented("the document's page for people")
def api_docs():
    return render_template("api_docs.html", doc=openapi_document(), api_examples=API_EXAMPLES,
                           public_url=public_url())


@bp.get("/api")
@bp.get("/api/")
@policy(max_age=3600)
@undocumented("a redirect to the document's page")
def api_root():
    """Where people try the API first: its description for people (302: an index of versions may live here)."""
    return redirect(url_for("pages.api_docs"), code=302)


@bp.get("/papers/<paper_id>")
@policy(edge=True)  # not kept whole: its neighbours (a kNN search) may be left out of one visit
def paper(paper_id: str):
    found = paper_or_404(paper_id)
    try:
        similar, degraded = extensions.reads().similar(found.paper_id), False
    except SearchUnavailable:
        # The paper is what was asked for; its neighbours (a kNN search, the costlier call)
        # are left out when Elasticsearch runs out of time, not the whole page.
        similar, degraded = [], True
    versions = {p.paper_id for p in similar if same_work(found, p)}  # marked as what they are
    page = make_response(render_template("paper.html", paper=found, bibtex=bibtex.entry(found), similar=similar,
                                         versions=versions))
    if degraded:
        page.headers["Cache-Control"] = "no-store"  # not kept by browsers or a CDN: the next visit has them
    return page


def _venue(slug: str, year: int | None = None) -> dict:
    return trends_render.venue_context(slug, extensions.reads().venue_years(slug, year), year)


@bp.get("/conferences/<slug>")
@policy(edge=True, whole_answer=True)
def conference(slug: str):
    slug = venues.canonical_slug(slug)
    summary = extensions.reads().conference(slug)
    if not summary:
        abort(404, description=f"No papers from a conference '{slug[:60]}'.")
    return _browse("search.html", {"conference": [slug]}, heading=summary.name, conference=summary,
                   subtitle=venues.lookup(slug).full_name, **_venue(slug))


@bp.get("/conferences/<slug>/<int:year>")
@policy(edge=True, whole_answer=True)
def conference_year(slug: str, year: int):
    slug = venues.canonical_slug(slug)
    summary = extensions.reads().conference(slug)
    if not summary:
        abort(404, description=f"No papers from {venues.label(slug)} {year}.")
    if not summary.has_year(year):
        resp = render_template("error.html", status=404, conference=summary,
                               message=f"We have no papers from {summary.name} {year}.")
        return resp, 404, {"Cache-Control": "no-store"}
    return _browse("search.html", {"conference": [slug], "year": [str(year)]},
                   heading=f"{summary.name} {year}", conference=summary, year=year, **_venue(slug, year))


@bp.get("/topics/<slug>")
@policy(edge=True, whole_answer=True)
def topic(slug: str):
    found = taxonomy.lookup(slug)
    if not found:
        abort(404, description=f"No topic '{slug[:60]}'.")
    return _browse("search.html", {"topic": [found.slug]}, heading=found.label, subtitle=found.description)


@bp.get("/authors/<path:name>")
@policy(edge=True, whole_answer=True)
def author(name: str):
    """A name: the short list of its people (several), their page (one: 302, as who a name is may change with
    an ingest), or, where no person holds it yet, the papers of the name as written."""
    name = name[:MAX_AUTHOR_NAME]
    people = extensions.reads().people_named(name)
    if len(people) == 1:
        return redirect(person_path(people[0].person_id), 302)
    if people:
        return render_template("people_named.html", name=people[0].name, people=people)
    profile = extensions.reads().author(name)
    if not profile.total and not profile.hidden:
        abort(404, description=f"No papers by '{name[:100]}'.")
    if profile.name != name:
        # One page per name, case and accents aside: /authors/Remi%20Munos goes to the spelling most
        # papers use. 302, not 301: the most frequent spelling is data and may change with an ingest.
        return redirect(url_for("pages.author", name=profile.name), 302)
    return render_template("author.html", profile=profile)


@bp.get("/openapi.json")
@policy(max_age=3600)
def openapi_moved():
    """Where clients look for an API's description first: it lives under the API's version."""
    return redirect(url_for("api.openapi"), code=301)
