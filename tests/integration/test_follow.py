"""Followed sources against a server of the test's own on loopback (issue 47): each poll's outcome and the index.

The server serves venue-year files that behave as upstreams do: with ETag and Last-Modified, with neither,
changing between polls, answering 500, hanging, truncated, shrinking by half. The polls run in-process
against the real Elasticsearch and Redis (:func:`services.indexer.follow.poll.poll`); the scheduler's
tests start two celery-redbeat schedulers and the session's worker, and time a change upstream until it
is searchable.
"""

from __future__ import annotations

import functools
import gzip
import json
import os
import subprocess
import sys
import threading
import time
from collections import defaultdict
from email.utils import formatdate
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from services.indexer.follow.fetch import fetch
from services.indexer.follow.poll import poll
from services.search.engine import followed_store
from services.search.records.followed import FollowedSource
from services.settings import PROJECT_ROOT

pytestmark = pytest.mark.allow_hosts(["127.0.0.1"])
SAMPLE_DIR = PROJECT_ROOT / "data" / "sample"


def records(year: int, n: int, tag: str = "") -> list[dict]:
    return [{"id": f"follow{year}_{i:04d}{tag}", "title": f"Followed Paper {i} of {year}{tag} on Quibbling Lattices",
             "author": f"Ada Follow{i}; Bo Poll{i}", "status": "Poster", "track": "main",
             "abstract": f"We study quibbling lattices, case {i}{tag}, polled from a followed source."}
            for i in range(n)]


class Upstream:
    """Files by path, each with how it is served: ``validators`` (ETag, Last-Modified, 304s), ``status``,
    ``hang`` (seconds before answering), ``raw`` bytes instead of JSON; every request logged."""

    def __init__(self):
        self.files: dict[str, dict] = {}
        self.requests: dict[str, list[tuple[float, dict]]] = defaultdict(list)
        upstream = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 - the stdlib's name
                upstream.requests[self.path].append((time.monotonic(), dict(self.headers)))
                spec = upstream.files.get(self.path)
                if spec is None:
                    self.send_error(404)
                    return
                if spec.get("hang"):
                    time.sleep(spec["hang"])
                if spec.get("status", 200) != 200:
                    self.send_error(spec["status"])
                    return
                body = spec.get("raw") or json.dumps(spec["records"]).encode()
                etag, stamp = f'"{hash(body) & 0xffffffff:x}"', formatdate(spec.get("mtime", 1.7e9), usegmt=True)
                if spec.get("validators") and (self.headers.get("If-None-Match") == etag
                                               or self.headers.get("If-Modified-Since") == stamp):
                    upstream.requests[self.path][-1][1]["answer"] = "304"
                    self.send_response(304)
                    self.end_headers()
                    return
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                if spec.get("validators"):
                    self.send_header("ETag", etag)
                    self.send_header("Last-Modified", stamp)
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        class Server(ThreadingHTTPServer):
            def handle_error(self, request, client_address):
                pass  # the hung answer's client is gone when it writes: expected, not worth a traceback

        self.server = Server(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"

    def url(self, path: str) -> str:
        return self.base + path

    def close(self) -> None:
        self.server.shutdown()


@pytest.fixture
def upstream():
    server = Upstream()
    yield server
    server.close()


QUICK = functools.partial(fetch, connect_timeout=1, read_timeout=1, total_timeout=2)


def _poll(es, redis_client, alias, url, *, fetcher=QUICK):
    index = followed_store.index_of(alias)
    source = followed_store.load(es, index, url) or FollowedSource(url=url, interval_s=10)
    stored, result = poll(es, redis_client, alias, source, batch_size=4, fetcher=fetcher)
    followed_store.save(es, index, stored)
    return stored, result


def _titled(es, alias, title: str) -> int:
    """Papers with exactly this title: what a search for it finds (the record's id is not the paper id)."""
    return es.count(index=alias, query={"match_phrase": {"title": title}})["count"] if es.indices.exists(index=alias) else 0


def _count(es, alias, year: int) -> int:
    if not es.indices.exists(index=alias):
        return 0
    es.indices.refresh(index=alias)
    return es.count(index=alias, query={"term": {"year": year}})["count"]


def test_a_source_with_validators_is_ingested_once_then_costs_one_conditional_request(es, redis_client, alias,
                                                                                      upstream):
    upstream.files["/iclr/iclr2030.json"] = {"records": records(2030, 6), "validators": True}
    url = upstream.url("/iclr/iclr2030.json")
    stored, first = _poll(es, redis_client, alias, url)
    assert (first.outcome, first.indexed, first.status) == ("ingested", 6, 200), first
    assert _count(es, alias, 2030) == 6 and stored.etag and stored.last_modified
    assert stored.venue_years == ("iclr:2030",) and stored.papers == 6 and stored.changed_at

    before = len(upstream.requests["/iclr/iclr2030.json"])
    stored, second = _poll(es, redis_client, alias, url)
    asked = upstream.requests["/iclr/iclr2030.json"][before:]
    assert (second.outcome, second.status, second.indexed) == ("unchanged", 304, 0), second
    assert len(asked) == 1 and asked[0][1].get("If-None-Match") == stored.etag
    assert asked[0][1].get("If-Modified-Since") == stored.last_modified
    assert second.run_id is None and _count(es, alias, 2030) == 6


def test_a_source_without_validators_is_skipped_by_its_content_hash(es, redis_client, alias, upstream):
    upstream.files["/iclr/iclr2031.json"] = {"records": records(2031, 4)}
    url = upstream.url("/iclr/iclr2031.json")
    assert _poll(es, redis_client, alias, url)[1].outcome == "ingested"
    stored, again = _poll(es, redis_client, alias, url)
    assert (again.outcome, again.status, again.reason) == ("unchanged", 200, "same content hash")
    assert stored.etag is None and _count(es, alias, 2031) == 4


def test_a_changed_source_is_ingested_and_pruned_within_the_plausible_drop(es, redis_client, alias, upstream):
    upstream.files["/iclr/iclr2032.json"] = {"records": records(2032, 10), "validators": True}
    url = upstream.url("/iclr/iclr2032.json")
    assert _poll(es, redis_client, alias, url)[1].indexed == 10
    changed = records(2032, 9) + records(2032, 1, tag="b")  # one paper replaced: 10 % fewer of the old
    upstream.files["/iclr/iclr2032.json"] = {"records": changed, "validators": True, "mtime": 1.8e9}
    stored, result = _poll(es, redis_client, alias, url)
    assert (result.outcome, result.indexed, result.unchanged, result.pruned) == ("ingested", 1, 9, 1), result
    assert _count(es, alias, 2032) == 10
    assert _titled(es, alias, "Followed Paper 9 of 2032 on Quibbling Lattices") == 0
    assert _titled(es, alias, "Followed Paper 0 of 2032b on Quibbling Lattices") == 1


def test_a_source_that_shrinks_by_half_is_refused_whole(es, redis_client, alias, upstream):
    upstream.files["/iclr/iclr2036.json"] = {"records": records(2036, 10)}
    url = upstream.url("/iclr/iclr2036.json")
    _poll(es, redis_client, alias, url)
    upstream.files["/iclr/iclr2036.json"] = {"records": records(2036, 5)}
    stored, result = _poll(es, redis_client, alias, url)
    assert result.outcome == "refused" and "50% fewer" in result.reason, result
    assert stored.alert == result.reason and stored.records == 10 and stored.failures == 0
    assert _count(es, alias, 2036) == 10  # nothing pruned, nothing written
    stored, again = _poll(es, redis_client, alias, url)
    assert again.outcome == "refused", "a refused file is looked at again, not taken for the last ingested"


def test_a_truncated_file_is_refused_whole(es, redis_client, alias, upstream):
    whole = json.dumps(records(2035, 6)).encode()
    upstream.files["/iclr/iclr2035.json"] = {"raw": whole[: len(whole) * 2 // 3]}
    stored, result = _poll(es, redis_client, alias, upstream.url("/iclr/iclr2035.json"))
    assert result.outcome == "refused" and result.reason.startswith("does not parse"), result
    assert _count(es, alias, 2035) == 0 and stored.content_hash is None


def test_a_failing_source_backs_off_and_counts_its_failures(es, redis_client, alias, upstream):
    upstream.files["/iclr/iclr2033.json"] = {"status": 500}
    url = upstream.url("/iclr/iclr2033.json")
    waits = []
    for _ in range(3):
        stored, result = _poll(es, redis_client, alias, url)
        assert result.outcome == "failed" and "HTTP 500" in result.reason
        waits.append((datetime_of(stored.next_check) - datetime_of(stored.checked_at)).total_seconds())
    assert stored.failures == 3 and stored.failing and "500" in stored.last_error
    assert waits[0] < waits[1] < waits[2] or waits[-1] >= 9, waits  # 1, 2, 4 minutes, capped at the interval
    upstream.files["/iclr/iclr2033.json"] = {"records": records(2033, 3)}
    stored, result = _poll(es, redis_client, alias, url)
    assert result.outcome == "ingested" and stored.failures == 0 and stored.last_error is None


def test_a_hung_source_times_out(es, redis_client, alias, upstream):
    upstream.files["/iclr/iclr2034.json"] = {"records": records(2034, 2), "hang": 5}
    source = FollowedSource(url=upstream.url("/iclr/iclr2034.json"), interval_s=10)
    started = time.monotonic()  # the poll alone (a failed one writes nothing): not the registry's index creation
    stored, result = poll(es, redis_client, alias, source, batch_size=4, fetcher=QUICK)
    took = time.monotonic() - started
    assert result.outcome == "failed" and "timeout" in result.reason, result
    assert took < 4 and stored.failures == 1, f"{took:.1f} s"


def datetime_of(value: str):
    from datetime import datetime

    return datetime.fromisoformat(value)


# -- the scheduler: two started, one ticks; a change upstream searchable within the interval + 60 s ------------

INTERVAL = 10


def _beat(settings, alias: str, log):
    env = {**os.environ, "ES_URL": settings.es_url, "REDIS_URL": settings.redis_url, "PAPERLIST_INDEX": alias,
           "PAPERLIST_QUEUE": settings.queue, "PAPERLIST_FOLLOW_TICK": "1"}
    return subprocess.Popen([sys.executable, "-m", "celery", "-A", "services.indexer.worker", "beat",
                             "-S", "redbeat.RedBeatScheduler", "--loglevel", "INFO"],
                            env=env, cwd=PROJECT_ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)


def test_two_schedulers_poll_each_source_once_per_interval_and_a_change_lands_in_time(
        es, redis_client, alias, upstream, worker, settings, tmp_path):
    paths = ["/iclr/iclr2037.json", "/iclr/iclr2038.json"]
    for path in paths:
        upstream.files[path] = {"records": records(int(path[-9:-5]), 3), "validators": True}
    followed_store.save_many(es, followed_store.index_of(alias),
                             [FollowedSource(url=upstream.url(p), interval_s=INTERVAL) for p in paths])
    log = open(tmp_path / "beat.log", "ab")
    beats = [_beat(settings, alias, log), _beat(settings, alias, log)]
    try:
        deadline = time.monotonic() + 60
        while _count(es, alias, 2037) < 3 or _count(es, alias, 2038) < 3:
            assert time.monotonic() < deadline, (tmp_path / "beat.log").read_text()[-3000:]
            time.sleep(0.5)
        changed_at = time.monotonic()
        upstream.files[paths[0]] = {"records": records(2037, 3) + records(2037, 1, tag="new"), "validators": True,
                                    "mtime": 1.9e9}
        while not _titled(es, alias, "Followed Paper 0 of 2037new on Quibbling Lattices"):
            assert time.monotonic() - changed_at < INTERVAL + 60, \
                f"the change was not searchable in time: {[(t - changed_at, h) for t, h in upstream.requests[paths[0]]]}"
            time.sleep(0.25)
        landed = time.monotonic() - changed_at
        print(f"\nchange upstream -> searchable: {landed:.1f} s (poll interval {INTERVAL} s, bound {INTERVAL + 60} s)")
        time.sleep(2 * INTERVAL)
    finally:
        for beat in beats:
            beat.terminate()
        for beat in beats:
            beat.wait(timeout=30)
    for path in paths:
        times = [t for t, _ in upstream.requests[path]]
        gaps = [b - a for a, b in zip(times, times[1:], strict=False)]
        assert len(times) >= 2, (path, times)  # polled again after its interval (one poll runs at a time)
        assert min(gaps) >= INTERVAL * 0.85, f"{path} polled twice within an interval: gaps {gaps}"


def test_the_seeded_registry_follows_the_corpus_lists_pointed_at_a_local_server(es, redis_client, alias, upstream):
    """What `paperlist up` seeds, with PAPERLIST_FOLLOW_BASE at the test's server: every file of the list, its
    venue-year read from its name; a poll of one reads the server, never the upstream."""
    from services.indexer.follow.schedule import due
    from services.indexer.follow.seed import seed, sources_of
    from services.search.records.followed import now_utc
    from services.settings import load_settings

    seed_file = load_settings().follow_seed
    listed = sources_of(seed_file)
    assert len(listed) >= 300 and all(s.url.startswith("https://raw.githubusercontent.com/") for s in listed)
    assert seed(es, alias, seed_file, base=upstream.base + "/") == len(listed)
    assert seed(es, alias, seed_file, base=upstream.base + "/") == 0, "only an empty registry is seeded"
    followed = followed_store.all_sources(es, followed_store.index_of(alias))
    assert all(s.url.startswith(upstream.base + "/") for s in followed) and len(followed) == len(listed)
    iclr = next(s for s in followed if s.url.endswith("/iclr/iclr2025.json"))
    assert iclr.venue_years == ("iclr:2025",) and iclr.interval_s == 6 * 3600
    assert len(due(es, alias, now_utc())) == len(listed), "a seeded source is polled at the first tick"
    upstream.files["/iclr/iclr2025.json"] = {"raw": gzip.decompress((SAMPLE_DIR / "iclr" / "iclr2025.json.gz").read_bytes())}
    stored, result = _poll(es, redis_client, alias, iclr.url)
    assert result.outcome == "ingested" and result.indexed > 50 and stored.venue_years == ("iclr:2025",)
