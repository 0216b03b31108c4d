"""What a Redis-hit results page costs against a Redis-hit API answer of the same search (issue 17's
"App hits" target: page req/s within 2x of the API's, edge bypassed), measured in one run.

Why a bench of its own: the results page was the site's most common and most expensive answer
(about 40 ms of Python per request: the Jinja render of a 150-220 kB page, while the API's kept
answer costs about 1.5 ms). The ratio is what moves with the code; absolute req/s move with the
machine (2 shared cores), so both sides are measured interleaved, in one run.

Two parts:

* ``wrk`` (Debian's C load generator: a Python one would spend the cores it measures) against
  gunicorn directly — no nginx, so no edge cache — for each query's page and API answer, both
  warmed first (``X-Cache: hit``), interleaved over ``--rounds``; reports req/s, p50, p99,
  the status mix and page/API ratios (the best round of each side and the median).
* cold broad searches (``large language models``, ``learning``) while wrk loads the server:
  each answers 200 with its hits (and says what it left out), never a 503.
* ``--in-process``: the Flask test client's ms per request for the same URLs, and the render
  cost of a page whose results are a Redis hit but whose whole answer is not kept (another page
  of a kept search: its trends section is a kept fragment), and with the trends rendered too.

    python3 -m bench.cost.render_cost --start --index w17r-sample     # its own gunicorn on 127.0.0.1:8119
    python3 -m bench.cost.render_cost --url http://127.0.0.1:8119 --in-process

Writes bench/results/render_cost-<time>.json.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from datetime import datetime, timezone

from bench.harness import REPO, loopback, save

QUERIES = ("graph neural networks", "diffusion models")
COLD = ("large language models", "learning")  # broad: the costliest facet counts and trends
GZIP = {"Accept-Encoding": "gzip"}
WRK_THREADS, WRK_CONNECTIONS, WRK_SECONDS = 2, 16, 5
TARGET = 2.0  # the bound on page cost / API cost (req/s ratio)


def urls_of(query: str) -> dict[str, str]:
    q = urllib.parse.quote_plus(query)
    return {"page": f"/search?q={q}", "api": f"/api/v1/search?q={q}"}


def warm(base: str, path: str, tries: int = 5) -> str:
    """GET until the answer is a Redis hit (bounded); returns the last X-Cache."""
    outcome = ""
    for _ in range(tries):
        req = urllib.request.Request(base + path, headers=GZIP)
        with urllib.request.urlopen(req, timeout=30) as resp:
            resp.read()
            outcome = resp.headers.get("X-Cache", "")
        if outcome == "hit":
            break
    return outcome


def _ms(text: str) -> float:
    value, unit = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text).groups()
    return float(value) * {"us": 0.001, "ms": 1, "s": 1000, "m": 60000}[unit]


def run_wrk(url: str, seconds: int = WRK_SECONDS) -> dict:
    out = subprocess.run(["wrk", f"-t{WRK_THREADS}", f"-c{WRK_CONNECTIONS}", f"-d{seconds}s", "--latency",
                          "-H", "Accept-Encoding: gzip", url], capture_output=True, text=True,
                         timeout=seconds + 30, check=True).stdout
    found = {"rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),
             "requests": int(re.search(r"(\d+) requests in", out).group(1)),
             "non_2xx": int(m.group(1)) if (m := re.search(r"Non-2xx or 3xx responses: (\d+)", out)) else 0,
             "socket_errors": sum(int(n) for n in m.groups()) if (m := re.search(
                 r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)) else 0}
    for pct in ("50", "99"):
        m = re.search(rf"^\s+{pct}(?:\.000)?%\s+(\S+)", out, re.M)
        found[f"p{pct}_ms"] = _ms(m.group(1)) if m else None
    return found


def measure_wrk(base: str, rounds: int) -> dict:
    report: dict = {}
    for query in QUERIES:
        paths = urls_of(query)
        cache = {kind: warm(base, path) for kind, path in paths.items()}
        runs: dict[str, list[dict]] = {kind: [] for kind in paths}
        for _ in range(rounds):  # interleaved: page, API, page, API ...
            for kind, path in paths.items():
                runs[kind].append(run_wrk(base + path))
        best = {kind: max(r["rps"] for r in rs) for kind, rs in runs.items()}
        median = {kind: statistics.median(r["rps"] for r in rs) for kind, rs in runs.items()}
        report[query] = {"paths": paths, "warmed_x_cache": cache, "runs": runs,
                         "api_over_page_best": round(best["api"] / best["page"], 2),
                         "api_over_page_median": round(median["api"] / median["page"], 2)}
    return report


def cold_under_load(base: str, queries: tuple[str, ...] = COLD, seconds: int = WRK_SECONDS) -> list[dict]:
    """Cold broad searches (``Cache-Control: no-cache``: no cached read) while wrk loads the server with
    kept pages: each must answer 200 with its hits, and says what it left out, never a 503."""
    load = subprocess.Popen(["wrk", f"-t{WRK_THREADS}", f"-c{WRK_CONNECTIONS}", f"-d{seconds}s",
                             "-H", "Accept-Encoding: gzip", base + urls_of(QUERIES[0])["page"]],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    found = []
    try:
        time.sleep(1)
        for query in queries:
            for kind, path in urls_of(query).items():
                req = urllib.request.Request(base + path, headers={"Cache-Control": "no-cache"})
                started = time.perf_counter()
                try:
                    with urllib.request.urlopen(req, timeout=30) as resp:
                        body, status, headers = resp.read().decode(), resp.status, resp.headers
                except urllib.error.HTTPError as exc:
                    body, status, headers = "", exc.code, exc.headers
                note = re.search(r'<p class="left-out" role="note">([^<]*)', body)
                found.append({"query": query, "kind": kind, "status": status,
                              "ms": round((time.perf_counter() - started) * 1000, 1),
                              "hits": body.count('class="paper-card"') if kind == "page" else
                              len(json.loads(body)["hits"]) if status == 200 else 0,
                              "left_out": headers.get("X-Left-Out") or (note.group(1).strip() if note else None)})
    finally:
        load.wait(timeout=seconds + 30)
    return found


def measure_in_process(index: str, repeats: int = 30) -> dict:
    """ms per request through the Flask test client: kept answers, then the render of a result-cache hit."""
    import logging

    from services.settings import load_settings
    from services.web.app import create_app
    from services.web.cache.responses import KeptAnswers
    from services.web.cache.results import CachedSearch

    app = create_app(load_settings(PAPERLIST_INDEX=index))
    logging.disable(logging.CRITICAL)
    client = app.test_client()

    def per_request(path: str) -> tuple[float, str]:
        for _ in range(3):
            resp = client.get(path, headers=GZIP)
        started = time.perf_counter()
        for _ in range(repeats):
            resp = client.get(path, headers=GZIP)
        return round((time.perf_counter() - started) / repeats * 1000, 2), resp.headers.get("X-Cache", "")

    report: dict = {}
    for query in QUERIES:
        paths = urls_of(query)
        report[query] = {f"{kind}_ms": per_request(path) for kind, path in paths.items()}
    serve, fragment = KeptAnswers.serve, CachedSearch.fragment
    KeptAnswers.serve = lambda self, policy: None  # type: ignore[method-assign]  # every page rendered
    try:
        for query in QUERIES:  # the results and the trends section are Redis hits
            report[query]["page_rendered_ms"] = per_request(urls_of(query)["page"])
        CachedSearch.fragment = lambda self, name, req, render: render(req)  # type: ignore[method-assign]
        for query in QUERIES:  # the results are Redis hits, the trends rendered
            report[query]["page_rendered_with_trends_ms"] = per_request(urls_of(query)["page"])
    finally:
        KeptAnswers.serve, CachedSearch.fragment = serve, fragment  # type: ignore[method-assign]
    return report


def start_gunicorn(index: str, port: int) -> subprocess.Popen:
    env = {**os.environ, "PAPERLIST_INDEX": index, "PAPERLIST_WEB_BIND": f"127.0.0.1:{port}",
           "PAPERLIST_RATE_LIMIT_ENABLED": "false"}
    log = open(REPO / "run" / "bench-render-cost-gunicorn.log", "ab")  # noqa: SIM115 (lives with the process)
    proc = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", str(REPO / "deploy" / "gunicorn.conf.py"),
                             "services.web.app:create_app()"], cwd=REPO, env=env, stdout=log, stderr=log)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2).read()
            return proc
        except OSError:
            if proc.poll() is not None:
                break
            time.sleep(0.5)
    proc.terminate()
    raise SystemExit("gunicorn did not answer; see run/bench-render-cost-gunicorn.log")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", help="a running gunicorn (not nginx: the edge must be bypassed)")
    parser.add_argument("--start", action="store_true", help="start gunicorn alone on --port for the run")
    parser.add_argument("--port", type=int, default=8119)
    parser.add_argument("--index", default=os.environ.get("PAPERLIST_INDEX", "papers"))
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--in-process", action="store_true")
    args = parser.parse_args()
    if not shutil.which("wrk"):
        raise SystemExit("wrk is missing: apt-get install -y wrk")
    if bool(args.url) == args.start:
        raise SystemExit("give --url of a running gunicorn, or --start")
    if args.url and not loopback(args.url):
        raise SystemExit(f"{args.url}: load tools target this host only (loopback)")
    proc = start_gunicorn(args.index, args.port) if args.start else None
    base = args.url or f"http://127.0.0.1:{args.port}"
    try:
        report = {"when": datetime.now(timezone.utc).isoformat(timespec="seconds"), "base": base,
                  "index": args.index, "wrk": f"-t{WRK_THREADS} -c{WRK_CONNECTIONS} -d{WRK_SECONDS}s gzip",
                  "target_api_over_page": TARGET, "queries": measure_wrk(base, args.rounds)}
        report["cold_under_load"] = cold_under_load(base)
        if args.in_process:
            report["in_process"] = measure_in_process(args.index)
    finally:
        if proc:
            proc.terminate()
            proc.wait(timeout=30)
    out = save("render_cost", report)
    for query, found in report["queries"].items():
        rps = {kind: [r["rps"] for r in runs] for kind, runs in found["runs"].items()}
        print(f"{query!r}: page req/s {rps['page']}, API req/s {rps['api']}: API/page "
              f"{found['api_over_page_best']} (best), {found['api_over_page_median']} (median); target <= {TARGET}")
    for probe in report["cold_under_load"]:
        print(f"cold under load: {probe}")
    if "in_process" in report:
        print(json.dumps(report["in_process"], indent=1))
    print(f"wrote {out.relative_to(REPO)}")


if __name__ == "__main__":
    main()
