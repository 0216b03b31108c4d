"""The queries the benches share: the Zipf draw, the linear scan's match, the load test's request pool (no services needed)."""

from bench import querymix


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


def test_request_pool_is_distinct_and_covers_every_kind():
    records = [querymix.Record(title=f"Learning graph model number {i}", abstract="", keywords=("graphs",),
                               primary_area="", authors=(f"Ada Lovelace {i}",), conference="iclr", year=2020,
                               paper_id=f"iclr-2020-{i:012x}") for i in range(300)]
    pool = querymix.request_pool(records, 400, seed=2)
    paths = [path for _, path in pool]
    assert len(paths) == len(set(paths))
    assert {kind for kind, _ in pool} == set(querymix.KIND_WEIGHTS)
