"""Statistics in the JSON API: trends of any search (``/stats``) and a conference-year (``/venues``: its
numbers, where its review scores land, who publishes there)."""

from __future__ import annotations

from flask import Blueprint, Response, abort, jsonify

from services.search.catalogue import venues

from .. import extensions
from ..http.headers import attachment
from ..policy import policy
from ..render import answers
from ..render import openapi as doc
from ..render.exports import STATS_FORMATS, trends_csv
from .inputs import api_venue_year, one_of, search_request

bp = Blueprint("stats", __name__, url_prefix="/api/v1")


@bp.get("/stats")
@policy(edge=True, whole_answer=True, cors=True)  # kept whole as JSON; a CSV is rendered each time
@doc.operation("stats", "Papers per year, conference and topic of a search's result set",
               params=[*doc.FILTER_PARAMS, doc.format_param(STATS_FORMATS)],
               answer={"application/json": doc.json_of("Stats"), "text/csv": doc.TEXT})
def stats():
    fmt = one_of("format", STATS_FORMATS, "json", blank_is_default=True)
    req = search_request(api=True)
    trends = extensions.reads().trends(req)
    if fmt == "csv":
        return attachment(Response(trends_csv(trends), mimetype="text/csv"), "paperlist-stats.csv")
    return jsonify(answers.trends_json(req, trends))


@bp.get("/venues/<slug>/<int:year>")
@policy(edge=True, whole_answer=True, cors=True)
@doc.operation("venue", "Venue statistics of a conference-year: records by status, the acceptance rate and its "
               "definition, what the source lacks, review scores by decision, where a review score lands "
               "(score_bins, score_values) and who publishes there (institutions)",
               answer="Venue", params=doc.VENUE_PATH, errors=[404])
def venue(slug: str, year: int):
    slug = api_venue_year(slug, year)
    found = extensions.reads().venue_years(slug, year) if slug else []
    if not found:
        abort(404, description=f"No records of {venues.label(slug) if slug else 'that conference'} {year}.")
    return jsonify(answers.venue_json(found[0], extensions.reads().institutions(slug, year)))
