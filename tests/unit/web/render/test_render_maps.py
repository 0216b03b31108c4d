"""A map as its page draws it (services/web/render/maps.py): places in %, names that do not overlap, colours."""

import numpy as np

from services.search.answers.results import Matches
from services.search.records.venue_maps import MapCluster, MapPoints, VenueMap
from services.web.render import maps
from services.web.render.maps import GLYPH_EM, LINE_EM, NARROW_PX, NARROW_TYPE, WIDE_PX, WIDE_TYPE, map_page


def crowded(clusters=30, seed=3):
    """Many clusters close together, with long names: names must give way."""
    rng = np.random.default_rng(seed)
    centres = rng.uniform(0.05, 0.95, size=(clusters, 2)) * [1, 0.8]
    ids, x, y, cl = [], [], [], []
    for c, (cx, cy) in enumerate(centres):
        for i in range(5):
            ids.append(f"p{c}-{i}")
            x.append(float(np.clip(cx + rng.normal() * 0.01, 0, 1)))
            y.append(float(np.clip(cy + rng.normal() * 0.01, 0, 0.8)))
            cl.append(c)
    named = tuple(MapCluster(c, f"subject{c} · long phrase {c}", 5, float(cx), float(cy), (f"subject{c}", f"long phrase {c}"))
                  for c, (cx, cy) in enumerate(centres))
    return VenueMap("icml", 2026, len(ids), 0, MapPoints(tuple(ids), tuple(ids), tuple(x), tuple(y), tuple(cl)), named)


def boxes(page, which, width_px, type_px):
    height_px = width_px / page.aspect
    out = []
    for name in page.names:
        if name.width == which:
            cx, cy = float(name.x) / 100 * width_px, float(name.y) / 100 * height_px + name.dy - type_px * 0.35
            half = len(name.text) * type_px * GLYPH_EM / 2
            slack = 1  # px: places are written rounded (x to 0.01%, dy to a pixel)
            out.append((cx - half + slack, cy - type_px * LINE_EM / 2 + slack, cx + half - slack,
                        cy + type_px * LINE_EM / 2 - slack))
    return out


def test_names_never_overlap_nor_leave_the_drawing_at_either_width():
    page = map_page(crowded(), None, None, lambda c: f"?cluster={c}")
    for which, width, size in (("wide", WIDE_PX, WIDE_TYPE), ("narrow", NARROW_PX, NARROW_TYPE)):
        placed = boxes(page, which, width, size)
        assert placed, which
        for i, a in enumerate(placed):
            assert a[0] >= -0.5 and a[2] <= width + 0.5
            assert not any(maps._overlap(a, b) for b in placed[i + 1:]), which
    wide = {n.cluster for n in page.names if n.width == "wide"}
    narrow = {n.cluster for n in page.names if n.width == "narrow"}
    assert len(narrow) < len(wide) <= 30  # a phone names fewer clusters: the list under the map names them all


def test_a_phone_names_a_cluster_by_a_term_no_larger_cluster_shows():
    venue_map = crowded(clusters=2)
    twins = tuple(MapCluster(c.id, f"LLM · topic{c.id}", 5, 0.2 + 0.6 * c.id, 0.4, ("LLM", f"topic{c.id}"))
                  for c in venue_map.clusters)
    page = map_page(VenueMap(**{**venue_map.__dict__, "clusters": twins}), None, None, str)
    assert sorted(n.text for n in page.names if n.width == "narrow") == ["LLM", "topic1"]


def test_places_are_percentages_of_the_drawing_which_keeps_the_layouts_proportions():
    venue_map = crowded()
    page = map_page(venue_map, None, None, str)
    height = max(venue_map.points.y)
    assert page.aspect == round(1 / height, 3)
    ys = [float(p.y) for g in page.groups for p in g.points]
    assert max(ys) == 100.0 - maps.MARGIN and min(ys) >= maps.MARGIN  # a point on the edge is drawn whole


def test_matches_are_marked_and_counted_per_cluster():
    venue_map = crowded(clusters=3)
    page = map_page(venue_map, Matches(("p0-1", "p0-2", "p2-0", "elsewhere"), 9), 2, str)
    assert {p.paper_id for g in page.groups for p in g.points if p.hit} == {"p0-1", "p0-2", "p2-0"}
    assert [r.matches for r in page.rows] == [2, 0, 1] and page.matched_on_map == 3
    assert page.selected.cluster == 2 and [i for i, _ in page.selected_papers] == [f"p2-{i}" for i in range(5)]


def test_a_clusters_nearest_neighbours_have_other_colours():
    venue_map = crowded(clusters=20)
    colour = {r.cluster: r.colour for r in map_page(venue_map, None, None, str).rows}
    for c in venue_map.clusters:
        nearest = sorted((o for o in venue_map.clusters if o.id != c.id),
                         key=lambda o: (o.x - c.x) ** 2 + (o.y - c.y) ** 2)[:2]
        assert all(colour[o.id] != colour[c.id] for o in nearest)
