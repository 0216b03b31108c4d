"""The indexer's risky paths (issue 10): each scenario failed before its fix.

Real Elasticsearch, Redis and Celery worker; where a request must not reach any worker,
a recording stand-in for the Celery app replaces only ``send_task``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
import uuid

import pytest

from conftest import SAMPLE
from services import redis_keys
from services.indexer.ingest.dispatch import MAX_SENDS, Ingest
from services.indexer.ingest.progress import IngestRun
from services.indexer.rebuild.control import request_reindex
from services.indexer.rebuild.runner import Rebuild, replay
from services.indexer.rebuild.state import ReindexError, ReindexState
from services.search.engine import indices

pytestmark = pytest.mark.integration


class RecordingCelery:
    """Stands in for the Celery app where nothing may be sent to a worker."""

    def __init__(self):
        self.sent: list[tuple[str, dict]] = []
        self._lock = threading.Lock()

    def send_task(self, name, args=None, kwargs=None, **options):
        with self._lock:
            self.sent.append((name, {**(kwargs or {}), **options}))
        return type("Result", (), {"id": uuid.uuid4().hex})()


@pytest.fixture
def reindex_keys(redis_client, alias):
    yield ReindexState(redis_client, alias)
    state = ReindexState(redis_client, alias)
    redis_client.delete(state.key, state.lock_key, state.building_key, state.retired_key)


# --- ingest ---------------------------------------------------------------------------------------

def test_batch_failing_every_time_is_given_up_and_its_records_rejected(settings, celery_app, es, redis_client,
                                                                       worker, alias, tmp_path):
    """Every attempt fails (the write journal's key is broken): bounded attempts, then rejects, not hours."""
    journal = redis_keys.journal(alias)
    redis_client.set(journal, "not a sorted set", ex=600)  # ZADD answers WRONGTYPE, not retryable
    path = tmp_path / "demo" / "demo2020.json"
    path.parent.mkdir()
    path.write_text(json.dumps([{"id": str(i), "title": f"Failing paper {i}"} for i in range(5)]))
    job = Ingest(settings, celery_app, es, redis_client, alias=alias, rejects_dir=tmp_path / "rejects",
                 batch_size=5, timeout=120)
    try:
        summary = job.execute([str(path)])
    finally:
        redis_client.delete(journal)
    assert summary.abandoned_batches == 1
    assert summary.resent == MAX_SENDS - 1
    assert summary.rejected == 5 and summary.indexed == 0
    assert any("given up after 3 attempts" in p for p in summary.problems)
    rejects = [json.loads(line) for line in summary.rejects_path.read_text().splitlines()]
    assert {r["title"] for r in rejects} == {f"Failing paper {i}" for i in range(5)}
    assert all("WRONGTYPE" in r["reason"] for r in rejects), rejects[0]


def test_lease_is_held_for_as_long_as_a_slow_write_runs(redis_client):
    """A bulk write longer than the lease must not make its batch look lost (and be re-sent)."""
    run = IngestRun(redis_client, f"test-{uuid.uuid4().hex[:8]}")
    with run.hold("b00000", seconds=1):
        time.sleep(3.5)  # a write three lease periods long
        held = run.leased("b00000")
    assert held
    redis_client.delete(f"{run.key}:lease:b00000")


def test_cli_without_a_worker_fails_fast_and_sends_nothing(settings, es, redis_client, alias, tmp_path):
    queue = f"test-noworker-{uuid.uuid4().hex[:6]}"
    env = {**os.environ, "ES_URL": settings.es_url, "REDIS_URL": settings.redis_url,
           "PAPERLIST_INDEX": alias, "PAPERLIST_QUEUE": queue}
    out = subprocess.run([sys.executable, "-m", "services.cli", "ingest", str(SAMPLE / "alt"),
                          "--rejects-dir", str(tmp_path)], env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 2, out.stdout + out.stderr
    assert out.stderr.strip().startswith("error:") and f"'{queue}' queue" in out.stderr
    assert "Traceback" not in out.stderr
    assert redis_client.llen(queue) == 0
    assert not es.indices.exists_alias(name=alias)


def test_prune_with_an_empty_file_withdraws_its_conference_year(ingest, es, alias, tmp_path):
    path = tmp_path / "demo" / "demo2020.json"
    path.parent.mkdir()
    path.write_text(json.dumps([{"id": str(i), "title": f"Withdrawn paper {i}"} for i in range(4)]))
    other = tmp_path / "demo" / "demo2021.json"
    other.write_text(json.dumps([{"id": "1", "title": "Another year"}]))
    assert ingest([path, other], alias).indexed == 5

    path.write_text("[]")
    summary = ingest([path], alias, prune=True)
    assert summary.pruned == 4
    assert summary.pruned_scope == [("demo", 2020)]
    es.indices.refresh(index=alias)
    assert es.count(index=alias)["count"] == 1  # the 2021 paper stays

    other.write_text("[")  # truncated, not empty: nothing is withdrawn
    summary = ingest([other], alias, prune=True)
    assert summary.pruned is None
    assert es.count(index=alias)["count"] == 1


# --- reindex --------------------------------------------------------------------------------------

def test_two_reindex_requests_only_one_is_queued(settings, redis_client, alias, reindex_keys):
    celery = RecordingCelery()
    outcomes: list[object] = []

    def request():
        try:
            outcomes.append(request_reindex(redis_client, celery, settings, alias))
        except ReindexError as exc:
            outcomes.append(exc)

    threads = [threading.Thread(target=request) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(celery.sent) == 1
    assert sum(isinstance(o, tuple) for o in outcomes) == 1
    assert sum(isinstance(o, ReindexError) and "already running" in str(o) for o in outcomes) == 5
    with pytest.raises(ReindexError, match="already running"):  # one after the other as well
        request_reindex(redis_client, celery, settings, alias)
    assert celery.sent[0][1]["expires"] > 0  # an unclaimed request does not start hours later


def test_stale_reindex_message_is_dropped(settings, es, redis_client, alias, reindex_keys):
    """A rebuild killed mid-way must not restart when its acks_late message comes back."""
    indices.ensure_alias(es, alias, shards=1, replicas=0)
    before = [i.name for i in indices.list_indices(es, alias)]
    run_id, _ = request_reindex(redis_client, RecordingCelery(), settings, alias)
    reindex_keys.save(phase="copying")       # the run started ...
    redis_client.delete(reindex_keys.lock_key)  # ... and its worker died; the lock lapsed
    with pytest.raises(ReindexError, match="stale"):
        Rebuild(settings, es, redis_client, alias, run_id).run()
    assert [i.name for i in indices.list_indices(es, alias)] == before
    assert reindex_keys.load()["phase"] == "abandoned"


def test_replay_fails_when_the_target_refuses_documents(ingest, es, alias):
    ingest([SAMPLE / "alt"], alias)
    source = indices.current_index(es, alias)
    ids = [h["_id"] for h in es.search(index=alias, size=5, source=False)["hits"]["hits"]]
    target = f"{alias}-refusing"
    es.indices.create(index=target, mappings={"dynamic": "strict", "properties": {}})
    with pytest.raises(ReindexError, match="replay failed for 5 document"):
        replay(es, source, target, ids)
    assert replay(es, source, target, ["no-such-paper"]) == 1  # deleting what is gone is fine
