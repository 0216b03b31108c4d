"""Topical quality of keyword searches: precision@10 against the papers' own curated keywords.

Known-item signals (names, title starts, a prominence prior, the last word as a prefix)
must not cost topical searches their precision. This takes multi-word author keywords
that many papers carry ("graph neural networks", "federated learning"), searches each as
a person would type it (plain words, no quotes) and judges every top-10 hit that has
curated keywords of its own: relevant when they include the query's keyword. Run it
before and after a ranking change on the same index.

    python -m bench.relevance.topical [--index papers] [--n 100] [--seed 7] [--mode lexical --mode hybrid]
"""

from __future__ import annotations

import argparse
import random

from bench.harness import ranking_app, save
from services.search.records.model import title_key

TOP = 10
MIN_PAPERS = 30


def keyword_queries(es, index: str, n: int, seed: int) -> list[str]:
    """``n`` seeded picks among the 2-4 word keywords that at least MIN_PAPERS papers carry."""
    resp = es.search(index=index, size=0, aggs={"kw": {"terms": {"field": "keywords.raw", "size": 3000,
                                                                 "min_doc_count": MIN_PAPERS}}})
    phrases = sorted(b["key"] for b in resp["aggregations"]["kw"]["buckets"]
                     if 2 <= len(b["key"].split()) <= 4 and b["key"].replace(" ", "").replace("-", "").isalnum())
    random.Random(seed).shuffle(phrases)
    return phrases[:n]


def _singular(key: str) -> str:
    return " ".join(w[:-1] if w.endswith("s") and len(w) > 3 else w for w in key.split())


def relevant(query: str, keywords: list[str]) -> bool:
    want = _singular(title_key(query))
    return any(want == _singular(title_key(k)) for k in keywords)


def measure(client, es, index: str, queries: list[str], mode: str) -> dict:
    """precision@10 over the queries, the share of hits judged, and each query's precision (to compare runs)."""
    precisions, judged_share = [], []
    for query in queries:
        resp = client.get("/api/v1/search", query_string={"q": query, "page_size": TOP, "mode": mode, "facets": ""})
        ids = [h["id"] for h in resp.get_json()["hits"]] if resp.status_code == 200 else []
        if not ids:
            precisions.append(0.0)
            judged_share.append(0.0)
            continue
        docs = es.mget(index=index, ids=ids, source_includes=["keywords"])["docs"]
        judged = [d["_source"]["keywords"] for d in docs if d.get("found") and d["_source"].get("keywords")]
        judged_share.append(len(judged) / len(ids))
        precisions.append(sum(relevant(query, kws) for kws in judged) / len(judged) if judged else 0.0)
    return {"queries": len(queries), "precision@10": round(sum(precisions) / len(precisions), 3),
            "judged_share": round(sum(judged_share) / len(judged_share), 3),
            "per_query": {q: round(p, 3) for q, p in zip(queries, precisions)}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--index", default=None)
    parser.add_argument("--n", type=int, default=100)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--mode", action="append")
    args = parser.parse_args()
    settings, client, es = ranking_app(args.index)
    queries = keyword_queries(es, settings.index, args.n, args.seed)
    result = {"index": settings.index, "seed": args.seed, "examples": queries[:10], "modes": {}}
    for mode in args.mode or ["lexical"]:
        result["modes"][mode] = measure(client, es, settings.index, queries, mode)
        row = result["modes"][mode]
        print(f"{mode:<8} {row['queries']} keyword queries: precision@10 {row['precision@10']:.3f} "
              f"(judged share of hits {row['judged_share']:.2f})")
    print(save("topical", result))


if __name__ == "__main__":
    main()
