"""Zero-downtime rebuild: copy into a new versioned index, replay concurrent writes, swap the alias.

1. Under a Redis lock (TTL renewed by a heartbeat, so a killed worker frees it), create
   ``<alias>-v<schema>-<time>`` with no replicas and refresh off.
2. Copy every paper from the live index (scroll snapshot; documents rebuilt through the
   current code, so new derived fields appear, and the prominence prior recomputed over
   the index's venue-year scales) or, with ``from_sources``, normalise every recorded
   source again.
3. Replay the ids writers journaled since the copy began (see :mod:`services.indexer.writes.journal`).
4. Restore replicas and refresh, then pause writers for a moment, replay the last ids,
   check counts and a sample of documents, and swap the alias in one ``_aliases`` call.
5. Keep the two previous indices for a rollback (:mod:`services.indexer.rebuild.control`); delete older ones.
6. Force-merge the new, serving index to one segment per shard (searches get faster;
   done after the swap, so the new data does not wait for it).

Any failure leaves the alias where it was and deletes the half-built index.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import time
from collections.abc import Iterable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import redis
from elasticsearch import ApiError, Elasticsearch, TransportError, helpers

from services.indexer.corpus import scales as venue_scales
from services.indexer.corpus.names.index_pass import run_pass
from services.indexer.corpus.people import index_pass as people_pass
from services.indexer.ingest import merge
from services.indexer.ingest.corpus_reader import CorpusReader
from services.indexer.ingest.registry import SourceRegistry
from services.indexer.paper.own_names import own_names
from services.indexer.sources import SourceError
from services.indexer.writes.journal import WriteGate, WriteJournal, redis_time
from services.indexer.writes.vectors import carried, vector_fields
from services.search.engine import indices
from services.search.engine.generation import bump_generation
from services.search.records.documents import from_source, to_document
from services.search.records.prominence import VenueScale, prominence, scale_key
from services.search.records.schema import serving_settings
from services.settings import Settings

from .state import CopyProgress, Heartbeat, ReindexError, ReindexState, take_lock

__all__ = ["Outcome", "Rebuild", "rebuilt", "replay"]

log = logging.getLogger(__name__)

# Writers active when the rebuild starts are waited for (their writes land before the
# snapshot); later ones journal after the mark. A few seconds of slack cost nothing.
REPLAY_MARGIN = 5
DRAIN_TIMEOUT = 330  # longer than an ingest batch's time limit (tasks.BATCH_TIME_LIMIT)
COPY_CHUNK = 1000
# Scroll slices copied at once, each with its own bulk stream: one stream keeps one core of
# the cluster busy (scroll, JSON, HNSW inserts), so a rebuild took longer than an ingest.
COPY_SLICES = 2
KEEP_PREVIOUS = 2
SAMPLE_SIZE = 200
PAUSE_SECONDS = 120


@dataclass
class Outcome:
    run_id: str
    old: str
    new: str
    copied: int
    replayed: int
    seconds: float


class Rebuild:
    def __init__(self, settings: Settings, es: Elasticsearch, client: redis.Redis, alias: str, run_id: str):
        self.settings = settings
        self.es = es
        self.redis = client
        self.alias = alias
        self.run_id = run_id
        self.state = ReindexState(client, alias)
        self.journal = WriteJournal(client, alias)
        self.gate = WriteGate(client, alias)
        self.target: str | None = None
        self.began = 0.0  # monotonic start of the run: the serving time is measured from it
        self.from_sources = False
        self.scales: dict[str, VenueScale] | None = None  # venue-year scales of a copy from the index

    def run(self, from_sources: bool = False) -> Outcome:
        current = self.state.load()
        if current.get("run_id") not in (None, self.run_id):
            raise ReindexError(f"run {self.run_id} was superseded by run {current.get('run_id')}")
        if current.get("run_id") == self.run_id and current.get("phase") != "queued":
            # A redelivered message of a run that already started (and died): never resume it.
            raise ReindexError(f"run {self.run_id} already started once ({current.get('phase')}); "
                               "stale message dropped — request a new reindex")
        ttl = self.settings.reindex_lock_ttl
        lock = self.redis.lock(self.state.lock_key, timeout=ttl, blocking=False, thread_local=False)
        if not take_lock(lock, self.run_id):
            raise ReindexError("a reindex is already running for this alias")
        started = self.began = time.monotonic()
        try:
            with Heartbeat(lock, ttl) as heartbeat:
                outcome = self._rebuild(from_sources, heartbeat)
            outcome.seconds = time.monotonic() - started
            self.state.save(phase="done", message=f"swapped {outcome.old} -> {outcome.new} "
                                                  f"in {outcome.seconds:.0f}s", seconds=round(outcome.seconds, 1))
            return outcome
        except BaseException as exc:
            self._abandon(exc)
            raise
        finally:
            with contextlib.suppress(redis.exceptions.LockError, redis.RedisError):
                lock.release()  # may have expired already: nothing to release

    # -- phases ----------------------------------------------------------------------

    def _rebuild(self, from_sources: bool, heartbeat: Heartbeat) -> Outcome:
        self.from_sources = from_sources
        self._delete_orphans()
        source = indices.current_index(self.es, self.alias)
        if not source:
            raise ReindexError(f"alias {self.alias} does not exist: ingest something first")
        self.target = indices.create_index(self.es, self.alias, shards=self.settings.shards,
                                           replicas=self.settings.replicas, building=True)
        self.redis.sadd(self.state.building_key, self.target)
        self.state.save(phase="copying", source_index=source, target_index=self.target,
                        from_sources=from_sources, copied=0, replayed=0)
        mark = redis_time(self.redis) - REPLAY_MARGIN
        if not self.gate.wait_for(self.gate.writers(), DRAIN_TIMEOUT):
            raise ReindexError("writers active at the start did not finish; try again")
        self.es.indices.refresh(index=source)
        started = time.monotonic()
        if from_sources:
            copied = self._copy_from_sources(heartbeat)
        else:
            copied = self._copy_from_index(source, heartbeat)
        self.state.save(phase="replaying", copy_seconds=round(time.monotonic() - started, 1))
        started = time.monotonic()
        replayed = 0
        for _ in range(5):  # catch up while writers keep going
            now = redis_time(self.redis)
            ids = self.journal.since(mark)
            replayed += self._replay(source, ids)
            mark = now
            if len(ids) < 100:
                break
        self._check(heartbeat)
        self.state.save(phase="naming", replay_seconds=round(time.monotonic() - started, 1))
        started = time.monotonic()
        named = run_pass(self.es, self.redis, self.target, keep=False)  # the corpus passes over the new copy
        self._check(heartbeat)
        self.state.save(phase="people", naming_seconds=round(time.monotonic() - started, 1), named=named.updated)
        started = time.monotonic()
        people = people_pass.run_pass(self.es, self.redis, self.target, self.settings.people_index_of(self.alias))
        self._check(heartbeat)
        self.state.save(phase="finishing", people_seconds=round(time.monotonic() - started, 1), people=people.updated)
        self.es.indices.put_settings(index=self.target, settings=serving_settings(self.settings.replicas))
        self.es.indices.refresh(index=self.target)
        self.es.cluster.health(index=self.target, wait_for_status="yellow", timeout="60s")

        self.state.save(phase="swapping")
        self.gate.pause(PAUSE_SECONDS)
        try:
            if not self.gate.wait_idle(PAUSE_SECONDS / 2):
                raise ReindexError("writers did not finish within the pause; alias left unchanged")
            replayed += self._replay(source, self.journal.since(mark))
            self.es.indices.refresh(index=[source, self.target])
            self._verify(source)
            self._check(heartbeat)
            indices.swap_alias(self.es, self.alias, self.target)
            bump_generation(self.redis, self.alias)
        finally:
            self.gate.resume()
        self.redis.srem(self.state.building_key, self.target)
        self.redis.hset(self.state.retired_key, source, redis_time(self.redis))
        deleted = indices.delete_unaliased(self.es, self.alias, keep=KEEP_PREVIOUS)
        if deleted:
            self.redis.hdel(self.state.retired_key, *deleted)
        self.state.save(replayed=replayed, serving_seconds=round(time.monotonic() - self.began, 1))
        merge.clear(self.redis, self.alias)  # the writes counted were the old index's; this one is merged now
        self._merge_live(heartbeat)
        return Outcome(self.run_id, source, self.target, copied, replayed, 0.0)

    def _merge_live(self, heartbeat: Heartbeat) -> None:
        """Force-merge the new index to one segment per shard once it serves.

        Searches on one segment are faster (see :func:`indices.merge_segments`), but the
        merge rebuilds the vector graph and cost a third of the rebuild before the swap; done
        after it, the new data serves that much sooner and the merge runs in Lucene's
        background while searches go on. A merge that fails or outlives the lock leaves a
        serving index of several segments, which is what an ingest leaves too: the run is
        still done, and says so.
        """
        self.state.save(phase="merging")
        started = time.monotonic()
        try:
            indices.merge_segments(self.es, self.target, alive=lambda: self._check(heartbeat))
        except (ReindexError, ApiError, TransportError, RuntimeError) as exc:
            log.warning("reindex %s: merge of %s left unfinished: %r", self.run_id, self.target, exc)
            self.state.save(merge_left=f"{exc.__class__.__name__}: {exc}"[:300])
        self.state.save(merge_seconds=round(time.monotonic() - started, 1))

    def _copy_from_index(self, source: str, heartbeat: Heartbeat) -> int:
        total = self.es.count(index=source)["count"]
        self.scales = venue_scales.from_index(self.es, source)  # the prior recomputed by the current formula
        self.state.save(total=total)
        progress = CopyProgress(self.state)

        def copy_slice(n: int) -> int:
            query = {"query": {"match_all": {}}, "sort": ["_doc"], "slice": {"id": n, "max": COPY_SLICES}}
            hits = helpers.scan(self.es, index=source, query=query, size=COPY_CHUNK, scroll="5m",
                                preserve_order=True)
            return self._bulk(((h["_id"], rebuilt(h["_source"], self.scales)) for h in hits), heartbeat, progress)

        with ThreadPoolExecutor(COPY_SLICES, thread_name_prefix="reindex-copy") as pool:
            futures = [pool.submit(copy_slice, n) for n in range(COPY_SLICES)]
            try:
                return sum(future.result() for future in futures)
            except BaseException:
                progress.stopped = True  # the other slices stop at their next chunk
                raise

    def _copy_from_sources(self, heartbeat: Heartbeat) -> int:
        records = SourceRegistry(self.es, self.alias).all()
        if not records:
            raise ReindexError("no sources are recorded for this alias; rebuild from the index instead")
        self.state.save(total=sum(r.records for r in records))
        return self._bulk(self._normalised(r.location for r in records), heartbeat)

    def _normalised(self, locations: Iterable[str]) -> Iterator[tuple[str, dict]]:
        try:
            reader = iter(CorpusReader(locations))
            while papers := list(itertools.islice(reader, COPY_CHUNK)):
                vectors = vector_fields(papers)  # re-read sources: embedded again, a batch at a time
                for paper in papers:
                    yield paper.paper_id, {**to_document(paper, run=self.run_id), **vectors.get(paper.paper_id, {})}
        except SourceError as exc:
            raise ReindexError(f"cannot re-read a recorded source: {exc}") from None

    def _bulk(self, docs: Iterable[tuple[str, dict]], heartbeat: Heartbeat,
              progress: CopyProgress | None = None) -> int:
        progress = progress or CopyProgress(self.state)
        copied = 0
        actions = ({"_index": self.target, "_id": doc_id, "_source": doc} for doc_id, doc in docs)
        for ok, _ in helpers.streaming_bulk(self.es, actions, chunk_size=COPY_CHUNK, max_retries=5,
                                               initial_backoff=1, raise_on_error=True):
            copied += ok
            if copied % COPY_CHUNK == 0:
                self._check(heartbeat)
                progress.add(COPY_CHUNK)
        progress.add(copied % COPY_CHUNK)
        return copied

    def _replay(self, source: str, ids: list[str]) -> int:
        return replay(self.es, source, self.target, ids, self.scales)

    def _verify(self, source: str) -> None:
        """Writers are paused and replayed: the copy must match the live index exactly.

        Rebuilt from sources, documents may legitimately differ (that is the point), so
        only their presence is checked.
        """
        old = self.es.count(index=source)["count"]
        new = self.es.count(index=self.target)["count"]
        if old != new and not self.from_sources:
            raise ReindexError(f"count check failed: live index {old:,}, new index {new:,}")
        sample = self.es.search(index=source, size=SAMPLE_SIZE, source_includes=["content_hash"],
                                query={"function_score": {"random_score": {}}})["hits"]["hits"]
        if sample:
            got = self.es.mget(index=self.target, ids=[h["_id"] for h in sample],
                               source_includes=["content_hash"])["docs"]
            bad = [d["_id"] for d, h in zip(got, sample, strict=True) if not d.get("found") or (
                not self.from_sources and d["_source"].get("content_hash") != h["_source"].get("content_hash"))]
            if bad:
                raise ReindexError(f"sample check failed: {len(bad)} of {len(sample)} documents differ "
                                   f"(e.g. {bad[0]})")
        if self.es.cluster.health(index=self.target)["status"] not in ("green", "yellow"):
            raise ReindexError("the new index is not healthy")
        self.state.save(verified=f"{new:,} documents (live {old:,}), sample of {len(sample)} matched")

    def _check(self, heartbeat: Heartbeat) -> None:
        if heartbeat.lost:
            raise ReindexError("lost the reindex lock (Redis unavailable?)")

    def _delete_orphans(self) -> None:
        """Half-built indices of abandoned runs (never aliased) go before a new run starts."""
        live = set(indices.aliased_indices(self.es, self.alias))
        for name in [m.decode() for m in self.redis.smembers(self.state.building_key)]:
            if name not in live:
                self.es.indices.delete(index=name, ignore_unavailable=True)
            self.redis.srem(self.state.building_key, name)

    def _abandon(self, exc: BaseException) -> None:
        log.warning("reindex %s abandoned: %r", self.run_id, exc)
        self.state.save(phase="failed", message=f"{exc.__class__.__name__}: {exc}"[:500])
        if self.target:
            try:
                if self.target not in indices.aliased_indices(self.es, self.alias):
                    self.es.indices.delete(index=self.target, ignore_unavailable=True)
                    self.redis.srem(self.state.building_key, self.target)
            except Exception:  # noqa: BLE001 - Elasticsearch may be the reason we are here
                log.warning("could not delete %s; the next reindex will", self.target)


def rebuilt(stored: dict, scales: Mapping[str, VenueScale] | None = None) -> dict:
    """A stored document passed through the current code, so new derived fields appear (its own names
    too; the names the corpus gives it are the corpus pass's, run over the copy before the swap).

    With ``scales`` (the live index's venue-year scales) its prominence prior is computed
    again, by the current formula; without, it is kept as stored.
    """
    paper = from_source(stored)
    paper = paper.model_copy(update={"names": own_names(paper.title, paper.abstract)})  # by the current code
    if scales is not None:
        paper = paper.model_copy(update={"prominence": prominence(paper, scales.get(scale_key(paper.conference,
                                                                                              paper.year)))})
    return {**to_document(paper, run=stored.get("ingest_run", ""), indexed_at=stored.get("indexed_at")),
            **carried(stored, paper)}


def replay(es: Elasticsearch, source: str, target: str, ids: list[str],
           scales: Mapping[str, VenueScale] | None = None) -> int:
    """Make ``target`` agree with ``source`` for these ids: copied when present, deleted when gone.

    A write the target refuses would silently diverge the copy: it raises
    :class:`ReindexError` (the rebuild is abandoned, the alias left alone).
    """
    for start in range(0, len(ids), COPY_CHUNK):
        found = es.mget(index=source, ids=ids[start:start + COPY_CHUNK])["docs"]
        actions = [{"_index": target, "_id": doc["_id"], "_source": rebuilt(doc["_source"], scales)} if doc.get("found")
                   else {"_op_type": "delete", "_index": target, "_id": doc["_id"]} for doc in found]
        failed = [item for ok, item in helpers.streaming_bulk(
            es, actions, raise_on_error=False, max_retries=5, initial_backoff=1) if not ok and not _gone(item)]
        if failed:
            op, info = next(iter(failed[0].items()))
            raise ReindexError(f"replay failed for {len(failed)} document(s), e.g. {op} {info.get('_id')}: "
                               f"{info.get('error')}"[:500])
    return len(ids)


def _gone(item: dict) -> bool:
    """Deleting a document the target never had is the wanted outcome, not a failure."""
    info = item.get("delete")
    return info is not None and info.get("status") == 404
