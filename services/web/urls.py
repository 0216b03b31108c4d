"""Every URL the web builds: absolute ones from ``PAPERLIST_PUBLIC_URL``, a search's URL with
parameters changed, a facet value toggled, the page a changed selection goes to, a feed's URL.

Absolute URLs never come from the request's ``Host`` header: a forged ``Host`` must not
reach answers that caches and exports keep. Templates call these as globals
(:mod:`.render.templating`); views and renderers import them.
"""

from __future__ import annotations

from urllib.parse import urlencode

from flask import current_app, request, url_for

from services.search.request import SearchRequest

API_PREFIX = "/api/"  # paths that answer JSON, errors included (the contract's error envelope)
SEARCH_ENDPOINT = "pages.search"


def is_api_path(path: str) -> bool:
    return path.startswith(API_PREFIX)


def public_url(path: str = "") -> str:
    """``path`` on the site's public base URL (PAPERLIST_PUBLIC_URL, kept without a trailing slash)."""
    return current_app.config["SETTINGS"].public_url + path


def absolute_url(endpoint: str, **values: object) -> str:
    return public_url(url_for(endpoint, **values))


def url_with(path: str, req: SearchRequest, **changes: object) -> str:
    """URL of ``req`` with some parameters changed (None removes one)."""
    pairs = [(k, v) for k, v in req.to_params() if k not in changes]
    for key, value in changes.items():
        if value is None:
            continue
        if isinstance(value, (list, tuple)):
            pairs.extend((key, str(v)) for v in value)
        else:
            pairs.append((key, str(value)))
    query = urlencode(pairs)
    return f"{path}?{query}" if query else path


def results_path() -> str:
    """Where a changed selection is shown: a browse page's own filters become ordinary ones of
    /search, so the page is never headed "NeurIPS 2017" while it lists something else."""
    return request.path if request.endpoint == SEARCH_ENDPOINT else url_for(SEARCH_ENDPOINT)


def toggle(req: SearchRequest, facet: str, value: str) -> str:
    """URL with one facet value added or removed (facet clicks go back to page 1)."""
    selected = list(req.selected(facet))
    selected = [v for v in selected if v != value] if value in selected else [*selected, value]
    return url_with(results_path(), req, **{facet: selected or None, "page": None})


def similar_url(req: SearchRequest, text: str) -> str:
    """The ``/similar`` page of a text and its filters, as a link (GET); the page's order is the text's own."""
    return url_with(url_for("like_text.page"), req, mode=None, text=text)


def feed_url(req: SearchRequest) -> str:
    """The Atom feed of a search (order and paging are the feed's own)."""
    return url_with(url_for("feeds.search_feed"), req, page=None, sort=None, page_size=None)
