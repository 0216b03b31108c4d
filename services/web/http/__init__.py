"""What every request goes through, in one ordered pair of hooks (aleph's ``context.py`` habit).

Before the view, in order:

1. the rate limit (flask-limiter's own hook, installed first: a kept answer still counts);
2. the parameters are UTF-8, or a 400 names the one that is not (:mod:`.parameters`);
3. the edge's step, for views the edge cache keeps: a 304 for a request holding the
   canonical ETag (no render, no Elasticsearch; :mod:`.edge`); the index generation it reads
   comes with the kept answer of step 4, in one round trip;
4. a whole answer kept in the cache, when the view's policy allows one (the view is skipped);
5. the request's time budget for its Elasticsearch calls, counted from when the front received
   it: what it waited for a thread is taken off, and past the queue budget none is left, so it is
   answered from the caches or a fast 503 (:mod:`.queueing`).

After the view, on every answer (errors too), in order:

1. security headers;
2. HTTP caching: Cache-Control from the view's policy (the edge's s-maxage), Vary, ETag and 304;
3. CORS, for views that allow cross-origin reads;
4. keeping the whole answer (gzipped once; the ETag then tags those bytes), and gzipping an
   edge view's answer that was not kept, so the edge holds compressed bytes either way;
5. ``X-Cache`` with the result cache's outcome;
6. ``X-Request-ID`` and the access-log line;
7. the metrics, so they time everything before them;
8. the writes the client need not wait for (a miss's cache writes) handed to the answer, which the
   server runs once it has sent it (:func:`services.web.requestctx.after_sending`).

Each step is a function of its own module here (parameters, headers, edge, compression, access_log,
metrics, ratelimit, proxy, json_bodies); this module only orders them. A new header goes in ``headers.py``
and into :func:`_after` at its place.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from flask import Flask, Response, request

from services.search.engine.boundary import start_deadline

from .. import policy, requestctx
from ..policy import Budget
from . import access_log, compression, headers, metrics, proxy, queueing, ratelimit, validators
from .edge import Edge, Generation
from .parameters import check_utf8

RELEASE_ROOTS = (Path(__file__).resolve().parents[2],)  # services/: the code and templates of a release


class KeptAnswers(Protocol):
    """The whole-answer cache as the hooks use it (:class:`services.web.cache.responses.KeptAnswers`)."""

    def prefetch(self, view_policy: policy.Policy) -> None: ...

    def serve(self, view_policy: policy.Policy) -> Response | None: ...

    def keep(self, resp: Response, view_policy: policy.Policy) -> None: ...


def install(app: Flask, kept: KeptAnswers | None, generation: Generation | None) -> None:
    """The WSGI layers, the rate limiter, then the one before/after pair.

    ``generation`` reads the index generation once per request (the result cache's store);
    without it (no cache) the edge's views are tagged by their bodies.
    """
    settings = app.config["SETTINGS"]
    proxy.install(app)
    requestctx.install(app)  # outermost: the request's clock starts before everything else
    ratelimit.install(app)
    metrics.install(app)
    cors = headers.cors_options(app)
    budgets = {Budget.SEARCH: settings.search_budget, Budget.READY: settings.ready_budget,
               Budget.BATCH: settings.batch_budget}
    release = validators.release_tag(RELEASE_ROOTS) + settings.public_url
    edge = Edge(settings.edge_ttl, release, generation)
    app.before_request(_before(edge, kept, budgets, settings.queue_budget))
    app.after_request(_after(edge, kept, cors))


def _before(edge: Edge, kept: KeptAnswers | None, budgets: dict[Budget, float],
            queue_budget: float) -> Callable[[], Response | None]:
    def before() -> Response | None:
        view_policy = policy.current()
        check_utf8(request.query_string)
        if kept is not None:
            kept.prefetch(view_policy)  # the generation the edge's step reads, with the kept answer
        answer = edge.before(view_policy)
        if answer is not None:
            return answer
        if kept is not None:
            answer = kept.serve(view_policy)
            if answer is not None:
                return answer
        # Every search-layer call of this request shares one budget (services.search.engine.boundary), which
        # started when the front received it; a readiness probe is never shed.
        budget = budgets[view_policy.budget]
        if view_policy.budget is Budget.SEARCH:
            state = requestctx.current()
            state.queued = queueing.waited(request.headers, time.time())
            budget = queueing.budget_left(budget, state.queued, queue_budget)
        start_deadline(budget)
        return None
    return before


def _after(edge: Edge, kept: KeptAnswers | None, cors: dict) -> Callable[[Response], Response]:
    def after(resp: Response) -> Response:
        view_policy = policy.current()
        state = requestctx.current()
        headers.security(resp)
        headers.caching(resp, view_policy, edge)
        headers.cors(resp, view_policy, cors)
        if kept is not None:
            kept.keep(resp, view_policy)
        compression.for_edge(resp, view_policy)
        headers.cache_outcome(resp, state)
        access_log.finish(resp, state)
        metrics.observe(resp, state)
        requestctx.hand_over(resp, state)
        return resp
    return after
