"""Geometry of the server-rendered SVG charts; templates only draw what is computed here.

Plain numbers in a viewBox (scaled by CSS), colours as SVG attributes: no script and no
inline style, so the charts work under the site's Content-Security-Policy and without
JavaScript. Every mark carries its link and a tooltip text; templates add the table
fallback from the same data.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

# Okabe-Ito colours (distinguishable with colour-blindness), then grey for the rest.
PALETTE = ("#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#8c6d31", "#7570b3")
OTHER = "#a0a4ab"
ACCENT, MUTED = "#2f5bd3", "#c9cdd3"
YEAR_LABEL_SPACING = 30  # least room for one year label; crowded axes label every n-th year
LEGEND_ITEM = 92  # width of one legend entry
ROW_LABEL_CHARS = 26


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


@dataclass(frozen=True)
class Text:
    x: float
    y: float
    text: str
    href: str | None = None
    anchor: str = "middle"
    title: str = ""


@dataclass(frozen=True)
class Swatch:
    x: float
    y: float
    fill: str
    text: str


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


def _legend(chart: Chart, entries: Sequence[tuple[str, str]], top: float) -> float:
    """Legend swatches in rows from ``top``; returns the y below them."""
    per_row = max(1, int((chart.width - chart.left) // LEGEND_ITEM))
    for i, (fill, text) in enumerate(entries):
        row, col = divmod(i, per_row)
        chart.legend.append(Swatch(chart.left + col * LEGEND_ITEM, top + row * 16, fill, text))
    rows = math.ceil(len(entries) / per_row) if entries else 0
    return top + rows * 16 + 6


def _y_axis(chart: Chart, top: float, bottom: float, peak: int, fmt: Callable[[int], str] = str) -> float:
    """Grid lines and tick labels from 0 to a round top value; returns pixels per unit."""
    step = nice_step(peak)
    ceiling = step * math.ceil(max(peak, 1) / step)
    scale = (bottom - top) / ceiling
    chart.grid = [(bottom - v * scale, fmt(v)) for v in range(0, ceiling + 1, step)]
    return scale


def _year_labels(chart: Chart, years: Sequence[int], x_of: Callable[[int], float], y: float,
                 href: Callable[[int], str] | None = None) -> None:
    slot = (chart.right - chart.left) / max(len(years), 1)
    every = max(1, math.ceil(YEAR_LABEL_SPACING / slot))
    for i, year in enumerate(years):
        if (len(years) - 1 - i) % every == 0:  # the latest year always
            chart.texts.append(Text(x_of(i), y, str(year), href(year) if href else None,
                                    title=f"Only {year}" if href else ""))


def stacked_years(counts: Mapping[tuple[str, int], int], keys: Sequence[str], label_of: Callable[[str], str],
                  cell_href: Callable[[str, int], str], year_href: Callable[[int], str], *,
                  label: str, width: int = 520, height: int = 260) -> Chart:
    """Bars per year, stacked by key (``keys`` in stacking order, the largest first)."""
    years = sorted({y for _, y in counts})
    chart = Chart(width, height, label, "", left=40, right=width - 8)
    fills = colours(keys)
    top = _legend(chart, [(fills[k], label_of(k)) for k in keys[:len(PALETTE)]]
                  + ([(OTHER, "Others")] if len(keys) > len(PALETTE) else []), 4)
    top += 6
    bottom = height - 22
    totals = {y: sum(counts.get((k, y), 0) for k in keys) for y in years}
    scale = _y_axis(chart, top, bottom, max(totals.values(), default=0))
    slot = (chart.right - chart.left) / max(len(years), 1)
    bar = max(slot * 0.8, 1.0)
    for i, year in enumerate(years):
        x = chart.left + i * slot + (slot - bar) / 2
        y = bottom
        for key in keys:
            n = counts.get((key, year), 0)
            if not n:
                continue
            h = n * scale
            y -= h
            chart.marks.append(Mark(round(x, 2), round(y, 2), round(bar, 2), round(h, 2), fills[key],
                                    f"{label_of(key)} {year}: {n:,} paper{'s' if n != 1 else ''}",
                                    cell_href(key, year)))
    _year_labels(chart, years, lambda i: round(chart.left + (i + 0.5) * slot, 2), height - 6, year_href)
    chart.description = (f"Stacked bars of papers per year from {years[0]} to {years[-1]}, one colour per "
                         f"conference; the largest year has {max(totals.values()):,} papers." if years else "No papers.")
    return chart


def heatmap(counts: Mapping[tuple[str, int], int], rows: Sequence[str], label_of: Callable[[str], str],
            cell_href: Callable[[str, int], str], row_href: Callable[[str], str], *,
            label: str, width: int = 520, row_height: int = 18) -> Chart:
    """Cells per (row, year), shaded by count relative to the largest cell."""
    years = sorted({y for _, y in counts})
    height = 10 + len(rows) * row_height + 24
    chart = Chart(width, height, label, "", left=170, right=width - 8)
    peak = max((counts.get((r, y), 0) for r in rows for y in years), default=0) or 1
    slot = (chart.right - chart.left) / max(len(years), 1)
    for j, row in enumerate(rows):
        y = 10 + j * row_height
        name = label_of(row)
        short = name if len(name) <= ROW_LABEL_CHARS else name[:ROW_LABEL_CHARS - 1] + "…"
        chart.texts.append(Text(chart.left - 6, y + row_height - 5, short, row_href(row), "end", name))
        for i, year in enumerate(years):
            n = counts.get((row, year), 0)
            if n:
                chart.marks.append(Mark(round(chart.left + i * slot + 0.5, 2), y + 1, round(max(slot - 1, 0.5), 2),
                                        row_height - 2, ACCENT,
                                        f"{name} {year}: {n:,} paper{'s' if n != 1 else ''}",
                                        cell_href(row, year), round(0.15 + 0.85 * n / peak, 3)))
    _year_labels(chart, years, lambda i: round(chart.left + (i + 0.5) * slot, 2), height - 6)
    chart.description = (f"A grid of the {len(rows)} largest topics by year, {years[0]} to {years[-1]}; the "
                         "darker a cell, the more papers." if years else "No papers.")
    return chart


def accepted_vs_submitted(rows: Sequence[tuple[int, int, int | None, float | None]],
                          year_href: Callable[[int], str], *, label: str, width: int = 640,
                          height: int = 240) -> Chart:
    """Per year (year, accepted, submissions or None, rate or None): submissions behind accepted, rate above."""
    chart = Chart(width, height, label, "", left=48, right=width - 8)
    top = _legend(chart, [(MUTED, "Submissions"), (ACCENT, "Accepted")], 4) + 14
    bottom = height - 22
    peak = max((max(a, s or 0) for _, a, s, _ in rows), default=0)
    scale = _y_axis(chart, top, bottom, peak, lambda v: f"{v:,}")
    slot = (chart.right - chart.left) / max(len(rows), 1)
    bar = max(slot * 0.7, 1.0)
    for i, (year, accepted, submissions, rate) in enumerate(rows):
        x = round(chart.left + i * slot + (slot - bar) / 2, 2)
        centre = round(chart.left + (i + 0.5) * slot, 2)
        if submissions:
            h = submissions * scale
            chart.marks.append(Mark(x, round(bottom - h, 2), round(bar, 2), round(h, 2), MUTED,
                                    f"{year}: {submissions:,} submissions", year_href(year)))
        h = accepted * scale
        chart.marks.append(Mark(x, round(bottom - h, 2), round(bar, 2), round(h, 2), ACCENT,
                                f"{year}: {accepted:,} accepted", year_href(year)))
        shown = f"{rate:.0%}" if rate is not None else "n/a"
        chart.texts.append(Text(centre, round(bottom - max(accepted, submissions or 0) * scale - 4, 2), shown,
                                title=(f"{year}: acceptance rate {rate:.1%}" if rate is not None
                                       else f"{year}: the source lists no rejections")))
    _year_labels(chart, [r[0] for r in rows], lambda i: round(chart.left + (i + 0.5) * slot, 2), height - 6,
                 year_href)
    chart.description = ("Accepted papers per year over the submissions where the source lists rejections, "
                         "with the acceptance rate above each bar (n/a where no rejections are listed).")
    return chart
