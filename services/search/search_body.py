"""Search bodies for Elasticsearch, built from a :class:`SearchRequest` — never in views.

Facets are multi-select: the facet filters go in ``post_filter`` (they narrow the hits
but not the aggregations) and every facet is counted under all the *other* active
filters, so a user can widen a selection as well as narrow it.
"""

from __future__ import annotations

from typing import Any

from .documents import SUMMARY_FIELDS
from .model import HIDDEN_STATUSES
from .query_language import ParsedQuery, parse
from .request import FACETS, SearchRequest, year_text
from .text_query import compile_query

HIGHLIGHT = {
    "pre_tags": ["<mark>"],
    "post_tags": ["</mark>"],
    "encoder": "html",
    "fields": {
        "title": {"number_of_fragments": 0},
        "abstract": {"fragment_size": 240, "number_of_fragments": 1, "no_match_size": 240},
    },
}
SORTS: dict[str, list[Any]] = {
    "relevance": ["_score", {"year": "desc"}, {"paper_id": "asc"}],
    "newest": [{"year": "desc"}, {"citations": {"order": "desc", "missing": "_last"}}, {"paper_id": "asc"}],
    "oldest": [{"year": "asc"}, {"citations": {"order": "desc", "missing": "_last"}}, {"paper_id": "asc"}],
    "citations": [{"citations": {"order": "desc", "missing": "_last"}}, {"year": "desc"}, {"paper_id": "asc"}],
}
SUGGEST_BELOW = 5  # offer "did you mean" when fewer hits than this


def facet_filter(name: str, values: tuple[str, ...], years: tuple[tuple[int, int], ...]) -> dict[str, Any] | None:
    if name == "year":
        if not years:
            return None
        return {"bool": {"should": [{"range": {"year": {"gte": lo, "lte": hi}}} for lo, hi in years],
                         "minimum_should_match": 1}}
    if not values:
        return None
    field = next(f.field for f in FACETS if f.name == name)
    if name == "has_code":
        return {"terms": {field: [v == "true" for v in values]}}
    return {"terms": {field: list(values)}}


def _facet_filters(req: SearchRequest) -> dict[str, dict[str, Any]]:
    out = {}
    for facet in FACETS:
        clause = facet_filter(facet.name, req.filters.get(facet.name, ()), req.years)
        if clause:
            out[facet.name] = clause
    if "status" not in out:
        # Rejected and withdrawn papers are hidden unless the status facet asks for them;
        # as the status facet's own default filter, its counts still offer them.
        out["status"] = {"bool": {"must_not": [{"terms": {"status": list(HIDDEN_STATUSES)}}]}}
    return out


def base_query(req: SearchRequest, parsed: ParsedQuery) -> dict[str, Any]:
    """Text relevance plus the constraints that are not facets (``conference:``/``year:`` in the query)."""
    text = compile_query(parsed, req.q)
    filters: list[dict[str, Any]] = []
    if parsed.conferences:
        filters.append({"terms": {"conference": list(parsed.conferences)}})
    if parsed.years:
        filters.append({"bool": {"should": [{"range": {"year": {"gte": lo, "lte": hi}}}
                                            for lo, hi in parsed.years], "minimum_should_match": 1}})
    return {"bool": {"must": [text], "filter": filters}}


def build_search(req: SearchRequest, *, facets: bool = True, highlight: bool = True,
                 source: list[str] | None = None) -> dict[str, Any]:
    parsed = parse(req.q)
    active = _facet_filters(req)
    body: dict[str, Any] = {
        "query": base_query(req, parsed),
        "sort": SORTS["newest" if req.sort == "relevance" and parsed.is_empty else req.sort],
        "size": req.page_size,
        "track_total_hits": True,
        "_source": source or SUMMARY_FIELDS,
    }
    if req.search_after:
        body["search_after"] = list(req.search_after)
    else:
        body["from"] = req.offset
    if active:
        body["post_filter"] = {"bool": {"filter": list(active.values())}}
    if highlight:
        body["highlight"] = HIGHLIGHT
    if facets:
        body["aggs"] = _aggregations(req, active)
    text = parsed.free_text()
    if text:
        body["suggest"] = {"did_you_mean": {"text": text[:200], "phrase": {
            "field": "title.shingles", "size": 1, "gram_size": 3, "max_errors": 2, "confidence": 1.0,
            "direct_generator": [{"field": "title.shingles", "suggest_mode": "always", "min_word_length": 3}],
            "highlight": {"pre_tag": "<em>", "post_tag": "</em>"},
        }}}
    return body


def _aggregations(req: SearchRequest, active: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Each facet counted under the other facets' filters, plus exact counts of its selected values."""
    aggs: dict[str, Any] = {}
    for facet in FACETS:
        others = [clause for name, clause in active.items() if name != facet.name]
        inner: dict[str, Any] = {"values": {"terms": {"field": facet.field, "size": facet.size}}}
        selected = req.selected(facet.name)
        if selected and facet.name != "year":
            inner["selected"] = {"filters": {"filters": {
                v: facet_filter(facet.name, (v,), ()) for v in selected}}}
        if facet.name == "year":
            inner["values"]["terms"]["order"] = {"_key": "desc"}
            inner["range"] = {"stats": {"field": "year"}}
            inner["histogram"] = {"histogram": {"field": "year", "interval": 1, "min_doc_count": 1}}
            if req.years:
                inner["selected"] = {"filters": {"filters": {
                    year_text((lo, hi)): {"range": {"year": {"gte": lo, "lte": hi}}} for lo, hi in req.years}}}
        aggs[facet.name] = {"filter": {"bool": {"filter": others}} if others else {"match_all": {}},
                            "aggs": inner}
    return aggs
