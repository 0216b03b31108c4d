"""A venue-year's map as its page draws it (issue 32): points and names in % of the drawing, names where they fit.

The drawing is an SVG without a viewBox, as the charts are: a point's place is in % of the
drawing (``cx="43.21%"``), its size and the names' type in pixels, so the names keep their
size at 1366 px and at 390 px and the points spread with the width. Two sets of names are
placed, for a desktop's drawing (``WIDE_PX`` wide: the whole name, "diffusion model · flow
matching") and a phone's (``NARROW_PX``: smaller, one term, the first that no larger cluster's
name shows already, else the whole name); CSS shows one set by the drawing's own width. Each
set is placed greedily, the largest clusters first: a name that would overlap one already
placed moves a line up or down, else it is left out at that width (the list of clusters
under the map names every one). Colours: ``COLOURS`` classes, each cluster taking one its
nearest already coloured neighbours do not have.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from services.search.answers.results import Matches
from services.search.records.venue_maps import VenueMap

WIDE_PX, NARROW_PX = 620, 360    # drawing widths the names are placed for (style.css: the wide set from 600 px)
WIDE_TYPE, NARROW_TYPE = 12, 11  # px: the names' type at each width (style.css says the same)
GLYPH_EM = 0.68                  # a glyph's mean width in em at weight 650 (DejaVu Sans Bold: generous, overlap is worse than a gap)
LINE_EM = 1.3
GAP_PX = 3                       # between two names on one line
COLOURS = 10                     # .k0 ... .k9 in style.css
NEIGHBOURS = 6                   # nearest clusters whose colours a cluster avoids
MARGIN = 2.0                     # % of the drawing kept free on each side: a point on the edge is drawn whole
SPARSE_BELOW = 500               # papers: a map with fewer draws larger points (style.css .sparse)


@dataclass(frozen=True)
class Point:
    paper_id: str
    title: str
    x: str  # "43.21" (% of the drawing's width)
    y: str  # "% of its height"
    hit: bool


@dataclass(frozen=True)
class Group:
    cluster: int
    colour: int
    selected: bool
    points: tuple[Point, ...]


@dataclass(frozen=True)
class Name:
    cluster: int
    text: str
    x: str
    y: str
    dy: int  # px from the cluster's point: a line up or down when that is where it fits
    width: str  # "wide" or "narrow": which drawing it is placed for
    href: str


@dataclass(frozen=True)
class ClusterRow:
    cluster: int
    label: str
    count: int
    matches: int | None
    colour: int
    href: str
    selected: bool


@dataclass(frozen=True)
class MapPage:
    venue_map: VenueMap
    aspect: float                 # the drawing's width over its height
    groups: tuple[Group, ...]
    names: tuple[Name, ...]
    rows: tuple[ClusterRow, ...]
    selected: ClusterRow | None
    selected_papers: tuple[tuple[str, str], ...]  # (id, title) of the selected cluster, by title
    matches: Matches | None
    matched_on_map: int           # of the matches, the papers the map draws

    @property
    def sparse(self) -> bool:
        return self.venue_map.papers < SPARSE_BELOW

    @property
    def searching(self) -> bool:
        return self.matches is not None


def map_page(venue_map: VenueMap, matches: Matches | None, selected: int | None,
             cluster_href: Callable[[int], str]) -> MapPage:
    """The page's drawing and lists; ``cluster_href(c)`` is the URL that selects cluster ``c``."""
    points = venue_map.points
    height = max(max(points.y, default=0.0), 1e-3)
    aspect = round(min(max(1.0 / height, 1.0), 2.4), 3)  # a very flat layout is drawn less flat
    span = 100.0 - 2 * MARGIN
    scale_y = span / height
    hits = set(matches.ids) if matches else set()
    colours = _colours(venue_map)
    members: dict[int, list[Point]] = {c.id: [] for c in venue_map.clusters}
    for paper_id, title, x, y, c in zip(points.ids, points.titles, points.x, points.y, points.cluster):
        members.setdefault(c, []).append(Point(paper_id, title, f"{MARGIN + x * span:.2f}",
                                               f"{MARGIN + y * scale_y:.2f}", paper_id in hits))
    groups = tuple(Group(c, colours.get(c, 0), c == selected, tuple(ps)) for c, ps in members.items())
    names = (*_placed(venue_map, aspect, scale_y, WIDE_PX, WIDE_TYPE, "wide", cluster_href),
             *_placed(venue_map, aspect, scale_y, NARROW_PX, NARROW_TYPE, "narrow", cluster_href))
    matched = {c: sum(p.hit for p in ps) for c, ps in members.items()}
    rows = tuple(ClusterRow(c.id, c.label, c.count, matched.get(c.id) if matches else None, colours.get(c.id, 0),
                            cluster_href(c.id), c.id == selected) for c in venue_map.clusters)
    chosen = next((r for r in rows if r.selected), None)
    papers = tuple(sorted(((p.paper_id, p.title) for p in members.get(selected, ())) if chosen else (),
                          key=lambda p: p[1].lower()))
    return MapPage(venue_map, aspect, groups, names, rows, chosen, papers, matches, sum(matched.values()))


def _placed(venue_map: VenueMap, aspect: float, scale_y: float, width_px: int, type_px: int, which: str,
            cluster_href: Callable[[int], str]) -> list[Name]:
    height_px = width_px / aspect
    line = type_px * LINE_EM
    taken: list[tuple[float, float, float, float]] = []
    names = []
    shown: set[str] = set()
    for cluster in sorted(venue_map.clusters, key=lambda c: -c.count):
        text = cluster.label if which == "wide" else next((t for t in cluster.terms if t not in shown), cluster.label)
        shown.add(text)
        half = min(len(text) * type_px * GLYPH_EM / 2, width_px / 2)
        cx = min(max((MARGIN + cluster.x * (100 - 2 * MARGIN)) / 100 * width_px, half), width_px - half)
        cy = (MARGIN + cluster.y * scale_y) / 100 * height_px  # the whole name inside the drawing, as its point
        for dy in (0.0, -line, line, -2 * line, 2 * line):
            top = cy + dy - line / 2
            box = (cx - half - GAP_PX, top, cx + half + GAP_PX, top + line)
            if box[1] < 0 or box[3] > height_px or any(_overlap(box, other) for other in taken):
                continue
            taken.append(box)
            names.append(Name(cluster.id, text, f"{cx / width_px * 100:.2f}", f"{MARGIN + cluster.y * scale_y:.2f}",
                              round(dy + type_px * 0.35), which, cluster_href(cluster.id)))
            break
    return names


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _colours(venue_map: VenueMap) -> dict[int, int]:
    """A colour a cluster, unlike its nearest neighbours' where the palette allows."""
    chosen: dict[int, int] = {}
    clusters = sorted(venue_map.clusters, key=lambda c: -c.count)
    for cluster in clusters:
        near = sorted((c for c in clusters if c.id in chosen),
                      key=lambda c: (c.x - cluster.x) ** 2 + (c.y - cluster.y) ** 2)[:NEIGHBOURS]
        used = {chosen[c.id] for c in near}
        chosen[cluster.id] = next((k for k in range(COLOURS) if k not in used), cluster.id % COLOURS)
    return chosen
