""""Papers like this": embeddings against more_like_this, and what semantic search costs.

Quality: papers whose curated ``primary_area`` is known (ICLR 2024 on) are sampled
(seeded); for each, its 10 nearest papers by kNN on its stored vector and by
more_like_this, both drawn from the papers with a known primary area, and the share of
those neighbours in the same primary area. Cost: embedding a 5,000-character text
(p50/p99) and ``POST /api/v1/similar`` through the Flask app (p50/p99).

    python bench/similar_quality.py --index semq --ingest /work/shared/data/paperlists/iclr --drop
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

from harness import BenchWorker, bench_settings, drop, ensure_stores, percentiles, save
from services.search.semantic import embedder
from services.web import extensions
from services.web.app import create_app

NEIGHBOURS = 10


def known_area(conference: str) -> dict:
    """Papers of one conference whose curated primary area is known (one vocabulary of areas:
    other sources put track names in that field)."""
    return {"bool": {"filter": [{"exists": {"field": "primary_area"}}, {"term": {"conference": conference}}],
                     "must_not": [{"term": {"primary_area": ""}}]}}


def ingest(settings, source: str) -> dict:
    import redis

    from services.indexer.celery_app import create_celery
    from services.indexer.ingest import Ingest
    from services.search.client import make_client

    es = make_client(settings, request_timeout=120)
    with BenchWorker(settings, concurrency=1):
        started = time.perf_counter()
        summary = Ingest(settings, create_celery(settings), es, redis.Redis.from_url(settings.redis_url),
                         alias=settings.index, rejects_dir=Path("/tmp/paperlist-semq-rejects")).execute([source])
        seconds = time.perf_counter() - started
    es.indices.refresh(index=settings.index)
    return {"seconds": round(seconds, 1), "indexed": summary.indexed, "rejected": summary.rejected}


def quality(service, papers: list[dict], areas: dict[str, str], pool: dict) -> dict:
    """``areas``: paper id -> primary area (result lists carry summary fields only, not the area)."""
    shares = {"semantic": [], "more_like_this": []}
    for paper in papers:
        area = paper["primary_area"]
        for name, found in (("semantic", service.similar(paper["paper_id"], NEIGHBOURS, [pool])),
                            ("more_like_this", service.more_like_this(paper["paper_id"], NEIGHBOURS, [pool]))):
            if found:
                shares[name].append(sum(areas.get(p.paper_id) == area for p in found) / len(found))
    return {name: {"papers": len(values), "same_area_pct": round(100 * sum(values) / max(len(values), 1), 2)}
            for name, values in shares.items()}


def embed_times(texts: list[str]) -> dict:
    model = embedder()
    model.embed_one("warm up")
    samples = []
    for text in texts:
        started = time.perf_counter()
        model.embed_one(text)
        samples.append((time.perf_counter() - started) * 1000)
    return {k: round(v, 3) for k, v in percentiles(samples).items()}


def similar_latency(client, texts: list[str]) -> dict:
    samples = []
    for text in texts:
        started = time.perf_counter()
        resp = client.post("/api/v1/similar", json={"text": text, "page_size": 20})
        samples.append((time.perf_counter() - started) * 1000)
        assert resp.status_code == 200, resp.get_json()
    return {k: round(v, 1) for k, v in percentiles(samples).items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--index", default="semq")
    parser.add_argument("--conference", default="iclr", help="papers sampled and neighbours drawn from it")
    parser.add_argument("--ingest", help="source directory to ingest into --index first (ICLR has primary areas)")
    parser.add_argument("--n", type=int, default=400, help="papers sampled for quality")
    parser.add_argument("--queries", type=int, default=200, help="texts timed for embedding and /api/v1/similar")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--drop", action="store_true", help="delete the alias's indices at the end")
    args = parser.parse_args()

    settings = bench_settings(PAPERLIST_INDEX=args.index)
    ensure_stores(settings)
    result: dict = {"index": args.index}
    if args.ingest:
        result["ingest"] = ingest(settings, args.ingest)
    app = create_app(settings)
    service = extensions.reads(app).service  # the PaperSearch behind the cache (more_like_this is no web read)
    es = service.es
    pool = known_area(args.conference)
    try:
        sample = es.search(index=args.index, size=args.n, _source=["paper_id", "primary_area", "abstract"],
                           query={"function_score": {"query": {"bool": {"filter": [
                               pool, {"exists": {"field": "embedding"}}]}},
                               "random_score": {"seed": args.seed, "field": "_seq_no"}, "boost_mode": "replace"}})
        papers = [h["_source"] for h in sample["hits"]["hits"] if h["_source"].get("abstract")]
        result["papers_with_area"] = es.count(index=args.index, query=pool)["count"]
        from elasticsearch import helpers

        areas = {h["_id"]: h["_source"]["primary_area"] for h in helpers.scan(
            es, index=args.index, query={"query": pool, "_source": ["primary_area"]}, size=2000)}
        result["quality"] = quality(service, papers, areas, pool)
        rng = random.Random(args.seed)
        abstracts = [p["abstract"] for p in papers]
        texts = [" ".join(rng.sample(abstracts, min(len(abstracts), 8)))[:5000] for _ in range(args.queries)]
        result["embed_5000_chars_ms"] = embed_times(texts)
        result["similar_api_ms"] = similar_latency(app.test_client(), abstracts[: args.queries])
    finally:
        if args.drop:
            drop(es, args.index)
    path = save("similar-quality", result)
    q = result["quality"]
    print(f"same primary area among top {NEIGHBOURS}: semantic {q['semantic']['same_area_pct']}% "
          f"vs more_like_this {q['more_like_this']['same_area_pct']}% ({q['semantic']['papers']} papers); "
          f"embed 5,000 chars p50 {result['embed_5000_chars_ms']['p50']} ms p99 {result['embed_5000_chars_ms']['p99']} ms; "
          f"POST /api/v1/similar p50 {result['similar_api_ms']['p50']} ms  ({path})")


if __name__ == "__main__":
    main()
