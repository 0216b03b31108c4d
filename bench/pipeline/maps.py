"""Venue-year maps (issue 32): what building them costs, whether their clusters hold together, where to keep them.

``build``: every venue-year's map of an alias (or those of ``--venue``) through the Celery workers
(``paperlist.build_map``, the largest first, ``force``: laid out even when unchanged), timed from the first send to the last
answer, with each map's CPU seconds (one core each) and the load average. The workers must
write somewhere of your choosing when the alias is not yours: start them with
``PAPERLIST_INDEX=<alias> PAPERLIST_MAPS_INDEX=<your index>`` (and a Redis database and queue of
your own), and pass the same ``--maps-index`` here.

``coherence``: for each stored map, how often two papers of one cluster share a curated primary
area (ICLR and ICML 2026 have ``primary_area``) or a keyword, against two papers drawn at random
from the same venue-year. The area figure is exact (pairs counted); the keyword figure samples
``--pairs`` pairs of each kind. The embedding model's area metric is fitted on ICLR's dev half
(``held_out``), so ICLR's area figure is also given on the held-out half alone.

``storage``: reading the largest map whole, from its Elasticsearch document against the same
bytes in Redis (median and worst of ``--reads``).

``projections``: ICML 2026's vectors through each projection the maps could use (those installed
of openTSNE, UMAP, PaCMAP, and PCA), one core each: CPU seconds, the share of each paper's 10 nearest
neighbours in 256-d kept among its 10 nearest on the map, and how often those 2-D neighbours share
its primary area.

    python -m bench.pipeline.maps build --alias full --maps-index full-maps-test-me
    python -m bench.pipeline.maps build --alias full --maps-index full-maps-test-me --venue icml:2026
    python -m bench.pipeline.maps coherence --alias full --maps-index full-maps-test-me
    python -m bench.pipeline.maps storage --maps-index full-maps-test-me
    python -m bench.pipeline.maps projections --alias full --venue icml:2026
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections import Counter, defaultdict

import numpy as np
from elasticsearch import helpers

from bench.harness import save
from services.indexer.celery_app import create_celery, redis_client
from services.indexer.cleaning.keywords import keyword_key
from services.indexer.maps.build import listed_venue_years, planned
from services.indexer.training.embeddings import held_out
from services.search.engine import map_store
from services.search.engine.client import make_client
from services.search.query.facets import FACETS
from services.search.records import venue_maps
from services.settings import load_settings

AREA_VENUES = ("iclr", "icml")


def build(args, settings) -> dict:
    es = make_client(settings, request_timeout=120)
    celery = create_celery(settings)
    wanted = [_venue_year(v) for v in args.venue] or None
    chosen = planned(es, args.alias, args.maps_index, settings.map_min_papers, wanted)
    load_before = os.getloadavg()
    started = time.perf_counter()
    pending = [celery.send_task("paperlist.build_map", args=[args.alias, c, y, True], queue=settings.queue)
               for c, y in chosen]
    results = [r.get(timeout=3600) for r in pending]
    wall = time.perf_counter() - started
    built = [r for r in results if r["outcome"] == "built"]
    largest = max(built, key=lambda r: r["papers"]) if built else None
    return {"venue_years": len(chosen), "built": len(built), "papers": sum(r["papers"] for r in built),
            "wall_s": round(wall, 1), "cpu_s": round(sum(r["cpu_seconds"] for r in built), 1),
            "largest": largest, "load_before": load_before, "load_after": os.getloadavg(),
            "maps": results}


def coherence(args, settings) -> dict:
    es = make_client(settings, request_timeout=120)
    rng = np.random.default_rng(args.seed)
    rows = []
    for conference, year in sorted(map_store.stored(es, args.maps_index)):
        stored = map_store.load(es, args.maps_index, conference, year)
        cluster = dict(zip(stored.points.ids, stored.points.cluster))
        papers = _labels(es, args.alias, conference, year)
        areas = {i: a for i, (a, _) in papers.items() if a and i in cluster}
        keywords = {i: k for i, (_, k) in papers.items() if k and i in cluster}
        row = {"venue": f"{conference} {year}", "papers": stored.papers, "clusters": len(stored.clusters)}
        if conference in AREA_VENUES and len(areas) >= 100:
            row["area"] = _exact_pairs(areas, cluster)
            if conference == "iclr":
                row["area_held_out"] = _exact_pairs({i: a for i, a in areas.items() if held_out(i)}, cluster)
        if len(keywords) >= 0.5 * stored.papers:
            row["keyword"] = _sampled_pairs(keywords, cluster, rng, args.pairs)
        if len(row) > 3:
            rows.append(row)
            print(json.dumps(row), flush=True)
    return {"venue_years": rows,
            "area_ratio_median": _median(r["area"]["ratio"] for r in rows if "area" in r),
            "keyword_ratio_median": _median(r["keyword"]["ratio"] for r in rows if "keyword" in r)}


def _median(values) -> float | None:
    found = [v for v in values if v is not None]
    return statistics.median(found) if found else None


def _labels(es, alias: str, conference: str, year: int) -> dict[str, tuple[str, set[str]]]:
    query = {"bool": {"filter": [{"term": {"conference": conference}}, {"term": {"year": year}},
                                 *FACETS.default_filters()]}}
    out = {}
    for hit in helpers.scan(es, index=alias, query={"query": query, "_source": ["primary_area", "keywords"]}):
        src = hit["_source"]
        area = (src.get("primary_area") or "").strip().lower()
        out[hit["_id"]] = (area, {keyword_key(k) for k in src.get("keywords") or () if keyword_key(k)})
    return out


def _exact_pairs(labels: dict[str, str], cluster: dict[str, int]) -> dict:
    """Share of pairs with the same label: within clusters, and over all pairs (random pairs of the venue-year)."""
    def same_share(groups) -> float:
        pairs = same = 0
        for members in groups:
            n = len(members)
            pairs += n * (n - 1) // 2
            same += sum(k * (k - 1) // 2 for k in Counter(members).values())
        return same / pairs if pairs else 0.0

    by_cluster = defaultdict(list)
    for paper, label in labels.items():
        by_cluster[cluster[paper]].append(label)
    inside, everywhere = same_share(by_cluster.values()), same_share([list(labels.values())])
    return {"papers": len(labels), "in_cluster": round(inside, 4), "random": round(everywhere, 4),
            "ratio": round(inside / everywhere, 2) if everywhere else None}


def _sampled_pairs(keywords: dict[str, set[str]], cluster: dict[str, int], rng, pairs: int) -> dict:
    ids = list(keywords)
    by_cluster = defaultdict(list)
    for paper in ids:
        by_cluster[cluster[paper]].append(paper)
    groups = [g for g in by_cluster.values() if len(g) > 1]
    weights = np.array([len(g) * (len(g) - 1) for g in groups], dtype=float)
    picks = rng.choice(len(groups), size=pairs, p=weights / weights.sum())
    inside = 0
    for g in picks:
        a, b = rng.choice(len(groups[g]), size=2, replace=False)
        inside += bool(keywords[groups[g][a]] & keywords[groups[g][b]])
    anywhere = 0
    for _ in range(pairs):
        a, b = rng.choice(len(ids), size=2, replace=False)
        anywhere += bool(keywords[ids[a]] & keywords[ids[b]])
    return {"papers": len(ids), "pairs": pairs, "in_cluster": round(inside / pairs, 4),
            "random": round(anywhere / pairs, 4), "ratio": round(inside / anywhere, 2) if anywhere else None}


def storage(args, settings) -> dict:
    es = make_client(settings, request_timeout=120)
    client = redis_client(settings)
    sizes = listed_venue_years(es, args.alias)
    conference, year = max(map_store.stored(es, args.maps_index), key=lambda key: sizes.get(key, 0))
    doc = es.get(index=args.maps_index, id=venue_maps.map_id(conference, year))["_source"]
    raw = json.dumps(doc).encode()
    key = "paperlist:bench:maps-storage"  # the bench's own scratch key, deleted at the end
    client.set(key, raw, ex=600)

    def timed(read) -> dict:
        samples = []
        for _ in range(args.reads):
            started = time.perf_counter()
            read()
            samples.append((time.perf_counter() - started) * 1000)
        return {"median_ms": round(statistics.median(samples), 2), "max_ms": round(max(samples), 2)}

    try:
        return {"venue": f"{conference} {year}", "bytes": len(raw), "load": os.getloadavg(),
                "elasticsearch": timed(lambda: map_store.load(es, args.maps_index, conference, year)),
                "redis": timed(lambda: venue_maps.VenueMap.from_document(json.loads(client.get(key))))}
    finally:
        client.delete(key)


def projections(args, settings) -> dict:
    from sklearn.neighbors import NearestNeighbors
    from threadpoolctl import threadpool_limits

    from services.indexer.maps import layout as map_layout

    es = make_client(settings, request_timeout=120)
    conference, year = _venue_year(args.venue)
    query = {"bool": {"filter": [{"term": {"conference": conference}}, {"term": {"year": year}},
                                 {"exists": {"field": "embedding"}}, *FACETS.default_filters()]}}
    hits = list(helpers.scan(es, index=args.alias, query={"query": query, "_source": ["embedding", "primary_area"]}))
    vectors = np.array([h["_source"]["embedding"] for h in hits], dtype=np.float32)
    areas = np.array([(h["_source"].get("primary_area") or "") for h in hits])
    high = NearestNeighbors(n_neighbors=11).fit(vectors).kneighbors(vectors, return_distance=False)[:, 1:]

    def methods():
        yield "pca", lambda v: v @ np.linalg.svd(v - v.mean(0), full_matrices=False)[2][:2].T
        yield "openTSNE (as the maps)", map_layout.project
        try:
            import umap
            yield "umap", lambda v: umap.UMAP(random_state=0, n_jobs=1, metric="cosine").fit_transform(v)
        except ImportError:
            pass
        try:
            import pacmap
            yield "pacmap", lambda v: pacmap.PaCMAP(n_components=2, random_state=0).fit_transform(v)
        except ImportError:
            pass

    rows = []
    for name, run in methods():
        with threadpool_limits(limits=1):
            started = time.process_time()
            coords = np.asarray(run(vectors), dtype=np.float64)
            cpu = time.process_time() - started
        low = NearestNeighbors(n_neighbors=11).fit(coords).kneighbors(coords, return_distance=False)[:, 1:]
        kept = float(np.mean([len(set(a) & set(b)) / 10 for a, b in zip(high, low)]))
        labelled = areas != ""
        same = float(np.mean([areas[i] == areas[j] for i in np.where(labelled)[0] for j in low[i] if labelled[j]]))
        rows.append({"method": name, "cpu_s": round(cpu, 1), "neighbours_kept": round(kept, 3),
                     "neighbours_same_area": round(same, 3)})
        print(json.dumps(rows[-1]), flush=True)
    return {"venue": args.venue, "papers": len(vectors), "rows": rows}


def _venue_year(text: str) -> tuple[str, int]:
    conference, _, year = text.partition(":")
    return conference, int(year)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    for name in ("build", "coherence", "storage", "projections"):
        p = sub.add_parser(name)
        p.add_argument("--alias", default=None, help="the papers' alias (default: PAPERLIST_INDEX)")
        p.add_argument("--maps-index", default=None, help="where the maps are (default: <alias>-maps)")
    sub.choices["coherence"].add_argument("--pairs", type=int, default=20_000)
    sub.choices["coherence"].add_argument("--seed", type=int, default=0)
    sub.choices["storage"].add_argument("--reads", type=int, default=30)
    sub.choices["build"].add_argument("--venue", action="append", default=[],
                                      help="conference:year to build (repeatable; default: every one with a map due)")
    sub.choices["projections"].add_argument("--venue", default="icml:2026")
    args = parser.parse_args(argv)
    settings = load_settings()  # the workers' REDIS_URL and PAPERLIST_QUEUE: set them as the workers have them
    args.alias = args.alias or settings.index
    args.maps_index = args.maps_index or f"{args.alias}-maps"
    payload = {"build": build, "coherence": coherence, "storage": storage, "projections": projections}[args.what](
        args, settings)
    path = save(f"maps-{args.what}", {"alias": args.alias, "maps_index": args.maps_index, **payload})
    summary = {k: v for k, v in payload.items() if k not in ("maps", "venue_years", "rows")}
    print(json.dumps(summary, indent=2))
    print(f"saved {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
