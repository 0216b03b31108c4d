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

from conftest import SAMPLE
from services.indexer.ingest.corpus_reader import CorpusReader
from services.indexer.ingest.dispatch import Ingest

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


def test_cli_status_names_venues_and_status_words_the_catalogue_lacks(settings, worker, alias, tmp_path):
    folder = tmp_path / "newvenue"
    folder.mkdir()
    records = [{"id": f"n{i}", "title": f"A study of unseen venues, part {i}", "author": "Ada Lovelace",
                "status": status} for i, status in enumerate(["Accept", "Accept", "Keynote Lecture", ""])]
    (folder / "newvenue2025.json").write_text(json.dumps(records))
    for source in (folder, SAMPLE / "tmlr"):
        done = _cli(settings, alias, "ingest", str(source), "--rejects-dir", str(tmp_path))
        assert done.returncode == 0, done.stderr
    report = json.loads(_cli(settings, alias, "status", "--json").stdout)
    assert report["unknown_venues"] == ["newvenue"]
    assert report["kinds"] == {"newvenue": "conference", "tmlr": "journal"}
    # "Accept" is read by a facet rule and TMLR's "Journal" by its venue; an empty status is no word.
    assert report["unmapped_statuses"] == [["newvenue", "Keynote Lecture", 1]]
    assert report["status_words"] == 3
    text = _cli(settings, alias, "status").stdout
    assert "venues not in the catalogue: newvenue" in text and "'Keynote Lecture' (1)" in text
    assert "journal" in text


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


def _held_batches(redis_client, run) -> set[str]:
    """Batches a worker holds right now (lease alive) and has not finished."""
    leased = {k.decode().rsplit(":", 1)[-1] for k in redis_client.scan_iter(f"{run.key}:lease:*")}
    return leased - run.done_batches()


@pytest.mark.slow
def test_ingest_survives_worker_killed_twice(settings, celery_app, es, redis_client, worker, alias, tmp_path):
    """Each kill lands while the worker provably holds unfinished batches; they are re-sent, ids exact."""
    sources = [str(SAMPLE / name) for name in ("cvpr", "iclr", "icra", "iros")]  # ~2.1k papers, 43 batches
    expected = {paper.paper_id for paper in CorpusReader(sources)}
    job = Ingest(settings, celery_app, es, redis_client, alias=alias, rejects_dir=tmp_path, batch_size=50,
                 stall_seconds=5)
    kills: list[set[str]] = []

    def killer():
        for _ in range(2):
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline:
                counts = job.run.counts()
                held = _held_batches(redis_client, job.run)
                if held and 0 < counts.batches_done < counts.batches:
                    worker.kill()
                    kills.append(held)
                    worker.start()
                    break
                time.sleep(0.05)

    thread = threading.Thread(target=killer, daemon=True)
    thread.start()
    summary = job.execute(sources)
    thread.join()
    es.indices.refresh(index=alias)
    assert len(kills) == 2 and all(kills), kills   # both kills caught batches in a worker's hands
    assert summary.resent >= 1                      # ... and those were sent again
    assert summary.abandoned_batches == 0
    got = {h["_id"] for h in helpers.scan(es, index=alias, query={"query": {"match_all": {}}, "_source": False})}
    assert got == expected                     # none lost, none extra
    assert summary.indexed + summary.rejected == summary.read
    assert summary.indexed == len(expected)    # counts recorded once per batch despite re-runs
