"""A Redis result cache in front of Elasticsearch, for pages and API alike.

:class:`CachedSearch` stands where the app keeps its :class:`PaperSearch` and answers the
read calls in :data:`CACHED_CALLS` from Redis; any other attribute (``export``, ``ready``,
methods added later) passes straight through.

* **Key**: the call's name and its arguments rendered canonically (a
  :class:`SearchRequest` as its sorted parameters), plus the index generation
  (:mod:`services.search.generation`), read once per request. A write to the index bumps
  the generation, so the next request misses and sees the new data.
* **Single flight**: the first miss takes a short lock (``SET NX PX``) and asks
  Elasticsearch; identical misses meanwhile poll for its answer (bounded), then ask
  themselves if it never came.
* **Stale copy**: every answer is also kept under a generation-free key for a day; when
  Elasticsearch is down or too slow (:class:`SearchUnavailable`) that copy is served,
  marked stale, instead of a 503.
* **Redis down**: requests are served uncached. Timeouts are short and after a failure
  Redis is left alone for :data:`BACKOFF` seconds, so a dead Redis costs one timeout,
  not one per request.
* Every key has a TTL: with ``maxmemory-policy volatile-lru`` (deploy/redis/redis.conf)
  Redis evicts cache entries only, never the Celery broker's or the indexer's keys.

Per request the outcome goes to ``X-Cache`` (``hit``, ``miss``, ``stale``, ``bypass``).
``Cache-Control: no-cache`` on the request skips reading (benchmarks of the uncached path)
but still stores the answer; admin routes never touch the cache.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import time
from collections.abc import Callable
from typing import Any

import redis
from flask import Flask, Response, g, has_request_context, request
from redis.backoff import NoBackoff
from redis.retry import Retry

from services import redis_keys
from services.search import generation
from services.search.errors import SearchUnavailable
from services.search.request import SearchRequest
from services.search.service import PaperSearch
from services.settings import Settings

from . import metrics
from .cache_codec import codec_for

log = logging.getLogger(__name__)

# Read calls of PaperSearch whose answers are cached (names absent from the class are skipped).
CACHED_CALLS = ("search", "paper", "similar", "suggest", "overview", "conference", "author", "trends", "venue_years",
                "feed", "canonical_author")
KEY_VERSION = "1"       # bump when the stored shape of an answer changes incompatibly
LOCK_MS = 3000          # a single-flight lock outlives a slow search, then lapses by itself
WAIT_SECONDS = 2.5      # how long identical misses wait for the leader before asking themselves
POLL_SECONDS = 0.01
BACKOFF = 2.0           # seconds Redis is left alone after a failure
BYPASS_BLUEPRINTS = ("admin",)

HIT, MISS, STALE, BYPASS = "hit", "miss", "stale", "bypass"
_PRECEDENCE = (STALE, MISS, BYPASS, HIT)  # a request's state is the worst of its calls'


class ResultStore:
    """The Redis side: key names, round trips, and the back-off after a failure."""

    def __init__(self, client: redis.Redis, alias: str, ttl: int, stale_ttl: int):
        self.redis = client
        self.alias = alias
        self.ttl_ms = ttl * 1000
        self.stale_ttl = stale_ttl
        self._down_until = 0.0
        self.failures = 0

    # -- availability ----------------------------------------------------------------
    def usable(self) -> bool:
        return time.monotonic() >= self._down_until

    def failed(self, exc: Exception) -> None:
        self.failures += 1
        if self.usable():
            log.warning("result cache: Redis unavailable, serving uncached for %.0fs: %s", BACKOFF, exc)
        self._down_until = time.monotonic() + BACKOFF

    # -- keys ------------------------------------------------------------------------
    def fresh_key(self, gen: int, digest: str) -> str:
        return redis_keys.cache_entry(self.alias, gen, digest)

    def stale_key(self, digest: str) -> str:
        return redis_keys.cache_stale(self.alias, digest)

    # -- round trips -----------------------------------------------------------------
    def generation(self) -> tuple[int, int]:
        pipe = self.redis.pipeline(transaction=False)
        generation.queue_generation_read(pipe, self.alias)
        return generation.parse_generation_read(pipe.execute())

    def get(self, key: str) -> bytes | None:
        return self.redis.get(key)

    def lead(self, key: str) -> tuple[bool, bytes | None]:
        """Take the single-flight lock; also re-read the entry (a leader may have just stored it)."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.set(redis_keys.cache_lock(key), b"1", nx=True, px=LOCK_MS)
        pipe.get(key)
        got, raw = pipe.execute()
        return bool(got), raw

    def wait(self, key: str) -> bytes | None:
        """Poll for the leader's answer until it lands, the lock goes, or time is up."""
        deadline = time.monotonic() + WAIT_SECONDS
        while time.monotonic() < deadline:
            time.sleep(POLL_SECONDS)
            pipe = self.redis.pipeline(transaction=False)
            pipe.exists(redis_keys.cache_lock(key))  # before the GET: the leader stores, then unlocks
            pipe.get(key)
            locked, raw = pipe.execute()
            if raw is not None or not locked:
                return raw
        return None

    def store(self, key: str, stale_key: str, raw: bytes, settle_ms: int) -> None:
        pipe = self.redis.pipeline(transaction=False)
        pipe.set(key, raw, px=self.ttl_for(settle_ms))
        if self.stale_ttl:
            pipe.set(stale_key, raw, ex=self.stale_ttl)
        pipe.delete(redis_keys.cache_lock(key))
        pipe.execute()

    def put(self, key: str, raw: bytes, settle_ms: int) -> None:
        self.redis.set(key, raw, px=self.ttl_for(settle_ms))

    def ttl_for(self, settle_ms: int) -> int:
        """Inside a generation's settling window an answer may predate the index refresh: keep it no longer."""
        return min(settle_ms, self.ttl_ms) if settle_ms else self.ttl_ms

    def release(self, key: str) -> None:
        self.redis.delete(redis_keys.cache_lock(key))


class CachedSearch:
    """The app's search service with the result cache in front of it."""

    def __init__(self, service: PaperSearch, store: ResultStore | None):
        self.service = service
        self.store = store
        for name in CACHED_CALLS:
            method = _annotated(type(service), name)
            if method is not None:
                setattr(self, name, self._cached(name, method))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.service, name)

    def _cached(self, name: str, method: Callable) -> Callable:
        codec = codec_for(method)
        bound = getattr(self.service, name)

        def call(*args: Any, **kwargs: Any) -> Any:
            if self.store is None or not has_request_context() or request.blueprint in BYPASS_BLUEPRINTS:
                return _timed(name, bound, args, kwargs)
            req = next((a for a in (*args, *kwargs.values()) if isinstance(a, SearchRequest)), None)
            digest = _digest(name, args, kwargs)
            return self._through_cache(name, bound, codec, digest, req, args, kwargs)
        call.__name__ = name
        call.__doc__ = method.__doc__
        return call

    def _through_cache(self, name, bound, codec, digest, req, args, kwargs):
        store = self.store
        state = generation_state(store)
        if state is None:  # Redis unavailable
            note(BYPASS)
            return _timed(name, bound, args, kwargs)
        gen, settle_ms = state
        key = store.fresh_key(gen, digest)
        leader = False
        if not no_cache_requested():
            try:
                raw = store.get(key)
                if raw is None:
                    leader, raw = store.lead(key)
                    if leader and raw is not None:  # the previous leader finished in between
                        leader = False
                        store.release(key)
                    elif raw is None and not leader:
                        raw = store.wait(key)
            except (redis.RedisError, OSError) as exc:
                store.failed(exc)
                note(BYPASS)
                return _timed(name, bound, args, kwargs)
            if raw is not None:
                value = _decoded(codec, raw, req)
                if value is not _UNDECODABLE:
                    note(HIT)
                    return value
            outcome = MISS
        else:
            outcome = BYPASS
        try:
            value = _timed(name, bound, args, kwargs)
        except SearchUnavailable:
            stale = self._stale(store, key, digest, leader, codec, req)
            if stale is _UNDECODABLE:
                raise
            note(STALE)
            return stale
        except Exception:
            if leader:
                quietly(store, store.release, key)
            raise
        quietly(store, store.store, key, store.stale_key(digest), codec.dumps(value), settle_ms)
        note(outcome)
        return value

    @staticmethod
    def _stale(store: ResultStore, key: str, digest: str, leader: bool, codec, req) -> Any:
        if leader:
            quietly(store, store.release, key)
        raw = quietly(store, store.get, store.stale_key(digest))
        return _UNDECODABLE if raw is None else _decoded(codec, raw, req)


def quietly(store: ResultStore, operation: Callable, *args: Any) -> Any:
    """A Redis call whose failure only starts the back-off (None then)."""
    try:
        return operation(*args)
    except (redis.RedisError, OSError) as exc:
        store.failed(exc)
        return None


_UNDECODABLE = object()


def _annotated(cls: type, name: str) -> Callable | None:
    """The method as its class declares it, with the return annotation the codec follows
    (a subclass, such as a test's counting wrapper, may override it unannotated)."""
    for klass in cls.__mro__:
        method = klass.__dict__.get(name)
        if callable(method) and "return" in getattr(method, "__annotations__", {}):
            return method
    return None


def _decoded(codec, raw: bytes, req: SearchRequest | None) -> Any:
    try:
        return codec.loads(raw, req)
    except ValueError:  # pydantic's ValidationError: an entry of an older shape, or garbage
        log.warning("result cache: dropping an entry that does not decode")
        return _UNDECODABLE


def _timed(name: str, bound: Callable, args: tuple, kwargs: dict) -> Any:
    started = time.perf_counter()
    try:
        return bound(*args, **kwargs)
    finally:
        metrics.observe_search(name, time.perf_counter() - started)


def generation_state(store: ResultStore) -> tuple[int, int] | None:
    """The generation, read once per request (None while Redis is unavailable)."""
    if "paperlist_generation" not in g:
        state = None
        if store.usable():
            try:
                state = store.generation()
            except (redis.RedisError, OSError) as exc:
                store.failed(exc)
        g.paperlist_generation = state
    return g.paperlist_generation


def no_cache_requested() -> bool:
    return "no-cache" in (request.headers.get("Cache-Control") or "").lower()


def note(state: str) -> None:
    g.setdefault("paperlist_cache", []).append(state)


def cache_state() -> str | None:
    """The current request's cache outcome, or None when it made no cached call."""
    states = g.get("paperlist_cache")
    if not states:
        return None
    return next(s for s in _PRECEDENCE if s in states)


def _canonical(value: Any) -> Any:
    if isinstance(value, SearchRequest):
        out = {}
        for f in dataclasses.fields(value):
            if not f.compare:
                continue
            item = getattr(value, f.name)
            if f.name == "filters":
                item = {facet: sorted(value.selected(facet)) for facet in sorted(item)}
            out[f.name] = item
        return out
    return value


def _digest(name: str, args: tuple, kwargs: dict) -> str:
    text = json.dumps([KEY_VERSION, name, [_canonical(a) for a in args],
                       sorted((k, _canonical(v)) for k, v in kwargs.items())],
                      separators=(",", ":"), ensure_ascii=False, default=repr)
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def make_store(settings: Settings) -> ResultStore | None:
    if not settings.cache_enabled:
        return None
    timeout = settings.cache_timeout_ms / 1000
    client = redis.Redis.from_url(settings.redis_url, socket_connect_timeout=timeout, socket_timeout=timeout,
                                  retry=Retry(NoBackoff(), 0))  # one try: the back-off handles failures
    return ResultStore(client, settings.index, settings.cache_ttl, settings.cache_stale_ttl)


def register(app: Flask, service: PaperSearch) -> CachedSearch:
    """Put the cache in front of ``service`` and mark each answer with ``X-Cache``."""
    cached = CachedSearch(service, make_store(app.config["SETTINGS"]))

    @app.after_request
    def cache_header(resp: Response) -> Response:
        state = cache_state()
        if state:
            resp.headers["X-Cache"] = state
            if state == STALE:
                resp.headers["Warning"] = '110 - "Response is stale"'
        return resp

    return cached
