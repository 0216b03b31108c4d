""""Papers like my abstract": ``POST /api/v1/similar`` (JSON) and the ``/similar`` page (a form).

Both take a text (an abstract, a draft) plus the search filters, embed the text and
answer the nearest papers in the search response's shape.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from flask import Blueprint, jsonify, render_template, request

from services.search import conferences
from services.search.errors import InvalidRequest
from services.search.facets import FACETS
from services.search.limits import MAX_SIMILAR_TEXT
from services.search.request import SearchRequest, parse_request

from .api import results_json
from .pages import search_service

bp = Blueprint("similar", __name__)

PAGING = ("page", "page_size")
"""Keys a similar request takes besides ``text`` and the facets (no q, sort or mode: the text ranks)."""


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
    allowed = {*PAGING, *(facet.name for facet in FACETS)}
    args: dict[str, list[str]] = {}
    for key, value in params.items():
        if key == "text":
            continue
        if key not in allowed:
            raise InvalidRequest(key, f"not a filter; use text, {', '.join(PAGING)} or a facet name")
        if key in PAGING and not form:  # JSON numbers, as the OpenAPI document says
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
    return replace(parse_request(args), mode="semantic")


@bp.post("/api/v1/similar")
def similar_api():
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        raise InvalidRequest("body", 'send a JSON object such as {"text": "...", "page_size": 20}')
    text = similar_text(body.get("text"))
    req = similar_request(body)
    return jsonify(results_json(search_service().like_text(req, text)))


@bp.route("/similar", methods=["GET", "POST"])
def similar_page():
    """The form; a submit (POST, or GET with ``text``) shows the nearest papers under it."""
    form = request.form if request.method == "POST" else request.args
    params = {key: [v for v in form.getlist(key) if v] for key in form if key != "text"}
    req = similar_request({k: v for k, v in params.items() if v}, form=True)
    text, results, error, status = form.get("text", ""), None, None, 200
    if request.method == "POST" or text:
        try:
            results = search_service().like_text(req, similar_text(text))
        except InvalidRequest as exc:  # shown beside the form, which keeps what was typed
            error, status = exc.message, 400
    return render_template("similar.html", req=req, text=text[:MAX_SIMILAR_TEXT], results=results, error=error,
                           conferences=conferences.KNOWN, max_text=MAX_SIMILAR_TEXT), status
