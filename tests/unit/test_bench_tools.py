"""The load test's and the linear-scan baseline's own logic (no services needed)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import load  # noqa: E402

import harness  # noqa: E402
import querymix  # noqa: E402


def test_zipf_sequence_gives_the_top_thousand_the_asked_share():
    ranks, exponent = querymix.zipf_sequence(20_000, 50_000, seed=1, share=0.8)
    share = sum(r < querymix.TOP for r in ranks) / len(ranks)
    assert exponent > 0
    assert 0.77 < share < 0.83


def test_linear_scan_is_an_and_of_lowercased_substrings():
    texts = ["graph neural networks for molecules", "neural radiance fields", "graphical models"]
    assert querymix.scan_count(texts, "Graph Neural") == 1
    assert querymix.scan_count(texts, "graph") == 2  # substrings: "graphical" too
    assert querymix.scan_count(texts, "neural -fields") == 0  # no query syntax: "-fields" is a word


def test_counters_sum_every_label_set_and_skip_comments():
    text = ("# HELP paperlist_cache_hits_total hits\n# TYPE paperlist_cache_hits_total counter\n"
            'paperlist_cache_hits_total{route="search"} 7.0\n'
            'paperlist_cache_hits_total{route="page",note="a b"} 3\n'
            "paperlist_cache_misses_total 5 1700000000\n"
            "paperlist_cache_hits_created 123\n")
    sums = load.counter_sums(text, ("paperlist_cache_hits_total", "paperlist_cache_misses_total"))
    assert sums == {"paperlist_cache_hits_total": 10.0, "paperlist_cache_misses_total": 5.0}


def test_app_hits_count_the_304s_to_the_edges_revalidations():
    before = dict.fromkeys(load.APP_METRICS, 100.0)
    after = {load.HITS_METRIC: 110.0, load.MISSES_METRIC: 150.0, load.REVALIDATED_METRIC: 140.0}
    counts = load.app_counts(before, after)
    assert counts == {"hits": 10.0, "misses": 50.0, "revalidated": 40.0}
    # answered without Elasticsearch: the cache hits and the 304s, of every request that reached the app
    assert load.app_hit_ratio(counts) == 0.5
    assert load.app_hit_ratio({"hits": 0, "misses": 0, "revalidated": 0}) is None


def test_only_loopback_targets_are_accepted():
    assert harness.loopback("http://127.0.0.1:8000") and harness.loopback("http://localhost:8000")
    assert harness.loopback("http://[::1]:8000")
    assert not harness.loopback("http://10.0.0.5:8000") and not harness.loopback("https://example.org")


def test_request_pool_is_distinct_and_covers_every_kind():
    records = [querymix.Record(title=f"Learning graph model number {i}", abstract="", keywords=("graphs",),
                               primary_area="", authors=(f"Ada Lovelace {i}",), conference="iclr", year=2020,
                               paper_id=f"iclr-2020-{i:012x}") for i in range(300)]
    pool = querymix.request_pool(records, 400, seed=2)
    paths = [path for _, path in pool]
    assert len(paths) == len(set(paths))
    assert {kind for kind, _ in pool} == set(querymix.KIND_WEIGHTS)


def test_raw_query_only_body_keeps_the_api_filters_and_drops_aggs_highlight_suggest():
    import json

    import miss_cost

    body = miss_cost.bodies("graph neural networks", {"status": ["oral"]})["es_query"]
    assert not {"aggs", "highlight", "suggest"} & set(body)
    assert '"oral"' in json.dumps(body)  # linear_scan asks ES for the same statuses as the API
    assert '"oral"' not in json.dumps(miss_cost.bodies("graph neural networks")["es_query"])


def test_wrk_argv_is_bounded_and_passes_headers_and_script_arguments():
    from harness import wrk_argv

    argv = wrk_argv("http://127.0.0.1:8000", Path("/tmp/s.lua"), threads=2, connections=8, seconds=10,
                    timeout=2.5, headers={"Accept-Encoding": "gzip"}, script_args=(Path("/tmp/paths"), 3))
    assert argv[:8] == ["wrk", "-t2", "-c8", "-d10s", "--timeout", "2.5s", "-s", "/tmp/s.lua"]
    assert argv[argv.index("-H") + 1] == "Accept-Encoding: gzip"
    assert argv[-4:] == ["http://127.0.0.1:8000", "--", "/tmp/paths", "3"]
    assert wrk_argv("http://x", Path("s"), threads=1, connections=1, seconds=1)[-1] == "http://x"


def test_wrk_result_reads_the_marked_line_or_exits_with_what_wrk_said():
    import pytest
    from harness import WRK_JSON, wrk_result

    assert wrk_result(f"Running 1s test\n{WRK_JSON}" + '{"requests": 7}\n', "") == {"requests": 7}
    with pytest.raises(SystemExit, match="no result for /x: unable to connect"):
        wrk_result("", "unable to connect", " for /x")


def _result(seq: int, sent: float, latency_ms: float, code: int = 200, **headers: str) -> dict:
    stamp = f"2026-12-05T18:00:{sent:09.6f}Z"
    return {"seq": seq, "code": code, "timestamp": stamp, "latency": int(latency_ms * 1e6),
            "headers": {k.replace("_", "-"): [v] for k, v in headers.items()}}


def test_capacity_counts_latency_from_the_intended_send_time_and_the_knees_terms():
    import capacity

    # 10 req/s: request 2 was due at 0.2 s but left at 0.5 s (the generator was late): 300 ms more.
    results = [_result(0, 0.0, 10, X_Cache_Edge="HIT"), _result(1, 0.1, 10, X_Cache="stale"),
               _result(2, 0.5, 10), _result(3, 0.3, 20, code=503), _result(4, 0.4, 0, code=0)]
    step = capacity.figures(results, rate=10, seconds=1)
    assert step["max_send_lateness_ms"] == 300.0 and step["max_ms"] == 310.0
    assert step["sent"] == 5 and step["answered"] == 4 and step["unanswered"] == 1
    assert step["errors"] == 2 and step["shed_share"] == 0.2 and step["stale_share"] == 0.2
    assert step["edge_hit_ratio"] == 0.2
    assert not capacity.passes(step)
    assert capacity.passes({**step, "errors": 0}) and not capacity.passes({**step, "errors": 0, "p99_ms": 1500.0})


def test_request_cost_reads_a_processes_cpu_and_finds_its_children():
    import os

    import request_cost

    parent, cpu = request_cost._stat(os.getpid())
    assert parent == os.getppid() and cpu > 0
    assert os.getpid() in request_cost.family(os.getppid())
    assert request_cost._stat(2 ** 22 + 12345) is None and request_cost.family(None) == set()


def test_capacity_model_hit_ratios_grow_with_the_rate_and_one_offs_always_miss():
    import capacity_model

    low = capacity_model.hit_ratios(10, edge_ttl=5, cache_ttl=600, pool=5_000, one_off=0.2)
    high = capacity_model.hit_ratios(1_000, edge_ttl=5, cache_ttl=600, pool=5_000, one_off=0.2)
    assert 0 <= low[0] < high[0] < 0.8 and 0 <= low[1] < high[1] < 1  # the one-off fifth never hits the edge
    assert capacity_model.hit_ratios(100, 5, 600, 5_000, one_off=0.0)[0] > high[0] - 0.2


def test_capacity_model_demand_splits_misses_app_hits_and_edge_hits():
    import capacity_model

    costs = {"miss_es": 20.0, "miss_web": 10.0, "miss_nginx": 0.2, "app_web": 2.0, "app_nginx": 0.2, "edge_nginx": 0.1}
    d = capacity_model.demand(100, h_e=0.5, h_a=0.5, c=costs)
    assert d["es"] == 100 * 0.5 * 0.5 * 20 / 1000
    assert d["web"] == 100 * 0.5 * (0.5 * 10 + 0.5 * 2) / 1000
    assert round(d["nginx"], 6) == round((50 * 0.1 + 50 * 0.2) / 1000, 6)
