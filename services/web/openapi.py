"""OpenAPI 3 description of the JSON API; the tests validate real responses against it."""

from __future__ import annotations

from functools import lru_cache

from services.search.facets import FACETS
from services.search.limits import (
    EXPORT_LIMIT,
    MAX_FILTER_VALUES,
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
from services.search.model import STATUSES
from services.search.request import MODES
from services.search.service import SUGGESTION_KINDS
from services.search.sorting import SORTS

from .exports import EXPORT_FORMATS
from .stats_api import STATS_FORMATS


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

MODE_PARAM = {"name": "mode", "in": "query", "required": False, "allowEmptyValue": True,
              "description": "Ranking: lexical (BM25, the default), semantic (kNN on the query's embedding) or "
                             "hybrid (both, scores summed). Semantic and hybrid page with page, not search_after.",
              "schema": {"type": "string", "enum": list(MODES)}}
SIMILAR_BODY = {"type": "object", "required": ["text"], "additionalProperties": False, "properties": {
    "text": {"type": "string", "minLength": 1, "maxLength": MAX_SIMILAR_TEXT,
             "description": "An abstract or a draft; the papers nearest to its embedding come first."},
    "page": {"type": "integer", "minimum": 1, "maximum": MAX_WINDOW},
    "page_size": {"type": "integer", "minimum": 1, "maximum": MAX_PAGE_SIZE},
    **{facet.name: {"description": facet.description, "oneOf": [
        facet.item_schema(), {"type": "array", "maxItems": MAX_FILTER_VALUES, "items": facet.item_schema()}]}
       for facet in FACETS},
}}

ERROR = {"type": "object", "required": ["error"], "properties": {"error": {
    "type": "object", "required": ["code", "message"],
    "properties": {"code": {"type": "string"}, "message": {"type": "string"}}}}}

# IRIs: links come from the sources as published and may hold non-ASCII characters.
LINKS = {"type": "object", "additionalProperties": {"type": "string", "format": "iri"}}
TOPIC = {"type": "object", "required": ["slug", "label"],
         "properties": {"slug": {"type": "string"}, "label": {"type": "string"}}}
PAPER_SUMMARY_PROPS = {
    "id": {"type": "string"},
    "title": {"type": "string"},
    "authors": {"type": "array", "items": {"type": "string"}},
    "conference": {"type": "string"},
    "conference_name": {"type": "string"},
    "year": {"type": "integer"},
    "status": {"type": "string", "enum": list(STATUSES)},
    "track": {"type": "string"},
    "topics": {"type": "array", "items": {"$ref": "#/components/schemas/Topic"}},
    "citations": {"type": ["integer", "null"]},
    "links": {"$ref": "#/components/schemas/Links"},
    "url": {"type": "string"},
}
PAPER_SUMMARY = {"type": "object", "required": list(PAPER_SUMMARY_PROPS), "properties": PAPER_SUMMARY_PROPS}
HIT = {"type": "object", "required": [*PAPER_SUMMARY_PROPS, "highlight"], "properties": {
    **PAPER_SUMMARY_PROPS,
    "highlight": {"type": "object", "properties": {"title": {"type": ["string", "null"]},
                                                   "abstract": {"type": ["string", "null"]}}},
}}
AUTHOR = {"type": "object", "required": ["name"], "properties": {
    "name": {"type": "string"}, "affiliation": {"type": "string"}, "orcid": {"type": "string"},
    "author_id": {"type": "string"}}}
PAPER = {"type": "object", "required": [*PAPER_SUMMARY_PROPS, "abstract", "bibtex", "authors_detail"],
         "properties": {
             **PAPER_SUMMARY_PROPS,
             "authors_detail": {"type": "array", "items": {"$ref": "#/components/schemas/Author"}},
             "abstract": {"type": "string"}, "tldr": {"type": "string"},
             "keywords": {"type": "array", "items": {"type": "string"}},
             "primary_area": {"type": "string"}, "status_raw": {"type": "string"},
             "award": {"type": "boolean"}, "bibtex": {"type": "string"}}}
FACET_VALUE = {"type": "object", "required": ["value", "label", "count", "selected"], "properties": {
    "value": {"type": "string"}, "label": {"type": "string"},
    "count": {"type": "integer", "minimum": 0}, "selected": {"type": "boolean"}}}
SEARCH_RESPONSE = {"type": "object", "required": ["total", "hits", "facets", "page", "page_size", "pages",
                                                  "next_search_after"], "properties": {
    "query": {"type": "object"},
    "total": {"type": "integer", "minimum": 0},
    "page": {"type": "integer", "minimum": 1},
    "page_size": {"type": "integer", "minimum": 1, "maximum": MAX_PAGE_SIZE},
    "pages": {"type": "integer", "minimum": 1},
    "next_search_after": {"type": ["string", "null"],
                          "description": "Pass as search_after to get the next page (also beyond 10,000)."},
    "hits": {"type": "array", "items": {"$ref": "#/components/schemas/Hit"}},
    "facets": {"type": "object", "additionalProperties": {
        "type": "array", "items": {"$ref": "#/components/schemas/FacetValue"}}},
    "year_histogram": {"type": "array", "items": {"type": "object", "required": ["year", "count"],
                                                  "properties": {"year": {"type": "integer"},
                                                                 "count": {"type": "integer"}}}},
    "year_range": {"type": ["array", "null"], "items": {"type": "integer"}},
    "suggestion": {"type": ["string", "null"]},
}}
SUGGESTIONS = {"type": "object", "required": ["q", "suggestions"], "properties": {
    "q": {"type": "string"},
    "suggestions": {"type": "array", "items": {"type": "object", "required": ["type", "text", "url"], "properties": {
        "type": {"type": "string", "enum": list(SUGGESTION_KINDS)},
        "text": {"type": "string"}, "url": {"type": "string"},
        "detail": {"type": "string", "description": "a title's conference and year"}}}}}}


COUNT = {"type": "integer", "minimum": 0}
YEAR_COUNT = {"type": "object", "required": ["year", "count"],
              "properties": {"year": {"type": "integer"}, "count": COUNT}}
STATS = {"type": "object", "required": ["total", "by_year", "by_conference_year", "by_topic_year"], "properties": {
    "query": {"type": "object"},
    "total": COUNT,
    "by_year": {"type": "array", "items": YEAR_COUNT,
                "description": "Papers per year; the counts sum to total."},
    "by_conference_year": {"type": "array", "description": "Papers per conference and year; the counts sum to total.",
                           "items": {"type": "object", "required": ["conference", "year", "count"], "properties": {
                               "conference": {"type": "string"}, **YEAR_COUNT["properties"]}}},
    "by_topic_year": {"type": "array", "description": "Papers per topic and year; a paper counts once per topic.",
                      "items": {"type": "object", "required": ["topic", "year", "count"], "properties": {
                          "topic": {"type": "string"}, **YEAR_COUNT["properties"]}}},
}}
_VENUE_COUNTS = ("papers", "accepted", "oral", "spotlight", "poster", "rejected", "withdrawn", "decided",
                 "other_programmes")
VENUE = {"type": "object", "required": ["conference", "year", "papers", "by_status", "acceptance_rate",
                                        "submissions", "accepted"], "properties": {
    "conference": {"type": "string"}, "conference_name": {"type": "string"}, "year": {"type": "integer"},
    "kind": {"type": "string", "description": "conference, journal or workshop: a journal has no submissions or rate"},
    **{name: COUNT for name in _VENUE_COUNTS},
    "by_status": {"type": "object", "additionalProperties": COUNT,
                  "description": "Records per raw status as the source names them (rejected and withdrawn included)."},
    "by_outcome": {"type": "object", "additionalProperties": COUNT,
                   "description": "Records per outcome as the catalogue reads the raw statuses."},
    "rejections_listed": {"type": "boolean"},
    "submissions": {"type": ["integer", "null"], "minimum": 0,
                    "description": "Main-track submissions; null when the source lists no rejections."},
    "acceptance_rate": {"type": ["number", "null"], "minimum": 0, "maximum": 1,
                        "description": "Accepted / decided main-track submissions; null when the source lists "
                                       "no rejections."},
}}


def _responses(ok_schema: str | None, *extra: int, ok_content: dict | None = None) -> dict:
    out: dict = {}
    if ok_schema:
        out["200"] = {"description": "OK", "content": {"application/json": {
            "schema": {"$ref": f"#/components/schemas/{ok_schema}"}}}}
    elif ok_content:
        out["200"] = {"description": "OK", "content": ok_content}
    for status in (400, *extra, 429, 503):
        out[str(status)] = {"description": {400: "Bad parameter", 404: "Not found", 401: "Unauthorized", 413: "Request body over 64 KB",
                                            409: "A reindex is already running",
                                            429: "Past the client's rate limit (error code rate_limited)",
                                            503: "Search unavailable"}[status],
                            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
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
                "parameters": [*SEARCH_PARAMS, FACETS_PARAM, MODE_PARAM, {"name": "search_after", "in": "query", "required": False,
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
                "responses": _responses(None, ok_content={"application/json": {"schema": {
                    "type": "object", "required": ["total", "facets"], "properties": {
                        k: SEARCH_RESPONSE["properties"][k]
                        for k in ("query", "total", "facets", "year_histogram", "year_range")}}}})}},
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
                "responses": _responses(None, 404, ok_content={"application/json": {"schema": {
                    "type": "object", "required": ["papers"], "properties": {"papers": {
                        "type": "array", "items": {"$ref": "#/components/schemas/PaperSummary"}}}}}})}},
            "/api/v1/suggest": {"get": {
                "summary": "Autocomplete", "operationId": "suggest",
                "parameters": [{"name": "q", "in": "query", "required": False,
                                "schema": {"type": "string", "maxLength": MAX_SUGGEST_PREFIX}}],
                "responses": _responses("Suggestions")}},
            "/api/v1/export": {"get": {
                "summary": f"Export up to {EXPORT_LIMIT:,} results as BibTeX, CSV or JSON", "operationId": "export",
                "parameters": [*SEARCH_PARAMS[:-2], {"name": "format", "in": "query", "required": False,
                                                    "schema": {"type": "string", "enum": list(EXPORT_FORMATS)}}],
                "responses": _responses(None, ok_content={
                    "application/x-bibtex": {"schema": {"type": "string"}},
                    "text/csv": {"schema": {"type": "string"}},
                    "application/json": {"schema": {"type": "object"}}})}},
            "/api/v1/stats": {"get": {
                "summary": "Papers per year, conference and topic of a search's result set", "operationId": "stats",
                "parameters": [*SEARCH_PARAMS[:-2], {"name": "format", "in": "query", "required": False,
                                                    "schema": {"type": "string", "enum": list(STATS_FORMATS)}}],
                "responses": _responses(None, ok_content={
                    "application/json": {"schema": {"$ref": "#/components/schemas/Stats"}},
                    "text/csv": {"schema": {"type": "string"}}})}},
            "/api/v1/venues/{slug}/{year}": {"get": {
                "summary": "Venue statistics of a conference-year: records by status, acceptance rate",
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
                    "type": "object", "required": ["task_id"], "properties": {
                        "task_id": {"type": "string"}, "run_id": {"type": "string"},
                        "status": {"type": "string"}, "status_url": {"type": "string"}}}}}},
                    **{k: v for k, v in _responses(None, 401, 409).items() if k != "200"}}}},
        },
        "components": {
            "schemas": {"Error": ERROR, "Links": LINKS, "Topic": TOPIC, "Author": AUTHOR,
                        "PaperSummary": PAPER_SUMMARY, "Hit": HIT, "Paper": PAPER, "FacetValue": FACET_VALUE,
                        "SearchResponse": SEARCH_RESPONSE, "Suggestions": SUGGESTIONS, "Stats": STATS,
                        "Venue": VENUE},
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        },
    }
