"""What the edge cache buys, in one run of Debian's ``wrk`` on loopback (issue 17).

For each page type (front, results, paper, conference-year, author, API search) three
ways of answering the same URL, and a baseline nginx serves without Python:

* **static**: a file with the page's own bytes (so the same size and compressibility),
  written into a temporary folder under the static folder nginx already serves, with its
  gzip beside it (``gzip_static``): the floor is nginx sending bytes it already holds, as
  an edge hit does, not compressing the file again on every request;
* **edge hit**: the page as the edge cache keeps it (anonymous, gzip);
* **app hit**: the edge bypassed (a cookie, as a signed-in visitor would send), the answer
  from the app over Redis's result cache;
* **miss**: the edge bypassed and the result cache skipped (``Cache-Control: no-cache``),
  so Elasticsearch answers;

plus ``/healthz`` (Flask doing no work). Every case runs for the same short, bounded
duration (``-d``); the report gives req/s, p50, p99, the status mix and the
``X-Cache-Edge`` mix of each, and the ratio of each edge hit to its static file (target:
at least 0.5). ``wrk`` is a C load generator: a Python one would spend the cores it
measures. The client is 127.0.0.1, exempt from rate limits (PAPERLIST_RATE_LIMIT_EXEMPT).

    python3 -m bench.capacity.edge [--url http://127.0.0.1:8117] [--duration 5] [--connections 32]
"""

from __future__ import annotations

import argparse
import gzip
import shutil
import subprocess
import sys
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path
from urllib.parse import quote

import requests

from bench.harness import REPO, WRK_LUA_HELPERS, loopback, ready_web, save, wrk_argv, wrk_result
from services.settings import load_settings

STATIC_DIR = REPO / "services" / "web" / "static"
MAX_DURATION = 30  # seconds per case: the whole run stays bounded
TARGET = 0.5  # an edge hit's req/s over its static file's
GZIP = {"Accept-Encoding": "gzip"}
APP = {"Cookie": "paperlist_bench=app"}  # any cookie: the edge bypasses, the result cache still answers
MISS = {**APP, "Cache-Control": "no-cache"}  # ... and the result cache is skipped too
MODES = {"edge": {}, "app": APP, "miss": MISS}
# Per-thread status and X-Cache-Edge counts, summed in done(); one JSON line on stdout.
WRK_SCRIPT = r"""
local threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args) statuses = {}; edges = {} end
function response(status, headers, body)
  local s = tostring(status)
  statuses[s] = (statuses[s] or 0) + 1
  local e = headers["X-Cache-Edge"] or "none"
  edges[e] = (edges[e] or 0) + 1
end
""" + WRK_LUA_HELPERS + r"""
function done(summary, latency, requests)
  local st, ed = {}, {}
  for _, t in ipairs(threads) do merge(st, t:get("statuses")); merge(ed, t:get("edges")) end
  local e = summary.errors
  io.write(string.format(
    'WRKJSON {"requests": %d, "duration_us": %d, "p50_us": %d, "p99_us": %d, ' ..
    '"errors": {"connect": %d, "read": %d, "write": %d, "timeout": %d, "status": %d}, ' ..
    '"statuses": %s, "edge": %s}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.connect, e.read, e.write, e.timeout, e.status, obj(st), obj(ed)))
end
"""


@dataclass
class Case:
    page: str
    mode: str
    url: str
    rps: float
    p50_ms: float
    p99_ms: float
    requests: int
    errors: dict
    statuses: dict
    edge: dict


def wrk(base: str, path: str, headers: dict, args: argparse.Namespace, script: Path) -> dict:
    argv = wrk_argv(base + path, script, threads=args.threads, connections=args.connections, seconds=args.duration,
                    headers={**GZIP, **headers}, latency=True)
    out = subprocess.run(argv, capture_output=True, text=True, timeout=args.duration + 30, check=False)
    return wrk_result(out.stdout, out.stderr, f" for {path}")


def measure(page: str, mode: str, base: str, path: str, headers: dict, args, script: Path) -> Case:
    got = wrk(base, path, headers, args, script)
    seconds = got["duration_us"] / 1e6 or 1
    case = Case(page, mode, path, round(got["requests"] / seconds, 1), got["p50_us"] / 1000, got["p99_us"] / 1000,
                got["requests"], got["errors"], got["statuses"], got["edge"])
    print(f"  {page:<13} {mode:<7} {case.rps:>9,.0f} req/s  p50 {case.p50_ms:>7.1f} ms  p99 {case.p99_ms:>7.1f} ms  "
          f"status {case.statuses}  edge {case.edge}", flush=True)
    return case


def pages(base: str, args) -> dict[str, str]:
    """The page types and the URL of each (canonical: parameters in name order)."""
    found = requests.get(f"{base}/api/v1/search", params={"page_size": 1, "q": args.query}, timeout=30).json()
    if not found.get("hits"):
        raise SystemExit(f"error: no hits for '{args.query}': ingest a corpus first")
    hit = found["hits"][0]
    return {
        "front": "/",
        "results": f"/search?q={quote(args.query).replace('%20', '+')}",
        "paper": f"/papers/{hit['id']}",
        "conf-year": f"/conferences/{args.conference_year}",
        "author": f"/authors/{quote(hit['authors'][0])}",
        "api-search": f"/api/v1/search?q={quote(args.api_query).replace('%20', '+')}",
    }


def static_copy(folder: Path, name: str, base: str, path: str) -> str:
    """The page's own bytes as a static file nginx serves, and their gzip beside it; its /static/ path."""
    resp = requests.get(base + path, headers={"Accept-Encoding": "identity"}, timeout=30)
    if resp.status_code != 200:
        raise SystemExit(f"error: {path} answered {resp.status_code}")
    suffix = ".json" if resp.headers.get("Content-Type", "").startswith("application/json") else ".html"
    target = folder / f"{name}{suffix}"
    target.write_bytes(resp.content)
    zipped = target.with_name(target.name + ".gz")
    zipped.write_bytes(gzip.compress(resp.content, compresslevel=9))
    for written in (target, zipped):
        written.chmod(0o644)
    return f"/static/{folder.name}/{target.name}"


def warm(base: str, path: str) -> None:
    for headers in ({**GZIP}, {**GZIP}, {**GZIP, **APP}, {**GZIP, **APP}):
        requests.get(base + path, headers=headers, timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", help="the front (default: PAPERLIST_HOST:PAPERLIST_PORT)")
    parser.add_argument("--duration", type=int, default=5, help=f"seconds per case (1-{MAX_DURATION})")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--query", default="graph neural networks", help="the results page's search")
    parser.add_argument("--api-query", default="diffusion models", help="the API search's")
    parser.add_argument("--conference-year", default="iclr/2024", help="slug/year of the conference-year page")
    parser.add_argument("--only", help="comma-separated page types to run (default: all)")
    args = parser.parse_args()
    if not 1 <= args.duration <= MAX_DURATION or not 1 <= args.connections <= 256 or not 1 <= args.threads <= 8:
        raise SystemExit(f"error: --duration 1-{MAX_DURATION}, --connections 1-256, --threads 1-8")
    if not shutil.which("wrk"):
        raise SystemExit("error: wrk is missing: apt-get install -y wrk (Debian's C load generator)")
    settings = load_settings()
    base = ready_web(settings, args.url)
    if not loopback(base):
        raise SystemExit(f"error: {base} is not on this host; the edge benchmark drives loopback only")
    targets = pages(base, args)
    if args.only:
        targets = {k: v for k, v in targets.items() if k in args.only.split(",")}
    cases: list[Case] = []
    ratios: dict[str, float] = {}
    folder = Path(tempfile.mkdtemp(prefix="_bench-", dir=STATIC_DIR))
    folder.chmod(0o755)  # nginx's workers (www-data under root) read it
    with tempfile.TemporaryDirectory() as scratch:
        script = Path(scratch) / "count.lua"
        script.write_text(WRK_SCRIPT)
        try:
            print(f"edge benchmark of {base}: wrk -t{args.threads} -c{args.connections} -d{args.duration}s, gzip")
            cases.append(measure("healthz", "app", base, "/healthz", {}, args, script))
            for name, path in targets.items():
                warm(base, path)
                static = measure(name, "static", base, static_copy(folder, name, base, path), {}, args, script)
                cases.append(static)
                for mode, headers in MODES.items():
                    case = measure(name, mode, base, path, headers, args, script)
                    cases.append(case)
                    if mode == "edge":
                        ratios[name] = round(case.rps / static.rps, 3) if static.rps else 0.0
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    print("\nedge hit / static file (req/s; target >= %.2f):" % TARGET)
    for name, ratio in ratios.items():
        print(f"  {name:<13} {ratio:.2f} {'ok' if ratio >= TARGET else 'BELOW'}")
    path = save("edge", {"url": base, "index": settings.index, "edge_ttl": settings.edge_ttl,
                         "wrk": {"threads": args.threads, "connections": args.connections,
                                 "duration_s": args.duration, "headers": GZIP},
                         "cases": [asdict(c) for c in cases], "edge_over_static": ratios, "target": TARGET})
    print(f"results: {path}")
    sys.exit(0 if all(r >= TARGET for r in ratios.values()) else 1)


if __name__ == "__main__":
    main()
