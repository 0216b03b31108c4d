"""The web's one Redis client, guarded: short socket timeouts, no retries, and a circuit breaker.

Why: the web's Redis uses (the result cache, the indexer's figures on ``/metrics``, the
admin API's broker check) are optional or secondary; a dead or hung Redis must cost a
request milliseconds, not the client library's default retries, and after a few failures
none at all until the breaker's cool-down. One client and one breaker for all of them,
so they agree on whether Redis is up. ``with extensions.redis().guarded() as client: ...``
turns every connection failure (and an open breaker) into :class:`RedisUnavailable`;
callers decide whether that is a 503 (admin) or a fail-open (cache, metrics). The rate
limiter's storage is flask-limiter's own client, with the same short timeouts.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import redis
from kombu.exceptions import OperationalError as BrokerError
from redis.backoff import NoBackoff
from redis.retry import Retry

from services.search.engine.breaker import CircuitBreaker, CircuitOpen
from services.settings import Settings

# Seconds to connect or to wait for a Redis answer (PAPERLIST_CACHE_TIMEOUT_MS is the web's own);
# a healthy local Redis answers in < 1 ms.
SOCKET_TIMEOUT = 0.25
_OUTAGES = (redis.ConnectionError, redis.TimeoutError, BrokerError, OSError)


class RedisUnavailable(Exception):
    """Redis cannot be reached, timed out, or its breaker is open."""

    message = "A backing service (Redis) is temporarily unavailable; please retry shortly."

    def __init__(self, detail: str = "", retry_after: int = 5):
        super().__init__(detail or self.message)
        self.retry_after = retry_after


class RedisGuard:
    """One guarded Redis client per process, with its breaker."""

    def __init__(self, url: str, *, failures: int = 3, cooldown: float = 2.0,
                 timeout: float = SOCKET_TIMEOUT):
        self.client = redis.Redis.from_url(
            url, socket_timeout=timeout, socket_connect_timeout=timeout,
            retry=Retry(NoBackoff(), 0), retry_on_timeout=False)
        self.breaker = CircuitBreaker("redis", failures=failures, cooldown=cooldown,
                                      is_failure=lambda exc: isinstance(exc, _OUTAGES))

    @contextmanager
    def guarded(self) -> Iterator[redis.Redis]:
        """The client, for a block whose Redis failures become :class:`RedisUnavailable`."""
        try:
            with self.breaker.guard():
                yield self.client
        except CircuitOpen as exc:
            raise RedisUnavailable(str(exc), retry_after=max(1, math.ceil(exc.retry_after))) from exc
        except _OUTAGES as exc:
            raise RedisUnavailable(str(exc)) from exc

    def ping(self) -> None:
        with self.guarded() as client:
            client.ping()


def from_settings(settings: Settings) -> RedisGuard:
    return RedisGuard(settings.redis_url, failures=settings.breaker_failures, cooldown=settings.breaker_cooldown,
                      timeout=settings.cache_timeout_ms / 1000)


def celery_timeouts(timeout: float = 1.0) -> dict[str, Any]:
    """Celery settings for a web process: fail within about ``timeout`` when the broker is down."""
    transport = {"socket_timeout": timeout, "socket_connect_timeout": timeout, "max_retries": 0}
    return {
        "broker_connection_timeout": timeout,
        "broker_connection_retry": False,
        "broker_connection_max_retries": 0,
        "broker_transport_options": transport,
        "result_backend_transport_options": {"retry_policy": {"max_retries": 0}},
        "redis_socket_connect_timeout": timeout,
        "redis_retry_on_timeout": False,
        "redis_backend_health_check_interval": 0,
        "task_publish_retry": False,
    }
