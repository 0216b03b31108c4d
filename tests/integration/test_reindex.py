"""Zero-downtime rebuilds through the real worker, under search and ingest load, with crashes."""

from __future__ import annotations

import json
import threading
import time
import uuid
from pathlib import Path

import pytest
from elasticsearch import helpers

from conftest import SAMPLE, drop_alias, run_ingest
from services.indexer.rebuild.control import request_reindex, rollback
from services.indexer.rebuild.runner import Rebuild
from services.indexer.rebuild.state import ReindexError, ReindexState
from services.search.engine import indices
from services.search.query.request import SearchRequest
from services.search.service import PaperSearch

pytestmark = [pytest.mark.integration, pytest.mark.slow]


@pytest.fixture(scope="module")
def big_alias(settings, es, sample_alias):
    """The shared sample (~11k papers, both corpus passes done) copied to an alias of its own, once for the
    module: each test rebuilds it from whatever it holds. Copied document by document (scan and bulk, as a
    rebuild copies), not ingested again: ingesting the same papers cost the tier ~90 s more. A rebuild at
    the full corpus's scale, under load, is bench/pipeline/reindex.py's."""
    alias = f"test-big-{uuid.uuid4().hex[:8]}"
    target = indices.ensure_alias(es, alias, shards=settings.shards, replicas=settings.replicas)
    hits = helpers.scan(es, index=sample_alias, size=500, scroll="5m")  # (helpers.reindex asks for data streams)
    copied, _ = helpers.bulk(es, ({"_index": target, "_id": hit["_id"], "_source": hit["_source"]} for hit in hits),
                             chunk_size=500)
    es.indices.refresh(index=alias)
    assert copied >= 10_000 and es.count(index=alias)["count"] == es.count(index=sample_alias)["count"]
    yield alias
    drop_alias(es, alias)


def _new_papers(folder: Path, n: int, tag: str) -> Path:
    path = folder / "fresh" / "fresh2030.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps([{"id": f"{tag}-{i}", "title": f"Fresh paper {tag} number {i} on rebuild safety",
                                 "author": "Grace Hopper; Edsger Dijkstra", "status": "Poster", "track": "main",
                                 "abstract": "Written while the index was being rebuilt."} for i in range(n)]))
    return path


class SearchLoad:
    """Threads searching continuously; every anomaly is recorded, none may happen."""

    def __init__(self, app, floor: int, threads: int = 3):
        self.app = app
        self.floor = floor
        self.stop = threading.Event()
        self.errors: list[str] = []
        self.requests = 0
        self.latencies: list[float] = []
        self.threads = [threading.Thread(target=self._run, args=(i,), daemon=True) for i in range(threads)]

    def _run(self, n: int) -> None:
        client = self.app.test_client()
        queries = ["", "learning", "robot", "graph neural network"]
        i = n
        while not self.stop.is_set():
            q = queries[i % len(queries)]
            i += 1
            started = time.perf_counter()
            resp = client.get("/api/v1/search", query_string={"q": q, "page_size": 5})
            self.latencies.append(time.perf_counter() - started)
            self.requests += 1
            if resp.status_code != 200:
                self.errors.append(f"{q!r}: HTTP {resp.status_code} {resp.get_data(as_text=True)[:200]}")
                continue
            data = resp.get_json()
            if not data["hits"]:
                self.errors.append(f"{q!r}: empty result")
            elif q == "" and data["total"] < self.floor:
                self.errors.append(f"partial result: {data['total']} < {self.floor}")

    def __enter__(self):
        for t in self.threads:
            t.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        for t in self.threads:
            t.join(timeout=30)


# What these tests assert is that a rebuild never leaves a search without its index or its papers,
# whatever the machine's speed: on a loaded two-core box a broad search under the rebuild's load ran
# past the 2 s budget and answered 503 (by design: overload is answered fast), which says nothing of
# the rebuild. The budget's own tests are the strict fault runs' (PAPERLIST_FAULTS=1).
SEARCH_BUDGET = "30"


def _web(settings, alias):
    from services.settings import load_settings
    from services.web.app import create_app

    return create_app(load_settings(ES_URL=settings.es_url, REDIS_URL=settings.redis_url, PAPERLIST_INDEX=alias,
                                    PAPERLIST_QUEUE=settings.queue, PAPERLIST_SEARCH_BUDGET=SEARCH_BUDGET))


def _wait_for(state: ReindexState, run_id: str, phases=("done", "failed", "abandoned"), timeout=600) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        current = state.load()
        if current.get("run_id") == run_id and current.get("phase") in phases:
            return current
        time.sleep(0.5)
    raise AssertionError(f"reindex {run_id} did not reach {phases}: {state.load()}")


def _browse_total(app) -> int:
    return app.test_client().get("/api/v1/search?page_size=1").get_json()["total"]


def test_reindex_under_search_and_ingest_load(settings, celery_app, es, redis_client, big_alias, tmp_path):
    app = _web(settings, big_alias)
    before_index = indices.current_index(es, big_alias)
    before = es.count(index=big_alias)["count"]
    floor = _browse_total(app)
    state = ReindexState(redis_client, big_alias)
    fresh = _new_papers(tmp_path, 300, uuid.uuid4().hex[:6])
    with SearchLoad(app, floor) as load:
        run_id, _ = request_reindex(redis_client, celery_app, settings, big_alias)
        _wait_for(state, run_id, phases=("copying",), timeout=120)
        # Another client ingests new papers while the copy runs.
        summary = run_ingest(settings, celery_app, es, redis_client, [fresh], big_alias, rejects_dir=tmp_path)
        assert summary.indexed == 300
        assert state.load()["phase"] not in ("done",), "the ingest must land during the rebuild"
        final = _wait_for(state, run_id)
        time.sleep(1)
    assert final["phase"] == "done", final
    assert not load.errors, load.errors[:5]
    assert load.requests > 20
    after_index = indices.current_index(es, big_alias)
    assert after_index != before_index and after_index.startswith(f"{big_alias}-v")
    es.indices.refresh(index=big_alias)
    assert es.count(index=big_alias)["count"] == before + 300
    found = app.test_client().get("/api/v1/search", query_string={"q": "fresh rebuild safety",
                                                                    "page_size": 100}).get_json()
    assert found["total"] == 300
    # The previous index is kept for rollback, with the replicas/refresh of a serving index.
    assert before_index in [i.name for i in indices.list_indices(es, big_alias)]
    settings_now = es.indices.get_settings(index=after_index)[after_index]["settings"]["index"]
    assert settings_now["refresh_interval"] == "1s"
    print(f"searches during the rebuild: {load.requests}, p50 {sorted(load.latencies)[len(load.latencies)//2]*1000:.0f} ms")

    # Rollback returns to the previous index in one swap and keeps the papers written since.
    old, new = rollback(settings, es, redis_client, big_alias)
    assert (old, new) == (after_index, before_index)
    assert indices.current_index(es, big_alias) == before_index
    assert app.test_client().get("/api/v1/search", query_string={"q": "fresh rebuild safety"}).get_json()["total"] == 300


def test_worker_killed_mid_rebuild_then_second_reindex_completes(settings, celery_app, es, redis_client, worker,
                                                                  big_alias):
    app = _web(settings, big_alias)
    before_index = indices.current_index(es, big_alias)
    floor = _browse_total(app)
    state = ReindexState(redis_client, big_alias)
    with SearchLoad(app, floor) as load:
        run_id, _ = request_reindex(redis_client, celery_app, settings, big_alias)
        deadline = time.monotonic() + 120
        while not state.load().get("copied") and time.monotonic() < deadline:
            time.sleep(0.2)
        half_built = state.load()["target_index"]
        worker.kill()
        assert indices.current_index(es, big_alias) == before_index
        worker.start()
        with pytest.raises(ReindexError, match="already running"):
            request_reindex(redis_client, celery_app, settings, big_alias)
        abandoned = _wait_for(state, run_id, phases=("abandoned",), timeout=120)  # the lock's TTL lapses
        assert "abandoned" in abandoned["message"]
        assert indices.current_index(es, big_alias) == before_index
        second, _ = request_reindex(redis_client, celery_app, settings, big_alias)
        final = _wait_for(state, second)
    assert final["phase"] == "done", final
    assert not load.errors, load.errors[:5]
    names = [i.name for i in indices.list_indices(es, big_alias)]
    assert half_built not in names            # the half-built index was cleaned up
    assert indices.current_index(es, big_alias) not in (before_index, half_built)


def test_mapping_change_goes_live_through_a_rebuild(settings, es, redis_client, sample_alias_copy, monkeypatch):
    """Bump the schema version and add a field: the rebuild creates a v<new> index with it."""
    from services.search.records import schema

    mappings = json.loads(json.dumps(schema.MAPPINGS))
    mappings["properties"]["experimental_note"] = {"type": "keyword"}
    monkeypatch.setattr(schema, "SCHEMA_VERSION", schema.SCHEMA_VERSION + 1)
    monkeypatch.setattr(schema, "MAPPINGS", mappings)
    outcome = Rebuild(settings, es, redis_client, sample_alias_copy, uuid.uuid4().hex[:12]).run()
    assert f"-v{schema.SCHEMA_VERSION}-" in outcome.new
    assert indices.current_index(es, sample_alias_copy) == outcome.new
    live = es.indices.get_mapping(index=sample_alias_copy)[outcome.new]["mappings"]["properties"]
    assert "experimental_note" in live
    # Force-merged before it went live: one segment per shard (nothing was written since).
    shards = es.indices.segments(index=outcome.new)["indices"][outcome.new]["shards"]
    assert [len(copy["segments"]) for shard in shards.values() for copy in shard] == [1] * settings.shards
    assert float(ReindexState(redis_client, sample_alias_copy).load()["merge_seconds"]) >= 0
    results = PaperSearch(es, sample_alias_copy).search(SearchRequest(q="learning"))
    assert results.total > 0


@pytest.fixture
def sample_alias_copy(settings, celery_app, es, redis_client, worker, tmp_path):
    alias = f"test-small-{uuid.uuid4().hex[:8]}"
    run_ingest(settings, celery_app, es, redis_client, [SAMPLE / "iclr", SAMPLE / "icml"], alias,
               rejects_dir=tmp_path)
    yield alias
    drop_alias(es, alias)


def test_admin_endpoint_starts_a_rebuild_and_refuses_a_second(settings, redis_client, sample_alias_copy):
    from services.settings import load_settings
    from services.web.app import create_app

    app = create_app(load_settings(ES_URL=settings.es_url, REDIS_URL=settings.redis_url,
                                   PAPERLIST_INDEX=sample_alias_copy, PAPERLIST_QUEUE=settings.queue,
                                   PAPERLIST_ADMIN_TOKEN="s3cret"))
    client = app.test_client()
    auth = {"Authorization": "Bearer s3cret"}
    state = ReindexState(redis_client, sample_alias_copy)
    lock = redis_client.lock(state.lock_key, timeout=30)
    assert lock.acquire(blocking=False)
    try:
        refused = client.post("/api/v1/admin/reindex", headers=auth)
        assert refused.status_code == 409
        assert "already running" in refused.get_json()["error"]["message"]
    finally:
        lock.release()
    resp = client.post("/api/v1/admin/reindex", headers=auth, json={"from_sources": False})
    assert resp.status_code == 202, resp.get_data(as_text=True)
    body = resp.get_json()
    assert body["task_id"] and body["status"] == "queued"
    final = _wait_for(state, body["run_id"])
    assert final["phase"] == "done"
    task = client.get(f"/api/v1/admin/tasks/{body['task_id']}", headers=auth).get_json()
    assert task["state"] == "SUCCESS" and task["result"]["status"] == "done"
    progress = client.get("/api/v1/admin/reindex", headers=auth).get_json()
    assert progress["phase"] == "done"
    assert client.post("/api/v1/admin/reindex", json={"from_sources": "yes"}, headers=auth).status_code == 400


def test_rebuild_from_sources_reads_recorded_sources(settings, celery_app, es, redis_client, sample_alias_copy):
    state = ReindexState(redis_client, sample_alias_copy)
    before = es.count(index=sample_alias_copy)["count"]
    run_id, _ = request_reindex(redis_client, celery_app, settings, sample_alias_copy, from_sources=True)
    final = _wait_for(state, run_id)
    assert final["phase"] == "done", final
    es.indices.refresh(index=sample_alias_copy)
    assert es.count(index=sample_alias_copy)["count"] == before


def test_elasticsearch_failing_mid_rebuild_leaves_alias_and_cleans_up(settings, es, redis_client, sample_alias_copy,
                                                                      monkeypatch):
    """The bulk load dies with a connection error: the alias stays, the half-built index goes."""
    import elastic_transport

    from services.indexer.rebuild import runner as reindex_module

    real_bulk = reindex_module.helpers.streaming_bulk

    def failing_bulk(*args, **kwargs):
        for n, item in enumerate(real_bulk(*args, **kwargs)):
            if n == 100:
                raise elastic_transport.ConnectionError("node went away")
            yield item

    monkeypatch.setattr(reindex_module.helpers, "streaming_bulk", failing_bulk)
    before = indices.current_index(es, sample_alias_copy)
    run_id = uuid.uuid4().hex[:12]
    with pytest.raises(elastic_transport.ConnectionError):
        Rebuild(settings, es, redis_client, sample_alias_copy, run_id).run()
    state = ReindexState(redis_client, sample_alias_copy).load()
    assert state["phase"] == "failed" and state["message"].startswith("ConnectionError")
    assert indices.current_index(es, sample_alias_copy) == before
    assert state["target_index"] not in [i.name for i in indices.list_indices(es, sample_alias_copy)]
    assert not ReindexState(redis_client, sample_alias_copy).locked()
