"""How fresh the data is (issue 47): every followed source with when it was last checked and changed, its
papers and its next check, as a page (``/about/sources``) and in the API (``/api/v1/sources``).

Read from the registry the workers' polls write (``<alias>-followed``, through the search layer); never
kept in the result cache, since a poll changes it without a new index generation: the edge keeps it for
its few seconds and browsers for a minute.
"""

from __future__ import annotations

from flask import Blueprint, jsonify, render_template

from services.search.records.followed import FAILING_AFTER

from .. import extensions
from ..policy import policy
from ..render import answers
from ..render import openapi as doc

bp = Blueprint("sources", __name__)


@bp.get("/about/sources")
@policy(edge=True)
def page():
    sources = extensions.reads().followed_sources()
    rows = sorted(sources, key=lambda s: (not s.failing, s.venue_years or (s.url,)))
    return render_template("sources.html", sources=rows, failing_after=FAILING_AFTER,
                           failing=sum(1 for s in sources if s.failing))


@bp.get("/api/v1/sources")
@policy(edge=True, cors=True)
@doc.operation("followedSources", "The followed sources: each venue-year's upstream file, when it was last checked "
               "and changed, its papers and its next check (the freshness page's list)", answer="FollowedSources")
def api():
    return jsonify(answers.followed_json(extensions.reads().followed_sources(), extensions.settings().follow_interval))
