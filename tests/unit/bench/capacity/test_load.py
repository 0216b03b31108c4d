"""The load test's own logic: the app's counters read from /metrics, and its hit ratio."""

from bench.capacity import load


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
