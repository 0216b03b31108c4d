"""Atom 1.0 feeds of any search (``/search.atom``): the same result set, newest first.

Entries and the document are rendered by :mod:`..render.feeds`; caching (ETag,
Cache-Control) is the site's, as for search pages.
"""

from __future__ import annotations

from flask import Blueprint, Response

from services.search.limits import FEED_ENTRIES

from .. import extensions
from ..policy import policy
from ..render.feeds import atom
from .inputs import search_request

bp = Blueprint("feeds", __name__)


@bp.get("/search.atom")
@policy(edge=True)
def search_feed():
    req = search_request()
    papers = extensions.reads().feed(req.with_page(1, sort="newest", page_size=FEED_ENTRIES))
    return Response(atom(req, papers), mimetype="application/atom+xml")
