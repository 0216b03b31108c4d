"""A full rebuild of the live index under search load: its duration, and latency before vs during.

The load is Debian's ``wrk`` (a C load generator: the Python threads this bench used
before spent the cores they measured) walking the fixed search mix of bench/querymix.py
(``query_mix``) through the JSON API, at a **bounded offered rate**: ``--rate`` searches/s
in all (a crowd, paced by wrk's Lua ``delay()``, each thread keeping its own schedule;
a slot missed because every connection is busy is dropped, not made up in a burst), or,
with ``--rate 0``, the saturating closed loop of the old bench (every connection sends its
next search as soon as the last one is answered). Searches skip the caches (a cookie for
the edge, ``Cache-Control: no-cache`` for the app's result cache), so each one reaches
Elasticsearch (and its ``X-Request-ID`` is its own: an edge hit would carry the one of the
request that filled the cache).

One wrk run covers the baseline period, the ``paperlist reindex`` (the Celery task, through
the running stack) and a short period after it; wrk is stopped (SIGINT) once the rebuild
is over, and never runs longer than ``--baseline + --max-rebuild + --after`` (``-d``).
Its Lua ``response`` hook logs every answer — monotonic time, latency (the request is
matched by the ``X-Request-ID`` it sent, which the app echoes), status and the answer's
``total`` — and the periods are cut from that log by the time each request was sent.
Reported per period: requests, achieved rate, p50/p99/mean, and every failed answer
(socket error, non-200, an answer without a ``total``, or a total of 0 for a query that
had hits before the rebuild: there must be none), plus answers whose total differs from
the same query's before the rebuild; the rebuild's own clock (serving, merge); how heavy
the load was: wrk's CPU seconds, the machine's busy CPU share per period (/proc/stat) and
its load average.

    python3 -m bench.pipeline.reindex [--url http://127.0.0.1:8000] [--baseline 30] [--rate 50] [--connections 8]
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path
from urllib.parse import urlencode

import redis

from bench import harness
from bench.harness import UNCACHED, WRK_LUA_HELPERS, WRK_LUA_THREADS, loopback, percentiles, ready_web, save, wrk_result
from bench.querymix import canonical_path, query_mix
from services.indexer.celery_app import create_celery
from services.indexer.rebuild.control import request_reindex
from services.indexer.rebuild.state import ReindexState
from services.search.engine import indices
from services.search.engine.client import make_client
from services.settings import load_settings

MIX_SIZE, MIX_SEED = 500, 11  # the search mix of the old bench, unchanged
POLL = 0.5  # seconds between looks at the rebuild's state
FINISHED = ("done", "failed", "abandoned")
# Every thread walks the request file from its own point and logs each answer on a line of
# its own file: "<monotonic µs at answer> <latency µs> <status> <total|-> <tag>", the tag
# "<thread>-<n>-<line>" sent as X-Request-ID. Line-buffered: wrk is stopped by SIGINT and
# never closes its threads' Lua states. delay() (defined only for a bounded rate) books
# the thread's next send slot, rate/threads per second; a slot already past is not made up.
WRK_SCRIPT = r"""
local ffi = require("ffi")
ffi.cdef[[
typedef struct { long tv_sec; long tv_nsec; } paperlist_timespec;
int clock_gettime(int clk, paperlist_timespec *tp);
]]
local ts = ffi.new("paperlist_timespec")
local function now_us()
  ffi.C.clock_gettime(1, ts)  -- CLOCK_MONOTONIC, Python's time.monotonic() on Linux
  return tonumber(ts.tv_sec) * 1000000 + math.floor(tonumber(ts.tv_nsec) / 1000)
end
""" + WRK_LUA_THREADS + r"""
function init(args)
  paths = read_paths(args[1])
  out = io.open(args[2] .. "/thread-" .. id .. ".log", "w")
  out:setvbuf("line")
  local rate, nthreads = tonumber(args[3]) or 0, tonumber(args[4]) or 1
  interval = rate > 0 and nthreads * 1000000 / rate or 0
  pos = (id * math.floor(#paths / nthreads)) % #paths
  seq, sent, next_slot, statuses = 0, {}, 0, {}
  headers = {}  -- wrk.format sends only the headers it is given: the -H ones (wrk.headers) too
  for name, value in pairs(wrk.headers) do headers[name] = value end
end
function paced_delay()
  local now = now_us()
  local slot = next_slot > now and next_slot or now
  next_slot = slot + interval
  return math.floor((slot - now) / 1000)
end
function request()
  pos = pos % #paths + 1
  seq = seq + 1
  local tag = id .. "-" .. seq .. "-" .. pos
  sent[tag] = now_us()
  headers["X-Request-ID"] = tag
  return wrk.format("GET", paths[pos], headers)
end
function response(status, headers, body)
  local now = now_us()
  local tag = headers["X-Request-ID"] or "-"
  local started = sent[tag]
  sent[tag] = nil
  local total = body and body:match('"total"%s*:%s*(%d+)') or "-"
  out:write(string.format("%d %d %d %s %s\n", now, started and now - started or -1, status, total, tag))
  local s = tostring(status)
  statuses[s] = (statuses[s] or 0) + 1
end
""" + WRK_LUA_HELPERS + r"""
function done(summary, latency, requests)
  local st = {}
  for _, t in ipairs(threads) do merge(st, t:get("statuses")) end
  local e = summary.errors
  io.write(string.format(
    'WRKJSON {"requests": %d, "duration_us": %d, "socket_errors": {"connect": %d, "read": %d, "write": %d, ' ..
    '"timeout": %d, "status": %d}, "statuses": %s}\n',
    summary.requests, summary.duration, e.connect, e.read, e.write, e.timeout, e.status, obj(st)))
end
"""
PACING = "\ndelay = paced_delay\n"  # wrk paces only when the script defines delay()


def busy_ticks() -> tuple[int, int]:
    """(busy, total) CPU ticks of the whole machine so far, from /proc/stat."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
    return sum(fields) - idle, sum(fields)


def process_cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a running process so far (0 when it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Mark:
    """The machine at one moment: clock, CPU ticks, wrk's CPU seconds, load average."""

    def __init__(self, wrk_pid: int):
        self.when = time.monotonic()
        self.busy, self.total = busy_ticks()
        self.wrk_cpu = process_cpu_seconds(wrk_pid)
        self.loadavg = [round(x, 2) for x in os.getloadavg()]


def machine(start: Mark, end: Mark) -> dict:
    """How heavy a period was: the machine's busy share of all cores, wrk's own share, load average at its end."""
    seconds = max(end.when - start.when, 1e-9)
    ticks = max(end.total - start.total, 1)
    return {"cpu_busy_share": round((end.busy - start.busy) / ticks, 3),
            "wrk_cores": round((end.wrk_cpu - start.wrk_cpu) / seconds, 3),
            "load_average_at_end": end.loadavg, "cores": os.cpu_count()}


def read_answers(log_dir: Path) -> list[dict]:
    """Every logged answer: sent (monotonic s), ms, status, total (None when the body had none), line of the mix."""
    answers = []
    for path in sorted(log_dir.glob("thread-*.log")):
        for line in path.read_text().splitlines():
            parts = line.split()
            if len(parts) != 5:
                continue
            done_us, latency_us, status, total, tag = int(parts[0]), int(parts[1]), int(parts[2]), parts[3], parts[4]
            known = latency_us >= 0
            answers.append({"sent": (done_us - max(latency_us, 0)) / 1e6, "ms": latency_us / 1000 if known else None,
                            "status": status, "total": int(total) if total.isdigit() else None,
                            "line": int(tag.rsplit("-", 1)[1]) if known else None})
    return answers


def before_totals(answers: list[dict], start: float, end: float) -> dict[int, int]:
    """Each query's most frequent total in the baseline period."""
    seen: dict[int, Counter] = defaultdict(Counter)
    for a in answers:
        if start <= a["sent"] < end and a["status"] == 200 and a["total"] is not None and a["line"] is not None:
            seen[a["line"]][a["total"]] += 1
    return {line: totals.most_common(1)[0][0] for line, totals in seen.items()}


def window(answers: list[dict], start: float, end: float, expected: dict[int, int]) -> dict:
    """A period's figures over the requests sent in it."""
    picked = [a for a in answers if start <= a["sent"] < end]
    non_200 = [a for a in picked if a["status"] != 200]
    no_total = [a for a in picked if a["status"] == 200 and a["total"] is None]
    emptied = [a for a in picked if a["status"] == 200 and a["total"] == 0 and expected.get(a["line"], 0) > 0]
    changed = [a for a in picked if a["total"] is not None and a["line"] in expected
               and a["total"] != expected[a["line"]]]
    unmatched = [a for a in picked if a["ms"] is None]  # no X-Request-ID of ours came back: no latency
    good = [a["ms"] for a in picked if a["status"] == 200 and a["total"] is not None and a["ms"] is not None]
    seconds = max(end - start, 1e-9)
    return {"requests": len(picked), "seconds": round(seconds, 1), "rps": round(len(picked) / seconds, 1),
            "failed": len(non_200) + len(no_total) + len(emptied), "non_200": dict(Counter(str(a["status"]) for a in non_200)),
            "without_total": len(no_total), "emptied": len(emptied), "total_changed": len(changed),
            "unmatched": len(unmatched),
            **{k: round(v, 1) for k, v in percentiles(good).items()}}


def wrk_argv(web: str, script: Path, args: argparse.Namespace, requests_file: Path, log_dir: Path,
             seconds: int) -> list[str]:
    return harness.wrk_argv(web, script, threads=args.threads, connections=args.connections, seconds=seconds,
                            timeout=args.timeout, headers=UNCACHED,
                            script_args=(requests_file, log_dir, args.rate, args.threads))


def mix_paths() -> list[str]:
    """The search mix as request paths in the app's canonical parameter order (one edge entry per search)."""
    return [canonical_path(f"/api/v1/search?{urlencode({**params, 'page_size': 10}, doseq=True)}")
            for params in query_mix(MIX_SIZE, MIX_SEED)]


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", default=None, help="the front (default: PAPERLIST_HOST:PAPERLIST_PORT)")
    parser.add_argument("--baseline", type=float, default=30.0, help="seconds of load before the rebuild")
    parser.add_argument("--after", type=float, default=5.0, help="seconds of load after it")
    parser.add_argument("--max-rebuild", type=int, default=1800, help="seconds the rebuild is waited for at most")
    parser.add_argument("--rate", type=float, default=50.0,
                        help="searches/s offered in all (0: the saturating closed loop of the old bench)")
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--threads", type=int, default=1, help="wrk threads (each paces rate/threads)")
    parser.add_argument("--timeout", type=int, default=10, help="seconds before wrk counts a search as timed out")
    parser.add_argument("--from-sources", action="store_true")
    args = parser.parse_args()
    if not 1 <= args.baseline <= 600 or not 0 <= args.after <= 60 or not 10 <= args.max_rebuild <= 7200:
        parser.error("--baseline 1-600 s, --after 0-60 s, --max-rebuild 10-7200 s")
    if not 0 <= args.rate <= 5000 or not 1 <= args.threads <= 8 or not args.threads <= args.connections <= 256:
        parser.error("--rate 0-5000 searches/s, --threads 1-8, --connections threads-256")
    if not 1 <= args.timeout <= 60:
        parser.error("--timeout 1-60 s")
    if not shutil.which("wrk"):
        raise SystemExit("error: wrk is missing: apt-get install -y wrk (Debian's C load generator)")
    return args


def main() -> None:
    args = parse_args()
    settings = load_settings()
    target = args.url or f"http://{settings.host}:{settings.port}"
    if not loopback(target):
        raise SystemExit(f"error: {target} is not a loopback address: the load only targets this machine (--url)")
    web = ready_web(settings, target)
    es = make_client(settings)
    client = redis.Redis.from_url(settings.redis_url)
    state = ReindexState(client, settings.index)
    before_index = indices.current_index(es, settings.index)
    papers = es.count(index=settings.index)["count"]
    bound = int(args.baseline + args.max_rebuild + args.after) + 5  # wrk's -d: the run ends by then anyway

    with tempfile.TemporaryDirectory(prefix="paperlist-reindex-") as tmp:
        tmp_dir = Path(tmp)
        requests_file = tmp_dir / "requests.txt"
        requests_file.write_text("".join(p + "\n" for p in mix_paths()))
        script = tmp_dir / "load.lua"
        script.write_text(WRK_SCRIPT + (PACING if args.rate > 0 else ""))
        argv = wrk_argv(web, script, args, requests_file, tmp_dir, bound)
        print(f"load: {' '.join(argv[:8])} … ({'%g searches/s offered' % args.rate if args.rate else 'closed loop'}, "
              "uncached)", file=sys.stderr)
        wrk = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        current: dict = {}
        try:
            m0 = Mark(wrk.pid)
            time.sleep(args.baseline)
            m1 = Mark(wrk.pid)
            run_id, _ = request_reindex(client, create_celery(settings), settings, settings.index, args.from_sources)
            deadline = time.monotonic() + args.max_rebuild
            while time.monotonic() < deadline and wrk.poll() is None:
                current = state.load()
                if current.get("run_id") == run_id and current.get("phase") in FINISHED:
                    break
                time.sleep(POLL)
            m2 = Mark(wrk.pid)
            time.sleep(args.after)
            m3 = Mark(wrk.pid)
        finally:
            if wrk.poll() is None:
                wrk.send_signal(signal.SIGINT)  # wrk stops, prints its summary and runs done()
            try:
                out, err = wrk.communicate(timeout=30)
            except subprocess.TimeoutExpired:
                wrk.kill()
                out, err = wrk.communicate()
        summary = wrk_result(out, err)
        answers = read_answers(tmp_dir)

    if current.get("phase") not in FINISHED:
        print(f"warning: the rebuild was not over within {args.max_rebuild}s (phase {current.get('phase')})",
              file=sys.stderr)
    expected = before_totals(answers, m0.when, m1.when)
    if not any(expected.values()):
        raise SystemExit(f"error: no search had hits before the rebuild: is {web} serving {settings.index}? "
                         "(the web service's PAPERLIST_INDEX must be the alias rebuilt)")
    result = {
        "index": settings.index, "papers": papers, "from_sources": args.from_sources,
        "old_index": before_index, "new_index": indices.current_index(es, settings.index),
        "phase": current.get("phase"), "message": current.get("message"),
        "rebuild_seconds": round(m2.when - m1.when, 1),
        # the run's own clock: new data serving (alias swapped), then the one-segment merge after it
        "serving_seconds": float(current.get("serving_seconds", "nan")),
        "merge_seconds": float(current.get("merge_seconds", "nan")),
        "load": {"tool": "wrk", "rate_offered": args.rate or None, "closed_loop": not args.rate,
                 "threads": args.threads, "connections": args.connections, "headers": UNCACHED,
                 "mix": {"size": MIX_SIZE, "seed": MIX_SEED}, "wrk_summary": summary},
        "latency_before_ms": window(answers, m0.when, m1.when, expected),
        "latency_during_ms": window(answers, m1.when, m2.when, expected),
        "latency_after_ms": window(answers, m2.when, m3.when, expected),
        "machine_before": machine(m0, m1), "machine_during": machine(m1, m2), "machine_after": machine(m2, m3),
    }
    socket_errors = sum(summary["socket_errors"].values()) - summary["socket_errors"]["status"]
    result["failed_total"] = socket_errors + sum(result[k]["failed"] for k in
                                                 ("latency_before_ms", "latency_during_ms", "latency_after_ms"))
    before, during = result["latency_before_ms"], result["latency_during_ms"]
    result["ratio_during_over_before"] = {k: round(during[k] / before[k], 2) if before[k] else None
                                          for k in ("p50", "p99")}
    path = save("reindex", result)
    print(f"rebuild of {papers:,} papers: {result['phase']} in {result['rebuild_seconds']}s "
          f"({before_index} -> {result['new_index']}); serving after {result['serving_seconds']}s, "
          f"then merged in {result['merge_seconds']}s")
    for label, key, mkey in (("before", "latency_before_ms", "machine_before"),
                             ("during", "latency_during_ms", "machine_during"),
                             ("after", "latency_after_ms", "machine_after")):
        w, m = result[key], result[mkey]
        print(f"search {label}: p50 {w['p50']} ms, p99 {w['p99']} ms, {w['rps']} searches/s ({w['requests']} requests, "
              f"{w['failed']} failed, {w['total_changed']} totals changed); machine busy "
              f"{100 * m['cpu_busy_share']:.0f}% of {m['cores']} cores, wrk {m['wrk_cores']} cores, "
              f"load average {m['load_average_at_end'][0]}")
    print(f"failed or empty answers in all: {result['failed_total']} (socket errors {socket_errors}; target 0)  ({path})")
    sys.exit(1 if result["failed_total"] or result["phase"] != "done" else 0)


if __name__ == "__main__":
    main()
