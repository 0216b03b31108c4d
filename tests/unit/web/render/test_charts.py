"""Chart geometry: axes true to time, the year under way marked, labels never cut, no bar for an unknown rate."""

from __future__ import annotations

import pytest
from fake_reads import fake_app

from services.search import taxonomy
from services.search.stats import venue_year
from services.web.render import charts
from services.web.render.trends import acceptance_chart

NOW = 2026  # the year under way in these tests


def _stacked(counts, keys=("iclr", "icml"), **kw):
    return charts.stacked_years(counts, list(keys), str.upper, lambda c, y: f"/c/{c}/{y}", lambda y: f"/y/{y}",
                                label="x", current_year=NOW, **kw)


def _all_inside(chart: charts.Chart) -> bool:
    """Every text within the chart's width, as wide as it is drawn (by its anchor)."""
    for t in chart.texts:
        w = charts.text_width(t.text, t.size)
        start = t.x - {"middle": w / 2, "end": w}.get(t.anchor, 0)
        if start < 0 or start + w > chart.width:
            return False
    return True


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


def test_no_label_is_cut():
    # The widest topic label, and a legend of long conference names, fit whole inside the chart.
    topics = sorted((t.slug for t in taxonomy.TOPICS), key=lambda s: -len(taxonomy.label(s)))[:10]
    grid = charts.heatmap({(t, y): 1 + i for i, t in enumerate(topics) for y in range(2013, 2027)}, topics,
                          taxonomy.label, lambda t, y: "#", lambda t: "#", label="x", current_year=NOW)
    labels = [t for t in grid.texts if t.anchor == "end" and not t.text.isdigit()]
    assert [t.text for t in labels] == [taxonomy.label(t) for t in topics]  # whole, never "…"
    assert all(t.x - charts.text_width(t.text) >= 0 for t in labels)
    assert min(m.x for m in grid.marks) >= max(t.x for t in labels)
    names = {"siggraph-asia": "SIGGRAPH Asia", "eurographics": "Eurographics", "interspeech": "Interspeech",
             "ecml-pkdd": "ECML PKDD", "humanoids": "Humanoids", "aaai": "AAAI"}
    bars = charts.stacked_years({(k, 2020): 100_000 for k in names}, list(names), names.get, lambda c, y: "#",
                                lambda y: "#", label="x", current_year=NOW)
    assert [s.text for s in bars.legend] == list(names.values())
    for swatch in bars.legend:
        assert swatch.x + 14 + charts.text_width(swatch.text, charts.LEGEND_FONT) <= bars.width
    rows = sorted({s.y for s in bars.legend})
    assert len(rows) > 1 and all(s.y + 10 < bars.grid[-1][0] for s in bars.legend)  # legend above the plot
    assert all(charts.text_width(tick) + 4 <= bars.left for _, tick in bars.grid)  # "400,000" fits the margin
    assert _all_inside(grid) and _all_inside(bars)


def test_a_long_label_widens_the_chart_instead_of_being_cut():
    long = "A Topic Whose Name Goes On and On Well Past Any Reasonable Length For a Label"
    grid = charts.heatmap({("t", 2020): 3}, ["t"], lambda _: long, lambda t, y: "#", lambda t: "#", label="x",
                          current_year=NOW)
    [text] = [t for t in grid.texts if t.text == long]
    assert text.x - charts.text_width(long) >= 0 and grid.width > 520 and grid.right - grid.left >= grid.width / 2 - 8


def test_the_heatmap_marks_the_year_under_way_above_its_column():
    grid = charts.heatmap({("rl", 2024): 5, ("rl", 2026): 2}, ["rl"], str, lambda t, y: "#", lambda t: "#",
                          label="x", current_year=NOW)
    assert [m.partial for m in grid.marks] == [False, True]
    [so_far] = [t for t in grid.texts if t.text == "so far"]
    assert so_far.x == pytest.approx(_slot_centres(grid)["2026"], abs=0.05) and so_far.y < grid.marks[1].y
    assert [t.text for t in grid.texts if t.text.isdigit()] == ["2024", "2025", "2026"]


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
