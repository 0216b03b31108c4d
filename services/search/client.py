"""Elasticsearch client construction: one place decides hosts, timeouts and retries."""

from __future__ import annotations

import logging

from elasticsearch import Elasticsearch

from services.settings import Settings


def make_client(settings: Settings, *, request_timeout: float | None = None,
                max_retries: int = 2) -> Elasticsearch:
    """A client over every host of ``ES_URL``; the transport spreads requests and fails over.

    Node sniffing stays off: behind Docker or a load balancer, advertised node addresses
    are often not reachable from the client.
    """
    return Elasticsearch(
        settings.es_hosts,
        request_timeout=request_timeout or settings.es_timeout,
        max_retries=max_retries,
        retry_on_timeout=True,
        http_compress=False,
    )


def quiet_client_logs() -> None:
    """Only warnings from the transport: a web process would otherwise log every request."""
    logging.getLogger("elastic_transport").setLevel(logging.WARNING)
