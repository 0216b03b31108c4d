"""OpenAPI 3 description of the JSON API, generated from the app: each view under ``/api/``
declares its operation where it is served (:func:`operation`, the way ``@policy`` declares
caching), its parameters built here from the registries (facets, sorts, limits), its answers
generated from the pydantic models of :mod:`.schemas` (and its siblings)::

    @bp.get("/suggest")
    @policy(...)
    @operation("suggest", "Autocomplete", answer="Suggestions", params=[SUGGEST_PREFIX])
    def suggest(): ...

:func:`openapi_document` walks the app's URL map: a route under ``/api/`` that declares
neither an operation nor :func:`undocumented` is an error, so no route is left out of the
document (tests/unit/web/render/test_openapi.py). Schemathesis validates real responses
against it (tests/integration/test_schemathesis.py); ``/api/docs`` renders it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import TypeVar

from flask import Flask, current_app
from pydantic import BaseModel
from pydantic.json_schema import GenerateJsonSchema, models_json_schema

from services.search.limits import (
    LIST_IDS_PATTERN,
    MAX_AUTHOR_NAME,
    MAX_BIBTEX_BYTES,
    MAX_BIBTEX_ENTRIES,
    MAX_FILTER_VALUES,
    MAX_LIST_PAPERS,
    MAX_PAGE_SIZE,
    MAX_PAPER_ID,
    MAX_QUERY,
    MAX_SIMILAR_TEXT,
    MAX_SINCE,
    MAX_SINCE_DAYS,
    MAX_SUGGEST_PREFIX,
    MAX_VALUE_CHARS,
    MAX_WINDOW,
    MAX_YEAR,
    MIN_YEAR,
    PERSON_ID_PATTERN,
    SOURCE_ID_PATTERN,
)
from services.search.query.facets import FACETS
from services.search.query.request import ADDED_WINDOWS, DEFAULT_DAYS, MODES, SWITCH
from services.search.query.sorting import SORTS

from . import admin_schemas, bibtex_schemas, people_schemas, schemas, source_schemas, venue_schemas
from .bib_reading import BLOCK_START
from .bibtex_upgrade import KEEP_PATTERN

F = TypeVar("F", bound=Callable)
# Every model the document names (components/schemas), in the order people read them.
COMPONENTS = (*schemas.COMPONENTS, *people_schemas.COMPONENTS, *venue_schemas.COMPONENTS, *admin_schemas.COMPONENTS,
              *source_schemas.COMPONENTS, *bibtex_schemas.COMPONENTS)
API_PREFIX = "/api/"
REF = "#/components/schemas/{model}"
TEXT = {"schema": {"type": "string"}}  # a text answer (BibTeX, CSV), by its media type


def json_of(name: str) -> dict:
    """A JSON answer of the model ``name`` (one of :data:`COMPONENTS`), by its media type."""
    return {"schema": {"$ref": REF.format(model=name)}}


def _array_param(name: str, description: str, schema: dict) -> dict:
    # Blank values (``year=`` from an empty form field) are ignored, so every item schema admits "".
    return {"name": name, "in": "query", "required": False, "description": description,
            "style": "form", "explode": True,
            "schema": {"type": "array", "maxItems": MAX_FILTER_VALUES, "items": schema}}


# What a search is (its words, filters and order): every search-shaped operation takes these.
FILTER_PARAMS = [
    {"name": "q", "in": "query", "required": False, "schema": {"type": "string", "maxLength": MAX_QUERY},
     "description": 'Query: words (all required), "phrases", -exclusion, OR, prefix*, and scopes '
                    "title:, author:, abstract:, aff:, conference:, year:, and person:<id> (one person; author: is every "
                    "person of a name)."},
    *(_array_param(facet.name, facet.description, facet.item_schema()) for facet in FACETS),
    {"name": "sort", "in": "query", "required": False, "allowEmptyValue": True,
     "description": "Order (case-insensitive); relevance when empty or absent.",
     "schema": {"type": "string", "enum": list(SORTS)}},
]
# Which page of it: the operations that answer hits.
PAGING_PARAMS = [
    {"name": "page", "in": "query", "required": False,
     "description": f"1-based page; page * page_size must not exceed {MAX_WINDOW:,} (400 otherwise): "
                    "use search_after to go further.",
     "schema": {"type": "integer", "minimum": 1, "maximum": MAX_WINDOW}},
    {"name": "page_size", "in": "query", "required": False,
     "schema": {"type": "integer", "minimum": 1, "maximum": MAX_PAGE_SIZE}},
]
SEARCH_PARAMS = [*FILTER_PARAMS, *PAGING_PARAMS]
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
PAPER_ID = {"name": "paper_id", "in": "path", "required": True,
            "schema": {"type": "string", "minLength": 1, "maxLength": MAX_PAPER_ID}}
PERSON_ID = {"name": "person_id", "in": "path", "required": True, "description": "A person id (p and 12 hex digits).",
             "schema": {"type": "string", "pattern": f"^{PERSON_ID_PATTERN}$"}}
PERSON_PAGING = [
    {"name": "page", "in": "query", "required": False, "description": "1-based page of the person's papers.",
     "schema": {"type": "integer", "minimum": 1, "maximum": MAX_WINDOW}},
    {"name": "page_size", "in": "query", "required": False,
     "schema": {"type": "integer", "minimum": 1, "maximum": MAX_PAGE_SIZE}},
]
AUTHOR_NAME = {"name": "name", "in": "query", "required": True,
               "description": "An author's name, as written on papers (case, accents, middle initials and hyphens aside).",
               "schema": {"type": "string", "maxLength": MAX_AUTHOR_NAME}}
# A .bib as the document describes it: a text holding at least one "@kind{" and no NUL character.
BIB_SCHEMA = {"type": "string", "maxLength": MAX_BIBTEX_BYTES,
              "pattern": rf"^[^\u0000]*{BLOCK_START.pattern}[^\u0000]*$",
              "description": f"A .bib file (UTF-8, at most {MAX_BIBTEX_BYTES:,} bytes and {MAX_BIBTEX_ENTRIES:,} "
                             "entries)."}
KEEP_PARAM = {"name": "keep", "in": "query", "required": False,
              "description": "Fields of your entries kept in their upgraded entries, comma-separated (note,url): "
                             "yours replace the venue entry's.",
              "schema": {"type": "string", "pattern": KEEP_PATTERN}}
SOURCE_ID = {"name": "source_id", "in": "path", "required": True,
             "schema": {"type": "string", "pattern": f"^{SOURCE_ID_PATTERN}$"}, "description": "A followed source's id."}
NEW_PARAMS = [
    {"name": "days", "in": "query", "required": False, "schema": {"type": "string", "enum": list(ADDED_WINDOWS)},
     "description": f"Papers added or changed in the last {' or '.join(ADDED_WINDOWS)} days (default {DEFAULT_DAYS})."},
    {"name": "since", "in": "query", "required": False, "schema": {"type": "string", "maxLength": MAX_SINCE},
     "description": f"Papers added or changed since this ISO 8601 date or time (at most {MAX_SINCE_DAYS} days back; "
                    "instead of days): new since your last visit, without an account or a cookie."},
]
TASK_ID = {"name": "task_id", "in": "path", "required": True, "schema": {"type": "string", "minLength": 1}}
SEARCH_AFTER_PARAM = {"name": "search_after", "in": "query", "required": False,
                      "schema": {"type": "string", "maxLength": 400}, "description": "Cursor from next_search_after."}
SUGGEST_PREFIX = {"name": "q", "in": "query", "required": False,
                  "schema": {"type": "string", "maxLength": MAX_SUGGEST_PREFIX}}
VENUE_PATH = [{"name": "slug", "in": "path", "required": True,
               "schema": {"type": "string", "minLength": 1, "maxLength": MAX_VALUE_CHARS}},
              {"name": "year", "in": "path", "required": True,
               "schema": {"type": "integer", "minimum": MIN_YEAR, "maximum": MAX_YEAR}}]
# What a client does next after a search; Schemathesis' stateful phase follows these.
SEARCH_LINKS = {
    "FirstHit": {"operationId": "getPaper", "parameters": {"paper_id": "$response.body#/hits/0/id"}},
    "FirstHitSimilar": {"operationId": "similarPapers", "parameters": {"paper_id": "$response.body#/hits/0/id"}},
    "NextPage": {"operationId": "search", "parameters": {"query.search_after": "$response.body#/next_search_after"}},
}


def format_param(formats: Iterable[str]) -> dict:
    return {"name": "format", "in": "query", "required": False, "schema": {"type": "string", "enum": list(formats)}}


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
    """JSON Schemas of the answers, generated from their models (every model they refer to too)."""
    _, generated = models_json_schema([(model, "serialization") for model in COMPONENTS],
                                      ref_template=REF, schema_generator=_Schemas)
    return {name: _nullable_as_type(schema) for name, schema in generated["$defs"].items()}


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


_ANSWERED = {200: "OK", 201: "Created", 202: "Queued", 204: "Done: no body", 302: "Found: the answer is where Location says"}
# What a redirect answers: where to go, no body.
_LOCATION = {"Location": {"description": "Where the answer is", "required": True, "schema": {"type": "string"}}}
_ERRORS = {400: "Bad parameter", 401: "Unauthorized", 404: "Not found",
           409: "A reindex is already running, or the source is already followed",
           413: "Request body over the operation's limit (64 KB; a .bib 1 MB)", 415: "Unsupported request body type",
           429: "Past the client's rate limit (error code rate_limited)",
           503: "Search unavailable"}


def _responses(*extra: int) -> dict:
    """The error answers of an operation: 400, ``extra``, 429 and 503, each an Error."""
    out: dict = {}
    for status in (400, *extra, 429, 503):
        out[str(status)] = {"description": _ERRORS[status],
                            "content": {"application/json": json_of("Error")}}
        if status in (429, 503):
            out[str(status)]["headers"] = {"Retry-After": {
                "description": "Seconds to wait before retrying", "schema": {"type": "integer", "minimum": 1}}}
    return out


@dataclass(frozen=True)
class Operation:
    """One operation of the JSON API, as its view declares it.

    ``answer``: the component of a successful answer, or its content by media type (exports);
    ``status`` its code (a 3xx redirect answers no body, only its ``Location``). ``errors``: documented error statuses besides 400, 429 and 503, which
    every operation has. ``body``: the JSON request body, a pydantic model or a JSON Schema.
    ``body_types``: the media types of the body, when it is not JSON (a text: ``{"text/plain": schema}``).
    ``secured``: needs the admin bearer token.
    """

    id: str
    summary: str
    answer: str | dict | None
    params: tuple[dict, ...] = ()
    status: int = 200
    errors: tuple[int, ...] = ()
    body: type[BaseModel] | dict | None = None
    links: dict | None = None
    body_types: dict | None = None
    secured: bool = False

    def describe(self) -> dict:
        out: dict = {"summary": self.summary, "operationId": self.id}
        if self.secured:
            out["security"] = [{"bearer": []}]
        if self.params:
            out["parameters"] = list(self.params)
        if self.body_types is not None:
            out["requestBody"] = {"required": True, "content": self.body_types}
        elif self.body is not None:
            schema = self.body if isinstance(self.body, dict) else _body_schema(self.body)
            out["requestBody"] = {"required": bool(schema.get("required")),  # an optional body when no key is required
                                  "content": {"application/json": {"schema": schema}}}
        responses = _responses(*self.errors)
        ok = {"application/json": json_of(self.answer)} if isinstance(self.answer, str) else self.answer
        if ok:
            responses = {str(self.status): {"description": _ANSWERED[self.status], "content": ok},
                         **responses}
        elif 300 <= self.status < 400:
            responses = {str(self.status): {"description": _ANSWERED[self.status], "headers": _LOCATION}, **responses}
        elif self.status == 204:
            responses = {"204": {"description": _ANSWERED[204]}, **responses}
        if self.links:
            responses[str(self.status)]["links"] = self.links
        out["responses"] = responses
        return out


def operation(id: str, summary: str, *, params: Iterable[dict] = (), errors: Iterable[int] = (),
              **declared: object) -> Callable[[F], F]:
    """Declare the view's :class:`Operation` (:func:`openapi_document` finds it on the view function)."""
    chosen = Operation(id, summary, params=tuple(params), errors=tuple(errors), **declared)  # type: ignore[arg-type]

    def declare(view: F) -> F:
        view.operation = chosen  # type: ignore[attr-defined]
        return view
    return declare


def undocumented(why: str) -> Callable[[F], F]:
    """Mark a view under ``/api/`` that is no operation of the API (the document itself, its page)."""
    def declare(view: F) -> F:
        view.operation = None  # type: ignore[attr-defined]
        view.undocumented = why  # type: ignore[attr-defined]
        return view
    return declare


def _body_schema(model: type[BaseModel]) -> dict:
    schema = model.model_json_schema(schema_generator=_Schemas)
    schema.pop("title", None)
    return schema


def openapi_path(rule: str) -> str:
    """Flask's ``/papers/<paper_id>`` and ``/venues/<slug>/<int:year>`` as OpenAPI's ``{paper_id}``."""
    return re.sub(r"<(?:[^<>:]+:)?([^<>]+)>", r"{\1}", rule)


def operations(app: Flask) -> Iterable[tuple[str, str, Operation]]:
    """(path, method, operation) of every route under ``/api/``, in the app's order.

    Raises ``LookupError`` naming a route under ``/api/`` whose view declares nothing."""
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith(API_PREFIX):
            continue
        view = app.view_functions[rule.endpoint]
        if not hasattr(view, "operation"):
            raise LookupError(f"{rule.rule} ({rule.endpoint}) declares no @operation (or @undocumented)")
        if view.operation is not None:
            for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
                yield openapi_path(rule.rule), method.lower(), view.operation


def openapi_document(app: Flask | None = None) -> dict:
    """The document of ``app`` (the current app when not given), generated once per app."""
    return _document(app or current_app._get_current_object())  # type: ignore[attr-defined]


@lru_cache(maxsize=8)
def _document(app: Flask) -> dict:
    paths: dict[str, dict] = {}
    for path, method, declared in operations(app):
        paths.setdefault(path, {})[method] = declared.describe()
    return {
        "openapi": "3.1.0",
        "info": {"title": "paperlist API", "version": "1.0.0",
                 "description": "Search AI conference papers: keywords, facets, paper details, suggestions."},
        "paths": paths,
        "components": {
            "schemas": components(),
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        },
    }
