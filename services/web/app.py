"""Flask application factory: the HTML site, the JSON API and the admin API."""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

from celery import Celery
from flask import Flask, url_for
from flask_cors import CORS

from services.search import conferences, taxonomy
from services.search.client import make_client, quiet_client_logs
from services.search.limits import MAX_QUERY
from services.search.service import PaperSearch
from services.search.sorting import SORTS
from services.settings import Settings, load_settings

from . import admin, api, caching, errors, pages, proxy, ratelimit, security, similar

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
    app.json.sort_keys = False
    es = make_client(settings, request_timeout=settings.es_timeout, max_retries=1)
    app.extensions["paperlist.search"] = PaperSearch(es, settings.index)
    app.extensions["paperlist.celery"] = Celery("paperlist-web", broker=settings.redis_url,
                                                backend=settings.redis_url)
    CORS(app, resources={r"/api/v1/(?!admin).*": {"origins": "*", "methods": ["GET", "OPTIONS"]}}, send_wildcard=True)
    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(admin.bp)
    app.register_blueprint(similar.bp)
    errors.register(app)
    caching.register(app)
    security.register(app)
    ratelimit.register(app)
    proxy.register(app)
    # What every template may use, instead of modules passed into each render_template.
    app.jinja_env.globals.update(static_url=static_url, url=pages.url_with, toggle=pages.toggle,
                                 conference_label=conferences.label, topic_label=taxonomy.label,
                                 sorts=SORTS.values(), max_query=MAX_QUERY)
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
