"""Geometry of the server-rendered SVG charts; templates only draw what is computed here.

Plain numbers in a viewBox (scaled by CSS), colours as SVG attributes: no script and no
inline style, so the charts work under the site's Content-Security-Policy and without
JavaScript. Every mark carries its link and a tooltip text; templates add the table
fallback from the same data.

Axes are true to time (every year between the first and the last has its slot, empty or
not), the year still under way is marked ("so far": lighter, dashed), margins are made
as wide as their labels (a label is never cut), and a rate that is unknown gets no bar.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date

# Okabe-Ito colours (distinguishable with colour-blindness), then grey for the rest.
PALETTE = ("#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#8c6d31", "#7570b3")
OTHER = "#a0a4ab"
ACCENT, MUTED = "#2f5bd3", "#c9cdd3"
YEAR_LABEL_SPACING = 30  # least room for one year label; crowded axes label every n-th year
FONT = 10  # the font size of axis labels, ticks and legends (viewBox units)
CHAR_WIDTH = 0.62  # a character's width at most, in font sizes (DejaVu Sans, the widest of the fallbacks), on average
LEGEND_GAP = 12
PARTIAL_OPACITY = 0.55  # marks of the year still under way
LEGEND_FONT, SMALL_FONT = 11, 9
MAX_LABEL_SHARE = 0.5  # of a chart's width its row labels may take before the chart is made wider


def text_width(text: str, size: float = FONT) -> float:
    """How wide ``text`` is drawn, estimated on the wide side: what a label's room is made of, so none is cut."""
    return round(len(text) * size * CHAR_WIDTH, 2)


def this_year() -> int:
    """The year still under way: its conferences are not all held yet, its lists not all in."""
    return date.today().year


def timeline(years: Iterable[int]) -> list[int]:
    """Every year from the first to the last: an axis true to time, where a year without papers keeps its place."""
    present = sorted(set(years))
    return list(range(present[0], present[-1] + 1)) if present else []


@dataclass(frozen=True)
class Mark:
    """A rectangle: a bar segment or a heat-map cell."""

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
    x: float
    y: float
    text: str
    href: str | None = None
    anchor: str = "middle"
    title: str = ""
    size: float = FONT


@dataclass(frozen=True)
class Swatch:
    x: float
    y: float
    fill: str
    text: str
    partial: bool = False  # the key to the year under way: an empty, dashed box


@dataclass
class Chart:
    """One SVG: its size, marks, axis labels, grid lines (y values) and legend."""

    width: int
    height: int
    label: str  # the aria-label and <title>
    description: str  # the <desc>
    marks: list[Mark] = field(default_factory=list)
    texts: list[Text] = field(default_factory=list)
    grid: list[tuple[float, str]] = field(default_factory=list)  # (y, tick label)
    legend: list[Swatch] = field(default_factory=list)
    left: float = 0
    right: float = 0


def nice_step(top: int, ticks: int = 4) -> int:
    """A round tick step (1, 2 or 5 times a power of ten) giving at most ``ticks`` steps up to ``top``."""
    raw = max(top, 1) / ticks
    power = 10 ** math.floor(math.log10(raw)) if raw >= 1 else 1
    return next(int(m * power) for m in (1, 2, 5, 10) if m * power >= raw)


def colours(keys: Sequence[str]) -> dict[str, str]:
    """Palette colours for the first keys, grey for the rest."""
    return {k: PALETTE[i] if i < len(PALETTE) else OTHER for i, k in enumerate(keys)}


def _legend(chart: Chart, entries: Sequence[tuple[str, str]], top: float, *, under_way: int | None = None) -> float:
    """Legend swatches flowing in rows from ``top``, each as wide as its text (then the key to the
    year ``under_way``, if any); returns the y below them."""
    x, y = chart.left, top
    keyed = [(fill, text, False) for fill, text in entries]
    if under_way is not None:
        keyed.append(("none", f"{under_way} so far", True))
    for fill, text, partial in keyed:
        room = 14 + text_width(text, LEGEND_FONT) + LEGEND_GAP
        if x > chart.left and x + room > chart.width:
            x, y = chart.left, y + 16
        chart.legend.append(Swatch(round(x, 2), y, fill, text, partial))
        x += room
    return y + 22 if entries else top


def _y_ticks(peak: int, fmt: Callable[[int], str]) -> list[tuple[int, str]]:
    """Tick values from 0 to a round top value at or above ``peak``, with their labels."""
    step = nice_step(peak)
    ceiling = step * math.ceil(max(peak, 1) / step)
    return [(v, fmt(v)) for v in range(0, ceiling + 1, step)]


def _tick_room(ticks: Sequence[tuple[int, str]]) -> float:
    """The left margin the widest tick label needs (labels end 4 units left of the plot)."""
    return max(text_width(label) for _, label in ticks) + 8


def _y_axis(chart: Chart, ticks: Sequence[tuple[int, str]], top: float, bottom: float) -> float:
    """Grid lines at the ticks from ``bottom`` up to ``top``; returns units per count."""
    scale = (bottom - top) / ticks[-1][0]
    chart.grid = [(bottom - v * scale, label) for v, label in ticks]
    return scale


def _year_labels(chart: Chart, years: Sequence[int], y: float, *, linked: Callable[[int], str | None],
                 partial_from: int | None = None) -> None:
    """Year labels under the slots (every n-th where they crowd, the latest always); a label links
    where ``linked`` gives a URL, and one that would pass the right edge is drawn ending at it."""
    slot = (chart.right - chart.left) / max(len(years), 1)
    every = max(1, math.ceil(YEAR_LABEL_SPACING / slot))
    for i, year in enumerate(years):
        if (len(years) - 1 - i) % every:
            continue
        x, anchor = round(chart.left + (i + 0.5) * slot, 2), "middle"
        if x + text_width(str(year)) / 2 > chart.width:
            x, anchor = chart.width - 1, "end"
        href = linked(year)
        under_way = partial_from is not None and year >= partial_from
        title = f"{year} so far: the year is under way" if under_way else f"Only {year}" if href else ""
        chart.texts.append(Text(x, y, str(year), href, anchor, title))


def _so_far(chart: Chart, x: float, y: float, year: int) -> None:
    """"so far" centred over ``x``, moved in from the chart's edge when it would pass it."""
    half = text_width("so far", SMALL_FONT) / 2
    x = min(max(x, half + 1), chart.width - half - 1)
    chart.texts.append(Text(round(x, 2), round(y, 2), "so far", None, "middle",
                            f"{year} is under way: more papers are to come", size=SMALL_FONT))


def _papers(n: int) -> str:
    return f"{n:,} paper{'s' if n != 1 else ''}"


def stacked_years(counts: Mapping[tuple[str, int], int], keys: Sequence[str], label_of: Callable[[str], str],
                  cell_href: Callable[[str, int], str], year_href: Callable[[int], str], *,
                  label: str, width: int = 520, height: int = 260, current_year: int | None = None) -> Chart:
    """Bars per year, stacked by key (``keys`` in stacking order, the largest first), on a time axis.

    The year still under way (``current_year``, this year unless given) and any later one is drawn
    lighter with a dashed outline, which the legend's last key names ("2026 so far").
    """
    partial_from = current_year or this_year()
    years = timeline(y for _, y in counts)
    totals = {y: sum(counts.get((k, y), 0) for k in keys) for y in years}
    under_way = [y for y in years if y >= partial_from and totals[y]]
    ticks = _y_ticks(max(totals.values(), default=0), lambda v: f"{v:,}")
    chart = Chart(width, height, label, "", left=_tick_room(ticks), right=width - 8)
    fills = colours(keys)
    top = _legend(chart, [(fills[k], label_of(k)) for k in keys[:len(PALETTE)]]
                  + ([(OTHER, "Others")] if len(keys) > len(PALETTE) else []), 4,
                  under_way=under_way[0] if under_way else None) + 8
    bottom = height - 22
    scale = _y_axis(chart, ticks, top, bottom)
    slot = (chart.right - chart.left) / max(len(years), 1)
    bar = max(slot * 0.8, 1.0)
    for i, year in enumerate(years):
        x = chart.left + i * slot + (slot - bar) / 2
        y = bottom
        partial = year >= partial_from
        for key in keys:
            n = counts.get((key, year), 0)
            if not n:
                continue
            h = n * scale
            y -= h
            chart.marks.append(Mark(round(x, 2), round(y, 2), round(bar, 2), round(h, 2), fills[key],
                                    f"{label_of(key)} {year}{' so far' if partial else ''}: {_papers(n)}",
                                    cell_href(key, year), PARTIAL_OPACITY if partial else 1.0, partial))
    _year_labels(chart, years, height - 6, linked=lambda y: year_href(y) if totals[y] else None,
                 partial_from=partial_from)
    if years:
        chart.description = (f"Stacked bars of papers per year from {years[0]} to {years[-1]}, one colour per "
                             f"conference; the largest year has {max(totals.values()):,} papers."
                             + (f" {under_way[0]} is under way (so far)." if under_way else ""))
    else:
        chart.description = "No papers."
    return chart


def heatmap(counts: Mapping[tuple[str, int], int], rows: Sequence[str], label_of: Callable[[str], str],
            cell_href: Callable[[str, int], str], row_href: Callable[[str], str], *,
            label: str, width: int = 520, row_height: int = 18, current_year: int | None = None) -> Chart:
    """Cells per (row, year) on a time axis, shaded by count relative to the largest cell.

    Row labels are drawn whole: the left margin is as wide as the longest (the chart grows
    wider, never the label shorter, should one need more than :data:`MAX_LABEL_SHARE` of it).
    The year still under way is outlined and marked "so far" above its column.
    """
    partial_from = current_year or this_year()
    years = timeline(y for _, y in counts)
    names = {row: label_of(row) for row in rows}
    left = max((text_width(n) for n in names.values()), default=0) + 12
    width = max(width, math.ceil(left / MAX_LABEL_SHARE))
    under_way = [y for y in years if y >= partial_from]
    top = 16 if under_way else 10
    height = top + len(rows) * row_height + 24
    chart = Chart(width, height, label, "", left=left, right=width - 8)
    peak = max((counts.get((r, y), 0) for r in rows for y in years), default=0) or 1
    slot = (chart.right - chart.left) / max(len(years), 1)
    for j, row in enumerate(rows):
        y = top + j * row_height
        name = names[row]
        chart.texts.append(Text(chart.left - 6, y + row_height - 5, name, row_href(row), "end", name))
        for i, year in enumerate(years):
            n = counts.get((row, year), 0)
            if n:
                partial = year >= partial_from
                chart.marks.append(Mark(round(chart.left + i * slot + 0.5, 2), y + 1, round(max(slot - 1, 0.5), 2),
                                        row_height - 2, ACCENT,
                                        f"{name} {year}{' so far' if partial else ''}: {_papers(n)}",
                                        cell_href(row, year), round(0.15 + 0.85 * n / peak, 3), partial))
    for year in under_way[:1]:
        _so_far(chart, chart.left + (years.index(year) + 0.5) * slot, top - 4, year)
    _year_labels(chart, years, height - 6, linked=lambda y: None, partial_from=partial_from)
    chart.description = (f"A grid of the {len(rows)} largest topics by year, {years[0]} to {years[-1]}; the "
                         "darker a cell, the more papers." + (f" {under_way[0]} is under way (so far)."
                                                             if under_way else "") if years else "No papers.")
    return chart


def accepted_vs_submitted(rows: Sequence[tuple[int, int, int | None, float | None]],
                          year_href: Callable[[int], str], *, label: str, width: int = 640,
                          height: int = 240) -> Chart:
    """Per year (year, accepted, submissions or None, rate or None): submissions behind accepted, rate above.

    Only a year with a known rate gets bars: where the source lists no rejections the slot says
    "n/a" at the baseline, and a year without records is an empty slot (the axis is true to time).
    """
    known = {year: (accepted, submissions, rate) for year, accepted, submissions, rate in rows
             if rate is not None and submissions}
    listed = {year for year, *_ in rows}
    years = timeline(listed)
    ticks = _y_ticks(max((s for _, s, _ in known.values()), default=0), lambda v: f"{v:,}")
    chart = Chart(width, height, label, "", left=_tick_room(ticks), right=width - 8)
    top = _legend(chart, [(MUTED, "Submissions"), (ACCENT, "Accepted")], 4) + 8
    bottom = height - 22
    scale = _y_axis(chart, ticks, top, bottom)
    slot = (chart.right - chart.left) / max(len(years), 1)
    bar = max(slot * 0.7, 1.0)
    for i, year in enumerate(years):
        x = round(chart.left + i * slot + (slot - bar) / 2, 2)
        centre = round(chart.left + (i + 0.5) * slot, 2)
        if year not in known:
            if year in listed:
                chart.texts.append(Text(centre, bottom - 4, "n/a", title=f"{year}: the source lists no rejections, "
                                                                         "or only some, so no acceptance rate"))
            continue
        accepted, submissions, rate = known[year]
        for n, fill, what in ((submissions, MUTED, "submissions"), (accepted, ACCENT, "accepted")):
            h = n * scale
            chart.marks.append(Mark(x, round(bottom - h, 2), round(bar, 2), round(h, 2), fill,
                                    f"{year}: {n:,} {what}", year_href(year)))
        chart.texts.append(Text(centre, round(bottom - max(accepted, submissions) * scale - 4, 2), f"{rate:.0%}",
                                title=f"{year}: acceptance rate {rate:.1%} ({accepted:,} of {submissions:,})"))
    # No year is "under way" here: a venue-year's decisions are all out once its list is.
    _year_labels(chart, years, height - 6, linked=lambda y: year_href(y) if y in listed else None)
    chart.description = ("Accepted papers per year over the submissions, with the acceptance rate above each bar; "
                         "no bar where the source lists no rejections or only some (n/a).")
    return chart
