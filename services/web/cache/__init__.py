"""The Redis caches in front of Elasticsearch: results per read (:mod:`.results`), whole
answers — the API's JSON and the HTML pages — (:mod:`.responses`), their store and keys
(:mod:`.store`), how answers are kept (:mod:`.codec`).

What a view may cache is declared on it (:class:`~services.web.policy.Policy`); the
request hooks (:mod:`services.web.http`) serve and keep whole answers.
"""

from __future__ import annotations

from services.search.reads import SearchReads
from services.settings import Settings

from ..redis_guard import RedisGuard
from .responses import KeptAnswers
from .results import CachedSearch
from .store import ResultStore


def build(settings: Settings, service: SearchReads, guard: RedisGuard) -> tuple[CachedSearch, ResultStore | None]:
    """The cached reads in front of ``service`` and their store (None with PAPERLIST_CACHE=false)."""
    store = ResultStore(guard, settings.index, settings.cache_ttl, settings.cache_stale_ttl) \
        if settings.cache_enabled else None
    return CachedSearch(service, store, settings.cache_refresh_window), store


def kept_answers(store: ResultStore | None) -> KeptAnswers | None:
    """The whole-answer cache over ``store`` (none without one)."""
    return KeptAnswers(store) if store else None
