"""HTML pages: front page, results, paper detail and the browse pages."""

from __future__ import annotations

from urllib.parse import urlencode

from flask import Blueprint, abort, current_app, jsonify, make_response, redirect, render_template, request, url_for

from services.search import bibtex, conferences, taxonomy
from services.search.errors import SearchUnavailable
from services.search.limits import DEFAULT_PAGE_SIZE, MAX_PAPER_ID, MAX_WINDOW
from services.search.model import Paper
from services.search.request import SearchRequest
from services.search.service import PaperSearch

from . import trends
from .params import search_request

bp = Blueprint("pages", __name__)

# A request to show for each GET operation of /api/docs (by operationId).
API_EXAMPLES = {
    "search": "/api/v1/search?q=diffusion&conference=neurips&year=2020-2025&page_size=5",
    "suggest": "/api/v1/suggest?q=bengio",
    "export": "/api/v1/export?q=diffusion&year=2024&format=csv",
}


def search_service() -> PaperSearch:
    return current_app.extensions["paperlist.search"]


def paper_or_404(paper_id: str) -> Paper:
    found = search_service().paper(paper_id[:MAX_PAPER_ID])
    if not found:
        abort(404, description=f"No paper with id '{paper_id[:MAX_PAPER_ID]}'.")
    return found


def url_with(path: str, req: SearchRequest, **changes) -> str:
    """URL of ``req`` with some parameters changed (None removes one)."""
    pairs = [(k, v) for k, v in req.to_params() if k not in changes]
    for key, value in changes.items():
        if value is None:
            continue
        if isinstance(value, (list, tuple)):
            pairs.extend((key, str(v)) for v in value)
        else:
            pairs.append((key, str(value)))
    query = urlencode(pairs)
    return f"{path}?{query}" if query else path


def results_path() -> str:
    """Where a changed selection is shown: a browse page's own filters become ordinary ones of
    /search, so the page is never headed "NeurIPS 2017" while it lists something else."""
    return request.path if request.endpoint == "pages.search" else url_for("pages.search")


def toggle(req: SearchRequest, facet: str, value: str) -> str:
    """URL with one facet value added or removed (facet clicks go back to page 1)."""
    selected = list(req.selected(facet))
    selected = [v for v in selected if v != value] if value in selected else [*selected, value]
    return url_with(results_path(), req, **{facet: selected or None, "page": None})


def html_request(**overrides: list[str]) -> SearchRequest:
    """The page's request; a page beyond the paging window is clamped (:func:`_render_results` redirects)."""
    page = request.args.get("page", "")
    if page.strip().isdigit() and int(page) > 1:
        size = request.args.get("page_size", "").strip()
        deepest = MAX_WINDOW // (int(size) if size.isdigit() and int(size) > 0 else DEFAULT_PAGE_SIZE)
        if int(page) > deepest:
            args = request.args.copy()
            args["page"] = str(deepest)
            return search_request(args=args, **overrides)
    return search_request(**overrides)


def _render_results(template: str, req: SearchRequest, **context):
    results = search_service().search(req)
    requested = request.args.get("page", "1").strip()
    if req.page > results.pages or (requested.isdigit() and requested != str(req.page)):
        # Past the last page: show the last one (its own URL, so paging links stay right).
        last = min(results.pages, req.page)
        return redirect(url_with(request.path, req, page=last if last > 1 else None), code=302)
    context.update(results=results, req=req, trends=trends.trends_view(req, results.total))
    if request.args.get("partial") == "1":
        return jsonify(results=render_template("_results.html", **context),
                       facets=render_template("_facets.html", **context),
                       head=render_template("_results_head.html", **context),
                       scope=render_template("_scope.html", **context),
                       total=results.total)
    return render_template(template, **context)


def _extra_filters(**own: list[str]) -> bool:
    """Does the URL ask for more than the browse page's own selection (or a query)?"""
    if request.args.get("q", "").strip():
        return True
    req = html_request()
    for facet in req.filters:
        if facet not in own or set(req.selected(facet)) != set(own[facet]):
            return True
    return False


def _browse(template: str, own: dict[str, list[str]], **context):
    """A browse page, or — with filters of its own added — the search it has become."""
    if _extra_filters(**own):
        req = search_request(**own)
        return redirect(url_with(url_for("pages.search"), req), code=302)
    return _render_results(template, html_request(**own), **context)


@bp.get("/")
def index():
    overview = search_service().overview()
    return render_template("index.html", overview=overview)


@bp.get("/search")
def search():
    return _render_results("search.html", html_request())


@bp.get("/conferences")
def conferences_index():
    overview = search_service().overview(newest=0)
    known = {c.slug: i for i, c in enumerate(conferences.KNOWN)}
    listed = sorted(overview.conferences, key=lambda c: (known.get(c.slug, len(known)), c.name.lower()))
    return render_template("conferences.html", overview=overview, listed=listed)


@bp.get("/topics")
def topics_index():
    overview = search_service().overview(newest=0)
    counts = {slug: n for slug, _, n in overview.topics}
    return render_template("topics.html", topics=[(t, counts.get(t.slug, 0)) for t in taxonomy.TOPICS],
                           overview=overview)


@bp.get("/api/docs")
def api_docs():
    from .openapi import openapi_document  # the document lists every blueprint, some of which import pages

    return render_template("api_docs.html", doc=openapi_document(), api_examples=API_EXAMPLES,
                           public_url=_public_url())


@bp.get("/papers/<paper_id>")
def paper(paper_id: str):
    found = paper_or_404(paper_id)
    try:
        similar, degraded = search_service().similar(found.paper_id), False
    except SearchUnavailable:
        # The paper is what was asked for; its neighbours (a kNN search, the costlier call)
        # are left out when Elasticsearch runs out of time, not the whole page.
        similar, degraded = [], True
    page = make_response(render_template("paper.html", paper=found, bibtex=bibtex.entry(found), similar=similar))
    if degraded:
        page.headers["Cache-Control"] = "no-store"  # not kept by browsers or a CDN: the next visit has them
    return page


def _public_url() -> str:
    """The site's public base URL (PAPERLIST_PUBLIC_URL), never the request's Host header."""
    settings = current_app.config["SETTINGS"]
    return (getattr(settings, "public_url", "") or "http://127.0.0.1:8000").rstrip("/")


@bp.get("/conferences/<slug>")
def conference(slug: str):
    slug = conferences.canonical_slug(slug)
    summary = search_service().conference(slug)
    if not summary:
        abort(404, description=f"No papers from a conference '{slug[:60]}'.")
    return _browse("search.html", {"conference": [slug]}, heading=summary.name, conference=summary,
                   subtitle=conferences.lookup(slug).full_name,
                   **trends.venue_context(slug))


@bp.get("/conferences/<slug>/<int:year>")
def conference_year(slug: str, year: int):
    slug = conferences.canonical_slug(slug)
    summary = search_service().conference(slug)
    if not summary:
        abort(404, description=f"No papers from {conferences.label(slug)} {year}.")
    if not summary.has_year(year):
        resp = render_template("error.html", status=404, conference=summary,
                               message=f"We have no papers from {summary.name} {year}.")
        return resp, 404, {"Cache-Control": "no-store"}
    return _browse("search.html", {"conference": [slug], "year": [str(year)]},
                   heading=f"{summary.name} {year}", conference=summary, year=year,
                   **trends.venue_context(slug, year))


@bp.get("/topics/<slug>")
def topic(slug: str):
    found = taxonomy.lookup(slug)
    if not found:
        abort(404, description=f"No topic '{slug[:60]}'.")
    return _browse("search.html", {"topic": [found.slug]}, heading=found.label, subtitle=found.description)


@bp.get("/authors/<path:name>")
def author(name: str):
    profile = search_service().author(name[:200])
    if not profile.total and not profile.hidden:
        # Case and accents do not matter: /authors/yoshua%20bengio goes to the spelling papers use.
        # 302, not 301: the most frequent spelling is data and may change with the next ingest.
        canonical = search_service().canonical_author(name[:200])
        if canonical and canonical != name:
            return redirect(url_for("pages.author", name=canonical), 302)
        abort(404, description=f"No papers by '{name[:100]}'.")
    return render_template("author.html", profile=profile)


@bp.get("/healthz")
def healthz():
    return jsonify(status="ok")


@bp.get("/readyz")
def readyz():
    try:
        ready = search_service().ready()
    except Exception:  # noqa: BLE001 - any failure means "not ready", never a 500
        ready = False
    if not ready:
        resp = jsonify(status="unavailable", detail="Elasticsearch unreachable or the index alias is missing")
        resp.status_code = 503
        return resp
    return jsonify(status="ready", index=current_app.config["SETTINGS"].index)
