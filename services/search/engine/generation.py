"""The index generation: a Redis counter per alias that changes whenever the searchable data does.

Writers bump it (an ingest batch that wrote something, an alias swap, a rollback); readers
put it in their cache keys, so a change to the data is visible on the next request.
Its key names are in :mod:`services.redis_keys`, with every other Redis key.

A bump also opens a short *settling* window: documents written by a bulk request become
searchable only at the index's next refresh (``refresh_interval`` 1 s, see
:mod:`services.search.records.schema`). An answer computed inside the window may miss them, so a cache keeps it
no longer than the window lasts. While an ingest loads at the long refresh interval
(:func:`loading`), the window lasts that interval.

A bump also marks, for :data:`RECENT_MS`, that a write was that recent and when the generation it
ended ended: a reader may answer with an answer of a generation that ended seconds ago while it
computes the new one (the web's result cache, :mod:`services.web.cache.results`), so an ingest does
not send every cached request to Elasticsearch at once; how recent is recent enough is the reader's
setting. The marks are kept times to live (PTTL), not clock readings: hosts' clocks never meet.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import NamedTuple

import redis

from services import redis_keys

SETTLE_MS = 2500  # > refresh_interval (1 s) plus a slow refresh
RECENT_MS = 120_000  # how long a bump's marks are kept: a reader's window for an earlier answer is shorter


class GenerationRead(NamedTuple):
    """What a reader reads of the generation, in one round trip (:func:`queue_generation_read`)."""

    number: int
    settle_ms: int  # settling time left (0: settled): an answer made now is kept no longer
    age_ms: int | None  # how long ago the last bump was; None: longer than RECENT_MS, or never bumped


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
    pipe.set(redis_keys.bumped(alias), b"1", px=RECENT_MS)
    new = int(pipe.execute()[0])
    client.set(redis_keys.generation_ended(alias, new - 1), b"1", px=RECENT_MS)
    return new


def ended_ms_ago(client: redis.Redis, alias: str, generation: int) -> int | None:
    """How long ago ``generation`` ended (ms); None: longer than :data:`RECENT_MS` ago, or not ended."""
    left = int(client.pttl(redis_keys.generation_ended(alias, generation)) or 0)
    return RECENT_MS - left if left > 0 else None


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


READ_REPLIES = 3  # the replies :func:`queue_generation_read` adds to a pipeline


def queue_generation_read(pipe: redis.client.Pipeline, alias: str) -> None:
    """Add the generation, the settling time left and the time left of the last bump's mark (ms, negative
    when gone) to a pipeline, so a reader fetches them in its one round trip (see :func:`parse_generation_read`)."""
    pipe.get(generation_key(alias))
    pipe.pttl(settling_key(alias))
    pipe.pttl(redis_keys.bumped(alias))


def parse_generation_read(replies: list) -> GenerationRead:
    """The generation read from the :data:`READ_REPLIES` replies of :func:`queue_generation_read`."""
    raw, settling, bumped = replies
    bumped = int(bumped or 0)
    return GenerationRead(int(raw or 0), max(int(settling or 0), 0), RECENT_MS - bumped if bumped > 0 else None)
