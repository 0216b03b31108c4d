"""Response headers: security (CSP and friends), HTTP caching (Cache-Control, ETag, Vary), CORS,
the result cache's outcome (``X-Cache``), downloads (``Content-Disposition``).

Caching follows the view's :class:`~services.web.policy.Policy`: results change only when
an ingest or reindex lands, so a minute in browsers takes load off Elasticsearch without
showing stale data for long; a view may say longer (autocomplete, the OpenAPI document) or
``no-store`` (health, admin). Views the edge cache keeps also say ``s-maxage`` (a few
seconds, PAPERLIST_EDGE_TTL) and carry a canonical ETag (:mod:`.edge`). Security headers go on every answer.
Scripts only from our own origin (no inline script, no ``on*=`` attributes); inline
*styles* are allowed because the year histogram sizes its bars with ``style="--h: …"``.
"""

from __future__ import annotations

from typing import Protocol

from flask import Flask, Response, request
from flask_cors.core import get_cors_options, set_cors_headers

from ..policy import STATIC, Policy
from ..requestctx import STALE, RequestState

CSP = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
])
SECURITY = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
}
VARY = "Accept-Encoding, Origin"
# Answers of the edge's views other than a 200 that nginx keeps for the view's s-maxage as well.
EDGE_KEPT_ELSE = frozenset({301, 302, 307, 308, 404})
# The public API is readable from any origin; its counts are headers a script may read.
API_CORS = {"origins": "*", "methods": ["GET", "OPTIONS"], "send_wildcard": True,
            "expose_headers": ["X-Total-Count", "X-Exported-Count"]}


def security(resp: Response) -> None:
    for name, value in SECURITY.items():
        resp.headers.setdefault(name, value)


class EdgeHeaders(Protocol):
    """The edge's header values (:class:`services.web.http.edge.Edge`)."""

    def cache_control(self, policy: Policy, browser_max_age: int | None = None) -> str: ...

    def validator(self, resp: Response) -> str | None: ...


def caching(resp: Response, policy: Policy, edge: EdgeHeaders) -> None:
    """Cache-Control, Vary and a conditional answer (ETag, 304) for a 200 answer to GET or HEAD.

    The ETag of a view the edge keeps is its canonical one (computed before the view ran),
    unless the view set its own Cache-Control (a degraded page's ``no-store``); other
    answers are tagged with a hash of their body.
    """
    if request.method not in ("GET", "HEAD") or policy is STATIC:
        return
    if resp.status_code in EDGE_KEPT_ELSE and policy.edge:
        # The edge keeps a 404 and a redirect too, briefly (browsers do not; the error boundary
        # said no-store). A 404 replaces the entry of a page that is gone, which nginx would
        # otherwise go on serving stale while it tries again in the background. A redirect
        # (a page past the last one, a misspelt author) is otherwise uncacheable, and nginx's
        # cache lock then passes a crowd asking for it upstream one at a time, half a second
        # apart: issue 34's 150% step waited 5 s for a 302 the app gave in 7 ms.
        resp.headers["Cache-Control"] = edge.cache_control(policy, browser_max_age=0)
        return
    if resp.status_code != 200:
        return
    if policy.max_age is None:
        resp.headers["Cache-Control"] = "no-store"
        return
    tag = edge.validator(resp) if policy.edge else None
    resp.headers.setdefault("Cache-Control", edge.cache_control(policy))
    resp.headers["Vary"] = VARY
    if not resp.direct_passthrough and not resp.is_streamed:
        if tag:
            resp.set_etag(tag)
        else:
            resp.add_etag()
        resp.make_conditional(request)


def cors_options(app: Flask) -> dict:
    """flask-cors' options for the API, resolved once (app configuration included)."""
    return get_cors_options(app, API_CORS)


def cors(resp: Response, policy: Policy, options: dict) -> None:
    if policy.cors:
        set_cors_headers(resp, options)


def cache_outcome(resp: Response, state: RequestState) -> None:
    """``X-Cache`` (hit, miss, stale, bypass) when the request made a cached read; a stale one says so."""
    outcome = state.cache_outcome
    if outcome:
        resp.headers["X-Cache"] = outcome
        if outcome == STALE:
            resp.headers["Warning"] = '110 - "Response is stale"'


def attachment(resp: Response, filename: str) -> Response:
    """A download: the browser saves ``resp`` as ``filename`` (ASCII, chosen by us)."""
    resp.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return resp


def left_out(resp: Response, parts: tuple[str, ...]) -> Response:
    """An answer without what ran out of time says so (``X-Left-Out: facets, suggestions``) and is kept
    nowhere (Redis, browsers, the edge): the next visit has it all. Pages and the API alike."""
    if parts:
        resp.headers["X-Left-Out"] = ", ".join(parts)
        resp.headers["Cache-Control"] = "no-store"
    return resp
