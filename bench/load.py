"""A realistic load test: a Zipf query mix from the corpus, driven by locust (headless).

The mix (bench/querymix.py) has exact titles, title fragments, keywords, author names,
facet clicks, paging, autocomplete keystrokes and detail pages, pages and API alike,
about 80% of requests from the 1,000 most popular. One locust run per concurrency
(closed loops, no think time by default), each bounded by ``--run-time``; ``--during-ingest
PATH`` adds a run at the highest concurrency while ``paperlist ingest PATH`` runs.

Per run: throughput, p50, p99, errors (non-2xx and transport), and the cache hit ratio
read from ``GET /metrics`` (Prometheus counters, before and after the run) next to the
test's own count of ``X-Cache: hit`` answers; 'n/a' when the service has no /metrics.
Loopback targets only. Results go to bench/results/load-*.json.

    python bench/load.py [--url http://127.0.0.1:8000] [--users 8,32,64] [--run-time 60]
    python bench/load.py --users 64 --during-ingest ../shared/data/paperlists --ingest-run-time 120
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

import requests

from harness import REPO, loopback, ready_web, save
from querymix import TOP, load_records, request_pool, zipf_sequence
from services.settings import load_settings

USERS_FILE = Path(__file__).with_name("locust_users.py")
HITS_METRIC = "paperlist_cache_hits_total"
MISSES_METRIC = "paperlist_cache_misses_total"


def metric_sums(web: str, names: tuple[str, str]) -> dict[str, float] | None:
    """The named counters of ``GET /metrics``, or None when the service has none."""
    try:
        resp = requests.get(f"{web}/metrics", timeout=10)
    except requests.RequestException:
        return None
    return counter_sums(resp.text, names) if resp.status_code == 200 else None


def counter_sums(text: str, names: tuple[str, ...]) -> dict[str, float]:
    """Sum of every sample (all label sets) of each named counter in Prometheus text format."""
    sums = dict.fromkeys(names, 0.0)
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        name = line.split("{", 1)[0].split(" ", 1)[0]
        rest = line.rsplit("}", 1)[1].split() if "}" in line else line.split()[1:]  # value [timestamp]
        if name in sums and rest:
            try:
                sums[name] += float(rest[0])
            except ValueError:
                continue
    return sums


def ratio(hits: float, misses: float) -> float | None:
    return round(hits / (hits + misses), 4) if hits + misses else None


def locust_stats(prefix: str) -> dict:
    """The aggregated and per-name rows of locust's ``<prefix>_stats.csv``."""
    rows = list(csv.DictReader(open(f"{prefix}_stats.csv", newline="")))
    def row_stats(row: dict) -> dict:
        def num(key: str) -> float:
            value = row.get(key) or "0"
            return 0.0 if value == "N/A" else float(value)
        return {"requests": int(num("Request Count")), "errors": int(num("Failure Count")),
                "rps": round(num("Requests/s"), 1), "p50_ms": num("50%"), "p99_ms": num("99%"),
                "mean_ms": round(num("Average Response Time"), 1)}
    aggregated = next(r for r in rows if r["Name"] == "Aggregated")
    return {**row_stats(aggregated), "by_kind": {r["Name"]: row_stats(r) for r in rows if r["Name"] != "Aggregated"}}


def locust_failures(prefix: str) -> dict[str, int]:
    path = Path(f"{prefix}_failures.csv")
    if not path.exists():
        return {}
    return {f"{r['Name']}: {r['Error']}"[:200]: int(r["Occurrences"]) for r in csv.DictReader(open(path, newline=""))}


def run_locust(web: str, users: int, spawn_rate: float, seconds: int, mix_path: Path, work: Path, label: str,
               offset: int, wait: float, processes: int) -> dict:
    prefix = str(work / label)
    counts_path = work / f"{label}-counts"
    env = {**os.environ, "PAPERLIST_LOAD_MIX": str(mix_path), "PAPERLIST_LOAD_COUNTS": str(counts_path),
           "PAPERLIST_LOAD_OFFSET": str(offset), "PAPERLIST_LOAD_WAIT": str(wait)}
    cmd = [sys.executable, "-m", "locust", "-f", str(USERS_FILE), "--headless", "--host", web,
           "-u", str(users), "-r", str(spawn_rate), "--run-time", f"{seconds}s", "--stop-timeout", "10",
           "--csv", prefix, "--only-summary", "--loglevel", "WARNING", "--processes", str(processes)]
    started = time.monotonic()
    proc = subprocess.run(cmd, env=env, cwd=REPO, capture_output=True, text=True, timeout=seconds + 120)
    elapsed = time.monotonic() - started
    count_files = list(work.glob(f"{counts_path.name}.*"))
    if not Path(f"{prefix}_stats.csv").exists() or not count_files:
        raise SystemExit(f"error: locust failed (exit {proc.returncode}):\n{proc.stderr[-2000:]}")
    counts: Counter[str] = Counter()
    for path in count_files:
        counts.update(json.loads(path.read_text()))
    return {"stats": locust_stats(prefix), "failures": locust_failures(prefix),
            "cache_headers": dict(counts), "wall_seconds": round(elapsed, 1),
            "locust_exit": proc.returncode}


def one_run(args, web: str, users: int, seconds: int, mix_path: Path, work: Path, label: str, offset: int,
            metrics: tuple[str, str], ingest_path: str | None = None) -> dict:
    before = metric_sums(web, metrics)
    ingest = None
    if ingest_path:
        if not ingest_path.startswith(("http://", "https://")):
            ingest_path = str(Path(ingest_path).resolve())  # the CLI runs from the repository root
        log = open(work / f"{label}-ingest.log", "w")
        ingest = subprocess.Popen([sys.executable, "-m", "services.cli", "ingest", ingest_path],
                                  cwd=REPO, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        ingest_started = time.monotonic()
        ended: list[float] = []
        threading.Thread(target=lambda: (ingest.wait(), ended.append(time.monotonic())), daemon=True).start()
    out = run_locust(web, users, args.spawn_rate or users, seconds, mix_path, work, label, offset, args.wait,
                     args.processes)
    after = metric_sums(web, metrics)
    result = {"label": label, "users": users, "run_time_s": seconds, **out}
    if ingest is not None:
        finished_in_window = ingest.poll() is not None
        try:
            code = ingest.wait(timeout=args.ingest_timeout)
        except subprocess.TimeoutExpired:
            ingest.terminate()
            code = ingest.wait(timeout=60)
        log.close()
        time.sleep(0.1)  # let the waiting thread note the end
        seconds = (ended[0] if ended else time.monotonic()) - ingest_started
        result["ingest"] = {"path": ingest_path, "exit": code, "seconds": round(seconds, 1),
                            "finished_within_load": finished_in_window,
                            "log_tail": (work / f"{label}-ingest.log").read_text()[-600:]}
    own = out["cache_headers"]
    hits, misses = metrics if before is not None and after is not None else (None, None)
    result["cache"] = {
        "metrics": ({"hits": after[hits] - before[hits], "misses": after[misses] - before[misses],
                     "ratio": ratio(after[hits] - before[hits], after[misses] - before[misses])}
                    if hits else "n/a"),
        "own": {"hits": own["hit"], "misses": own["miss"], "stale": own["stale"], "ratio": ratio(own["hit"], own["miss"]),
                "hit_share_of_all": round(own["hit"] / own["responses"], 4) if own["responses"] else None},
    }
    return result


def fmt(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}%"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", default=None, help="web service (default: PAPERLIST_HOST:PAPERLIST_PORT)")
    parser.add_argument("--users", default="8,32,64", help="comma-separated concurrencies, one run each")
    parser.add_argument("--run-time", type=int, default=60, help="seconds per run")
    parser.add_argument("--spawn-rate", type=float, default=None, help="users started per second (default: all at once)")
    parser.add_argument("--wait", type=float, default=0.0, help="think time between a visitor's requests (s)")
    parser.add_argument("--processes", type=int, default=1,
                        help="locust processes (-1: one per core), when one cannot generate the load")
    parser.add_argument("--corpus", type=Path, default=None, help="default: PAPERLIST_CORPUS")
    parser.add_argument("--step", type=int, default=1, help="read every n-th corpus file")
    parser.add_argument("--pool", type=int, default=50_000, help="distinct requests in the mix")
    parser.add_argument("--top-share", type=float, default=0.8, help=f"share of requests from the {TOP} most popular")
    parser.add_argument("--sequence", type=int, default=300_000, help="length of the drawn request sequence")
    parser.add_argument("--seed", type=int, default=9)
    parser.add_argument("--during-ingest", metavar="PATH", default=None,
                        help="add a run at the highest concurrency while `paperlist ingest PATH` runs")
    parser.add_argument("--ingest-run-time", type=int, default=120, help="seconds of load of the ingest run")
    parser.add_argument("--ingest-timeout", type=float, default=900, help="then the ingest is stopped")
    parser.add_argument("--hits-metric", default=os.environ.get("PAPERLIST_BENCH_HITS_METRIC", HITS_METRIC))
    parser.add_argument("--misses-metric", default=os.environ.get("PAPERLIST_BENCH_MISSES_METRIC", MISSES_METRIC))
    args = parser.parse_args()
    try:
        concurrencies = [int(u) for u in args.users.split(",") if u.strip()]
    except ValueError:
        parser.error("--users takes comma-separated integers, e.g. 8,32,64")
    if not concurrencies or min(concurrencies) < 1 or args.run_time < 1 or args.pool < 1 or args.sequence < 1:
        parser.error("--users, --run-time, --pool and --sequence must be positive")
    if not 0 < args.top_share < 1:
        parser.error("--top-share is a fraction between 0 and 1")

    settings = load_settings()
    target = args.url or f"http://{settings.host}:{settings.port}"
    if not loopback(target):
        parser.error(f"{target} is not a loopback address: the load test only targets this machine (--url)")
    web = ready_web(settings, target)

    corpus = args.corpus or settings.corpus_dir
    print(f"building the query mix from {corpus}…", file=sys.stderr)
    records = load_records(corpus, args.step)
    pool = request_pool(records, args.pool, args.seed)
    sequence, exponent = zipf_sequence(len(pool), args.sequence, args.seed + 1, args.top_share)
    names = [f"{kind} ({'api' if path.startswith('/api/') else 'html'})" for kind, path in pool]
    drawn = Counter(pool[i][0] for i in sequence)
    mix_summary = {"records": len(records), "pool": len(pool), "zipf_exponent": round(exponent, 4),
                   "top_share": round(sum(1 for i in sequence if i < TOP) / len(sequence), 4),
                   "kinds": {k: round(v / len(sequence), 4) for k, v in drawn.most_common()},
                   "most_popular": [path for _, path in pool[:5]]}
    print(f"mix: {len(pool):,} distinct requests from {len(records):,} records, Zipf s={exponent:.3f}, "
          f"top {TOP}: {100 * mix_summary['top_share']:.1f}% of requests", file=sys.stderr)

    metrics = (args.hits_metric, args.misses_metric)
    runs = []
    with tempfile.TemporaryDirectory(prefix="paperlist-load-") as tmp:
        work = Path(tmp)
        mix_path = work / "mix.json"
        mix_path.write_text(json.dumps({"pool": [[n, p] for n, (_, p) in zip(names, pool, strict=True)], "sequence": sequence}))
        plan = [(u, args.run_time, f"u{u}", None) for u in concurrencies]
        if args.during_ingest:
            plan.append((max(concurrencies), args.ingest_run_time, f"u{max(concurrencies)}-ingest", args.during_ingest))
        for n, (users, seconds, label, ingest_path) in enumerate(plan):
            print(f"run {label}: {users} users for {seconds}s…", file=sys.stderr)
            run = one_run(args, web, users, seconds, mix_path, work, label, n * len(sequence) // (len(plan) + 1),
                          metrics, ingest_path)
            runs.append(run)
            s, c = run["stats"], run["cache"]
            metric_ratio = c["metrics"] if c["metrics"] == "n/a" else fmt(c["metrics"]["ratio"])
            print(f"{label:>10}: {s['rps']:7.1f} req/s  p50 {s['p50_ms']:6.0f} ms  p99 {s['p99_ms']:6.0f} ms  "
                  f"errors {s['errors']}/{s['requests']}  cache hits: /metrics {metric_ratio}, "
                  f"X-Cache {fmt(c['own']['ratio'])}"
                  + (f"  ingest exit {run['ingest']['exit']} in {run['ingest']['seconds']}s" if "ingest" in run else ""))
            for failure, count in list(run["failures"].items())[:5]:
                print(f"    {count} × {failure}", file=sys.stderr)

    result = {"url": web, "index": settings.index, "corpus": str(corpus), "mix": mix_summary,
              "metrics_names": {"hits": metrics[0], "misses": metrics[1]}, "runs": runs}
    path = save("load", result)
    print(f"results: {path}")
    if any(r["stats"]["errors"] for r in runs):
        raise SystemExit("error: some requests failed (see the failures above)")
    if any(r.get("ingest", {}).get("exit") for r in runs):
        raise SystemExit("error: the ingest failed: " + next(r["ingest"]["log_tail"] for r in runs
                                                             if r.get("ingest", {}).get("exit")))


if __name__ == "__main__":
    main()
