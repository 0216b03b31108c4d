"""When a merge is started after writes (services/indexer/ingest/merge.py), on fakes of the few calls it makes."""

from __future__ import annotations

import elastic_transport
import pytest

from services import redis_keys
from services.indexer import tasks
from services.indexer.ingest import merge

INDEX = "papers-v12-x"


class _Redis:
    def __init__(self, written: int = 0):
        self.values = {redis_keys.merge_written("papers"): written}

    def incrby(self, key, n):
        self.values[key] = self.values.get(key, 0) + n

    def decrby(self, key, n):
        self.values[key] = self.values.get(key, 0) - n

    def get(self, key):
        value = self.values.get(key)
        return None if value is None else str(value).encode()

    def delete(self, key):
        self.values.pop(key, None)


class _Indices:
    def __init__(self, docs: int, segments: int, shards: int):
        self.docs, self.segments, self.shards, self.merges = docs, segments, shards, []

    def get_alias(self, name):
        return {INDEX: {"aliases": {name: {}}}}

    def stats(self, index, metric):
        return {"indices": {index: {"primaries": {"docs": {"count": self.docs}, "segments": {"count": self.segments}}}}}

    def get_settings(self, index, name):
        return {index: {"settings": {"index": {"number_of_shards": str(self.shards)}}}}

    def forcemerge(self, **kwargs):
        self.merges.append(kwargs)
        return {"task": "node:1"}


class _Tasks:
    def __init__(self, running: list[str]):
        self.running = running

    def list(self, actions, detailed):
        assert actions.startswith(merge.FORCEMERGE_ACTION)
        return {"nodes": {"n": {"tasks": {f"n:{k}": {"description": d} for k, d in enumerate(self.running)}}}}


class _Es:
    def __init__(self, docs=1000, segments=20, shards=1, running=()):
        self.indices, self.tasks = _Indices(docs, segments, shards), _Tasks(list(running))


def test_writes_of_a_quarter_of_the_index_start_one_merge_to_one_segment_per_shard():
    es, client = _Es(docs=1000, segments=20), _Redis()
    merge.note(client, "papers", 300)
    check = merge.after_writes(es, client, "papers")
    assert check["started"] and check["written"] == 300 and check["segments"] == 20
    assert es.indices.merges == [{"index": INDEX, "max_num_segments": 1, "wait_for_completion": False}]
    assert client.values[redis_keys.merge_written("papers")] == 0


def test_a_merge_of_an_index_whose_name_begins_alike_is_another_index():
    es = _Es(running=[f"Force-merge indices [{INDEX}0], maxSegments[1], onlyExpungeDeletes[false], flush[true]"])
    assert not merge._merging(es, INDEX) and merge._merging(es, f"{INDEX}0")


def test_fewer_writes_start_nothing_and_stay_counted():
    es, client = _Es(docs=1000), _Redis(written=249)
    check = merge.after_writes(es, client, "papers")
    assert not check["started"] and "under 25%" in check["reason"] and not es.indices.merges
    assert client.values[redis_keys.merge_written("papers")] == 249


@pytest.mark.parametrize("segments, running, reason", [
    (2, (), "already one segment per shard"),                       # two shards, one segment each
    (20, (f"Force-merge indices [other, {INDEX}], maxSegments[1], onlyExpungeDeletes[false], flush[true]",),
     "a force-merge of the index is running"),
])
def test_no_merge_on_an_index_in_one_segment_or_already_merging(segments, running, reason):
    es, client = _Es(docs=1000, segments=segments, shards=2, running=running), _Redis(written=1000)
    check = merge.after_writes(es, client, "papers")
    assert not check["started"] and check["reason"] == reason and not es.indices.merges


def test_a_failed_check_costs_only_the_merge_never_the_pass():
    class Down:
        class indices:
            @staticmethod
            def get_alias(name):
                raise elastic_transport.ConnectionError("refused")

    check = tasks._merge_check(Down(), _Redis(written=10_000), "papers")
    assert check == {"started": False, "reason": "the check failed: ConnectionError"}
