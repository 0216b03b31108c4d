"""The knee of the box under an open-loop crowd: the Zipf mix at rising constant rates (issue 34).

A closed loop of clients (``bench/capacity/load.py``'s 32 wrk connections) slows down with the box and
so hides its tail (coordinated omission). Here a generator sends on schedule whatever the
answers do: ``vegeta`` (a Go module, ``go install github.com/tsenart/vegeta/v12@v12.13.0``)
spawns a worker whenever every other is waiting, so request *n* of a step leaves at its
intended time ``t0 + n / rate``; the latency counted is from that intended time (vegeta's own
latency plus any lateness of the send), through the front (nginx, its edge cache, gunicorn).

The mix is bench/capacity/load.py's (bench/querymix.py: titles, fragments, keywords, authors, facet
clicks, paging, autocomplete, detail pages; about 80% of requests from the 1,000 most
popular), in the canonical parameter order, anonymous and gzip as a crowd arrives. After a
warm-up, each step sends its own stretch of the drawn sequence at one rate for ``--seconds``
(≤ 15); per step: the achieved rate, p50/p99/max, errors (any status but 2xx/3xx, and
requests never answered), the 503/429 share (shed), the stale share (``X-Cache: stale``:
Redis's copy when Elasticsearch had no time), the edge hit ratio (``X-Cache-Edge``) and the
app's (``/metrics``, as bench/capacity/load.py reads it). The rates rise until ``--past`` steps after
the first that misses the knee's terms.

The **knee** is the highest rate with p99 ≤ 1 s and 0 errors; it is compared with the rate
at which nginx serves a static file of the mix's mean answer size (wrk, closed loop, the
same run). Then one step at 80% of the knee (target: p99 ≤ 10× the unloaded miss p50,
measured first, every cache bypassed, as bench/capacity/load.py does) and one at 150% (target:
nothing slower than the search budget + 0.5 s, every request answered). Each run starts with
empty caches (``--warm`` keeps them), so that two runs measure the same thing. The curve is drawn
with matplotlib into docs/capacity.png; results go to bench/results/capacity-*.json.

The machine has 2 shared cores: vegeta, nginx, gunicorn and Elasticsearch share them (and
whatever else runs), so the figures are noisy; run once, on a quiet box when you can.
Loopback targets only; every step is bounded by ``--seconds`` and vegeta's ``--timeout``.

    python3 -m bench.capacity.capacity [--url http://127.0.0.1:8135] [--rates 25,50,100,...] [--seconds 10]
    python3 -m bench.capacity.capacity --miss-only --rates 10,20,40,60,80 --no-checks   # every request new
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import redis
import requests

from bench.capacity.edge import STATIC_DIR, static_copy
from bench.capacity.edge import WRK_SCRIPT as STATIC_SCRIPT
from bench.capacity.load import (
    APP_METRICS,
    GZIP,
    MISS,
    WRK_SCRIPT,
    app_counts,
    app_hit_ratio,
    drawn_mix,
    front,
    metric_sums,
    mix_arguments,
    wrk,
)
from bench.capacity.request_cost import DOC, Processes, busy_seconds, write_doc
from bench.capacity.steps import KNEE_P99_MS, figures, passes
from bench.harness import REPO, save, wrk_argv, wrk_result
from services.ops.nginx import LocalNginx
from services.search.engine.generation import bump_generation
from services.settings import load_settings

VEGETA_MODULE = "github.com/tsenart/vegeta/v12@v12.13.0"
MAX_STEP = 15          # seconds per step
MAX_STEPS = 16
AT_80_TIMES_MISS_P50 = 10.0  # p99 at 80% of the knee ≤ this × the unloaded miss p50
OVER_BUDGET_S = 0.5          # at 150% of the knee no answer slower than the search budget + this
TIMEOUT_S = 10               # vegeta gives up on a request after this (nginx itself after 5 s)
DEFAULT_RATES = "25,50,75,100,150,200,250,300,400"
PLOT = REPO / "docs" / "capacity.png"
DOC_START, DOC_END = "<!-- knee:start -->", "<!-- knee:end -->"
OTHER_WINDOW = 3.0  # seconds of no load, to see what other work takes of the cores


def vegeta_binary() -> str:
    found = shutil.which("vegeta") or str(Path.home() / "go" / "bin" / "vegeta")
    if not Path(found).is_file():
        raise SystemExit(f"error: vegeta is missing: go install {VEGETA_MODULE} (Go's module proxy)")
    return found


def attack(vegeta: str, base: str, paths: list[str], rate: int, seconds: int, scratch: Path) -> list[dict]:
    """Send ``paths`` at ``rate`` per second for ``seconds``; every result, as vegeta's JSON lines."""
    targets = scratch / "targets.txt"
    targets.write_text("".join(f"GET {base}{p}\n\n" for p in paths))
    out = scratch / "results.bin"
    argv = [vegeta, "attack", f"-rate={rate}/s", f"-duration={seconds}s", f"-timeout={TIMEOUT_S}s",
            "-max-body=0", "-redirects=-1", "-http2=false", f"-targets={targets}", f"-output={out}",
            *[f"-header={name}: {value}" for name, value in GZIP.items()]]
    subprocess.run(argv, check=True, timeout=seconds + TIMEOUT_S + 30, capture_output=True)
    encoded = subprocess.run([vegeta, "encode", "--to", "json", str(out)], check=True, capture_output=True,
                             text=True, timeout=120)
    return [json.loads(line) for line in encoded.stdout.splitlines() if line.strip()]


def cold_caches(web: str, settings) -> str:
    """Start from empty caches, as after an ingest: the result cache's generation bumped (its
    answers no longer read) and the edge emptied. A second run at once otherwise found the first
    one's answers in Redis (app hits 94-100% instead of 6-10%) and measured them, not the mix.
    Returns the alias the front reads."""
    alias = requests.get(f"{web}/readyz", timeout=5).json().get("index", settings.index)
    bump_generation(redis.Redis.from_url(settings.redis_url), alias)
    LocalNginx(settings).purge_edge()
    return alias


def run_step(vegeta: str, web: str, walk: Walk, rate: int, seconds: int, scratch: Path, label: str,
             procs: Processes) -> dict:
    """One step; with its CPU per request answered: Elasticsearch, gunicorn, nginx, the generator, the machine."""
    before = metric_sums(web, APP_METRICS)
    groups = procs.groups()
    cpu, box, generator = procs.cpu(groups), busy_seconds(), resource.getrusage(resource.RUSAGE_CHILDREN)
    step = figures(attack(vegeta, web, walk.take(rate * seconds), rate, seconds, scratch), rate, seconds)
    spent = {k: v - cpu[k] for k, v in procs.cpu(procs.groups()).items()}  # workers started meanwhile too
    spent["box"] = busy_seconds() - box
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    spent["generator"] = used.ru_utime + used.ru_stime - generator.ru_utime - generator.ru_stime
    step["cpu_ms_per_request"] = {k: round(1000 * v / max(step.get("answered", 0), 1), 2) for k, v in spent.items()}
    after = metric_sums(web, APP_METRICS)
    if before is not None and after is not None:
        step["app_metrics"] = app_counts(before, after)
        step["app_hit_ratio"] = app_hit_ratio(step["app_metrics"])
    step["label"] = label
    show(step)
    return step


def show(s: dict) -> None:
    app = "n/a" if s.get("app_hit_ratio") is None else f"{100 * s['app_hit_ratio']:.0f}%"
    print(f"  {s['label']:<9} {s['rate']:>5} req/s offered  {s['achieved_rps']:>7.1f} answered/s  "
          f"p50 {s['p50_ms']:>7.1f}  p99 {s['p99_ms']:>7.1f}  max {s['max_ms']:>7.1f} ms  errors {s['errors']}/{s['sent']}"
          f"  shed {100 * s['shed_share']:.1f}%  stale {100 * s['stale_share']:.1f}%  edge hits "
          f"{100 * s['edge_hit_ratio']:.0f}%  app hits {app}  {s['statuses']}", flush=True)
    if "cpu_ms_per_request" in s:
        print("            CPU ms per answer: " + ", ".join(f"{k} {v:.1f}" for k, v in s["cpu_ms_per_request"].items()),
              flush=True)


UNLOADED_PATHS = 20_000  # requests the unloaded miss run may send (wrk -c1 for --unloaded seconds)


class Walk:
    """The drawn sequence, walked on: each step sends its own stretch (wrapping round, unless ``once``:
    the miss-only mode, where a request sent twice could be a cache hit, refuses to wrap)."""

    def __init__(self, paths: list[str], once: bool = False):
        self.paths, self.pos, self.once = paths, 0, once

    def take(self, n: int) -> list[str]:
        if self.once and self.pos + n > len(self.paths):
            raise SystemExit(f"miss-only: the pool's {len(self.paths):,} requests are spent; raise --pool")
        out = [self.paths[(self.pos + i) % len(self.paths)] for i in range(n)]
        self.pos = (self.pos + n) % len(self.paths)
        return out


def static_rate(web: str, paths: list[str], scratch: Path) -> dict:
    """nginx serving a static file of the mix's mean (gzip) answer size: wrk -t2 -c32, 5 s."""
    sizes = []
    for path in paths:
        resp = requests.get(web + path, headers=GZIP, timeout=TIMEOUT_S, stream=True)
        body = resp.raw.read(decode_content=False)
        if resp.status_code == 200:
            sizes.append((len(body), path))
    if not sizes:
        raise SystemExit("error: no sampled request answered 200")
    mean = sum(n for n, _ in sizes) / len(sizes)
    size, path = min(sizes, key=lambda s: abs(s[0] - mean))
    folder = Path(tempfile.mkdtemp(prefix="_bench-", dir=STATIC_DIR))
    folder.chmod(0o755)  # nginx's workers (www-data under root) read it
    try:
        static = static_copy(folder, "mix", web, path)
        script = scratch / "static.lua"
        script.write_text(STATIC_SCRIPT)
        argv = wrk_argv(web + static, script, threads=2, connections=32, seconds=5, headers=GZIP)
        out = subprocess.run(argv, capture_output=True, text=True, timeout=40, check=False)
        got = wrk_result(out.stdout, out.stderr, " for the static file")
        sent = len(gzip.compress((folder / Path(static).name).read_bytes(), compresslevel=9))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return {"mean_answer_bytes": round(mean), "file_bytes_gzip": sent, "copied_from": path,
            "rps": round(got["requests"] / (got["duration_us"] / 1e6 or 1), 1), "p99_ms": got["p99_us"] / 1000}


def markdown(result: dict) -> str:
    """The run as docs/capacity.md shows it: when and where, the steps, the knee and its checks."""
    static, checks, unloaded = result["static"], result["checks"], result["unloaded_miss"]
    lines = [f"Run of {result['when']} by `bench/capacity/capacity.py`, index `{result['index']}`, "
             f"front {result['url']}; "
             f"other work took **{result['other_cores']:.2f} of the 2 cores** while nothing was sent"
             + (f"; unloaded miss p50 {unloaded['p50_ms']:.0f} ms, p99 {unloaded['p99_ms']:.0f} ms" if unloaded else "")
             + ".", "",
             "| step | offered req/s | answered/s | p50 ms | p99 ms | max ms | errors | shed (503/429) | stale "
             "| edge hits | app hits | CPU ms per answer (ES, gunicorn, nginx, generator) |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    for st in result["steps"]:
        cpu = st.get("cpu_ms_per_request", {})
        app = "n/a" if st.get("app_hit_ratio") is None else f"{100 * st['app_hit_ratio']:.0f}%"
        lines.append(f"| {st['label']} | {st['rate']} | {st['achieved_rps']} | {st['p50_ms']:,.0f} | {st['p99_ms']:,.0f} "
                     f"| {st['max_ms']:,.0f} | {st['errors']} | {100 * st['shed_share']:.1f}% | "
                     f"{100 * st['stale_share']:.1f}% | {100 * st['edge_hit_ratio']:.0f}% | {app} | "
                     + ", ".join(f"{cpu.get(k, 0):.1f}" for k in ("es", "web", "nginx", "generator")) + " |")
    knee = result["knee_rps"]
    lines += ["", f"* **Knee: {knee or 'none'} req/s** (p99 ≤ {KNEE_P99_MS:.0f} ms, 0 errors), against "
                  f"**{static['rps']:,.0f} req/s** for nginx serving a static file of the mix's mean answer size "
                  f"({static['file_bytes_gzip']:,} bytes gzip; wrk -t2 -c32, closed loop): "
                  f"{100 * (result['knee_over_static'] or 0):.2f}% of it."]
    if checks:
        lines += [f"* **At 80% of the knee:** p99 {checks['p99_at_80_ms']:,.0f} ms = "
                  f"{checks['p99_at_80_over_miss_p50']}× the unloaded miss p50 (target ≤ {AT_80_TIMES_MISS_P50:g}×), "
                  f"{checks['errors_at_80']} errors.",
                  f"* **At 150%:** slowest answer {checks['max_at_150_ms']:,.0f} ms (bound "
                  f"{checks['bound_at_150_ms']:,.0f} ms), {checks['unanswered_at_150']} unanswered, "
                  f"{100 * checks['shed_share_at_150']:.1f}% shed, {100 * checks['stale_share_at_150']:.1f}% stale, "
                  f"statuses {checks['statuses_at_150']}."]
    return "\n".join(lines)


def plot(steps: list[dict], knee: int | None, static: dict, target: Path) -> Path | None:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is missing (pip install 'paperlist[bench]'): no curve drawn", file=sys.stderr)
        return None
    rising = sorted((s for s in steps if s["label"] == "step"), key=lambda s: s["rate"])
    rates = [s["rate"] for s in rising]
    fig, (lat, thr) = plt.subplots(1, 2, figsize=(11, 4.2))
    for key, style in (("p50_ms", "o-"), ("p99_ms", "s-"), ("max_ms", "^:")):
        lat.plot(rates, [max(s[key], 0.1) for s in rising], style, label=key.replace("_ms", ""))
    lat.axhline(KNEE_P99_MS, color="grey", lw=0.8, ls="--", label="1 s (knee's p99)")
    lat.set(yscale="log", xlabel="offered rate (req/s, open loop)", ylabel="latency from intended send (ms)",
            title="Zipf mix through the front")
    thr.plot(rates, rates, color="grey", lw=0.8, ls="--", label="offered")
    thr.plot(rates, [s["achieved_rps"] for s in rising], "o-", label="answered/s")
    thr.plot(rates, [s["ok_rps"] for s in rising], "x:", label="2xx/3xx per s")
    thr.set(xlabel="offered rate (req/s)", ylabel="req/s", title=f"static file: {static['rps']:,.0f} req/s (closed loop)")
    for axis in (lat, thr):
        if knee:
            axis.axvline(knee, color="tab:green", lw=1, label=f"knee {knee} req/s")
        axis.grid(alpha=0.3)
        axis.legend(fontsize=8)
    fig.tight_layout()
    target.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(target, dpi=110)
    plt.close(fig)
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", default=None, help="the front (default: PAPERLIST_HOST:PAPERLIST_PORT)")
    parser.add_argument("--rates", default=DEFAULT_RATES, help="offered rates, rising (req/s, comma-separated)")
    parser.add_argument("--seconds", type=int, default=10, help=f"seconds per step (1-{MAX_STEP})")
    parser.add_argument("--warmup", type=int, default=10, help="seconds of warm-up at the first rate")
    parser.add_argument("--past", type=int, default=1, help="steps run after the first one past the knee")
    parser.add_argument("--unloaded", type=int, default=5, help="seconds of the unloaded miss run (0: skip)")
    parser.add_argument("--no-checks", action="store_true", help="skip the steps at 80%% and 150%% of the knee")
    parser.add_argument("--plot", type=Path, default=PLOT)
    parser.add_argument("--write-doc", action="store_true", help="replace the run's section in docs/capacity.md")
    mix_arguments(parser)
    parser.add_argument("--miss-only", action="store_true",
                        help="every request distinct (the pool once, shuffled): the knee of traffic no cache absorbs")
    parser.add_argument("--warm", action="store_true",
                        help="keep what the caches hold (default: start cold, as after an ingest)")
    args = parser.parse_args()
    rates = [int(r) for r in args.rates.split(",") if r.strip()]
    if not rates or rates != sorted(rates) or not 1 <= min(rates) <= max(rates) <= 5000 or len(rates) > MAX_STEPS:
        parser.error(f"--rates: 1 to {MAX_STEPS} rising rates of 1-5000 req/s")
    if not 1 <= args.seconds <= MAX_STEP or not 0 <= args.warmup <= 60 or not 0 <= args.unloaded <= 30:
        parser.error(f"--seconds 1-{MAX_STEP}, --warmup 0-60, --unloaded 0-30")
    if not 0 <= args.past <= 3:
        parser.error("--past 0-3")
    vegeta = vegeta_binary()
    settings = load_settings()
    web = front(parser, args.url, settings)
    corpus, records, pool, sequence, exponent = drawn_mix(args, settings)
    if args.miss_only:  # every request once, in a seeded order: none can be answered from a cache
        order = [pool[i][1] for i in random.Random(args.seed).sample(range(len(pool)), len(pool))]
        unloaded_paths = order[-UNLOADED_PATHS:]  # the unloaded run's own: the steps never send them
        walk = Walk(order[:-UNLOADED_PATHS], once=True)
    else:
        walk = Walk([pool[i][1] for i in sequence])
        unloaded_paths = walk.paths[-UNLOADED_PATHS:]
    procs = Processes(settings.run_dir)  # the stack at --url must be PAPERLIST_HOME's for its CPU to be counted
    if not args.warm:
        print(f"caches emptied for {cold_caches(web, settings)} (the result cache's generation, the edge)", flush=True)
    load_before = os.getloadavg()
    steps: list[dict] = []
    with tempfile.TemporaryDirectory(prefix="paperlist-capacity-") as tmp:
        scratch = Path(tmp)
        unloaded = None
        if args.unloaded:
            script = scratch / "mix.lua"
            script.write_text(WRK_SCRIPT)
            listed = scratch / "requests.txt"
            listed.write_text("".join(p + "\n" for p in unloaded_paths))
            unloaded = wrk(web, script, listed, 0, MISS, threads=1, connections=1, seconds=args.unloaded)
            print(f"unloaded miss (wrk -t1 -c1, caches bypassed): p50 {unloaded['p50_ms']:.1f} ms, "
                  f"p99 {unloaded['p99_ms']:.1f} ms over {unloaded['requests']} requests", flush=True)
        static = static_rate(web, walk.take(40), scratch)
        print(f"static file of {static['file_bytes_gzip']:,} bytes gzip (the mix's mean answer "
              f"{static['mean_answer_bytes']:,}): {static['rps']:,.0f} req/s", flush=True)
        other = busy_seconds()
        time.sleep(OTHER_WINDOW)  # nothing sent: what the machine does meanwhile is other work
        other = (busy_seconds() - other) / OTHER_WINDOW
        print(f"other work on the machine: {other:.2f} cores busy while nothing is sent", flush=True)
        if args.warmup:
            steps.append(run_step(vegeta, web, walk, rates[0], min(args.warmup, MAX_STEP), scratch, "warm-up", procs))
        failed = 0
        for rate in rates:
            step = run_step(vegeta, web, walk, rate, args.seconds, scratch, "step", procs)
            steps.append(step)
            failed += not passes(step)
            if failed > args.past:
                break
        rising = [s for s in steps if s["label"] == "step"]
        passing = [s["rate"] for s in rising if passes(s)]
        # The knee: the highest rate below the first failing step (a later lucky step does not count).
        first_fail = next((s["rate"] for s in rising if not passes(s)), None)
        knee = max((r for r in passing if first_fail is None or r < first_fail), default=None)
        checks: dict = {}
        if knee and not args.no_checks:
            at80 = run_step(vegeta, web, walk, max(1, round(0.8 * knee)), args.seconds, scratch, "80% knee", procs)
            at150 = run_step(vegeta, web, walk, round(1.5 * knee), args.seconds, scratch, "150% knee", procs)
            steps += [at80, at150]
            bound_ms = 1000 * (settings.search_budget + OVER_BUDGET_S)
            checks = {
                "p99_at_80_ms": at80["p99_ms"], "errors_at_80": at80["errors"],
                "p99_at_80_over_miss_p50": round(at80["p99_ms"] / unloaded["p50_ms"], 2) if unloaded else None,
                "max_at_150_ms": at150["max_ms"], "bound_at_150_ms": bound_ms,
                "unanswered_at_150": at150["unanswered"], "shed_share_at_150": at150["shed_share"],
                "stale_share_at_150": at150["stale_share"], "statuses_at_150": at150["statuses"]}
    knee_over_static = round(knee / static["rps"], 4) if knee and static["rps"] else None
    drawn = plot(steps, knee, static, args.plot)
    print(f"\nknee (p99 ≤ {KNEE_P99_MS:.0f} ms, 0 errors): {knee or 'none'} req/s; static file {static['rps']:,.0f} "
          f"req/s; knee / static = {knee_over_static}")
    if checks:
        print(f"at 80% of the knee: p99 {checks['p99_at_80_ms']:.0f} ms = {checks['p99_at_80_over_miss_p50']}× the "
              f"unloaded miss p50 (target ≤ {AT_80_TIMES_MISS_P50:g}), errors {checks['errors_at_80']}")
        print(f"at 150%: slowest {checks['max_at_150_ms']:.0f} ms (bound {checks['bound_at_150_ms']:.0f}), "
              f"unanswered {checks['unanswered_at_150']}, shed {100 * checks['shed_share_at_150']:.1f}%, "
              f"stale {100 * checks['stale_share_at_150']:.1f}%, {checks['statuses_at_150']}")
    index = requests.get(f"{web}/readyz", timeout=5).json().get("index", settings.index)
    result = {"when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "url": web, "index": index, "corpus": str(corpus), "tool": f"vegeta ({VEGETA_MODULE})",
              "caches": "warm" if args.warm else "cold", "miss_only": args.miss_only,
              "mix": {"records": len(records), "pool": len(pool), "zipf_exponent": None if args.miss_only else round(exponent, 4)},
              "unloaded_miss": unloaded, "other_cores": round(other, 2), "static": static, "steps": steps, "knee_rps": knee,
              "knee_over_static": knee_over_static, "checks": checks, "plot": str(drawn) if drawn else None,
              "load_average": {"before": [round(x, 2) for x in load_before],
                               "after": [round(x, 2) for x in os.getloadavg()]}}
    print(f"curve: {drawn}\nresults: {save('capacity', result)}")
    if args.write_doc:
        write_doc(markdown(result), DOC_START, DOC_END)
        print(f"written into {DOC}")


if __name__ == "__main__":
    main()
