"""Elasticsearch responses shaped into result objects the web renders or serialises."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from .documents import from_source
from .facets import FacetValue
from .limits import MAX_WINDOW, SUGGEST_BELOW
from .model import Paper
from .request import DEFAULT_MODE, SearchRequest, encode_cursor
from .search_body import facet_aggregations


@dataclass(frozen=True)
class Hit:
    paper: Paper
    title_html: str  # highlighted, HTML-escaped by Elasticsearch
    snippet_html: str
    sort: tuple = ()


@dataclass
class SearchResults:
    request: SearchRequest
    total: int
    hits: list[Hit]
    facets: dict[str, list[FacetValue]] = field(default_factory=dict)
    year_histogram: list[tuple[int, int]] = field(default_factory=list)
    year_span: tuple[int, int] | None = None
    suggestion: str | None = None
    took_ms: int = 0
    hidden: dict[str, int] = field(default_factory=dict)  # left-out values (rejected, withdrawn) -> count

    @property
    def hidden_total(self) -> int:
        """Papers the query matches that the list leaves out unless asked (said apart, never mixed in)."""
        return sum(self.hidden.values())

    @property
    def pages(self) -> int:
        reachable = min(self.total, MAX_WINDOW)
        return max(1, math.ceil(reachable / self.request.page_size))

    @property
    def next_cursor(self) -> str | None:
        """``search_after`` token for the page after this one (deep paging in the API)."""
        if not self.hits or len(self.hits) < self.request.page_size or self.request.mode != DEFAULT_MODE:
            return None
        return encode_cursor(self.request.sort, self.hits[-1].sort)


def shape(req: SearchRequest, resp: dict[str, Any]) -> SearchResults:
    hits = []
    for h in resp["hits"]["hits"]:
        hl = h.get("highlight") or {}
        paper = from_source(h["_source"])
        hits.append(Hit(
            paper=paper,
            title_html=(hl.get("title") or [""])[0],
            snippet_html=(hl.get("abstract") or [""])[0],
            sort=tuple(h.get("sort") or ()),
        ))
    results = SearchResults(req, resp["hits"]["total"]["value"], hits, took_ms=resp.get("took", 0))
    aggs = facet_aggregations(resp.get("aggregations") or {})
    for facet in req.facets:
        agg = aggs.get(facet.name)
        if agg:
            results.facets[facet.name] = facet.shape(agg, req.selected(facet.name))
        if agg and facet.hidden and not req.selected(facet.name):
            results.hidden.update({v.value: v.count for v in results.facets[facet.name]
                                   if v.value in facet.hidden and v.count})
    timeline = req.facets.timeline
    if timeline and aggs.get(timeline.name):
        results.year_histogram = timeline.histogram(aggs[timeline.name])
        results.year_span = timeline.span(aggs[timeline.name])
    options = (((resp.get("suggest") or {}).get("did_you_mean") or [{}])[0]).get("options") or []
    if options and results.total < SUGGEST_BELOW:
        results.suggestion = options[0]["text"]
    return results
