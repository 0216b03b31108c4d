"""Reading lists (issue 33): ``/list?ids=…``, a shareable page of chosen papers with their exports.

The list itself lives in the visitor's browser (``app.js`` keeps it in ``localStorage``; the star
on every paper card and paper page adds or removes a paper): nothing is stored on the server, no
account is needed. The URL carries the ids, so a list is shared or bookmarked as a link, and this
page renders and exports it without JavaScript. Its exports go through the API's one exporter
(``/api/v1/export?ids=…``).
"""

from __future__ import annotations

from flask import Blueprint, render_template, url_for

from services.search.limits import MAX_LIST_PAPERS

from .. import extensions
from ..policy import policy
from ..render.exports import EXPORT_FORMATS
from ..urls import public_url, query_url
from .inputs import LIST_IDS, paper_ids

bp = Blueprint("lists", __name__)


@bp.get("/list")
@policy(edge=True, whole_answer=True)
def page():
    ids = paper_ids()
    papers = extensions.reads().papers_by_id(ids) if ids else []
    found = [p.paper_id for p in papers]
    missing = [i for i in ids if i not in set(found)]
    exports = {fmt: query_url(url_for("api.export"), [("format", fmt), (LIST_IDS, ",".join(found))])
               for fmt in EXPORT_FORMATS} if found else {}
    # The link to share, readable (commas as they are typed); the address the site itself links is
    # the canonical one (urls.list_url), and both name the same list.
    share = public_url(url_for("lists.page") + "?ids=" + ",".join(found)) if found else None
    return render_template("list.html", ids=ids, papers=papers, missing=missing, exports=exports,
                           share_url=share, max_papers=MAX_LIST_PAPERS)
