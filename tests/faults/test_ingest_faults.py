"""Ingest under faults, with real processes, while a search load runs.

Each scenario prints a row of the fault table (scenario, searches made and failed, ids
lost, duplicated or extra). Processes that get killed are private to these tests: an
Elasticsearch node and a Redis on spare ports; the shared ones are never touched.
"""

from __future__ import annotations

import shutil
import threading
import time
import uuid

import pytest
import redis as redis_lib
import requests
from faults.helpers import (
    EsNode,
    RedisServer,
    SearchLoad,
    cli,
    cli_background,
    es_distribution,
    expected_ids,
    free_port,
    health,
    private_dir,
    record,
    stored_ids,
    wait_for,
    written_count,
)

from conftest import SAMPLE, Worker, _test_settings, drop_alias, run_ingest

pytestmark = [pytest.mark.integration, pytest.mark.slow]

# Parts of the sample, to keep each scenario within minutes on a busy machine (the sample has
# grown; these stay this size): ~1.4k papers for the kill scenarios, ~670 for the slow read-only one.
MEDIUM = [SAMPLE / name for name in ("iclr", "icra", "iros")]
SUBSET = MEDIUM[1:]
BASELINE = SAMPLE / "automl"


@pytest.fixture(scope="module")
def node(settings):
    """A private single Elasticsearch node that tests may kill and restart."""
    root = private_dir("faults-es")
    http = free_port(9221)
    es_node = EsNode(es_distribution(settings), root, "faults-1", f"paperlist-faults-{uuid.uuid4().hex[:6]}",
                     http, free_port(9321), extra={"cluster.info.update.interval": "10s"})
    try:
        es_node.start()
        es_node.wait_up()
        yield es_node
    finally:
        es_node.kill()
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="module")
def private(node, stores):
    """Settings, Celery app, clients and a worker bound to the private node (Redis: the shared test db)."""
    from services.indexer.celery_app import create_celery
    from services.search.engine.client import make_client

    s = _test_settings(ES_URL=node.url)
    app = create_celery(s)
    worker = Worker(s, app)
    worker.start()
    try:
        yield s, app, make_client(s, request_timeout=60), redis_lib.Redis.from_url(s.redis_url), worker
    finally:
        worker.stop()


def _in_thread(func, *args, **kwargs):
    """Run ``func`` in a thread; the returned dict gets its ``result`` or ``error``."""
    out: dict = {}

    def run():
        try:
            out["result"] = func(*args, **kwargs)
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            out["error"] = exc
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    out["thread"] = thread
    return out


def test_elasticsearch_killed_mid_ingest_then_restarted(private, node, tmp_path):
    s, app, es, client, _ = private
    alias = f"test-{uuid.uuid4().hex[:10]}"
    expected = expected_ids(BASELINE, *MEDIUM)
    try:
        run_ingest(s, app, es, client, [BASELINE], alias, rejects_dir=tmp_path)  # the load reads an alias
        with SearchLoad(_test_settings(ES_URL=s.es_url, PAPERLIST_INDEX=alias), max_seconds=240) as load:
            job = _in_thread(run_ingest, s, app, es, client, MEDIUM, alias, rejects_dir=tmp_path,
                             batch_size=100, stall_seconds=10)
            wait_for(lambda: written_count(es, alias) > len(expected) // 10, 180, "first papers indexed")
            node.kill()
            at_kill = load.requests
            time.sleep(5)
            node.start()
            node.wait_up()
            job["thread"].join(timeout=300)
        assert "error" not in job, job.get("error")
        assert "result" in job, "ingest did not finish in time"
        summary = job["result"]
        got = stored_ids(es, alias)
        row = record("Elasticsearch killed mid-ingest", load, expected, got,
                     f"searches failed while down: {dict(load.statuses)}")
        assert row.lost == row.duplicated == row.extra == 0
        assert summary.indexed + summary.rejected == summary.read
        assert at_kill > 0
        # Searches while the node was down fail cleanly with the contract's 503, nothing else.
        assert set(load.statuses) <= {200, 503}, load.errors
    finally:
        drop_alias(es, alias)


def test_redis_killed_during_ingest_then_rerun(settings, es, stores, tmp_path):
    from services.indexer.celery_app import create_celery

    root = private_dir("faults-redis")
    server = RedisServer(root, free_port(6390))
    server.start()
    s = _test_settings(REDIS_URL=server.url)
    app = create_celery(s)
    worker = Worker(s, app)
    expected = expected_ids(BASELINE, *MEDIUM)
    sources = [str(p) for p in MEDIUM]
    try:
        worker.start()
        assert cli(s, "ingest", str(BASELINE), "--rejects-dir", str(tmp_path)).returncode == 0
        with SearchLoad(s, max_seconds=240) as load:
            proc = cli_background(s, "ingest", *sources, "--batch-size", "100", "--rejects-dir", str(tmp_path))
            wait_for(lambda: written_count(es, s.index) > len(expected) // 10 or proc.poll() is not None, 180,
                     "first papers indexed")
            server.kill()
            out, err = proc.communicate(timeout=200)
            server.start()
            if not _ping(app):   # the worker reconnects by itself, else it is restarted
                worker.stop()
                worker.start()
            second = cli(s, "ingest", *sources, "--rejects-dir", str(tmp_path), timeout=300)
        got = stored_ids(es, s.index)
        error_lines = [line for line in err.splitlines() if line.startswith("error:")]
        row = record("Redis killed during ingest, re-run", load, expected, got,
                     f"first run exit {proc.returncode}: {error_lines[:1] or err.strip().splitlines()[-1:]}")
        assert proc.returncode == 2, err
        assert error_lines and "Redis" in error_lines[0] and "Traceback" not in err, err
        assert second.returncode == 0, second.stderr
        assert row.lost == row.duplicated == row.extra == 0
        assert load.failed == 0, load.errors          # searches do not need Redis
    finally:
        worker.stop()
        server.kill()
        drop_alias(es, s.index)
        shutil.rmtree(root, ignore_errors=True)


def _ping(app) -> list:
    """Workers that answer; the first call after a Redis restart may meet a stale pooled connection."""
    for _ in range(3):
        try:
            return app.control.ping(timeout=5)
        except Exception:  # noqa: BLE001 - kombu wraps the closed connection variously
            time.sleep(1)
    return []


def test_worker_killed_five_times_during_ingest(settings, celery_app, es, redis_client, worker, alias, tmp_path):
    expected = expected_ids(BASELINE, *MEDIUM)
    run_ingest(settings, celery_app, es, redis_client, [BASELINE], alias, rejects_dir=tmp_path)
    kills = []

    def killer():
        for _ in range(5):
            time.sleep(2)
            worker.kill()
            kills.append(time.monotonic())
            worker.start()

    with SearchLoad(_test_settings(PAPERLIST_INDEX=alias, REDIS_URL=settings.redis_url), max_seconds=300) as load:
        thread = threading.Thread(target=killer, daemon=True)
        thread.start()
        summary = run_ingest(settings, celery_app, es, redis_client, MEDIUM, alias, rejects_dir=tmp_path,
                             batch_size=100, stall_seconds=5)
        thread.join(timeout=120)
    got = stored_ids(es, alias)
    row = record("Celery worker killed x5 during ingest", load, expected, got, f"kills: {len(kills)}")
    assert len(kills) == 5
    assert row.lost == row.duplicated == row.extra == 0
    assert summary.indexed == len(expected_ids(*MEDIUM))  # counts recorded once per batch despite re-runs
    assert load.failed == 0, load.errors


WATERMARKS = ("low", "high", "flood_stage")


def _watermark(node: EsNode, free: tuple[str, str, str] | None) -> None:
    """Disk watermarks as free space required (tiny disk → read-only), or back to the defaults."""
    values = dict(zip(WATERMARKS, free or (None, None, None), strict=True))
    body = {"persistent": {f"cluster.routing.allocation.disk.watermark.{k}": v for k, v in values.items()}}
    resp = requests.put(f"{node.url}/_cluster/settings", json=body, timeout=30)
    assert resp.ok, resp.text


def _blocked(node: EsNode, alias: str) -> bool:
    resp = requests.get(f"{node.url}/{alias}/_settings/index.blocks.*", params={"flat_settings": "true"}, timeout=10)
    return any(v["settings"].get("index.blocks.read_only_allow_delete") == "true" for v in resp.json().values())


def _release(node: EsNode, alias: str) -> None:
    """Clear the index's read-only block, as an operator does once disk space is back."""
    def released() -> bool:
        requests.put(f"{node.url}/{alias}/_settings", json={"index.blocks.read_only_allow_delete": None},
                     timeout=30).raise_for_status()
        return not _blocked(node, alias)
    wait_for(released, 90, "the read-only block released")


def test_disk_watermark_makes_index_read_only_and_nothing_is_lost(private, node, tmp_path):
    s, app, es, client, _ = private
    alias = f"test-{uuid.uuid4().hex[:10]}"
    target = _test_settings(ES_URL=s.es_url, REDIS_URL=s.redis_url, PAPERLIST_INDEX=alias, PAPERLIST_QUEUE=s.queue)
    expected = expected_ids(BASELINE, *SUBSET)
    subset = [str(p) for p in SUBSET]
    try:
        base = cli(target, "ingest", str(BASELINE), "--rejects-dir", str(tmp_path))
        assert base.returncode == 0, base.stderr
        with SearchLoad(target, max_seconds=280) as load:
            _watermark(node, ("3tb", "2tb", "1tb"))
            wait_for(lambda: _blocked(node, alias), 90, "flood-stage block on the index")
            blocked = cli(target, "ingest", *subset, "--batch-size", "500", "--rejects-dir", str(tmp_path),
                          timeout=400)
            _watermark(node, None)
            _release(node, alias)
            again = cli(target, "ingest", *subset, "--rejects-dir", str(tmp_path), timeout=300)
            if again.returncode == 2 and "refuse" in again.stderr:
                # A disk check that began before the reset may block the index once more (its
                # information predates the new watermarks): the operator clears it and re-runs.
                _release(node, alias)
                again = cli(target, "ingest", *subset, "--rejects-dir", str(tmp_path), timeout=300)
        got = stored_ids(es, alias)
        said = [line for line in (blocked.stderr + blocked.stdout).splitlines()
                if line.startswith(("error:", "warning:", "rejected", "indexed"))]
        tail = [line for line in blocked.stderr.splitlines() if line.strip()][-2:]
        row = record("disk flood-stage watermark, reset, re-run", load, expected, got,
                     f"blocked run exit {blocked.returncode}: {said[:3] or tail}")
        print("blocked run stdout:\n", blocked.stdout, "\nstderr:\n", blocked.stderr)
        # The blocked run stops with one clear line and exit 2; no traceback, nothing rejected.
        assert blocked.returncode == 2, blocked.stdout
        assert "Traceback" not in blocked.stderr
        assert any(line.startswith("error:") and ("refuses writes" in line or "refused writes" in line)
                   for line in blocked.stderr.splitlines()), blocked.stderr
        assert again.returncode == 0, again.stderr
        assert row.lost == row.duplicated == row.extra == 0
        assert load.failed == 0, load.errors          # a read-only index still answers searches
        assert health(node.url).get("status") in ("green", "yellow")
    finally:
        _watermark(node, None)
        drop_alias(es, alias)
