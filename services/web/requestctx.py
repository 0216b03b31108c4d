"""Per-request state, typed and in one place: when the request started, its id, the index
generation it reads, what the result cache did, the whole answer it may keep and its
canonical validator (the edge's ETag), and the writes that wait until the answer is sent.

Instead of loose ``g.*`` names set in one module and read in three others. The state is
made on first use; the start time comes from the WSGI layer (:func:`install`), so it
covers everything Flask does, the rate limiter's round trip included.
"""

from __future__ import annotations

import logging
import re
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field

from flask import Flask, Response, g, request

from services.search.engine.generation import GenerationRead

log = logging.getLogger(__name__)

REQUEST_ID_HEADER = "X-Request-ID"
_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")
_STARTED = "paperlist.started"  # WSGI environ key

# What a cached read did; a request's outcome is the worst of its reads' (X-Cache, logs, metrics).
HIT, MISS, STALE, BYPASS = "hit", "miss", "stale", "bypass"
_PRECEDENCE = (STALE, MISS, BYPASS, HIT)


@dataclass
class RequestState:
    started: float
    request_id: str  # the front's X-Request-ID when it looks like one, else a new one
    generation: GenerationRead | None = None  # once read; None: unread or Redis down
    generation_read: bool = False
    cache_outcomes: list[str] = field(default_factory=list)
    kept_answer_key: str | None = None  # the whole-answer entry to fill on the way out
    prefetched: tuple[str, bytes | None] | None = None  # (key, bytes) of the kept answer read with the generation
    edge_validator: str | None = None  # the canonical ETag of this answer (services.web.http.edge)
    revalidated: bool = False  # answered 304 from that tag, without running the view
    queued: float = 0.0  # seconds it waited between the front and a thread (services.web.http.queueing)
    deferred: list[Callable[[], None]] = field(default_factory=list)  # run once the answer is sent (after_sending)

    @property
    def elapsed(self) -> float:
        return time.perf_counter() - self.started

    def note(self, outcome: str) -> None:
        self.cache_outcomes.append(outcome)

    @property
    def cache_outcome(self) -> str | None:
        """The worst outcome of this request's cached reads, or None when it made none."""
        return next((s for s in _PRECEDENCE if s in self.cache_outcomes), None)


def current() -> RequestState:
    """The current request's state (inside a request context)."""
    state = g.get("paperlist")
    if state is None:
        given = request.headers.get(REQUEST_ID_HEADER, "")
        state = RequestState(started=request.environ.get(_STARTED, time.perf_counter()),
                             request_id=given if _ID.fullmatch(given) else uuid.uuid4().hex)
        g.paperlist = state
    return state


class _Stamp:
    """WSGI middleware: notes when the request reached the app."""

    def __init__(self, app):
        self.app = app

    def __call__(self, environ, start_response):
        environ[_STARTED] = time.perf_counter()
        return self.app(environ, start_response)


def after_sending(write: Callable[[], None]) -> None:
    """Run ``write`` once the answer has gone out: what the client need not wait for. A miss's cache
    writes (the result and the whole answer, two Redis round trips) were 0.7 ms of an uncached API
    search's own 2.6 ms; a single-flight lock taken for the result is released by its write, so an
    identical request arriving meanwhile still waits for it rather than asking Elasticsearch again."""
    current().deferred.append(write)


def hand_over(resp: Response, state: RequestState) -> None:
    """Give the request's deferred writes to ``resp``: the server runs them when it closes the answer,
    after its last byte went out (a test client closes it before handing it over)."""
    if state.deferred:
        writes, state.deferred = state.deferred, []
        resp.call_on_close(lambda: _run(writes))


def _run(writes: list[Callable[[], None]]) -> None:
    """Each write once, in order (an answer closed twice runs none again)."""
    while writes:
        write = writes.pop(0)
        try:
            write()
        except Exception:  # the answer is sent: a failed write is logged, never raised into the server
            log.exception("a write after the answer failed")


def _run_left(_exc: BaseException | None = None) -> None:
    """Teardown: writes no answer took (the request failed before its last hook) run now."""
    state = g.get("paperlist")
    if state is not None:
        _run(state.deferred)


def install(app: Flask) -> None:
    """Stamp each request's start (the outermost WSGI layer, so the stamp is the earliest); writes
    deferred to after the answer and left untaken run at teardown."""
    app.wsgi_app = _Stamp(app.wsgi_app)  # type: ignore[method-assign]
    app.teardown_request(_run_left)
