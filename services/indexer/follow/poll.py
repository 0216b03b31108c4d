"""One poll of a followed source: fetch conditionally, decide, and ingest exactly that source when it changed.

Why the poll writes in its own task instead of sending batches and waiting for them: a task that waits
on other tasks holds a worker process while they queue, and with the two processes of a small pool both
polling, nobody is left to run the batches (a deadlock). A venue-year file is at most ~12,000 records,
a minute of one process at worst, so the poll normalises and writes it in-process with the ingest's own
code (:func:`~services.indexer.ingest.accept.accept` picks the records as ``paperlist ingest`` does,
:func:`~services.indexer.ingest.batch.write_batch` writes each chunk as a batch does: journaled, counted
in an ingest run of its own, the generation bumped), then refreshes so its papers are searchable when it
returns; the corpus passes and the maps follow in the background, as after any ingest.

The outcomes (:class:`PollResult`):

* ``unchanged``: a 304, or the same bytes (content hash) as last ingested; nothing else happens.
* ``ingested``: new content, written; papers the file no longer lists are pruned when the source is
  complete (the file is the whole list of its venue-years) and the drop is plausible.
* ``refused``: new content that does not parse (a truncated file, bad JSON, one bad record) or lists
  more than :data:`~services.search.records.followed.MAX_DROP` fewer records than the last ingested
  file: refused whole, never ingested half, and raised as the source's alert.
* ``failed``: no answer worth reading (timeout, TLS error, connection refused, a 4xx or 5xx): the
  consecutive failures count up and the next check backs off exponentially.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

import redis
from elasticsearch import Elasticsearch

from services.indexer.ingest.accept import Accepted, accept
from services.indexer.ingest.batch import write_batch
from services.indexer.ingest.progress import IngestRun
from services.indexer.ingest.prune import prune_missing
from services.indexer.ingest.registry import SourceRegistry
from services.indexer.sources import PaperlistsReader, SourceError
from services.search.records.followed import MAX_DROP, FollowedSource, iso, next_check, now_utc, venue_year_key
from services.search.records.prominence import VenueScale

from .fetch import Fetched, FetchFailed, fetch

log = logging.getLogger(__name__)


@dataclass
class PollResult:
    url: str
    outcome: str                 # unchanged | ingested | refused | failed
    reason: str = ""
    status: int | None = None    # the HTTP status (304, 200), when there was an answer
    records: int = 0
    indexed: int = 0
    unchanged: int = 0
    rejected: int = 0
    pruned: int = 0
    run_id: str | None = None
    venue_years: list[tuple[str, int]] = field(default_factory=list)  # written or pruned: maps to redo
    seconds: float = 0.0

    def to_json(self) -> dict:
        return asdict(self)


Fetcher = Callable[..., Fetched]


def poll(es: Elasticsearch, client: redis.Redis, alias: str, source: FollowedSource, *, batch_size: int,
         fetcher: Fetcher = fetch) -> tuple[FollowedSource, PollResult]:
    """Poll ``source`` once; the source as it is to be stored, and what happened."""
    started = time.monotonic()
    now = now_utc()
    checked = dict(checked_at=iso(now))
    try:
        fetched = fetcher(source.url, source.etag, source.last_modified)
    except FetchFailed as exc:
        failures = source.failures + 1
        log.warning("followed source %s failed (%d in a row): %s", source.url, failures, exc)
        return (source.updated(**checked, outcome="failed", failures=failures, last_error=str(exc)[:500],
                               next_check=iso(next_check(now, source.interval_s, failures))),
                _done(PollResult(source.url, "failed", str(exc)), started))
    validators = dict(etag=fetched.etag, last_modified=fetched.last_modified)
    healthy = dict(**checked, **validators, failures=0, last_error=None,
                   next_check=iso(next_check(now, source.interval_s)))
    if fetched.body is None or fetched.content_hash == source.content_hash:
        why = "not modified (304)" if fetched.body is None else "same content hash"
        return (source.updated(**healthy, outcome="unchanged"),
                _done(PollResult(source.url, "unchanged", why, fetched.status), started))
    accepted, refusal = _check(source, fetched.body)
    if refusal:
        log.warning("followed source %s refused: %s", source.url, refusal)
        # Not stored: the validators and hash stay the last ingested file's, so the next poll looks again.
        return (source.updated(**checked, outcome="refused", alert=refusal, failures=0, last_error=None,
                               next_check=healthy["next_check"]),
                _done(PollResult(source.url, "refused", refusal, fetched.status,
                                 records=accepted.read if accepted else 0), started))
    result = _ingest(es, client, alias, source, accepted, batch_size)
    result.status = fetched.status
    log.info("followed source %s ingested: %d read, %d indexed, %d unchanged, %d rejected, %d pruned", source.url,
             result.records, result.indexed, result.unchanged, result.rejected, result.pruned)
    venue_years = tuple(sorted({*source.venue_years, *(venue_year_key(c, y) for c, y in accepted.conference_years)}))
    stored = source.updated(**healthy, outcome="ingested", changed_at=iso(now), content_hash=fetched.content_hash,
                            records=accepted.read, papers=result.indexed + result.unchanged, alert=None,
                            venue_years=venue_years)
    return stored, _done(result, started)


def _check(source: FollowedSource, body: bytes) -> tuple[Accepted | None, str | None]:
    """The file's records, or why the whole file is refused: it does not parse, or it shrank implausibly."""
    try:
        read = PaperlistsReader().read_content(source.url, body)
    except SourceError as exc:
        return None, f"does not parse: {exc}"
    if read.errors:
        position, reason = read.errors[0]
        where = "the file" if position is None else f"record {position}"
        return None, f"does not parse: {len(read.errors)} problem(s), first in {where}: {reason}"[:500]
    accepted = accept(read, {})
    if source.records and accepted.read < (1 - MAX_DROP) * source.records:
        drop = 1 - accepted.read / source.records
        return accepted, (f"lists {accepted.read:,} records against {source.records:,} last ingested "
                          f"({drop:.0%} fewer; more than {MAX_DROP:.0%} is refused whole)")
    if not accepted.records:
        return accepted, "lists no paper that can be indexed"
    return accepted, None


def _ingest(es: Elasticsearch, client: redis.Redis, alias: str, source: FollowedSource, accepted: Accepted,
            batch_size: int) -> PollResult:
    """Write the accepted records in batches of ``batch_size`` as the workers' batches do, prune what a complete
    source dropped, refresh: the papers are searchable when this returns."""
    run_id = f"poll-{uuid.uuid4().hex[:8]}"
    run = IngestRun(client, run_id)
    run.start(alias, [source.url])
    run.add(read=accepted.read, rejected=len(accepted.rejects))
    if accepted.rejects:
        run.finish_batch("reading", {}, accepted.rejects)
    scales = {key: VenueScale.from_json(value) for key, value in accepted.scales.items()}
    hints = accepted.records[0][0].hints()
    for n, start in enumerate(range(0, len(accepted.records), batch_size)):
        chunk = accepted.records[start:start + batch_size]
        segments = [{"source": source.url, "origin": hints, "records": [[o.position, data] for o, data, _ in chunk]}]
        run.add(batches=1)
        write_batch(es, client, run, alias, f"b{n:05d}", segments, scales)
    result = PollResult(source.url, "ingested", run_id=run_id)
    if source.complete:
        pruned = prune_missing(es, client, alias, sorted(accepted.conference_years), accepted.ids)
        result.pruned = int(pruned["deleted"])
        run.note_venue_years((c, int(y)) for c, y in pruned.get("venue_years", ()))
    es.indices.refresh(index=alias)
    counts = run.counts()
    result.records, result.indexed, result.unchanged, result.rejected = (
        counts.read, counts.indexed, counts.unchanged, counts.rejected)
    result.venue_years = run.venue_years()
    SourceRegistry(es, alias).record({source.url: accepted.read}, run_id)
    return result


def _done(result: PollResult, started: float) -> PollResult:
    result.seconds = round(time.monotonic() - started, 3)
    return result
