""""Papers like my text": ``POST /api/v1/similar`` (JSON) and the ``/similar`` page (a form).

Both take a text (an abstract, a draft) plus the search filters, embed the text and
answer the nearest papers in the search response's shape. (Papers like a *paper* are
``/api/v1/papers/<id>/similar`` and the paper page, :meth:`SearchReads.similar`.)

The page's results have a URL that can be shared: ``GET /similar?text=…``. The form posts
(a pasted abstract may be long); a text whose link fits :data:`MAX_SHARED_URL` is answered
with a redirect to that link (post/redirect/get, so reloading does not post again), a
longer one is answered at once, without a link.
"""

from __future__ import annotations

from flask import Blueprint, jsonify, redirect, render_template, request

from services.search.errors import InvalidRequest
from services.search.limits import MAX_SHARED_URL, MAX_SIMILAR_TEXT

from .. import extensions
from ..policy import policy
from ..render import openapi as doc
from ..render.answers import results_json
from ..urls import similar_url
from .inputs import similar_request, similar_text, venues_with_papers

bp = Blueprint("like_text", __name__)


@bp.post("/api/v1/similar")
@policy(cors=True)
@doc.operation("similarToText", "Papers like this text (nearest by embedding), with the search filters and facets",
               answer="SearchResponse", body=doc.SIMILAR_BODY, errors=[413])
def api():
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        raise InvalidRequest("body", 'send a JSON object such as {"text": "...", "page_size": 20}')
    text = similar_text(body.get("text"))
    req = similar_request(body)
    return jsonify(results_json(extensions.reads().like_text(req, text)))


@bp.route("/similar", methods=["GET", "POST"])
@policy()
def page():
    """The form; a submit (POST, or GET with ``text``) shows the nearest papers under it."""
    form = request.form if request.method == "POST" else request.args
    params = {key: [v for v in form.getlist(key) if v] for key in form if key != "text"}
    req = similar_request({k: v for k, v in params.items() if v}, form=True)
    text, results, error, status, link = form.get("text", ""), None, None, 200, None
    if request.method == "POST" or text:
        try:
            wanted = similar_text(text)
            link = similar_url(req, wanted)
            if len(link.encode()) > MAX_SHARED_URL:
                link = None
            elif request.method == "POST":
                return redirect(link, code=303)
            results = extensions.reads().like_text(req, wanted)
        except InvalidRequest as exc:  # shown beside the form, which keeps what was typed
            error, status = exc.message, 400
    return render_template("similar.html", req=req, text=text[:MAX_SIMILAR_TEXT], results=results, error=error,
                           link=link, conferences=venues_with_papers(), max_text=MAX_SIMILAR_TEXT), status
