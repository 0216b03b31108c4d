"""Which followed sources are due, and the one scheduler that asks for their polls.

Why a tick and a claim: Celery beat (celery-redbeat, whose Redis lock lets exactly one of any number of
started schedulers run) sends :data:`~services.task_names.FOLLOW_TICK` every ``PAPERLIST_FOLLOW_TICK`` seconds; the
tick reads the registry and sends one poll per due source, each *claimed* first in Redis for most of its
interval (``SET NX``), so a tick sent twice (a second scheduler that took over the lock, a tick retried)
sends no second poll. Per-source intervals and back-off live in the registry, not in beat's schedule, so
adding a source needs no scheduler restart. Polls run one at a time per alias, so a tick keeps at most
:data:`MAX_IN_FLIGHT` of them sent and unfinished, the most overdue first: the 364 sources of a freshly
seeded registry are sent a few at a time, not queued at once to wait (retrying) for the lock.
"""

from __future__ import annotations

from datetime import datetime

import redis
from elasticsearch import Elasticsearch

from services import redis_keys, task_names
from services.search.engine import followed_store
from services.search.records.followed import FollowedSource

CLAIM_SHARE = 0.5    # a sent poll's claim lasts this share of the source's interval (at least a minute)
CLAIM_MIN_S = 60
MAX_IN_FLIGHT = 4    # polls sent and not finished (their claims held), over every source of the alias


def beat_schedule(queue: str, alias: str, tick_s: float) -> dict:
    """Beat's one entry: the tick over ``alias``'s registry every ``tick_s`` seconds (PAPERLIST_FOLLOW_TICK, 30:
    the freshness bound adds at most this to a source's interval)."""
    return {"paperlist-follow-tick": {"task": task_names.FOLLOW_TICK, "schedule": tick_s, "args": [alias],
                                      "options": {"queue": queue, "expires": tick_s}}}


def due(es: Elasticsearch, alias: str, at: datetime) -> list[FollowedSource]:
    """The followed sources whose next check has come (never checked ones too)."""
    return [s for s in followed_store.all_sources(es, followed_store.index_of(alias)) if s.due(at)]


def to_send(client: redis.Redis, alias: str, due_sources: list[FollowedSource]) -> list[FollowedSource]:
    """The due sources a tick may send, the most overdue (or never checked) first, leaving at most
    :data:`MAX_IN_FLIGHT` polls sent and unfinished; those in flight already are not sent again."""
    pipe = client.pipeline(transaction=False)
    for source in due_sources:
        pipe.exists(redis_keys.follow_claim(alias, source.id))
    held = pipe.execute() if due_sources else []
    waiting = [s for s, claimed in zip(due_sources, held, strict=True) if not claimed]
    room = max(0, MAX_IN_FLIGHT - sum(1 for claimed in held if claimed))
    return sorted(waiting, key=lambda s: s.next_check or "")[:room]


def claim(client: redis.Redis, alias: str, source: FollowedSource) -> bool:
    """Whether this tick may send the source's poll (no other tick did within the claim)."""
    seconds = max(CLAIM_MIN_S, int(source.interval_s * CLAIM_SHARE))
    return bool(client.set(redis_keys.follow_claim(alias, source.id), "1", nx=True, ex=seconds))


def release(client: redis.Redis, alias: str, source_id: str) -> None:
    """A poll done: the next tick after its next check may send another (the stored next check rules)."""
    client.delete(redis_keys.follow_claim(alias, source_id))
