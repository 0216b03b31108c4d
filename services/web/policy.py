"""HTTP policy declared on each view: caching, rate-limit cost and budget, time budget, CORS.

Why on the view: a rule kept in a table of paths or endpoint names drifts from the routes
it names (the whole-answer cache once listed ``api.stats``, an endpoint that never
existed, and nothing noticed). Here each view says what it is, the way warehouse's
``origin_cache`` and readthedocs' ``throttle_classes`` do, and the hooks read it::

    @bp.get("/suggest")
    @policy(max_age=300, edge=True, whole_answer=True, limit=Limit.OWN, cors=True)
    def suggest(): ...

A test walks every route and checks that each one declares a policy. Requests that match
no route (a 404 or 405 of the router) get :data:`UNMATCHED`.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from flask import current_app, request

from .urls import is_api_path

F = TypeVar("F", bound=Callable)


class Cost(enum.Enum):
    """What a request costs from its client's rate-limit budget (settings price each kind)."""

    PAGE = "page"      # 1; a deep page (past page 10, or a search_after cursor) costs rate_limit_deep_cost
    EXPORT = "export"  # rate_limit_export_cost


class Limit(enum.Enum):
    """Which rate-limit budget a request draws on."""

    SHARED = "shared"  # the client's one budget (PAPERLIST_RATE_LIMIT)
    OWN = "own"        # a budget of its own (autocomplete: PAPERLIST_RATE_LIMIT_SUGGEST)
    NONE = "none"      # never limited (health, readiness, metrics)


class Budget(enum.Enum):
    """The request's time budget for its Elasticsearch calls (services.search.engine.boundary)."""

    SEARCH = "search"  # PAPERLIST_SEARCH_BUDGET
    READY = "ready"    # PAPERLIST_READY_BUDGET
    BATCH = "batch"    # PAPERLIST_BATCH_BUDGET: many reads in one request (a .bib's upgrade, a few msearch calls)


@dataclass(frozen=True)
class Policy:
    """How the hooks treat a view's requests (see :mod:`services.web.http` and :mod:`services.web.cache`).

    ``max_age``: seconds browsers may keep a 200 answer to GET (``Cache-Control: public``);
    None answers ``no-store``. ``edge``: the answer depends only on the canonical request
    and the index, so the edge cache in nginx may keep it for PAPERLIST_EDGE_TTL seconds
    (``s-maxage``), keyed by the canonical query (any parameter order is one entry), and a
    revalidation is answered 304 from the canonical ETag without running the view
    (:mod:`services.web.http.edge`). ``whole_answer``:
    the finished body is kept in Redis and served as it is (JSON answers and HTML pages that depend on
    the request only; :mod:`services.web.cache.responses`). ``cached_reads``: search reads go through the result cache (admin's do
    not). ``cors``: cross-origin reads allowed (the public API).
    """

    max_age: int | None = 60
    edge: bool = False
    whole_answer: bool = False
    cached_reads: bool = True
    cost: Cost = Cost.PAGE
    limit: Limit = Limit.SHARED
    budget: Budget = Budget.SEARCH
    cors: bool = False

    def __post_init__(self) -> None:
        if self.edge and self.max_age is None:
            raise ValueError("a view kept by the edge must be cacheable (edge=True needs a max_age)")


UNMATCHED = Policy(max_age=None)
UNMATCHED_API = Policy(max_age=None, cors=True)  # an API client reads the error of a mistyped path too
# Flask's own static route: send_file sets its caching (fingerprinted, a year); never limited.
STATIC = Policy(max_age=None, limit=Limit.NONE, cached_reads=False)
STATIC_ENDPOINT = "static"  # Flask's name for it


def policy(**declared: object) -> Callable[[F], F]:
    """Declare the view's :class:`Policy` (the hooks find it on the view function)."""
    chosen = Policy(**declared)  # type: ignore[arg-type]

    def declare(view: F) -> F:
        view.policy = chosen  # type: ignore[attr-defined]
        return view
    return declare


def declared(view: Callable) -> Policy | None:
    return getattr(view, "policy", None)


def current() -> Policy:
    """The policy of the view the current request goes to."""
    if request.endpoint == STATIC_ENDPOINT:
        return STATIC
    view = current_app.view_functions.get(request.endpoint or "") if request.endpoint else None
    found = declared(view) if view else None
    if found is not None:
        return found
    return UNMATCHED_API if is_api_path(request.path) else UNMATCHED
