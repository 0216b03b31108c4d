"""Building a venue-year's map (issue 32): read its papers' vectors, lay them out, name the clusters, store.

A map is made once per venue-year whenever its papers change: the ingest command asks for
the venue-years its batches wrote (and its prune deleted from), a reindex for every one
(``paperlist.build_maps``, which sends one ``paperlist.build_map`` a venue-year, the
largest first, so the workers share them). The map's *digest* names the papers and
vectors it was made of: a venue-year whose digest is unchanged (a plain reindex copies
the same papers) is not laid out again. A venue-year with fewer listed papers than
``PAPERLIST_MAP_MIN_PAPERS`` (200) gets no map, and loses the one it had.

The papers are those its page lists (rejected and withdrawn ones are left out), each
with its stored embedding; papers without one (no abstract and a short title) are left
off the map and counted.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from typing import Any

import numpy as np
from celery import Celery
from elasticsearch import Elasticsearch, helpers

from services import task_names
from services.search.engine import map_store
from services.search.query.facets import FACETS
from services.search.records.embedding import EMBEDDING, EMBEDDING_VERSION
from services.search.records.venue_maps import MapCluster, MapPoints, VenueMap
from services.settings import Settings

from . import layout as map_layout
from .labels import LabelInput, name_clusters

MAP_VERSION = "1"  # part of every digest: a change to how maps are made rebuilds them all
SCAN_SIZE = 1000
_FIELDS = ["paper_id", "title", "keywords", "topic_labels", "content_hash", EMBEDDING, EMBEDDING_VERSION]


@dataclass(frozen=True)
class Built:
    """What building one venue-year's map did: ``built``, ``unchanged``, ``too_small`` or ``removed``."""

    conference: str
    year: int
    outcome: str
    papers: int = 0
    cpu_seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {"conference": self.conference, "year": self.year, "outcome": self.outcome,
                "papers": self.papers, "cpu_seconds": round(self.cpu_seconds, 2)}


@dataclass(frozen=True)
class _Paper:
    paper_id: str
    title: str
    keywords: tuple[str, ...]
    topics: tuple[str, ...]
    vector: list[float] | None


def _listed(conference: str, year: int) -> dict[str, Any]:
    """The venue-year's papers as its page lists them."""
    return {"bool": {"filter": [{"term": {"conference": conference}}, {"term": {"year": year}},
                                *FACETS.default_filters()]}}


def listed_venue_years(es: Elasticsearch, alias: str) -> dict[tuple[str, int], int]:
    """Every venue-year of the alias with its listed papers."""
    body = {"size": 0, "query": {"bool": {"filter": FACETS.default_filters()}},
            "aggs": {"c": {"terms": {"field": "conference", "size": 10_000},
                           "aggs": {"y": {"terms": {"field": "year", "size": 1000}}}}}}
    resp = es.search(index=alias, **body)
    return {(c["key"], int(y["key"])): y["doc_count"]
            for c in resp["aggregations"]["c"]["buckets"] for y in c["y"]["buckets"]}


def build_map(es: Elasticsearch, alias: str, maps_index: str, conference: str, year: int, *,
              min_papers: int, force: bool = False) -> Built:
    """Make (or remove) the map of one venue-year; skipped when its papers are those of the stored map."""
    papers, hashes = _read(es, alias, conference, year)
    if len(papers) < min_papers:
        removed = map_store.delete(es, maps_index, conference, year)
        return Built(conference, year, "removed" if removed else "too_small", len(papers))
    digest = _digest(hashes)
    if not force and map_store.stored_digest(es, maps_index, conference, year) == digest:
        return Built(conference, year, "unchanged", len(papers))
    started = time.process_time()
    venue_map = make_map(conference, year, papers, digest)
    cpu = time.process_time() - started
    venue_map = replace(venue_map, cpu_seconds=round(cpu, 2))
    map_store.store(es, maps_index, venue_map)
    return Built(conference, year, "built", venue_map.papers, cpu)


def make_map(conference: str, year: int, papers: list[_Paper], digest: str = "") -> VenueMap:
    """The map of these papers (those without a vector are counted, not drawn)."""
    drawn = [p for p in papers if p.vector]
    vectors = np.asarray([p.vector for p in drawn], dtype=np.float32)
    placed = map_layout.layout(vectors) if len(drawn) else map_layout.Layout(np.zeros(0), np.zeros(0),
                                                                             np.zeros(0, dtype=np.int64))
    cluster = [int(c) for c in placed.cluster]
    names = name_clusters([LabelInput(p.title, p.keywords, p.topics) for p in drawn], cluster)
    clusters = []
    for c in sorted(names):
        members = placed.cluster == c
        x, y = _label_point(placed.x[members], placed.y[members])
        clusters.append(MapCluster(id=c, label=names[c].label, count=int(members.sum()), x=x, y=y,
                                   terms=names[c].terms))
    points = MapPoints(ids=tuple(p.paper_id for p in drawn), titles=tuple(p.title for p in drawn),
                       x=tuple(round(float(v), 4) for v in placed.x), y=tuple(round(float(v), 4) for v in placed.y),
                       cluster=tuple(cluster))
    return VenueMap(conference=conference, year=year, papers=len(drawn), left_out=len(papers) - len(drawn),
                    points=points, clusters=tuple(clusters), method=map_layout.METHOD,
                    computed_at=datetime.now(timezone.utc).isoformat(timespec="seconds"), digest=digest)


def _label_point(x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """Where a cluster's name goes: its paper nearest the cluster's centre (on the cluster, not in a gap)."""
    cx, cy = float(np.median(x)), float(np.median(y))
    i = int(np.argmin((x - cx) ** 2 + (y - cy) ** 2))
    return round(float(x[i]), 4), round(float(y[i]), 4)


def _read(es: Elasticsearch, alias: str, conference: str, year: int) -> tuple[list[_Paper], list[str]]:
    papers, hashes = [], []
    for hit in helpers.scan(es, index=alias, query={"query": _listed(conference, year), "_source": _FIELDS},
                            size=SCAN_SIZE, scroll="2m", preserve_order=False):
        src = hit["_source"]
        vector = src.get(EMBEDDING)
        papers.append(_Paper(hit["_id"], src.get("title") or "", tuple(src.get("keywords") or ()),
                             tuple(src.get("topic_labels") or ()), vector or None))
        hashes.append(f"{hit['_id']}:{src.get('content_hash', '')}:{src.get(EMBEDDING_VERSION, '') if vector else ''}")
    order = sorted(range(len(papers)), key=lambda i: papers[i].paper_id)  # the same papers, the same map
    return [papers[i] for i in order], sorted(hashes)


def _digest(hashes: list[str]) -> str:
    h = hashlib.sha1(f"{MAP_VERSION}|{map_layout.METHOD}".encode())
    for line in hashes:
        h.update(line.encode())
        h.update(b"\n")
    return h.hexdigest()


def planned(es: Elasticsearch, alias: str, maps_index: str, min_papers: int,
            wanted: list[tuple[str, int]] | None = None) -> list[tuple[str, int]]:
    """The venue-years to build, the largest first (so two workers finish together): ``wanted``, or
    every venue-year with enough papers and every one that has a map (it may have to go)."""
    listed = listed_venue_years(es, alias)
    if wanted is None:
        chosen = {key for key, papers in listed.items() if papers >= min_papers} | set(map_store.stored(es, maps_index))
    else:
        chosen = set(wanted)
    return sorted(chosen, key=lambda key: (-listed.get(key, 0), key))


def request_maps(celery: Celery, settings: Settings, alias: str,
                 venue_years: list[tuple[str, int]] | None = None, force: bool = False) -> None:
    """Ask the workers for the maps of these venue-years (None: every one, as after a reindex)."""
    celery.send_task(task_names.BUILD_MAPS, args=[alias, venue_years, force], queue=settings.queue)
