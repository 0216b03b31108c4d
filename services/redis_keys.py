"""Every Redis key and key prefix the services use, named in this one module.

Why one module: the web, the indexer and the search layer share one Redis (with Celery's
broker), so a key is a contract between processes: the indexer bumps the generation the
web's cache reads, the web's admin API reads the reindex state the worker writes. Defined
here, a rename or a new key is one edit and two keys cannot collide by accident.

Eviction (``maxmemory-policy volatile-lru``, deploy/redis/redis.conf) removes only keys
with a TTL: the cache's entries have one; locks, journals, runs and generations do not
(or carry their own short TTL), so they are never evicted.
"""

from __future__ import annotations

PREFIX = "paperlist"

# -- the index generation (services.search.engine.generation) ---------------------------------------


def generation(alias: str) -> str:
    """A counter bumped by every change to the searchable data of ``alias``."""
    return f"{PREFIX}:generation:{alias}"


def settling(alias: str) -> str:
    """Set for a moment after a bump, until the written documents are searchable."""
    return f"{PREFIX}:generation:{alias}:settling"


def bumped(alias: str) -> str:
    """Set at every bump for :data:`~services.search.engine.generation.RECENT_MS`: a write was that recent."""
    return f"{PREFIX}:generation:{alias}:bumped"


def generation_ended(alias: str, generation_: int) -> str:
    """Set when ``generation_`` ended, for :data:`~services.search.engine.generation.RECENT_MS`: how long ago."""
    return f"{PREFIX}:generation:{alias}:ended:{generation_}"


def settle_ms(alias: str) -> str:
    """While an ingest loads ``alias`` at its long refresh interval: how long a bump settles (ms)."""
    return f"{PREFIX}:generation:{alias}:settle-ms"


# -- the web's result cache (services.web.cache) ---------------------------------------------


def cache_entry(alias: str, generation_: int, digest: str) -> str:
    """A cached answer of one generation."""
    return f"{PREFIX}:cache:{alias}:{generation_}:{digest}"


def cache_stale(alias: str, digest: str) -> str:
    """The last answer of a request in any generation, served while Elasticsearch is down."""
    return f"{PREFIX}:cache:{alias}:stale:{digest}"


def cache_lock(entry: str) -> str:
    """The single-flight lock of a cache entry (its first miss asks Elasticsearch)."""
    return f"{entry}:lock"


# -- the web's rate limits (flask-limiter's keys start with this) ----------------------------

RATE_LIMIT_PREFIX = f"{PREFIX}-rl"


# -- the indexer: ingest runs, the write journal, reindex state -------------------------------

INGEST_TOTALS = f"{PREFIX}:ingest:totals"  # lifetime document counts per outcome (/metrics shows them)


def run(run_id: str) -> str:
    """An ingest run's counters (a hash); the run's other keys below hang off it."""
    return f"{PREFIX}:run:{run_id}"


def run_done(run_id: str) -> str:
    """The batches of a run whose outcome is recorded (a set: a batch counts once)."""
    return f"{run(run_id)}:done"


def run_rejects(run_id: str) -> str:
    return f"{run(run_id)}:rejects"


def run_failed(run_id: str) -> str:
    """Batches that failed for good in a worker, with the reason."""
    return f"{run(run_id)}:failed"


def run_venue_years(run_id: str) -> str:
    """The venue-years a run wrote to or pruned from (``conf:year``): their maps are rebuilt after it."""
    return f"{run(run_id)}:venue-years"


def run_lease(run_id: str, batch_id: str) -> str:
    """Alive while a worker holds the batch (``*`` as ``batch_id``: the pattern of every lease)."""
    return f"{run(run_id)}:lease:{batch_id}"


def create_lock(alias: str) -> str:
    """Held while the first ingest into ``alias`` creates its index."""
    return f"{PREFIX}:lock:create:{alias}"


def journal(alias: str) -> str:
    """Ids written while a rebuild of ``alias`` runs (replayed into the new index)."""
    return f"{PREFIX}:journal:{alias}"


def writes_paused(alias: str) -> str:
    return f"{PREFIX}:writes-paused:{alias}"


def writers(alias: str) -> str:
    return f"{PREFIX}:writers:{alias}"


def reindex(alias: str) -> str:
    """A rebuild's progress (phase, counts, ETA)."""
    return f"{PREFIX}:reindex:{alias}"


def reindex_lock(alias: str) -> str:
    """Refuses a second rebuild of the same alias."""
    return f"{PREFIX}:lock:reindex:{alias}"


def reindex_building(alias: str) -> str:
    return f"{PREFIX}:reindex:{alias}:building"


def reindex_retired(alias: str) -> str:
    return f"{PREFIX}:reindex:{alias}:retired"


# -- the corpus passes after a write (services.indexer.ingest.passes) ------------------------------


def passes(alias: str) -> str:
    """The state of the corpus passes over ``alias`` (a hash: each pass's state, times and counts)."""
    return f"{PREFIX}:passes:{alias}"


def pass_pending(alias: str, name: str) -> str:
    """Ids of papers written since the last pass of ``name`` took them (a set): the next pass's work."""
    return f"{PREFIX}:passes:{alias}:{name}-pending"


def pass_wanted(alias: str, name: str) -> str:
    """Set when a pass of ``name`` over the whole alias is wanted (a prune deleted papers; the people pass)."""
    return f"{PREFIX}:passes:{alias}:{name}-wanted"


def pass_runs(alias: str, name: str) -> str:
    """A counter of the passes of ``name`` over ``alias`` in any worker process: a process's copy of the papers
    (services.indexer.corpus.names.index_pass) is current only when no pass ran elsewhere since its own."""
    return f"{PREFIX}:passes:{alias}:{name}-runs"


def pass_lock(alias: str, name: str) -> str:
    """Held while a pass of ``name`` runs over ``alias``: one at a time, the others wait for it."""
    return f"{PREFIX}:lock:pass:{name}:{alias}"


def merge_written(alias: str) -> str:
    """Documents written to ``alias`` since its index was last merged (services.indexer.ingest.merge)."""
    return f"{PREFIX}:merge:{alias}:written"


# -- followed sources (services.indexer.follow) ----------------------------------------------------

FOLLOW_TOTALS = f"{PREFIX}:follow:totals"  # polls per outcome over every source (/metrics shows them)


def follow_failures(alias: str) -> str:
    """Consecutive failures per followed source URL (a hash; /metrics reads it without Elasticsearch)."""
    return f"{PREFIX}:follow:{alias}:failures"


def follow_errors(alias: str) -> str:
    """The last error per followed source URL (a hash)."""
    return f"{PREFIX}:follow:{alias}:errors"


def follow_claim(alias: str, source_id: str) -> str:
    """Claimed by the scheduler's tick that sent the source's poll: a second tick (a second scheduler) sends none."""
    return f"{PREFIX}:follow:{alias}:claim:{source_id}"


def follow_lock(alias: str) -> str:
    """Held while a poll of ``alias`` runs: one poll at a time, so the pool's other processes stay free for ingests."""
    return f"{PREFIX}:lock:follow:{alias}"


REDBEAT_PREFIX = f"{PREFIX}:beat:"  # celery-redbeat's schedule and its lock (the one scheduler)
