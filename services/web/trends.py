"""What results and conference pages show of the stats: charts, their tables, the links they apply."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from flask import url_for

from services.search import conferences, taxonomy
from services.search.request import SearchRequest
from services.search.stats import Trends, VenueYear

from . import charts, pages

TOP_TOPICS = 10  # rows of the topics-over-years grid


@dataclass(frozen=True)
class TrendsView:
    trends: Trends
    conferences: list[str]  # by papers in the result set, most first
    topics: list[str]       # the largest topics, most first
    by_conference: dict[tuple[str, int], int]
    by_topic: dict[tuple[str, int], int]
    bars: charts.Chart
    grid: charts.Chart
    csv_url: str
    req: SearchRequest

    def filter_url(self, **values: Any) -> str:
        return filter_url(self.req, **values)


def filter_url(req: SearchRequest, **values: Any) -> str:
    """The search with these filters set instead (a chart's bar or cell, a table's number)."""
    return pages.url_with(url_for("pages.search"), req, page=None, **{name: [str(v)] for name, v in values.items()})


def trends_view(req: SearchRequest, total: int) -> TrendsView | None:
    """The charts of a results page; None for an empty result set (no request is made)."""
    if not total:
        return None
    trends = pages.search_service().trends(req)
    by_conference = {(c, y): n for c, y, n in trends.by_conference_year}
    by_topic = {(t, y): n for t, y, n in trends.by_topic_year}
    conference_totals: Counter[str] = Counter()
    topic_totals: Counter[str] = Counter()
    for (c, _), n in by_conference.items():
        conference_totals[c] += n
    for (t, _), n in by_topic.items():
        topic_totals[t] += n
    ordered = [c for c, _ in conference_totals.most_common()]
    topics = [t for t, _ in topic_totals.most_common(TOP_TOPICS)]
    bars = charts.stacked_years(
        by_conference, ordered, conferences.label,
        lambda c, y: filter_url(req, conference=c, year=y), lambda y: filter_url(req, year=y),
        label="Papers per year by conference")
    grid = charts.heatmap(
        {k: v for k, v in by_topic.items() if k[0] in topics}, topics, taxonomy.label,
        lambda t, y: filter_url(req, topic=t, year=y), lambda t: filter_url(req, topic=t),
        label="Topics over the years")
    csv_url = pages.url_with(url_for("stats_api.stats"), req, format="csv", page=None)
    return TrendsView(trends, ordered, topics, by_conference, by_topic, bars, grid, csv_url, req)


def venue_context(slug: str, year: int | None = None) -> dict[str, Any]:
    """Venue statistics for a conference page (a chart across years) or a conference-year page."""
    years = pages.search_service().venue_years(slug, year)
    if year is not None:
        return {"venue": years[0]} if years else {}
    return {"venue_years": years, "venue_chart": acceptance_chart(slug, years)} if years else {}


def acceptance_chart(slug: str, years: list[VenueYear]) -> charts.Chart:
    return charts.accepted_vs_submitted(
        [(v.year, v.accepted, v.submissions, v.acceptance_rate) for v in years],
        lambda y: url_for("pages.conference_year", slug=slug, year=y),
        label=f"{conferences.label(slug)}: accepted papers and submissions per year")
