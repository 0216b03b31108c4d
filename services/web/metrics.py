"""``GET /metrics`` in Prometheus format: requests, latency, Elasticsearch time, cache, rate limits.

Under gunicorn every worker is a process; prometheus-client's multiprocess mode sums them
through files in ``PROMETHEUS_MULTIPROC_DIR`` (set by deploy/gunicorn.conf.py). Without it
(a single process: tests, ``flask run``) the process's own values are shown.

The indexer's side (Celery queue depth, lifetime ingest counts) is read from Redis by
:class:`IndexerCollector` at scrape time, at most every few seconds.

Only loopback and private-network clients may scrape (``request.remote_addr``, which the
proxy handling has already resolved); others get 403.
"""

from __future__ import annotations

import ipaddress
import os
import threading
import time
from functools import cache

import redis
from flask import Flask, Response, current_app, jsonify, request
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.multiprocess import MultiProcessCollector

from services import redis_keys
from services.search.generation import current_generation
from services.settings import Settings

from . import request_log

LATENCY_BUCKETS = (0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0)
CACHE_STATES = {"hit": "hits", "miss": "misses", "stale": "stale", "bypass": "bypass"}
METHODS = ("GET", "HEAD", "POST", "OPTIONS")  # any other method a client invents counts as "other"
INDEXER_READ_EVERY = 5.0  # seconds between Redis reads of the indexer's figures


class Metrics:
    def __init__(self) -> None:
        self.requests = Counter("paperlist_http_requests_total", "HTTP requests by route, method and status",
                                ["route", "method", "status"], registry=None)
        self.latency = Histogram("paperlist_http_request_duration_seconds", "HTTP request latency by route",
                                 ["route", "method"], buckets=LATENCY_BUCKETS, registry=None)
        self.search = Histogram("paperlist_search_backend_seconds",
                                "Time spent asking Elasticsearch, by search call (cache misses only)",
                                ["call"], buckets=LATENCY_BUCKETS, registry=None)
        self.cache = {state: Counter(f"paperlist_cache_{name}_total", f"Requests answered with X-Cache: {state}",
                                     registry=None) for state, name in CACHE_STATES.items()}
        self.rate_limited = Counter("paperlist_rate_limited_total", "Requests refused with 429", registry=None)

    def collectors(self) -> list:
        return [self.requests, self.latency, self.search, *self.cache.values(), self.rate_limited]


@cache
def _metrics() -> Metrics:
    """Created on first use, once per process (several apps in one test process share them)."""
    return Metrics()


def observe_search(call: str, seconds: float) -> None:
    _metrics().search.labels(call).observe(seconds)


def count_rate_limited() -> None:
    """For a rate limiter that answers without going through Flask's response cycle."""
    _metrics().rate_limited.inc()


class IndexerCollector:
    """Celery queue depth, ingest totals and the index generation, read from Redis and kept briefly."""

    def __init__(self, settings: Settings):
        timeout = settings.cache_timeout_ms / 1000
        self.redis = redis.Redis.from_url(settings.redis_url, socket_connect_timeout=timeout, socket_timeout=timeout)
        self.queue = settings.queue
        self.alias = settings.index
        self._lock = threading.Lock()
        self._read_at = -INDEXER_READ_EVERY
        self._figures: tuple[int, dict[str, int], int] | None = None

    def _read(self) -> tuple[int, dict[str, int], int] | None:
        with self._lock:
            if time.monotonic() - self._read_at >= INDEXER_READ_EVERY:
                self._read_at = time.monotonic()
                try:
                    totals = {k.decode(): int(v) for k, v in self.redis.hgetall(redis_keys.INGEST_TOTALS).items()}
                    self._figures = (int(self.redis.llen(self.queue)), totals,
                                     current_generation(self.redis, self.alias))
                except (redis.RedisError, OSError, ValueError):
                    self._figures = None
            return self._figures

    def collect(self):
        figures = self._read()
        up = GaugeMetricFamily("paperlist_indexer_redis_up", "1 when the indexer's figures could be read from Redis")
        up.add_metric([], 0 if figures is None else 1)
        yield up
        if figures is None:
            return
        depth, totals, generation = figures
        queue = GaugeMetricFamily("paperlist_queue_depth", "Celery messages waiting in the queue", labels=["queue"])
        queue.add_metric([self.queue], depth)
        yield queue
        ingested = CounterMetricFamily("paperlist_ingest_documents", "Documents processed by ingest workers",
                                       labels=["outcome"])
        for outcome, count in sorted(totals.items()):
            ingested.add_metric([outcome], count)
        yield ingested
        gen = GaugeMetricFamily("paperlist_index_generation", "Changes of the searchable data (cache generation)",
                                labels=["alias"])
        gen.add_metric([self.alias], generation)
        yield gen


def allowed(address: str | None) -> bool:
    try:
        ip = ipaddress.ip_address(address or "")
    except ValueError:
        return False
    return ip.is_loopback or ip.is_private


def register(app: Flask) -> None:
    metrics = _metrics()
    app.extensions["paperlist.indexer_metrics"] = IndexerCollector(app.config["SETTINGS"])

    @app.after_request
    def observe(resp: Response) -> Response:
        # Registered before the other after_request hooks, so it runs last and times them too.
        # Labels from the URL rule and a closed set of methods: clients cannot make up series.
        route = request.url_rule.rule if request.url_rule else "unmatched"
        method = request.method if request.method in METHODS else "other"
        metrics.requests.labels(route, method, str(resp.status_code)).inc()
        elapsed = request_log.elapsed_seconds()
        if elapsed is not None:
            metrics.latency.labels(route, method).observe(elapsed)
        state = resp.headers.get("X-Cache")
        if state in metrics.cache:
            metrics.cache[state].inc()
        if resp.status_code == 429:
            metrics.rate_limited.inc()
        return resp

    app.add_url_rule("/metrics", "metrics", scrape)


def scrape():
    if not allowed(request.remote_addr):
        resp = jsonify({"error": {"code": "forbidden", "message": "metrics are for the internal network only"}})
        resp.status_code = 403
        return resp
    registry = CollectorRegistry()
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        MultiProcessCollector(registry)
    else:
        for collector in _metrics().collectors():
            registry.register(collector)
    registry.register(current_app.extensions["paperlist.indexer_metrics"])
    resp = Response(generate_latest(registry), mimetype=CONTENT_TYPE_LATEST)
    resp.headers["Cache-Control"] = "no-store"
    return resp
