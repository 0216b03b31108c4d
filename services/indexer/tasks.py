"""Celery tasks of the indexer: each a thin door to a room, named in :mod:`services.task_names`.

A task says how the work is run (time limits, retries, leases in the ingest run, which errors are
transient); the work itself is the room's (an ingest batch, a prune, a corpus pass, a rebuild, a map).
Their names are the interface the CLI and the web's admin API use.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict

import elastic_transport
import redis
from celery import shared_task
from elasticsearch import ApiError

from services import task_names
from services.search.engine.generation import bump_generation
from services.search.records.prominence import VenueScale

from .celery_app import VISIBILITY_TIMEOUT
from .corpus.names.index_pass import run_pass
from .corpus.people import index_pass as people_pass
from .follow import runner as follow
from .ingest import merge, passes
from .ingest.batch import write_batch
from .ingest.progress import NAMES_LEASE, PEOPLE_LEASE, IngestRun
from .ingest.prune import prune_missing
from .maps import build as maps
from .rebuild.control import request_reindex
from .rebuild.runner import Rebuild
from .rebuild.state import ReindexError, ReindexState
from .writes.journal import WritesPaused

log = logging.getLogger(__name__)

BATCH_TIME_LIMIT = 300
POLL_TIME_LIMIT = 1800  # a poll that changed: a venue-year file of up to ~12,000 records normalised and written here
FOLLOW_RETRY_S = 10     # a poll waiting for the alias's running one looks again this often
MAP_TIME_LIMIT = 900  # one venue-year's map: ~20 s of a core for 6,600 papers, ~40 s for ICLR 2025's 11,600 records
# A batch takes seconds; its lease is renewed in the background while it runs. A lease
# that lapses on an unfinished batch tells the ingest command the worker died.
BATCH_LEASE = 30
TRANSIENT_STATUS = (429, 502, 503, 504)


class TransientError(RuntimeError):
    """Elasticsearch or Redis is briefly unavailable or overloaded: retry with backoff."""


RETRYABLE = (TransientError, WritesPaused, elastic_transport.TransportError, redis.ConnectionError)
RETRY = dict(autoretry_for=RETRYABLE, retry_backoff=2, retry_backoff_max=120, retry_jitter=True, max_retries=12)


@contextmanager
def transient_errors() -> Iterator[None]:
    """Elasticsearch's answers that say "later" (:data:`TRANSIENT_STATUS`) as :class:`TransientError`,
    which the tasks retry with back-off; any other error stays what it is."""
    try:
        yield
    except ApiError as exc:
        if exc.meta.status in TRANSIENT_STATUS:
            raise TransientError(f"Elasticsearch answered {exc.meta.status}") from exc
        raise


@shared_task(name=task_names.INGEST_BATCH, bind=True, soft_time_limit=BATCH_TIME_LIMIT - 30,
             time_limit=BATCH_TIME_LIMIT, **RETRY)
def ingest_batch(self, run_id: str, alias: str, batch_id: str, segments: list[dict],
                 scales: dict[str, dict] | None = None) -> dict:
    """Normalise and index one batch (:mod:`services.indexer.ingest.batch`); ``scales``: the prominence
    scale of each venue-year in it, as the whole list made them (JSON)."""
    run = IngestRun(self.redis, run_id)
    try:
        with run.hold(batch_id, BATCH_LEASE), transient_errors():
            return write_batch(self.es, self.redis, run, alias, batch_id, segments,
                               {key: VenueScale.from_json(value) for key, value in (scales or {}).items()})
    except Exception as exc:
        if not isinstance(exc, RETRYABLE) or self.request.retries >= self.max_retries:
            run.note_failure(batch_id, f"{exc.__class__.__name__}: {exc}")  # no retry comes: tell the CLI
        else:  # a retry is scheduled: held, not lost, during its backoff
            run.lease(batch_id, BATCH_LEASE + RETRY["retry_backoff_max"] + 10)
        raise


@shared_task(name=task_names.PRUNE, bind=True, soft_time_limit=1800, time_limit=1900, **RETRY)
def prune(self, alias: str, conference_years: list[list], keep_ids: list[str]) -> dict:
    """Delete papers of these conference-years that the source no longer lists (:mod:`services.indexer.ingest.prune`)."""
    with transient_errors():
        return prune_missing(self.es, self.redis, alias, conference_years, keep_ids)


@shared_task(name=task_names.NAMES, bind=True, soft_time_limit=1800, time_limit=1900, **RETRY)
def names(self, alias: str, run_id: str | None = None, whole: bool = False) -> dict:
    """The corpus names pass (:mod:`services.indexer.corpus.names.index_pass`) over the papers written since the
    last one (:mod:`services.indexer.ingest.passes`), or over the whole alias (``whole``, or a prune deleted
    papers). One runs at a time per alias: another waits for it, then takes what was written meanwhile.
    An ingest that waits for its pass (``run_id``) holds a lease in the run while it works, as a batch does."""
    def work() -> dict:
        with passes.running(self.redis, alias, passes.NAMES):
            ids, wanted = passes.take(self.redis, alias, passes.NAMES)
            if not (ids or wanted or whole):  # an earlier pass took this one's papers (passes coalesce)
                result = {"updated": 0, "skipped": "no write since the last pass"}
                passes.finished(self.redis, alias, passes.NAMES, result)
                return result
            try:
                result = asdict(run_pass(self.es, self.redis, alias, None if whole or wanted else ids))
            except BaseException:
                passes.give_back(self.redis, alias, passes.NAMES, ids, whole or wanted)
                raise
            merge.note(self.redis, alias, result["updated"])
            passes.finished(self.redis, alias, passes.NAMES, result)
            return result
    return _pass(self, run_id, NAMES_LEASE, work)


@shared_task(name=task_names.PEOPLE, bind=True, soft_time_limit=1800, time_limit=1900, **RETRY)
def people(self, alias: str, run_id: str | None = None) -> dict:
    """The people pass (:mod:`services.indexer.corpus.people.index_pass`): a person for every author place, over
    the whole alias, when papers were written (or a whole pass asked for) since the last; one at a time per alias,
    as the names pass. ``written`` is what an incremental people pass would read (its decision is not this
    task's: it runs whole)."""
    def work() -> dict:
        with passes.running(self.redis, alias, passes.PEOPLE):
            written, wanted = passes.take(self.redis, alias, passes.PEOPLE)
            if not (written or wanted or run_id):
                result = {"updated": 0, "skipped": "no write since the last pass"}
            else:
                try:
                    result = asdict(people_pass.run_pass(self.es, self.redis, alias,
                                                         self.settings.people_index_of(alias)))
                except BaseException:
                    passes.give_back(self.redis, alias, passes.PEOPLE, written, wanted)
                    raise
                merge.note(self.redis, alias, result["updated"])
                result["merge"] = _merge_check(self.es, self.redis, alias)  # after the ingest's last write
            passes.finished(self.redis, alias, passes.PEOPLE, result)
            return result
    return _pass(self, run_id, PEOPLE_LEASE, work)


def _merge_check(es, client: redis.Redis, alias: str) -> dict:
    """:func:`merge.after_writes`, whose failure costs only the merge: the pass that ran stays done (no retry)."""
    try:
        return merge.after_writes(es, client, alias)
    except (ApiError, elastic_transport.TransportError, redis.RedisError) as exc:
        log.warning("merge check of %s failed: %r", alias, exc)
        return {"started": False, "reason": f"the check failed: {exc.__class__.__name__}"}


def _pass(task, run_id: str | None, lease: str, work) -> dict:
    """Run a corpus pass: leased in its ingest run when one waits for it; retried while another runs."""
    try:
        with transient_errors():
            if run_id is None:
                return work()
            with IngestRun(task.redis, run_id).hold(lease, BATCH_LEASE):
                return work()
    except passes.PassBusy:
        if run_id is not None:  # waiting, not lost: the ingest must not send it again meanwhile
            IngestRun(task.redis, run_id).lease(lease, passes.RETRY_S + BATCH_LEASE)
        raise task.retry(countdown=passes.RETRY_S, max_retries=None) from None


@shared_task(name=task_names.PASSES_STATE, bind=True)
def passes_state(self, alias: str) -> dict:
    """The corpus passes' state over ``alias``, for the admin API (which only speaks task names)."""
    return passes.state(self.redis, alias)


@shared_task(name=task_names.FOLLOW_EDIT, bind=True)
def follow_edit(self, alias: str, action: str, what: object) -> dict:
    """Follow (``add``: a checked source's document) or unfollow (``remove``: its id) a source, for the admin API."""
    with transient_errors():
        return follow.edit(self.es, alias, action, what)


@shared_task(name=task_names.FOLLOW_TICK, bind=True, **RETRY)
def follow_tick(self, alias: str) -> dict:
    """The scheduler's tick: a poll for every due followed source (:mod:`services.indexer.follow.schedule`)."""
    with transient_errors():
        return follow.tick(self.es, self.redis, self.app, self.settings, alias)


@shared_task(name=task_names.POLL_SOURCE, bind=True, soft_time_limit=POLL_TIME_LIMIT - 30, time_limit=POLL_TIME_LIMIT,
             **RETRY)
def poll_source(self, alias: str, url: str, force: bool = False) -> dict:
    """Poll one followed source (:mod:`services.indexer.follow.poll`); waits while another poll of the alias runs."""
    try:
        with transient_errors():
            return follow.run_poll(self.es, self.redis, self.app, self.settings, alias, url, force)
    except follow.FollowBusy:
        raise self.retry(countdown=FOLLOW_RETRY_S, max_retries=None) from None


@shared_task(name=task_names.REINDEX, bind=True, acks_late=True, soft_time_limit=VISIBILITY_TIMEOUT - 600,
             time_limit=VISIBILITY_TIMEOUT - 300)
def reindex(self, alias: str, run_id: str, from_sources: bool = False) -> dict:
    """Rebuild ``alias`` into a new versioned index and swap (see :mod:`services.indexer.rebuild.runner`)."""
    try:
        outcome = Rebuild(self.settings, self.es, self.redis, alias, run_id).run(from_sources=from_sources)
    except ReindexError as exc:
        return {"status": "failed", "run_id": run_id, "message": str(exc)}
    maps.request_maps(self.app, self.settings, alias)  # every venue-year: those whose papers are unchanged are skipped
    return {"status": "done", **asdict(outcome)}


@shared_task(name=task_names.REINDEX_STATUS, bind=True)
def reindex_status(self, alias: str) -> dict:
    """State of the current or last rebuild, for the admin API (which only speaks task names)."""
    return ReindexState(self.redis, alias).load()


@shared_task(name=task_names.REQUEST_REINDEX, bind=True)
def request_reindex_task(self, alias: str, from_sources: bool = False) -> dict:
    """Start a rebuild unless one runs (the admin API's entry point)."""
    try:
        run_id, task_id = request_reindex(self.redis, self.app, self.settings, alias, from_sources)
    except ReindexError as exc:
        return {"status": "refused", "message": str(exc)}
    return {"status": "queued", "run_id": run_id, "task_id": task_id}


@shared_task(name=task_names.BUILD_MAPS, bind=True, **RETRY)
def build_maps(self, alias: str, venue_years: list[list] | None = None, force: bool = False) -> dict:
    """Send one map task per venue-year, the largest first: those named (an ingest's), or every venue-year
    with enough papers and every one that has a map (after a reindex)."""
    wanted = None if venue_years is None else [(str(c), int(y)) for c, y in venue_years]
    with transient_errors():
        chosen = maps.planned(self.es, alias, self.settings.maps_index_of(alias), self.settings.map_min_papers, wanted)
    for conference, year in chosen:
        self.app.send_task(task_names.BUILD_MAP, args=[alias, conference, year, force], queue=self.settings.queue)
    return {"sent": len(chosen)}


@shared_task(name=task_names.BUILD_MAP, bind=True, acks_late=True, soft_time_limit=MAP_TIME_LIMIT - 30,
             time_limit=MAP_TIME_LIMIT, **RETRY)
def build_map(self, alias: str, conference: str, year: int, force: bool = False) -> dict:
    """Lay out one venue-year's map and store it (:mod:`services.indexer.maps.build`); unchanged papers are
    not laid out again."""
    with transient_errors():
        built = maps.build_map(self.es, alias, self.settings.maps_index_of(alias), conference, int(year),
                               min_papers=self.settings.map_min_papers, force=force)
    if built.outcome in ("built", "removed"):
        bump_generation(self.redis, alias)  # pages cached without the map (or with the old one) are out of date
    log.info("map of %s %s: %s (%d papers, %.1f s CPU)", conference, year, built.outcome, built.papers,
             built.cpu_seconds)
    return built.to_json()
