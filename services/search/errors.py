"""What can go wrong in the search layer, in its own terms.

:mod:`services.search.engine.boundary` turns Elasticsearch's exceptions into these at one place
(:func:`services.search.engine.boundary.translated`); callers such as the web map only these, so
none of them needs to know the client library.
"""

from __future__ import annotations


class SearchError(Exception):
    """Base of the search layer's errors; ``message`` is safe to show to a user."""

    message = "The search service failed; please retry shortly."
    retry_after: int | None = None  # seconds a client should wait before retrying, when known

    def __init__(self, detail: str = ""):
        super().__init__(detail or self.message)


class InvalidRequest(SearchError, ValueError):
    """A parameter a client got wrong; the message says which and why (HTTP 400)."""

    def __init__(self, parameter: str, message: str):
        super().__init__(f"{parameter}: {message}")
        self.parameter = parameter
        self.message = message


class QueryTooLong(InvalidRequest):
    """A query past the length limit: most likely pasted text, better searched as "papers like this text"."""

    def __init__(self, text: str, limit: int):
        super().__init__("q", f"the query is {len(text):,} characters, longer than the {limit} a search reads; "
                              "to find papers like a passage of text, use papers like this text "
                              "(/similar, or POST /api/v1/similar)")
        self.text = text


class BadQuery(SearchError):
    """Elasticsearch refused to run the query it was given."""

    message = "This search could not be run; try simpler terms."


class SearchUnavailable(SearchError):
    """Elasticsearch cannot be reached or timed out."""

    message = "The search service is temporarily unavailable; please retry shortly."
    retry_after = 5


class SearchOverloaded(SearchUnavailable):
    """Elasticsearch answered but is too busy (429, 502, 503, 504)."""

    message = "The search service is overloaded; please retry shortly."


class TimedOut(SearchOverloaded):
    """Elasticsearch stopped at its server-side ``timeout`` and answered with partial results."""


class OptionalTimedOut(TimedOut):
    """Work a page can do without (facet counts, trends) ran out of its share of the budget, on either
    side (Elasticsearch's ``timeout`` or the client's): it is left out of the answer. A busy cluster,
    not an outage: it never opens the breaker, so a crowd's slow facets cannot 503 everyone's hits."""


class IndexMissing(SearchUnavailable):
    """The alias does not exist yet (nothing ingested, or a rebuild has not swapped it in)."""

    message = "The search index is not available yet."
    retry_after = 30


class SearchFailed(SearchError):
    """Any other refusal from Elasticsearch."""
