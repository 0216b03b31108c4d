"""The corpus passes after a write, in the background: what each must do next, and how far it is.

Why in the background: an ingest's papers are searchable once written and refreshed; the corpus passes
(the names others give papers, who each author is) refine them over the whole alias and took ~150 s of
a one-paper ingest into the full corpus. So a write only *asks* for them: the batch notes the ids it
wrote (:func:`note_written`), a prune asks for both passes over the whole alias (deleted papers leave no
text to read), and the ingest or the poll sends the pass tasks and answers. The tasks coalesce: a pass takes
every id noted so far under a lock, and one asked for while another runs waits for it and then takes
what came meanwhile, so ten polls in a minute cost one or two passes, not ten. The state of each pass
(queued, running, done or failed, when, how much) is kept in a Redis hash that ``paperlist status``
and the admin API read.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

import redis
from celery import Celery, chain

from services import redis_keys, task_names

NAMES = "names"
PEOPLE = "people"
PASSES = {NAMES: task_names.NAMES, PEOPLE: task_names.PEOPLE}
LOCK_TTL = 1900  # the pass tasks' time limit: a killed worker's lock lapses after it
RETRY_S = 5      # a pass asked for while one runs looks again this often


class PassBusy(RuntimeError):
    """Another pass of the same kind runs over the alias: this one waits for it (the task retries)."""


def note_written(client: redis.Redis, alias: str, ids: Iterable[str], names: Iterable[str] = tuple(PASSES)) -> None:
    """Papers written (added or changed): the next names pass reads what they say and what is said of them;
    the next people pass gets them too (it runs whole today: the hook of an incremental people pass)."""
    ids = list(ids)
    if ids:
        pipe = client.pipeline()
        for name in names:
            pipe.sadd(redis_keys.pass_pending(alias, name), *ids)
        pipe.execute()


def want_whole(client: redis.Redis, alias: str, name: str = NAMES) -> None:
    """Ask for a pass over the whole alias (deleted papers, or a pass with no incremental form)."""
    client.set(redis_keys.pass_wanted(alias, name), "1")


def want_all(client: redis.Redis, alias: str) -> None:
    """Both passes over the whole alias: after deletions (a prune: deleted papers leave no text to read), or on demand."""
    for name in PASSES:
        want_whole(client, alias, name)


def request(celery: Celery, client: redis.Redis, alias: str, queue: str, run_id: str | None = None) -> dict[str, str]:
    """Send the names pass and, after it, the people pass (always over the whole alias); their task ids.

    One after the other, as a Celery chain: each pass holds a worker slot for minutes on the full corpus,
    and two at once would hold both of a default worker's, so the next ingest's batch waited for them
    (a one-paper ingest took 303 s behind them, against 7 s with a slot free). A names pass that fails
    ends the chain; the people pass then runs after the next write, which asks again.
    """
    for name in PASSES:
        mark(client, alias, name, state="queued", queued_at=time.time())
    steps = [celery.signature(task, args=[alias, run_id], queue=queue, immutable=True) for task in PASSES.values()]
    last = chain(*steps).apply_async()
    ids = [last.id]
    while len(ids) < len(steps):
        last = last.parent
        ids.append(last.id)
    return dict(zip(PASSES, reversed(ids)))


def take(client: redis.Redis, alias: str, name: str = NAMES) -> tuple[set[str], bool]:
    """The ids noted for pass ``name`` since its last run, and whether a whole pass is wanted; both cleared at once."""
    pipe = client.pipeline(transaction=True)
    pipe.smembers(redis_keys.pass_pending(alias, name))
    pipe.delete(redis_keys.pass_pending(alias, name))
    pipe.getdel(redis_keys.pass_wanted(alias, name))
    ids, _, whole = pipe.execute()
    return {i.decode() for i in ids}, bool(whole)


def give_back(client: redis.Redis, alias: str, name: str, ids: set[str], whole: bool) -> None:
    """A pass that failed returns its work, so the next one does it."""
    note_written(client, alias, ids, (name,))
    if whole:
        want_whole(client, alias, name)


@contextmanager
def running(client: redis.Redis, alias: str, name: str) -> Iterator[None]:
    """Hold the pass's lock while it runs (or raise :class:`PassBusy`), its state marked as it goes."""
    lock = client.lock(redis_keys.pass_lock(alias, name), timeout=LOCK_TTL)
    if not lock.acquire(blocking=False):
        raise PassBusy(f"a {name} pass over {alias} is running")
    mark(client, alias, name, state="running", started_at=time.time(), error="")
    try:
        yield
    except Exception as exc:
        mark(client, alias, name, state="failed", finished_at=time.time(), error=f"{exc.__class__.__name__}: {exc}"[:300])
        raise
    finally:
        try:
            lock.release()
        except redis.exceptions.LockError:
            pass  # lapsed: the pass outlived its TTL


def mark(client: redis.Redis, alias: str, name: str, **fields: object) -> None:
    client.hset(redis_keys.passes(alias), mapping={f"{name}.{k}": json.dumps(v) for k, v in fields.items()})


def finished(client: redis.Redis, alias: str, name: str, result: dict) -> None:
    mark(client, alias, name, state="done", finished_at=time.time(), result=result)


def state(client: redis.Redis, alias: str) -> dict[str, dict]:
    """Each pass's state: ``{"names": {"state": "done", "finished_at": ..., "result": {...}}, ...}``, with how
    many written papers wait for its next run."""
    raw = client.hgetall(redis_keys.passes(alias))
    out: dict[str, dict] = {name: {} for name in PASSES}
    for key, value in raw.items():
        name, _, field = key.decode().partition(".")
        out.setdefault(name, {})[field] = json.loads(value)
    for name in PASSES:
        out[name]["pending"] = int(client.scard(redis_keys.pass_pending(alias, name)))
    return out
