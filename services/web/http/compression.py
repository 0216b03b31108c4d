"""Answers gzipped once in the app, so the edge (nginx's proxy_cache) keeps compressed bytes.

nginx compresses on the fly (``gzip_proxied any``) whatever arrives uncompressed, and its
cache keeps what arrived: an answer the app sent uncompressed was gzipped again on every edge
hit (a paper page's edge hit did a seventh of the req/s of one sent as kept bytes). Whole
answers kept in Redis are stored gzipped (:mod:`services.web.cache.responses`); the edge's
other views are gzipped here, after the view, with the same level.

Compressed by ISA-L (``isal``: gzip bytes any client reads, from a deflate written for speed) at
its level 3, paid on the miss's path: a 20-hit API answer (35 kB) in 0.075 ms and 8.8 kB, where
zlib's level 3 took 0.25 ms for 8.9 kB (and level 6 0.53 ms for 8.1 kB): a tenth of the
uncached API search's own time, over a proxy that passes Elasticsearch's gzip on (issue 34).
"""

from __future__ import annotations

from flask import Response, request
from isal import igzip

from .. import requestctx
from ..policy import Policy

GZIP_LEVEL = 3  # ISA-L's highest (0-3); paid once per answer, on the miss that stores it
GZIP_MIN_BYTES = 512  # below it gzip gains nothing (nginx's gzip_min_length, deploy/nginx)
JSON = "application/json"
HTML = "text/html"
COMPRESSED_TYPES = (JSON, HTML)


def pack(data: bytes) -> bytes:
    """``data`` gzipped, as an answer is sent and kept."""
    return igzip.compress(data, GZIP_LEVEL)


def unpack(packed: bytes) -> bytes:
    return igzip.decompress(packed)


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
    gzipped(resp, pack(resp.get_data()))
    if retag:
        resp.add_etag(overwrite=True)  # the tag of these bytes (a canonical one stays)
