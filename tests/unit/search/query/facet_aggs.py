"""Facet aggregations per facet, in and out of the grouped shape the search body uses.

The body shares one filter bucket between facets with the same other-facet filters
(``search_body.aggregations``); these read a body per facet and shape a fake answer the
way Elasticsearch returns it, so tests keep talking about one facet at a time.
"""

from __future__ import annotations

from typing import Any


def by_facet(body: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """``{facet: {"filter": its group's filter, "aggs": {sub-aggregation: body}}}``."""
    out: dict[str, dict[str, Any]] = {}
    for name, group in body["aggs"].items():
        if not name.startswith("facets_"):
            continue  # not a facet group: a count of its own (named hidden papers, cited, lexical matches)
        for key, agg in group["aggs"].items():
            facet, _, sub = key.partition(".")
            out.setdefault(facet, {"filter": group["filter"], "aggs": {}})["aggs"][sub] = agg
    return out


def grouped(per_facet: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """A fake ``aggregations`` answer: every facet's results in one group, as Elasticsearch names them."""
    group: dict[str, Any] = {"doc_count": max((a.get("doc_count", 0) for a in per_facet.values()), default=0)}
    for facet, results in per_facet.items():
        group.update({f"{facet}.{sub}": value for sub, value in results.items() if sub != "doc_count"})
    return {"facets_0": group}
