"""Same-run baseline: how users search today, a linear scan of the corpus in memory.

The scan: every record's title, abstract, keywords and primary area, joined and
lowercased once at load (untimed, "the data already in memory"); a query is split on
whitespace and lowercased, and a record matches when every word is a substring of that
text (an AND of the words). Each query of a fixed set — the load test's text-query
generator (bench/querymix.py): exact titles, title fragments, keywords, author names —
is timed on the scan, on ``GET /api/v1/search`` (uncached: result cache and edge bypassed)
and on raw Elasticsearch's query alone for the same request (as bench/cost/miss_cost.py builds
it: :func:`services.search.query.semantic.build_ranked`'s body minus aggregations, highlight and
suggest, ``request_cache=false``, posted straight to ES_URL), in a random order per query.
scan/ES is the ceiling any app over Elasticsearch could reach beside scan/API.

Reported: per-query latency of both, the speed ratio scan/API, and the hit counts: the
share of queries where the API's total is at least the scan's count. The API is asked
for every status by default, so both search the same records (``--visible-only`` asks it
as a visitor does, rejected and withdrawn papers hidden).

    python -m bench.cost.linear_scan [--url http://127.0.0.1:8000] [--queries 200] [--corpus DIR] [--es URL]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

import requests

from bench.cost.miss_cost import bodies, es_query_only
from bench.harness import UNCACHED, checked_text_query_arguments, percentiles, ready_web, save, text_query_arguments
from bench.querymix import load_records, scan_count, text_queries
from services.search.catalogue import STATUSES
from services.settings import load_settings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    text_query_arguments(parser, queries=200)
    parser.add_argument("--visible-only", action="store_true", help="ask the API without a status filter")
    parser.add_argument("--es", default=None, help="Elasticsearch for the raw query (default: ES_URL)")
    args = checked_text_query_arguments(parser)

    settings = load_settings()
    web = ready_web(settings, args.url)
    session = requests.Session()

    corpus = Path(args.corpus) if args.corpus else settings.corpus_dir
    print(f"loading {corpus} into memory…", file=sys.stderr)
    records = load_records(corpus, args.step)
    texts = [r.scan_text() for r in records]
    queries = text_queries(records, args.queries, args.seed)
    statuses = {} if args.visible_only else {"status": list(STATUSES)}
    es_url = (args.es or settings.es_url).split(",")[0].rstrip("/")
    es_session = requests.Session()

    def api(q: str) -> tuple[float, int]:
        started = time.perf_counter()
        resp = session.get(f"{web}/api/v1/search", params={"q": q, **statuses}, headers=UNCACHED, timeout=60)
        elapsed = (time.perf_counter() - started) * 1000
        if resp.status_code != 200:
            raise SystemExit(f"error: the API answered {resp.status_code} to q={q[:80]!r}: {resp.text[:200]}")
        return elapsed, resp.json()["total"]

    def es(q: str) -> tuple[float, int]:
        elapsed, answer = es_query_only(es_session, es_url, settings.index, bodies(q, statuses)["es_query"])
        return elapsed, answer["hits"]["total"]["value"]

    def scan(q: str) -> tuple[float, int]:
        started = time.perf_counter()
        count = scan_count(texts, q)
        return (time.perf_counter() - started) * 1000, count

    for _, q in queries[:5]:  # connections and the engine warm, not the answers
        api(q + " warmup")
        es(q + " warmup")
    rng = random.Random(args.seed)
    rows = []
    load_before = os.getloadavg()
    deadline = time.monotonic() + args.budget
    for kind, q in queries:
        if time.monotonic() > deadline:
            print(f"budget of {args.budget:g}s spent after {len(rows)} queries", file=sys.stderr)
            break
        timed = {}
        for name, fn in rng.sample([("scan", scan), ("api", api), ("es", es)], 3):
            timed[name] = fn(q)
        rows.append({"kind": kind, "q": q, "scan_ms": timed["scan"][0], "scan_hits": timed["scan"][1],
                     "api_ms": timed["api"][0], "api_total": timed["api"][1],
                     "es_ms": timed["es"][0], "es_total": timed["es"][1]})

    scan_stats = percentiles([r["scan_ms"] for r in rows])
    api_stats = percentiles([r["api_ms"] for r in rows])
    es_stats = percentiles([r["es_ms"] for r in rows])
    covered = [r for r in rows if r["api_total"] >= r["scan_hits"]]
    by_kind = {}
    for kind in sorted({r["kind"] for r in rows}):
        mine = [r for r in rows if r["kind"] == kind]
        by_kind[kind] = {"queries": len(mine), "api_at_least_scan": sum(r["api_total"] >= r["scan_hits"] for r in mine),
                         "scan_ms_p50": round(statistics.median(r["scan_ms"] for r in mine), 1),
                         "api_ms_p50": round(statistics.median(r["api_ms"] for r in mine), 1),
                         "es_ms_p50": round(statistics.median(r["es_ms"] for r in mine), 1)}
    shortfalls = sorted((r for r in rows if r["api_total"] < r["scan_hits"]),
                        key=lambda r: r["api_total"] - r["scan_hits"])
    result = {"url": web, "index": settings.index, "corpus": str(corpus), "records": len(records),
              "queries": len(rows), "seed": args.seed, "api_statuses": "visible" if args.visible_only else "all",
              "scan_ms": {k: round(v, 2) for k, v in scan_stats.items()},
              "api_ms": {k: round(v, 2) for k, v in api_stats.items()},
              "speed_ratio_scan_over_api_mean": round(scan_stats["mean"] / api_stats["mean"], 2),
              "speed_ratio_scan_over_api_p50": round(scan_stats["p50"] / api_stats["p50"], 2),
              # raw Elasticsearch's query alone, same queries interleaved: the ceiling of any app over it
              "es": es_url, "es_ms": {k: round(v, 2) for k, v in es_stats.items()},
              "speed_ratio_scan_over_es_mean": round(scan_stats["mean"] / es_stats["mean"], 2),
              "speed_ratio_scan_over_es_p50": round(scan_stats["p50"] / es_stats["p50"], 2),
              "api_over_es_p50": round(api_stats["p50"] / es_stats["p50"], 2),
              "loadavg_before": [round(x, 2) for x in load_before],
              "loadavg_after": [round(x, 2) for x in os.getloadavg()],
              "api_at_least_scan_share": round(len(covered) / len(rows), 4) if rows else None,
              "by_kind": by_kind,
              "shortfalls": [{k: r[k] for k in ("kind", "q", "scan_hits", "api_total")} for r in shortfalls[:50]],
              "rows": rows}
    path = save("linear-scan", result)
    for r in shortfalls[:10]:
        print(f"fewer: {r['kind']:8} {r['q'][:70]!r}: scan {r['scan_hits']}, API {r['api_total']}", file=sys.stderr)
    print(f"{len(rows)} queries over {len(records):,} records in memory")
    print(f"linear scan: p50 {scan_stats['p50']:.1f} ms, mean {scan_stats['mean']:.1f} ms per query")
    print(f"API (uncached): p50 {api_stats['p50']:.1f} ms, p99 {api_stats['p99']:.1f} ms, mean {api_stats['mean']:.1f} ms")
    print(f"raw Elasticsearch (query only): p50 {es_stats['p50']:.1f} ms, p99 {es_stats['p99']:.1f} ms, "
          f"mean {es_stats['mean']:.1f} ms")
    print(f"speed ratio scan/ES: x{result['speed_ratio_scan_over_es_mean']} (means), "
          f"x{result['speed_ratio_scan_over_es_p50']} (p50s): the ceiling of an app over Elasticsearch; "
          f"load average {load_before[0]:.2f} -> {os.getloadavg()[0]:.2f}")
    print(f"speed ratio scan/API: x{result['speed_ratio_scan_over_api_mean']} (means), "
          f"x{result['speed_ratio_scan_over_api_p50']} (p50s); API found at least as many in "
          f"{len(covered)}/{len(rows)} queries  ({path})")


if __name__ == "__main__":
    main()
