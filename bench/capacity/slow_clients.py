"""Slow clients against the front: latency with N half-open connections held, against none.

Each held connection sends half a request header and then nothing, as a slowloris client
does. nginx should hold them (until its header timeout) while gunicorn's few threads keep
serving. ``/healthz`` and a few searches (distinct queries, uncached) are timed first with
no connection held (the same-run baseline), then with ``--held`` connections open; the
report gives p50 and max of both, and how many held connections were still open at the
end (the test is void if the front dropped them). Loopback targets only.

    python -m bench.capacity.slow_clients [--url http://127.0.0.1:8000] [--held 200] [--probes 20]
"""

from __future__ import annotations

import argparse
import socket
import time
from urllib.parse import urlparse

import requests

from bench.harness import loopback, percentiles, ready_web, save
from services.settings import load_settings

QUERIES = ["graph neural network", "diffusion", "reinforcement learning", "object detection", "bandit",
           "language model", "causal inference", "point cloud", "federated learning", "robot grasping"]
PARTIAL = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-a: "
TIMEOUT = 10.0  # seconds: a starved front shows as a slow probe, not a hang


def probe(web: str, session: requests.Session, n: int, tag: str) -> dict[str, dict[str, float]]:
    timings: dict[str, list[float]] = {"healthz": [], "search": []}
    for i in range(n):
        for kind, url, params in (("healthz", f"{web}/healthz", None),
                                  ("search", f"{web}/api/v1/search", {"q": f"{QUERIES[i % len(QUERIES)]} {tag}{i}"})):
            started = time.perf_counter()
            resp = session.get(url, params=params, timeout=TIMEOUT, headers={"Cache-Control": "no-cache"})
            timings[kind].append((time.perf_counter() - started) * 1000)
            if resp.status_code != 200:
                raise SystemExit(f"error: {url} answered {resp.status_code}")
    return {kind: {**percentiles(v), "max": max(v)} for kind, v in timings.items()}


def still_open(sock: socket.socket) -> bool:
    sock.setblocking(False)
    try:
        return sock.recv(1) != b""
    except BlockingIOError:
        return True
    except OSError:
        return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", default=None, help="the front (default: PAPERLIST_HOST:PAPERLIST_PORT)")
    parser.add_argument("--held", type=int, default=200, help="half-open connections to hold")
    parser.add_argument("--probes", type=int, default=20, help="healthz and search requests per phase")
    args = parser.parse_args()
    web = ready_web(load_settings(), args.url)
    if not loopback(web):
        raise SystemExit(f"error: {web} is not a loopback address; slow-client tests target loopback only")
    target = urlparse(web)
    session = requests.Session()
    probe(web, session, 3, "warm")
    baseline = probe(web, session, args.probes, "base")
    held: list[socket.socket] = []
    try:
        for _ in range(args.held):
            sock = socket.create_connection((target.hostname, target.port or 80), timeout=TIMEOUT)
            sock.sendall(PARTIAL)
            held.append(sock)
        loaded = probe(web, session, args.probes, "held")
        open_at_end = sum(still_open(sock) for sock in held)
    finally:
        for sock in held:
            sock.close()
    result = {"held": args.held, "still_open": open_at_end, "baseline": baseline, "with_held": loaded}
    for kind in ("healthz", "search"):
        b, h = baseline[kind], loaded[kind]
        print(f"{kind:8s} none held: p50 {b['p50']:7.1f} ms max {b['max']:7.1f} ms | "
              f"{args.held} held: p50 {h['p50']:7.1f} ms max {h['max']:7.1f} ms")
    print(f"held connections still open at the end: {open_at_end}/{args.held}  ({save('slow-clients', result)})")


if __name__ == "__main__":
    main()
