"""Sort orders: the name a client sends, the label the page shows, the Elasticsearch sort it means."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

_CITED = {"citations": {"order": "desc", "missing": "_last"}}
_TIE = {"paper_id": "asc"}  # a total order, so search_after cursors are stable


@dataclass(frozen=True)
class Sort:
    name: str
    label: str
    clauses: tuple[Any, ...]


SORTS: dict[str, Sort] = {s.name: s for s in (
    Sort("relevance", "Relevance", ("_score", {"year": "desc"}, _TIE)),
    Sort("newest", "Newest", ({"year": "desc"}, _CITED, _TIE)),
    Sort("oldest", "Oldest", ({"year": "asc"}, _CITED, _TIE)),
    Sort("citations", "Most cited", (_CITED, {"year": "desc"}, _TIE)),
)}
DEFAULT_SORT = "relevance"
BROWSE_SORT = "newest"  # relevance without query text: newest first


def sort_clauses(name: str) -> list[Any]:
    """The Elasticsearch ``sort`` list of a named order (a fresh list: callers may extend it)."""
    return list(SORTS[name].clauses)
