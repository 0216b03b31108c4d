"""HTTP caching for GET answers: ETags for conditional requests, short public max-age.

Results change only when an ingest or reindex lands, so a minute of caching in browsers
and any CDN in front takes load off Elasticsearch without showing stale data for long.
"""

from __future__ import annotations

from flask import Flask, Response, request

MAX_AGE = {"/api/v1/suggest": 300, "/api/v1/openapi.json": 3600}
DEFAULT_MAX_AGE = 60
NO_STORE = ("/healthz", "/readyz", "/api/v1/admin")


def register(app: Flask) -> None:
    @app.after_request
    def cache_headers(resp: Response) -> Response:
        if request.method not in ("GET", "HEAD") or resp.status_code != 200 or request.endpoint == "static":
            return resp
        if request.path.startswith(NO_STORE):
            resp.headers["Cache-Control"] = "no-store"
            return resp
        resp.headers.setdefault("Cache-Control", f"public, max-age={MAX_AGE.get(request.path, DEFAULT_MAX_AGE)}")
        resp.headers["Vary"] = "Accept-Encoding, Origin"
        if not resp.direct_passthrough and not resp.is_streamed:
            resp.add_etag()
            resp.make_conditional(request)
        return resp
