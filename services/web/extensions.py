"""What the app holds for its requests, and the only reader of ``app.extensions``.

Why one module: views, hooks and the metrics scrape used to read ``app.extensions`` by
string keys in four places. Here :func:`install` puts each object once (``create_app``
calls it) and a typed accessor gives it back inside a request: the search reads (the
result cache in front of the real service), the Celery client of the admin API, the
guarded Redis, the indexer's figures for ``/metrics``, the settings.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from celery import Celery
from flask import Flask, current_app

from services.search.query.request import SearchRequest
from services.search.reads import SearchReads
from services.settings import Settings

from .redis_guard import RedisGuard

_READS, _CELERY, _REDIS, _FIGURES = "paperlist.reads", "paperlist.celery", "paperlist.redis", "paperlist.figures"


@runtime_checkable
class SiteReads(SearchReads, Protocol):
    """The reads as the app installs them (``cache.results.CachedSearch`` in front of the search layer):
    every search read, and the HTML fragments the web renders from one request's reads, kept like one."""

    def fragment(self, name: str, req: SearchRequest, render: Callable[[SearchRequest], str]) -> str: ...


def install(app: Flask, *, reads: SiteReads, celery: Celery, redis: RedisGuard, figures: Any) -> None:
    app.extensions.update({_READS: reads, _CELERY: celery, _REDIS: redis, _FIGURES: figures})


def replace_reads(app: Flask, reads: SiteReads) -> SiteReads:
    """Put other reads in front of the app's (a test's counting or failing wrapper); returns the old ones."""
    old, app.extensions[_READS] = app.extensions[_READS], reads
    return old


def reads(app: Flask | None = None) -> SiteReads:
    return (app or current_app).extensions[_READS]


def celery() -> Celery:
    return current_app.extensions[_CELERY]


def redis() -> RedisGuard:
    return current_app.extensions[_REDIS]


def figures() -> Any:
    """The indexer's figures (queue depth, ingest totals, generation) for ``/metrics``."""
    return current_app.extensions[_FIGURES]


def settings() -> Settings:
    return current_app.config["SETTINGS"]
