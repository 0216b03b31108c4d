"""A search's trends, asked for only when someone opens them: a fragment for the results page, and a page.

A results page's trends (papers per year by conference, the largest topics over the years, their numbers as
tables and a CSV) are folded by default, and most readers never unfold them. Rendered into every results
page they were its most expensive part: over a stream of searches no cache had answered (the load mix's
kinds, the full corpus), a third of the web's CPU per request and a third of Elasticsearch's (their
aggregations count every match by year, conference and topic). So a results page carries the folded section
and a link here; opening it fetches ``?partial=1`` into the section (app.js), and without scripts the link opens
the trends as a page of their own. Both are cached as any page is (the edge), and the rendered trends once per
search and generation (the result cache's fragment), whatever page of the results asked.
"""

from __future__ import annotations

from flask import Blueprint, make_response, render_template, request, url_for
from markupsafe import Markup

from services.search.limits import DEFAULT_PAGE_SIZE
from services.search.query.request import SearchRequest
from services.search.query.sorting import DEFAULT_SORT

from .. import extensions
from ..policy import policy
from ..render import trends as trends_render
from .inputs import new_request, page_request

bp = Blueprint("trends", __name__)

# /new's window travels as ``days`` or ``since``: the trends of /new's papers are of that window.
_NEW_WINDOW = ("days", "since")


def trends_request() -> SearchRequest:
    """The search whose trends are asked: the URL's, whatever its page, order or page size (every page has the
    same trends, kept once)."""
    req = new_request() if any(key in request.args for key in _NEW_WINDOW) else page_request()
    return req.with_page(1, sort=DEFAULT_SORT, page_size=DEFAULT_PAGE_SIZE)


def rendered(req: SearchRequest) -> Markup:
    """The trends' HTML (charts, tables, the CSV's link), rendered once per search and generation."""

    def render(of: SearchRequest) -> str:
        trends = extensions.reads().trends(of)
        view = trends_render.trends_view(of, trends) if trends.total else None
        return render_template("_trends_body.html", trends=view)

    return Markup(extensions.reads().fragment("trends", req, render))


@bp.get("/search/trends")
@policy(edge=True, whole_answer=True)
def page():
    """The trends of the search in the query string: the section's body with ``partial=1``, else a page."""
    req = trends_request()
    body = rendered(req)
    if request.args.get("partial") == "1":
        return make_response(body)
    results = url_for("pages.new") if req.added else url_for("pages.search")
    return render_template("trends.html", req=req, trends_html=body, results_path=results)
