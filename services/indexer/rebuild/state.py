"""State of the current or last rebuild of an alias, and its lock, kept in Redis.

Shared by the rebuild (which writes it), the request and the status readers.
"""

from __future__ import annotations

import threading
import time

import redis

from services import redis_keys

BEATS_PER_TTL = 6  # the heartbeat renews the lock this many times per TTL (settings.reindex_lock_ttl)


class ReindexError(RuntimeError):
    """The rebuild cannot start or was abandoned; the alias is untouched."""


class ReindexState:
    """Progress of the current or last rebuild of an alias, in one Redis hash."""

    def __init__(self, client: redis.Redis, alias: str):
        self.redis = client
        self.key = redis_keys.reindex(alias)
        self.lock_key = redis_keys.reindex_lock(alias)
        self.building_key = redis_keys.reindex_building(alias)
        self.retired_key = redis_keys.reindex_retired(alias)

    def load(self) -> dict:
        # One transaction: read apart, a run that saved "done" and released its lock between
        # the two reads would look abandoned for a moment.
        pipe = self.redis.pipeline(transaction=True)
        pipe.hgetall(self.key)
        pipe.exists(self.lock_key)
        stored, locked = pipe.execute()
        raw = {k.decode(): v.decode() for k, v in stored.items()}
        for name in ("copied", "total", "replayed"):
            if name in raw:
                raw[name] = int(raw[name])
        if raw and raw.get("phase") not in ("done", "failed", "refused", "rolled back") \
                and not locked:
            raw["message"] = ("abandoned: no worker took the request up in time; run `paperlist reindex` again"
                              if raw.get("phase") == "queued" else
                              "abandoned: the worker stopped (lock expired); run `paperlist reindex` again")
            raw["phase"] = "abandoned"
        return raw

    def save(self, **fields: object) -> None:
        fields["updated"] = time.time()
        self.redis.hset(self.key, mapping={k: str(v) for k, v in fields.items()})

    def reset(self, run_id: str, **fields: object) -> None:
        pipe = self.redis.pipeline()
        pipe.delete(self.key)
        pipe.hset(self.key, mapping={"run_id": run_id, "started": time.time(), "updated": time.time(),
                                     **{k: str(v) for k, v in fields.items()}})
        pipe.execute()

    def locked(self) -> bool:
        return bool(self.redis.exists(self.lock_key))


class CopyProgress:
    """Papers copied by every bulk stream of a rebuild, saved to its state as they land."""

    def __init__(self, state: ReindexState):
        self.state = state
        self.copied = 0
        self.stopped = False
        self._lock = threading.Lock()

    def add(self, n: int) -> None:
        if self.stopped:
            raise ReindexError("another copy stream failed")
        with self._lock:
            self.copied += n
            copied = self.copied
        self.state.save(copied=copied)


class Heartbeat:
    """Keeps the lock alive while the rebuild runs; stops when the process dies."""

    def __init__(self, lock, ttl: float):
        self.lock = lock
        self.every = ttl / BEATS_PER_TTL
        self.stopped = threading.Event()
        self.lost = False
        self.thread = threading.Thread(target=self._beat, daemon=True, name="reindex-heartbeat")

    def _beat(self) -> None:
        while not self.stopped.wait(self.every):
            try:
                if not self.lock.reacquire():
                    self.lost = True
            except Exception:  # noqa: BLE001 - a Redis blip must not kill the thread
                self.lost = True

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stopped.set()
        self.thread.join(timeout=self.every)


def take_lock(lock, run_id: str) -> bool:
    """Take over the lock our request holds (token = run id), or acquire a free one."""
    lock.local.token = run_id.encode()
    try:
        if lock.reacquire():
            return True
    except redis.exceptions.LockError:
        pass  # not ours (expired, or another run's)
    return lock.acquire(token=run_id)
