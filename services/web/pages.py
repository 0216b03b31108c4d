"""HTML pages: front page, results, paper detail and the browse pages."""

from __future__ import annotations

from urllib.parse import urlencode

from flask import Blueprint, abort, current_app, jsonify, redirect, render_template, request, url_for

from services.search import bibtex, conferences, taxonomy
from services.search.limits import MAX_PAPER_ID
from services.search.model import Paper
from services.search.request import SearchRequest
from services.search.service import PaperSearch

from .params import search_request

bp = Blueprint("pages", __name__)


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


def toggle(req: SearchRequest, facet: str, value: str) -> str:
    """URL with one facet value added or removed (facet clicks go back to page 1)."""
    selected = list(req.selected(facet))
    selected = [v for v in selected if v != value] if value in selected else [*selected, value]
    return url_with(request.path, req, **{facet: selected or None, "page": None})


def _render_results(template: str, req: SearchRequest, **context):
    results = search_service().search(req)
    context.update(results=results, req=req)
    if request.args.get("partial") == "1":
        return jsonify(results=render_template("_results.html", **context),
                       facets=render_template("_facets.html", **context),
                       total=results.total)
    return render_template(template, **context)


@bp.get("/")
def index():
    overview = search_service().overview()
    return render_template("index.html", overview=overview)


@bp.get("/search")
def search():
    return _render_results("search.html", search_request())


@bp.get("/papers/<paper_id>")
def paper(paper_id: str):
    found = paper_or_404(paper_id)
    similar = search_service().similar(found.paper_id)
    return render_template("paper.html", paper=found, bibtex=bibtex.entry(found), similar=similar)


@bp.get("/conferences/<slug>")
def conference(slug: str):
    slug = conferences.canonical_slug(slug)
    summary = search_service().conference(slug)
    if not summary:
        abort(404, description=f"No papers from a conference '{slug[:60]}'.")
    req = search_request(conference=[slug])
    return _render_results("search.html", req, heading=summary.name, conference=summary,
                           subtitle=conferences.lookup(slug).full_name)


@bp.get("/conferences/<slug>/<int:year>")
def conference_year(slug: str, year: int):
    slug = conferences.canonical_slug(slug)
    summary = search_service().conference(slug)
    if not summary or year not in dict(summary.years):
        abort(404, description=f"No papers from {conferences.label(slug)} {year}.")
    req = search_request(conference=[slug], year=[str(year)])
    return _render_results("search.html", req, heading=f"{summary.name} {year}", conference=summary)


@bp.get("/topics/<slug>")
def topic(slug: str):
    found = taxonomy.lookup(slug)
    if not found:
        abort(404, description=f"No topic '{slug[:60]}'.")
    req = search_request(topic=[found.slug])
    return _render_results("search.html", req, heading=found.label, subtitle=found.description)


@bp.get("/authors/<path:name>")
def author(name: str):
    profile = search_service().author(name[:200])
    if not profile.total:
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
