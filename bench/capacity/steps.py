"""One step of an open-loop run in figures, from vegeta's results, and whether it passes the knee's terms.

Latency is counted from each request's intended send time (``t0 + seq / rate``): vegeta's own
latency plus any lateness of the send, so a generator that falls behind shows as latency, not
as a slower offered rate (coordinated omission). Used by :mod:`bench.capacity.capacity`.
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime

KNEE_P99_MS = 1000.0
SHED = {"503", "429"}


def _when(stamp: str) -> float:
    """vegeta's RFC 3339 timestamp (nanoseconds) in seconds."""
    head, _, frac = stamp.rstrip("Z").partition(".")
    seconds = datetime.fromisoformat(head + "+00:00").timestamp()
    return seconds + (float("0." + frac.split("+")[0].split("-")[0]) if frac else 0.0)


def _pct(ordered: list[float], q: float) -> float:
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] if ordered else 0.0


def figures(results: list[dict], rate: int, seconds: int) -> dict:
    """One step's figures; latency from each request's intended send time."""
    if not results:
        return {"rate": rate, "sent": 0, "errors": 0, "p99_ms": 0.0}
    results.sort(key=lambda r: r["seq"])
    t0 = _when(results[0]["timestamp"])
    latencies, statuses, edge, app = [], Counter(), Counter(), Counter()
    late, last_end = 0.0, t0
    for r in results:
        sent = _when(r["timestamp"])
        lateness = max(0.0, sent - (t0 + r["seq"] / rate))
        late = max(late, lateness)
        latency = r["latency"] / 1e9 + lateness
        latencies.append(latency * 1000)
        last_end = max(last_end, sent + r["latency"] / 1e9)
        statuses[str(r["code"])] += 1
        headers = r.get("headers") or {}
        edge[(headers.get("X-Cache-Edge") or ["none"])[0]] += 1
        app[(headers.get("X-Cache") or ["none"])[0].lower()] += 1  # hit, miss, stale, bypass
    ordered = sorted(latencies)
    answered = sum(n for s, n in statuses.items() if s != "0")
    bad = sum(n for s, n in statuses.items() if not 200 <= int(s) < 400)
    n = len(results)
    return {"rate": rate, "seconds": seconds, "sent": n, "answered": answered,
            "achieved_rps": round(answered / max(last_end - t0, seconds), 1),
            "ok_rps": round((n - bad) / max(last_end - t0, seconds), 1),
            "p50_ms": round(_pct(ordered, 0.50), 1), "p99_ms": round(_pct(ordered, 0.99), 1),
            "max_ms": round(ordered[-1], 1), "errors": bad, "statuses": dict(statuses),
            "unanswered": statuses.get("0", 0), "shed_share": round(sum(statuses.get(s, 0) for s in SHED) / n, 4),
            "stale_share": round(app.get("stale", 0) / n, 4), "edge_hit_ratio": round(edge.get("HIT", 0) / n, 4),
            "edge": dict(edge), "app": dict(app), "max_send_lateness_ms": round(1000 * late, 1)}


def passes(step: dict) -> bool:
    return step["sent"] > 0 and step["errors"] == 0 and step["p99_ms"] <= KNEE_P99_MS
