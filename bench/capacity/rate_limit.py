"""One abusive client against everyone else: 429s for it, normal latency for the others.

Client A (one address) floods the most expensive route (CSV exports) from several threads;
client B (another address) searches meanwhile. B's uncached search latency is measured
first with A idle (the same-run baseline), then during the flood; A's answers are counted
(429 with ``Retry-After`` once past its budget). Runs the web app in process over the
live index (``PAPERLIST_INDEX``) with its real Redis-backed limiter; the client address
comes from ``X-Forwarded-For`` as nginx sets it. Every loop is bounded in count and time.

    python -m bench.capacity.rate_limit [--searches 100] [--flooders 4] [--limit 600/minute] [--rate 50]
"""

from __future__ import annotations

import argparse
import threading
import time
from collections import Counter

from bench.harness import percentiles, save
from services.settings import load_settings
from services.web.app import create_app

QUERIES = ["graph neural network", "diffusion", "reinforcement learning", "object detection", "bandit",
           "language model", "causal inference", "point cloud", "federated learning", "robot grasping"]
NO_CACHE = {"Cache-Control": "no-cache"}
FLOOD_CAP = 20_000  # requests per flooding thread, whatever happens


def searches(client, address: str, n: int, tag: str) -> list[float]:
    took = []
    for i in range(n):
        started = time.perf_counter()
        resp = client.get("/api/v1/search", query_string={"q": f"{QUERIES[i % len(QUERIES)]} {tag}{i}"},
                          headers={**NO_CACHE, "X-Forwarded-For": address})
        took.append((time.perf_counter() - started) * 1000)
        if resp.status_code != 200:
            raise SystemExit(f"error: client B got {resp.status_code}: {resp.get_data(as_text=True)[:200]}")
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--searches", type=int, default=100, help="client B's searches per phase")
    parser.add_argument("--flooders", type=int, default=4, help="client A's threads")
    parser.add_argument("--rate", type=float, default=0.0,
                        help="cap client A's requests per second (0: as fast as it can); the front's "
                             "per-address guard (nginx limit_req, 50 r/s) is what reaches the app in production")
    parser.add_argument("--limit", default="600/minute",
                        help="the per-client budget for this run (B stays within it; A's exports cost 30 each)")
    args = parser.parse_args()
    settings = load_settings().model_copy(update={"rate_limit_enabled": True, "rate_limit": args.limit})
    app = create_app(settings)
    app.testing = False
    stamp = int(time.time())
    abuser, other = f"203.0.113.{stamp % 200 + 1}", f"198.51.100.{stamp % 200 + 1}"

    searches(app.test_client(), other, 5, "warm")
    baseline = searches(app.test_client(), other, args.searches, "base")

    stop = threading.Event()
    statuses: Counter[int] = Counter()
    retry_after: list[int] = []
    lock = threading.Lock()

    gap = args.flooders / args.rate if args.rate > 0 else 0.0  # seconds between one thread's requests

    def flood() -> None:
        client = app.test_client()
        for _ in range(FLOOD_CAP):
            if stop.wait(gap) if gap else stop.is_set():
                return
            resp = client.get("/api/v1/export", query_string={"q": "learning", "format": "csv"},
                              headers={"X-Forwarded-For": abuser})
            with lock:
                statuses[resp.status_code] += 1
                if resp.status_code == 429 and len(retry_after) < 1000:
                    retry_after.append(int(resp.headers.get("Retry-After", "-1")))
            resp.close()

    threads = [threading.Thread(target=flood, daemon=True) for _ in range(args.flooders)]
    for t in threads:
        t.start()
    waited = time.monotonic()
    while not statuses[429] and time.monotonic() - waited < 120:  # A is past its budget before B starts
        time.sleep(0.05)
    try:
        during = searches(app.test_client(), other, args.searches, "flood")
    finally:
        stop.set()
        for t in threads:
            t.join(timeout=60)
    base, flood_stats = percentiles(baseline), percentiles(during)
    result = {"limit": args.limit, "flooders": args.flooders, "rate": args.rate, "abuser_statuses": dict(statuses),
              "retry_after_min": min(retry_after, default=None), "b_baseline_ms": base, "b_during_ms": flood_stats,
              "ratio_p50": round(flood_stats["p50"] / base["p50"], 2), "ratio_p99": round(flood_stats["p99"] / base["p99"], 2)}
    print(f"client A: {dict(statuses)} (Retry-After ≥ {result['retry_after_min']} s)")
    print(f"client B search: A idle p50 {base['p50']:.1f} ms p99 {base['p99']:.1f} ms | "
          f"A flooding p50 {flood_stats['p50']:.1f} ms p99 {flood_stats['p99']:.1f} ms "
          f"(x{result['ratio_p50']} p50)  ({save('rate-limit', result)})")


if __name__ == "__main__":
    main()
