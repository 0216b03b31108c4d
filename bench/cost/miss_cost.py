"""What an uncached search costs next to Elasticsearch's query alone, interleaved in one run.

Issue 17's miss target: the uncached API p50 is at most 2x raw Elasticsearch's query-only
p50 for the same queries. For a fixed seeded set of real text queries (the load test's
generator, bench/querymix.py) each query is sent, in a shuffled order per query, as:

- ``es_query``: the body the service sends (:func:`services.search.query.semantic.build_ranked`)
  minus its aggregations, highlight and suggest: query, sort, paging, total, ``_source``;
- ``es_full``: that body whole (facet aggregations and highlight), one request;
- ``es_no_highlight`` / ``es_no_aggs``: the whole body without one part (each part's share);
- ``api``: ``GET /api/v1/search?q=…`` uncached (``harness.UNCACHED``: the result cache and the
  edge both bypassed), through the front (nginx) by default.

- ``api_baseline`` (with ``--baseline-url``): the same API call to another server on the same
  index (say, a gunicorn of main beside one of a branch), in the same shuffled order: a change
  is compared query by query under one load, not between runs whose load differs.

Every raw request carries ``request_cache=false``. The API's surplus over ``es_full`` is
what the service adds: Python, serialisation, and any second request (the correction /
"still typing" counts under ``SUGGEST_BELOW`` hits), counted per query from the answer.

    python -m bench.cost.miss_cost [--url http://127.0.0.1:8033] [--queries 100] [--corpus DIR] [--baseline-url URL]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

import requests

from bench.harness import UNCACHED, checked_text_query_arguments, percentiles, ready_web, save, text_query_arguments
from bench.querymix import load_records, text_queries
from services.search.limits import SUGGEST_BELOW
from services.search.query.request import parse_request
from services.search.query.semantic import build_ranked
from services.settings import load_settings

JSON = {"Content-Type": "application/json"}


class Refused(Exception):
    """The API did not answer 200."""


def _note(row: dict, name: str, answer: dict) -> dict:
    """The row with what one variant's answer says (totals, Elasticsearch's own time)."""
    if name == "es_query":
        row.update(es_took=answer["took"], total=answer["hits"]["total"]["value"])
    elif name == "es_full":
        row["es_full_took"] = answer["took"]
    elif name == "api":
        row["api_total"] = answer["total"]
    return row


def bodies(q: str, params: dict[str, list[str]] | None = None) -> dict[str, dict]:
    """The raw variants of one query (with the API's other ``params``), as the service would build them."""
    full = build_ranked(parse_request({"q": [q], **(params or {})}, allow_search_after=True))
    full.pop("suggest", None)
    drop = lambda *keys: {k: v for k, v in full.items() if k not in keys}  # noqa: E731
    return {"es_query": drop("aggs", "highlight"), "es_full": full,
            "es_no_highlight": drop("highlight"), "es_no_aggs": drop("aggs")}


def es_query_only(session, es: str, index: str, body: dict) -> tuple[float, dict]:
    """One raw search straight to Elasticsearch (``request_cache=false``): client-side ms and the answer."""
    started = time.perf_counter()
    resp = session.post(f"{es}/{index}/_search", params={"request_cache": "false"},
                        data=json.dumps(body), headers=JSON, timeout=60)
    elapsed = (time.perf_counter() - started) * 1000
    resp.raise_for_status()
    return elapsed, resp.json()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    text_query_arguments(parser, queries=100)
    parser.add_argument("--es", default=None, help="default: ES_URL")
    parser.add_argument("--index", default=None, help="default: PAPERLIST_INDEX")
    parser.add_argument("--baseline-url", default=None,
                        help="another server on the same index, asked the same queries interleaved (api_baseline)")
    parser.add_argument("--proxy-url", default=None,
                        help="bench/cost/es_proxy.py under gunicorn: the same search passed through a bare Python "
                             "worker "
                             "(proxy), the floor of any web tier's surplus")
    parser.add_argument("--label", default="", help="a word for the result file (the variant under test)")
    args = checked_text_query_arguments(parser)

    settings = load_settings()
    web = ready_web(settings, args.url)
    es = (args.es or settings.es_url).rstrip("/")
    index = args.index or settings.index
    session = requests.Session()
    corpus = Path(args.corpus) if args.corpus else settings.corpus_dir
    print(f"loading {corpus} into memory…", file=sys.stderr)
    queries = text_queries(load_records(corpus, args.step), args.queries, args.seed)

    def raw(body: dict) -> tuple[float, dict]:
        return es_query_only(session, es, index, body)

    def api(q: str, web: str = web, path: str = "/api/v1/search") -> tuple[float, dict]:
        started = time.perf_counter()
        resp = session.get(f"{web}{path}", params={"q": q}, headers=UNCACHED, timeout=60)
        elapsed = (time.perf_counter() - started) * 1000
        if resp.status_code != 200:
            raise Refused(f"the API answered {resp.status_code} to q={q[:80]!r}: {resp.text[:200]}")
        return elapsed, resp.json()

    baseline = args.baseline_url.rstrip("/") if args.baseline_url else None
    proxy = args.proxy_url.rstrip("/") if args.proxy_url else None
    for _, q in queries[:5]:  # connections and the engine warm, not the answers
        api(q + " warmup")
        if baseline:
            api(q + " warmup", baseline)
        if proxy:
            api(q + " warmup", proxy, "/")
        raw(bodies(q + " warmup")["es_query"])
    rng = random.Random(args.seed)
    rows, refused = [], []
    load_before = os.getloadavg()
    deadline = time.monotonic() + args.budget
    for kind, q in queries:
        if time.monotonic() > deadline:
            print(f"budget of {args.budget:g}s spent after {len(rows)} queries", file=sys.stderr)
            break
        variants = {name: (lambda b=body: raw(b)) for name, body in bodies(q).items()}
        variants["api"] = lambda: api(q)
        if baseline:
            variants["api_baseline"] = lambda: api(q, baseline)
        if proxy:
            variants["proxy"] = lambda: api(q, proxy, "/")
        row: dict = {"kind": kind, "q": q}
        try:
            for name in rng.sample(list(variants), len(variants)):
                row[f"{name}_ms"], answer = variants[name]()
                row = _note(row, name, answer)
        except Refused as exc:  # an overloaded machine's 503: counted, the query left out of the figures
            refused.append(str(exc))
            print(f"left out: {exc}", file=sys.stderr)
            continue
        row["second_request"] = row["total"] < SUGGEST_BELOW
        rows.append(row)

    names = ["es_query", "es_full", "es_no_highlight", "es_no_aggs", "api"] + (["api_baseline"] if baseline else []) \
        + (["proxy"] if proxy else [])
    stats = {name: {k: round(v, 2) for k, v in percentiles([r[f"{name}_ms"] for r in rows]).items()} for name in names}
    stats["es_query_took"] = percentiles([r["es_took"] for r in rows])
    stats["es_full_took"] = percentiles([r["es_full_took"] for r in rows])
    few = [r for r in rows if r["second_request"]]
    result = {"url": web, "through": "nginx front" if web.endswith(str(settings.port)) else web,
              "index": index, "queries": len(rows), "seed": args.seed, "label": args.label,
              "loadavg_before": load_before, "loadavg_after": os.getloadavg(),
              "ms": stats,
              "ratio_api_over_es_query_p50": round(stats["api"]["p50"] / stats["es_query"]["p50"], 2),
              "ratio_api_over_es_query_p99": round(stats["api"]["p99"] / stats["es_query"]["p99"], 2),
              "ratio_es_full_over_es_query_p50": round(stats["es_full"]["p50"] / stats["es_query"]["p50"], 2),
              # Issue 34's figure: the API against Elasticsearch answering the same whole body, and what it adds.
              "ratio_api_over_es_full_p50": round(stats["api"]["p50"] / stats["es_full"]["p50"], 2),
              "surplus_over_es_full_p50": round(statistics.median(r["api_ms"] - r["es_full_ms"] for r in rows), 2),
              "refused": refused,
              "queries_under_suggest_below": len(few),
              "api_p50_those": round(statistics.median(r["api_ms"] for r in few), 1) if few else None,
              "rows": rows}
    if baseline:
        result["baseline_url"] = baseline
        result["ratio_baseline_over_es_query_p50"] = round(stats["api_baseline"]["p50"] / stats["es_query"]["p50"], 2)
        result["median_api_over_baseline"] = round(statistics.median(r["api_ms"] / r["api_baseline_ms"] for r in rows), 3)
    if proxy:
        result["proxy_url"] = proxy
        result["ratio_api_over_proxy_p50"] = round(stats["api"]["p50"] / stats["proxy"]["p50"], 2)
        result["proxy_surplus_over_es_full_p50"] = round(
            statistics.median(r["proxy_ms"] - r["es_full_ms"] for r in rows), 2)
    path = save(f"miss-cost{'-' + args.label if args.label else ''}", result)
    print(f"{len(rows)} queries, {index}, load {load_before[0]:.2f} -> {os.getloadavg()[0]:.2f}")
    for name in names:
        print(f"{name:16s} p50 {stats[name]['p50']:7.1f} ms  p99 {stats[name]['p99']:7.1f} ms")
    print(f"ES took (server) p50: query {stats['es_query_took']['p50']:.0f} ms, full {stats['es_full_took']['p50']:.0f} ms")
    print(f"API/es_query: x{result['ratio_api_over_es_query_p50']} (p50), x{result['ratio_api_over_es_query_p99']} "
          f"(p99); es_full/es_query x{result['ratio_es_full_over_es_query_p50']} (p50); "
          f"{len(few)} queries under {SUGGEST_BELOW} hits; {len(refused)} refused  ({path})")
    print(f"API/es_full: x{result['ratio_api_over_es_full_p50']} (p50s); API - es_full per query, median: "
          f"{result['surplus_over_es_full_p50']} ms")
    if proxy:
        print(f"proxy - es_full per query, median: {result['proxy_surplus_over_es_full_p50']} ms (a bare Python "
              f"worker's floor); API/proxy: x{result['ratio_api_over_proxy_p50']} (p50s)")
    if baseline:
        print(f"baseline/es_query: x{result['ratio_baseline_over_es_query_p50']} (p50); api/baseline per query, "
              f"median: x{result['median_api_over_baseline']}")


if __name__ == "__main__":
    main()
