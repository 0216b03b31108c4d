"""The public JSON API (``/api/v1``): search, papers, suggestions, exports, OpenAPI."""

from __future__ import annotations

from dataclasses import replace

from flask import Blueprint, Response, jsonify, request, url_for

from services.search.errors import InvalidRequest
from services.search.limits import MAX_SUGGEST_PREFIX
from services.search.reads import Suggestion
from services.search.results import SearchResults

from .exports import EXPORT_FORMATS
from .openapi import openapi_document
from .pages import paper_or_404, search_service
from .params import search_request
from .serialize import hit_json, paper_json, query_json

bp = Blueprint("api", __name__, url_prefix="/api/v1")

# Where each kind of suggestion leads: (endpoint, the argument its key fills).
SUGGESTION_PAGES = {"conference": ("pages.conference", "slug"), "topic": ("pages.topic", "slug"),
                    "author": ("pages.author", "name"), "title": ("pages.paper", "paper_id")}


@bp.get("/search")
def search():
    req = search_request(api=True)
    results = search_service().search(req)
    return jsonify(results_json(results))


@bp.get("/facets")
def facets():
    """Counts only (no hits): what the filter panel fetches when an on-demand facet is opened."""
    req = search_request(api=True)
    results = search_service().search(replace(req, page=1, page_size=0, search_after=None))
    return jsonify(counts_json(results))


def counts_json(results: SearchResults) -> dict:
    req = results.request
    return {
        "query": {**query_json(req), "sort": req.sort},
        "total": results.total,
        "facets": {name: [{"value": v.value, "label": v.label, "count": v.count, "selected": v.selected}
                          for v in values] for name, values in results.facets.items()},
        "year_histogram": [{"year": y, "count": c} for y, c in results.year_histogram],
        "year_range": list(results.year_span) if results.year_span else None,
    }


def results_json(results: SearchResults) -> dict:
    req = results.request
    counts = counts_json(results)
    return {
        "query": counts["query"],
        "total": results.total,
        "page": req.page,
        "page_size": req.page_size,
        "pages": results.pages,
        "next_search_after": results.next_cursor,
        "hits": [hit_json(h) for h in results.hits],
        "facets": counts["facets"],
        "year_histogram": counts["year_histogram"],
        "year_range": counts["year_range"],
        "suggestion": results.suggestion,
    }


@bp.get("/papers/<paper_id>")
def paper(paper_id: str):
    return jsonify(paper_json(paper_or_404(paper_id), full=True))


@bp.get("/papers/<paper_id>/similar")
def similar(paper_id: str):
    found = paper_or_404(paper_id)
    return jsonify({"papers": [paper_json(p) for p in search_service().similar(found.paper_id)]})


@bp.get("/suggest")
def suggest():
    q = request.args.get("q", "")
    if len(q) > MAX_SUGGEST_PREFIX:
        raise InvalidRequest("q", f"suggestions take at most {MAX_SUGGEST_PREFIX} characters")
    items = search_service().suggest(q)
    return jsonify({"q": q, "suggestions": [{"type": s.kind, "text": s.text, "url": suggestion_url(s),
                                             **({"detail": s.detail} if s.detail else {})} for s in items]})


def suggestion_url(suggestion: Suggestion) -> str:
    endpoint, argument = SUGGESTION_PAGES[suggestion.kind]
    return url_for(endpoint, **{argument: suggestion.key})


@bp.get("/export")
def export():
    fmt = request.args.get("format", "bibtex").lower()
    if fmt not in EXPORT_FORMATS:
        raise InvalidRequest("format", f"'{fmt[:20]}' is not one of {', '.join(EXPORT_FORMATS)}")
    mimetype, ext, write = EXPORT_FORMATS[fmt]
    req = search_request()
    # HEAD answers the download's headers (parameters validated), without the export work:
    # an empty stream, so neither a Content-Length nor an ETag claims to describe the body.
    if request.method == "HEAD":
        resp = Response(iter(()), content_type=mimetype)
        resp.headers["Content-Disposition"] = f'attachment; filename="paperlist-export.{ext}"'
        return resp
    exported = search_service().export(req)
    resp = Response(write(exported.papers), content_type=mimetype)
    resp.headers["Content-Disposition"] = f'attachment; filename="paperlist-export.{ext}"'
    # How many of how many: an export stops at the limit, the API's cursor pages on.
    resp.headers["X-Total-Count"] = str(exported.total)
    resp.headers["X-Exported-Count"] = str(len(exported.papers))
    return resp


@bp.get("/openapi.json")
def openapi():
    return jsonify(openapi_document())
