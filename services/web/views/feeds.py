"""Atom 1.0 feeds of any search (``/search.atom``): the same result set, newest first; of a person's papers
(``/people/<id>.atom``: following them; a merged id's feed moves to its successor's, 301); and of what's new
(``/new.atom``): the papers added or changed in the last 7 or 30 days, or since a time (``since=``, a
"new since your last visit" marker that needs no account and no cookie), most recently added first.

Entries and the document are rendered by :mod:`..render.feeds`; caching (ETag,
Cache-Control) is the site's, as for search pages.
"""

from __future__ import annotations

from flask import Blueprint, Response, abort, redirect, url_for

from services.search.limits import FEED_ENTRIES
from services.search.query.request import SearchRequest

from .. import extensions
from ..policy import policy
from ..render.feeds import atom, person_atom
from .inputs import new_request, person_or_404, search_request

bp = Blueprint("feeds", __name__)


@bp.get("/search.atom")
@policy(edge=True)
def search_feed():
    return _feed(search_request(), "newest")


@bp.get("/new.atom")
@policy(edge=True)
def new_feed():
    return _feed(new_request(), "added")


def _feed(req: SearchRequest, sort: str) -> Response:
    papers = extensions.reads().feed(req.with_page(1, sort=sort, page_size=FEED_ENTRIES))
    return Response(atom(req, papers), mimetype="application/atom+xml")


@bp.get("/people/<person_id>.atom")
@policy(edge=True)
def person_feed(person_id: str):
    found = person_or_404(person_id, size=FEED_ENTRIES)
    if found.successor and found.successor.change == "merged":
        return redirect(url_for("feeds.person_feed", person_id=found.successor.successors[0]), 301)
    if not found.person:
        abort(404, description=f"'{person_id}' was split into several people: follow one of them "
                               f"({', '.join(found.successor.successors)}).")
    return Response(person_atom(found.person, found.papers), mimetype="application/atom+xml")
