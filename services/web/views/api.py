"""The public JSON API (``/api/v1``): search, facet counts, papers, suggestions, exports (of a search or a
reading list), OpenAPI."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, redirect, request, url_for

from services.search.answers.results import Exported
from services.search.limits import EXPORT_LIMIT

from .. import extensions
from ..http.headers import attachment, left_out
from ..policy import Cost, Limit, policy
from ..render import answers
from ..render import openapi as doc
from ..render.exports import EXPORT_FORMATS
from .inputs import new_request, one_of, paper_ids, paper_or_404, search_request, suggest_prefix

bp = Blueprint("api", __name__, url_prefix="/api/v1")


@bp.get("/")
@policy(max_age=3600, cors=True)
@doc.operation("apiIndex", "The API's index: its description for people (a redirect to /api/docs)", status=302,
               answer=None)
def root():
    """``/api/v1/`` itself: its description for people (302: a JSON index of the routes may live here)."""
    return redirect(url_for("pages.api_docs"), code=302)


@bp.get("")
@policy(max_age=3600, cors=True)
@doc.undocumented("the API's index without its slash: the same redirect")
def bare_root():
    return root()


@bp.get("/search")
@policy(edge=True, whole_answer=True, cors=True)
@doc.operation("search", "Search papers with facets", answer="SearchResponse", links=doc.SEARCH_LINKS,
               params=[*doc.SEARCH_PARAMS, doc.FACETS_PARAM, doc.MODE_PARAM, doc.AUTOCORRECT_PARAM,
                       doc.SEARCH_AFTER_PARAM])
def search():
    results = extensions.reads().search(search_request(api=True))
    return left_out(jsonify(answers.results_json(results)), results.left_out)


@bp.get("/new")
@policy(edge=True, whole_answer=True, cors=True)
@doc.operation("whatsNew", "Papers added or changed lately (7 or 30 days, or since a time), most recently added "
               "first, with facets: the /new page's search", answer="SearchResponse",
               params=[*doc.SEARCH_PARAMS, *doc.NEW_PARAMS, doc.FACETS_PARAM])
def new():
    results = extensions.reads().search(new_request(api=True))
    return left_out(jsonify(answers.results_json(results)), results.left_out)


@bp.get("/facets")
@policy(edge=True, cors=True)
@doc.operation("facetCounts", "Facet counts of a search, without hits (on-demand facets when opened)",
               answer="FacetCounts", params=[*doc.FILTER_PARAMS, doc.FACETS_PARAM])
def facets():
    """Counts only (no hits): what the filter panel fetches when an on-demand facet is opened."""
    req = search_request(api=True)
    results = extensions.reads().search(req.with_page(1, page_size=0))
    return left_out(jsonify(answers.counts_json(results)), results.left_out)


@bp.get("/papers/<paper_id>")
@policy(edge=True, whole_answer=True, cors=True)
@doc.operation("getPaper", "One paper", answer="Paper", params=[doc.PAPER_ID], errors=[404])
def paper(paper_id: str):
    return jsonify(answers.paper_json(paper_or_404(paper_id), full=True))


@bp.get("/papers/<paper_id>/similar")
@policy(edge=True, whole_answer=True, cors=True)
@doc.operation("similarPapers", "Similar papers (more like this)", answer="SimilarPapers", params=[doc.PAPER_ID],
               errors=[404])
def similar(paper_id: str):
    found = paper_or_404(paper_id)
    return jsonify(answers.similar_json(extensions.reads().similar(found.paper_id)))


@bp.get("/suggest")
@policy(max_age=300, edge=True, whole_answer=True, limit=Limit.OWN, cors=True)
@doc.operation("suggest", "Autocomplete", answer="Suggestions", params=[doc.SUGGEST_PREFIX])
def suggest():
    q = suggest_prefix()
    return jsonify(answers.suggestions_json(q, extensions.reads().suggest(q)))


@bp.get("/export")
@policy(cost=Cost.EXPORT, cors=True)
@doc.operation("export", f"Export up to {EXPORT_LIMIT:,} results, or a reading list's papers (ids), as BibTeX, "
               "CSV or JSON", params=[*doc.FILTER_PARAMS, doc.LIST_IDS_PARAM, doc.format_param(EXPORT_FORMATS)],
               answer={"application/x-bibtex": doc.TEXT, "text/csv": doc.TEXT, "application/json": doc.json_of("Exported")})
def export():
    """A result set's first papers, or (``ids``) exactly the papers of a reading list, in its order."""
    fmt = one_of("format", EXPORT_FORMATS, "bibtex")
    mimetype, ext, write = EXPORT_FORMATS[fmt]
    req = search_request()
    ids = paper_ids()  # a list exports exactly its papers: the search parameters are not read then
    filename = f"paperlist-{'list' if ids else 'export'}.{ext}"
    # HEAD answers the download's headers (parameters validated), without the export work:
    # an empty stream, so neither a Content-Length nor an ETag claims to describe the body.
    if request.method == "HEAD":
        return attachment(Response(iter(()), content_type=mimetype), filename)
    exported = Exported(extensions.reads().papers_by_id(ids), len(ids)) if ids else extensions.reads().export(req)
    resp = attachment(Response(write(exported.papers), content_type=mimetype), filename)
    # How many of how many: an export stops at the limit, the API's cursor pages on.
    resp.headers["X-Total-Count"] = str(exported.total)
    resp.headers["X-Exported-Count"] = str(len(exported.papers))
    return resp


@bp.get("/openapi.json")
@policy(max_age=3600, edge=True, cors=True)
@doc.undocumented("the document itself")
def openapi():
    return jsonify(doc.openapi_document())
