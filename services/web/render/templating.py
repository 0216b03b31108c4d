"""What every template may use: URL builders, labels, limits, text filters, fingerprinted assets.

Installed once by the app factory, instead of modules passed into each ``render_template``.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

from flask import Flask, url_for

from services.search.answers.corrections import HINTS
from services.search.catalogue import taxonomy, venues
from services.search.limits import (
    EXPORT_LIMIT,
    MAX_LIST_PAPERS,
    MAX_QUERY,
    MAX_SIMILAR_TEXT,
    MAX_SUGGEST_PREFIX,
    PAPER_AUTHORS_SHOWN,
    PHONE_YEARS_SHOWN,
)
from services.search.query.request import SearchRequest
from services.search.query.sorting import SORTS
from services.search.records.model import Paper
from services.search.records.paper_names import named_as as _named_as

from .. import urls
from . import textfilters, venue_tools
from .abstract_links import abstract_links
from .answers import profiles

STATIC = Path(__file__).parents[1] / "static"


def install(app: Flask) -> None:
    app.jinja_env.globals.update(static_url=static_url, url=urls.url_with, toggle=urls.toggle,
                                 results_path=urls.results_path, feed_url=urls.feed_url,
                                 conference_label=venues.label, topic_label=taxonomy.label,
                                 sorts=SORTS.values(), max_query=MAX_QUERY, max_similar_text=MAX_SIMILAR_TEXT,
                                 max_suggest_prefix=MAX_SUGGEST_PREFIX,
                                 export_limit=EXPORT_LIMIT, hints=HINTS, paper_authors_shown=PAPER_AUTHORS_SHOWN,
                                 phone_years=PHONE_YEARS_SHOWN,
                                 abstract_links=abstract_links, search_example=textfilters.SEARCH_EXAMPLE,
                                 venue_of=venues.lookup, max_list_papers=MAX_LIST_PAPERS,
                                 share=venue_tools.share, decision_label=venue_tools.decision_label,
                                 map_min_papers=app.config["SETTINGS"].map_min_papers, named_as=named_as,
                                 author_path=urls.author_path, person_path=urls.person_path, profile_links=profiles)
    app.jinja_env.filters.update(textfilters.FILTERS)
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True


def named_as(req: SearchRequest, paper: Paper) -> str:
    """The name of ``paper`` that the search's words (the whole text, or one of its words) are, when its title
    does not say it: a result that matched by a name says so ("Known as Gato")."""
    return _named_as([req.reading.free_text, *req.reading.content_words], paper.known_as, paper.title)


def static_url(filename: str) -> str:
    """Static URL with a content fingerprint, so assets can be cached for a year."""
    return url_for("static", filename=filename, v=_fingerprint(filename))


@lru_cache(maxsize=64)
def _fingerprint(filename: str) -> str:
    try:
        return hashlib.sha1((STATIC / filename).read_bytes()).hexdigest()[:10]
    except OSError:
        return "0"
