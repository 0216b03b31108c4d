"""The result cache's Redis side: entry keys, the generation read once per request, single
flight, the stale copy, and failing open.

* **Keys**: :mod:`services.redis_keys` (an entry per generation, a generation-free stale
  copy, a lock per entry). The generation (:mod:`services.search.engine.generation`) is read once
  per request with the settling time left, in one round trip, which also reads the request's
  first entry under the generation the process saw last (:meth:`ResultStore.generation_with`).
* **Single flight**: the first miss takes a short lock (``SET NX PX``, in the same round trip as
  the read that missed: a Lua script) and asks Elasticsearch; identical misses meanwhile poll
  for its answer (bounded), then ask themselves if it never came.
* **Failing open**: every call goes through the web's guarded Redis
  (:mod:`services.web.redis_guard`: short timeouts, a breaker); a failure means "uncached",
  never an error, and an open breaker costs nothing.
* Every entry has a TTL: with ``maxmemory-policy volatile-lru`` (deploy/redis/redis.conf)
  Redis evicts cache entries only, never the Celery broker's or the indexer's keys.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

import redis

from services import redis_keys
from services.search.engine import generation

from .. import requestctx
from ..redis_guard import RedisGuard, RedisUnavailable

log = logging.getLogger("services.web.cache")

LOCK_MS = 3000          # a single-flight lock outlives a slow search, then lapses by itself
WAIT_SECONDS = 2.5      # how long identical misses wait for the leader before asking themselves
POLL_SECONDS = 0.01
LOG_EVERY = 60.0        # seconds between warnings while Redis stays down
CacheDown = (RedisUnavailable, redis.RedisError)  # what a cache call may meet: then it is uncached

# KEYS: an entry and its lock; ARGV: the lock's life (ms). {0, entry} when it is there, else {1} when
# this caller took the lock, {0} when another holds it (its answer is then waited for). One Redis serves the
# cache, as it serves Celery (deploy/redis); a Redis Cluster would need both keys in one hash slot.
_GET_OR_LEAD = """
local raw = redis.call('GET', KEYS[1])
if raw then return {0, raw} end
if redis.call('SET', KEYS[2], '1', 'NX', 'PX', ARGV[1]) then return {1} end
return {0}
"""


class ResultStore:
    def __init__(self, guard: RedisGuard, alias: str, ttl: int, stale_ttl: int):
        self.guard = guard
        self.alias = alias
        self.ttl_ms = ttl * 1000
        self.stale_ttl = stale_ttl
        self.failures = 0
        self._warned_at = -LOG_EVERY
        self._seen: int | None = None  # the generation this process read last (generation_with's guess)
        self._get_or_lead = guard.client.register_script(_GET_OR_LEAD)  # sent once, then run by its SHA

    def failed(self, exc: Exception) -> None:
        self.failures += 1
        if time.monotonic() - self._warned_at >= LOG_EVERY:
            self._warned_at = time.monotonic()
            log.warning("result cache: Redis unavailable, serving uncached: %s", exc)

    def quietly(self, operation: Callable[..., Any], *args: Any) -> Any:
        """A cache call whose failure only means "uncached" (None then)."""
        try:
            return operation(*args)
        except CacheDown as exc:
            self.failed(exc)
            return None

    # -- keys ------------------------------------------------------------------------
    def fresh_key(self, gen: int, digest: str) -> str:
        return redis_keys.cache_entry(self.alias, gen, digest)

    def stale_key(self, digest: str) -> str:
        return redis_keys.cache_stale(self.alias, digest)

    # -- round trips -----------------------------------------------------------------
    def generation(self) -> generation.GenerationRead | None:
        """The generation and its settling time left, read once per request (None while Redis is down)."""
        self.generation_with(None)
        return requestctx.current().generation

    def generation_with(self, key_of: Callable[[int], str] | None) -> tuple[str, bytes | None] | None:
        """Read this request's generation, unless read already, and in the same round trip the entry
        ``key_of`` names in the generation this process saw last: that entry's key and bytes (None: no
        entry) when it is still the generation, else None, and the caller reads its entry itself. The
        generation moves only when the index is written, so a request's generation and first entry are
        nearly always one round trip, not two."""
        state = requestctx.current()
        if state.generation_read:
            return None
        state.generation_read = True
        guess = self._seen if key_of is not None else None
        try:
            with self.guard.guarded() as client:
                pipe = client.pipeline(transaction=False)
                generation.queue_generation_read(pipe, self.alias)
                if guess is not None:
                    pipe.get(key_of(guess))
                replies = pipe.execute()
        except CacheDown as exc:
            self.failed(exc)
            return None
        state.generation = generation.parse_generation_read(replies[:generation.READ_REPLIES])
        self._seen = state.generation.number
        if guess is None or guess != self._seen:
            return None
        return key_of(guess), replies[generation.READ_REPLIES]

    def get(self, key: str) -> bytes | None:
        with self.guard.guarded() as client:
            return client.get(key)

    def get_or_lead(self, key: str) -> tuple[bool, bytes | None]:
        """The entry, or else whether this request took its single-flight lock (and asks Elasticsearch)
        rather than found it held: one round trip, where reading and then locking took two (issue 34)."""
        with self.guard.guarded() as client:
            reply = self._get_or_lead(keys=[key, redis_keys.cache_lock(key)], args=[LOCK_MS], client=client)
        return bool(reply[0]), (reply[1] if len(reply) > 1 else None)

    def wait(self, key: str, seconds: float = WAIT_SECONDS) -> bytes | None:
        """Poll for the leader's answer until it lands, the lock goes, or ``seconds`` are up (none: no wait)."""
        deadline = time.monotonic() + min(seconds, WAIT_SECONDS)
        while time.monotonic() < deadline:
            time.sleep(POLL_SECONDS)
            with self.guard.guarded() as client:
                pipe = client.pipeline(transaction=False)
                pipe.exists(redis_keys.cache_lock(key))  # before the GET: the leader stores, then unlocks
                pipe.get(key)
                locked, raw = pipe.execute()
            if raw is not None or not locked:
                return raw
        return None

    def store(self, key: str, stale_key: str, raw: bytes, settle_ms: int, gen: int) -> None:
        """An answer of generation ``gen``: its entry, its stale copy (which says its generation), its lock gone."""
        with self.guard.guarded() as client:
            pipe = client.pipeline(transaction=False)
            pipe.set(key, raw, px=self.ttl_for(settle_ms))
            if self.stale_ttl:
                pipe.set(stale_key, b"%d\n" % gen + raw, ex=self.stale_ttl)
            pipe.delete(redis_keys.cache_lock(key))
            pipe.execute()

    def stale(self, stale_key: str) -> tuple[int, bytes] | None:
        """The stale copy: the generation it was made in and the answer (None: none, or not a copy)."""
        raw = self.get(stale_key)
        head, sep, answer = (raw or b"").partition(b"\n")
        return (int(head), answer) if sep and head.isdigit() else None

    def ended_ms_ago(self, gen: int) -> int | None:
        """How long ago generation ``gen`` ended (:func:`generation.ended_ms_ago`)."""
        with self.guard.guarded() as client:
            return generation.ended_ms_ago(client, self.alias, gen)

    def put(self, key: str, raw: bytes, settle_ms: int) -> None:
        with self.guard.guarded() as client:
            client.set(key, raw, px=self.ttl_for(settle_ms))

    def ttl_for(self, settle_ms: int) -> int:
        """Inside a generation's settling window an answer may predate the index refresh: keep it no longer."""
        return min(settle_ms, self.ttl_ms) if settle_ms else self.ttl_ms

    def release(self, key: str) -> None:
        with self.guard.guarded() as client:
            client.delete(redis_keys.cache_lock(key))
