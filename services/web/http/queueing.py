"""The time a request waited before a thread took it, counted in its budget (issue 34).

gunicorn runs ``workers × PAPERLIST_WEB_THREADS`` requests at once; past that a request waits
in the worker's queue, and nginx in front may hold it too (the edge's cache lock). That wait
was free: a request's search budget started when a thread took it, so under a crowd a
request could wait seconds, then spend two more on Elasticsearch, and its answer came long
after the client gave up (issue 34: a p99 of 2.5 s behind a 2 s budget).

nginx tells when it handed the request on (``X-Request-Start: t=<seconds>``, ``$msec``) and
how long it had held it by then (``X-Request-Held``, ``$request_time``). The budget now
starts at the front: what the request waited is taken off it, and a request that waited
past ``PAPERLIST_QUEUE_BUDGET`` gets no Elasticsearch time at all. Its reads are then answered
from the result cache (fresh, or a stale copy when one is kept) or it is a fast 503 with
``Retry-After`` (:class:`services.search.engine.boundary.BudgetSpent`): the excess of a crowd is
answered at once instead of queued, and the queue drains at the speed of those answers.

The headers are only a hint: a client that reaches gunicorn directly and sends them can
only shorten its own budget (a start in the future counts as no wait).
"""

from __future__ import annotations

import math

from werkzeug.datastructures import Headers

START_HEADER = "X-Request-Start"
HELD_HEADER = "X-Request-Held"
MAX_HELD = 60.0  # seconds; nginx gives up on a request long before


def _seconds(value: str | None, prefix: str = "") -> float | None:
    if not value or not value.startswith(prefix):
        return None
    try:
        seconds = float(value[len(prefix):].strip())
    except ValueError:
        return None
    return seconds if math.isfinite(seconds) and seconds >= 0 else None


def waited(headers: Headers, now: float) -> float:
    """Seconds since the front received the request (0 without the front's headers).

    ``now`` is the wall clock (``time.time()``): the front and the app share the host's.
    """
    started = _seconds(headers.get(START_HEADER), "t=")
    if started is None:
        return 0.0
    held = min(_seconds(headers.get(HELD_HEADER)) or 0.0, MAX_HELD)
    return max(0.0, now - started) + held


def budget_left(budget: float, queued: float, queue_budget: float) -> float:
    """The request's time budget once it has ``queued``: none past ``queue_budget``, else what is left."""
    return 0.0 if queued > queue_budget else max(0.0, budget - queued)
