"""Flask application factory: the HTML site, the JSON API and the admin API."""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

from celery import Celery
from flask import Flask, request, url_for
from flask_cors import CORS

from services.search import conferences, taxonomy
from services.search.client import make_web_client, quiet_client_logs
from services.search.limits import EXPORT_LIMIT, MAX_QUERY
from services.search.service import Deadlines, PaperSearch, search_breaker, start_deadline
from services.search.sorting import SORTS
from services.settings import Settings, load_settings

from . import (
    admin,
    api,
    caching,
    errors,
    feeds,
    metrics,
    pages,
    proxy,
    ratelimit,
    redis_guard,
    request_log,
    response_cache,
    result_cache,
    security,
    similar,
    stats_api,
    textfilters,
)
from .json_provider import JSONProvider
from .reading import abstract_links

STATIC = Path(__file__).parent / "static"


def create_app(settings: Settings | None = None) -> Flask:
    settings = settings or load_settings()
    app = Flask(__name__)
    app.config.update(
        SETTINGS=settings,
        JSON_SORT_KEYS=False,
        SEND_FILE_MAX_AGE_DEFAULT=365 * 24 * 3600,  # assets are fingerprinted, see static_url
        MAX_CONTENT_LENGTH=64 * 1024,
    )
    app.json = JSONProvider(app)
    request_log.configure_logging()
    metrics.register(app)  # first: its after_request runs last and sees the final answer
    request_log.register(app)
    proxy.register(app)
    ratelimit.register(app)  # before the answer cache: a cached answer still counts against the client
    search = PaperSearch(
        make_web_client(settings), settings.index,
        deadlines=Deadlines(search=settings.search_budget, ready=settings.ready_budget),
        breaker=search_breaker(settings.breaker_failures, settings.breaker_cooldown))
    app.extensions["paperlist.search"] = cached = result_cache.register(app, search)
    response_cache.register(app, cached)
    celery = Celery("paperlist-web", broker=settings.redis_url, backend=settings.redis_url)
    celery.conf.update(redis_guard.celery_timeouts())
    app.extensions["paperlist.celery"] = celery
    redis_guard.install(app, settings)
    CORS(app, resources={r"/api/v1/(?!admin).*": {"origins": "*", "methods": ["GET", "OPTIONS"]}}, send_wildcard=True,
         expose_headers=["X-Total-Count", "X-Exported-Count"])
    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(admin.bp)
    app.register_blueprint(stats_api.bp)
    app.register_blueprint(feeds.bp)
    app.register_blueprint(similar.bp)
    errors.register(app)

    @app.before_request
    def _time_budget() -> None:
        # Every search-layer call of this request shares one budget (see services.search.service).
        start_deadline(settings.ready_budget if request.path == "/readyz" else settings.search_budget)

    caching.register(app)
    security.register(app)
    # What every template may use, instead of modules passed into each render_template.
    app.jinja_env.globals.update(static_url=static_url, url=pages.url_with, toggle=pages.toggle,
                                 conference_label=conferences.label, topic_label=taxonomy.label,
                                 sorts=SORTS.values(), max_query=MAX_QUERY, results_path=pages.results_path,
                                 abstract_links=abstract_links, export_limit=EXPORT_LIMIT, venue_of=conferences.lookup,
                                 search_example=textfilters.SEARCH_EXAMPLE)
    app.jinja_env.filters.update(textfilters.FILTERS)
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True
    quiet_client_logs()
    return app


def static_url(filename: str) -> str:
    """Static URL with a content fingerprint, so assets can be cached for a year."""
    return url_for("static", filename=filename, v=_fingerprint(filename))


@lru_cache(maxsize=64)
def _fingerprint(filename: str) -> str:
    try:
        return hashlib.sha1((STATIC / filename).read_bytes()).hexdigest()[:10]
    except OSError:
        return "0"
