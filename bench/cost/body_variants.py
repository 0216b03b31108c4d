"""Raw Elasticsearch time of search-body variants, interleaved so machine load cancels out.

Each query of the fixed mix (``bench/querymix.py``'s ``query_mix``) is sent as every variant,
in a shuffled order per query and round, with ``request_cache=false``; medians per variant are printed. Variants:
``old_full`` (every facet counted, phrase suggester inline — the body before issue 9),
``new_default`` (what ``build_search`` sends now), ``new_no_highlight`` (the highlight's share).

    python -m bench.cost.body_variants [--index papers] [--queries 12] [--rounds 3]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

import requests

from bench.querymix import query_mix
from services.search.query.request import parse_request
from services.search.query.search_body import build_search, build_suggest


def variants(args: dict[str, list[str]]) -> dict[str, dict]:
    req = parse_request(args)
    new = build_search(req)
    old = build_search(parse_request({**args, "facets": [",".join(req.facets.names)]}))
    suggest = build_suggest(req)
    if suggest:
        old["suggest"] = suggest
    bare = {k: v for k, v in new.items() if k != "highlight"}
    return {"old_full": old, "new_default": new, "new_no_highlight": bare}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--es", default="http://127.0.0.1:9200")
    ap.add_argument("--index", default="papers")
    ap.add_argument("--queries", type=int, default=12)
    ap.add_argument("--rounds", type=int, default=3)
    opts = ap.parse_args()
    session = requests.Session()

    def timed(body: dict) -> float:
        start = time.perf_counter()
        resp = session.post(f"{opts.es}/{opts.index}/_search", params={"request_cache": "false"},
                            data=json.dumps(body), headers={"Content-Type": "application/json"}, timeout=60)
        resp.raise_for_status()
        return (time.perf_counter() - start) * 1000

    bodies = [variants({k: v if isinstance(v, list) else [v] for k, v in params.items()})
              for params in query_mix(opts.queries, 7)]
    times: dict[str, list[float]] = {name: [] for name in bodies[0]}
    rng = random.Random(1)
    for _ in range(opts.rounds):
        for body in bodies:
            for name in rng.sample(list(body), len(body)):
                times[name].append(timed(body[name]))
    for name, ms in times.items():
        print(f"{name:18s} median {statistics.median(ms):8.1f} ms  (n={len(ms)})")


if __name__ == "__main__":
    main()
