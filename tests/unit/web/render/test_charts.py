"""Chart geometry: axes true to time, the year under way marked, labels at their size and never crowded, bars of
a bounded width, no bar for an unknown rate, the charts' first year."""

from __future__ import annotations

import pytest
from fake_reads import fake_app

from services.search.answers.stats import KeyYearCount, Trends, YearCount, venue_year
from services.search.catalogue import taxonomy
from services.search.query.request import parse_request
from services.web.render import charts
from services.web.render.trends import acceptance_chart, chart_start, trends_view

NOW = 2026  # the year under way in these tests


def _stacked(counts, keys=("iclr", "icml"), **kw):
    return charts.stacked_years(counts, list(keys), str.upper, lambda c, y: f"/c/{c}/{y}", lambda y: f"/y/{y}",
                                label="x", current_year=NOW, **kw)


def _slot_centres(chart: charts.Chart) -> dict[str, float]:
    return {t.text: t.x for t in chart.texts if t.text.isdigit()}


@pytest.mark.parametrize("top,step", [(0, 1), (3, 1), (7, 2), (10, 5), (1261, 500), (99_999, 50_000)])
def test_nice_step(top, step):
    assert charts.nice_step(top) == step


def test_stacked_bars_stack_to_the_year_total_and_link_each_segment():
    chart = _stacked({("iclr", 2019): 10, ("icml", 2019): 30, ("iclr", 2020): 40})
    assert [m.href for m in chart.marks] == ["/c/iclr/2019", "/c/icml/2019", "/c/iclr/2020"]
    bottom = chart.grid[0][0]
    per_unit = chart.marks[0].height / 10
    assert chart.marks[1].height == pytest.approx(30 * per_unit, abs=0.02)
    assert chart.marks[1].y == pytest.approx(bottom - 40 * per_unit, abs=0.05)  # stacked on the first
    assert chart.marks[2].height == pytest.approx(40 * per_unit, abs=0.02)
    assert [t.href for t in chart.texts] == ["/y/2019", "/y/2020"]
    assert "2019" in chart.description and "40" in chart.description


def test_an_empty_year_keeps_its_place_on_the_axis():
    chart = _stacked({("iclr", 2013): 5, ("iclr", 2014): 5, ("iclr", 2017): 5})
    years = [t for t in chart.texts if t.text.isdigit()]
    assert [t.text for t in years] == ["2013", "2014", "2015", "2016", "2017"]
    assert [t.href for t in years] == ["/y/2013", "/y/2014", None, None, "/y/2017"]  # no link to an empty year
    xs = [t.x for t in years]
    gaps = {round(b - a, 2) for a, b in zip(xs, xs[1:], strict=False)}
    assert len(gaps) == 1  # evenly spaced years, so 2014 -> 2017 is three slots, not one
    bars = sorted(m.x for m in chart.marks)
    assert bars[2] - bars[1] == pytest.approx(3 * (bars[1] - bars[0]), abs=0.05)


def test_the_year_under_way_is_marked_so_far():
    chart = _stacked({("iclr", 2025): 40, ("icml", 2026): 12, ("iclr", 2026): 3})
    partial = [m for m in chart.marks if m.partial]
    assert [m.href for m in partial] == ["/c/iclr/2026", "/c/icml/2026"]
    assert all(m.opacity < 1 for m in partial) and all(m.title.endswith("so far: " + m.title.split(": ")[1])
                                                       for m in partial)
    assert not any(m.partial for m in chart.marks if "2025" in m.title)
    assert [(s.text, s.partial) for s in chart.legend] == [("ICLR", False), ("ICML", False), ("2026 so far", True)]
    assert "2026 is under way" in chart.description
    before = _stacked({("iclr", 2025): 4})
    assert not any(m.partial for m in before.marks) and not any(s.partial for s in before.legend)


def test_positions_are_shares_of_the_width_and_labels_keep_their_size():
    chart = _stacked({("iclr", y): 10 for y in range(2000, 2027)})
    assert all(0 <= m.x and m.x + m.width <= 100 for m in chart.marks)  # % of whatever width the panel has
    assert all(0 <= t.x <= 100 for t in chart.texts) and {t.size for t in chart.texts} == {charts.FONT}
    assert chart.grid[0][0] == chart.height - charts.BOTTOM and chart.grid[-1][0] == charts.TOP


@pytest.mark.parametrize("years", [3, 12, 27, 40])
def test_year_labels_never_crowd_a_desktop_panel_and_fewer_show_on_a_phone(years):
    chart = _stacked({("iclr", y): 5 for y in range(2027 - years, 2027)})
    labels = [t for t in chart.texts if t.text.isdigit()]
    assert labels[-1].text == "2026" and not labels[-1].minor  # the latest always, on every screen
    for plot, shown in ((charts.WIDE_PLOT, labels), (charts.NARROW_PLOT, [t for t in labels if not t.minor])):
        centres = [t.x * plot / 100 for t in shown]
        assert all(b - a >= charts.LABEL_ROOM - 1 for a, b in zip(centres, centres[1:], strict=False))
    # At the edges a label is drawn from or to the edge, not cut by it.
    assert labels[-1].anchor == "end" and labels[-1].x == 100 or labels[-1].anchor == "middle"


def test_one_year_is_a_bar_not_the_whole_chart():
    chart = _stacked({("iclr", 2024): 30, ("icml", 2024): 20})
    assert {m.width for m in chart.marks} == {charts.MAX_BAR}
    assert chart.marks[0].x == pytest.approx(50 - charts.MAX_BAR / 2)
    many = _stacked({("iclr", y): 3 for y in range(1990, 2027)})
    assert many.marks[0].width == pytest.approx(100 / 37 * charts.BAR_SHARE, abs=0.01)


def test_the_legend_names_each_colour_and_the_year_under_way():
    names = {k: k.upper() for k in ("a", "b", "c", "d", "e", "f", "g", "h", "i", "j")}
    bars = charts.stacked_years({(k, 2026): 5 for k in names}, list(names), names.get, lambda c, y: "#",
                                lambda y: "#", label="x", current_year=NOW)
    assert [s.text for s in bars.legend] == [*"ABCDEFGH", "Others", "2026 so far"]
    assert [s.fill for s in bars.legend[:8]] == list(charts.PALETTE) and bars.legend[-1].partial


def test_venues_past_the_palette_are_one_grey_segment_a_year():
    keys = [f"v{i}" for i in range(len(charts.PALETTE) + 3)]
    chart = charts.stacked_years({(k, 2024): 10 + i for i, k in enumerate(keys)}, keys, str.upper,
                                 lambda c, y: f"/c/{c}/{y}", lambda y: f"/y/{y}", label="x", current_year=NOW)
    assert len(chart.marks) == len(charts.PALETTE) + 1
    rest = chart.marks[-1]
    assert rest.fill == charts.OTHER and rest.href == "/y/2024"
    assert rest.title == "Others 2024 (3 more venues): 57 papers"  # 18 + 19 + 20


def test_the_heatmap_rows_have_whole_labels_and_a_cell_a_year():
    topics = sorted((t.slug for t in taxonomy.TOPICS), key=lambda s: -len(taxonomy.label(s)))[:3]
    grid = charts.heatmap({(t, y): 1 + i for i, t in enumerate(topics) for y in (2013, 2015)}, topics,
                          taxonomy.label, lambda t, y: f"/{t}/{y}", lambda t: f"/{t}", label="x", current_year=NOW)
    assert [r.label for r in grid.rows] == [taxonomy.label(t) for t in topics]  # whole, never "…"
    assert [y.year for y in grid.years] == [2013, 2014, 2015]
    first = grid.rows[0].cells
    assert first[1] is None and first[0].href == f"/{topics[0]}/2013" and first[0].title.endswith(": 1 paper")
    assert grid.rows[2].cells[0].opacity == 1.0 and first[0].opacity < grid.rows[1].cells[0].opacity


def test_the_heatmap_marks_the_year_under_way():
    grid = charts.heatmap({("rl", 2024): 5, ("rl", 2026): 2}, ["rl"], str, lambda t, y: "#", lambda t: "#",
                          label="x", current_year=NOW)
    cells = grid.rows[0].cells
    assert [c.partial for c in cells if c] == [False, True] and cells[1] is None
    assert grid.under_way == 2026 and [y.partial for y in grid.years] == [False, False, True]
    assert "2026 is under way" in grid.description


def test_an_unknown_rate_gets_no_bar():
    chart = charts.accepted_vs_submitted([(2016, 300, 1000, 0.3), (2018, 500, None, None)], lambda y: f"/{y}",
                                         label="x")
    assert [m.title for m in chart.marks] == ["2016: 1,000 submissions", "2016: 300 accepted"]
    assert [t.text for t in chart.texts if not t.text.isdigit()] == ["30%", "n/a"]
    years = [t for t in chart.texts if t.text.isdigit()]
    assert [(t.text, t.href) for t in years] == [("2016", "/2016"), ("2017", None), ("2018", "/2018")]
    [na] = [t for t in chart.texts if t.text == "n/a"]
    assert na.y == pytest.approx(chart.grid[0][0] - 4) and "no rejections" in na.title  # at the baseline
    assert "1,000" in chart.grid[-1][1]


def test_a_venue_without_any_rate_has_no_acceptance_chart():
    cvpr = [venue_year("cvpr", y, {"Poster": 900, "Oral": 90}) for y in range(2013, 2026)]
    assert acceptance_chart("cvpr", cvpr) is None
    tmlr = [venue_year("tmlr", y, {"Journal": 500}) for y in (2023, 2024)]
    assert acceptance_chart("tmlr", tmlr) is None  # a journal has no rate


def test_a_year_listing_only_some_rejections_draws_no_bar():
    years = [venue_year("neurips", 2021, {"Poster": 2300, "Reject": 100}),  # only the public rejections
             venue_year("neurips", 2020, {"Poster": 1900, "Reject": 7500})]
    with fake_app().test_request_context():
        chart = acceptance_chart("neurips", sorted(years, key=lambda v: v.year))
    assert [m.title for m in chart.marks] == ["2020: 9,400 submissions", "2020: 1,900 accepted"]
    assert [t.text for t in chart.texts if not t.text.isdigit()] == ["20%", "n/a"]


def test_the_charts_start_at_the_first_year_with_a_hundredth_of_the_peak():
    assert chart_start([(1987, 1), (1995, 1), (2013, 30), (2024, 200)]) == 2013  # 1% of 200 is 2
    assert chart_start([(1987, 1), (1995, 2), (2013, 30), (2024, 200)]) == 1995
    assert chart_start([(2020, 5), (2021, 5)]) == 2020
    assert chart_start([]) is None
    trends = Trends(232, (YearCount(1990, 1), YearCount(2020, 31), YearCount(2024, 200)),
                    (KeyYearCount("iclr", 1990, 1), KeyYearCount("iclr", 2020, 31), KeyYearCount("icml", 2024, 200)),
                    (KeyYearCount("rl", 1990, 1), KeyYearCount("rl", 2020, 3), KeyYearCount("rl", 2024, 200)))
    with fake_app().test_request_context():
        view = trends_view(parse_request({}), trends)
    assert (view.since, view.earlier) == (2020, 1)
    assert [t.text for t in view.bars.texts if t.text.isdigit()][0] == "2020"
    assert [y.year for y in view.grid.years][0] == 2020
    assert view.by_conference[("iclr", 1990)] == 1  # the tables keep every year


def test_score_bins_stack_each_bins_decisions_to_its_papers_and_label_its_share():
    bins = [("3–3.5", 4, {"not-accepted": 4}, "0/4"), ("3.5–4", 0, {}, ""),
            ("6–6.5", 20, {"poster": 10, "oral": 2, "not-accepted": 8}, "60%")]
    chart = charts.score_bins(bins, ["oral", "poster", "not-accepted"], str.capitalize, label="Scores")
    assert [m.fill for m in chart.marks][:1] == [charts.OTHER]  # not accepted: grey, on every venue's chart
    tall = [m for m in chart.marks if "6–6.5" in m.title]
    assert sum(m.height for m in tall) == pytest.approx(20 * (tall[0].height / 2), rel=0.01)
    assert {m.fill for m in tall} == {charts.DECISION_FILLS["oral"], charts.DECISION_FILLS["poster"], charts.OTHER}
    labels = [t.text for t in chart.texts]
    assert "60%" in labels and "0/4" in labels and labels.count("3.5") == 1  # an empty bin keeps its slot
    assert all(0 <= m.x and m.x + m.width <= 100 for m in chart.marks)  # x in % of the chart's width
    assert [s.text for s in chart.legend] == ["Oral", "Poster", "Not-accepted"]  # an HTML legend
    assert all(m.href is None for m in chart.marks)  # the table under it has every number


def test_score_bins_on_a_phone_keep_every_other_label_and_no_shares_where_they_crowd():
    bins = [(f"{lo / 2:g}–{lo / 2 + 0.5:g}", 20, {"poster": 10, "not-accepted": 10}, "50%") for lo in range(2, 20)]
    chart = charts.score_bins(bins, ["poster", "not-accepted"], str.capitalize, label="Scores")
    names = [t for t in chart.texts if t.size == charts.FONT]
    shares = [t for t in chart.texts if t.text == "50%"]
    assert len(names) == len(bins) and [t.text for t in names if not t.minor][0] == "1"
    assert 0 < sum(not t.minor for t in names) < len(bins)  # a phone labels every n-th bin
    assert shares and all(t.minor for t in shares)  # 18 shares would crowd a phone's width
    assert max(m.width for m in chart.marks) <= charts.MAX_BAR


def test_a_sparkline_draws_each_year_as_a_share_and_marks_the_current_one():
    chart = charts.sparkline([(2020, 5, 100), (2022, 20, 100)], 2022, label="MIT")
    assert len(chart.marks) == 3  # 2021 keeps its slot, with no papers counted
    first, gap, last = chart.marks
    assert last.fill == charts.ACCENT and first.fill == charts.MUTED
    assert last.height > first.height > gap.height and "2021: no papers with affiliations" == gap.title
    assert "5.0% in 2020, 20.0% in 2022" in chart.description
