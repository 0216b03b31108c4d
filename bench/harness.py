"""Shared by the benchmarks: real stores, a worker on a queue of its own, corpus loading, stats.

Benchmarks report ratios against a baseline measured in the same run, with p50/p99 and
throughput, because these machines are noisy (2 shared cores): absolute numbers move
between runs, ratios much less.
"""

from __future__ import annotations

import ipaddress
import json
import os
import signal
import statistics
import subprocess
import sys
import time
import uuid
from datetime import datetime, timezone
from pathlib import Path
from urllib.parse import urlparse

from services.settings import Settings, load_settings

REPO = Path(__file__).resolve().parents[1]
RESULTS = REPO / "bench" / "results"
BENCH_DATA = REPO / "bench" / "data"  # the benches' own inputs (kept in git)
# An uncached request end to end: ``no-cache`` skips the app's result cache, and a cookie makes
# the edge (nginx proxy_cache) pass it through — without it the edge answers a repeated query
# within its TTL, and with ``proxy_cache_use_stale updating`` a stale copy long after.
UNCACHED = {"Cache-Control": "no-cache", "Cookie": "paperlist-bench=uncached"}
# The marker before the one JSON line a bench's Lua ``done()`` prints (wrk_result reads it).
WRK_JSON = "WRKJSON "


def wrk_argv(url: str, script: Path, *, threads: int, connections: int, seconds: int, timeout: float = 5,
             headers: dict | None = None, script_args: tuple = (), latency: bool = False) -> list[str]:
    """The ``wrk`` command line of the benches: bounded by ``-d``, every header a ``-H``."""
    argv = ["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--timeout", f"{timeout:g}s",
            "-s", str(script), *(["--latency"] if latency else [])]
    for name, value in (headers or {}).items():
        argv += ["-H", f"{name}: {value}"]
    return [*argv, url, *(["--", *map(str, script_args)] if script_args else [])]


def wrk_result(stdout: str, stderr: str, what: str = "") -> dict:
    """The JSON line the script's ``done()`` printed, or exit with what wrk said instead."""
    line = next((ln for ln in stdout.splitlines() if ln.startswith(WRK_JSON)), None)
    if line is None:
        raise SystemExit(f"error: wrk gave no result{what}: {stderr.strip()[-300:] or stdout[-300:]}")
    return json.loads(line[len(WRK_JSON):])


# Lua for the wrk scripts of bench/capacity/load.py and bench/pipeline/reindex.py: threads numbered (``id``) and
# kept for done(), and a request file read as one path a line.
WRK_LUA_THREADS = r"""local threads = {}
local counter = 0
function setup(thread)
  thread:set("id", counter)
  counter = counter + 1
  table.insert(threads, thread)
end
local function read_paths(file)
  local lines = {}
  for line in io.lines(file) do lines[#lines + 1] = line end
  return lines
end
"""
# Lua for wrk's done() of bench/capacity/edge.py and bench/capacity/load.py: sum the threads' counters, print them
# as JSON.
WRK_LUA_HELPERS = r"""local function merge(into, from) for k, v in pairs(from or {}) do into[k] = (into[k] or 0) + v end end
local function obj(t)
  local parts = {}
  for k, v in pairs(t) do table.insert(parts, string.format('"%s": %d', k, v)) end
  return "{" .. table.concat(parts, ", ") .. "}"
end
"""


def bench_settings(**overrides: str) -> Settings:
    base = load_settings()
    # BENCH_REDIS_URL / BENCH_QUEUE_PREFIX: a helper sharing the machine keeps to its own Redis db and queue.
    values = {"REDIS_URL": os.environ.get("BENCH_REDIS_URL") or base.redis_url.rsplit("/", 1)[0] + "/14",
              "PAPERLIST_QUEUE": f"{os.environ.get('BENCH_QUEUE_PREFIX', 'paperlist-bench')}-{uuid.uuid4().hex[:6]}"}
    values.update(overrides)
    return load_settings(**values)


def ranking_app(index: str | None):
    """The settings, the web app's test client and an Elasticsearch client for a ranking bench: the
    app in-process, uncached, unlimited and with a lenient budget, so each query is ranked, not
    served from a cache, refused or cut short; ``index``: the alias to rank (default
    PAPERLIST_INDEX)."""
    import logging

    from services.search.engine.client import make_client
    from services.web.app import create_app

    overrides = {"PAPERLIST_CACHE": "false", "PAPERLIST_RATE_LIMIT_ENABLED": "false", "PAPERLIST_SEARCH_BUDGET": "10"}
    if index:
        overrides["PAPERLIST_INDEX"] = index
    settings = load_settings(**overrides)
    client = create_app(settings).test_client()
    logging.getLogger("paperlist.access").setLevel(logging.WARNING)
    return settings, client, make_client(settings)


def ensure_stores(settings: Settings) -> None:
    from services.ops import LocalStack

    stack = LocalStack(settings, log=lambda line: print(f"  {line}", file=sys.stderr))
    stack.redis.ensure(stack.log)
    stack.elasticsearch.ensure(stack.log)


class BenchWorker:
    """A Celery worker process for the benchmark's own queue."""

    def __init__(self, settings: Settings, concurrency: int | None = None):
        self.settings = settings
        self.concurrency = concurrency or settings.worker_concurrency
        self.proc: subprocess.Popen | None = None

    def __enter__(self) -> BenchWorker:
        from services.indexer.celery_app import create_celery

        env = {**os.environ, "ES_URL": self.settings.es_url, "REDIS_URL": self.settings.redis_url,
               "PAPERLIST_QUEUE": self.settings.queue}
        log = REPO / "run" / "bench-worker.log"
        log.parent.mkdir(exist_ok=True)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "services.indexer.worker", "worker", "-Q", self.settings.queue,
             "--concurrency", str(self.concurrency), "--loglevel", "INFO", "-n", f"bench-{uuid.uuid4().hex[:6]}@%h",
             "--without-gossip", "--without-mingle", "--without-heartbeat"],
            env=env, cwd=REPO, stdout=open(log, "ab"), stderr=subprocess.STDOUT, start_new_session=True)
        celery = create_celery(self.settings)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            replies = celery.control.inspect(timeout=1).active_queues() or {}
            if any(q["name"] == self.settings.queue for qs in replies.values() for q in qs):
                return self
        raise RuntimeError(f"benchmark worker did not start; see {log}")

    def __exit__(self, *exc) -> None:
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)


def text_query_arguments(parser, *, queries: int) -> None:
    """The options of the benches that time a seeded text-query mix (bench/querymix.py) against the API."""
    parser.add_argument("--url", default=None, help="web service (default: PAPERLIST_HOST:PAPERLIST_PORT)")
    parser.add_argument("--corpus", default=None, help="default: PAPERLIST_CORPUS")
    parser.add_argument("--step", type=int, default=1, help="read every n-th corpus file")
    parser.add_argument("--queries", type=int, default=queries)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--budget", type=float, default=600.0, help="stop timing after this many seconds")


def checked_text_query_arguments(parser):
    """The parsed options of :func:`text_query_arguments`; a count below 1 is the parser's error."""
    args = parser.parse_args()
    if args.queries < 1 or args.step < 1:
        parser.error("--queries and --step must be positive")
    return args


def ready_web(settings: Settings, url: str | None) -> str:
    """The web service's base URL (``--url`` or the settings'); exits with an error line unless it is ready."""
    import requests

    web = (url or f"http://{settings.host}:{settings.port}").rstrip("/")
    try:
        ready = requests.get(f"{web}/readyz", timeout=5).status_code == 200
    except requests.RequestException:
        ready = False
    if not ready:
        raise SystemExit(f"error: {web} is not ready: start the stack with `paperlist up` and ingest the corpus")
    return web


def corpus_files(corpus: Path, step: int = 1) -> list[Path]:
    """The corpus's files as the source readers see them."""
    from services.indexer.sources import SourceError, open_sources

    try:
        files = [Path(f.location) for f in open_sources([str(corpus)])]
    except SourceError as exc:
        raise SystemExit(f"no corpus files under {corpus} (set --corpus or PAPERLIST_CORPUS): {exc}") from None
    return files[::step]


def loopback(url: str) -> bool:
    """Load and fault tools target this host only."""
    host = urlparse(url).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def percentiles(samples: list[float]) -> dict[str, float]:
    if not samples:
        return {"p50": 0.0, "p99": 0.0, "mean": 0.0}
    ordered = sorted(samples)
    return {"p50": ordered[len(ordered) // 2],
            "p99": ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))],
            "mean": statistics.fmean(ordered)}


def save(name: str, payload: dict) -> Path:
    RESULTS.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dt%H%M%S")
    path = RESULTS / f"{name}-{stamp}.json"
    path.write_text(json.dumps(payload, indent=2))
    return path


def drop(es, prefix: str) -> None:
    names = [row["index"] for row in es.cat.indices(index=f"{prefix}*", format="json", h="index")]
    if names:
        es.indices.delete(index=",".join(names), ignore_unavailable=True)
