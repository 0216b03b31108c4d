"""What a broad search costs next to a narrow one, uncached, interleaved in one run (issue 34).

A broad search (``learning``: 137k of 250k papers) scores every match to rank them, counts
them exactly and counts its facets over them; a narrow one (four words of a title) does the
same over a few hundred. The API answers both uncached (``harness.UNCACHED``), interleaved
in a random order, and beside each the raw Elasticsearch bodies tell where the difference
lies: the body the service sends, the same without aggregations and highlight (its query
alone: ranking and the exact count, the floor no facet strategy lowers) and the count alone
(no scoring).

Reported: the broad miss p50 over the narrow miss p50 (the issue's target: at most 3x), and
the floor: the broad query alone over the narrow whole body; and what the sample saves (the body
with every facet counted exactly, as before issue 34).

    python3 -m bench.cost.broad_cost [--url http://127.0.0.1:8000] [--rounds 15]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

import requests

from bench.harness import UNCACHED, percentiles, ready_web, save
from bench.querymix import BROAD, load_records
from services.search.query.breadth import count_body, sample_share
from services.search.query.request import parse_request
from services.search.query.search_body import sample_facets
from services.search.query.semantic import build_ranked
from services.settings import load_settings


def narrow_queries(corpus: Path, n: int, seed: int) -> list[str]:
    """Four words of real titles (the first four of a title of at least six)."""
    titles = [r.title for r in load_records(corpus, 7) if len(r.title.split()) >= 6]
    return [" ".join(t.split()[:4]) for t in random.Random(seed).sample(titles, n)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", default=None, help="web service (default: PAPERLIST_HOST:PAPERLIST_PORT)")
    parser.add_argument("--rounds", type=int, default=15, help="each query asked this many times (1-50)")
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    if not 1 <= args.rounds <= 50:
        parser.error("--rounds: 1-50")
    settings = load_settings()
    web = ready_web(settings, args.url)
    es = f"{settings.es_hosts[0].rstrip('/')}/{settings.index}/_search"
    session = requests.Session()
    narrow = narrow_queries(settings.corpus_dir, len(BROAD), args.seed)
    rng = random.Random(args.seed)
    samples: dict[str, list[float]] = {}

    def timed(name: str, call) -> None:
        started = time.perf_counter()
        resp = call()
        resp.raise_for_status()
        samples.setdefault(name, []).append((time.perf_counter() - started) * 1000)

    def raw(body: dict):
        return session.post(es, params={"request_cache": "false"}, json=body, timeout=60)

    jobs = []
    for kind, queries in (("broad", BROAD), ("narrow", narrow)):
        for q in queries:
            exact = build_ranked(parse_request({"q": [q]}))
            check = count_body(parse_request({"q": [q]}), exact)
            # The body the service sends: facets on a sample when broad.
            body = sample_facets(exact, sample_share(raw(check).json()["hits"]["total"]["value"])) if check else exact
            alone = {k: v for k, v in body.items() if k not in ("aggs", "highlight")}
            jobs += [(f"{kind} api", lambda q=q: session.get(f"{web}/api/v1/search", params={"q": q},
                                                             headers=UNCACHED, timeout=60)),
                     (f"{kind} es body", lambda b=body: raw(b)),
                     (f"{kind} es body, facets exact", lambda b=exact: raw(b)),
                     (f"{kind} es query alone", lambda b=alone: raw(b)),
                     (f"{kind} es count", lambda b=body: raw({"query": b["query"], "size": 0,
                                                                "track_total_hits": True}))]
    for name, call in jobs:  # warm the connections and the engine
        call()
    deadline = time.monotonic() + 300
    for _ in range(args.rounds):
        if time.monotonic() > deadline:
            print("stopped at the 300 s bound", file=sys.stderr)
            break
        for name, call in rng.sample(jobs, len(jobs)):
            timed(name, call)
    stats = {name: percentiles(values) for name, values in sorted(samples.items())}
    p50 = {name: statistics.median(values) for name, values in samples.items()}
    result = {"url": web, "index": settings.index, "broad": BROAD, "narrow": narrow, "ms": stats,
              "broad_over_narrow_es_body_p50": round(p50["broad es body"] / p50["narrow es body"], 2),
              "broad_over_narrow_es_exact_p50": round(p50["broad es body, facets exact"] / p50["narrow es body"], 2),
              "broad_over_narrow_api_p50": round(p50["broad api"] / p50["narrow api"], 2),
              "broad_query_alone_over_narrow_body_p50": round(p50["broad es query alone"] / p50["narrow es body"], 2)}
    for name in sorted(stats):
        print(f"{name:24s} p50 {stats[name]['p50']:7.1f} ms  p99 {stats[name]['p99']:7.1f} ms")
    print(f"broad / narrow, Elasticsearch's body p50: x{result['broad_over_narrow_es_body_p50']} (facets counted "
          f"exactly: x{result['broad_over_narrow_es_exact_p50']})")
    print(f"broad / narrow, API p50: x{result['broad_over_narrow_api_p50']} (target <= 3); the floor, the broad "
          f"query alone / the narrow whole body: x{result['broad_query_alone_over_narrow_body_p50']}  "
          f"({save('broad-cost', result)})")


if __name__ == "__main__":
    main()
