"""Statistics in the JSON API: trends of any search (``/stats``) and a venue's year (``/venues``)."""

from __future__ import annotations

import csv
import io

from flask import Blueprint, Response, abort, jsonify, request

from services.search import conferences
from services.search.errors import InvalidRequest
from services.search.limits import MAX_YEAR, MIN_YEAR
from services.search.stats import Trends, VenueYear

from .pages import search_service
from .params import search_request
from .serialize import query_json

bp = Blueprint("stats_api", __name__, url_prefix="/api/v1")

STATS_FORMATS = ("json", "csv")


@bp.get("/stats")
def stats():
    fmt = request.args.get("format", "json").lower() or "json"
    if fmt not in STATS_FORMATS:
        raise InvalidRequest("format", f"'{fmt[:20]}' is not one of {', '.join(STATS_FORMATS)}")
    req = search_request(api=True)
    trends = search_service().trends(req)
    if fmt == "csv":
        resp = Response(trends_csv(trends), mimetype="text/csv")
        resp.headers["Content-Disposition"] = 'attachment; filename="paperlist-stats.csv"'
        return resp
    return jsonify({"query": query_json(req), **trends_json(trends)})


def trends_json(trends: Trends) -> dict:
    return {
        "total": trends.total,
        "by_year": [{"year": y, "count": n} for y, n in trends.by_year],
        "by_conference_year": [{"conference": c, "year": y, "count": n} for c, y, n in trends.by_conference_year],
        "by_topic_year": [{"topic": t, "year": y, "count": n} for t, y, n in trends.by_topic_year],
    }


def trends_csv(trends: Trends) -> str:
    """One row per count: ``breakdown`` is year, conference or topic; ``value`` the conference or topic."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["breakdown", "value", "year", "count"])
    writer.writerows(("year", "", y, n) for y, n in trends.by_year)
    writer.writerows(("conference", c, y, n) for c, y, n in trends.by_conference_year)
    writer.writerows(("topic", t, y, n) for t, y, n in trends.by_topic_year)
    return out.getvalue()


@bp.get("/venues/<slug>/<int:year>")
def venue(slug: str, year: int):
    if not MIN_YEAR <= year <= MAX_YEAR:
        raise InvalidRequest("year", f"must be between {MIN_YEAR} and {MAX_YEAR}")
    slug = conferences.canonical_slug(slug)
    found = search_service().venue_years(slug, year) if slug else []
    if not found:
        abort(404, description=f"No records of {conferences.label(slug) if slug else 'that conference'} {year}.")
    return jsonify(venue_json(found[0]))


def venue_json(v: VenueYear) -> dict:
    return {
        "conference": v.conference, "conference_name": conferences.label(v.conference), "kind": v.kind, "year": v.year,
        "papers": v.papers, "by_status": v.by_status, "by_outcome": v.by_outcome,
        "accepted": v.accepted, "oral": v.oral, "spotlight": v.spotlight, "poster": v.poster,
        "rejected": v.rejected, "withdrawn": v.withdrawn, "decided": v.decided,
        "other_programmes": v.other_programmes, "rejections_listed": v.rejections_listed,
        "submissions": v.submissions, "acceptance_rate": v.acceptance_rate,
    }
