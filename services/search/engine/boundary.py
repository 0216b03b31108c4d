"""The boundary between the search layer and Elasticsearch: exceptions, deadlines, the breaker.

Every entry point of :class:`services.search.service.PaperSearch` goes through
:func:`translating`: Elasticsearch's exceptions become :mod:`services.search.errors`' (the only ones
callers such as the web map) and a circuit breaker fails fast while Elasticsearch is
down; each search it sends gets its share of the request's time budget (:class:`Deadlines`).
"""

from __future__ import annotations

import functools
import logging
import math
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, TypeVar

import elastic_transport
from elasticsearch import ApiError

from services.search.errors import (
    BadQuery,
    IndexMissing,
    OptionalTimedOut,
    SearchFailed,
    SearchOverloaded,
    SearchUnavailable,
)

from .breaker import CircuitBreaker, CircuitOpen

log = logging.getLogger(__name__)

_OVERLOADED = (429, 502, 503, 504)


@contextmanager
def translated() -> Iterator[None]:
    """The one place Elasticsearch's exceptions become the search layer's (:mod:`services.search.errors`)."""
    try:
        yield
    except (elastic_transport.ConnectionError, elastic_transport.ConnectionTimeout) as exc:
        log.warning("Elasticsearch unavailable: %s", exc)
        raise SearchUnavailable(str(exc)) from exc
    except ApiError as exc:
        status = exc.meta.status
        if status in _OVERLOADED:
            raise SearchOverloaded(str(exc)) from exc
        if status == 404:
            raise IndexMissing(str(exc)) from exc
        log.error("Elasticsearch rejected a request (%s): %s", status, exc)
        raise (BadQuery if status == 400 else SearchFailed)(str(exc)) from exc


T = TypeVar("T")


class BudgetSpent(SearchUnavailable):
    """The request's time budget ran out before this call (earlier calls or the host were slow)."""


# When the current request must have its answer (time.monotonic()); set per request by the web.
_DEADLINE: ContextVar[float | None] = ContextVar("paperlist_search_deadline", default=None)
# Seconds of a request's budget kept for work after the last Elasticsearch call (rendering).
RENDER_RESERVE = 0.25
MIN_CALL = 0.05


def start_deadline(seconds: float) -> None:
    """Every search-layer call of the current request (thread or context) shares ``seconds``."""
    _DEADLINE.set(time.monotonic() + seconds)


def counts_as_outage(exc: BaseException) -> bool:
    """What opens the breaker: no answer in time, or an overloaded cluster (not a missing alias)."""
    return isinstance(exc, SearchUnavailable) and not isinstance(exc, (IndexMissing, BudgetSpent, OptionalTimedOut))


def search_breaker(failures: int = 3, cooldown: float = 2.0) -> CircuitBreaker:
    return CircuitBreaker("elasticsearch", failures=failures, cooldown=cooldown, is_failure=counts_as_outage,
                          is_slow=is_timeout)


def is_timeout(exc: BaseException) -> bool:
    """No answer in time (not a refused connection): an outage only if nothing answered lately."""
    return isinstance(exc.__cause__, elastic_transport.ConnectionTimeout) or isinstance(exc, SearchOverloaded)


@contextmanager
def breaker_guard(breaker: CircuitBreaker) -> Iterator[None]:
    try:
        with breaker.guard():
            yield
    except CircuitOpen as exc:
        unavailable = SearchUnavailable(str(exc))
        unavailable.retry_after = max(1, math.ceil(exc.retry_after))
        raise unavailable from exc


# Set while an entry point runs: an entry point it calls is part of the same call.
_ENTERED: ContextVar[bool] = ContextVar("paperlist_search_entered", default=False)


def translating(method: Callable[..., T]) -> Callable[..., T]:
    """Make ``method`` an entry point: admitted by the breaker, its failures translated and counted.

    An entry point called from another (``similar`` falling back to ``more_like_this``) runs
    inside its caller's admission: one failure counts once, and a half-open breaker's probe
    is the whole call, not refused half-way.
    """
    @functools.wraps(method)
    def wrapper(self: Any, *args: Any, **kwargs: Any) -> T:
        if _ENTERED.get():
            return method(self, *args, **kwargs)
        entered = _ENTERED.set(True)
        try:
            with breaker_guard(self.breaker) if self.breaker else nullcontext(), translated():
                return method(self, *args, **kwargs)
        finally:
            _ENTERED.reset(entered)
    return wrapper


@dataclass(frozen=True)
class Deadlines:
    """Time budgets (seconds) of one web request; each Elasticsearch call gets a share.

    One call may use 3/4 of the budget, all calls of a request together the budget less
    RENDER_RESERVE (see :func:`start_deadline`); a search also tells Elasticsearch to stop
    at half its deadline and answer with what it has (server-side ``timeout``). A search
    with aggregations (facets, trends) is told to stop at ``facets`` already: the hits are
    then asked for alone, with the time left (:meth:`PaperSearch._hits_first`).
    """

    search: float = 2.0
    ready: float = 1.0
    facets: float = 0.5

    @property
    def call(self) -> float:
        return self.search * 0.75

    @property
    def ready_call(self) -> float:
        return self.ready * 0.75

    def optional_call(self, client_timeout: float) -> float:
        """The client deadline of a search with optional aggregations: at most twice the facets
        budget (and at least half its share), so that when Elasticsearch is too busy to answer it
        in time the hits alone still have time left (issue 17: under load the whole share went
        to the facets and the page was a 503)."""
        return min(client_timeout, max(2 * self.facets, client_timeout / 2))

    def server_timeout(self, client_timeout: float, *, aggregations: bool = False) -> str:
        """Elasticsearch's ``timeout`` for a call: half its client deadline, at most ``facets`` with aggregations."""
        seconds = client_timeout / 2
        if aggregations:
            seconds = min(seconds, self.facets)
        return f"{max(1, int(seconds * 1000))}ms"

    def left(self, per_call: float) -> float:
        """This call's client deadline: its share, cut to what the request has left."""
        end = _DEADLINE.get()
        if end is None:
            return per_call
        left = end - time.monotonic() - RENDER_RESERVE
        if left < MIN_CALL:
            raise BudgetSpent("the request's time budget is spent")
        return min(per_call, left)
