"""The ``paperlist`` command as operators run it, and an ingest that survives worker crashes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time

import pytest
from elasticsearch import helpers

from conftest import SAMPLE, run_ingest
from services.indexer.corpus import CorpusReader
from services.indexer.sources import expand

pytestmark = pytest.mark.integration


def _cli(settings, alias, *args, timeout=300):
    env = {**os.environ, "ES_URL": settings.es_url, "REDIS_URL": settings.redis_url,
           "PAPERLIST_INDEX": alias, "PAPERLIST_QUEUE": settings.queue}
    return subprocess.run([sys.executable, "-m", "services.cli", *args], env=env, capture_output=True,
                          text=True, timeout=timeout)


def test_cli_ingest_status_and_errors(settings, worker, es, alias, tmp_path):
    done = _cli(settings, alias, "ingest", str(SAMPLE / "colt"), "--rejects-dir", str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert "read" in done.stdout and "indexed" in done.stdout and "rejected" in done.stdout
    status = _cli(settings, alias, "status", "--json")
    report = json.loads(status.stdout)
    assert report["elasticsearch"] in ("green", "yellow") and report["redis"] == "ok"
    assert dict(report["conferences"])["colt"] == report["total"] > 0
    assert report["index"].startswith(f"{alias}-v")

    missing = _cli(settings, alias, "ingest", str(tmp_path / "nothing-here.json"))
    assert missing.returncode == 1
    assert "no such file" in missing.stderr
    assert "Traceback" not in missing.stderr + missing.stdout

    skipped = _cli(settings, alias, "ingest", "--if-empty", str(SAMPLE / "alt"))
    assert skipped.returncode == 0 and "nothing to do" in skipped.stdout


def test_cli_reports_unreachable_elasticsearch_in_one_line(settings, alias):
    env = {**os.environ, "ES_URL": "http://127.0.0.1:9", "REDIS_URL": settings.redis_url, "PAPERLIST_INDEX": alias}
    out = subprocess.run([sys.executable, "-m", "services.cli", "ingest", str(SAMPLE / "alt")], env=env,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 2
    assert out.stderr.strip().startswith("error:") and "Traceback" not in out.stderr


def test_cli_bad_configuration_is_reported(settings):
    env = {**os.environ, "PAPERLIST_INDEX": "Bad Name"}
    out = subprocess.run([sys.executable, "-m", "services.cli", "status"], env=env, capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 2 and "PAPERLIST_INDEX" in out.stderr and "Traceback" not in out.stderr


@pytest.mark.slow
def test_ingest_survives_worker_killed_twice(settings, celery_app, es, redis_client, worker, alias, tmp_path):
    sources = [str(SAMPLE)]
    expected = {paper.paper_id for paper in CorpusReader(expand(sources))}

    kills = []

    def killer():
        for _ in range(2):
            time.sleep(3)
            worker.kill()
            kills.append(time.monotonic())
            worker.start()

    thread = threading.Thread(target=killer, daemon=True)
    thread.start()
    summary = run_ingest(settings, celery_app, es, redis_client, sources, alias, rejects_dir=tmp_path,
                         batch_size=200, stall_seconds=5)
    thread.join()
    assert len(kills) == 2
    got = {h["_id"] for h in helpers.scan(es, index=alias, query={"query": {"match_all": {}}, "_source": False})}
    assert got == expected                     # none lost, none extra
    assert summary.indexed + summary.rejected == summary.read
    assert summary.indexed == len(expected)    # counts recorded once per batch despite re-runs
