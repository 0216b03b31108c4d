"""Where a venue-year's prominence scale comes from: its source list read whole, or the index.

The prior (:mod:`services.search.records.prominence`) ranks a paper's rating and citation count
among the papers of its own venue-year, so the whole venue-year must be seen before any of
its papers is written. An ingest and a rebuild from sources read each list whole anyway
(one file is one conference-year in the paperlists format) and take the scale from it
(:func:`from_records`) before the records go to the workers; a rebuild from the index takes
it from the stored papers, one aggregation for every venue-year (:func:`from_index`), so a
change of formula needs no re-read of the sources.
"""

from __future__ import annotations

from collections.abc import Iterable

from elasticsearch import Elasticsearch

from services.indexer.paper.normalise import prior_inputs
from services.indexer.sources import Origin
from services.search.records.prominence import SCALE_POINTS, VenueScale, scale_key

_PERCENTS = [100 * i / (SCALE_POINTS - 1) for i in range(SCALE_POINTS)]
_SIGNALS = {"ratings": "rating_avg", "citations": "citations"}


def from_records(records: Iterable[tuple[object, Origin, str, int]]) -> dict[str, VenueScale]:
    """Each venue-year's scale over ``(data, origin, conference, year)`` raw records."""
    values: dict[str, tuple[list, list]] = {}
    for data, origin, conference, year in records:
        rating, citations = prior_inputs(data, origin)
        ratings, counts = values.setdefault(scale_key(conference, year), ([], []))
        ratings.append(rating)
        counts.append(citations)
    return {key: VenueScale.of(ratings, counts) for key, (ratings, counts) in values.items()}


def from_index(es: Elasticsearch, index: str) -> dict[str, VenueScale]:
    """Each venue-year's scale from the papers stored in ``index`` (percentiles of each signal)."""
    aggs = {name: {"percentiles": {"field": field, "percents": _PERCENTS}} for name, field in _SIGNALS.items()}
    sources = [{"conference": {"terms": {"field": "conference"}}}, {"year": {"terms": {"field": "year"}}}]
    scales: dict[str, VenueScale] = {}
    after = None
    while True:
        composite = {"size": 500, "sources": sources, **({"after": after} if after else {})}
        resp = es.search(index=index, size=0, aggs={"vy": {"composite": composite, "aggs": aggs}})
        agg = resp["aggregations"]["vy"]
        for bucket in agg["buckets"]:
            quantiles = {name: tuple(v for v in bucket[name]["values"].values() if v is not None)
                         for name in _SIGNALS}
            scales[scale_key(bucket["key"]["conference"], int(bucket["key"]["year"]))] = VenueScale(**quantiles)
        after = agg.get("after_key")
        if not agg["buckets"] or not after:
            return scales
