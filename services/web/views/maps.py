"""A venue-year's map (issue 32): its papers by content, clusters named by what they share, each point a paper.

``/conferences/<slug>/<year>/map`` draws the stored map (``services.search.records.venue_maps``) as
an SVG that needs no script: a point is a link to its paper, a name or a row of the list
of clusters selects a cluster (``?cluster=3``: it stands out, and its papers are listed
for keyboards and screen readers). Any search parameter (``q``, ``topic``, ``status``, …)
highlights that search's papers in the venue-year, the first ``MAP_MATCHES`` by its order:
the map of a search's results, linked from a results page narrowed to one venue-year.
``partial=1`` answers the highlight alone (``app.js`` asks it as you type in the map's box).
``/api/v1/venues/<slug>/<year>/map`` is the map as JSON.
"""

from __future__ import annotations

from flask import Blueprint, abort, jsonify, render_template, request

from services.search.catalogue import venues
from services.search.errors import InvalidRequest
from services.search.limits import MAP_MATCHES
from services.search.query.request import SearchRequest, whole_number
from services.search.records.venue_maps import VenueMap

from .. import extensions
from ..policy import policy
from ..render import answers
from ..render import openapi as doc
from ..render.maps import map_page
from ..urls import url_with
from .inputs import api_venue_year, search_request, venue_year_or_404

bp = Blueprint("maps", __name__)
_VENUE_PARAMETERS = ("conference", "year")
_OWN_PARAMETERS = ("cluster", "partial")


@bp.get("/conferences/<slug>/<int:year>/map")
@policy(edge=True, whole_answer=True)
def page(slug: str, year: int):
    venue = venue_year_or_404(slug, year)
    venue_map = _map_or_404(venue.conference, venue.year)
    req = _highlighted(venue.conference, venue.year)
    matches = extensions.reads().map_matches(req) if _searches(req) else None
    if request.args.get("partial") == "1":  # the box's answer as you type (app.js)
        drawn = set(venue_map.points.ids)
        ids = [i for i in matches.ids if i in drawn] if matches else []
        return jsonify(ids=ids, total=matches.total if matches else 0,
                       summary=render_template("_map_matches.html", view=None, matches=matches, drawn=len(ids),
                                               limit=MAP_MATCHES, req=req))
    path = request.path
    selected = _cluster(venue_map)
    view = map_page(venue_map, matches, selected,
                    lambda c: url_with(path, req, conference=None, year=None, cluster=c) + "#cluster-papers")
    return render_template("map.html", venue=venue, view=view, req=req, limit=MAP_MATCHES,
                           hidden=[(k, v) for k, v in req.to_params() if k not in (*_VENUE_PARAMETERS, "q")])


@bp.get("/api/v1/venues/<slug>/<int:year>/map")
@policy(edge=True, whole_answer=True, cors=True)
@doc.operation("venueMap", "A 2-D map of a conference-year's papers by content: each paper's place and cluster, and "
               "the clusters named by what their papers share. 404 where the venue-year has no map (it lists fewer "
               "papers than the site's minimum, 200 by default, or its map is being made)",
               answer="VenueMap", params=doc.VENUE_PATH, errors=[404])
def api(slug: str, year: int):
    canonical = api_venue_year(slug, year)
    if not canonical:
        abort(404, description=f"No map of {slug[:60]} {year}.")
    return jsonify(answers.venue_map_json(_map_or_404(canonical, year)))


def _map_or_404(conference: str, year: int) -> VenueMap:
    found = extensions.reads().venue_map(conference, year)
    if found is None:
        minimum = extensions.settings().map_min_papers
        abort(404, description=f"There is no map of {venues.label(conference)} {year}: a venue-year gets one "
                               f"when it lists at least {minimum:,} papers, a few minutes after they are indexed.")
    return found


def _highlighted(conference: str, year: int) -> SearchRequest:
    """The search whose papers the map highlights: the URL's, within the venue-year of the path."""
    args = request.args.copy()
    for name in (*_VENUE_PARAMETERS, *_OWN_PARAMETERS):
        args.poplist(name)
    return search_request(args=args, conference=[conference], year=[str(year)])


def _searches(req: SearchRequest) -> bool:
    return bool(req.q.strip()) or any(name not in _VENUE_PARAMETERS for name in req.filters)


def _cluster(venue_map: VenueMap) -> int | None:
    raw = request.args.get("cluster", "").strip()
    if not raw:
        return None
    number = whole_number(raw)
    if number is None or not any(c.id == number for c in venue_map.clusters):
        raise InvalidRequest("cluster", f"must be a cluster of this map, 0 to {len(venue_map.clusters) - 1}")
    return number
