"""The app's side of the edge cache in nginx (deploy/nginx/paperlist.conf.template, issue 17).

nginx keeps anonymous GET/HEAD answers of the views whose policy says ``edge=True`` for
as long as their ``s-maxage`` says (PAPERLIST_EDGE_TTL, at most 5 s), then revalidates
them with ``If-None-Match``. This module is the before-request step that makes that cheap:
the answer's ETag is computed before the view runs, from the canonical request and the
index generation (:mod:`.validators`); a request that already holds it gets a 304 without
rendering and without Elasticsearch.

Every parameter order and encoding is answered where it is asked, never redirected (the
contract): nginx keys its entries by the canonical query itself (``deploy/nginx/edge_key.js``),
so permutations share one entry, and the canonical tag is the same for all of them.

The after-request side (:func:`cache_control`, :func:`validator`) is called by
:func:`services.web.http.headers.caching`.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from flask import Response, request

from services.search.engine.generation import GenerationRead

from .. import requestctx
from ..policy import Policy
from ..requestctx import STALE
from . import canonical, validators
from .headers import VARY

READ_METHODS = ("GET", "HEAD")
Generation = Callable[[], "GenerationRead | None"]  # None: unknown (Redis down)


class Edge:
    """The before-request step and the after-request header values for ``edge=True`` views."""

    def __init__(self, ttl: int, release: str, generation: Generation | None):
        self.ttl = ttl
        self.release = release
        self.generation = generation  # None without the result cache: no canonical tags then

    def before(self, view_policy: Policy) -> Response | None:
        """A 304 for a held validator, or None (the view answers)."""
        if not view_policy.edge or request.method not in READ_METHODS:
            return None
        gen = self.generation() if self.generation else None
        state = requestctx.current()
        state.generation, state.generation_read = gen, True  # the read the result cache reuses
        if gen is None or gen[1] > 0:
            return None  # Redis down, or the data still settling: no canonical tag
        state.edge_validator = validators.canonical_etag(
            release=self.release, generation=gen[0], host=request.host, path=request.path,
            query=canonical.canonical_query(request.args.items(multi=True)),
            gzipped=bool(request.accept_encodings["gzip"]))
        if validators.matches(request.headers.get("If-None-Match"), state.edge_validator):
            resp = Response(status=304)
            resp.set_etag(state.edge_validator)
            resp.headers["Cache-Control"] = self.cache_control(view_policy)
            resp.headers["Vary"] = VARY
            state.revalidated = True
            return resp
        return None

    def cache_control(self, view_policy: Policy, browser_max_age: int | None = None) -> str:
        """``public, max-age=…`` (the policy's, or ``browser_max_age``) and, for the edge's views,
        its ``s-maxage`` (shorter while settling)."""
        max_age = view_policy.max_age if browser_max_age is None else browser_max_age
        value = f"public, max-age={max_age}"
        if not view_policy.edge:
            return value
        ttl = self.ttl
        gen = requestctx.current().generation
        if gen and gen[1] > 0:  # kept no longer than the data takes to settle
            ttl = min(ttl, math.ceil(gen[1] / 1000))
        return f"{value}, s-maxage={ttl}"

    @staticmethod
    def validator(resp: Response) -> str | None:
        """The canonical tag for this 200 answer, unless the view chose its own caching or it is stale."""
        state = requestctx.current()
        if "Cache-Control" in resp.headers or state.cache_outcome == STALE:
            return None
        return state.edge_validator
