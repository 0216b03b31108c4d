"""An open-loop step's figures: latency from the intended send time, and what passes the knee's terms."""

from bench.capacity import steps


def _result(seq: int, sent: float, latency_ms: float, code: int = 200, **headers: str) -> dict:
    stamp = f"2026-12-05T18:00:{sent:09.6f}Z"
    return {"seq": seq, "code": code, "timestamp": stamp, "latency": int(latency_ms * 1e6),
            "headers": {k.replace("_", "-"): [v] for k, v in headers.items()}}


def test_capacity_counts_latency_from_the_intended_send_time_and_the_knees_terms():
    # 10 req/s: request 2 was due at 0.2 s but left at 0.5 s (the generator was late): 300 ms more.
    results = [_result(0, 0.0, 10, X_Cache_Edge="HIT"), _result(1, 0.1, 10, X_Cache="stale"),
               _result(2, 0.5, 10), _result(3, 0.3, 20, code=503), _result(4, 0.4, 0, code=0)]
    step = steps.figures(results, rate=10, seconds=1)
    assert step["max_send_lateness_ms"] == 300.0 and step["max_ms"] == 310.0
    assert step["sent"] == 5 and step["answered"] == 4 and step["unanswered"] == 1
    assert step["errors"] == 2 and step["shed_share"] == 0.2 and step["stale_share"] == 0.2
    assert step["edge_hit_ratio"] == 0.2
    assert not steps.passes(step)
    assert steps.passes({**step, "errors": 0}) and not steps.passes({**step, "errors": 0, "p99_ms": 1500.0})
