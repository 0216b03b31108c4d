"""Prometheus metrics: requests, latency, Elasticsearch time, cache outcomes, rate limits, renders
and revalidations (what the edge's canonical ETag saves), and
the indexer's figures read from Redis at scrape time (``GET /metrics``, :mod:`..views.ops`).

Under gunicorn every worker is a process; prometheus-client's multiprocess mode sums them
through files in ``PROMETHEUS_MULTIPROC_DIR`` (set by deploy/gunicorn.conf.py). Without it
(a single process: tests, ``flask run``) the process's own values are shown.

The indexer's side (Celery queue depth, lifetime ingest counts, the index generation) is
read through the web's guarded Redis by :class:`IndexerFigures`, at most every few seconds.
"""

from __future__ import annotations

import os
import threading
import time
from functools import cache

import redis
from flask import Flask, Response, request, template_rendered
from jinja2 import Template
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.multiprocess import MultiProcessCollector

from services import redis_keys
from services.search.engine.generation import current_generation

from ..redis_guard import RedisGuard, RedisUnavailable
from ..requestctx import BYPASS, HIT, MISS, STALE, RequestState

LATENCY_BUCKETS = (0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0)
CACHE_STATES = {HIT: "hits", MISS: "misses", STALE: "stale", BYPASS: "bypass"}
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
        self.renders = Counter("paperlist_renders_total", "Templates rendered into an answer, by template",
                               ["template"], registry=None)
        self.revalidated = Counter("paperlist_revalidated_total",
                                   "Conditional requests answered 304 from the canonical ETag, without the view",
                                   registry=None)

    def collectors(self) -> list:
        return [self.requests, self.latency, self.search, *self.cache.values(), self.rate_limited,
                self.renders, self.revalidated]


@cache
def _metrics() -> Metrics:
    """Created on first use, once per process (several apps in one test process share them)."""
    return Metrics()


def install(app: Flask) -> None:
    """Count every template render of ``app`` (what a 304 from the canonical ETag saves)."""
    template_rendered.connect(_rendered, app, weak=False)


def _rendered(sender: Flask, template: Template, context: dict, **extra: object) -> None:
    _metrics().renders.labels(template.name or "string").inc()


def observe_search(call: str, seconds: float) -> None:
    _metrics().search.labels(call).observe(seconds)


def observe(resp: Response, state: RequestState) -> None:
    """Count the answer. Labels from the URL rule and a closed set of methods: clients cannot make up series."""
    metrics = _metrics()
    route = request.url_rule.rule if request.url_rule else "unmatched"
    method = request.method if request.method in METHODS else "other"
    metrics.requests.labels(route, method, str(resp.status_code)).inc()
    metrics.latency.labels(route, method).observe(state.elapsed)
    outcome = state.cache_outcome
    if outcome in metrics.cache:
        metrics.cache[outcome].inc()
    if resp.status_code == 429:
        metrics.rate_limited.inc()
    if state.revalidated:
        metrics.revalidated.inc()


class IndexerFigures:
    """Celery queue depth, ingest totals and the index generation, read from Redis and kept briefly."""

    def __init__(self, guard: RedisGuard, queue: str, alias: str):
        self.guard = guard
        self.queue = queue
        self.alias = alias
        self._lock = threading.Lock()
        self._read_at = -INDEXER_READ_EVERY
        self._figures: tuple | None = None

    def _read(self) -> tuple | None:
        with self._lock:
            if time.monotonic() - self._read_at >= INDEXER_READ_EVERY:
                self._read_at = time.monotonic()
                try:
                    with self.guard.guarded() as client:
                        totals = {k.decode(): int(v) for k, v in client.hgetall(redis_keys.INGEST_TOTALS).items()}
                        polls = {k.decode(): int(v) for k, v in client.hgetall(redis_keys.FOLLOW_TOTALS).items()}
                        failing = {k.decode(): int(v) for k, v in
                                   client.hgetall(redis_keys.follow_failures(self.alias)).items()}
                        errors = {k.decode(): v.decode() for k, v in
                                  client.hgetall(redis_keys.follow_errors(self.alias)).items()}
                        self._figures = (int(client.llen(self.queue)), totals, current_generation(client, self.alias),
                                         polls, failing, errors)
                except (RedisUnavailable, redis.RedisError, ValueError):
                    self._figures = None
            return self._figures

    def collect(self):
        figures = self._read()
        up = GaugeMetricFamily("paperlist_indexer_redis_up", "1 when the indexer's figures could be read from Redis")
        up.add_metric([], 0 if figures is None else 1)
        yield up
        if figures is None:
            return
        depth, totals, generation, polls, failing, errors = figures
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
        yield from _followed(polls, failing, errors)


def _followed(polls: dict[str, int], failing: dict[str, int], errors: dict[str, str]):
    """Followed sources: polls per outcome, and each failing source's consecutive failures with its last error."""
    counted = CounterMetricFamily("paperlist_follow_polls", "Polls of followed sources by outcome", labels=["outcome"])
    for outcome, count in sorted(polls.items()):
        counted.add_metric([outcome], count)
    yield counted
    failures = GaugeMetricFamily("paperlist_follow_failures",
                                 "Consecutive failed polls of a followed source (0 once one succeeds: not listed)",
                                 labels=["source", "last_error"])
    for url, count in sorted(failing.items()):
        failures.add_metric([url, errors.get(url, "")[:200]], count)
    yield failures


def exposition(figures: IndexerFigures) -> Response:
    """Every metric in Prometheus' text format (all gunicorn workers' in multiprocess mode)."""
    registry = CollectorRegistry()
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        MultiProcessCollector(registry)
    else:
        for collector in _metrics().collectors():
            registry.register(collector)
    registry.register(figures)
    return Response(generate_latest(registry), mimetype=CONTENT_TYPE_LATEST)
