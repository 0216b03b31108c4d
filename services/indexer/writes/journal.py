"""Coordination between writers (ingest, prune) and a running rebuild.

* The **journal** notes every paper id a writer is about to touch, with Redis server
  time. A rebuild notes the time, waits for the writers active at that moment to
  finish, copies the live index, then replays from the live index every id journaled
  since the noted time, so no write made during the copy is lost.
* The **gate** lets a rebuild pause writers for the few seconds of its final replay
  and alias swap: writers register before writing and back off while paused.

Redis time is the one clock, so workers on several hosts agree.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

import redis

from services import redis_keys

JOURNAL_RETENTION = 3 * 24 * 3600


class WritesPaused(RuntimeError):
    """A rebuild is swapping the alias; retry the write in a moment."""


def redis_time(client: redis.Redis) -> float:
    seconds, micros = client.time()
    return seconds + micros / 1e6


class WriteJournal:
    def __init__(self, client: redis.Redis, alias: str):
        self.redis = client
        self.key = redis_keys.journal(alias)

    def record(self, ids: Iterable[str]) -> None:
        ids = list(ids)
        if not ids:
            return
        now = redis_time(self.redis)
        pipe = self.redis.pipeline()
        pipe.zadd(self.key, {paper_id: now for paper_id in ids})
        pipe.zremrangebyscore(self.key, "-inf", now - JOURNAL_RETENTION)
        pipe.execute()

    def since(self, timestamp: float) -> list[str]:
        return [m.decode() for m in self.redis.zrangebyscore(self.key, timestamp, "+inf")]


class WriteGate:
    def __init__(self, client: redis.Redis, alias: str):
        self.redis = client
        self.paused_key = redis_keys.writes_paused(alias)
        self.writers_key = redis_keys.writers(alias)

    @contextmanager
    def writing(self, lease_seconds: int = 300) -> Iterator[None]:
        """Hold a writer slot for the block; raises :class:`WritesPaused` during a swap."""
        token = uuid.uuid4().hex
        self.redis.zadd(self.writers_key, {token: redis_time(self.redis) + lease_seconds})
        try:
            if self.redis.exists(self.paused_key):
                raise WritesPaused("a rebuild is swapping the index")
            yield
        finally:
            self.redis.zrem(self.writers_key, token)

    def pause(self, seconds: int) -> None:
        """Pause new writes; the pause lapses by itself if the rebuild dies."""
        self.redis.set(self.paused_key, "1", ex=seconds)

    def resume(self) -> None:
        self.redis.delete(self.paused_key)

    def active_writers(self) -> int:
        return int(self.redis.zcount(self.writers_key, redis_time(self.redis), "+inf"))

    def writers(self) -> set[bytes]:
        """Tokens of the writers active now (leases not expired)."""
        return set(self.redis.zrangebyscore(self.writers_key, redis_time(self.redis), "+inf"))

    def wait_for(self, tokens: set[bytes], timeout: float) -> bool:
        """Wait until these particular writers have finished (or their leases lapsed)."""
        deadline = time.monotonic() + timeout
        while tokens and time.monotonic() < deadline:
            tokens &= self.writers()
            if tokens:
                time.sleep(0.1)
        return not tokens

    def wait_idle(self, timeout: float) -> bool:
        """Wait for writers that started before the pause to finish."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.active_writers() == 0:
                return True
            time.sleep(0.2)
        return False
