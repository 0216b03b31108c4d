"""The prominence prior: per venue-year ranks, neutral where a source is silent, bounded (no Elasticsearch)."""

from __future__ import annotations

import pytest

from services.search.records.model import Links, Paper
from services.search.records.prominence import NEUTRAL, SCALE_POINTS, WEIGHTS, VenueScale, mid_rank, prominence, signals


def paper(**fields) -> Paper:
    return Paper(paper_id="p", conference="iclr", conference_name="ICLR", year=2024, title="T", **fields)


def test_weights_sum_to_one_and_a_silent_source_sits_in_the_middle():
    assert sum(WEIGHTS.values()) == pytest.approx(1.0)
    assert prominence(paper(status="accept")) == NEUTRAL  # no tier, rating, citations or code known


def test_a_venue_without_ratings_is_not_pushed_below_one_with_them():
    scale = VenueScale.of([3.0, 5.0, 6.0, 8.0], [])
    median_rated = paper(status="poster", rating_avg=5.5)
    unrated = paper(status="poster")
    assert prominence(unrated, VenueScale()) == prominence(median_rated, scale)


def test_ratings_and_citations_rank_within_their_venue_year():
    # The same rating means more on a harsh scale than on a lenient one.
    harsh, lenient = VenueScale.of([2.0, 3.0, 3.5, 4.0], []), VenueScale.of([5.0, 6.0, 7.0, 8.0], [])
    assert prominence(paper(rating_avg=4.0), harsh) > prominence(paper(rating_avg=6.5), lenient)
    old, new = VenueScale.of([], [500, 2000, 9000]), VenueScale.of([], [3, 10, 40])
    assert signals(paper(citations=40), new)["citations"] == signals(paper(citations=9000), old)["citations"]


def test_tiers_award_and_code_order_papers():
    assert prominence(paper(status="oral")) > prominence(paper(status="spotlight")) > prominence(paper(status="poster"))
    assert prominence(paper(status="poster", award=True)) > prominence(paper(status="oral"))
    assert prominence(paper(links=Links(code="https://github.com/x/y"))) > prominence(paper())
    assert prominence(paper(status="reject")) < NEUTRAL


def test_the_prior_is_bounded_and_rounded():
    scale = VenueScale.of([1.0, 2.0], [1, 2])
    top = paper(status="oral", award=True, rating_avg=9.0, citations=10**6, links=Links(project="https://x.org"))
    bottom = paper(status="withdrawn", rating_avg=0.5, citations=0)
    assert 0 <= prominence(bottom, scale) < NEUTRAL < prominence(top, scale) <= 1
    assert prominence(top, scale) == round(prominence(top, scale), 2)


def test_mid_rank_shares_ties_and_knows_nothing_without_values():
    table = (1.0, 2.0, 2.0, 3.0)
    assert mid_rank(2.0, table) == 0.5
    assert mid_rank(0.0, table) == 0.0 and mid_rank(9.0, table) == 1.0
    assert mid_rank(None, table) == NEUTRAL and mid_rank(2.0, ()) == NEUTRAL


def test_a_scale_keeps_at_most_its_quantiles_and_travels_as_json():
    scale = VenueScale.of([float(i) for i in range(10_000)] + [None], list(range(50)))
    assert len(scale.ratings) == SCALE_POINTS and scale.ratings[0] == 0.0 and scale.ratings[-1] == 9999.0
    assert len(scale.citations) == 50
    assert VenueScale.from_json(scale.to_json()) == scale
    assert VenueScale.from_json(None) == VenueScale()
