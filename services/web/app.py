"""The Flask application factory: the HTML site, the JSON API and the admin API.

Only assembly, in this order: settings → the search reads and the caches in front of them
→ extensions → the request hooks (:mod:`.http`) → the views (:mod:`.views`) → the error
handlers → templating. Where each kind of code lives: docs/architecture.md.
"""

from __future__ import annotations

from celery import Celery
from flask import Flask

from services.search.engine.boundary import Deadlines, search_breaker
from services.search.engine.client import make_web_client, quiet_client_logs
from services.search.reads import SearchReads
from services.search.service import PaperSearch
from services.settings import Settings, load_settings

from . import cache, errors, extensions, http, redis_guard, views
from .http.access_log import configure_logging
from .http.json_bodies import JSONProvider
from .http.metrics import IndexerFigures
from .render import templating


def create_app(settings: Settings | None = None, *, reads: SearchReads | None = None) -> Flask:
    """The app over Elasticsearch, or over ``reads`` (a test's fake) instead of the real service."""
    settings = settings or load_settings()
    app = Flask(__name__)
    app.config.update(
        SETTINGS=settings,
        JSON_SORT_KEYS=False,
        SEND_FILE_MAX_AGE_DEFAULT=365 * 24 * 3600,  # assets are fingerprinted, see render.templating.static_url
        MAX_CONTENT_LENGTH=64 * 1024,
    )
    app.json = JSONProvider(app)
    configure_logging()
    service = reads or PaperSearch(
        make_web_client(settings), settings.index,
        deadlines=Deadlines(search=settings.search_budget, ready=settings.ready_budget,
                            facets=settings.facets_budget),
        breaker=search_breaker(settings.breaker_failures, settings.breaker_cooldown),
        maps_index=settings.maps_index_of(settings.index))
    guard = redis_guard.from_settings(settings)
    cached, store = cache.build(settings, service, guard)
    celery = Celery("paperlist-web", broker=settings.redis_url, backend=settings.redis_url)
    celery.conf.update(redis_guard.celery_timeouts())
    extensions.install(app, reads=cached, celery=celery, redis=guard,
                       figures=IndexerFigures(guard, settings.queue, settings.index))
    http.install(app, cache.kept_answers(store), store.generation if store else None)
    views.register(app)
    errors.install(app)
    templating.install(app)
    quiet_client_logs()
    return app
