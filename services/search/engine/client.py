"""Elasticsearch client construction: one place decides hosts, timeouts and retries."""

from __future__ import annotations

import logging

from elasticsearch import Elasticsearch
from elasticsearch.serializer import OrjsonSerializer

from services.settings import Settings


def make_client(settings: Settings, *, request_timeout: float | None = None,
                max_retries: int = 2, retry_on_timeout: bool = True) -> Elasticsearch:
    """A client over every host of ``ES_URL``; the transport spreads requests and fails over.

    Node sniffing stays off: behind Docker or a load balancer, advertised node addresses
    are often not reachable from the client. JSON goes through orjson: stdlib json cost
    as much as the copying itself in a rebuild (3x slower to parse, 10x to write).
    """
    return Elasticsearch(
        settings.es_hosts,
        serializer=OrjsonSerializer(),
        request_timeout=request_timeout or settings.es_timeout,
        max_retries=max_retries,
        retry_on_timeout=retry_on_timeout,
        http_compress=False,
    )


def make_web_client(settings: Settings) -> Elasticsearch:
    """The web's client: a deadline per call and no retry that would double the wait.

    A connection error is retried once per other node (a refused connection is fast);
    a timeout is not retried, so a hung node costs one call's deadline, not several.
    """
    return make_client(settings, request_timeout=settings.search_budget,
                       max_retries=len(settings.es_hosts) - 1, retry_on_timeout=False)


def quiet_client_logs() -> None:
    """Only warnings from the transport: a web process would otherwise log every request."""
    logging.getLogger("elastic_transport").setLevel(logging.WARNING)


TIMEOUT_STEP = 0.01
"""Seconds: a per-call timeout is cut to this step, so that the clients carrying them can be kept."""


class TimedClients:
    """``es`` with a per-call request timeout, one client per 10 ms step, built once and kept.

    ``Elasticsearch.options()`` builds a whole client (its 40-odd API namespaces, each reading
    the OpenTelemetry settings from the environment): 0.9 ms of Python a call, about three calls
    a search, the largest single cost of an uncached search in the web process (issue 34). A
    deadline's time left is cut *down* to the step, so no call is given more time than is left;
    at most ``budget / step`` clients exist (200 for the 2 s search budget). Thread-safe: the
    worst race builds one client twice.
    """

    def __init__(self, es: Elasticsearch):
        self.es = es
        self._kept: dict[int, Elasticsearch] = {}

    def __call__(self, timeout: float) -> Elasticsearch:
        steps = max(1, int(timeout / TIMEOUT_STEP + 1e-9))
        client = self._kept.get(steps)
        if client is None:
            client = self._kept[steps] = self.es.options(request_timeout=steps * TIMEOUT_STEP)
        return client
