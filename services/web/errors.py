"""Errors as users should see them: the one error envelope, and the handlers that use it.

``{"error": {"code", "message"}}`` on API paths (and wherever a view asks for JSON), a page
elsewhere; never a traceback. Every handler is here but the rate limiter's 429
(:mod:`.http.ratelimit`, which knows when the client's window resets).
"""

from __future__ import annotations

import logging

from flask import Flask, jsonify, make_response, render_template, request
from kombu.exceptions import OperationalError
from redis.exceptions import RedisError
from werkzeug.exceptions import HTTPException, NotFound

from services.search.errors import BadQuery, InvalidRequest, QueryTooLong, SearchError

from .redis_guard import RedisUnavailable
from .urls import is_api_path

log = logging.getLogger(__name__)

CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "too_large",
    415: "unsupported_media_type",
    429: "rate_limited",
    503: "unavailable",
    500: "internal",
}


def error_response(status: int, message: str, code: str | None = None, headers: dict | None = None, *,
                   as_json: bool | None = None, page: dict | None = None):
    """The error answer: JSON on API paths (or when ``as_json``), the error page elsewhere; never cached.

    ``page``: what else the error page offers (a too-long query's text, for "papers like this text").
    """
    code = code or CODES.get(status, "error")
    if is_api_path(request.path) if as_json is None else as_json:
        resp = jsonify({"error": {"code": code, "message": message}})
    else:
        resp = make_response(render_template("error.html", status=status, message=message, **(page or {})))
    resp.status_code = status
    resp.headers["Cache-Control"] = "no-store"
    for name, value in (headers or {}).items():
        resp.headers[name] = value
    return resp


def no_such_page(path: str) -> str:
    """What a 404 of the router says: the site's own sentence, not Werkzeug's generic one."""
    shown = path if len(path) <= 80 else path[:80] + "…"
    if is_api_path(path):
        return f"No API route at {shown}; the API is described at /api/docs."
    return f"There is no page at {shown}."


def install(app: Flask) -> None:
    @app.errorhandler(InvalidRequest)
    def invalid(exc: InvalidRequest):
        page = {"long_text": exc.text} if isinstance(exc, QueryTooLong) else {"parameter": exc.parameter}
        return error_response(400, str(exc), "invalid_parameter", page=page)

    @app.errorhandler(SearchError)
    def search_error(exc: SearchError):
        # The search layer logged the cause; its message is meant for users.
        status, code = (400, "unsupported_query") if isinstance(exc, BadQuery) else (503, None)
        headers = {"Retry-After": str(exc.retry_after)} if exc.retry_after else None
        return error_response(status, exc.message, code, headers=headers)

    @app.errorhandler(RedisUnavailable)
    def redis_unavailable(exc: RedisUnavailable):
        log.warning("Redis unavailable on %s: %s", request.path, exc)
        return error_response(503, exc.message, headers={"Retry-After": str(exc.retry_after)})

    @app.errorhandler(OperationalError)
    @app.errorhandler(RedisError)
    def redis_lost(exc: Exception):
        """Redis (or the Celery broker on it) went away in the middle of a call: still a 503."""
        log.warning("Redis unavailable during %s: %s", request.path, exc)
        return error_response(503, RedisUnavailable.message, headers={"Retry-After": "5"})

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        # Keep the headers the exception carries that clients rely on (Allow on a 405, RFC 9110).
        kept = {name: value for name, value in exc.get_headers() if name.lower() in ("allow", "retry-after")}
        message = exc.description or exc.name
        if isinstance(exc, NotFound) and message == NotFound.description:  # the router's, not a view's own
            message = no_such_page(request.path)
        return error_response(exc.code or 500, message, headers=kept)

    @app.errorhandler(Exception)
    def unexpected(exc: Exception):
        log.exception("unhandled error on %s", request.path)
        return error_response(500, "Something went wrong on our side; it has been logged.")
