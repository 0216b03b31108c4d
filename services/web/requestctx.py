"""Per-request state, typed and in one place: when the request started, its id, the index
generation it reads, what the result cache did, the whole answer it may keep and its
canonical validator (the edge's ETag).

Instead of loose ``g.*`` names set in one module and read in three others. The state is
made on first use; the start time comes from the WSGI layer (:func:`install`), so it
covers everything Flask does, the rate limiter's round trip included.
"""

from __future__ import annotations

import re
import time
import uuid
from dataclasses import dataclass, field

from flask import Flask, g, request

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
    generation: tuple[int, int] | None = None  # (generation, settling ms) once read; None: unread or Redis down
    generation_read: bool = False
    cache_outcomes: list[str] = field(default_factory=list)
    kept_answer_key: str | None = None  # the whole-answer entry to fill on the way out
    edge_validator: str | None = None  # the canonical ETag of this answer (services.web.http.edge)
    revalidated: bool = False  # answered 304 from that tag, without running the view
    queued: float = 0.0  # seconds it waited between the front and a thread (services.web.http.queueing)

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


def install(app: Flask) -> None:
    """Stamp each request's start; the outermost WSGI layer, so the stamp is the earliest."""
    app.wsgi_app = _Stamp(app.wsgi_app)  # type: ignore[method-assign]
