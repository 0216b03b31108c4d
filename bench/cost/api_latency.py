"""Search latency and throughput of the JSON API against same-run baselines.

Three things are timed over HTTP with the same client (one ``requests`` session) and the
same query mix:

* ``raw``   — Elasticsearch itself, sent the exact body the API builds (``build_search``),
              built and serialised before timing starts, so only the HTTP call is timed;
* ``api``   — ``GET /api/v1/search`` on the gunicorn web service (parsing, query building,
              Elasticsearch, result shaping, JSON);
* ``bare``  — ``GET /healthz``, a bare Flask endpoint behind the same gunicorn.

Fairness: every target gets the same warm-up; for each query the order of the three is
shuffled (seeded), so none always runs first and warms caches for another; throughput
phases run in a shuffled order too. Every response is checked: non-2xx answers and
transport errors are counted and reported, a thread that dies fails the run, and every
loop is bounded by a request count and by time.

By default the API is asked with ``Cache-Control: no-cache`` (uncached path). ``--cached``
repeats one query without that header, for the result cache.

Autocomplete (``/api/v1/suggest``, called on keystrokes) is timed on 2–8 character prefixes.

    python -m bench.cost.api_latency [--url http://127.0.0.1:8000] [--requests 400] [--threads 4] [--seconds 10]
    python -m bench.cost.api_latency --cached
"""

from __future__ import annotations

import argparse
import json
import random
import threading
import time
from dataclasses import dataclass, field
from urllib.parse import urlencode

import requests

from bench.harness import percentiles, ready_web, save
from bench.querymix import WORDS, query_mix
from services.search.query.request import parse_request
from services.search.query.search_body import build_search
from services.settings import load_settings

NO_CACHE = {"Cache-Control": "no-cache"}
JSON = {"Content-Type": "application/json"}


@dataclass(frozen=True)
class Prepared:
    """One query, with everything built before any clock starts."""

    api_path: str
    raw_body: bytes


def prepare(params: dict) -> Prepared:
    body = build_search(parse_request({k: v if isinstance(v, list) else [v] for k, v in params.items()}))
    return Prepared(f"/api/v1/search?{urlencode(params, doseq=True)}", json.dumps(body).encode())


class Targets:
    """The three things timed, each a plain HTTP call returning the status code."""

    NAMES = ("raw", "api", "bare")

    def __init__(self, web: str, es_search: str, cached: bool):
        self.web = web
        self.es_search = es_search
        self.api_headers = {} if cached else NO_CACHE

    def call(self, name: str, session: requests.Session, item: Prepared) -> int:
        if name == "raw":
            return session.post(self.es_search, data=item.raw_body, headers=JSON, timeout=30).status_code
        if name == "api":
            return session.get(self.web + item.api_path, headers=self.api_headers, timeout=30).status_code
        return session.get(f"{self.web}/healthz", timeout=30).status_code


@dataclass
class Tally:
    ok: int = 0
    errors: int = 0
    statuses: dict[int, int] = field(default_factory=dict)

    def add(self, status: int) -> bool:
        if 200 <= status < 300:
            self.ok += 1
            return True
        self.errors += 1
        self.statuses[status] = self.statuses.get(status, 0) + 1
        return False


def latencies(targets: Targets, mix: list[Prepared], rng: random.Random, budget: float,
              warmup: int) -> tuple[dict[str, list[float]], dict[str, Tally]]:
    """Sequential requests; per query, the three targets in a fresh random order."""
    session = requests.Session()
    for item in mix[:warmup]:  # the same warm-up for everyone, in shuffled order too
        for name in rng.sample(Targets.NAMES, 3):
            targets.call(name, session, item)
    samples: dict[str, list[float]] = {name: [] for name in Targets.NAMES}
    tallies = {name: Tally() for name in Targets.NAMES}
    deadline = time.monotonic() + budget
    for item in mix:
        if time.monotonic() > deadline:
            break
        for name in rng.sample(Targets.NAMES, 3):
            started = time.perf_counter()
            status = targets.call(name, session, item)
            elapsed = (time.perf_counter() - started) * 1000
            if tallies[name].add(status):
                samples[name].append(elapsed)
    return samples, tallies


def throughput(targets: Targets, name: str, mix: list[Prepared], threads: int, seconds: float,
               max_per_thread: int) -> dict:
    """``threads`` closed loops for at most ``seconds`` and ``max_per_thread`` requests each."""
    tallies = [Tally() for _ in range(threads)]
    failures: list[BaseException] = []
    stop = threading.Event()

    def loop(n: int) -> None:
        try:
            session = requests.Session()
            for i in range(max_per_thread):
                if stop.is_set():
                    break
                try:
                    status = targets.call(name, session, mix[(n * 97 + i) % len(mix)])
                except requests.RequestException:
                    status = 0  # transport error: counted, not fatal
                tallies[n].add(status)
        except BaseException as exc:  # noqa: BLE001 - reported below, the run fails loudly
            failures.append(exc)

    workers = [threading.Thread(target=loop, args=(n,), daemon=True, name=f"{name}-{n}") for n in range(threads)]
    started = time.perf_counter()
    for t in workers:
        t.start()
    deadline = time.monotonic() + seconds
    for t in workers:
        t.join(max(0.0, deadline - time.monotonic()))
    stop.set()
    for t in workers:
        t.join(60)
    elapsed = time.perf_counter() - started
    stuck = [t.name for t in workers if t.is_alive()]
    if failures or stuck:
        raise SystemExit(f"error: {name} throughput threads failed: {failures!r} stuck: {stuck}")
    ok, errors = sum(t.ok for t in tallies), sum(t.errors for t in tallies)
    statuses: dict[str, int] = {}
    for t in tallies:
        for status, count in t.statuses.items():
            statuses[str(status)] = statuses.get(str(status), 0) + count
    return {"rps": ok / elapsed, "ok": ok, "errors": errors, "error_statuses": statuses,
            "seconds": round(elapsed, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", default=None, help="web service (default: PAPERLIST_HOST:PAPERLIST_PORT)")
    parser.add_argument("--requests", type=int, default=400, help="sequential queries timed per target")
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=10.0, help="length of each throughput phase")
    parser.add_argument("--max-per-thread", type=int, default=100_000, help="request cap of a throughput thread")
    parser.add_argument("--budget", type=float, default=300.0, help="time cap of the sequential phase (s)")
    parser.add_argument("--cached", action="store_true",
                        help="repeat one query, without Cache-Control: no-cache (the result cache's path)")
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    if min(args.requests, args.threads, args.max_per_thread) < 1 or args.seconds <= 0:
        parser.error("--requests, --threads, --max-per-thread and --seconds must be positive")

    settings = load_settings()
    web = ready_web(settings, args.url)
    es_search = f"{settings.es_hosts[0].rstrip('/')}/{settings.index}/_search"
    params = query_mix(args.requests, args.seed)
    if args.cached:
        params = [params[0]] * args.requests
    mix = [prepare(p) for p in params]
    targets = Targets(web, es_search, args.cached)
    rng = random.Random(args.seed)

    samples, tallies = latencies(targets, mix, rng, args.budget, warmup=min(20, len(mix)))
    order = rng.sample(Targets.NAMES, 3)
    rates = {name: throughput(targets, name, mix, args.threads, args.seconds, args.max_per_thread)
             for name in order}

    # Autocomplete is called on keystrokes: prefixes of 2 to 8 characters.
    session = requests.Session()
    prefixes = [w.strip('"')[:n] for w in WORDS for n in range(2, 9)]
    suggest = Tally()
    samples["suggest"] = []
    deadline = time.monotonic() + args.budget
    for prefix in (prefixes * 3)[:args.requests]:
        if time.monotonic() > deadline:
            break
        started = time.perf_counter()
        status = session.get(f"{web}/api/v1/suggest", params={"q": prefix}, timeout=30).status_code
        if suggest.add(status):
            samples["suggest"].append((time.perf_counter() - started) * 1000)
    tallies["suggest"] = suggest

    stats = {name: {k: round(v, 2) for k, v in percentiles(values).items()} for name, values in samples.items()}
    errors = {name: t.errors for name, t in tallies.items()}
    errors.update({f"{name}_throughput": r["errors"] for name, r in rates.items()})
    rps = {name: round(r["rps"], 1) for name, r in rates.items()}
    docs = session.get(f"{web}/api/v1/search?page_size=1", headers=NO_CACHE, timeout=30).json()["total"]

    def ratio(a: float, b: float) -> float | None:
        return round(a / b, 2) if b else None

    result = {"url": web, "index": settings.index, "visible_papers": docs, "mode": "cached" if args.cached else "uncached",
              "requests_each": len(samples["api"]), "threads": args.threads, "seed": args.seed,
              "latency_ms": stats, "throughput_rps": rps, "throughput": rates, "throughput_order": order,
              "errors": errors,
              "ratios": {"api_over_raw_p50": ratio(stats["api"]["p50"], stats["raw"]["p50"]),
                         "api_over_raw_p99": ratio(stats["api"]["p99"], stats["raw"]["p99"]),
                         "api_over_raw_throughput": ratio(rps["api"], rps["raw"]),
                         "api_over_bare_throughput": ratio(rps["api"], rps["bare"]),
                         "raw_over_bare_throughput": ratio(rps["raw"], rps["bare"]),
                         "api_minus_raw_p50_ms": round(stats["api"]["p50"] - stats["raw"]["p50"], 1)}}
    path = save("search-cached" if args.cached else "search", result)
    print(f"{result['mode']} search, {docs:,} visible papers, {len(samples['api'])} sequential queries, "
          f"{args.threads} threads × {args.seconds:g}s")
    for name in Targets.NAMES:
        print(f"{name:7} p50 {stats[name]['p50']:7.1f} ms  p99 {stats[name]['p99']:7.1f} ms  "
              f"{rps[name]:7.1f} req/s  errors {errors[name] + errors[name + '_throughput']}")
    print(f"suggest p50 {stats['suggest']['p50']:.1f} ms  p99 {stats['suggest']['p99']:.1f} ms  errors {errors['suggest']}")
    r = result["ratios"]
    print(f"api/raw: p50 x{r['api_over_raw_p50']}, p99 x{r['api_over_raw_p99']}, throughput x{r['api_over_raw_throughput']}; "
          f"api/bare throughput x{r['api_over_bare_throughput']}  ({path})")
    if any(errors.values()):
        raise SystemExit(f"error: non-2xx answers or transport errors: {errors}")


if __name__ == "__main__":
    main()
