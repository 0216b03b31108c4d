"""The canonical form of a request's query: parameters in one order, so permutations are one request.

``?q=x&year=2024`` and ``?year=2024&q=x`` are the same search: they share one canonical
ETag (:mod:`.validators`) and one entry of the result caches. The canonical order sorts
parameters by name, stably: the values of a repeated parameter keep the order they were
given in (``venue=a&venue=b`` is not reordered). The encoding is
:func:`urllib.parse.urlencode`'s. The order is :func:`services.web.urls.canonical_order`,
the one the app's own links are built in. The edge cache in nginx computes the same form
for its key (``deploy/nginx/edge_key.js``), so any order is answered there directly.
"""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlencode

from ..urls import canonical_order


def canonical_query(pairs: Iterable[tuple[str, str]]) -> str:
    """The query string of ``pairs`` (decoded name, value) in canonical order and encoding."""
    return urlencode(canonical_order(pairs))
