"""Sort orders: the name a client sends, the label the page shows, the Elasticsearch sort it means."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

# Unknown counts and ratings sort last; ``unmapped_type`` keeps an index older than a field sortable.
_CITED = {"citations": {"order": "desc", "missing": "_last"}}
# Where no count is known, the corpus's own: later papers here mentioning a name the paper introduced.
_MENTIONED = {"mentions": {"order": "desc", "missing": "_last", "unmapped_type": "integer"}}
_RATED = {"rating_avg": {"order": "desc", "missing": 0, "unmapped_type": "float"}}  # ratings are > 0
_TIER = {"tier_rank": {"order": "asc", "unmapped_type": "byte"}}  # documents.tier_rank: orals first
_TITLE = {"title_key": {"order": "asc"}}  # the folded title: A-Z ignoring case, accents and punctuation
_ADDED = {"indexed_at": {"order": "desc", "missing": "_last", "unmapped_type": "date"}}  # what's new first
_TIE = {"paper_id": "asc"}  # a total order, so search_after cursors are stable


@dataclass(frozen=True)
class Sort:
    name: str
    label: str
    clauses: tuple[Any, ...]


SORTS: dict[str, Sort] = {s.name: s for s in (
    Sort("relevance", "Relevance", ("_score", {"year": "desc"}, _TIE)),
    # Within a year: orals, spotlights, posters, then the rest, each A-Z (a venue-year's page).
    Sort("newest", "Newest", ({"year": "desc"}, _TIER, _TITLE, _TIE)),
    Sort("oldest", "Oldest", ({"year": "asc"}, _TIER, _TITLE, _TIE)),
    Sort("tier", "Orals first", (_TIER, {"year": "desc"}, _TITLE, _TIE)),
    Sort("title", "Title A–Z", (_TITLE, {"year": "desc"}, _TIE)),
    # Most papers have no count or rating: those come last, in relevance order; without a citation
    # count, first those whose names later papers here mention most (results say how many have a count).
    Sort("citations", "By citations, then mentions here", (_CITED, _MENTIONED, "_score", {"year": "desc"}, _TIE)),
    Sort("rating", "By review rating, where known", (_RATED, "_score", {"year": "desc"}, _TIE)),
    # When the paper was added or last changed here (/new and its feed: what arrived lately).
    Sort("added", "Recently added", (_ADDED, _TIE)),
)}
DEFAULT_SORT = "relevance"
BROWSE_SORT = "newest"  # relevance without query text: newest year first, then by tier and title

# What Elasticsearch returns as the sort value of each sort field: a cursor must hold exactly these.
_INT64 = range(-(2**63), 2**63)
CURSOR_KINDS: dict[str, Callable[[Any], bool]] = {
    "_score": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v),
    "year": lambda v: isinstance(v, int) and not isinstance(v, bool) and v in _INT64,
    "citations": lambda v: v is None or (isinstance(v, int) and not isinstance(v, bool) and v in _INT64),
    "mentions": lambda v: v is None or (isinstance(v, int) and not isinstance(v, bool) and v in _INT64),
    "rating_avg": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v),
    "tier_rank": lambda v: isinstance(v, int) and not isinstance(v, bool) and v in _INT64,
    "title_key": lambda v: v is None or (isinstance(v, str) and len(v) <= 4000),
    "indexed_at": lambda v: v is None or (isinstance(v, int) and not isinstance(v, bool) and v in _INT64),
    "paper_id": lambda v: isinstance(v, str) and 0 < len(v) <= 200,
}


def effective_sort(name: str, has_text: bool) -> str:
    """The order a request runs in: relevance without query text is the browse order."""
    return BROWSE_SORT if name == DEFAULT_SORT and not has_text else name


def cursor_fits(name: str, values: Sequence[Any]) -> bool:
    """Whether ``values`` can be the sort values of a hit under sort ``name`` (one per clause, right types)."""
    fields = [clause if isinstance(clause, str) else next(iter(clause)) for clause in SORTS[name].clauses]
    return len(values) == len(fields) and all(CURSOR_KINDS[f](v) for f, v in zip(fields, values, strict=True))


def sort_clauses(name: str) -> list[Any]:
    """The Elasticsearch ``sort`` list of a named order (a fresh list: callers may extend it)."""
    return list(SORTS[name].clauses)
