"""The capacity model on paper: hit ratios by rate, and the demand of misses, app hits and edge hits."""

from bench.capacity import capacity_model


def test_capacity_model_hit_ratios_grow_with_the_rate_and_one_offs_always_miss():
    low = capacity_model.hit_ratios(10, edge_ttl=5, cache_ttl=600, pool=5_000, one_off=0.2)
    high = capacity_model.hit_ratios(1_000, edge_ttl=5, cache_ttl=600, pool=5_000, one_off=0.2)
    assert 0 <= low[0] < high[0] < 0.8 and 0 <= low[1] < high[1] < 1  # the one-off fifth never hits the edge
    assert capacity_model.hit_ratios(100, 5, 600, 5_000, one_off=0.0)[0] > high[0] - 0.2


def test_capacity_model_demand_splits_misses_app_hits_and_edge_hits():
    costs = {"miss_es": 20.0, "miss_web": 10.0, "miss_nginx": 0.2, "app_web": 2.0, "app_nginx": 0.2, "edge_nginx": 0.1}
    d = capacity_model.demand(100, h_e=0.5, h_a=0.5, c=costs)
    assert d["es"] == 100 * 0.5 * 0.5 * 20 / 1000
    assert d["web"] == 100 * 0.5 * (0.5 * 10 + 0.5 * 2) / 1000
    assert round(d["nginx"], 6) == round((50 * 0.1 + 50 * 0.2) / 1000, 6)
