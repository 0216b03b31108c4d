"""The index generation: a Redis counter per alias that changes whenever the searchable data does.

Writers bump it (an ingest batch that wrote something, an alias swap, a rollback); readers
put it in their cache keys, so a change to the data is visible on the next request.
Its key names are in :mod:`services.redis_keys`, with every other Redis key.

A bump also opens a short *settling* window: documents written by a bulk request become
searchable only at the index's next refresh (``refresh_interval`` 1 s, see
:mod:`services.search.records.schema`). An answer computed inside the window may miss them, so a cache keeps it
no longer than the window lasts. While an ingest loads at the long refresh interval
(:func:`loading`), the window lasts that interval.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import redis

from services import redis_keys

SETTLE_MS = 2500  # > refresh_interval (1 s) plus a slow refresh


def generation_key(alias: str) -> str:
    return redis_keys.generation(alias)


def settling_key(alias: str) -> str:
    return redis_keys.settling(alias)


def bump_generation(client: redis.Redis, alias: str) -> int:
    """Invalidate every cached answer over ``alias``; returns the new generation."""
    settle = int(client.get(redis_keys.settle_ms(alias)) or SETTLE_MS)
    pipe = client.pipeline(transaction=True)
    pipe.incr(generation_key(alias))
    pipe.set(settling_key(alias), b"1", px=settle)
    return int(pipe.execute()[0])


@contextmanager
def loading(client: redis.Redis, alias: str, refresh_s: float, *, longest_s: float) -> Iterator[None]:
    """Bumps inside settle for ``refresh_s`` (plus a slow refresh), not :data:`SETTLE_MS`: an
    answer cached meanwhile may lack papers written up to that long before. On the way out, one
    bump for the data as it now is. ``longest_s`` bounds the setting should the process die.
    """
    settle = int(refresh_s * 1000) + SETTLE_MS
    client.set(redis_keys.settle_ms(alias), settle, ex=max(int(longest_s), 1))
    failed = True
    try:
        yield
        failed = False
    finally:
        try:
            client.delete(redis_keys.settle_ms(alias))
            bump_generation(client, alias)
        except redis.RedisError:
            if not failed:
                raise


def current_generation(client: redis.Redis, alias: str) -> int:
    return int(client.get(generation_key(alias)) or 0)


def queue_generation_read(pipe: redis.client.Pipeline, alias: str) -> None:
    """Add the generation and the settling time left (ms, negative when settled) to a pipeline,
    so a reader fetches both in its one round trip (see :func:`parse_generation_read`)."""
    pipe.get(generation_key(alias))
    pipe.pttl(settling_key(alias))


def parse_generation_read(replies: list) -> tuple[int, int]:
    """``(generation, settling ms left or 0)`` from the two replies of :func:`queue_generation_read`."""
    raw, settling = replies
    return int(raw or 0), max(int(settling or 0), 0)
