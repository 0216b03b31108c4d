"""Rating histograms by decision, shaped from a histogram-by-raw-status answer."""

from __future__ import annotations

from services.search.answers.score_histogram import (
    BIN_WIDTH,
    ScoreBin,
    ScoreHistogram,
    accepted_only,
    decision,
    place,
    score_bins,
    score_histogram_agg,
    shape_score_histogram,
)


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


# -- where a score lands (issue 33) ---------------------------------------------------------------


def _landing():
    values = {"buckets": [{"key": 3.6666666507720947, "doc_count": 20}, {"key": 3.67, "doc_count": 1},
                          {"key": 5.5, "doc_count": 30}, {"key": 8.0, "doc_count": 7}]}
    return shape_score_histogram("iclr", answer(
        (3.5, {"Reject": 15, "Withdraw": 5, "Desk Reject": 1}),
        (5.5, {"Poster": 20, "Reject": 9, "Workshop": 1}),
        (8.0, {"Oral": 3, "Top-25%": 2, "Accept": 1, "Poster": 1})), values)


def test_score_bins_count_main_track_acceptance_and_each_tier_and_sum_to_the_scored_papers():
    bins = score_bins(_landing())
    assert [(b.lo, b.hi, b.papers, b.accepted) for b in bins] == [(3.5, 4.0, 21, 0), (5.5, 6.0, 30, 20),
                                                                  (8.0, 8.5, 7, 7)]
    # A side programme (the workshop) is a tier of its own, not a main-track acceptance; a plain Accept has no tier.
    assert bins[1].by_tier == {"poster": 20, "workshop": 1} and bins[1].not_accepted == 10
    assert bins[2].by_tier == {"oral": 3, "spotlight": 2, "poster": 1}
    assert sum(b.papers for b in bins) == _landing().total == 58


def test_every_distinct_mean_is_kept_to_two_decimals():
    assert _landing().values == ((3.67, 21), (5.5, 30), (8.0, 7))


def test_a_score_is_placed_among_the_scored_papers_and_in_its_bin():
    hist = _landing()
    p = place(hist, 5.5)
    assert (p.scored, p.below, p.same, p.above) == (58, 21, 30, 7)
    assert round(p.percentile, 1) == round(100 * 21 / 58, 1) and p.bin.lo == 5.5
    assert place(hist, 3.667).same == 21  # typed to three decimals, compared to two
    high = place(hist, 9.9)
    assert (high.below, high.bin) == (58, None)  # beyond the last bin: no bin, every paper below
    assert place(hist, 1.0).below == 0 and place(hist, 1.0).bin is None
    assert place(hist, 4.2).bin is None  # between bins that hold papers: an empty stretch, no bin listed


def test_scores_of_accepted_papers_only_are_told_apart():
    assert not accepted_only(_landing())
    only = ScoreHistogram("rating_avg", 0.5, (ScoreBin(6.0, 6.5, {"poster": 3}), ScoreBin(6.5, 7.0, {})), ("poster",))
    assert accepted_only(only) and not accepted_only(ScoreHistogram("rating_avg", 0.5, (), ()))
