"""Segments merged after writes that rewrote a large share of an alias (services/indexer/ingest/merge.py).

Against the real Elasticsearch and Redis: an index written in several refreshed bulks has several
segments; once the writes counted reach the share, the check starts Elasticsearch's force-merge and the
index ends in one segment per shard; a small write afterwards starts nothing. An ingest's people pass
reports the check it made.
"""

from __future__ import annotations

import time

import pytest
from elasticsearch import helpers

from conftest import SAMPLE
from services import redis_keys
from services.indexer.ingest import merge, passes
from services.indexer.ingest.dispatch import ensure_index

pytestmark = pytest.mark.integration

BULKS = 4
PER_BULK = 50


def _segments(es, alias: str) -> int:
    index = sorted(es.indices.get_alias(name=alias))[0]
    return int(es.indices.stats(index=index, metric="segments")["indices"][index]["primaries"]["segments"]["count"])


def _write(es, alias: str, start: int, count: int) -> None:
    helpers.bulk(es, ({"_index": alias, "_id": f"merge-{n}", "_source": {"paper_id": f"merge-{n}", "title": f"Paper {n}"}}
                      for n in range(start, start + count)), refresh=True)


def test_writes_of_a_large_share_start_one_merge_and_a_small_write_starts_none(settings, es, redis_client, alias):
    ensure_index(settings, es, redis_client, alias)
    es.indices.put_settings(index=alias, settings={"index.merge.policy.segments_per_tier": 50,
                                                  "index.merge.policy.floor_segment": "1kb"})  # Lucene must not merge first
    for k in range(BULKS):
        _write(es, alias, k * PER_BULK, PER_BULK)
    merge.note(redis_client, alias, BULKS * PER_BULK)
    assert _segments(es, alias) > settings.shards

    check = merge.after_writes(es, redis_client, alias)
    assert check["started"] and check["written"] == BULKS * PER_BULK == check["documents"], check
    deadline = time.monotonic() + 180
    while _segments(es, alias) > settings.shards and time.monotonic() < deadline:
        time.sleep(1)
    assert _segments(es, alias) == settings.shards
    assert int(redis_client.get(redis_keys.merge_written(alias)) or 0) == 0  # what it counted is spent

    _write(es, alias, BULKS * PER_BULK, 10)                 # 10 of 210: under the share
    merge.note(redis_client, alias, 10)
    small = merge.after_writes(es, redis_client, alias)
    assert not small["started"] and "under 25%" in small["reason"], small
    assert int(redis_client.get(redis_keys.merge_written(alias))) == 10  # still counted for the next time
    redis_client.delete(redis_keys.merge_written(alias))


def test_an_ingest_s_people_pass_reports_its_merge_check(ingest, es, redis_client, alias):
    summary = ingest([SAMPLE / "corl"], alias)
    assert summary.indexed > 100
    check = passes.state(redis_client, alias)["people"]["result"]["merge"]
    # A fresh alias: the batches and the passes wrote every paper at least once, more than the share.
    assert check["written"] >= summary.indexed and check["documents"] == summary.indexed, check
    assert check["started"] or check["reason"] in ("already one segment per shard",
                                                   "a force-merge of the index is running"), check
    redis_client.delete(redis_keys.merge_written(alias))
