"""Search bodies for Elasticsearch, built from a :class:`SearchRequest` — never in views.

Facets are multi-select: the facet filters go in ``post_filter`` (they narrow the hits
but not the aggregations) and every facet is counted under all the *other* active
filters, so a user can widen a selection as well as narrow it.
"""

from __future__ import annotations

from typing import Any

from services.search.limits import SUGGEST_WORDS
from services.search.records.documents import SUMMARY_FIELDS

from .facets import FACETS
from .ranking import ranked
from .request import SearchRequest
from .sorting import effective_sort, sort_clauses
from .text_query import PERSON_FIELD, TITLE_KEY_FIELD, compile_query, highlight_queries

# What every listing shows unless asked (rejected and withdrawn papers left out), and what it leaves out.
VISIBLE = {"bool": {"filter": FACETS.default_filters()}}
HIDDEN = {"bool": {"must_not": [VISIBLE]}}

HIGHLIGHT = {
    "pre_tags": ["<mark>"],
    "post_tags": ["</mark>"],
    "encoder": "html",
    "fields": {
        "title": {"number_of_fragments": 0},
        "abstract": {"fragment_size": 240, "number_of_fragments": 1, "no_match_size": 240},
    },
}


def facet_filters(req: SearchRequest) -> dict[str, dict[str, Any]]:
    """Each facet's filter by name: its selection, or its default (rejected papers hidden) when none.

    A paper the query names by its whole title is listed whatever its default hides: someone who
    pastes a rejected paper's title wants that paper (its reviews, its scores), not another that
    shares its words above a "+ 1 rejected — show" (:attr:`QueryReading.named_titles`; a twin listed under
    the same title, the paper accepted elsewhere, still ranks first: ``WEIGHTS["title_hidden"]``)."""
    named = req.reading.named_titles
    out = {}
    for facet in req.facets:
        values = req.filters.get(facet.name, ())
        clause = facet.filter(values)
        if clause and named and facet.hidden and not values:
            clause = {"bool": {"should": [clause, _titled(named)], "minimum_should_match": 1}}
        if clause:
            out[facet.name] = clause
    return out


def _titled(keys: tuple[str, ...]) -> dict[str, Any]:
    return {"terms": {TITLE_KEY_FIELD: list(keys)}}


def scope_filters(req: SearchRequest) -> list[dict[str, Any]]:
    """The constraints of the query that are not facets: ``conference:``, ``year:`` and ``person:`` scopes, and /new's window."""
    parsed = req.parsed
    filters: list[dict[str, Any]] = []
    if parsed.conferences:
        filters.append({"terms": {"conference": list(parsed.conferences)}})
    if parsed.years:
        filters.append({"bool": {"should": [{"range": {"year": {"gte": lo, "lte": hi}}}
                                            for lo, hi in parsed.years], "minimum_should_match": 1}})
    if parsed.people:
        filters.append({"terms": {PERSON_FIELD: list(parsed.people)}})
    if req.added:  # /new: "7d" as date math rounded to the minute (one cached query a minute), or a time
        since = f"now-{req.added}/m" if req.added[:-1].isdigit() and req.added.endswith("d") else req.added
        filters.append({"range": {"indexed_at": {"gte": since}}})
    return filters


def base_query(req: SearchRequest) -> dict[str, Any]:
    """Text relevance plus the constraints that are not facets (``conference:``/``year:`` in the query)."""
    text = compile_query(req.reading, expand_last=req.expand_last)
    return {"bool": {"must": [ranked(text, req.reading)], "filter": scope_filters(req)}}


def result_query(req: SearchRequest) -> dict[str, Any]:
    """The query whose matches are exactly the hits of ``req``: the base query with every facet
    filter (the hidden-status default too) applied, for aggregations over the result set."""
    query = base_query(req)
    query["bool"]["filter"].extend(facet_filters(req).values())
    return query


def build_search(req: SearchRequest, *, facets: bool = True, highlight: bool = True,
                 source: list[str] | None = None) -> dict[str, Any]:
    order = effective_sort(req.sort, not req.parsed.is_empty)
    active = facet_filters(req)
    body: dict[str, Any] = {
        "query": base_query(req),
        "sort": sort_clauses(order),
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
    if highlight and req.page_size:
        marks = highlight_queries(req.reading, expand_last=req.expand_last)
        body["highlight"] = {**HIGHLIGHT, "fields": {field: {**options, "highlight_query": marks[field]}
                                                     for field, options in HIGHLIGHT["fields"].items()}}
    if facets and req.counted_facets:
        body["aggs"] = aggregations(req, active)
    if order == "citations" and req.page_size:
        # How many of the hits have a count: the page says it (the others follow by mentions here).
        body.setdefault("aggs", {})[CITED] = {"filter": {"bool": {"filter": [
            {"exists": {"field": "citations"}}, *active.values()]}}}
    return body


def build_suggest(req: SearchRequest) -> dict[str, Any] | None:
    """The correction of the free text, or None: a second request, sent only when hits are few.

    The phrase suggester costs as much as the rest of a search; asked on every search its
    answer was shown only below ``SUGGEST_BELOW`` hits anyway. Its default ``token_limit``
    (10) silently gave no correction for any longer text, i.e. for most pasted titles.
    """
    words = req.reading.free_text.split()[:SUGGEST_WORDS]
    if not words:
        return None
    return {"did_you_mean": {"text": " ".join(words), "phrase": {
        "field": "title.shingles", "size": 1, "gram_size": 3, "max_errors": 2, "confidence": 1.0,
        "token_limit": SUGGEST_WORDS + 8,  # tokens, after the analyzer splits "end-to-end"
        "direct_generator": [{"field": "title.shingles", "suggest_mode": "always", "min_word_length": 3}],
        "highlight": {"pre_tag": "<em>", "post_tag": "</em>"},
    }}}


# A hybrid search's count of the papers its words match (kNN adds neighbours to any query).
LEXICAL_MATCHES = "lexical_matches"
# A citation-sorted search's count of its hits that have a citation count.
CITED = "cited"
# Aggregation names: a group of facets sharing one filter, and a facet's sub-aggregation in it.
_GROUP = "facets_"
_SUB = "."


def aggregations(req: SearchRequest, active: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Each counted facet under the other facets' filters, plus exact counts of its selected values.

    Facets whose "other filters" are the same share one filter bucket (with nothing selected,
    every facet but status sits under the hidden-status default): one filter pass instead of
    one per facet, 9% off the raw body. :func:`facet_aggregations` reads them back per facet; the
    hidden papers listed as named are counted apart (:func:`named_hidden`).
    """
    groups: dict[tuple[str, ...], dict[str, Any]] = {}
    for facet in req.counted_facets:
        others = tuple(name for name in active if name != facet.name)
        subs = groups.setdefault(others, {})
        subs.update({f"{facet.name}{_SUB}{name}": agg
                     for name, agg in facet.aggregation(req.filters.get(facet.name, ())).items()})
    aggs = {f"{_GROUP}{i}": {"filter": {"bool": {"filter": [active[n] for n in others]}} if others
                          else {"match_all": {}}, "aggs": subs}
         for i, (others, subs) in enumerate(groups.items())}
    return aggs | named_hidden(req, active)


# Per facet with hidden values, how many of them the list shows because the query names them by title.
NAMED = "named:"


def named_hidden(req: SearchRequest, active: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Counts of the papers each facet's default would hide that the list shows as named
    (:func:`facet_filters`), under the same filters as that facet's counts: the "+ N rejected"
    beside the list counts only the others. Exact, outside any sample."""
    named = req.reading.named_titles
    if not named:
        return {}
    return {f"{NAMED}{facet.name}": {
        "filter": {"bool": {"filter": [_titled(named), *(clause for n, clause in active.items() if n != facet.name)]}},
        "aggs": {"values": {"terms": {"field": facet.field, "include": list(facet.hidden)}}}}
        for facet in req.counted_facets if facet.hidden and not req.filters.get(facet.name)}


def named_hidden_counts(aggregations: dict[str, Any], facet: str) -> dict[str, int]:
    """The answer of :func:`named_hidden` for one facet: ``{hidden value: papers listed as named}``."""
    buckets = ((aggregations.get(f"{NAMED}{facet}") or {}).get("values") or {}).get("buckets") or []
    return {str(b["key"]): b["doc_count"] for b in buckets}


# The facet groups counted on a random sample of the matches (:func:`sample_facets`), and its seed:
# one seed, so that a page, its next page and a reload show the same estimates.
SAMPLED = "sampled"
SAMPLE_SEED = 34


def sample_facets(body: dict[str, Any], probability: float | None) -> dict[str, Any]:
    """``body`` with its facet counts taken on a random ``probability`` share of the matches (None: all).

    Elasticsearch's ``random_sampler`` counts each facet on the sample and scales the counts
    back up: estimates within a few percent for the values that matter on a page (the big
    ones), at the cost of a sample instead of every match. The hit total, the hybrid search's
    lexical count and the citation count stay exact (they are outside the sample).
    """
    aggs = body.get("aggs") or {}
    groups = {name: agg for name, agg in aggs.items() if name.startswith(_GROUP)}
    if not groups or not probability:
        return body
    rest = {name: agg for name, agg in aggs.items() if name not in groups}
    sampler = {"random_sampler": {"probability": probability, "seed": SAMPLE_SEED}, "aggs": groups}
    return {**body, "aggs": {**rest, SAMPLED: sampler}}


def facets_sampled(aggregations: dict[str, Any]) -> bool:
    """Whether these facet counts are estimates (:func:`sample_facets`)."""
    return SAMPLED in aggregations


def facet_aggregations(aggregations: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The answer of :func:`aggregations` per facet name: ``{facet: {sub-aggregation: result}}``."""
    out: dict[str, dict[str, Any]] = {}
    aggregations = {**aggregations, **aggregations.get(SAMPLED, {})}
    for name, group in aggregations.items():
        if not name.startswith(_GROUP):
            continue
        for key, value in group.items():
            facet, sep, sub = key.partition(_SUB)
            if sep:
                out.setdefault(facet, {})[sub] = value
    return out
