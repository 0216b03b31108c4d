"""Search latency and throughput of the JSON API against same-run baselines.

Three things are timed over HTTP with the same query mix, interleaved so noise hits all:

* ``raw``   — Elasticsearch itself, given the exact body the API builds (build_search);
* ``api``   — ``GET /api/v1/search`` on the gunicorn web service (parsing, query building,
              Elasticsearch, result shaping, JSON);
* ``bare``  — ``GET /healthz``, a bare Flask endpoint behind the same gunicorn.

Autocomplete (``/api/v1/suggest``, called on keystrokes) is timed on 2–8 character prefixes.

api/raw shows what the application adds over the engine; bare shows the HTTP floor.
Sequential requests give p50/p99; a few threads give throughput.

    python bench/search.py [--url http://127.0.0.1:8000] [--requests 400] [--threads 4]
"""

from __future__ import annotations

import argparse
import random
import threading
import time
from urllib.parse import urlencode

import requests

from harness import percentiles, save
from services.search.request import parse_request
from services.search.search_body import build_search
from services.settings import load_settings

WORDS = ["learning", "neural", "graph", "robot", "diffusion", "language model", "reinforcement learning",
         "transformer", "segmentation", "bayesian", "optimization", "3d reconstruction", "\"neural network\"",
         "grasp*", "author:bengio", "attention -vision", "policy OR planning", "title:adversarial",
         "causal inference", "object detection", "federated", "kernel methods", "speech recognition"]
FILTERS = [{}, {}, {"conference": "neurips"}, {"year": "2018-2022"}, {"topic": "computer-vision"},
           {"conference": ["icra", "iros"]}, {"sort": "newest"}, {"has_code": "true"}]


def query_mix(n: int, seed: int) -> list[dict]:
    rng = random.Random(seed)
    return [{"q": rng.choice(WORDS), **rng.choice(FILTERS)} for _ in range(n)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", default=None, help="web service (default: PAPERLIST_HOST:PAPERLIST_PORT)")
    parser.add_argument("--requests", type=int, default=400)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()

    settings = load_settings()
    web = args.url or f"http://{settings.host}:{settings.port}"
    es_url = settings.es_hosts[0].rstrip("/")
    session = requests.Session()
    if session.get(f"{web}/readyz", timeout=5).status_code != 200:
        raise SystemExit(f"{web} is not ready: start the stack with `paperlist up`")
    mix = query_mix(args.requests, args.seed)

    def raw(params):
        body = build_search(parse_request({k: v if isinstance(v, list) else [v] for k, v in params.items()}))
        r = session.post(f"{es_url}/{settings.index}/_search", json=body, timeout=30)
        r.raise_for_status()

    def api(params):
        r = session.get(f"{web}/api/v1/search?{urlencode(params, doseq=True)}", timeout=30)
        r.raise_for_status()

    def bare(_params):
        session.get(f"{web}/healthz", timeout=30).raise_for_status()

    targets = {"raw": raw, "api": api, "bare": bare}
    for params in mix[:20]:  # warm caches and connections
        for fn in targets.values():
            fn(params)
    latencies: dict[str, list[float]] = {name: [] for name in targets}
    for params in mix:
        for name, fn in targets.items():
            started = time.perf_counter()
            fn(params)
            latencies[name].append((time.perf_counter() - started) * 1000)

    throughput = {}
    for name, fn in targets.items():
        count, stop = [0], threading.Event()

        def loop(fn=fn, count=count, stop=stop):
            local = requests.Session()
            i = 0
            while not stop.is_set():
                params = mix[i % len(mix)]
                i += 1
                if fn is bare:
                    local.get(f"{web}/healthz", timeout=30)
                elif fn is api:
                    local.get(f"{web}/api/v1/search?{urlencode(params, doseq=True)}", timeout=30)
                else:
                    body = build_search(parse_request({k: v if isinstance(v, list) else [v] for k, v in params.items()}))
                    local.post(f"{es_url}/{settings.index}/_search", json=body, timeout=30)
                count[0] += 1

        threads = [threading.Thread(target=loop, daemon=True) for _ in range(args.threads)]
        started = time.perf_counter()
        for t in threads:
            t.start()
        time.sleep(10)
        stop.set()
        for t in threads:
            t.join()
        throughput[name] = count[0] / (time.perf_counter() - started)

    # Autocomplete is called on keystrokes: prefixes of 2 to 8 characters.
    prefixes = [w.strip('"')[:n] for w in WORDS for n in range(2, 9)]
    suggest_ms = []
    for prefix in prefixes * 3:
        started = time.perf_counter()
        session.get(f"{web}/api/v1/suggest", params={"q": prefix}, timeout=30).raise_for_status()
        suggest_ms.append((time.perf_counter() - started) * 1000)
    latencies["suggest"] = suggest_ms

    stats = {name: {k: round(v, 2) for k, v in percentiles(values).items()} for name, values in latencies.items()}
    docs = session.get(f"{web}/api/v1/search?page_size=1").json()["total"]
    result = {"url": web, "index": settings.index, "visible_papers": docs, "requests_each": len(mix),
              "latency_ms": stats, "throughput_rps": {k: round(v, 1) for k, v in throughput.items()},
              "threads": args.threads,
              "ratios": {"api_over_raw_p50": round(stats["api"]["p50"] / stats["raw"]["p50"], 2),
                         "api_over_raw_p99": round(stats["api"]["p99"] / stats["raw"]["p99"], 2),
                         "api_over_raw_throughput": round(throughput["api"] / throughput["raw"], 2),
                         "api_minus_raw_p50_ms": round(stats["api"]["p50"] - stats["raw"]["p50"], 1),
                         "bare_p50_ms": stats["bare"]["p50"]}}
    path = save("search", result)
    for name in targets:
        print(f"{name:5} p50 {stats[name]['p50']:7.1f} ms  p99 {stats[name]['p99']:7.1f} ms  "
              f"{throughput[name]:7.1f} req/s")
    print(f"suggest p50 {stats['suggest']['p50']:.1f} ms  p99 {stats['suggest']['p99']:.1f} ms")
    print(f"api/raw: p50 x{result['ratios']['api_over_raw_p50']}, p99 x{result['ratios']['api_over_raw_p99']}, "
          f"throughput x{result['ratios']['api_over_raw_throughput']}  ({path})")


if __name__ == "__main__":
    main()
