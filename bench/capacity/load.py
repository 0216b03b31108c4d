"""The Zipf load through the front, driven by Debian's ``wrk``: the edge on against the edge off (issue 17).

The mix (bench/querymix.py) has exact titles, title fragments, keywords, author names,
facet clicks, paging, autocomplete keystrokes and detail pages, pages and API alike,
about 80% of requests from the 1,000 most popular. The drawn sequence is written to a
request file, one path a line, in the canonical parameter order the app's own links use
(the edge keys any order as that one); a Lua script walks it, each wrk thread from its own
point, and counts in its ``response`` hook every status, ``X-Cache-Edge`` and ``X-Cache``.
``wrk`` is a C load generator: a Python one (locust, formerly) spends the cores it measures.

One run reports, at ``-t2 -c32`` (bounded by ``-d``), for each way of serving:

* **edge on**: anonymous, gzip, as a crowd arrives; nginx's cache answers what it holds;
* **edge off**: the same requests with a cookie, which the front's configuration already
  sends past its cache (as it does a signed-in visitor's): nothing in nginx changes for
  the benchmark, and the app's Redis cache still answers;

throughput, p50, p99, errors (statuses that are not 2xx/3xx, and socket errors), the edge
hit ratio (``X-Cache-Edge``) and the app's hit ratio (``paperlist_cache_*_total`` from
``/metrics``, before and after). The two are run ABBA (on, off, off, on by default) over
successive stretches of the sequence, so the warming of Redis and any drift of a shared
machine favour neither; a mode's p50 is the request-weighted mean of its runs', its p99
the worst run's. First, unloaded (``-t1 -c1``), every cache bypassed (a cookie and
``Cache-Control: no-cache``): the same mix's **miss p50**, the yardstick of "p99 (edge on)
≤ 3× the unloaded miss p50".

During the edge-on runs a few cold broad searches (``large language models``, ``learning``,
each with an exclusion of a random token, ``-qx7…``, which matches the same papers but is
a key no cache holds) are sent one at a time, through the edge: their status, whether
their hits were there and what they left out (``X-Left-Out``). Target: 200 with hits,
never 503.

The client is 127.0.0.1, exempt from rate limits (PAPERLIST_RATE_LIMIT_EXEMPT). Loopback
targets only. Results go to bench/results/load-*.json.

    python3 -m bench.capacity.load [--url http://127.0.0.1:8000] [--duration 10] [--rounds 2]
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import string
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

import requests

from bench.harness import WRK_LUA_HELPERS, WRK_LUA_THREADS, loopback, ready_web, save, wrk_argv, wrk_result
from bench.querymix import TOP, canonical_path, load_records, request_pool, zipf_sequence
from services.settings import load_settings

HITS_METRIC = "paperlist_cache_hits_total"
MISSES_METRIC = "paperlist_cache_misses_total"
REVALIDATED_METRIC = "paperlist_revalidated_total"
APP_METRICS = (HITS_METRIC, MISSES_METRIC, REVALIDATED_METRIC)
MAX_DURATION = 60  # seconds per wrk run: the whole benchmark stays bounded
GZIP = {"Accept-Encoding": "gzip"}
EDGE_OFF = {"Cookie": "paperlist_bench=load"}  # the front never caches a request with a cookie
MISS = {**EDGE_OFF, "Cache-Control": "no-cache"}  # ... and the app's result cache is skipped too
MODES = {"edge-on": {}, "edge-off": EDGE_OFF}
COLD_QUERIES = ("large language models", "learning")
COLD_TIMEOUT = 10.0  # seconds; nginx itself gives up on gunicorn after 5
TARGETS = {"edge_over_off": 3.0, "p99_over_miss_p50": 3.0, "errors": 0}
# The request file's paths, walked by each thread from its own offset; status, X-Cache-Edge and
# X-Cache counted per thread and summed in done(), printed as one JSON line.
WRK_SCRIPT = WRK_LUA_THREADS + r"""
function init(args)
  paths = read_paths(args[1])
  local offset = tonumber(args[2]) or 0
  pos = (offset + id * math.floor(#paths / (tonumber(args[3]) or 1))) % #paths
  statuses = {}; edges = {}; apps = {}
end
function request()
  pos = pos % #paths + 1
  return wrk.format("GET", paths[pos])
end
function response(status, headers, body)
  local s = tostring(status)
  statuses[s] = (statuses[s] or 0) + 1
  local e = headers["X-Cache-Edge"] or "none"
  edges[e] = (edges[e] or 0) + 1
  local a = headers["X-Cache"] or "none"
  apps[a] = (apps[a] or 0) + 1
end
""" + WRK_LUA_HELPERS + r"""
function done(summary, latency, requests)
  local st, ed, ap = {}, {}, {}
  for _, t in ipairs(threads) do merge(st, t:get("statuses")); merge(ed, t:get("edges")); merge(ap, t:get("apps")) end
  local e = summary.errors
  io.write(string.format(
    'WRKJSON {"requests": %d, "duration_us": %d, "p50_us": %d, "p90_us": %d, "p99_us": %d, "max_us": %d, ' ..
    '"socket_errors": {"connect": %d, "read": %d, "write": %d, "timeout": %d}, ' ..
    '"statuses": %s, "edge": %s, "app": %s}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(90), latency:percentile(99),
    latency.max, e.connect, e.read, e.write, e.timeout, obj(st), obj(ed), obj(ap)))
end
"""


def metric_sums(web: str, names: tuple[str, ...]) -> dict[str, float] | None:
    """The named counters of ``GET /metrics`` (never cached by the edge), or None when there is none."""
    try:
        resp = requests.get(f"{web}/metrics", timeout=10)
    except requests.RequestException:
        return None
    return counter_sums(resp.text, names) if resp.status_code == 200 else None


def counter_sums(text: str, names: tuple[str, ...]) -> dict[str, float]:
    """Sum of every sample (all label sets) of each named counter in Prometheus text format."""
    sums = dict.fromkeys(names, 0.0)
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        name = line.split("{", 1)[0].split(" ", 1)[0]
        rest = line.rsplit("}", 1)[1].split() if "}" in line else line.split()[1:]  # value [timestamp]
        if name in sums and rest:
            try:
                sums[name] += float(rest[0])
            except ValueError:
                continue
    return sums


def ratio(hits: float, misses: float) -> float | None:
    return round(hits / (hits + misses), 4) if hits + misses else None


def app_counts(before: dict[str, float], after: dict[str, float]) -> dict[str, float]:
    """What the app answered between two reads of :data:`APP_METRICS`: from its caches (``hits``), by asking
    Elasticsearch (``misses``), and 304s to the edge's revalidations from the canonical ETag (``revalidated``:
    the refresh of an expired edge entry, answered without the view)."""
    return {"hits": after[HITS_METRIC] - before[HITS_METRIC], "misses": after[MISSES_METRIC] - before[MISSES_METRIC],
            "revalidated": after[REVALIDATED_METRIC] - before[REVALIDATED_METRIC]}


def app_hit_ratio(counts: dict[str, float]) -> float | None:
    """The share of the requests that reached the app answered without Elasticsearch: a cache hit or a 304 to a
    revalidation (what the edge's expired popular entries cost; counting them as neither, the share read 2-3%
    at 400 req/s where nearly half the upstream requests were such 304s)."""
    return ratio(counts["hits"] + counts.get("revalidated", 0), counts["misses"])


def front(parser: argparse.ArgumentParser, url: str | None, settings) -> str:
    """The front to load (``--url``, else the settings' address): on this machine and ready, or the parser's error."""
    target = url or f"http://{settings.host}:{settings.port}"
    if not loopback(target):
        parser.error(f"{target} is not a loopback address: the load test only targets this machine (--url)")
    return ready_web(settings, target)


def mix_arguments(parser: argparse.ArgumentParser) -> None:
    """The options :func:`drawn_mix` reads."""
    parser.add_argument("--corpus", type=Path, default=None, help="default: PAPERLIST_CORPUS")
    parser.add_argument("--step", type=int, default=1, help="read every n-th corpus file")
    parser.add_argument("--pool", type=int, default=50_000, help="distinct requests in the mix")
    parser.add_argument("--sequence", type=int, default=200_000, help="length of the drawn request sequence")
    parser.add_argument("--seed", type=int, default=9)


def drawn_mix(args: argparse.Namespace, settings, share: float = 0.8) -> tuple[Path, list, list, list[int], float]:
    """The corpus, its records, the pool of ``(kind, canonical path)`` and the Zipf-drawn sequence with its exponent,
    from the options ``--corpus``, ``--step``, ``--pool``, ``--sequence``, ``--seed``."""
    corpus = args.corpus or settings.corpus_dir
    print(f"building the query mix from {corpus}…", file=sys.stderr)
    records = load_records(corpus, args.step)
    pool = [(kind, canonical_path(path)) for kind, path in request_pool(records, args.pool, args.seed)]
    sequence, exponent = zipf_sequence(len(pool), args.sequence, args.seed + 1, share)
    return corpus, records, pool, sequence, exponent


def wrk(base: str, script: Path, paths: Path, offset: int, headers: dict, *, threads: int, connections: int,
        seconds: int) -> dict:
    argv = wrk_argv(base, script, threads=threads, connections=connections, seconds=seconds,
                    headers={**GZIP, **headers}, script_args=(paths, offset, threads))
    out = subprocess.run(argv, capture_output=True, text=True, timeout=seconds + 60, check=False)
    got = wrk_result(out.stdout, out.stderr)
    seconds_run = got["duration_us"] / 1e6 or 1
    bad = {s: n for s, n in got["statuses"].items() if not 200 <= int(s) < 400}
    socket_errors = sum(got["socket_errors"].values())
    edge_hits = got["edge"].get("HIT", 0)
    return {"requests": got["requests"], "seconds": round(seconds_run, 2), "rps": round(got["requests"] / seconds_run, 1),
            "p50_ms": got["p50_us"] / 1000, "p90_ms": got["p90_us"] / 1000, "p99_ms": got["p99_us"] / 1000,
            "max_ms": got["max_us"] / 1000, "statuses": got["statuses"], "edge": got["edge"], "app": got["app"],
            "socket_errors": got["socket_errors"], "errors": sum(bad.values()) + socket_errors,
            "edge_hit_ratio": round(edge_hits / got["requests"], 4) if got["requests"] else None}


class ColdProbe:
    """Cold broad searches sent one at a time while a run loads the front (bounded in count and time)."""

    def __init__(self, base: str, count: int, spacing: float, seed: int):
        self.base, self.count, self.spacing = base, count, spacing
        self.rng = random.Random(seed)
        self.answers: list[dict] = []
        self.thread: threading.Thread | None = None
        self.stop = threading.Event()

    def start(self, delay: float) -> None:
        self.thread = threading.Thread(target=self._run, args=(delay,), daemon=True)
        self.thread.start()

    def join(self) -> None:
        self.stop.set()
        if self.thread:
            self.thread.join(timeout=COLD_TIMEOUT + 5)

    def _run(self, delay: float) -> None:
        if self.stop.wait(delay):
            return
        for n in range(self.count):
            if self.stop.is_set():
                return
            words = COLD_QUERIES[n % len(COLD_QUERIES)]
            token = "".join(self.rng.choices(string.ascii_lowercase, k=3)) + "".join(self.rng.choices(string.digits, k=4))
            q = f"{words} -{token}"  # the same papers as the words alone, a key no cache holds
            started = time.monotonic()
            try:
                resp = requests.get(f"{self.base}/search", params={"q": q}, headers=GZIP, timeout=COLD_TIMEOUT,
                                    allow_redirects=False)
                cards = resp.text.count('class="paper-card"')
                total = re.search(r'<p class="total"><strong>([\d,]+)</strong>', resp.text)
                self.answers.append({"q": q, "status": resp.status_code, "ms": round(1000 * (time.monotonic() - started)),
                                     "hits_shown": cards, "total": int(total.group(1).replace(",", "")) if total else None,
                                     "left_out": resp.headers.get("X-Left-Out", ""),
                                     "edge": resp.headers.get("X-Cache-Edge", ""), "app": resp.headers.get("X-Cache", "")})
            except requests.RequestException as exc:
                self.answers.append({"q": q, "status": None, "error": type(exc).__name__,
                                     "ms": round(1000 * (time.monotonic() - started))})
            self.stop.wait(self.spacing)


def combined(runs: list[dict]) -> dict:
    """A mode's figures over its runs: throughput and ratios over all requests, p50 request-weighted, p99 the worst."""
    requests_ = sum(r["requests"] for r in runs)
    seconds = sum(r["seconds"] for r in runs)
    statuses: Counter[str] = Counter()
    edge: Counter[str] = Counter()
    app: Counter[str] = Counter()
    for r in runs:
        statuses.update(r["statuses"])
        edge.update(r["edge"])
        app.update(r["app"])
    metric = {name: sum(r["metrics"].get(name, 0) for r in runs if r.get("metrics"))
              for name in ("hits", "misses", "revalidated")}
    return {"requests": requests_, "rps": round(requests_ / seconds, 1) if seconds else 0.0,
            "p50_ms": round(sum(r["p50_ms"] * r["requests"] for r in runs) / requests_, 2) if requests_ else None,
            "p99_ms": max(r["p99_ms"] for r in runs), "errors": sum(r["errors"] for r in runs),
            "statuses": dict(statuses), "edge": dict(edge), "app": dict(app),
            "edge_hit_ratio": round(edge.get("HIT", 0) / requests_, 4) if requests_ else None,
            "app_hit_ratio": app_hit_ratio(metric), "app_metrics": metric}


def show(label: str, r: dict) -> None:
    app = "n/a" if r.get("app_hit_ratio") is None else f"{100 * r['app_hit_ratio']:.1f}%"
    edge = "n/a" if r.get("edge_hit_ratio") is None else f"{100 * r['edge_hit_ratio']:.1f}%"
    print(f"  {label:<14} {r['rps']:>8,.1f} req/s  p50 {r['p50_ms']:>7.1f} ms  p99 {r['p99_ms']:>7.1f} ms  "
          f"errors {r['errors']}/{r['requests']}  edge hits {edge}  app hits {app}  status {r['statuses']}",
          flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", default=None, help="the front (default: PAPERLIST_HOST:PAPERLIST_PORT)")
    parser.add_argument("--duration", type=int, default=10, help=f"seconds per loaded run (1-{MAX_DURATION})")
    parser.add_argument("--rounds", type=int, default=2,
                        help="ABBA rounds: 1 runs on, off; 2 runs on, off, off, on (default)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--unloaded", type=int, default=10, help="seconds of the unloaded miss run (-t1 -c1)")
    parser.add_argument("--cold", type=int, default=4, help="cold broad searches sent during each edge-on run")
    mix_arguments(parser)
    parser.add_argument("--top-share", type=float, default=0.8, help=f"share of requests from the {TOP} most popular")
    args = parser.parse_args()
    if not 1 <= args.duration <= MAX_DURATION or not 1 <= args.unloaded <= MAX_DURATION:
        parser.error(f"--duration and --unloaded are 1-{MAX_DURATION} seconds")
    if not 1 <= args.rounds <= 4 or not 1 <= args.connections <= 256 or not 1 <= args.threads <= 8:
        parser.error("--rounds 1-4, --connections 1-256, --threads 1-8")
    if args.pool < 1 or args.sequence < 1 or not 0 <= args.cold <= 20:
        parser.error("--pool and --sequence must be positive, --cold 0-20")
    if not 0 < args.top_share < 1:
        parser.error("--top-share is a fraction between 0 and 1")
    if not shutil.which("wrk"):
        raise SystemExit("error: wrk is missing: apt-get install -y wrk (Debian's C load generator)")

    settings = load_settings()
    web = front(parser, args.url, settings)
    corpus, records, pool, sequence, exponent = drawn_mix(args, settings, args.top_share)
    drawn = Counter(pool[i][0] for i in sequence)
    mix = {"records": len(records), "pool": len(pool), "zipf_exponent": round(exponent, 4),
           "top_share": round(sum(1 for i in sequence if i < TOP) / len(sequence), 4),
           "kinds": {k: round(v / len(sequence), 4) for k, v in drawn.most_common()},
           "most_popular": [path for _, path in pool[:5]]}
    print(f"mix: {len(pool):,} distinct requests from {len(records):,} records, Zipf s={exponent:.3f}, "
          f"top {TOP}: {100 * mix['top_share']:.1f}% of requests", file=sys.stderr)

    load_before = os.getloadavg()
    order = (["edge-on", "edge-off", "edge-off", "edge-on"] * args.rounds)[:2 * args.rounds]
    runs: list[dict] = []
    cold: list[dict] = []
    with tempfile.TemporaryDirectory(prefix="paperlist-load-") as tmp:
        script = Path(tmp) / "mix.lua"
        script.write_text(WRK_SCRIPT)
        paths = Path(tmp) / "requests.txt"
        paths.write_text("".join(pool[i][1] + "\n" for i in sequence))
        stretch = len(sequence) // (len(order) + 2)  # each run walks its own stretch of the sequence
        print(f"load of {web}: unloaded miss run (wrk -t1 -c1 -d{args.unloaded}s, caches bypassed), then "
              f"{', '.join(order)} (wrk -t{args.threads} -c{args.connections} -d{args.duration}s, gzip)", flush=True)
        unloaded = wrk(web, script, paths, 0, MISS, threads=1, connections=1, seconds=args.unloaded)
        show("unloaded miss", {**unloaded, "app_hit_ratio": None})
        for n, mode in enumerate(order, start=1):
            before = metric_sums(web, APP_METRICS)
            probe = None
            if mode == "edge-on" and args.cold:
                probe = ColdProbe(web, args.cold, max(0.5, (args.duration - 2) / args.cold), args.seed + n)
                probe.start(delay=1.0)
            run = wrk(web, script, paths, n * stretch, MODES[mode], threads=args.threads,
                      connections=args.connections, seconds=args.duration)
            if probe:
                probe.join()
                cold.extend({**a, "run": n} for a in probe.answers)
            after = metric_sums(web, APP_METRICS)
            if before is not None and after is not None:
                run["metrics"] = app_counts(before, after)
                run["app_hit_ratio"] = app_hit_ratio(run["metrics"])
            runs.append({"mode": mode, **run})
            show(f"{n}. {mode}", run)
    modes = {mode: combined([r for r in runs if r["mode"] == mode]) for mode in MODES}
    on, off = modes["edge-on"], modes["edge-off"]
    checks = {
        "edge_over_off": round(on["rps"] / off["rps"], 2) if off["rps"] else None,
        "p99_over_miss_p50": round(on["p99_ms"] / unloaded["p50_ms"], 2) if unloaded["p50_ms"] else None,
        "errors": on["errors"] + off["errors"],
        "cold_503": sum(1 for a in cold if a["status"] == 503),
        "cold_without_hits": sum(1 for a in cold if not a.get("hits_shown")),
    }
    print("\nby mode:")
    for mode, figures in modes.items():
        show(mode, figures)
    print(f"\nedge on / edge off throughput: {checks['edge_over_off']}× (target ≥ {TARGETS['edge_over_off']})")
    print(f"p99 (edge on) / unloaded miss p50: {on['p99_ms']:.1f} / {unloaded['p50_ms']:.1f} ms = "
          f"{checks['p99_over_miss_p50']}× (target ≤ {TARGETS['p99_over_miss_p50']})")
    print(f"errors: {checks['errors']} (target 0)")
    print(f"cold broad searches under load: {len(cold)}, "
          f"statuses {dict(Counter(str(a['status']) for a in cold))}, 503s {checks['cold_503']}, "
          f"without hits {checks['cold_without_hits']}, "
          f"left out {dict(Counter(a.get('left_out') or '-' for a in cold))}")
    for a in cold:
        print(f"    {a['status']}  {a['ms']:>5} ms  hits shown {a.get('hits_shown')}  total {a.get('total')}  "
              f"left out '{a.get('left_out', '')}'  edge {a.get('edge')}  {a['q']}")
    result = {"url": web, "index": settings.index, "corpus": str(corpus), "mix": mix,
              "wrk": {"threads": args.threads, "connections": args.connections, "duration_s": args.duration,
                      "headers": GZIP, "edge_off_headers": EDGE_OFF, "miss_headers": MISS},
              "unloaded_miss": unloaded, "runs": runs, "modes": modes, "cold": cold, "checks": checks,
              "targets": TARGETS,
              "load_average": {"before": [round(x, 2) for x in load_before],
                               "after": [round(x, 2) for x in os.getloadavg()]}}
    path = save("load", result)
    print(f"load average before {load_before[0]:.2f}, after {os.getloadavg()[0]:.2f}")
    print(f"results: {path}")
    met = (checks["edge_over_off"] or 0) >= TARGETS["edge_over_off"] and \
        (checks["p99_over_miss_p50"] or 99) <= TARGETS["p99_over_miss_p50"] and not checks["errors"] and \
        not checks["cold_503"] and not checks["cold_without_hits"]
    sys.exit(0 if met else 1)


if __name__ == "__main__":
    main()
