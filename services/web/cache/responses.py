"""Whole answers kept in Redis, on top of the result cache: the API's JSON and the results pages' HTML.

A result-cache hit still costs decoding the stored results and serialising them again —
for a results page, rendering 150-220 kB of HTML (about 40 ms of Python, 25 times the
API's kept answer; issue 17). For a view whose answer depends only on the request
(``whole_answer=True`` in its policy) the finished body is kept too, so a repeated request
costs one Redis round trip (read with the generation: :meth:`KeptAnswers.prefetch`) and almost
nothing else. Same generation, TTL and settling
window as the result cache (:mod:`.store`), so an ingest, a reindex or a rollback shows at
once. Headers are not kept: the hooks set them on every answer, kept or not (the security
headers are the same for every response; no nonce). An answer is kept only when it is
whole: a 200 of a kept type (:data:`KEPT_TYPES`) built from fresh or uncached reads, never
a stale one, nor one the view marked ``no-store`` (a page that left out what ran out of
time). The key includes the host: absolute URLs in a body must never travel to a client
who asked under another name.

Entries are kept gzipped and sent as they are to clients that accept gzip (nginx does not
compress a response that already has a ``Content-Encoding``): compressing a 30 kB answer
is paid once per entry instead of once per hit by the front.
"""

from __future__ import annotations

import hashlib
import json

from flask import Response, request

from .. import requestctx
from ..http.compression import HTML, JSON, gzipped as _gzipped, pack, unpack
from ..policy import Policy
from ..requestctx import BYPASS, HIT, MISS
from .results import KEY_VERSION, no_cache_requested
from .store import ResultStore

KEPT_TYPES = (JSON, HTML)  # an entry is its type's index (one byte), then the gzipped body
KEY_PREFIX = "kept1:"      # the entries' shape: bump when it changes


class KeptAnswers:
    """The two steps the request hooks call (:mod:`services.web.http`): serve a kept answer, keep one."""

    def __init__(self, store: ResultStore):
        self.store = store

    def prefetch(self, policy: Policy) -> None:
        """Read the request's generation (the edge's step needs it first) with its kept answer, in one
        round trip (:meth:`ResultStore.generation_with`); not for a revalidation (a held ETag: most are
        answered 304 without the entry) nor a request that skips reading."""
        if request.method == "GET" and policy.whole_answer and not no_cache_requested() \
                and "If-None-Match" not in request.headers:
            requestctx.current().prefetched = self.store.generation_with(self._key)

    def serve(self, policy: Policy) -> Response | None:
        """The kept answer of this request, if any; else note where the answer is to be kept."""
        if request.method != "GET" or not policy.whole_answer:
            return None
        gen = self.store.generation()
        if gen is None:
            return None
        key = self._key(gen[0])
        state = requestctx.current()
        if no_cache_requested():
            raw = None
        elif state.prefetched and state.prefetched[0] == key:
            raw = state.prefetched[1]
        else:
            raw = self.store.quietly(self.store.get, key)
        if raw is None:
            state.kept_answer_key = key  # answered by the view, then kept
            return None
        answer = _kept(raw)
        if answer is None:
            state.kept_answer_key = key
            return None
        state.note(HIT)
        return answer

    def keep(self, resp: Response, policy: Policy) -> None:
        state = requestctx.current()
        key, state.kept_answer_key = state.kept_answer_key, None
        if not key or resp.status_code != 200 or resp.direct_passthrough or resp.mimetype not in KEPT_TYPES \
                or state.cache_outcome not in (MISS, HIT, BYPASS) or "no-store" in resp.headers.get("Cache-Control", ""):
            return
        settle_ms = state.generation[1] if state.generation else 0
        packed = pack(resp.get_data())
        kind = bytes([KEPT_TYPES.index(resp.mimetype)])
        requestctx.after_sending(lambda: self.store.quietly(self.store.put, key, kind + packed, settle_ms))
        if request.accept_encodings["gzip"]:  # the miss too: not compressed again by the front
            _gzipped(resp, packed)
            if "ETag" in resp.headers and resp.get_etag()[0] != state.edge_validator:
                resp.add_etag(overwrite=True)  # the tag of these bytes, as the next hit's (a canonical one stays)

    def _key(self, generation: int) -> str:
        text = json.dumps([KEY_VERSION, request.endpoint, request.host, request.path,
                           sorted(request.args.items(multi=True))], separators=(",", ":"), ensure_ascii=False)
        return self.store.fresh_key(generation, KEY_PREFIX + hashlib.blake2b(text.encode(), digest_size=16).hexdigest())


def _kept(raw: bytes) -> Response | None:
    """A kept (gzipped) answer as is when the client accepts gzip, else unpacked (None: not an entry)."""
    if not raw or raw[0] >= len(KEPT_TYPES):
        return None
    mimetype, raw = KEPT_TYPES[raw[0]], raw[1:]
    if request.accept_encodings["gzip"]:
        return _gzipped(Response(mimetype=mimetype), raw)
    resp = Response(unpack(raw), mimetype=mimetype)
    resp.vary.add("Accept-Encoding")
    return resp
