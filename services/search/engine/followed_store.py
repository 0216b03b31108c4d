"""The followed sources' index, ``<alias>-followed``: written by the indexer's polls and the operator, read by the web.

One document a source under :func:`~services.search.records.followed.source_id`, in the stored form of
:mod:`services.search.records.followed` (which says why the registry is an index of its own). Every
write waits for the refresh, so the next poll, the admin API and the freshness page read it at once.
"""

from __future__ import annotations

from elasticsearch import Elasticsearch, NotFoundError, helpers

from services.search.engine.indices import ensure_side_index
from services.search.records.followed import MAPPINGS, FollowedSource, source_id

MAX_SOURCES = 10_000  # Elasticsearch's window of one search


def index_of(alias: str) -> str:
    return f"{alias}-followed"


def save(es: Elasticsearch, index: str, source: FollowedSource) -> None:
    ensure_side_index(es, index, MAPPINGS)
    es.index(index=index, id=source.id, document=source.to_document(), refresh="wait_for")


def save_many(es: Elasticsearch, index: str, sources: list[FollowedSource]) -> None:
    if not sources:
        return
    ensure_side_index(es, index, MAPPINGS)
    helpers.bulk(es, ({"_index": index, "_id": s.id, "_source": s.to_document()} for s in sources),
                 refresh="wait_for")


def load(es: Elasticsearch, index: str, url_or_id: str) -> FollowedSource | None:
    """A source by its URL or its id; None when it is not followed."""
    for key in dict.fromkeys((url_or_id, source_id(url_or_id))):
        try:
            return FollowedSource.from_document(es.get(index=index, id=key)["_source"])
        except NotFoundError:
            continue
    return None


def all_sources(es: Elasticsearch, index: str) -> list[FollowedSource]:
    """Every followed source, by URL (none when the registry was never written). One request: a registry
    holds hundreds of sources (the corpus's 364 files), never near :data:`MAX_SOURCES`."""
    try:
        hits = es.search(index=index, size=MAX_SOURCES, query={"match_all": {}}, sort=[{"url": "asc"}])["hits"]["hits"]
    except NotFoundError:
        return []
    return [FollowedSource.from_document(h["_source"]) for h in hits]


def delete(es: Elasticsearch, index: str, url_or_id: str) -> bool:
    """Stop following a source; True when it was followed."""
    found = load(es, index, url_or_id)
    if found is None:
        return False
    es.delete(index=index, id=found.id, refresh="wait_for")
    return True
