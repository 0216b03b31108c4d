"""OpenAPI 3 description of the JSON API: parameters from the registries (facets, sorts, limits),
answers generated from the pydantic models of :mod:`.schemas`. Schemathesis validates real
responses against it (tests/integration/test_schemathesis.py); ``/api/docs`` renders it.
"""

from __future__ import annotations

from functools import lru_cache

from pydantic.json_schema import GenerateJsonSchema, models_json_schema

from services.search.facets import FACETS
from services.search.limits import (
    EXPORT_LIMIT,
    LIST_IDS_PATTERN,
    MAX_FILTER_VALUES,
    MAX_LIST_PAPERS,
    MAX_PAGE_SIZE,
    MAX_PAPER_ID,
    MAX_QUERY,
    MAX_SIMILAR_TEXT,
    MAX_SUGGEST_PREFIX,
    MAX_VALUE_CHARS,
    MAX_WINDOW,
    MAX_YEAR,
    MIN_YEAR,
)
from services.search.request import MODES, SWITCH
from services.search.sorting import SORTS

from . import schemas
from .exports import EXPORT_FORMATS, STATS_FORMATS


def _array_param(name: str, description: str, schema: dict) -> dict:
    # Blank values (``year=`` from an empty form field) are ignored, so every item schema admits "".
    return {"name": name, "in": "query", "required": False, "description": description,
            "style": "form", "explode": True,
            "schema": {"type": "array", "maxItems": MAX_FILTER_VALUES, "items": schema}}


SEARCH_PARAMS = [
    {"name": "q", "in": "query", "required": False, "schema": {"type": "string", "maxLength": MAX_QUERY},
     "description": 'Query: words (all required), "phrases", -exclusion, OR, prefix*, and scopes '
                    "title:, author:, abstract:, aff:, conference:, year:."},
    *(_array_param(facet.name, facet.description, facet.item_schema()) for facet in FACETS),
    {"name": "sort", "in": "query", "required": False, "allowEmptyValue": True,
     "description": "Order (case-insensitive); relevance when empty or absent.",
     "schema": {"type": "string", "enum": list(SORTS)}},
    {"name": "page", "in": "query", "required": False,
     "description": f"1-based page; page * page_size must not exceed {MAX_WINDOW:,} (400 otherwise): "
                    "use search_after to go further.",
     "schema": {"type": "integer", "minimum": 1, "maximum": MAX_WINDOW}},
    {"name": "page_size", "in": "query", "required": False,
     "schema": {"type": "integer", "minimum": 1, "maximum": MAX_PAGE_SIZE}},
]
_FACET_NAME = "(" + "|".join(FACETS.names) + ")?"
FACETS_PARAM = _array_param(
    "facets", "Facets to count (comma-separated or repeated; empty: none). Absent: "
    + ", ".join(FACETS.counted_by_default) + " and any facet with a selection; "
    + ", ".join(f.name for f in FACETS if f.on_demand) + " are counted only on demand. "
    "The response's facets hold the counted ones only.",
    {"type": "string", "maxLength": 200, "pattern": rf"^\s*{_FACET_NAME}\s*(,\s*{_FACET_NAME}\s*)*$"})

AUTOCORRECT_PARAM = {"name": "autocorrect", "in": "query", "required": False,
                     "description": "When the query matches nothing, the results of its spelling correction are "
                                    "answered instead (corrected_from says so); 0 searches as typed.",
                     "schema": {"type": "string", "enum": list(SWITCH)}}
MODE_PARAM = {"name": "mode", "in": "query", "required": False, "allowEmptyValue": True,
              "description": "Ranking: lexical (BM25, the default), semantic (kNN on the query's embedding) or "
                             "hybrid (both, scores summed). Semantic and hybrid page with page, not search_after.",
              "schema": {"type": "string", "enum": list(MODES)}}
LIST_IDS_PARAM = {"name": "ids", "in": "query", "required": False,
                  "description": f"A reading list: up to {MAX_LIST_PAPERS} paper ids, comma-separated, exported exactly "
                                 "and in this order (ids that name no paper are left out: X-Exported-Count says how "
                                 "many were found; the search parameters are not read then). The site's /list?ids=… "
                                 "shows the same.",
                  "schema": {"type": "string", "pattern": LIST_IDS_PATTERN}}
SIMILAR_BODY = {"type": "object", "required": ["text"], "additionalProperties": False, "properties": {
    "text": {"type": "string", "minLength": 1, "maxLength": MAX_SIMILAR_TEXT,
             "description": "An abstract or a draft; the papers nearest to its embedding come first."},
    "page": {"type": "integer", "minimum": 1, "maximum": MAX_WINDOW},
    "page_size": {"type": "integer", "minimum": 1, "maximum": MAX_PAGE_SIZE},
    **{facet.name: {"description": facet.description, "oneOf": [
        facet.item_schema(), {"type": "array", "maxItems": MAX_FILTER_VALUES, "items": facet.item_schema()}]}
       for facet in FACETS},
}}

def components() -> dict[str, dict]:
    """JSON Schemas of the answers, generated from :mod:`.schemas` (every model they refer to too)."""
    _, generated = models_json_schema([(model, "serialization") for model in schemas.COMPONENTS],
                                      ref_template=REF, schema_generator=_Schemas)
    return {name: _nullable_as_type(schema) for name, schema in generated["$defs"].items()}


REF = "#/components/schemas/{model}"


class _Schemas(GenerateJsonSchema):
    """pydantic's JSON Schema without a title on every field (the names say it)."""

    def field_title_should_be_set(self, schema) -> bool:  # type: ignore[no-untyped-def]
        return False


def _nullable_as_type(schema: object) -> object:
    """``anyOf: [X, null]`` of a plain type as ``type: [X, "null"]``, as people write (and the docs page reads) it."""
    if isinstance(schema, list):
        return [_nullable_as_type(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: _nullable_as_type(v) for k, v in schema.items()}
    options = out.get("anyOf")
    if isinstance(options, list) and len(options) == 2 and {"type": "null"} in options:
        other = next(o for o in options if o != {"type": "null"})
        if isinstance(other.get("type"), str) and "$ref" not in other:
            del out["anyOf"]
            out.update({**other, "type": [other["type"], "null"]})
    return out


def _responses(ok_schema: str | None, *extra: int, ok_content: dict | None = None) -> dict:
    out: dict = {}
    if ok_schema:
        out["200"] = {"description": "OK", "content": {"application/json": {
            "schema": {"$ref": REF.format(model=ok_schema)}}}}
    elif ok_content:
        out["200"] = {"description": "OK", "content": ok_content}
    for status in (400, *extra, 429, 503):
        out[str(status)] = {"description": {400: "Bad parameter", 404: "Not found", 401: "Unauthorized", 413: "Request body over 64 KB",
                                            409: "A reindex is already running",
                                            429: "Past the client's rate limit (error code rate_limited)",
                                            503: "Search unavailable"}[status],
                            "content": {"application/json": {"schema": {"$ref": REF.format(model="Error")}}}}
        if status in (429, 503):
            out[str(status)]["headers"] = {"Retry-After": {
                "description": "Seconds to wait before retrying", "schema": {"type": "integer", "minimum": 1}}}
    return out


def _with_links(responses: dict, links: dict) -> dict:
    responses["200"]["links"] = links
    return responses


@lru_cache(maxsize=1)
def openapi_document() -> dict:
    paper_id = {"name": "paper_id", "in": "path", "required": True,
                "schema": {"type": "string", "minLength": 1, "maxLength": MAX_PAPER_ID}}
    return {
        "openapi": "3.1.0",
        "info": {"title": "paperlist API", "version": "1.0.0",
                 "description": "Search AI conference papers: keywords, facets, paper details, suggestions."},
        "paths": {
            "/api/v1/search": {"get": {
                "summary": "Search papers with facets", "operationId": "search",
                "parameters": [*SEARCH_PARAMS, FACETS_PARAM, MODE_PARAM, AUTOCORRECT_PARAM, {"name": "search_after", "in": "query", "required": False,
                                                "schema": {"type": "string", "maxLength": 400},
                                                "description": "Cursor from next_search_after."}],
                "responses": _with_links(_responses("SearchResponse"), {
                    # What a client does next; Schemathesis' stateful phase follows these.
                    "FirstHit": {"operationId": "getPaper", "parameters": {"paper_id": "$response.body#/hits/0/id"}},
                    "FirstHitSimilar": {"operationId": "similarPapers",
                                        "parameters": {"paper_id": "$response.body#/hits/0/id"}},
                    "NextPage": {"operationId": "search",
                                 "parameters": {"query.search_after": "$response.body#/next_search_after"}},
                })}},
            "/api/v1/facets": {"get": {
                "summary": "Facet counts of a search, without hits (on-demand facets when opened)",
                "operationId": "facetCounts", "parameters": [*SEARCH_PARAMS[:-2], FACETS_PARAM],
                "responses": _responses("FacetCounts")}},
            "/api/v1/similar": {"post": {
                "summary": "Papers like this text (nearest by embedding), with the search filters and facets",
                "operationId": "similarToText",
                "requestBody": {"required": True, "content": {"application/json": {"schema": SIMILAR_BODY}}},
                "responses": _responses("SearchResponse", 413)}},
            "/api/v1/papers/{paper_id}": {"get": {
                "summary": "One paper", "operationId": "getPaper", "parameters": [paper_id],
                "responses": _responses("Paper", 404)}},
            "/api/v1/papers/{paper_id}/similar": {"get": {
                "summary": "Similar papers (more like this)", "operationId": "similarPapers",
                "parameters": [paper_id],
                "responses": _responses("SimilarPapers", 404)}},
            "/api/v1/suggest": {"get": {
                "summary": "Autocomplete", "operationId": "suggest",
                "parameters": [{"name": "q", "in": "query", "required": False,
                                "schema": {"type": "string", "maxLength": MAX_SUGGEST_PREFIX}}],
                "responses": _responses("Suggestions")}},
            "/api/v1/export": {"get": {
                "summary": f"Export up to {EXPORT_LIMIT:,} results, or a reading list's papers (ids), as BibTeX, "
                           "CSV or JSON", "operationId": "export",
                "parameters": [*SEARCH_PARAMS[:-2], LIST_IDS_PARAM,
                               {"name": "format", "in": "query", "required": False,
                                "schema": {"type": "string", "enum": list(EXPORT_FORMATS)}}],
                "responses": _responses(None, ok_content={
                    "application/x-bibtex": {"schema": {"type": "string"}},
                    "text/csv": {"schema": {"type": "string"}},
                    "application/json": {"schema": {"$ref": REF.format(model="Exported")}}})}},
            "/api/v1/stats": {"get": {
                "summary": "Papers per year, conference and topic of a search's result set", "operationId": "stats",
                "parameters": [*SEARCH_PARAMS[:-2], {"name": "format", "in": "query", "required": False,
                                                    "schema": {"type": "string", "enum": list(STATS_FORMATS)}}],
                "responses": _responses(None, ok_content={
                    "application/json": {"schema": {"$ref": REF.format(model="Stats")}},
                    "text/csv": {"schema": {"type": "string"}}})}},
            "/api/v1/venues/{slug}/{year}": {"get": {
                "summary": "Venue statistics of a conference-year: records by status, the acceptance rate and its "
                           "definition, what the source lacks, review scores by decision, where a review score lands "
                           "(score_bins, score_values) and who publishes there (institutions)",
                "operationId": "venue",
                "parameters": [{"name": "slug", "in": "path", "required": True,
                                "schema": {"type": "string", "minLength": 1, "maxLength": MAX_VALUE_CHARS}},
                               {"name": "year", "in": "path", "required": True,
                                "schema": {"type": "integer", "minimum": MIN_YEAR, "maximum": MAX_YEAR}}],
                "responses": _responses("Venue", 404)}},
            "/api/v1/admin/reindex": {"post": {
                "summary": "Start a zero-downtime rebuild", "operationId": "startReindex",
                "security": [{"bearer": []}],
                "responses": {"202": {"description": "Queued", "content": {"application/json": {"schema": {
                    "$ref": REF.format(model="ReindexQueued")}}}},
                    **{k: v for k, v in _responses(None, 401, 409).items() if k != "200"}}}},
        },
        "components": {
            "schemas": components(),
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        },
    }
