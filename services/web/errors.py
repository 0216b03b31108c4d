"""Errors as users should see them: JSON on API routes, a page elsewhere, never a traceback."""

from __future__ import annotations

import logging

import elastic_transport
from elasticsearch import ApiError
from flask import Flask, jsonify, make_response, render_template, request
from werkzeug.exceptions import HTTPException

from services.search.request import InvalidRequest

log = logging.getLogger(__name__)

MESSAGES = {
    400: "bad_request",
    401: "unauthorized",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "too_large",
    503: "unavailable",
    500: "internal",
}


def is_api() -> bool:
    return request.path.startswith("/api/")


def error_response(status: int, message: str, code: str | None = None, headers: dict | None = None):
    code = code or MESSAGES.get(status, "error")
    if is_api():
        resp = jsonify({"error": {"code": code, "message": message}})
    else:
        resp = make_response(render_template("error.html", status=status, message=message))
    resp.status_code = status
    resp.headers["Cache-Control"] = "no-store"
    for name, value in (headers or {}).items():
        resp.headers[name] = value
    return resp


def register(app: Flask) -> None:
    @app.errorhandler(InvalidRequest)
    def invalid(exc: InvalidRequest):
        return error_response(400, str(exc), "invalid_parameter")

    @app.errorhandler(elastic_transport.ConnectionError)
    @app.errorhandler(elastic_transport.ConnectionTimeout)
    def unavailable(exc):
        log.warning("Elasticsearch unavailable: %s", exc)
        return error_response(503, "The search service is temporarily unavailable; please retry shortly.",
                              headers={"Retry-After": "5"})

    @app.errorhandler(ApiError)
    def es_error(exc: ApiError):
        status = exc.meta.status
        if status in (429, 502, 503, 504):
            return error_response(503, "The search service is overloaded; please retry shortly.",
                                  headers={"Retry-After": "5"})
        if status == 404:
            return error_response(503, "The search index is not available yet.", headers={"Retry-After": "30"})
        log.error("Elasticsearch rejected a request (%s): %s", status, exc)
        if status == 400:
            return error_response(400, "This search could not be run; try simpler terms.", "unsupported_query")
        return error_response(503, "The search service failed; please retry shortly.")

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        # Keep the headers the exception carries that clients rely on (Allow on a 405, RFC 9110).
        kept = {name: value for name, value in exc.get_headers() if name.lower() in ("allow", "retry-after")}
        return error_response(exc.code or 500, exc.description or exc.name, headers=kept)

    @app.errorhandler(Exception)
    def unexpected(exc: Exception):
        log.exception("unhandled error on %s", request.path)
        return error_response(500, "Something went wrong on our side; it has been logged.")
