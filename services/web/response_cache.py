"""Whole JSON answers of the public API kept in Redis, on top of the result cache.

A result-cache hit still costs decoding the stored results and serialising them again;
for the API, whose answer depends only on the request, the finished body is kept too, so
a repeated request costs two Redis round trips and almost nothing else. Same generation,
TTL and settling window as the result cache (:mod:`.result_cache`); HTML pages are
rendered per request (their security headers may carry per-response values), so they
use the result cache only. The key includes the host: absolute URLs in a body must
never travel to a client who asked under another name.

Entries are kept gzipped and sent as they are to clients that accept gzip (nginx does not
compress a response that already has a ``Content-Encoding``): compressing a 30 kB answer
is paid once per entry instead of once per hit by the front.
"""

from __future__ import annotations

import gzip
import hashlib
import json

from flask import Flask, Response, g, request

from . import result_cache
from .result_cache import BYPASS, HIT, MISS, CachedSearch

CACHED_ENDPOINTS = ("api.search", "api.suggest", "api.paper", "api.similar", "api.stats", "api.venue")
GZIP_LEVEL = 6  # paid once per entry, on the miss that stores it


def _key(store: result_cache.ResultStore, generation: int) -> str:
    text = json.dumps([result_cache.KEY_VERSION, request.endpoint, request.host, request.path,
                       sorted(request.args.items(multi=True))], separators=(",", ":"), ensure_ascii=False)
    return store.fresh_key(generation, "gz" + hashlib.blake2b(text.encode(), digest_size=16).hexdigest())


def _gzipped(resp: Response, packed: bytes) -> Response:
    """``resp`` carrying the kept gzip bytes as they are (nginx passes an encoded answer on)."""
    resp.set_data(packed)
    resp.headers["Content-Encoding"] = "gzip"
    resp.vary.add("Accept-Encoding")
    return resp


def _kept(raw: bytes) -> Response:
    """A kept (gzipped) answer as is when the client accepts gzip, else unpacked."""
    if request.accept_encodings["gzip"]:
        return _gzipped(Response(mimetype="application/json"), raw)
    resp = Response(gzip.decompress(raw), mimetype="application/json")
    resp.vary.add("Accept-Encoding")
    return resp


def register(app: Flask, cached: CachedSearch) -> None:
    store = cached.store
    if store is None:
        return

    @app.before_request
    def serve_kept_answer() -> Response | None:
        if request.method != "GET" or request.endpoint not in CACHED_ENDPOINTS:
            return None
        state = result_cache.generation_state(store)
        if state is None:
            return None
        key = _key(store, state[0])
        raw = None if result_cache.no_cache_requested() else result_cache.quietly(store, store.get, key)
        if raw is None:
            g.paperlist_response_key = key  # answered below, then kept
            return None
        result_cache.note(HIT)
        return _kept(raw)

    @app.after_request
    def keep_answer(resp: Response) -> Response:
        key = g.pop("paperlist_response_key", None)
        if key and resp.status_code == 200 and result_cache.cache_state() in (MISS, HIT, BYPASS) \
                and not resp.direct_passthrough:
            settle_ms = g.paperlist_generation[1]
            packed = gzip.compress(resp.get_data(), GZIP_LEVEL)
            result_cache.quietly(store, store.put, key, packed, settle_ms)
            if request.accept_encodings["gzip"]:  # the miss too: not compressed again by the front
                _gzipped(resp, packed)
                if "ETag" in resp.headers:
                    resp.add_etag(overwrite=True)  # the tag of these bytes, as the next hit's
        return resp
