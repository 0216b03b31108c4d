"""Geometry of the server-rendered charts; templates only draw what is computed here.

A chart fills the width it is given, a desktop's panel or a phone's: an SVG without a viewBox
whose horizontal positions are percentages of its width and whose vertical ones are pixels, so
its labels keep their size (:data:`FONT` px) at any width instead of shrinking with the drawing.
Year labels that would crowd a phone are marked ``minor`` (the stylesheet hides them there);
legends are HTML lists, which wrap like text; the topics-by-year heat map is an HTML grid
(its row labels take the room they need, its cells share the rest). No script and no inline
script, so the charts work under the site's Content-Security-Policy and without JavaScript.
Every mark carries its link and its numbers as a tooltip (``<title>``); ``app.js`` also shows
the numbers of the mark under the pointer or the keyboard focus beside the chart. Templates
add the table fallback from the same data.

Axes are true to time (every year between the first and the last has its slot, empty or not),
the year still under way is marked ("so far": lighter, dashed), a bar is never wider than
:data:`MAX_BAR` of the chart (one year is a bar, not the whole panel), and a rate that is unknown
gets no bar.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence, Sized
from dataclasses import dataclass, field
from datetime import date

# Okabe-Ito colours (distinguishable with colour-blindness), then grey for the rest.
PALETTE = ("#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#8c6d31", "#7570b3")
OTHER = "#a0a4ab"
ACCENT, MUTED = "#2f5bd3", "#c9cdd3"
FONT = 12  # px: axis labels and ticks
SMALL_FONT = 11  # px: the rate over a bar, "n/a"
LABEL_ROOM = 40  # px a year label needs beside the next one
WIDE_PLOT, NARROW_PLOT = 780, 300  # px of a chart's width on a desktop's results panel and on a phone
BAR_SHARE = 0.8  # of its year's slot a bar takes...
MAX_BAR = 9.0  # ... but never more than this % of the chart's width
PARTIAL_OPACITY = 0.55  # marks of the year still under way
TOP, BOTTOM = 18, 26  # px above the highest grid line (its tick label) and below the baseline (year labels)


def this_year() -> int:
    """The year still under way: its conferences are not all held yet, its lists not all in."""
    return date.today().year


def timeline(years: Iterable[int]) -> list[int]:
    """Every year from the first to the last: an axis true to time, where a year without papers keeps its place."""
    present = sorted(set(years))
    return list(range(present[0], present[-1] + 1)) if present else []


@dataclass(frozen=True)
class Mark:
    """A bar segment: ``x`` and ``width`` in % of the chart's width, ``y`` and ``height`` in px."""

    x: float
    y: float
    width: float
    height: float
    fill: str
    title: str
    href: str | None = None
    opacity: float = 1.0
    partial: bool = False  # of the year still under way: drawn lighter, with a dashed outline


@dataclass(frozen=True)
class Text:
    """A label: ``x`` in % of the chart's width, ``y`` (its baseline) in px."""

    x: float
    y: float
    text: str
    href: str | None = None
    anchor: str = "middle"
    title: str = ""
    size: float = FONT
    minor: bool = False  # left out on a narrow screen, where it would crowd its neighbours


@dataclass(frozen=True)
class Swatch:
    """A legend entry (an HTML list item): its colour and its words."""

    fill: str
    text: str
    partial: bool = False  # the key to the year under way: an empty, dashed box


@dataclass
class Chart:
    """One SVG as wide as its container and ``height`` px high: marks, labels, grid lines, legend."""

    height: int
    label: str  # the aria-label and <title>
    description: str  # the <desc>
    marks: list[Mark] = field(default_factory=list)
    texts: list[Text] = field(default_factory=list)
    grid: list[tuple[float, str]] = field(default_factory=list)  # (y in px, tick label), the baseline first
    legend: list[Swatch] = field(default_factory=list)


@dataclass(frozen=True)
class Cell:
    """One cell of the heat map: a row's papers in one year, shaded by ``opacity``."""

    count: int
    opacity: float
    title: str
    href: str | None
    partial: bool = False


@dataclass(frozen=True)
class HeatRow:
    label: str
    href: str
    cells: tuple[Cell | None, ...]  # one per year of the axis; None where the row has no papers


@dataclass(frozen=True)
class YearLabel:
    year: int
    shown: bool  # labelled at all (every n-th year where they crowd, the latest always)
    minor: bool  # labelled on a wide screen only
    partial: bool  # the year under way


@dataclass
class HeatGrid:
    """Rows (topics) by years, as an HTML grid."""

    label: str
    description: str
    years: list[YearLabel]
    rows: list[HeatRow]
    under_way: int | None = None


def nice_step(top: int, ticks: int = 4) -> int:
    """A round tick step (1, 2 or 5 times a power of ten) giving at most ``ticks`` steps up to ``top``."""
    raw = max(top, 1) / ticks
    power = 10 ** math.floor(math.log10(raw)) if raw >= 1 else 1
    return next(int(m * power) for m in (1, 2, 5, 10) if m * power >= raw)


def colours(keys: Sequence[str]) -> dict[str, str]:
    """Palette colours for the first keys, grey for the rest."""
    return {k: PALETTE[i] if i < len(PALETTE) else OTHER for i, k in enumerate(keys)}


def _y_ticks(peak: int, fmt: Callable[[int], str]) -> list[tuple[int, str]]:
    """Tick values from 0 to a round top value at or above ``peak``, with their labels."""
    step = nice_step(peak)
    ceiling = step * math.ceil(max(peak, 1) / step)
    return [(v, fmt(v)) for v in range(0, ceiling + 1, step)]


def _y_axis(chart: Chart, ticks: Sequence[tuple[int, str]], top: float, bottom: float) -> float:
    """Grid lines at the ticks from ``bottom`` up to ``top``; returns px per count."""
    scale = (bottom - top) / ticks[-1][0]
    chart.grid = [(round(bottom - v * scale, 2), label) for v, label in ticks]
    return scale


def label_every(years: int, plot: float) -> int:
    """Label every n-th of ``years`` slots so that labels ``LABEL_ROOM`` px wide do not crowd a ``plot`` px wide."""
    return max(1, math.ceil(LABEL_ROOM / (plot / max(years, 1))))


def _year_labels(chart: Chart, years: Sequence[int], *, linked: Callable[[int], str | None],
                 partial_from: int | None = None) -> None:
    """Year labels under the slots: every n-th where they crowd a desktop's panel (the latest always),
    fewer still marked ``minor`` for a phone's; the first and last kept inside the chart's edges."""
    slot = 100 / max(len(years), 1)
    wide, narrow = label_every(len(years), WIDE_PLOT), label_every(len(years), NARROW_PLOT)
    edge = 100 * LABEL_ROOM / 2 / NARROW_PLOT  # % of a phone's chart half a label takes
    y = chart.height - 8
    for i, year in enumerate(years):
        from_end = len(years) - 1 - i
        if from_end % wide:
            continue
        x, anchor = round((i + 0.5) * slot, 2), "middle"
        if x < edge:
            x, anchor = 0.0, "start"
        elif x > 100 - edge:
            x, anchor = 100.0, "end"
        href = linked(year)
        under_way = partial_from is not None and year >= partial_from
        title = f"{year} so far: the year is under way" if under_way else f"Only {year}" if href else ""
        chart.texts.append(Text(x, y, str(year), href, anchor, title, minor=bool(from_end % narrow)))


def _slots(slots: Sized) -> tuple[float, float]:
    """(slot, bar) widths in % of the chart for ``slots`` (years, bins): a bar is :data:`BAR_SHARE` of its slot,
    at most :data:`MAX_BAR`."""
    slot = 100 / max(len(slots), 1)
    return slot, min(slot * BAR_SHARE, MAX_BAR)


def _papers(n: int) -> str:
    return f"{n:,} paper{'s' if n != 1 else ''}"


def stacked_years(counts: Mapping[tuple[str, int], int], keys: Sequence[str], label_of: Callable[[str], str],
                  cell_href: Callable[[str, int], str], year_href: Callable[[int], str], *,
                  label: str, height: int = 240, current_year: int | None = None) -> Chart:
    """Bars per year, stacked by key (``keys`` in stacking order, the largest first), on a time axis: the
    first keys one colour each, the rest one grey "Others" segment a year (their slivers are too thin to
    see or click; the tables give each).

    The year still under way (``current_year``, this year unless given) and any later one is drawn
    lighter with a dashed outline, which the legend's last key names ("2026 so far").
    """
    partial_from = current_year or this_year()
    years = timeline(y for _, y in counts)
    totals = {y: sum(counts.get((k, y), 0) for k in keys) for y in years}
    under_way = [y for y in years if y >= partial_from and totals[y]]
    ticks = _y_ticks(max(totals.values(), default=0), lambda v: f"{v:,}")
    chart = Chart(height, label, "")
    fills = colours(keys)
    chart.legend = [Swatch(fills[k], label_of(k)) for k in keys[:len(PALETTE)]]
    chart.legend += [Swatch(OTHER, "Others")] if len(keys) > len(PALETTE) else []
    chart.legend += [Swatch("none", f"{under_way[0]} so far", True)] if under_way else []
    bottom = height - BOTTOM
    scale = _y_axis(chart, ticks, TOP, bottom)
    slot, bar = _slots(years)
    named, others = keys[:len(PALETTE)], keys[len(PALETTE):]
    for i, year in enumerate(years):
        x = round(i * slot + (slot - bar) / 2, 3)
        y = bottom
        partial = year >= partial_from
        so_far = " so far" if partial else ""
        # The named keys one segment each; the rest one grey "Others" segment (linked to the year).
        rest = [counts.get((k, year), 0) for k in others]
        segments = [(counts.get((k, year), 0), fills[k], f"{label_of(k)} {year}{so_far}", cell_href(k, year))
                    for k in named]
        segments.append((sum(rest), OTHER, f"Others {year}{so_far} ({sum(1 for n in rest if n)} more venues)",
                         year_href(year)))
        for n, fill, what, href in segments:
            if not n:
                continue
            h = n * scale
            y -= h
            chart.marks.append(Mark(x, round(y, 2), round(bar, 3), round(h, 2), fill, f"{what}: {_papers(n)}",
                                    href, PARTIAL_OPACITY if partial else 1.0, partial))
    _year_labels(chart, years, linked=lambda y: year_href(y) if totals[y] else None, partial_from=partial_from)
    if years:
        chart.description = (f"Stacked bars of papers per year from {years[0]} to {years[-1]}, one colour per "
                             f"conference; the largest year has {max(totals.values()):,} papers."
                             + (f" {under_way[0]} is under way (so far)." if under_way else ""))
    else:
        chart.description = "No papers."
    return chart


def heatmap(counts: Mapping[tuple[str, int], int], rows: Sequence[str], label_of: Callable[[str], str],
            cell_href: Callable[[str, int], str], row_href: Callable[[str], str], *,
            label: str, current_year: int | None = None) -> HeatGrid:
    """Cells per (row, year) on a time axis, shaded by count relative to the largest cell.

    Row labels are whole (the grid gives them the room they need); the year still under way is
    outlined, and its column's label says "so far".
    """
    partial_from = current_year or this_year()
    years = timeline(y for _, y in counts)
    peak = max((counts.get((r, y), 0) for r in rows for y in years), default=0) or 1
    grid_rows = []
    for row in rows:
        name = label_of(row)
        cells = []
        for year in years:
            n = counts.get((row, year), 0)
            partial = year >= partial_from
            cells.append(Cell(n, round(0.15 + 0.85 * n / peak, 3), f"{name} {year}{' so far' if partial else ''}: "
                              f"{_papers(n)}", cell_href(row, year), partial) if n else None)
        grid_rows.append(HeatRow(name, row_href(row), tuple(cells)))
    wide, narrow = label_every(len(years), WIDE_PLOT * 0.7), label_every(len(years), NARROW_PLOT * 0.6)
    labels = [YearLabel(year, not (len(years) - 1 - i) % wide, bool((len(years) - 1 - i) % narrow),
                        year >= partial_from) for i, year in enumerate(years)]
    under_way = next((y for y in years if y >= partial_from), None)
    description = (f"A grid of the {len(rows)} largest topics by year, {years[0]} to {years[-1]}; the darker a "
                   "cell, the more papers." + (f" {under_way} is under way (so far)." if under_way else "")
                   if years else "No papers.")
    return HeatGrid(label, description, labels, grid_rows, under_way)


def accepted_vs_submitted(rows: Sequence[tuple[int, int, int | None, float | None]],
                          year_href: Callable[[int], str], *, label: str, height: int = 240) -> Chart:
    """Per year (year, accepted, submissions or None, rate or None): submissions behind accepted, rate above.

    Only a year with a known rate gets bars: where the source lists no rejections the slot says
    "n/a" at the baseline, and a year without records is an empty slot (the axis is true to time).
    """
    known = {year: (accepted, submissions, rate) for year, accepted, submissions, rate in rows
             if rate is not None and submissions}
    listed = {year for year, *_ in rows}
    years = timeline(listed)
    ticks = _y_ticks(max((s for _, s, _ in known.values()), default=0), lambda v: f"{v:,}")
    chart = Chart(height, label, "", legend=[Swatch(MUTED, "Submissions"), Swatch(ACCENT, "Accepted")])
    bottom = height - BOTTOM
    scale = _y_axis(chart, ticks, TOP + 14, bottom)  # room for a rate over the highest bar
    slot, bar = _slots(years)
    for i, year in enumerate(years):
        x = round(i * slot + (slot - bar) / 2, 3)
        centre = round((i + 0.5) * slot, 3)
        if year not in known:
            if year in listed:
                chart.texts.append(Text(centre, bottom - 4, "n/a", size=SMALL_FONT,
                                        title=f"{year}: the source lists no rejections, or only some, "
                                              "so no acceptance rate"))
            continue
        accepted, submissions, rate = known[year]
        for n, fill, what in ((submissions, MUTED, "submissions"), (accepted, ACCENT, "accepted")):
            h = n * scale
            chart.marks.append(Mark(x, round(bottom - h, 2), round(bar, 3), round(h, 2), fill,
                                    f"{year}: {n:,} {what}", year_href(year)))
        chart.texts.append(Text(centre, round(bottom - max(accepted, submissions) * scale - 4, 2), f"{rate:.0%}",
                                title=f"{year}: acceptance rate {rate:.1%} ({accepted:,} of {submissions:,})",
                                size=SMALL_FONT, minor=label_every(len(years), NARROW_PLOT) > 1))
    # No year is "under way" here: a venue-year's decisions are all out once its list is.
    _year_labels(chart, years, linked=lambda y: year_href(y) if y in listed else None)
    chart.description = ("Accepted papers per year over the submissions, with the acceptance rate above each bar; "
                         "no bar where the source lists no rejections or only some (n/a).")
    return chart


def score_bins(bins: Sequence[tuple[str, int, Mapping[str, int], str]], keys: Sequence[str],
               label_of: Callable[[str], str], *, label: str, height: int = 260) -> Chart:
    """Papers per mean-score bin (``(bin label, papers, papers per key, share label)``), stacked by decision:
    ``keys`` from the bottom (the tiers, then side programmes, then "not accepted" last), the share accepted
    (with its count where the bin is small) above each bar.

    Every bin keeps its slot, empty or not, so the axis is true to the scale; where a phone's width
    would crowd them, the shares and every other bin's label are ``minor``.
    """
    ticks = _y_ticks(max((papers for _, papers, _, _ in bins), default=0), lambda v: f"{v:,}")
    spare = iter(c for c in PALETTE if c not in DECISION_FILLS.values())
    fills = {key: DECISION_FILLS.get(key) or next(spare, OTHER) for key in keys}
    chart = Chart(height, label, "", legend=[Swatch(fills[k], label_of(k)) for k in keys])
    bottom = height - BOTTOM - 14  # room for the axis's name under the bin labels
    scale = _y_axis(chart, ticks, TOP + 14, bottom)  # room for a share over the highest bar
    slot, bar = _slots(bins)
    wide, narrow = label_every(len(bins), WIDE_PLOT), label_every(len(bins), NARROW_PLOT)
    for i, (name, papers, counts, share) in enumerate(bins):
        x = round(i * slot + (slot - bar) / 2, 3)
        centre = round((i + 0.5) * slot, 3)
        y = bottom
        for key in keys:
            n = counts.get(key, 0)
            if not n:
                continue
            h = n * scale
            y -= h
            chart.marks.append(Mark(x, round(y, 2), round(bar, 3), round(h, 2), fills[key],
                                    f"Mean {name}: {label_of(key)} {n:,} of {_papers(papers)}"))
        if i % wide:
            continue
        if papers:
            chart.texts.append(Text(centre, round(y - 4, 2), share, title=f"Mean {name}: {share} accepted",
                                    size=SMALL_FONT, minor=narrow > 1))
        chart.texts.append(Text(centre, bottom + 16, name.split("–")[0], minor=bool(i % narrow)))
    chart.texts.append(Text(50.0, height - 4, "mean review score (bins of a half point, from the lower bound)",
                            size=SMALL_FONT))
    chart.description = (f"Bars of papers per mean review score from {bins[0][0]} to {bins[-1][0]}, coloured by "
                         "decision, with the share accepted above each bar." if bins else "No scores.")
    return chart


NOT_ACCEPTED_KEY = "not-accepted"  # the stack's last key in score_bins: grey
# One colour per decision on every venue's chart (side programmes take the palette's others).
DECISION_FILLS = {"oral": PALETTE[0], "spotlight": PALETTE[1], "poster": PALETTE[2], "accepted": PALETTE[4],
                  NOT_ACCEPTED_KEY: OTHER}


def sparkline(points: Sequence[tuple[int, int, int]], current: int, *, label: str, height: int = 26) -> Chart:
    """One bar per year (``(year, papers, of papers counted)``), as tall as the year's share; the year
    ``current`` in the accent colour. Every year keeps its slot (the axis is true to time)."""
    counted = {year: (n, of) for year, n, of in points}
    years = timeline(counted)
    shares = {y: n / of for y, (n, of) in counted.items() if of}
    peak = max(shares.values(), default=0) or 1
    chart = Chart(height, label, "")
    slot = 100 / max(len(years), 1)
    bar = slot * 0.75
    for i, year in enumerate(years):
        n, of = counted.get(year, (0, 0))
        share = shares.get(year, 0.0)
        h = max(round((height - 2) * share / peak, 2), 1.0 if of else 0.5)
        chart.marks.append(Mark(round(i * slot + (slot - bar) / 2, 3), round(height - 1 - h, 2), round(bar, 3), h,
                                ACCENT if year == current else MUTED,
                                f"{year}: {n:,} of {of:,} papers with affiliations ({share:.1%})" if of
                                else f"{year}: no papers with affiliations"))
    if years:
        first, last = years[0], years[-1]
        chart.description = (f"Share of the venue's papers with affiliations, {first} to {last}: "
                             f"{shares.get(first, 0):.1%} in {first}, {shares.get(last, 0):.1%} in {last}.")
    return chart
