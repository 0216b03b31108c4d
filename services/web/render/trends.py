"""What results and conference pages show of the stats: charts, their tables, the links they apply.

Pure: the view asks the search layer for the numbers and passes them in.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from flask import url_for

from services.search.answers.stats import Trends, VenueYear
from services.search.catalogue import taxonomy, venues
from services.search.query.request import SearchRequest

from ..urls import prepared, url_with
from . import charts

TOP_TOPICS = 10  # rows of the topics-over-years grid
CHART_MIN_SHARE = 0.01  # the charts start at the first year with this share of the peak year's papers


class FilterLinks:
    """Search URLs with some filters set instead, each built once from the request's query string
    encoded once (:func:`~services.web.urls.prepared`): a page has thousands of marks and cells."""

    def __init__(self, req: SearchRequest):
        self.query = prepared(url_for("pages.search"), req)
        self.built: dict[tuple, str] = {}

    def __call__(self, **values: Any) -> str:
        key = tuple(values.items())
        found = self.built.get(key)
        if found is None:
            found = self.built[key] = self.query.changed({"page": None, **values})
        return found


@dataclass(frozen=True)
class TrendsView:
    trends: Trends
    conferences: list[str]  # by papers in the result set, most first
    topics: list[str]       # the largest topics, most first
    by_conference: dict[tuple[str, int], int]
    by_topic: dict[tuple[str, int], int]
    bars: charts.Chart
    grid: charts.HeatGrid
    csv_url: str
    filter_url: FilterLinks  # the search with these filters set (a bar, a cell, a table's number)
    since: int | None = None  # the charts' first year, where earlier years are left to the tables
    earlier: int = 0  # papers of the years before it


def chart_start(by_year: Sequence[tuple[int, int]], share: float = CHART_MIN_SHARE) -> int | None:
    """The first year with at least ``share`` of the peak year's papers: a long tail of a paper or
    two a year since 1987 would otherwise squeeze the years that matter into a corner."""
    peak = max((n for _, n in by_year), default=0)
    return min((y for y, n in by_year if n >= share * peak), default=None) if peak else None


def trends_view(req: SearchRequest, trends: Trends) -> TrendsView:
    """The charts of a results page."""
    by_conference = {(c, y): n for c, y, n in trends.by_conference_year}
    by_topic = {(t, y): n for t, y, n in trends.by_topic_year}
    since = chart_start(trends.by_year)

    def charted(year: int) -> bool:
        return since is None or year >= since
    conference_totals: Counter[str] = Counter()
    topic_totals: Counter[str] = Counter()
    for (c, _), n in by_conference.items():
        conference_totals[c] += n
    for (t, _), n in by_topic.items():
        topic_totals[t] += n
    ordered = [c for c, _ in conference_totals.most_common()]
    topics = [t for t, _ in topic_totals.most_common(TOP_TOPICS)]
    filter_url = FilterLinks(req)
    bars = charts.stacked_years(
        {k: v for k, v in by_conference.items() if charted(k[1])}, ordered, venues.label,
        lambda c, y: filter_url(conference=c, year=y), lambda y: filter_url(year=y),
        label="Papers per year by conference")
    grid = charts.heatmap(
        {k: v for k, v in by_topic.items() if k[0] in topics and charted(k[1])}, topics, taxonomy.label,
        lambda t, y: filter_url(topic=t, year=y), lambda t: filter_url(topic=t),
        label="Topics over the years")
    csv_url = url_with(url_for("stats.stats"), req, format="csv", page=None)
    earlier = sum(n for y, n in trends.by_year if not charted(y))
    return TrendsView(trends, ordered, topics, by_conference, by_topic, bars, grid, csv_url, filter_url,
                      since if earlier else None, earlier)


def venue_context(slug: str, years: list[VenueYear], year: int | None = None) -> dict[str, Any]:
    """Venue statistics for a conference page (a chart across years) or a conference-year page."""
    if year is not None:
        return {"venue": years[0]} if years else {}
    return {"venue_years": years, "venue_chart": acceptance_chart(slug, years)} if years else {}


def acceptance_chart(slug: str, years: list[VenueYear]) -> charts.Chart | None:
    """Accepted against submitted per year; none for a journal, nor where no year's source lists all its
    rejections (a year listing only some draws no bar: its rate is no submissions' rate)."""
    known = [v.rejections_complete and v.acceptance_rate is not None for v in years]
    if not any(known):
        return None
    return charts.accepted_vs_submitted(
        [(v.year, v.accepted, v.submissions if ok else None, v.acceptance_rate if ok else None)
         for v, ok in zip(years, known)],
        lambda y: url_for("pages.conference_year", slug=slug, year=y),
        label=f"{venues.label(slug)}: accepted papers and submissions per year")
