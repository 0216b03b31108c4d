"""A stored map (services/search/records/venue_maps.py): the document the indexer writes is the map the web reads."""

from services.search.records.venue_maps import MapCluster, MapPoints, VenueMap, map_id


def test_a_map_survives_its_document():
    stored = VenueMap("iclr", 2026, 3, 1, MapPoints(("a", "b", "c"), ("A", "B", "C"), (0.0, 0.5, 1.0), (0.2, 0.0, 0.4),
                                                    (0, 0, 1)),
                      (MapCluster(0, "graph · pooling", 2, 0.25, 0.1, ("graph", "pooling")),
                       MapCluster(1, "diffusion", 1, 1.0, 0.4, ("diffusion",))),
                      method="t-SNE", cpu_seconds=1.5, computed_at="2026-12-05T00:00:00+00:00", digest="abc")
    assert VenueMap.from_document(stored.to_document()) == stored
    assert map_id("iclr", 2026) == "iclr-2026"
