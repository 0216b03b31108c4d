"""Elasticsearch responses shaped into result objects the web renders or serialises."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from . import conferences, taxonomy
from .documents import from_source
from .model import Paper
from .request import FACETS, MAX_WINDOW, SearchRequest, encode_cursor

STATUS_LABELS = {"accept": "Accepted", "withdrawn": "Withdrawn", "reject": "Rejected", "unknown": "Unknown"}


@dataclass(frozen=True)
class FacetValue:
    value: str
    label: str
    count: int
    selected: bool


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

    @property
    def pages(self) -> int:
        reachable = min(self.total, MAX_WINDOW)
        return max(1, math.ceil(reachable / self.request.page_size))

    @property
    def next_cursor(self) -> str | None:
        """``search_after`` token for the page after this one (deep paging in the API)."""
        if not self.hits or len(self.hits) < self.request.page_size:
            return None
        return encode_cursor(self.hits[-1].sort)


def facet_label(name: str, value: str) -> str:
    if name == "conference":
        return conferences.label(value)
    if name == "topic":
        return taxonomy.label(value)
    if name == "status":
        return STATUS_LABELS.get(value, value.capitalize())
    if name == "has_code":
        return "Has code" if value == "true" else "No code"
    return value


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
    aggs = resp.get("aggregations") or {}
    for facet in FACETS:
        agg = aggs.get(facet.name)
        if agg:
            results.facets[facet.name] = _facet_values(facet.name, agg, req.selected(facet.name))
    year = aggs.get("year") or {}
    results.year_histogram = [(int(b["key"]), b["doc_count"]) for b in year.get("histogram", {}).get("buckets", [])]
    stats = year.get("range") or {}
    if stats.get("count"):
        results.year_span = (int(stats["min"]), int(stats["max"]))
    options = (((resp.get("suggest") or {}).get("did_you_mean") or [{}])[0]).get("options") or []
    if options and results.total < 5:
        results.suggestion = options[0]["text"]
    return results


def _facet_values(name: str, agg: dict[str, Any], selected: tuple[str, ...]) -> list[FacetValue]:
    values: dict[str, int] = {}
    for bucket in agg["values"]["buckets"]:
        key = bucket.get("key_as_string", bucket["key"]) if name == "has_code" else bucket["key"]
        values[str(key)] = bucket["doc_count"]
    exact = {k: b["doc_count"] for k, b in ((agg.get("selected") or {}).get("buckets") or {}).items()}
    out = [FacetValue(v, facet_label(name, v), exact.get(v, c), v in selected) for v, c in values.items()]
    for value in selected:
        if value not in values:  # selected values stay visible, even at count 0
            out.append(FacetValue(value, facet_label(name, value), exact.get(value, 0), True))
    if name == "year":
        out.sort(key=lambda f: f.value, reverse=True)
    return out
