"""Ingest orchestration on the operator's side: read sources, batch, send to Celery, wait.

The reader only parses JSON and computes each record's paper id (to drop duplicates
within a run); normalisation and indexing happen in the workers. Batches whose worker
died are sent again: a batch is idempotent (same ids, counts recorded once). A batch
is sent at most :data:`MAX_SENDS` times; then its records are rejected with the reason
and the run reports it, rather than retrying for hours.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

import redis
from celery import Celery
from celery.exceptions import TimeoutError as CeleryTimeoutError
from elasticsearch import Elasticsearch

from services import redis_keys, task_names
from services.indexer.maps.build import request_maps
from services.indexer.sources import Origin, SourceError, SourceFile, SourceRead, open_sources, reader_named
from services.indexer.writes.bulk import IndexReadOnly
from services.search.engine import generation, indices
from services.search.records import schema
from services.settings import Settings

from . import passes
from .accept import accept
from .progress import NAMES_LEASE, PEOPLE_LEASE, IngestRun, RunCounts, reject_entry
from .registry import SourceRegistry


class IngestError(RuntimeError):
    """A systemic failure (no worker, Elasticsearch or Redis down): the run cannot go on."""


@dataclass
class Summary:
    run_id: str
    files: int = 0
    read: int = 0
    indexed: int = 0
    unchanged: int = 0
    rejected: int = 0
    pruned: int | None = None
    pruned_scope: list[tuple[str, int]] = field(default_factory=list)
    renamed: int | None = None  # papers the corpus pass (names, mentions) rewrote; None: not waited for
    people: int | None = None   # papers whose authors' person ids the people pass rewrote; None: not waited for
    passes: dict[str, str] = field(default_factory=dict)  # the passes sent to run in the background: their task ids
    resent: int = 0
    abandoned_batches: int = 0
    rejects_path: Path | None = None
    problems: list[str] = field(default_factory=list)
    maps: list[tuple[str, int]] = field(default_factory=list)  # venue-years written: their maps were asked for
    seconds: float = 0.0


@dataclass
class _Batch:
    batch_id: str
    refs: list[tuple[dict, list[int]]]  # (origin hints, positions): enough to read it again
    records: int
    scales: dict[str, dict]  # the prominence scale of each venue-year it holds (JSON)
    sends: int = 0


ProgressFn = Callable[[RunCounts, int, bool], None]
MAX_IN_FLIGHT = 8
MAX_SENDS = 3  # first send and two re-sends; a batch lost or failing more often is given up
WORKER_PING_TIMEOUT = 2.0


class Ingest:
    """One ``paperlist ingest`` run against an alias."""

    def __init__(self, settings: Settings, celery: Celery, es: Elasticsearch, client: redis.Redis, *,
                 alias: str | None = None, prune: bool = False, rejects_dir: Path | None = None,
                 batch_size: int | None = None, stall_seconds: float = 30.0, worker_wait: float = 120.0,
                 timeout: float = 4 * 3600, wait_passes: bool = False):
        self.settings = settings
        self.celery = celery
        self.es = es
        self.redis = client
        self.alias = alias or settings.index
        self.prune = prune
        self.rejects_dir = rejects_dir or settings.run_dir / "rejects"
        self.batch_size = batch_size or settings.batch_size
        self.stall_seconds = stall_seconds
        self.worker_wait = worker_wait
        self.timeout = timeout
        self.wait_passes = wait_passes  # answer once the corpus passes are done too (tests, scripts), not before
        self.run_id = uuid.uuid4().hex[:12]
        self.run = IngestRun(client, self.run_id)
        self._batches: dict[str, _Batch] = {}
        self._segments: dict[str, tuple[dict, list]] = {}
        self._scales: dict[str, dict] = {}  # venue-year scales of the batch being filled
        self._pending = 0
        self._seen: dict[str, str] = {}
        self._conference_years: set[tuple[str, int]] = set()
        self._per_source: dict[str, int] = {}
        self._progress: ProgressFn | None = None
        self._problems: list[str] = []
        self._resent = 0
        self._abandoned = 0
        self._empty_files: list[tuple[str, int]] = []
        self._reading_done = False
        self._last_done, self._last_change, self._last_progress = -1, time.monotonic(), 0.0

    # -- the run -----------------------------------------------------------------------

    def execute(self, sources: Sequence[str], progress: ProgressFn | None = None) -> Summary:
        started = time.monotonic()
        summary = Summary(self.run_id)
        self._progress = progress
        self._require_worker()
        ensure_index(self.settings, self.es, self.redis, self.alias)
        self.run.start(self.alias, sources)
        files: list[SourceFile] = []
        for source in sources:  # one by one: a missing path must not hide the others
            try:
                files.extend(open_sources([source]))
            except SourceError as exc:
                summary.problems.append(str(exc))
        with self._loading():
            for source_file in files:
                summary.files += 1
                try:
                    read = source_file.read()
                except SourceError as exc:
                    summary.problems.append(str(exc))
                    continue
                self._read(read)
            self._flush()
            self._reading_done = True
            self._wait()
            if self.prune:
                self._conference_years.update(self._empty_files)
            if self.prune and self._conference_years:
                summary.pruned_scope = sorted(self._conference_years)
                summary.pruned = self._prune()
        if self.run.counts().indexed or summary.pruned:  # searchable now: the corpus passes refine it
            if summary.pruned:
                passes.want_all(self.redis, self.alias)  # deleted papers: both passes read the whole alias
            if self.wait_passes:
                summary.renamed = self._corpus_pass(task_names.NAMES, NAMES_LEASE)
                summary.people = self._corpus_pass(task_names.PEOPLE, PEOPLE_LEASE)
            else:
                summary.passes = passes.request(self.celery, self.redis, self.alias, self.settings.queue)
        summary.problems += self._problems
        summary.maps = self.run.venue_years()
        if summary.maps:  # after the load's last refresh: the map tasks see every paper written
            request_maps(self.celery, self.settings, self.alias, summary.maps)
        counts = self.run.counts()
        summary.read, summary.indexed, summary.unchanged, summary.rejected = (
            counts.read, counts.indexed, counts.unchanged, counts.rejected)
        summary.resent, summary.abandoned_batches = self._resent, self._abandoned
        if counts.rejected:
            summary.rejects_path = self._write_rejects()
        SourceRegistry(self.es, self.alias).record(self._per_source, self.run_id)
        summary.seconds = time.monotonic() - started
        return summary

    @contextmanager
    def _loading(self) -> Iterator[None]:
        """The load at the long refresh interval (schema.LOADING_REFRESH): far fewer small segments
        to merge. Papers show within it while the run goes on, and all of them, with the prune's
        deletions, when it ends (refreshed, then one generation bump)."""
        with generation.loading(self.redis, self.alias, schema.LOADING_REFRESH_S, longest_s=self.timeout + 60), \
                indices.loading(self.es, self.alias):
            yield

    def _read(self, read: SourceRead) -> None:
        accepted = accept(read, self._seen)
        self._problems += accepted.problems
        self._per_source[read.location] = accepted.read
        if accepted.empty_venue_year:
            self._empty_files.append(accepted.empty_venue_year)  # withdrawn with --prune
        self._conference_years.update(accepted.conference_years)
        for origin, data, key in accepted.records:
            self._scales[key] = accepted.scales[key]  # every batch carries the scales of its records
            self._add(origin, data)
        if accepted.rejects:
            self.redis.rpush(f"{self.run.key}:rejects", *(json.dumps(r, ensure_ascii=False) for r in accepted.rejects))
        self.run.add(read=accepted.read, rejected=len(accepted.rejects))

    def _add(self, origin: Origin, data: object) -> None:
        hints, records = self._segments.setdefault(origin.source, (origin.hints(), []))
        records.append([origin.position, data])
        self._pending += 1
        if self._pending >= self.batch_size:
            self._flush()

    def _flush(self) -> None:
        if not self._pending:
            return
        segments = [{"source": s, "origin": hints, "records": r} for s, (hints, r) in self._segments.items()]
        batch = _Batch(f"b{len(self._batches):05d}",
                       [(hints, [pos for pos, _ in r]) for hints, r in self._segments.values()], self._pending,
                       self._scales)
        self._batches[batch.batch_id] = batch
        self.run.add(batches=1)
        self._send(batch, segments)
        self._segments, self._pending, self._scales = {}, 0, {}
        # Backpressure: read no further ahead than the workers can use, so Redis holds
        # a few batches, not the whole corpus.
        while len(self._batches) - len(self._poll()) > MAX_IN_FLIGHT:
            time.sleep(0.05)

    def _send(self, batch: _Batch, segments: list | None = None) -> None:
        if segments is None:
            segments = self._reread(batch)
        batch.sends += 1
        self.celery.send_task(task_names.INGEST_BATCH,
                              args=[self.run_id, self.alias, batch.batch_id, segments, batch.scales],
                              queue=self.settings.queue)

    def _reread(self, batch: _Batch) -> list[dict]:
        segments = []
        for hints, positions in batch.refs:
            read = reader_named(hints["format"]).read(hints["source"])
            records = {raw.position: raw.data for raw in read.records}
            segments.append({"source": hints["source"], "origin": hints,
                             "records": [[p, records[p]] for p in positions if p in records]})
        return segments

    def _wait(self) -> None:
        deadline = time.monotonic() + self.timeout
        while len(self._poll()) < len(self._batches):
            if time.monotonic() > deadline:
                raise IngestError(f"gave up after {self.timeout:.0f}s with batches unfinished")
            time.sleep(0.2)

    def _poll(self) -> set[str]:
        """Finished batches; on a stall, find out why and re-send what a dead worker lost."""
        done = self.run.done_batches()
        failed = self.run.failed_batches()
        if failed:
            self._retry(failed, done)
        now = time.monotonic()
        if len(done) != self._last_done:
            self._last_done, self._last_change = len(done), now
        elif now - self._last_change > self.stall_seconds:
            self._last_change = now
            self._check_worker()
            self._resend_lost(done)
        if self._progress and now - self._last_progress > 0.2:
            self._last_progress = now
            self._progress(self.run.counts(), self._read_total(), self._reading_done)
        return done

    def _resend_lost(self, done: set[str]) -> None:
        """Batches neither finished nor held by a worker were lost with a killed worker."""
        if self.redis.llen(self.settings.queue):
            return  # still queued: slow, not lost
        lost = {b: "the worker holding it stopped" for b in self._batches
                if b not in done and not self.run.leased(b)}
        self._retry(lost, done)

    def _retry(self, failed: dict[str, str], done: set[str]) -> None:
        """Send failed or lost batches again, up to :data:`MAX_SENDS`; then reject their records."""
        for batch_id, reason in failed.items():
            if reason.startswith(f"{IndexReadOnly.__name__}:"):
                raise IngestError(f"Elasticsearch refuses writes to {self.settings.index} ({reason[:300]}); "
                                  "free disk space or lift the index block, then run the ingest again: "
                                  "papers already written are kept and unchanged ones are skipped")
            batch = self._batches.get(batch_id)
            self.run.clear_failure(batch_id)
            if batch is None or batch_id in done:
                continue
            if batch.sends < MAX_SENDS:
                self._resent += 1
                self._send(batch)
            else:
                self._give_up(batch, reason)

    def _give_up(self, batch: _Batch, reason: str) -> None:
        why = f"batch {batch.batch_id} given up after {batch.sends} attempts: {reason}"[:500]
        rejects = [reject_entry(seg["source"], pos, why, record)
                   for seg in self._reread(batch) for pos, record in seg["records"]]
        self.run.finish_batch(batch.batch_id, {"rejected": len(rejects)}, rejects)
        self._abandoned += 1
        self._problems.append(f"{why} ({len(rejects)} records rejected)")

    def _read_total(self) -> int:
        return sum(self._per_source.values())

    def _require_worker(self) -> None:
        """Before anything is sent: fail fast, not after the stall timeout, when no worker runs."""
        if not self._worker_consumes(WORKER_PING_TIMEOUT):
            raise IngestError(self._no_worker_message())

    def _worker_consumes(self, timeout: float) -> bool:
        try:
            replies = self.celery.control.inspect(timeout=timeout).active_queues() or {}
        except (OSError, redis.RedisError) as exc:
            raise IngestError(f"Redis at {self.settings.redis_url} is not reachable: {exc}") from None
        return any(q.get("name") == self.settings.queue for queues in replies.values() for q in queues)

    def _no_worker_message(self) -> str:
        return (f"no Celery worker consumes the '{self.settings.queue}' queue; start one with `paperlist up` "
                f"or `celery -A services.indexer.worker worker -Q {self.settings.queue}`")

    def _check_worker(self) -> None:
        """A worker must consume our queue; wait a while for one that is (re)starting."""
        deadline = time.monotonic() + self.worker_wait
        while not self._worker_consumes(2):
            if time.monotonic() > deadline:
                raise IngestError(self._no_worker_message())
            time.sleep(2)

    def _prune(self) -> int:
        result = self.celery.send_task(
            task_names.PRUNE, args=[self.alias, sorted(self._conference_years), sorted(self._seen)],
            queue=self.settings.queue, compression="zlib")
        outcome = result.get(timeout=3600)
        self.run.note_venue_years((c, int(y)) for c, y in outcome.get("venue_years", ()))
        return int(outcome["deleted"])

    def _corpus_pass(self, task: str, lease: str) -> int:
        """A corpus pass over the alias (the names: what the new papers say of the others, and the reverse;
        the people: who each author is); the papers it rewrote. A pass neither queued nor leased after a
        stall was lost with a killed worker: it is sent again (it writes only what changed, so a second run
        is harmless), at most :data:`MAX_SENDS` times."""
        for _ in range(MAX_SENDS):
            result = self.celery.send_task(task, args=[self.alias, self.run_id], queue=self.settings.queue)
            deadline = time.monotonic() + self.timeout
            while time.monotonic() < deadline:
                try:
                    return int(result.get(timeout=self.stall_seconds)["updated"])
                except CeleryTimeoutError:
                    if not self.redis.llen(self.settings.queue) and not self.run.leased(lease):
                        self._check_worker()
                        break
            else:
                raise IngestError(f"the {lease} pass gave no answer in {self.timeout:.0f}s")
        raise IngestError(f"the {lease} pass was lost with its worker {MAX_SENDS} times; "
                          "run the ingest again (papers already written are kept)")

    def _write_rejects(self) -> Path:
        self.rejects_dir.mkdir(parents=True, exist_ok=True)
        stamp = datetime.now(timezone.utc).strftime("%Y%m%dt%H%M%S")
        path = self.rejects_dir / f"rejects-{stamp}-{self.run_id}.jsonl"
        with open(path, "w", encoding="utf-8") as out:
            for entry in self.run.rejects():
                out.write(json.dumps(entry, ensure_ascii=False) + "\n")
        return path


def ensure_index(settings: Settings, es: Elasticsearch, client: redis.Redis, alias: str) -> str:
    """The alias and its first index, created under a lock so two ingests cannot race."""
    with client.lock(redis_keys.create_lock(alias), timeout=60, blocking_timeout=60):
        return indices.ensure_alias(es, alias, shards=settings.shards, replicas=settings.replicas)
