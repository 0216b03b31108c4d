"""What each kind of request costs the machine, Elasticsearch and Python apart (issue 34).

For each kind of request in the Zipf mix a bounded run of that kind alone (Debian's ``wrk``,
one thread, ``--connections`` connections, ``--seconds``), with the CPU time (user + system,
``/proc/<pid>/stat``) of each process read before and after: Elasticsearch's JVM, the
gunicorn master and workers, nginx's master and workers. Divided by the requests answered:
milliseconds of CPU per request, the figure a capacity model multiplies by a rate.

The kinds: an **edge hit** (anonymous, a few warmed searches: nginx answers), an **app hit**
(a cookie sends it past the edge, Redis's result cache answers), and misses by kind, every
cache bypassed (a cookie and ``Cache-Control: no-cache``): an exact title, a title fragment,
an author keyword, a **broad** keyword (one of a few words that match 100k+ papers), a facet
click, paging, an autocomplete keystroke, a paper page, a browse page (a conference-year, a
conference, a topic). Requests are bench/querymix.py's (pages and API as in the mix).

Other work on the machine (tests, a reindex) also spends Elasticsearch's CPU: its rate over
``--idle`` seconds before the first kind and after the last is taken off each kind's share
(``es_net``; the raw figure is kept). A gunicorn worker recycled during a run
(``max_requests``) is counted through its master, which reaped it; the row says so. Noisy on 2 shared cores;
run once, compare kinds within a run.

    python3 -m bench.capacity.request_cost [--url http://127.0.0.1:8135] [--seconds 6] [--write-doc]
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

import requests

from bench.capacity.load import GZIP, MISS, WRK_SCRIPT, front, wrk
from bench.harness import REPO, save
from bench.querymix import BROAD, QueryMaker, canonical_path, load_records
from services.settings import load_settings

MAX_SECONDS = 15
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
APP = {"Cookie": "paperlist_bench=cost"}  # past the edge; the result cache still answers
DOC = REPO / "docs" / "capacity.md"
DOC_START, DOC_END = "<!-- cost-table:start -->", "<!-- cost-table:end -->"
ES_MAIN = "org.elasticsearch.bootstrap.Elasticsearch"


def _stat(pid: int) -> tuple[int, float] | None:
    """(parent pid, CPU seconds) of a process and of its children it has reaped, or None once it is gone.

    A reaped child's time moves into its parent's (``cutime``, ``cstime``): a gunicorn worker
    recycled during a run is counted in its master's figure then, not lost from the family's.
    """
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return int(fields[1]), sum(int(f) for f in fields[11:15]) / CLOCK_TICKS


def _pids() -> list[int]:
    return [int(p.name) for p in Path("/proc").iterdir() if p.name.isdigit()]


def family(root: int | None) -> set[int]:
    """``root`` and its children (gunicorn's workers, nginx's)."""
    if not root or _stat(root) is None:
        return set()
    return {root} | {pid for pid in _pids() if (s := _stat(pid)) and s[0] == root}


def elasticsearch() -> set[int]:
    found = set()
    for pid in _pids():
        try:
            if ES_MAIN in Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace"):
                found.add(pid)
        except OSError:
            continue
    return found


def _pid_file(path: Path) -> int | None:
    try:
        return int(path.read_text().strip())
    except (OSError, ValueError):
        return None


class Processes:
    """The processes whose CPU is counted: Elasticsearch, gunicorn, nginx (of ``run_dir``'s stack)."""

    def __init__(self, run_dir: Path):
        self.run_dir = run_dir

    def groups(self) -> dict[str, set[int]]:
        return {"es": elasticsearch(), "web": family(_pid_file(self.run_dir / "web.pid")),
                "nginx": family(_pid_file(self.run_dir / "nginx.pid"))}

    @staticmethod
    def cpu(groups: dict[str, set[int]]) -> dict[str, float]:
        return {name: sum(s[1] for pid in pids if (s := _stat(pid))) for name, pids in groups.items()}


def kinds(records, seed: int, n: int) -> dict[str, tuple[dict, list[str]]]:
    """Each kind: the headers it is sent with and ``n`` paths of it."""
    maker = QueryMaker(records, seed)
    rng = random.Random(seed)

    def some(kind: str) -> list[str]:
        return [canonical_path(maker.request(kind)) for _ in range(n)]

    def search(q: str) -> str:
        return canonical_path(f"{'/search' if rng.random() < 0.3 else '/api/v1/search'}?{urlencode({'q': q})}")

    venues = sorted({(r.conference, r.year) for r in records if r.year})
    browse = []
    for _ in range(n):
        conference, year = rng.choice(venues)
        browse.append(rng.choice((f"/conferences/{conference}/{year}", f"/conferences/{conference}",
                                  f"/topics/{rng.choice(maker.topics)}")))
    warm = [search(maker.any_text()) for _ in range(8)]
    return {
        "edge hit": ({}, warm),
        "app hit": (APP, [search(maker.any_text()) for _ in range(20)]),
        "title": (MISS, some("title")), "fragment": (MISS, some("fragment")), "keyword": (MISS, some("keyword")),
        "author": (MISS, some("author")), "broad keyword": (MISS, [search(rng.choice(BROAD)) for _ in range(n)]),
        "facet click": (MISS, some("facet")), "paging": (MISS, some("paging")), "suggest": (MISS, some("suggest")),
        "paper page": (MISS, some("detail")), "browse page": (MISS, browse),
    }


def warm(web: str, headers: dict, paths: list[str]) -> None:
    for path in paths:
        for _ in range(2):
            requests.get(web + path, headers={**GZIP, **headers}, timeout=10)


def busy_seconds() -> float:
    """CPU seconds the whole machine has spent busy (all cores; /proc/stat: all but idle and iowait)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return (sum(fields[:8]) - fields[3] - fields[4]) / CLOCK_TICKS


def idle_rate(procs: Processes, seconds: float) -> dict[str, float]:
    """CPU seconds per second of each group, and of the whole machine ("box"), while no load is sent."""
    groups = procs.groups()
    before, box = procs.cpu(groups), busy_seconds()
    time.sleep(seconds)
    after, box = procs.cpu(groups), busy_seconds() - box
    return {**{k: (after[k] - before[k]) / seconds for k in before}, "box": box / seconds}


def search_ms(es_url: str, index: str) -> float | None:
    """Elasticsearch's own time in the index's searches (query, fetch, suggest phases; ms): its share, apart from
    what other work (a reindex's writes, another index's tests) costs the same process."""
    try:
        stats = requests.get(f"{es_url.split(',')[0].rstrip('/')}/{index}/_stats/search", timeout=5).json()
        search = stats["_all"]["total"]["search"]
    except (requests.RequestException, KeyError, ValueError):
        return None
    return float(search["query_time_in_millis"] + search["fetch_time_in_millis"] + search["suggest_time_in_millis"])


def measure(web: str, procs: Processes, headers: dict, paths: list[str], scratch: Path, args,
            es_time=lambda: None) -> dict:
    listed = scratch / "paths.txt"
    listed.write_text("".join(p + "\n" for p in paths))
    script = scratch / "mix.lua"
    script.write_text(WRK_SCRIPT)
    groups = procs.groups()
    before, es_before = procs.cpu(groups), es_time()
    started = time.monotonic()
    run = wrk(web, script, listed, 0, headers, threads=1, connections=args.connections, seconds=args.seconds)
    elapsed = time.monotonic() - started
    now = procs.groups()  # a worker started meanwhile counts; one gone counts in its master (cutime)
    after, es_after = procs.cpu(now), es_time()
    recycled = now["web"] != groups["web"]
    es_search = es_after - es_before if es_before is not None and es_after is not None else None
    return {**run, "cpu_s": {k: round(after[k] - before[k], 3) for k in before}, "elapsed_s": round(elapsed, 2),
            "es_search_ms_total": es_search, "web_recycled": recycled}


def table(rows: dict[str, dict]) -> str:
    lines = ["| kind | requests | req/s | p50 ms | Elasticsearch CPU ms/req (net; raw) | Elasticsearch search phases "
             "ms/req | gunicorn CPU ms/req | nginx CPU ms/req | answered by (X-Cache-Edge / X-Cache) |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    for kind, r in rows.items():
        flag = " (a worker recycled)" if r["web_recycled"] else ""
        lines.append(f"| {kind} | {r['requests']:,} | {r['rps']:,.0f} | {r['p50_ms']:.1f} | {r['es_ms']:.2f}; "
                     f"{r['es_raw_ms']:.2f} | {r['es_search_ms']:.1f} | {r['web_ms']:.2f}{flag} | {r['nginx_ms']:.3f} | "
                     f"{_top(r['edge'])} / {_top(r['app'])} |")
    return "\n".join(lines)


def _top(counts: dict) -> str:
    total = sum(counts.values()) or 1
    return ", ".join(f"{k} {100 * v / total:.0f}%" for k, v in sorted(counts.items(), key=lambda kv: -kv[1])[:2])


def write_doc(body: str, start: str = DOC_START, end: str = DOC_END) -> None:
    """Replace what stands between ``start`` and ``end`` in docs/capacity.md (the bench's own section)."""
    text = DOC.read_text()
    if start not in text or end not in text:
        raise SystemExit(f"error: {DOC} lacks the markers {start} … {end}")
    head, rest = text.split(start, 1)
    tail = rest.split(end, 1)[1]
    DOC.write_text(f"{head}{start}\n{body}\n{end}{tail}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", default=None, help="the front (default: PAPERLIST_HOST:PAPERLIST_PORT)")
    parser.add_argument("--seconds", type=int, default=6, help=f"seconds per kind (1-{MAX_SECONDS})")
    parser.add_argument("--connections", type=int, default=2, help="concurrent connections per kind (1-16)")
    parser.add_argument("--idle", type=float, default=3.0, help="seconds of the background rate, before and after")
    parser.add_argument("--only", help="comma-separated kinds")
    parser.add_argument("--corpus", type=Path, default=None, help="default: PAPERLIST_CORPUS")
    parser.add_argument("--step", type=int, default=4, help="read every n-th corpus file")
    parser.add_argument("--paths", type=int, default=200, help="distinct requests per kind")
    parser.add_argument("--seed", type=int, default=34)
    parser.add_argument("--write-doc", action="store_true", help=f"replace the cost table in {DOC.relative_to(REPO)}")
    args = parser.parse_args()
    if not 1 <= args.seconds <= MAX_SECONDS or not 1 <= args.connections <= 16 or not 0 <= args.idle <= 10:
        parser.error(f"--seconds 1-{MAX_SECONDS}, --connections 1-16, --idle 0-10")
    if not shutil.which("wrk"):
        raise SystemExit("error: wrk is missing: apt-get install -y wrk (Debian's C load generator)")
    settings = load_settings()
    web = front(parser, args.url, settings)
    index = requests.get(f"{web}/readyz", timeout=5).json().get("index", settings.index)
    procs = Processes(settings.run_dir)
    groups = procs.groups()
    if not all(groups.values()):
        raise SystemExit(f"error: not every process found ({ {k: sorted(v) for k, v in groups.items()} }): "
                         f"is {settings.run_dir} the run folder of the stack at {web} (PAPERLIST_HOME)?")
    records = load_records(args.corpus or settings.corpus_dir, args.step)
    chosen = kinds(records, args.seed, args.paths)
    if args.only:
        chosen = {k: v for k, v in chosen.items() if k in args.only.split(",")}
    for kind in ("edge hit", "app hit"):
        if kind in chosen:
            warm(web, *chosen[kind])
    background = idle_rate(procs, args.idle)
    rows: dict[str, dict] = {}
    print(f"cost per request at {web}: wrk -t1 -c{args.connections} -d{args.seconds}s per kind; "
          f"background CPU/s {background}", flush=True)
    with tempfile.TemporaryDirectory(prefix="paperlist-cost-") as tmp:
        for kind, (headers, paths) in chosen.items():
            run = measure(web, procs, headers, paths, Path(tmp), args, lambda: search_ms(settings.es_url, index))
            rows[kind] = run
    after = idle_rate(procs, args.idle)
    es_background = (background["es"] + after["es"]) / 2
    for kind, r in rows.items():
        n = max(r["requests"], 1)
        r.update(es_raw_ms=1000 * r["cpu_s"]["es"] / n,
                 es_ms=max(0.0, 1000 * (r["cpu_s"]["es"] - es_background * r["elapsed_s"]) / n),
                 web_ms=1000 * r["cpu_s"]["web"] / n, nginx_ms=1000 * r["cpu_s"]["nginx"] / n,
                 es_search_ms=(r["es_search_ms_total"] or 0.0) / n)
        print(f"  {kind:<14} {r['rps']:>7,.0f} req/s  p50 {r['p50_ms']:>6.1f} ms  ES {r['es_ms']:>6.2f} "
              f"(search phases {r['es_search_ms']:.1f} ms) "
              f"(raw {r['es_raw_ms']:.2f})  web {r['web_ms']:>6.2f}  nginx {r['nginx_ms']:.3f} ms CPU/req  "
              f"statuses {r['statuses']}  edge {r['edge']}  app {r['app']}", flush=True)
    markdown = table(rows)
    load = os.getloadavg()
    note = (f"Measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} "
            "by `bench/capacity/request_cost.py` against "
            f"index `{index}`: wrk -t1 -c{args.connections}, {args.seconds} s per kind, one run; "
            f"Elasticsearch's background {1000 * es_background:.0f} ms CPU/s taken off (net); load average "
            f"{load[0]:.1f} after the run (2 shared cores).")
    print("\n" + note + "\n\n" + markdown)
    if args.write_doc:
        write_doc(f"{note}\n\n{markdown}")
        print(f"written into {DOC}")
    path = save("request-cost", {"url": web, "index": index, "connections": args.connections,
                                 "seconds": args.seconds, "background_cpu_per_s": {"before": background, "after": after},
                                 "rows": rows, "markdown": markdown})
    print(f"results: {path}")
    sys.exit(0 if all(r["requests"] for r in rows.values()) else 1)


if __name__ == "__main__":
    main()
