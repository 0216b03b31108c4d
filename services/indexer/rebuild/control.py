"""What an operator does to a rebuild: request one, or roll the last one back.

Kept apart from :mod:`services.indexer.rebuild.runner`, which is the rebuild itself as the worker runs it: these
two run in the operator's process (the CLI, the admin API's task) and only take the lock,
queue the task or move the alias back; neither copies an index.
"""

from __future__ import annotations

import uuid

import redis
from elasticsearch import Elasticsearch

from services import task_names
from services.indexer.writes.journal import WriteGate, WriteJournal, redis_time
from services.search.engine import indices
from services.search.engine.generation import bump_generation
from services.search.records.schema import serving_settings
from services.settings import Settings

from .runner import PAUSE_SECONDS, REPLAY_MARGIN, replay
from .state import ReindexError, ReindexState

__all__ = ["REQUEST_TTL", "request_reindex", "rollback"]

# A request holds the lock (token = its run id) until its task takes it over; a message
# not picked up by then expires, so a request never starts hours late.
REQUEST_TTL = 600


def request_reindex(client: redis.Redis, celery, settings: Settings, alias: str,
                    from_sources: bool = False) -> tuple[str, str]:
    """Enqueue a rebuild unless one runs; returns ``(run_id, task_id)``."""
    state = ReindexState(client, alias)
    run_id = uuid.uuid4().hex[:12]
    # SET NX: of two concurrent requests exactly one gets the lock (no check-then-set).
    if not client.set(state.lock_key, run_id, nx=True, ex=REQUEST_TTL):
        current = state.load()
        raise ReindexError(f"a reindex is already running (run {current.get('run_id')}, "
                           f"phase {current.get('phase')}); wait for it or check `paperlist status`")
    try:
        state.reset(run_id, phase="queued", from_sources=from_sources)
        result = celery.send_task(task_names.REINDEX, kwargs={"alias": alias, "run_id": run_id,
                                                               "from_sources": from_sources},
                                  queue=settings.queue, expires=REQUEST_TTL)
    except BaseException:
        if client.get(state.lock_key) == run_id.encode():
            client.delete(state.lock_key)
        raise
    state.save(task_id=result.id)
    return run_id, result.id


def rollback(settings: Settings, es: Elasticsearch, client: redis.Redis, alias: str) -> tuple[str, str]:
    """Point the alias back at the newest previous index, replaying writes made since it was retired."""
    state = ReindexState(client, alias)
    lock = client.lock(state.lock_key, timeout=settings.reindex_lock_ttl, blocking=False)
    if not lock.acquire():
        raise ReindexError("a reindex is running; roll back after it ends")
    try:
        current = indices.current_index(es, alias)
        ordered = [i.name for i in indices.list_indices(es, alias)]
        older = ordered[:ordered.index(current)] if current in ordered else []
        if not current or not older:
            raise ReindexError("no previous index to roll back to")
        target = older[-1]
        retired = client.hget(state.retired_key, target)
        gate = WriteGate(client, alias)
        gate.pause(PAUSE_SECONDS)
        try:
            gate.wait_idle(PAUSE_SECONDS / 2)
            if retired:
                ids = WriteJournal(client, alias).since(float(retired) - REPLAY_MARGIN)
                replay(es, current, target, ids)
            es.indices.put_settings(index=target, settings=serving_settings(settings.replicas))
            es.indices.refresh(index=target)
            indices.swap_alias(es, alias, target)
            bump_generation(client, alias)
        finally:
            gate.resume()
        client.hset(state.retired_key, current, redis_time(client))
        client.hdel(state.retired_key, target)
        state.save(phase="rolled back", message=f"alias moved back {current} -> {target}")
        return current, target
    finally:
        lock.release()
