"""A conference-year's tools for researchers (issue 33): where a review score lands, who publishes there.

``/conferences/<slug>/<year>/scores`` charts and tables acceptance by mean review score and places
a typed score (``?score=6.25``: its percentile among the scored papers, its bin's acceptance);
the form works without JavaScript, and ``app.js`` answers in place from ``partial=1``.
``/conferences/<slug>/<year>/institutions`` lists the top institutions by papers and by oral
and spotlight papers, each linking to a search of its papers, with its trend across the years.
The venue JSON (``/api/v1/venues/<slug>/<year>``) carries the same numbers.
"""

from __future__ import annotations

from flask import Blueprint, jsonify, render_template, request

from .. import extensions
from ..policy import policy
from ..render.venue_tools import institutions_view, score_landing
from .inputs import typed_score, venue_year_or_404

bp = Blueprint("venue_tools", __name__)


@bp.get("/conferences/<slug>/<int:year>/scores")
@policy(edge=True, whole_answer=True)
def scores(slug: str, year: int):
    venue = venue_year_or_404(slug, year)
    score = typed_score()
    landing = score_landing(venue, score)
    if request.args.get("partial") == "1":  # the score box's answer, swapped in by app.js
        return jsonify(answer=render_template("_score_answer.html", venue=venue, landing=landing, score=score))
    return render_template("scores.html", venue=venue, landing=landing, score=score)


@bp.get("/conferences/<slug>/<int:year>/institutions")
@policy(edge=True, whole_answer=True)
def institutions(slug: str, year: int):
    venue = venue_year_or_404(slug, year)
    view = institutions_view(extensions.reads().institutions(venue.conference, venue.year))
    return render_template("institutions.html", venue=venue, view=view)
