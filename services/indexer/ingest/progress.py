"""Progress of an ingest run, kept in Redis so the CLI, any worker and ``status`` see it.

A batch may run twice (a worker killed after indexing, the message redelivered or
re-sent): its counts are added once, atomically with marking it done, by a Lua script.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import redis

from services import redis_keys

RUN_TTL = 7 * 24 * 3600
COUNTERS = ("read", "indexed", "unchanged", "rejected")
# The corpus passes after an ingest hold a lease in its run under these names, as a batch does.
NAMES_LEASE = "names"
PEOPLE_LEASE = "people"

# KEYS: run hash, done set, rejects list, lifetime totals over every run (redis_keys.INGEST_TOTALS,
# finished batches only, read by the web's /metrics). ARGV: batch id, n counter pairs..., then rejects.
_FINISH_BATCH = """
if redis.call('SADD', KEYS[2], ARGV[1]) == 0 then return 0 end
local n = tonumber(ARGV[2])
for i = 0, n - 1 do
  redis.call('HINCRBY', KEYS[1], ARGV[3 + 2 * i], ARGV[4 + 2 * i])
  redis.call('HINCRBY', KEYS[4], ARGV[3 + 2 * i], ARGV[4 + 2 * i])
end
for i = 3 + 2 * n, #ARGV do
  redis.call('RPUSH', KEYS[3], ARGV[i])
end
redis.call('EXPIRE', KEYS[1], %d)
redis.call('EXPIRE', KEYS[2], %d)
redis.call('EXPIRE', KEYS[3], %d)
return 1
""" % (RUN_TTL, RUN_TTL, RUN_TTL)


def reject_entry(source: str, position: int, reason: str, record: object = None) -> dict:
    """One line of the run's rejects file: where the record was, why, and its title to find it."""
    title = record.get("title") if isinstance(record, dict) else None
    return {"source": source, "position": position, "reason": reason,
            "title": title[:200] if isinstance(title, str) else None}


@dataclass(frozen=True)
class RunCounts:
    read: int = 0
    indexed: int = 0
    unchanged: int = 0
    rejected: int = 0
    batches: int = 0
    batches_done: int = 0

    @property
    def processed(self) -> int:
        return self.indexed + self.unchanged + self.rejected


class IngestRun:
    """One run's Redis keys (:mod:`services.redis_keys`): counters, done batches, rejects, leases."""

    def __init__(self, client: redis.Redis, run_id: str):
        self.redis = client
        self.run_id = run_id
        self.key = redis_keys.run(run_id)
        self._finish = client.register_script(_FINISH_BATCH)  # sent once, then run by its SHA

    def start(self, alias: str, sources: Iterable[str]) -> None:
        self.redis.hset(self.key, mapping={"alias": alias, "started": time.time(),
                                           "sources": json.dumps(list(sources)), "batches": 0})
        self.redis.expire(self.key, RUN_TTL)

    def add(self, **counts: int) -> None:
        """Counts known before any worker runs (records read, file-level rejections)."""
        pipe = self.redis.pipeline()
        for name, value in counts.items():
            pipe.hincrby(self.key, name, value)
        pipe.execute()

    def finish_batch(self, batch_id: str, counts: dict[str, int], rejects: list[dict]) -> bool:
        """Record a batch's outcome once; False when it had already been recorded."""
        pairs = [x for name, value in counts.items() if value for x in (name, value)]
        args = [batch_id, len(pairs) // 2, *pairs, *(json.dumps(r, ensure_ascii=False) for r in rejects)]
        return bool(self._finish(keys=[self.key, redis_keys.run_done(self.run_id), redis_keys.run_rejects(self.run_id),
                                         redis_keys.INGEST_TOTALS], args=args))

    def lease(self, batch_id: str, seconds: int) -> None:
        """A worker holds the batch; an expired lease on an unfinished batch means it was lost."""
        self.redis.set(redis_keys.run_lease(self.run_id, batch_id), "1", ex=seconds)

    @contextmanager
    def hold(self, batch_id: str, seconds: int) -> Iterator[None]:
        """Hold the batch's lease for the whole block, renewed in the background.

        However long a bulk write takes, the batch never looks lost (and so is never
        re-sent and run twice) while this process lives; a killed worker stops renewing.
        """
        self.lease(batch_id, seconds)
        stop = threading.Event()

        def renew() -> None:
            while not stop.wait(seconds / 3):
                try:
                    self.lease(batch_id, seconds)
                except redis.RedisError:
                    pass  # a blip: the next renewal or the finish will do

        thread = threading.Thread(target=renew, daemon=True, name=f"lease-{batch_id}")
        thread.start()
        try:
            yield
        finally:
            stop.set()
            thread.join(timeout=seconds)

    def note_failure(self, batch_id: str, reason: str) -> None:
        """A batch that failed for good in a worker; the ingest command retries or gives it up."""
        self.redis.hset(redis_keys.run_failed(self.run_id), batch_id, reason[:500])
        self.redis.expire(redis_keys.run_failed(self.run_id), RUN_TTL)

    def failed_batches(self) -> dict[str, str]:
        return {k.decode(): v.decode() for k, v in self.redis.hgetall(redis_keys.run_failed(self.run_id)).items()}

    def clear_failure(self, batch_id: str) -> None:
        self.redis.hdel(redis_keys.run_failed(self.run_id), batch_id)

    def leased(self, batch_id: str) -> bool:
        return bool(self.redis.exists(redis_keys.run_lease(self.run_id, batch_id)))

    def note_venue_years(self, venue_years: Iterable[tuple[str, int]]) -> None:
        """Venue-years a batch or the prune changed: the ingest asks for their maps when it ends."""
        members = [f"{conference}:{year}" for conference, year in venue_years]
        if members:
            key = redis_keys.run_venue_years(self.run_id)
            self.redis.sadd(key, *members)
            self.redis.expire(key, RUN_TTL)

    def venue_years(self) -> list[tuple[str, int]]:
        found = (m.decode().rpartition(":") for m in self.redis.smembers(redis_keys.run_venue_years(self.run_id)))
        return sorted((conference, int(year)) for conference, _, year in found)

    def done_batches(self) -> set[str]:
        return {b.decode() for b in self.redis.smembers(redis_keys.run_done(self.run_id))}

    def counts(self) -> RunCounts:
        raw = {k.decode(): v.decode() for k, v in self.redis.hgetall(self.key).items()}
        return RunCounts(
            **{name: int(raw.get(name, 0)) for name in COUNTERS},
            batches=int(raw.get("batches", 0)),
            batches_done=int(self.redis.scard(redis_keys.run_done(self.run_id))),
        )

    def rejects(self) -> Iterable[dict]:
        key, start = redis_keys.run_rejects(self.run_id), 0
        while True:
            chunk = self.redis.lrange(key, start, start + 999)
            if not chunk:
                return
            yield from (json.loads(item) for item in chunk)
            start += len(chunk)
