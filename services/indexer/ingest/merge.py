"""Merge an alias's segments after writes that rewrote a large share of it, so no crowd meets ~20 segments.

Why: a bulk load leaves an index in ~20 segments, and the people pass's first run rewrites every paper
once more (a partial update is a whole new document); every search visits every segment, and one
segment measured 51 -> 38 ms p50 on the full corpus (:func:`services.search.engine.indices.merge_segments`).
Only a rebuild merged its index, so an operator's first ingest into an empty alias served unmerged
(issue 52). Lucene's own merge policy keeps a steadily growing index in shape; what it leaves behind is
a write of a large share at once, and that is what this notes and answers:

* every write counts its documents against the alias (:func:`note`: a batch's papers, a pass's updates),
  in one Redis counter;
* after the people pass (the last write of an ingest), :func:`after_writes` compares the count with the
  index's documents, and at :data:`SHARE` or more starts a force-merge to one segment per shard and
  subtracts what it counted (writes noted meanwhile stay counted for the next time).

The merge is Elasticsearch's own task, started without waiting: it runs on the force-merge thread pool
(one thread per node by default, the throttle), searches go on meanwhile, and no Celery worker slot is
held for its minutes. A merge already running on the index is not started twice (the tasks API says).
A rebuild merges its new index itself and clears the count (:func:`clear`).
"""

from __future__ import annotations

import logging
import warnings
from dataclasses import asdict, dataclass

import redis
from elasticsearch import Elasticsearch
from elasticsearch.exceptions import GeneralAvailabilityWarning

from services import redis_keys

log = logging.getLogger(__name__)

SHARE = 0.25  # writes since the last merge, as a share of the index's documents, that start one
FORCEMERGE_ACTION = "indices:admin/forcemerge"


def note(client: redis.Redis, alias: str, documents: int) -> None:
    """Count ``documents`` written to ``alias`` (new, changed or partially updated papers)."""
    if documents > 0:
        client.incrby(redis_keys.merge_written(alias), documents)


def clear(client: redis.Redis, alias: str) -> None:
    """Forget the count: the alias's index was just merged or replaced (a rebuild)."""
    client.delete(redis_keys.merge_written(alias))


@dataclass(frozen=True)
class MergeCheck:
    """What :func:`after_writes` saw and did."""

    written: int          # documents written since the last merge
    documents: int        # the index's documents
    segments: int         # its primaries' segments
    started: bool         # a force-merge was started
    reason: str


def _merging(es: Elasticsearch, index: str) -> bool:
    with warnings.catch_warnings():  # the tasks API is "technical preview" to the client
        warnings.simplefilter("ignore", GeneralAvailabilityWarning)
        running = es.tasks.list(actions=f"{FORCEMERGE_ACTION}*", detailed=True)
    # "Force-merge indices [a, b], maxSegments[1], ...": the names between the first brackets
    named = (str(task.get("description", "")).partition("[")[2].partition("]")[0].split(", ")
             for node in running.get("nodes", {}).values() for task in node.get("tasks", {}).values())
    return any(index in names for names in named)


def after_writes(es: Elasticsearch, client: redis.Redis, alias: str, share: float = SHARE) -> dict:
    """Start a force-merge of ``alias``'s index when the writes counted since the last reach ``share`` of it."""
    key = redis_keys.merge_written(alias)
    written = int(client.get(key) or 0)
    index = sorted(es.indices.get_alias(name=alias))[0]
    stats = es.indices.stats(index=index, metric="docs,segments")["indices"][index]["primaries"]
    documents, segments = int(stats["docs"]["count"]), int(stats["segments"]["count"])
    shards = int(es.indices.get_settings(index=index, name="index.number_of_shards")[index]["settings"]
                 ["index"]["number_of_shards"])

    def check(started: bool, reason: str) -> dict:
        return asdict(MergeCheck(written, documents, segments, started, reason))

    if written < share * max(documents, 1):
        return check(False, f"{written:,} written since the last merge, under {share:.0%} of {documents:,}")
    if segments <= shards:
        client.decrby(key, written)
        return check(False, "already one segment per shard")
    if _merging(es, index):
        return check(False, "a force-merge of the index is running")
    es.indices.forcemerge(index=index, max_num_segments=1, wait_for_completion=False)
    client.decrby(key, written)
    log.info("merge: %s (%s) has %d segments after %d writes of %d documents: force-merge started",
             alias, index, segments, written, documents)
    return check(True, f"{written:,} written since the last merge, {written / max(documents, 1):.0%} of the index")
