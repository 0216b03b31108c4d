"""Ingest through the real Celery worker into the real Elasticsearch."""

from __future__ import annotations

import gzip
import json

import pytest

from services.indexer.ingest.registry import SourceRegistry
from services.indexer.paper.normalise import identity, origin_from_path
from services.search.engine import indices

pytestmark = pytest.mark.integration

SAMPLE_FILE = "data/sample/acl/acl2022.json.gz"


def _ids(es, alias):
    from elasticsearch import helpers

    return {h["_id"] for h in helpers.scan(es, index=alias, query={"query": {"match_all": {}}, "_source": False})}


def _expected_ids(path):
    records = json.load(gzip.open(path))
    return {identity(r, origin_from_path(str(path), i))[0] for i, r in enumerate(records)}, len(records)


def test_ingest_counts_ids_and_second_run_unchanged(ingest, es, alias):
    from services.settings import PROJECT_ROOT

    path = PROJECT_ROOT / SAMPLE_FILE
    expected, n = _expected_ids(path)

    first = ingest([path], alias)
    assert first.read == n
    assert first.indexed + first.rejected == first.read
    assert first.unchanged == 0
    assert _ids(es, alias) == expected
    assert es.count(index=alias)["count"] == len(expected)
    assert indices.current_index(es, alias).startswith(f"{alias}-v")

    second = ingest([path], alias)
    assert (second.read, second.indexed, second.unchanged) == (n, 0, n)
    assert [s.location for s in SourceRegistry(es, alias).all()] == [str(path)]


def test_bad_file_keeps_good_records_and_lists_bad_ones(ingest, es, alias, tmp_path):
    good = [{"title": f"A good paper number {i}", "author": "Ada Lovelace; Alan Turing", "id": f"g{i}",
             "status": "Poster", "track": "main"} for i in range(5)]
    bad = [
        {"author": "No Title"},                                       # no title
        {"title": 12345, "id": "x1"},                                 # wrong type
        {"title": "Year of the wrong type", "year": ["2020"]},        # wrong type
        {"title": "Author of the wrong type", "author": {"a": 1}},    # wrong type
        "not an object",
    ]
    records = good[:3] + bad + good[3:]
    text = json.dumps(records)
    # A truncated last record: an unclosed string where the file was cut.
    broken = text[:-1] + ', {"title": "cut off' + "]"
    folder = tmp_path / "mini"
    folder.mkdir()
    (folder / "mini2024.json").write_text(broken)
    (folder / "fine2023.json").write_text(json.dumps([{"title": "Another conference, fine", "id": "f1"}]))

    summary = ingest([folder], alias)
    assert summary.read == len(records) + 1 + 1   # both files, plus the cut-off record
    assert summary.indexed == 6                    # five good + the other file's one
    assert summary.rejected == len(bad) + 1
    assert summary.indexed + summary.rejected == summary.read
    lines = [json.loads(line) for line in summary.rejects_path.read_text().splitlines()]
    reasons = " | ".join(entry["reason"] for entry in lines)
    assert "title is missing" in reasons
    assert "title is a int" in reasons
    assert "year is a list" in reasons
    assert "author is a dict" in reasons
    assert "not an object" in reasons
    assert "invalid JSON" in reasons
    got = es.search(index=alias, query={"match_phrase": {"title": "good paper"}}, size=10)
    assert got["hits"]["total"]["value"] == 5
    conf = es.search(index=alias, size=0, aggs={"c": {"terms": {"field": "conference"}}})
    assert {b["key"]: b["doc_count"] for b in conf["aggregations"]["c"]["buckets"]} == {"mini": 5, "fine": 1}


def test_prune_removes_papers_gone_from_the_source(ingest, es, alias, tmp_path):
    path = tmp_path / "demo" / "demo2020.json"
    path.parent.mkdir()
    papers = [{"title": f"Paper {i} about pruning", "id": str(i)} for i in range(10)]
    path.write_text(json.dumps(papers))
    assert ingest([path], alias).indexed == 10
    other = tmp_path / "demo" / "demo2021.json"
    other.write_text(json.dumps([{"title": "Kept, another year", "id": "1"}]))
    assert ingest([other], alias).indexed == 1

    path.write_text(json.dumps(papers[:7]))
    summary = ingest([path], alias, prune=True)
    assert summary.pruned == 3
    assert summary.unchanged == 7
    assert es.count(index=alias)["count"] == 8  # 7 of 2020 + the 2021 paper, untouched


def test_missing_source_reads_nothing_and_does_not_hide_others(ingest, alias, tmp_path):
    summary = ingest([tmp_path / "nope.json"], alias)
    assert summary.read == 0
    assert any("no such file" in p for p in summary.problems)
    good = tmp_path / "ok" / "ok2022.json"
    good.parent.mkdir()
    good.write_text(json.dumps([{"title": "Still read", "id": "1"}]))
    both = ingest([tmp_path / "nope.json", good], alias)
    assert (both.read, both.indexed) == (1, 1)
    assert any("no such file" in p for p in both.problems)


def test_unknown_conference_gets_a_label(ingest, es, alias, tmp_path):
    path = tmp_path / "newconf" / "newconf2031.json.gz"
    path.parent.mkdir()
    path.write_bytes(gzip.compress(json.dumps([{"title": "From the future", "author": "X Y"}]).encode()))
    assert ingest([path], alias).indexed == 1
    doc = es.search(index=alias)["hits"]["hits"][0]["_source"]
    assert (doc["conference"], doc["conference_name"], doc["year"]) == ("newconf", "Newconf", 2031)
    assert doc["topics"]


def test_ingest_loads_at_the_long_refresh_and_ends_with_everything_searchable(
        settings, celery_app, es, redis_client, worker, alias, tmp_path):
    from services import redis_keys
    from services.indexer.ingest.dispatch import Ingest
    from services.search.engine.generation import SETTLE_MS, current_generation
    from services.search.records import schema
    from services.settings import PROJECT_ROOT

    path = PROJECT_ROOT / SAMPLE_FILE
    expected, _ = _expected_ids(path)
    seen = []

    def progress(counts, total, reading_done):
        index = indices.current_index(es, alias)
        now = es.indices.get_settings(index=index, flat_settings=True)[index]["settings"]
        seen.append(((now.get("index.refresh_interval"), now.get("index.translog.flush_threshold_age")),
                     redis_client.get(redis_keys.settle_ms(alias))))

    job = Ingest(settings, celery_app, es, redis_client, alias=alias, rejects_dir=tmp_path / "rejects")
    summary = job.execute([str(path)], progress)
    assert summary.indexed == len(expected)
    assert seen and all(shape == (schema.LOADING_REFRESH, schema.LOADING_FLUSH_AGE) for shape, _ in seen)
    assert all(int(ms) > schema.LOADING_REFRESH_S * 1000 for _, ms in seen)  # caches keep answers no longer

    index = indices.current_index(es, alias)  # back to serving, and no refresh needed to see every paper
    now = es.indices.get_settings(index=index, flat_settings=True)[index]["settings"]
    assert now["index.refresh_interval"] == schema.SERVING_REFRESH
    assert "index.translog.flush_threshold_age" not in now  # Elasticsearch's default again
    assert es.count(index=alias)["count"] == len(expected)
    assert redis_client.get(redis_keys.settle_ms(alias)) is None
    generation = current_generation(redis_client, alias)
    assert generation > 0 and redis_client.pttl(redis_keys.settling(alias)) <= SETTLE_MS  # the last bump settles briefly


def test_a_load_that_fails_still_leaves_the_index_serving(es, alias):
    from services.search.records import schema

    index = indices.ensure_alias(es, alias, shards=1, replicas=0)
    es.index(index=alias, id="p1", document={"title": "Written before the failure"})
    with pytest.raises(RuntimeError, match="boom"), indices.loading(es, alias) as names:
        assert names == [index]
        assert es.indices.get_settings(index=index)[index]["settings"]["index"]["refresh_interval"] \
            == schema.LOADING_REFRESH
        es.index(index=alias, id="p2", document={"title": "Written during the load"})
        raise RuntimeError("boom")
    assert es.indices.get_settings(index=index)[index]["settings"]["index"]["refresh_interval"] \
        == schema.SERVING_REFRESH
    assert es.count(index=alias)["count"] == 2  # refreshed on the way out
