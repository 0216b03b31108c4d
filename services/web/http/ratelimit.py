"""Per-client rate limits (flask-limiter, Redis storage), priced by the work a request causes.

Every client address has one budget (``PAPERLIST_RATE_LIMIT``) in cost units: a page or a
search costs 1, a deep page (past page 10, or a ``search_after`` cursor) and an export
cost more, as Elasticsearch works harder for them. Autocomplete fires per keystroke and is
cheap, so it has its own budget instead. Each view declares its cost and budget
(:class:`~services.web.policy.Policy`); health, readiness, metrics and static files are
never limited, nor are clients in ``PAPERLIST_RATE_LIMIT_EXEMPT`` (by default the host's
own 127.0.0.1 and ::1: the operator, benchmarks, probes; not all of loopback, so a client
on 127.0.0.3 is limited like any other). Behind nginx the address is the real client's
(:mod:`.proxy`); nginx's flood guard exempts the same networks (its geo block is rendered
from the setting, :mod:`services.ops.nginx`). When Redis is down the
limits fail open: no limit rather than an error.

flask-limiter checks in a before-request hook of its own, installed before the web's pair
(:mod:`services.web.http`), so an answer served whole from the cache still counts.
"""

from __future__ import annotations

import logging
import math
import time

from flask import Flask, current_app, request
from flask_limiter import Limiter, RateLimitExceeded
from flask_limiter.util import get_remote_address

from services import redis_keys
from services.search.query.request import whole_number
from services.settings import Settings

from .. import policy
from ..errors import error_response
from ..policy import Cost, Limit
from .proxy import in_networks

DEEP_PAGE = 10  # pages past this one cost ``rate_limit_deep_cost``
REDIS_TIMEOUT = 0.25  # seconds: a hung Redis must not hold requests (it fails open)


def install(app: Flask) -> Limiter:
    settings: Settings = app.config["SETTINGS"]
    limiter = Limiter(
        get_remote_address,  # the client's address, as ProxyFix leaves it (see .proxy)
        app=app,
        enabled=settings.rate_limit_enabled,
        storage_uri=settings.redis_url,
        storage_options={"socket_timeout": REDIS_TIMEOUT, "socket_connect_timeout": REDIS_TIMEOUT},
        key_prefix=redis_keys.RATE_LIMIT_PREFIX,  # apart from Celery's and the cache's keys
        strategy="fixed-window",
        application_limits=[settings.rate_limit],
        application_limits_cost=_cost,
        application_limits_exempt_when=lambda: policy.current().limit is not Limit.SHARED,
        default_limits=[settings.rate_limit_suggest],  # the budget of views with a budget of their own
        default_limits_exempt_when=lambda: policy.current().limit is not Limit.OWN,
        headers_enabled=False,  # per-client headers have no place in publicly cached answers
        swallow_errors=True,    # fail open: Redis down means no limit, not a 500
    )
    limiter.request_filter(_exempt)
    if _QUIET not in limiter.logger.filters:
        limiter.logger.addFilter(_QUIET)

    @app.errorhandler(RateLimitExceeded)
    def rate_limited(exc: RateLimitExceeded):
        retry = _retry_after(limiter)
        return error_response(429, f"Too many requests from your address; retry in {retry} s.", "rate_limited",
                              headers={"Retry-After": str(retry)})

    return limiter


class _OncePerMinute(logging.Filter):
    """While Redis is down every request fails to count: one warning a minute says so, not a traceback each."""

    def __init__(self) -> None:
        super().__init__()
        self.last = -math.inf

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.ERROR:
            return True
        now = time.monotonic()
        if now - self.last < 60:
            return False
        self.last = now
        cause = record.exc_info[1] if record.exc_info else None
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        record.msg, record.args, record.exc_info, record.exc_text = (
            "rate limits not enforced (failing open): %s", (cause or record.getMessage(),), None, None)
        return True


_QUIET = _OncePerMinute()


def _exempt() -> bool:
    exempt = current_app.config["SETTINGS"].rate_limit_exempt_networks
    return (request.method == "OPTIONS" or policy.current().limit is Limit.NONE
            or in_networks(request.remote_addr, exempt))


def _cost() -> int:
    """What the request costs from the client's budget (its view's :class:`~services.web.policy.Cost`)."""
    settings: Settings = current_app.config["SETTINGS"]
    if request.method == "HEAD":
        return 1  # HEAD does no export or search work beyond validation
    if policy.current().cost is Cost.EXPORT:
        return settings.rate_limit_export_cost
    page = whole_number(request.args.get("page", "1"))
    if "search_after" in request.args or (page is not None and page > DEEP_PAGE):
        return settings.rate_limit_deep_cost
    return 1


def _retry_after(limiter: Limiter) -> int:
    """Whole seconds until the breached window resets (at least 1)."""
    try:
        limit = limiter.current_limit
        return max(1, int(limit.reset_at - time.time())) if limit else 60
    except Exception:  # noqa: BLE001 - storage gone between the hit and now: a safe default
        return 60
