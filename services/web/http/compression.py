"""Answers gzipped once in the app, so the edge (nginx's proxy_cache) keeps compressed bytes.

nginx compresses on the fly (``gzip_proxied any``) whatever arrives uncompressed, and its
cache keeps what arrived: an answer the app sent uncompressed was gzipped again on every edge
hit (a paper page's edge hit did a seventh of the req/s of one sent as kept bytes). Whole
answers kept in Redis are stored gzipped (:mod:`services.web.cache.responses`); the edge's
other views are gzipped here, after the view, with the same level.

The level is Elasticsearch's own (``http.compression_level``, 3), paid on the miss's path: a
20-hit API answer (35 kB) in 0.22 ms against level 6's 0.46 ms, 10% larger (8.9 against 8.0 kB);
a results page (159 kB) in 0.7 against 2.0 ms, 14% larger (22.8 against 20.1 kB).
"""

from __future__ import annotations

import gzip

from flask import Response, request

from .. import requestctx
from ..policy import Policy

GZIP_LEVEL = 3  # paid once per answer, on the miss that stores it
GZIP_MIN_BYTES = 512  # below it gzip gains nothing (nginx's gzip_min_length, deploy/nginx)
JSON = "application/json"
HTML = "text/html"
COMPRESSED_TYPES = (JSON, HTML)


def gzipped(resp: Response, packed: bytes) -> Response:
    """``resp`` carrying gzip bytes as they are (nginx passes an encoded answer on)."""
    resp.set_data(packed)
    resp.headers["Content-Encoding"] = "gzip"
    resp.vary.add("Accept-Encoding")
    return resp


def for_edge(resp: Response, view_policy: Policy) -> None:
    """Gzip an edge view's 200 answer that is not compressed yet, for a client that accepts gzip."""
    if not view_policy.edge or resp.status_code != 200 or resp.direct_passthrough \
            or resp.mimetype not in COMPRESSED_TYPES or "Content-Encoding" in resp.headers \
            or not request.accept_encodings["gzip"] or (resp.content_length or 0) < GZIP_MIN_BYTES:
        return
    retag = "ETag" in resp.headers and resp.get_etag()[0] != requestctx.current().edge_validator
    gzipped(resp, gzip.compress(resp.get_data(), GZIP_LEVEL))
    if retag:
        resp.add_etag(overwrite=True)  # the tag of these bytes (a canonical one stays)
