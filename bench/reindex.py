"""A full rebuild of the live index under search load: its duration, and latency before vs during.

Searches run continuously through the JSON API for a baseline period, then during a
``paperlist reindex`` (the Celery task, through the running stack), and the p50/p99 of
both periods are compared. Every failed or empty answer is counted; there must be none.

    python bench/reindex.py [--url http://127.0.0.1:8000] [--baseline 30]
"""

from __future__ import annotations

import argparse
import threading
import time
from urllib.parse import urlencode

import redis
import requests

from harness import percentiles, save
from search import query_mix
from services.indexer.celery_app import create_celery
from services.indexer.reindex import ReindexState, request_reindex
from services.search import indices
from services.search.client import make_client
from services.settings import load_settings


class Load:
    def __init__(self, web: str, threads: int = 2):
        self.web = web
        self.samples: list[tuple[float, float, bool]] = []  # (when, ms, ok)
        self.stop = threading.Event()
        self.threads = [threading.Thread(target=self._run, args=(i,), daemon=True) for i in range(threads)]
        self.mix = query_mix(500, 11)

    def _run(self, n: int) -> None:
        session = requests.Session()
        i = n
        while not self.stop.is_set():
            params = {**self.mix[i % len(self.mix)], "page_size": 10}
            i += 1
            started = time.perf_counter()
            try:
                r = session.get(f"{self.web}/api/v1/search?{urlencode(params, doseq=True)}", timeout=30)
                ok = r.status_code == 200 and r.json()["total"] >= 0
            except requests.RequestException:
                ok = False
            self.samples.append((time.monotonic(), (time.perf_counter() - started) * 1000, ok))

    def start(self):
        for t in self.threads:
            t.start()

    def finish(self):
        self.stop.set()
        for t in self.threads:
            t.join()

    def window(self, start: float, end: float) -> dict:
        picked = [s for s in self.samples if start <= s[0] < end]
        stats = percentiles([ms for _, ms, ok in picked if ok])
        return {"requests": len(picked), "failed": sum(not ok for *_, ok in picked),
                **{k: round(v, 1) for k, v in stats.items()}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", default=None)
    parser.add_argument("--baseline", type=float, default=30.0, help="seconds of load before the rebuild")
    parser.add_argument("--from-sources", action="store_true")
    args = parser.parse_args()

    settings = load_settings()
    web = args.url or f"http://{settings.host}:{settings.port}"
    if requests.get(f"{web}/readyz", timeout=5).status_code != 200:
        raise SystemExit(f"{web} is not ready: start the stack with `paperlist up` and ingest the corpus")
    es = make_client(settings)
    client = redis.Redis.from_url(settings.redis_url)
    state = ReindexState(client, settings.index)
    before_index = indices.current_index(es, settings.index)
    papers = es.count(index=settings.index)["count"]

    load = Load(web)
    load.start()
    t0 = time.monotonic()
    time.sleep(args.baseline)
    t1 = time.monotonic()
    run_id, _ = request_reindex(client, create_celery(settings), settings, settings.index, args.from_sources)
    while True:
        current = state.load()
        if current.get("run_id") == run_id and current.get("phase") in ("done", "failed", "abandoned"):
            break
        time.sleep(0.5)
    t2 = time.monotonic()
    time.sleep(5)
    load.finish()
    result = {
        "index": settings.index, "papers": papers, "from_sources": args.from_sources,
        "old_index": before_index, "new_index": indices.current_index(es, settings.index),
        "phase": current.get("phase"), "message": current.get("message"),
        "rebuild_seconds": round(t2 - t1, 1),
        # the run's own clock: new data serving (alias swapped), then the one-segment merge after it
        "serving_seconds": float(current.get("serving_seconds", "nan")),
        "merge_seconds": float(current.get("merge_seconds", "nan")),
        "latency_before_ms": load.window(t0, t1),
        "latency_during_ms": load.window(t1, t2),
        "latency_after_ms": load.window(t2, t2 + 5),
    }
    before, during = result["latency_before_ms"], result["latency_during_ms"]
    result["ratio_during_over_before"] = {"p50": round(during["p50"] / before["p50"], 2),
                                          "p99": round(during["p99"] / before["p99"], 2)}
    path = save("reindex", result)
    print(f"rebuild of {papers:,} papers: {result['phase']} in {result['rebuild_seconds']}s "
          f"({before_index} -> {result['new_index']}); serving after {result['serving_seconds']}s, "
          f"then merged in {result['merge_seconds']}s")
    print(f"search before: p50 {before['p50']} ms, p99 {before['p99']} ms ({before['requests']} requests, "
          f"{before['failed']} failed)")
    print(f"search during: p50 {during['p50']} ms, p99 {during['p99']} ms ({during['requests']} requests, "
          f"{during['failed']} failed)  ({path})")


if __name__ == "__main__":
    main()
