"""The capacity model on paper, from the measured cost table: what 100, 1,000 and 10,000 req/s need (issue 34).

Inputs, all measured on this machine and read from bench/results/: the CPU per request of
each kind (bench/capacity/request_cost.py: Elasticsearch, gunicorn, nginx) and the run of
bench/capacity/capacity.py (the knee, the hit ratios reached, the machine's other work). The model:

* the mix's kinds in bench/querymix.py's shares; a miss costs their weighted mean, an app hit
  (Redis) its own row, an edge hit nginx's CPU only;
* of R requests a second, ``h_e`` are edge hits and ``h_a`` of the rest app hits:
  Elasticsearch needs ``R (1 - h_e)(1 - h_a) C_es`` CPU, gunicorn
  ``R (1 - h_e)((1 - h_a) C_web + h_a c_app)``, nginx ``R c_nginx``;
* a core is planned busy at most ``--utilisation`` (the tail holds below it); a data node or a
  web host has ``--node-cores``; one more of each than the load needs, so a node lost leaves
  enough (every Elasticsearch node holds a whole copy of the ~2 GB index: replicas = nodes - 1);
* the hit ratios grow with the rate: for each of the pool's requests, Zipf-popular as in the
  bench, a cache of TTL ``T`` misses once per ``T + 1/λ`` (λ its rate); the edge with
  ``PAPERLIST_EDGE_TTL``, Redis behind it with ``PAPERLIST_CACHE_TTL``, plus ``--one-off``, the
  share of requests no one asked before (always a miss: the bench's pool is finite, real
  traffic's tail is not);
* Redis holds a fresh entry per key asked within ``PAPERLIST_CACHE_TTL`` and a stale copy per
  key asked within ``PAPERLIST_CACHE_STALE_TTL`` (capped by maxmemory, then LRU).

The check: the model's knee for this box, ``--box-utilisation`` × (2 cores less the other work
measured while idle) over the CPU a request of the mix costs here, generator included, at the
hit ratios the capacity run reached, against the knee that run measured.

    python3 -m bench.capacity.capacity_model [--cost FILE] [--capacity FILE] [--write-doc]
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

from bench.capacity.request_cost import DOC, write_doc
from bench.harness import RESULTS
from bench.querymix import KIND_WEIGHTS, TOP, zipf_exponent

MIX_ROWS = {"title": "title", "fragment": "fragment", "keyword": "keyword", "author": "author",
            "facet": "facet click", "paging": "paging", "suggest": "suggest", "detail": "paper page"}
RATES = (100, 1_000, 10_000)
START, END = "<!-- model:start -->", "<!-- model:end -->"


def latest(prefix: str) -> Path:
    found = sorted(RESULTS.glob(f"{prefix}-*.json"))
    if not found:
        raise SystemExit(f"error: no {prefix}-*.json in {RESULTS}: "
                         f"run python -m bench.capacity.{prefix.replace('-', '_')} first")
    return found[-1]


def per_request(cost: dict, es_figure: str = "es_ms") -> dict[str, float]:
    """CPU ms of a miss of the mix (weighted), an app hit and an edge hit, per process.

    ``es_figure``: Elasticsearch's CPU less its background (``es_ms``), or the time of its search phases in the
    index (``es_search_ms``), the figure to trust when other work keeps Elasticsearch busy meanwhile."""
    rows = {kind: {**row, "es_ms": row.get(es_figure, row["es_ms"])} for kind, row in cost["rows"].items()}
    missing = [row for row in [*MIX_ROWS.values(), "app hit", "edge hit"] if row not in rows]
    if missing:
        raise SystemExit(f"error: the cost run lacks {missing}: "
                         "run python -m bench.capacity.request_cost without --only")
    total = sum(KIND_WEIGHTS.values())
    miss = {part: sum(KIND_WEIGHTS[k] * rows[row][f"{part}_ms"] for k, row in MIX_ROWS.items()) / total
            for part in ("es", "web", "nginx")}
    return {"miss_es": miss["es"], "miss_web": miss["web"], "miss_nginx": miss["nginx"],
            "app_web": rows["app hit"]["web_ms"], "app_nginx": rows["app hit"]["nginx_ms"],
            "edge_nginx": rows["edge hit"]["nginx_ms"]}


def hit_ratios(rate: float, edge_ttl: float, cache_ttl: float, pool: int, one_off: float) -> tuple[float, float]:
    """(edge, app) hit ratios at ``rate`` for the bench's Zipf popularity over ``pool`` requests."""
    s = zipf_exponent(pool, TOP, 0.8)
    weights = [r ** -s for r in range(1, pool + 1)]
    norm = sum(weights)
    repeat_rate = rate * (1 - one_off)
    edge_misses = app_misses = 0.0
    for w in weights:
        lam = repeat_rate * w / norm
        past_edge = lam / (1 + lam * edge_ttl)
        edge_misses += past_edge
        app_misses += past_edge / (1 + past_edge * cache_ttl)
    edge_misses += rate * one_off
    app_misses += rate * one_off
    h_e = 1 - edge_misses / rate
    return h_e, 1 - app_misses / edge_misses if edge_misses else 0.0


def demand(rate: float, h_e: float, h_a: float, c: dict) -> dict[str, float]:
    """CPU cores each tier needs at ``rate``."""
    past = rate * (1 - h_e)
    return {"es": past * (1 - h_a) * c["miss_es"] / 1000,
            "web": past * ((1 - h_a) * c["miss_web"] + h_a * c["app_web"]) / 1000,
            "nginx": (rate * h_e * c["edge_nginx"] + past * ((1 - h_a) * c["miss_nginx"] + h_a * c["app_nginx"])) / 1000}


def plan(args, c: dict, capacity: dict) -> tuple[list[str], dict]:
    lines = ["| req/s | edge hits | app hits (of the rest) | Elasticsearch cores | data nodes (N+1) "
             "| web cores (gunicorn + nginx) | web hosts (N+1) | Redis: fresh entries (must fit) "
             "| Redis: stale copies of a day (LRU-capped) |",
             "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    usable = args.node_cores * args.utilisation
    for rate in RATES:
        h_e, h_a = hit_ratios(rate, args.edge_ttl, args.cache_ttl, args.pool, args.one_off)
        d = demand(rate, h_e, h_a, c)
        misses_per_s = rate * (1 - h_e) * (1 - h_a)
        one_off_per_s = rate * args.one_off
        # A miss stores a fresh entry and its stale copy: the fresh ones of the last TTL must fit, the stale
        # ones of a day are what maxmemory's LRU trims (the popular ones, worth serving stale, stay).
        fresh = min(misses_per_s * args.cache_ttl, args.pool + one_off_per_s * args.cache_ttl)
        stale = min(args.pool + one_off_per_s * args.stale_ttl, rate * args.stale_ttl)
        lines.append(f"| {rate:,} | {100 * h_e:.0f}% | {100 * h_a:.0f}% | {d['es']:.1f} | "
                     f"{max(2, math.ceil(d['es'] / usable) + 1)} | {d['web'] + d['nginx']:.1f} | "
                     f"{max(2, math.ceil((d['web'] + d['nginx']) / usable) + 1)} | "
                     f"{fresh:,.0f} ({2 * fresh * args.entry_bytes / 1e9:.2f} GB) | "
                     f"{stale:,.0f} ({stale * args.entry_bytes / 1e9:.1f} GB) |")
    # The box: at the hit ratios the capacity run reached around its knee, with its generator's CPU.
    knee = capacity.get("knee_rps")
    near = [s for s in capacity["steps"] if s["label"] == "step" and "cpu_ms_per_request" in s]
    if not near:
        raise SystemExit("error: the capacity run has no step with CPU figures: "
                         "run python -m bench.capacity.capacity again")
    ref = min(near, key=lambda s: abs(s["rate"] - (knee or 0)))
    h_e, h_a = ref["edge_hit_ratio"], ref.get("app_hit_ratio") or 0.0
    cores = sum(demand(1.0, h_e, h_a, c).values()) + ref["cpu_ms_per_request"].get("generator", 0.0) / 1000
    other = args.other if args.other is not None else capacity.get("other_cores", 0.0)
    model_knee = args.box_utilisation * max(0.1, args.box_cores - other) / cores
    check = {"reference_rate": ref["rate"], "edge_hit_ratio": h_e, "app_hit_ratio": h_a,
             "cpu_ms_per_request_model": round(1000 * cores, 2),
             "cpu_ms_per_request_measured": {k: v for k, v in ref["cpu_ms_per_request"].items()},
             "other_cores": other, "model_knee": round(model_knee, 1), "measured_knee": knee,
             "model_over_measured": round(model_knee / knee, 2) if knee else None}
    return lines, check


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cost", type=Path, help="a bench/capacity/request_cost.py result (default: the latest)")
    parser.add_argument("--capacity", type=Path, help="a bench/capacity/capacity.py result (default: the latest)")
    parser.add_argument("--node-cores", type=int, default=8, help="cores of a data node and of a web host")
    parser.add_argument("--utilisation", type=float, default=0.6, help="planned busy share of a core in production")
    parser.add_argument("--box-cores", type=float, default=2.0)
    parser.add_argument("--box-utilisation", type=float, default=0.8, help="busy share of this box at its knee")
    parser.add_argument("--other", type=float, default=None, help="cores other work takes (default: the capacity run's)")
    parser.add_argument("--edge-ttl", type=float, default=5.0, help="PAPERLIST_EDGE_TTL")
    parser.add_argument("--cache-ttl", type=float, default=600.0, help="PAPERLIST_CACHE_TTL")
    parser.add_argument("--stale-ttl", type=float, default=86_400.0, help="PAPERLIST_CACHE_STALE_TTL")
    parser.add_argument("--pool", type=int, default=50_000, help="distinct repeated requests (the bench's pool)")
    parser.add_argument("--one-off", type=float, default=0.2, help="share of requests asked once only")
    parser.add_argument("--entry-bytes", type=int, default=6_000, help="a cached answer in Redis (gzip, with its key)")
    parser.add_argument("--es-figure", choices=("es_ms", "es_search_ms"), default="es_ms",
                        help="Elasticsearch's cost: CPU less background, or its search phases' time")
    parser.add_argument("--es-ms", type=float, default=None,
                        help="Elasticsearch's ms per miss measured elsewhere (a quiet bench/cost/miss_cost.py run): "
                             "instead of the cost table's, when other work kept Elasticsearch busy")
    parser.add_argument("--write-doc", action="store_true", help=f"replace the model's section in {DOC.name}")
    args = parser.parse_args()
    if not 0 < args.utilisation <= 1 or not 0 < args.box_utilisation <= 1 or not 0 <= args.one_off < 1:
        parser.error("--utilisation and --box-utilisation in (0, 1], --one-off in [0, 1)")
    cost_path, capacity_path = args.cost or latest("request-cost"), args.capacity or latest("capacity")
    c = per_request(json.loads(cost_path.read_text()), args.es_figure)
    if args.es_ms is not None:
        c["miss_es"] = args.es_ms
    lines, check = plan(args, c, json.loads(capacity_path.read_text()))
    es_source = ("given with --es-ms" if args.es_ms is not None
                 else "CPU less its background" if args.es_figure == "es_ms" else "its search phases")
    assumptions = (f"From `{cost_path.name}` and `{capacity_path.name}` (`bench/capacity/capacity_model.py`): "
                   "a miss of the mix "
                   f"costs {c['miss_es']:.1f} ms of Elasticsearch ({es_source}) and {c['miss_web']:.1f} ms of gunicorn, an app "
                   f"hit {c['app_web']:.1f} ms of gunicorn, an edge hit {c['edge_nginx']:.3f} ms of nginx; "
                   f"{args.node_cores}-core nodes planned at {100 * args.utilisation:.0f}% busy, one spare of each; "
                   f"edge TTL {args.edge_ttl:g} s, Redis TTL {args.cache_ttl:g} s (stale copies "
                   f"{args.stale_ttl:g} s), {args.pool:,} repeated requests Zipf-popular as in the bench plus "
                   f"{100 * args.one_off:.0f}% asked once, {args.entry_bytes:,} bytes an entry.")
    verdict = (f"**This box:** at the hit ratios of the capacity run near its knee (edge "
               f"{100 * check['edge_hit_ratio']:.0f}%, app {100 * check['app_hit_ratio']:.0f}% at "
               f"{check['reference_rate']} req/s), a request of the mix costs {check['cpu_ms_per_request_model']} ms "
               f"of CPU by the cost table (the run itself measured {check['cpu_ms_per_request_measured']}); "
               f"{args.box_utilisation:.0%} of (2 cores less {check['other_cores']:.2f} taken by other work) gives a "
               f"model knee of **{check['model_knee']} req/s** against the measured **{check['measured_knee']} req/s** "
               f"(model / measured = {check['model_over_measured']}).")
    markdown = "\n".join(lines)
    print(assumptions + "\n\n" + markdown + "\n\n" + verdict)
    if args.write_doc:
        write_doc(f"{assumptions}\n\n{markdown}\n\n{verdict}", START, END)
        print(f"written into {DOC}")


if __name__ == "__main__":
    main()
