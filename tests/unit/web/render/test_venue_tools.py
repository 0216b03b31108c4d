"""The tools' page models: shares never without their count below 10 papers, a score landing, institutions."""

from __future__ import annotations

import pytest
from fake_reads import fake_app

from services.search.answers.score_histogram import ScoreBin, ScoreHistogram
from services.search.answers.stats import Institution, Institutions, YearCount, YearCoverage, venue_year
from services.web.render.venue_tools import institutions_view, score_landing, share, short_share


@pytest.mark.parametrize(("n", "of", "text"), [(3, 7, "3 of 7"), (9, 9, "9 of 9"), (3, 10, "30% (3 of 10)"),
                                               (239, 412, "58% (239 of 412)"), (0, 0, "—")])
def test_a_share_of_fewer_than_ten_papers_is_its_count(n, of, text):
    assert share(n, of) == text


def test_a_charts_share_label_is_short_and_counts_small_bins():
    assert (short_share(3, 7), short_share(6, 10)) == ("3/7", "60%")


def _venue(bins, values=(), conference="iclr", year=2021):
    hist = ScoreHistogram("rating_avg", 0.5, tuple(bins), ("oral", "poster", "findings", "rejected"), tuple(values))
    return venue_year(conference, year, {"Poster": 1}, scores=hist)


def test_a_landing_stacks_tiers_then_untiered_then_side_programmes_then_the_rest():
    venue = _venue([ScoreBin(5.0, 5.5, {"rejected": 9, "findings": 2, "accepted": 1}),
                    ScoreBin(5.5, 6.0, {"oral": 1, "poster": 10})], [(5.25, 12), (5.75, 11)])
    landing = score_landing(venue, 5.6)
    assert landing.tiers == ("oral", "poster", "findings")
    assert [s.text for s in landing.chart.legend] == ["Oral", "Poster", "Accepted (no tier)", "Findings",
                                                      "Not accepted"]
    assert landing.place.bin.lo == 5.5 and landing.place.below == 12 and landing.population == "submissions"
    assert not landing.accepted_only and not landing.some_rejections
    assert score_landing(_venue([]), 5) is None  # no scores, no landing


def test_institutions_link_a_search_of_exactly_the_papers_counted():
    data = Institutions("iclr", 2021, 100, 80, (Institution("A & B Lab", 4, {"poster": 4}, (YearCount(2020, 1),)),),
                        (), (YearCoverage(2020, 50, 40), YearCoverage(2021, 100, 80)))
    view = institutions_view(data)
    lab = data.by_papers[0]
    with fake_app().test_request_context():
        assert view.search_url(lab) == "/search?affiliation=A+%26+B+Lab&conference=iclr&year=2021"
        assert view.search_url(lab, ("oral",)) == "/search?affiliation=A+%26+B+Lab&conference=iclr&status=oral&year=2021"
    assert view.tiers == ("poster",) and view.share_counted == 0.8
    assert [m.title for m in view.sparks["A & B Lab"].marks] == [
        "2020: 1 of 40 papers with affiliations (2.5%)", "2021: 0 of 80 papers with affiliations (0.0%)"]
