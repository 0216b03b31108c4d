"""Rating histograms by decision, shaped from a histogram-by-raw-status answer."""

from __future__ import annotations

from services.search.score_histogram import BIN_WIDTH, decision, score_histogram_agg, shape_score_histogram


def answer(*bins):
    return {"buckets": [{"key": low, "doc_count": sum(c.values()),
                         "statuses": {"buckets": [{"key": k, "doc_count": n} for k, n in c.items()]}}
                        for low, c in bins]}


def test_decisions_by_tier_rejected_withdrawn():
    assert [decision("iclr", s) for s in ("Oral", "Top-25%", "Poster", "Accept", "Reject", "Desk Reject",
                                          "Withdraw", "Active", "Workshop")] == [
        "oral", "spotlight", "poster", "accepted", "rejected", "rejected", "withdrawn", "undecided", "workshop"]


def test_bins_count_each_decision_and_sum_to_the_rated_papers():
    hist = shape_score_histogram("iclr", answer(
        (3.0, {"Reject": 40, "Withdraw": 12, "Desk Reject": 1}),
        (3.5, {}),
        (5.5, {"Poster": 20, "Reject": 10}),
        (8.0, {"Oral": 3, "Top-25%": 2, "Poster": 1, "Workshop": 1})))
    assert [b.low for b in hist.bins] == [3.0, 3.5, 5.5, 8.0] and hist.bins[0].high == 3.0 + BIN_WIDTH
    assert hist.bins[0].counts == {"rejected": 41, "withdrawn": 12} and hist.bins[1].total == 0
    assert hist.decisions == ("oral", "spotlight", "poster", "workshop", "rejected", "withdrawn")
    assert hist.total == 53 + 30 + 7
    assert hist.by_decision() == {"oral": 3, "spotlight": 2, "poster": 21, "workshop": 1, "rejected": 51,
                                  "withdrawn": 12}


def test_no_ratings_no_bins():
    hist = shape_score_histogram("cvpr", {"buckets": []})
    assert hist.total == 0 and hist.bins == () and hist.decisions == ()


def test_the_aggregation_keeps_empty_bins_and_every_status():
    agg = score_histogram_agg(500)
    assert agg["histogram"] == {"field": "rating_avg", "interval": BIN_WIDTH, "min_doc_count": 0}
    assert agg["aggs"]["statuses"]["terms"]["size"] == 500
