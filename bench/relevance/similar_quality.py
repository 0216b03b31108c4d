""""Papers like this" and "like my text": semantic, lexical, hybrid and fused neighbours, and what they cost.

Populations (seeded draws, split by a hash of the paper id into a dev half, on which the
fusion weights are chosen, and a held-out test half, on which they are reported):

* same primary area: papers of each conference in ``--conference`` whose curated
  ``primary_area`` is known and which have an abstract (ICLR 2024 on; no NeurIPS record of
  the corpus has a ``primary_area`` at all, reported as 0 papers); their 10 nearest papers
  drawn from the same population, the share in the same area;
* keyword overlap: the same papers when they have author keywords; the share of their
  10 neighbours sharing at least one keyword (neighbours drawn from that population);
* half its abstract: ``--half`` papers of each split, visible by default (not rejected);
  the first half of the abstract's words as "papers like my text" over the whole index,
  found in the top 3.

Methods: ``semantic`` (kNN on the stored vector / the text's embedding), ``lexical``
(more_like_this on the paper / the text), ``hybrid`` (both in one request, scores
summed, kNN boosted ×KNN_BOOST, as ``mode=hybrid``) and ``fused`` (the shipped
:data:`services.search.query.fusion.SIMILAR`). Every fusion of :data:`CANDIDATES` (weighted RRF,
raw sums, min-max and z-score rescaled sums) is scored on both splits; ``chosen_on_dev``
names the best on dev (same area, among those keeping the half-abstract top 3 ≥ 95%) and
gives its held-out figures. The lists come from the service's own reads
(:class:`fusion_lists.FusionLists`' ``similar_candidates`` and ``like_text_candidates``: what
``similar`` and ``like_text`` fuse, with their scores); fusion of those lists is :func:`services.search.query.fusion.fuse` itself.

The test split is the trainer's held-out half (:func:`services.indexer.training.embeddings.held_out`):
a model with an area metric learned the dev half's curated areas, so its dev figures (and the
fusion chosen on them, which then leans to the semantic list) flatter it; the test figures do not.

Cost: a title's ``mode=semantic`` search (embedding + kNN) against ``mode=lexical`` p50,
the same texts in one run; embedding a 5,000-character text.

    PAPERLIST_EMBEDDING_MODEL=model.npz python -m bench.relevance.similar_quality --index w21-full
"""

from __future__ import annotations

import argparse
import os
import random
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from bench.harness import BenchWorker, bench_settings, drop, ensure_stores, percentiles, save
from bench.relevance.fusion_lists import FusionLists
from services.indexer.training.embeddings import held_out
from services.search.query.fusion import DEPTH, LIKE_TEXT, SIMILAR, Weights, fuse
from services.search.query.request import SearchRequest
from services.search.query.semantic import KNN_BOOST
from services.search.records.embedding import embedder
from services.web import extensions
from services.web.app import create_app

NEIGHBOURS = 10
TOP = 3
CANDIDATES = (
    [Weights(1.0, w, "rrf") for w in (0.2, 0.6, 1.0, 1.5)]
    + [Weights(b, 1.0, "sum") for b in (5.0, 10.0, 20.0, 40.0, 80.0)]
    + [Weights(1.0, w, m) for m in ("minmax", "zscore") for w in (0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.5, 2.5)]
)
"""Fusions tried on the dev split: weighted RRF (the previous design), raw scores summed with the
kNN boosted (mode=hybrid's arithmetic), min-max and z-score rescaled scores (semantic 1.0)."""


def label(weights: Weights) -> str:
    return f"{weights.method}:{weights.semantic:g}/{weights.lexical:g}"


METHODS = ("semantic", "lexical", "hybrid", "fused")


def known_area(conference: str) -> dict:
    """Papers of one conference whose curated primary area is known (one vocabulary of areas:
    other sources put track names in that field), with an abstract and a vector: a paper
    without an abstract gets more_like_this alone from every method, which would only blur
    the comparison (many ICLR 2025 records have none)."""
    return {"bool": {"filter": [{"exists": {"field": "primary_area"}}, {"term": {"conference": conference}},
                                {"exists": {"field": "embedding"}}, {"exists": {"field": "abstract"}}],
                     "must_not": [{"term": {"primary_area": ""}}]}}


def split_of(paper_id: str) -> str:
    """The trainer's held-out half is the test split: an area metric never read its labels."""
    return "test" if held_out(paper_id) else "dev"


def ingest(settings, source: str) -> dict:
    import redis

    from services.indexer.celery_app import create_celery
    from services.indexer.ingest.dispatch import Ingest
    from services.search.engine.client import make_client

    es = make_client(settings, request_timeout=120)
    with BenchWorker(settings, concurrency=1):
        started = time.perf_counter()
        summary = Ingest(settings, create_celery(settings), es, redis.Redis.from_url(settings.redis_url),
                         alias=settings.index, rejects_dir=Path("/tmp/paperlist-semq-rejects")).execute([source])
        seconds = time.perf_counter() - started
    es.indices.refresh(index=settings.index)
    return {"seconds": round(seconds, 1), "indexed": summary.indexed, "rejected": summary.rejected}


def sample(es, index: str, query: dict, n: int, seed: int, fields: list[str]) -> list[dict]:
    resp = es.search(index=index, size=n, _source=fields, query={"function_score": {
        "query": query, "random_score": {"seed": seed, "field": "_seq_no"}, "boost_mode": "replace"}})
    return [h["_source"] | {"paper_id": h["_id"]} for h in resp["hits"]["hits"]]


def hybrid_similar(service, paper_id: str, vector: list[float], size: int, within: list[dict]) -> list[str]:
    from services.search.query.semantic import knn_clause

    knn = knn_clause(SearchRequest(page_size=size), vector, k=size,
                     extra_filters=[{"bool": {"must_not": [{"ids": {"values": [paper_id]}}]}}, *within])
    resp = service.es.search(index=service.alias, size=size, _source=False, knn={**knn, "boost": KNN_BOOST},
                             query={"bool": {"must": [_mlt([{"_index": service.alias, "_id": paper_id}])],
                                             "filter": within, "must_not": [{"ids": {"values": [paper_id]}}]}})
    return [h["_id"] for h in resp["hits"]["hits"]]


def _mlt(like) -> dict:
    return {"more_like_this": {"fields": ["title", "abstract", "keywords"], "like": like, "min_term_freq": 1,
                               "min_doc_freq": 2, "max_query_terms": 30, "minimum_should_match": "20%"}}


def neighbour_lists(service, paper: dict, within: list[dict]) -> dict[str, list]:
    """kNN and more_like_this, (id, score) at the fusion's depth as the service fuses them, and
    the hybrid top 10, for one paper."""
    pid = paper["paper_id"]
    semantic, lexical = service.similar_candidates(pid, DEPTH, within)
    return {"semantic": semantic, "lexical": lexical,
            "hybrid": [(h, 0.0) for h in hybrid_similar(service, pid, paper["embedding"], NEIGHBOURS, within)]}


def fused(lists: dict[str, list], weights: Weights, size: int) -> list[str]:
    if not lists["semantic"] or not lists["lexical"]:
        return [pid for pid, _ in (lists["semantic"] or lists["lexical"])][:size]
    return [pid for pid, _ in fuse([(weights.semantic, lists["semantic"]), (weights.lexical, lists["lexical"])],
                                   weights.method)][:size]


def ranked(lists: dict[str, list], method: str, weights: Weights, size: int) -> list[str]:
    return fused(lists, weights, size) if method == "fused" else [pid for pid, _ in lists[method][:size]]


def share(rows: list[tuple[dict, dict]], method: str, weights: Weights, same) -> dict:
    """Mean share of the top 10 that ``same`` accepts, over the papers the service fuses (both
    lists non-empty: a paper with an empty abstract gets more_like_this alone from every method)."""
    values = []
    for paper, lists in rows:
        if not (lists["semantic"] and lists["lexical"]):
            continue
        found = ranked(lists, method, weights, NEIGHBOURS)
        if found:
            values.append(sum(bool(same(paper, other)) for other in found) / len(found))
    return {"papers": len(values), "pct": round(100 * sum(values) / max(len(values), 1), 2)}


def half_text(abstract: str) -> str:
    words = abstract.split()
    return " ".join(words[: max(1, len(words) // 2)])


def half_lists(service, paper: dict) -> dict[str, list]:
    text = half_text(paper["abstract"])
    semantic, lexical = service.like_text_candidates(SearchRequest(page_size=DEPTH), text)
    vector = embedder().embed_one(text).tolist()
    from services.search.query.semantic import knn_clause

    knn = knn_clause(SearchRequest(page_size=TOP), vector, k=TOP)
    resp = service.es.search(index=service.alias, size=TOP, _source=False, knn={**knn, "boost": KNN_BOOST},
                             query={"bool": {"must": [_mlt(text)], "filter": knn["filter"]}})
    return {"semantic": semantic, "lexical": lexical, "hybrid": [(h["_id"], 0.0) for h in resp["hits"]["hits"]]}


def found_share(rows: list[tuple[dict, dict]], method: str, weights: Weights) -> dict:
    hits = [paper["paper_id"] in ranked(lists, method, weights, TOP) for paper, lists in rows]
    return {"papers": len(hits), "top3_pct": round(100 * sum(hits) / max(len(hits), 1), 2)}


def latency(service, titles: list[str]) -> dict:
    """p50/p99 of the same titles as mode=semantic and mode=lexical searches, interleaved."""
    samples = {"semantic": [], "lexical": []}
    for title in titles:
        for mode in ("lexical", "semantic"):
            started = time.perf_counter()
            service.search(SearchRequest(q=title[:400], mode=mode))
            samples[mode].append((time.perf_counter() - started) * 1000)
    out = {mode: {k: round(v, 1) for k, v in percentiles(s).items()} for mode, s in samples.items()}
    out["ratio_p50"] = round(out["semantic"]["p50"] / max(out["lexical"]["p50"], 1e-9), 2)
    return out


def embed_times(texts: list[str]) -> dict:
    model = embedder()
    model.embed_one("warm up")
    samples = []
    for text in texts:
        started = time.perf_counter()
        model.embed_one(text)
        samples.append((time.perf_counter() - started) * 1000)
    return {k: round(v, 3) for k, v in percentiles(samples).items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--index", default="semq")
    parser.add_argument("--conference", action="append", help="conferences with curated areas (default iclr, nips)")
    parser.add_argument("--ingest", help="source directory to ingest into --index first")
    parser.add_argument("--n", type=int, default=600, help="papers drawn per conference for neighbours")
    parser.add_argument("--half", type=int, default=200, help="papers per split for the half-abstract test")
    parser.add_argument("--queries", type=int, default=200, help="titles timed for semantic vs lexical search")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--workers", type=int, default=4, help="papers whose neighbours are fetched at once")
    parser.add_argument("--drop", action="store_true", help="delete the alias's indices at the end")
    args = parser.parse_args()
    conferences = args.conference or ["iclr", "nips"]

    # A loaded machine must not turn slow answers into failures: a generous search budget.
    own = {k: os.environ[k] for k in ("REDIS_URL", "PAPERLIST_QUEUE") if k in os.environ}  # a helper's own Redis db
    settings = bench_settings(PAPERLIST_INDEX=args.index, PAPERLIST_SEARCH_BUDGET="30", **own)
    ensure_stores(settings)
    result: dict = {"index": args.index, "model": embedder().version, "seed": args.seed, "n": args.n,
                    "load_average": os.getloadavg()}
    if args.ingest:
        result["ingest"] = ingest(settings, args.ingest)
    app = create_app(settings)
    service = FusionLists.over(extensions.reads(app).service)  # the PaperSearch behind the cache, its lists apart
    es = service.es
    started = time.perf_counter()
    try:
        area_rows: dict[str, list] = {"dev": [], "test": []}
        keyword_rows: dict[str, list] = {"dev": [], "test": []}
        result["papers_with_area"] = {}
        for conference in conferences:
            pool = known_area(conference)
            result["papers_with_area"][conference] = es.count(index=args.index, query=pool)["count"]
            if not result["papers_with_area"][conference]:
                continue
            from elasticsearch import helpers

            meta = {h["_id"]: (h["_source"].get("primary_area"), {k.lower() for k in h["_source"].get("keywords") or []})
                    for h in helpers.scan(es, index=args.index, query={"query": pool,
                                                                        "_source": ["primary_area", "keywords"]},
                                          size=2000)}
            # drawn among those with words in their abstract (an empty one is stored as "" and exists)
            with_words = {"bool": {"filter": [pool, {"wildcard": {"abstract": {"value": "*"}}}]}}
            drawn = sample(es, args.index, with_words, args.n, args.seed, ["primary_area", "keywords", "embedding"])
            # the lists of different papers are independent requests: a few in flight keep both
            # the node's cores busy (results in the draw's order, so a run is reproducible)
            with ThreadPoolExecutor(max_workers=args.workers) as pool_of_requests:
                all_lists = list(pool_of_requests.map(lambda p: neighbour_lists(service, p, [pool]), drawn))
            for paper, lists in zip(drawn, all_lists):
                paper["area"], paper["kw"] = meta[paper["paper_id"]]
                row = (paper, lists)
                area_rows[split_of(paper["paper_id"])].append(row)
                if paper["kw"]:
                    keyword_rows[split_of(paper["paper_id"])].append(row)
            result.setdefault("areas_chance_note", "neighbours drawn within each conference's labelled papers")

            def same_area(paper, other, meta=meta):
                return meta.get(other, (None,))[0] == paper["area"]

            def shares_keyword(paper, other, meta=meta):
                return bool(paper["kw"] & meta.get(other, (None, set()))[1])

            for split in ("dev", "test"):
                rows = [r for r in area_rows[split] if r[0]["paper_id"] in meta]
                krows = [r for r in keyword_rows[split] if r[0]["paper_id"] in meta]
                block = result.setdefault("same_area", {}).setdefault(conference, {}).setdefault(split, {})
                kblock = result.setdefault("keyword_overlap", {}).setdefault(conference, {}).setdefault(split, {})
                for method in METHODS:
                    block[method] = share(rows, method, SIMILAR, same_area)
                    kblock[method] = share(krows, method, SIMILAR, shares_keyword)
                block["fusions"] = {label(w): share(rows, "fused", w, same_area)["pct"] for w in CANDIDATES}
                kblock["fusions"] = {label(w): share(krows, "fused", w, shares_keyword)["pct"] for w in CANDIDATES}
        result["neighbours_s"] = round(time.perf_counter() - started, 1)

        visible = {"bool": {"filter": [{"terms": {"conference": conferences}},
                                       {"exists": {"field": "embedding"}}, {"exists": {"field": "abstract"}},
                                       *extensions_default_filters()]}}
        drawn = sample(es, args.index, visible, 8 * args.half, args.seed + 1, ["abstract"])
        halves: dict[str, list] = {"dev": [], "test": []}
        for paper in drawn:
            split = split_of(paper["paper_id"])
            if len(paper.get("abstract", "").split()) >= 20 and len(halves[split]) < args.half:
                halves[split].append((paper, None))
        with ThreadPoolExecutor(max_workers=args.workers) as pool_of_requests:
            for rows in halves.values():
                rows[:] = zip([p for p, _ in rows], pool_of_requests.map(lambda p: half_lists(service, p),
                                                                         [p for p, _ in rows]))
        result["half_abstract"] = {}
        for split, rows in halves.items():
            block = result["half_abstract"][split] = {m: found_share(rows, m, LIKE_TEXT) for m in METHODS}
            block["fusions"] = {label(w): found_share(rows, "fused", w)["top3_pct"] for w in CANDIDATES}
        result["chosen_on_dev"] = choose(result)
        # The shipped path end to end: like_text() itself on the held-out halves.
        test_rows = halves["test"]
        found = [p["paper_id"] in [h.paper.paper_id for h in service.like_text(
            SearchRequest(page_size=TOP), half_text(p["abstract"])).hits] for p, _ in test_rows]
        result["half_abstract"]["test"]["like_text_service_top3_pct"] = round(100 * sum(found) / max(len(found), 1), 2)
        titles = [h["_source"]["title"] for h in es.search(index=args.index, size=args.queries, _source=["title"],
                  query={"function_score": {"query": visible, "random_score": {"seed": args.seed + 2, "field": "_seq_no"},
                                            "boost_mode": "replace"}})["hits"]["hits"]]
        result["search_ms"] = latency(service, titles)
        rng = random.Random(args.seed)
        abstracts = [p["abstract"] for p, _ in test_rows]
        texts = [" ".join(rng.sample(abstracts, min(len(abstracts), 8)))[:5000] for _ in range(args.queries)]
        result["embed_5000_chars_ms"] = embed_times(texts)
    finally:
        if args.drop:
            drop(es, args.index)
    result["load_average_end"] = os.getloadavg()
    result["shipped"] = {"similar": label(SIMILAR), "like_text": label(LIKE_TEXT)}
    path = save("similar-quality", result)
    print(path)
    import json

    print(json.dumps(result, indent=1))


def choose(result: dict) -> dict:
    """The fusion with the best dev same-area share (mean over conferences) among those whose dev
    half-abstract top 3 is at least 95%, and its held-out figures."""
    areas = result.get("same_area", {})
    if not areas:
        return {}
    fine = {k for k, v in result["half_abstract"]["dev"]["fusions"].items() if v >= 95} or None

    def dev_score(key: str) -> float:
        return sum(block["dev"]["fusions"][key] for block in areas.values()) / len(areas)

    keys = [label(w) for w in CANDIDATES if fine is None or label(w) in fine]
    best = max(keys, key=dev_score)
    return {"fusion": best, "dev_same_area": round(dev_score(best), 2),
            "test_same_area": {c: block["test"]["fusions"][best] for c, block in areas.items()},
            "test_same_area_mlt": {c: block["test"]["lexical"]["pct"] for c, block in areas.items()},
            "test_keyword_overlap": {c: block["test"]["fusions"][best]
                                     for c, block in result.get("keyword_overlap", {}).items()},
            "test_half_abstract_top3": result["half_abstract"]["test"]["fusions"][best]}


def extensions_default_filters() -> list[dict]:
    """The filters every search applies by default (rejected papers hidden): the half-abstract
    papers must be findable by an ordinary "like my text" search."""
    from services.search.query.facets import FACETS

    return FACETS.default_filters()


if __name__ == "__main__":
    main()
