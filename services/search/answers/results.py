"""Elasticsearch responses shaped into result objects the web renders or serialises."""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass, field
from html import escape
from typing import Any

from services.search.limits import MAX_WINDOW
from services.search.query.facets import Facet, FacetValue
from services.search.query.request import DEFAULT_MODE, SearchRequest, encode_cursor
from services.search.query.search_body import (
    CITED,
    LEXICAL_MATCHES,
    facet_aggregations,
    facets_sampled,
    named_hidden_counts,
)
from services.search.records.documents import from_source
from services.search.records.model import Paper
from services.search.records.paper_names import search_keys

# What a search may leave out of its answer when it runs out of time (its hits never).
LEFT_OUT_FACETS = "facets"            # the facet counts (and the year histogram)
LEFT_OUT_SUGGESTIONS = "suggestions"  # a spelling correction or "did you mean"


@dataclass(frozen=True)
class Exported:
    """An export: the first papers of a result set and how many the set holds."""

    papers: list[Paper]
    total: int


@dataclass(frozen=True)
class Matches:
    """The papers of a search that a map highlights: the first ``limit`` ids, and how many match in all."""

    ids: tuple[str, ...] = field(default_factory=tuple)
    total: int = 0


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
    lexical_total: int | None = None  # papers the words match, when kNN adds others (hybrid)
    cited: int | None = None  # of the hits, those with a citation count (sorted by citations)
    corrected_from: str | None = None  # the query as typed, when these are its correction's results
    hint: str | None = None  # why nothing was found, when it can be told (services.search.answers.corrections.HINTS)
    facets_estimated: bool = False  # facet counts taken on a random sample of a broad search's matches
    left_out: tuple[str, ...] = ()  # parts that ran out of time (LEFT_OUT_*): an answer not to keep

    @property
    def matched(self) -> int:
        """Papers the query's words match: what tells a typo (hybrid's kNN always finds neighbours)."""
        return self.total if self.lexical_total is None else self.lexical_total

    @property
    def hidden_total(self) -> int:
        """Papers the query matches that the list leaves out unless asked (said apart, never mixed in)."""
        return sum(self.hidden.values())

    def label(self, facet: Facet, value: str) -> str:
        """What a chosen value is called: its label as counted (a person's, read with the answer), else the facet's."""
        found = next((v.label for v in self.facets.get(facet.name, ()) if v.value == value), None)
        return found or facet.value_label(value)

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


# A hyphenated word of a query ("in-context"): matched as one compound, marked as one.
_QUERY_COMPOUND = re.compile(r"\w+(?:-\w+)+")


def whole_compounds(html: str, query: str) -> str:
    """Highlights that mark a query's hyphenated word whole: Elasticsearch marks the terms it
    matched, so "in-context learning" (whose "in" is a stop word) comes back as
    ``In-<mark>Context Learning</mark>``; the mark is moved to the compound's start."""
    for pattern in _compound_marks(query) if "<mark>" in html else ():
        html = pattern.sub(r"<mark>\1", html)
    return html


@functools.lru_cache(maxsize=256)
def _compound_marks(query: str) -> tuple[re.Pattern[str], ...]:
    """The patterns of a mark inside each of the query's compounds: built once per query, not per
    highlight (two a hit, twenty hits a page)."""
    patterns = []
    for compound in dict.fromkeys(_QUERY_COMPOUND.findall(query)):
        parts = compound.split("-")
        for k in range(1, len(parts)):
            head, rest = "-".join(parts[:k]) + "-", "-".join(parts[k:])
            patterns.append(re.compile(rf"(?i)(?<![\w-])({re.escape(head)})<mark>(?={re.escape(rest)}(?![\w-]))"))
    return tuple(patterns)


_MARK = re.compile(r"(</?mark>)")


def marked_names(html: str, paper: Paper, keys: frozenset[str]) -> str:
    """The title's highlight with the paper's names that the query names marked whole: "faster rcnn" means
    Faster R-CNN, whose title holds no word "rcnn", so Elasticsearch marked only "Faster"; "vqvae" marks a
    title's "VQ-VAE". ``html`` is Elasticsearch's (escaped, ``<mark>``-ed; "" when it marked nothing)."""
    names = [n for n in paper.names + paper.given_names if not keys.isdisjoint(_name_keys(n))]
    if not names:
        return html
    text, marked = [], []  # the escaped title without its marks, and which of its characters were marked
    inside = False
    for part in _MARK.split(html or escape(paper.title)):
        if part in ("<mark>", "</mark>"):
            inside = part == "<mark>"
        else:
            text.append(part)
            marked += [inside] * len(part)
    plain = "".join(text)
    for name in names:
        for found in re.finditer(rf"(?i)(?<!\w){re.escape(escape(name))}(?!\w)", plain):
            marked[found.start():found.end()] = [True] * (found.end() - found.start())
    if not any(marked):
        return html
    out, start = [], 0
    for i in range(1, len(plain) + 1):  # runs of marked and unmarked characters
        if i == len(plain) or marked[i] != marked[start]:
            run = plain[start:i]
            out.append(f"<mark>{run}</mark>" if marked[start] else run)
            start = i
    return "".join(out)


@functools.lru_cache(maxsize=4096)
def _name_keys(name: str) -> tuple[str, ...]:
    """A name's search keys, folded once per name, not per hit of every search that lists it."""
    return tuple(search_keys(name))


def paged(resp: dict[str, Any], hits: list[dict], window: dict[str, int]) -> dict[str, Any]:
    """``resp`` with the page ``window`` (from, size) of ``hits`` (a fused list); the total counts
    every hit that could be paged to."""
    start = window["from"]
    total = max(resp["hits"]["total"]["value"], len(hits))
    return {**resp, "hits": {**resp["hits"], "total": {**resp["hits"]["total"], "value": total},
                             "hits": hits[start:start + window["size"]]}}


def shape(req: SearchRequest, resp: dict[str, Any]) -> SearchResults:
    hits = []
    keys = req.reading.naming_keys
    for h in resp["hits"]["hits"]:
        hl = h.get("highlight") or {}
        paper = from_source(h["_source"])
        hits.append(Hit(
            paper=paper,
            title_html=marked_names(whole_compounds((hl.get("title") or [""])[0], req.q), paper, keys),
            snippet_html=whole_compounds((hl.get("abstract") or [""])[0], req.q),
            sort=tuple(h.get("sort") or ()),
        ))
    results = SearchResults(req, resp["hits"]["total"]["value"], hits, took_ms=resp.get("took", 0))
    aggs = facet_aggregations(resp.get("aggregations") or {})
    results.facets_estimated = facets_sampled(resp.get("aggregations") or {})
    for facet in req.facets:
        agg = aggs.get(facet.name)
        if agg:
            results.facets[facet.name] = facet.shape(agg, req.selected(facet.name))
        if agg and facet.hidden and not req.selected(facet.name):
            listed = named_hidden_counts(resp.get("aggregations") or {}, facet.name)
            results.hidden.update({v.value: v.count - listed.get(v.value, 0) for v in results.facets[facet.name]
                                   if v.value in facet.hidden and v.count > listed.get(v.value, 0)})
    timeline = req.facets.timeline
    if timeline and aggs.get(timeline.name):
        results.year_histogram = timeline.histogram(aggs[timeline.name])
        results.year_span = timeline.span(aggs[timeline.name])
    lexical = (resp.get("aggregations") or {}).get(LEXICAL_MATCHES)
    if lexical is not None:
        results.lexical_total = lexical["doc_count"]
    cited = (resp.get("aggregations") or {}).get(CITED)
    if cited is not None:
        results.cited = cited["doc_count"]
    return results


def suggestion(suggest: dict[str, Any] | None) -> str | None:
    """The phrase suggester's correction of the free text (:func:`services.search.query.search_body.build_suggest`), if any."""
    options = (((suggest or {}).get("did_you_mean") or [{}])[0]).get("options") or []
    return options[0]["text"] if options else None
