"""The maps index, ``<alias>-maps``: where the indexer writes each venue-year's map and the web reads it.

One document per venue-year, under :func:`~services.search.records.venue_maps.map_id`, in the
stored form of :mod:`services.search.records.venue_maps` (which says why maps live in an index
of their own).
"""

from __future__ import annotations

from elasticsearch import Elasticsearch, NotFoundError, helpers

from services.search.engine.indices import ensure_side_index
from services.search.records.venue_maps import MAPPINGS, VenueMap, map_id


def store(es: Elasticsearch, index: str, venue_map: VenueMap) -> None:
    ensure_side_index(es, index, MAPPINGS)
    es.index(index=index, id=map_id(venue_map.conference, venue_map.year), document=venue_map.to_document(),
             refresh="wait_for")


def load(es: Elasticsearch, index: str, conference: str, year: int) -> VenueMap | None:
    """The stored map, or None (no map for that venue-year, or no maps at all yet)."""
    try:
        doc = es.get(index=index, id=map_id(conference, year))
    except NotFoundError:
        return None
    return VenueMap.from_document(doc["_source"])


def stored_digest(es: Elasticsearch, index: str, conference: str, year: int) -> str | None:
    try:
        doc = es.get(index=index, id=map_id(conference, year), source_includes=["digest"])
    except NotFoundError:
        return None
    return doc["_source"].get("digest")


def stored(es: Elasticsearch, index: str) -> list[tuple[str, int]]:
    """The venue-years that have a map."""
    try:
        hits = helpers.scan(es, index=index, query={"query": {"match_all": {}}, "_source": ["conference", "year"]})
        return [(h["_source"]["conference"], int(h["_source"]["year"])) for h in hits]
    except NotFoundError:
        return []


def delete(es: Elasticsearch, index: str, conference: str, year: int) -> bool:
    """Remove a venue-year's map (it fell below the minimum); True when there was one."""
    try:
        es.delete(index=index, id=map_id(conference, year), refresh="wait_for")
    except NotFoundError:
        return False
    return True
