"""What the trends chart adds to a results page: Elasticsearch time and page time, with and without.

For each query of a mix (title words of the sample corpus, some with a facet filter), in a
seeded alternating order, the results page is rendered in-process (Flask test client, no
network) with the chart and with the chart switched off, and the stats body is sent to
Elasticsearch beside the search body to read both ``took`` values. Medians and p90s are
printed (and saved with ``--out``).

    python -m bench.cost.trends --index papers [--queries 60] [--out run/trends.json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from pathlib import Path

from services.search.answers.stats import trends_body
from services.search.engine.client import make_client
from services.search.query.request import parse_request
from services.search.query.search_body import build_search
from services.settings import load_settings
from services.web.app import create_app
from services.web.views import pages

WORDS = ("learning", "diffusion models", "graph", "robot", "transformer", "reinforcement learning", "3d",
         "language", "detection", "optimization", "", "causal", "segmentation", "privacy", "kernel")
FILTERS = ({}, {}, {"year": "2020-2025"}, {"conference": "iclr"}, {"topic": "computer-vision"})


def _pct(values: list[float], q: float) -> float:
    return sorted(values)[min(len(values) - 1, int(q * len(values)))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--index", default=None, help="alias to read (default: PAPERLIST_INDEX)")
    ap.add_argument("--queries", type=int, default=60)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    settings = load_settings(**({"PAPERLIST_INDEX": args.index} if args.index else {}))
    app = create_app(settings)
    client = app.test_client()
    es = make_client(settings)
    rng = random.Random(7)
    with_chart = pages.trends_of
    off = lambda req, total: None  # noqa: E731
    times: dict[str, list[float]] = {"page_with_chart_ms": [], "page_without_chart_ms": [],
                                     "es_search_took_ms": [], "es_stats_took_ms": []}
    for _ in range(2):  # warm-up
        client.get("/search?q=learning")
    for i in range(args.queries):
        params = {"q": rng.choice(WORDS), **rng.choice(FILTERS)}
        req = parse_request({k: [v] for k, v in params.items()})
        order = [True, False] if i % 2 else [False, True]
        for chart in order:
            pages.trends_of = with_chart if chart else off
            started = time.perf_counter()
            resp = client.get("/search", query_string=params)
            elapsed = (time.perf_counter() - started) * 1000
            assert resp.status_code == 200, resp.status_code
            times["page_with_chart_ms" if chart else "page_without_chart_ms"].append(elapsed)
        pages.trends_of = with_chart
        times["es_search_took_ms"].append(es.search(index=settings.index, **build_search(req))["took"])
        times["es_stats_took_ms"].append(es.search(index=settings.index, **trends_body(req))["took"])
    summary = {name: {"p50": round(statistics.median(v), 1), "p90": round(_pct(v, 0.9), 1)}
               for name, v in times.items()}
    added = [a - b for a, b in zip(times["page_with_chart_ms"], times["page_without_chart_ms"], strict=True)]
    summary["added_ms"] = {"p50": round(statistics.median(added), 1), "p90": round(_pct(added, 0.9), 1)}
    summary["index"], summary["queries"] = settings.index, args.queries
    print(json.dumps(summary, indent=1))
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(summary, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
