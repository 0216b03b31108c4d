"""Pruning: delete the papers of some venue-years that their source no longer lists.

Run by a worker after an ingest with ``--prune`` has read every record of those venue-years (the
ids it saw are kept); it sees every paper first (the ingest loads at a long refresh interval), then
deletes through the writer, so a rebuild running meanwhile replays the deletions.
"""

from __future__ import annotations

import redis
from elasticsearch import Elasticsearch, helpers

from services.indexer.writes.bulk import delete_papers

SCAN_SIZE = 2000


def prune_missing(es: Elasticsearch, client: redis.Redis, alias: str, conference_years: list[list],
                  keep_ids: list[str]) -> dict:
    """Delete the papers of ``conference_years`` whose ids are not in ``keep_ids``; what was deleted."""
    keep = set(keep_ids)
    query = {"bool": {"should": [
        {"bool": {"filter": [{"term": {"conference": conf}}, {"term": {"year": int(year)}}]}}
        for conf, year in conference_years
    ], "minimum_should_match": 1}}
    es.indices.refresh(index=alias)
    doomed = [hit for hit in helpers.scan(es, index=alias, size=SCAN_SIZE, scroll="2m",
                                          query={"query": query, "_source": ["conference", "year"]})
              if hit["_id"] not in keep]
    deleted = delete_papers(es, client, alias, [hit["_id"] for hit in doomed])
    venue_years = sorted({(h["_source"]["conference"], int(h["_source"]["year"])) for h in doomed})
    return {"deleted": deleted, "candidates": len(doomed), "venue_years": venue_years}
