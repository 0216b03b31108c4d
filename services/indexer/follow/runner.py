"""A poll as the worker runs it: one at a time per alias, its outcome stored, counted, logged and followed up.

Why apart from :mod:`.poll` (the decision): this is the bookkeeping around it. A poll holds the alias's
follow lock, so at most one worker process polls (the pool's others stay free for ingest batches, and a
hung source costs one process for at most the fetch's total timeout); it re-reads the source and does
nothing when it is no longer due (a second scheduler's tick); the outcome goes to the registry, the
failure counter and last error to Redis for ``/metrics``; an ingest asks for the corpus passes and the
maps of the venue-years it wrote, in the background, as ``paperlist ingest`` does.
"""

from __future__ import annotations

import logging

import redis
from celery import Celery
from elasticsearch import Elasticsearch

from services import redis_keys, task_names
from services.indexer.ingest import passes
from services.indexer.ingest.dispatch import ensure_index
from services.indexer.maps.build import request_maps
from services.search.engine import followed_store
from services.search.records.followed import FollowedSource, now_utc
from services.settings import Settings

from . import schedule
from .poll import poll

log = logging.getLogger(__name__)
LOCK_TTL = 1800  # the poll task's time limit: a killed worker's lock lapses after it


class FollowBusy(RuntimeError):
    """Another poll of the alias runs: this one waits for it (the task retries)."""


def tick(es: Elasticsearch, client: redis.Redis, celery: Celery, settings: Settings, alias: str) -> dict:
    """Send a poll for due sources that no other tick claimed, a few in flight at a time (schedule.to_send)."""
    sent = []
    for source in schedule.to_send(client, alias, schedule.due(es, alias, now_utc())):
        if schedule.claim(client, alias, source):
            celery.send_task(task_names.POLL_SOURCE, args=[alias, source.url], queue=settings.queue)
            sent.append(source.url)
    return {"sent": len(sent), "sources": sent}


def run_poll(es: Elasticsearch, client: redis.Redis, celery: Celery, settings: Settings, alias: str, url: str,
             force: bool = False) -> dict:
    """Poll the followed source ``url`` of ``alias`` now (``force``: even when it is not due)."""
    index = followed_store.index_of(alias)
    lock = client.lock(redis_keys.follow_lock(alias), timeout=LOCK_TTL)
    if not lock.acquire(blocking=False):
        raise FollowBusy(f"a poll of {alias} is running")
    try:
        source = followed_store.load(es, index, url)
        if source is None:
            return {"url": url, "outcome": "gone", "reason": "no longer followed"}
        if not force and not source.due(now_utc()):
            return {"url": url, "outcome": "not-due", "reason": f"next check at {source.next_check}"}
        ensure_index(settings, es, client, alias)  # a registry may be filled before anything was ingested
        stored, result = poll(es, client, alias, source, batch_size=settings.batch_size)
        followed_store.save(es, index, stored)
        _count(client, alias, stored.url, result.outcome, stored.failures, stored.last_error)
    finally:
        schedule.release(client, alias, followed_store.source_id(url))
        try:
            lock.release()
        except redis.exceptions.LockError:
            pass
    if result.outcome == "ingested":
        if result.pruned:
            passes.want_all(client, alias)  # deleted papers: both passes read the whole alias
        if result.indexed or result.pruned:
            passes.request(celery, client, alias, settings.queue)
            if result.venue_years:
                request_maps(celery, settings, alias, result.venue_years)
    return result.to_json()


def edit(es: Elasticsearch, alias: str, action: str, what: object) -> dict:
    """The admin API's edits of the registry: ``add`` a source (its document, checked by the web), ``remove`` one by id."""
    index = followed_store.index_of(alias)
    if action == "add" and isinstance(what, dict):
        source = FollowedSource.from_document(what)
        if followed_store.load(es, index, source.url):
            return {"status": "exists", "id": source.id}
        followed_store.save(es, index, source)
        return {"status": "added", "id": source.id}
    if action == "remove" and isinstance(what, str):
        return {"status": "removed" if followed_store.delete(es, index, what) else "missing", "id": what}
    return {"status": "refused", "message": f"unknown edit {action!r}"}


def _count(client: redis.Redis, alias: str, url: str, outcome: str, failures: int, error: str | None) -> None:
    """Polls per outcome, and each source's consecutive failures and last error, where ``/metrics`` reads them."""
    pipe = client.pipeline()
    pipe.hincrby(redis_keys.FOLLOW_TOTALS, outcome, 1)
    if failures:
        pipe.hset(redis_keys.follow_failures(alias), url, failures)
        pipe.hset(redis_keys.follow_errors(alias), url, (error or "")[:300])
    else:
        pipe.hdel(redis_keys.follow_failures(alias), url)
    pipe.execute()
