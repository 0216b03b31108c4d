"""The canonical form of a request's query: parameters in one order, so permutations are one URL.

The edge cache in nginx keys an answer by its URL; ``?q=x&year=2024`` and
``?year=2024&q=x`` are the same search and must share one entry (and one ETag, see
:mod:`.validators`). The canonical order sorts parameters by name, stably: the values of
a repeated parameter keep the order they were given in (``venue=a&venue=b`` is not
reordered). The encoding is :func:`urllib.parse.urlencode`'s. The order is
:func:`services.web.urls.canonical_order`, the one the app's own links are built in, so
a click through the edge is never one more 308 and one more cached redirect.
"""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlencode

from ..urls import canonical_order


def canonical_query(pairs: Iterable[tuple[str, str]]) -> str:
    """The query string of ``pairs`` (decoded name, value) in canonical order and encoding."""
    return urlencode(canonical_order(pairs))


def redirect_target(path: str, raw_query: str, pairs: Iterable[tuple[str, str]]) -> str | None:
    """Where a request whose query is not canonical belongs (``path?canonical``); None when it is.

    ``path`` is the request's path as it was sent (still percent-encoded), ``raw_query`` its
    query string as sent and ``pairs`` that query as the app decoded it. The target's query
    is canonical, so following it never redirects again.
    """
    canonical = canonical_query(pairs)
    if raw_query == canonical:
        return None
    return f"{path}?{canonical}" if canonical else path
