"""Record of every ingested source (the source registry), so ``reindex --from-sources`` can read them all again.

Kept in a small Elasticsearch index beside the papers (``<alias>-sources``): it lives as
long as the data it describes and is backed up with it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from hashlib import sha1

from elasticsearch import Elasticsearch, NotFoundError, helpers

from services.search.engine.indices import ensure_side_index

MAPPINGS = {
    "dynamic": "strict",
    "properties": {
        "location": {"type": "keyword"},
        "records": {"type": "integer"},
        "run": {"type": "keyword"},
        "ingested_at": {"type": "date"},
    },
}


@dataclass(frozen=True)
class SourceRecord:
    location: str
    records: int
    run: str
    ingested_at: str


class SourceRegistry:
    def __init__(self, es: Elasticsearch, alias: str):
        self.es = es
        self.index = f"{alias}-sources"

    def record(self, per_source: dict[str, int], run_id: str) -> None:
        if not per_source:
            return
        ensure_side_index(self.es, self.index, MAPPINGS)
        now = datetime.now(timezone.utc).isoformat(timespec="seconds")
        actions = ({"_index": self.index, "_id": sha1(loc.encode()).hexdigest(),
                    "_source": {"location": loc, "records": n, "run": run_id, "ingested_at": now}}
                   for loc, n in per_source.items())
        helpers.bulk(self.es, actions, refresh="wait_for")

    def all(self) -> list[SourceRecord]:
        try:
            hits = helpers.scan(self.es, index=self.index, query={"query": {"match_all": {}}})
            found = [SourceRecord(**h["_source"]) for h in hits]
        except NotFoundError:
            return []
        return sorted(found, key=lambda r: r.location)
