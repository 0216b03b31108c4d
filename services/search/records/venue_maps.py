"""A venue-year's map (issue 32): its papers laid out in 2-D by content, in named clusters, as stored.

The indexer computes a map once per venue-year when its papers change
(:mod:`services.indexer.maps.build`) and keeps it here; the web reads it by id. Maps live in a
small index beside the papers, ``<alias>-maps`` (``PAPERLIST_MAPS_INDEX`` names another),
one document per venue-year, like the source registry's ``<alias>-sources``: a reindex's
alias swap leaves it alone, it replicates with the cluster and is backed up with the data, and
nothing evicts it (Redis keeps the cache under ``volatile-lru`` in 512 MB; the corpus's 194 maps
are ~35 MB). ``python -m bench.pipeline.maps storage`` read the largest map (ICML 2026, 6,617 points, 849 KB)
whole in 11.0 ms (median; 20 ms at worst) from Elasticsearch against 7.1 ms (16 ms) from Redis,
both parsed: the difference is lost in the page's render, which the whole-answer cache keeps.

A map is whole or absent: the builder writes it in one request. Coordinates are in
``[0, 1]`` with the origin at the top left (y grows downwards, as on a screen), the
layout's longer axis horizontal; ``digest`` names the papers and vectors it was made of,
so a rebuild of unchanged papers (after a reindex) is skipped.

This module is the map as stored (its mapping, its typed form, its document); reading and
writing the maps index is :mod:`services.search.engine.map_store`'s.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

MAPPINGS: dict[str, Any] = {
    "dynamic": "strict",
    "properties": {
        "conference": {"type": "keyword"},
        "year": {"type": "short"},
        "papers": {"type": "integer"},
        "left_out": {"type": "integer"},
        "digest": {"type": "keyword"},
        "method": {"type": "keyword", "index": False},
        "cpu_seconds": {"type": "float", "index": False},
        "computed_at": {"type": "date"},
        # Read whole by id, never searched: stored, not indexed.
        "points": {"type": "object", "enabled": False},
        "clusters": {"type": "object", "enabled": False},
    },
}


@dataclass(frozen=True)
class MapCluster:
    """A cluster: its name (what its papers share), its size and where its name goes on the map."""

    id: int
    label: str
    count: int
    x: float
    y: float
    terms: tuple[str, ...] = ()  # the label's parts, most telling first


@dataclass(frozen=True)
class MapPoints:
    """The papers of a map as parallel columns (a third of the bytes of one object a paper)."""

    ids: tuple[str, ...] = ()
    titles: tuple[str, ...] = ()
    x: tuple[float, ...] = ()
    y: tuple[float, ...] = ()
    cluster: tuple[int, ...] = ()

    def __len__(self) -> int:
        return len(self.ids)


@dataclass(frozen=True)
class VenueMap:
    conference: str
    year: int
    papers: int                # papers on the map
    left_out: int              # papers of the venue-year without an embedding (no abstract, a short title)
    points: MapPoints
    clusters: tuple[MapCluster, ...]
    method: str = ""           # how it was made (projection, clustering)
    cpu_seconds: float = 0.0   # what making it cost
    computed_at: str = ""
    digest: str = ""

    def to_document(self) -> dict[str, Any]:
        return {"conference": self.conference, "year": self.year, "papers": self.papers,
                "left_out": self.left_out, "digest": self.digest, "method": self.method,
                "cpu_seconds": self.cpu_seconds, "computed_at": self.computed_at,
                "points": {"ids": list(self.points.ids), "titles": list(self.points.titles),
                           "x": list(self.points.x), "y": list(self.points.y),
                           "cluster": list(self.points.cluster)},
                "clusters": [{"id": c.id, "label": c.label, "count": c.count, "x": c.x, "y": c.y,
                              "terms": list(c.terms)} for c in self.clusters]}

    @classmethod
    def from_document(cls, doc: dict[str, Any]) -> VenueMap:
        points = doc.get("points") or {}
        return cls(conference=doc["conference"], year=int(doc["year"]), papers=int(doc["papers"]),
                   left_out=int(doc.get("left_out") or 0),
                   points=MapPoints(ids=tuple(points.get("ids", ())), titles=tuple(points.get("titles", ())),
                                    x=tuple(points.get("x", ())), y=tuple(points.get("y", ())),
                                    cluster=tuple(points.get("cluster", ()))),
                   clusters=tuple(MapCluster(id=c["id"], label=c["label"], count=c["count"], x=c["x"], y=c["y"],
                                             terms=tuple(c.get("terms", ()))) for c in doc.get("clusters", ())),
                   method=doc.get("method", ""), cpu_seconds=float(doc.get("cpu_seconds") or 0.0),
                   computed_at=doc.get("computed_at", ""), digest=doc.get("digest", ""))


def map_id(conference: str, year: int) -> str:
    return f"{conference}-{year}"
