"""Which dense_vector index type: ingest time, kNN p50 and recall@10 against exact search, in one run.

The vectors of an existing index (``--source``, e.g. a full-corpus ingest) are copied into
one fresh index per candidate type (``int8_hnsw`` today, ``int8_flat``, ``bbq_hnsw``,
``bbq_flat`` when the node accepts them), each holding only the vector, bulk-written the
same way (bulk time to a refreshed index, no force-merge: as an ingest leaves it); then ``--queries`` paper vectors (seeded draw) are searched with kNN (k=10,
the service's num_candidates) in each, against an exact numpy cosine over the same vectors
(the truth for recall@10; the core node has no painless for ``script_score``).

    python -m bench.pipeline.vector_index --source w21-full --queries 200
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time

import numpy as np
from elasticsearch import helpers

from bench.harness import bench_settings, percentiles, save
from services.search.engine.client import make_client
from services.search.limits import SEMANTIC_CANDIDATES
from services.search.records.embedding import DIMS

TYPES = ("int8_hnsw", "int8_flat", "bbq_hnsw", "bbq_flat", "flat")
OPTIONAL = ("hnsw",)  # float HNSW: the costliest build, only with --type hnsw
K = 10


def load_vectors(es, index: str, limit: int) -> tuple[list[str], np.ndarray]:
    """Ids and vectors (float32: a list of Python floats per paper would take gigabytes)."""
    ids, rows = [], []
    for hit in helpers.scan(es, index=index, query={"query": {"exists": {"field": "embedding"}},
                                                    "_source": ["embedding"]}, size=2000):
        ids.append(hit["_id"])
        rows.append(np.asarray(hit["_source"]["embedding"], np.float32))
        if len(ids) >= limit:
            break
    return ids, np.stack(rows)


def build(es, name: str, kind: str, vectors) -> dict:
    if es.indices.exists(index=name):
        es.indices.delete(index=name)
    try:
        es.indices.create(index=name, settings={"number_of_shards": 1, "number_of_replicas": 0,
                                                "refresh_interval": "-1"},
                          mappings={"properties": {"embedding": {"type": "dense_vector", "dims": DIMS, "index": True,
                                                                 "similarity": "cosine",
                                                                 "index_options": {"type": kind}}}})
    except Exception as exc:  # noqa: BLE001 - the node may not know the type: reported, not fatal
        return {"accepted": False, "error": str(exc)[:200]}
    started = time.perf_counter()
    ids, matrix = vectors
    actions = ({"_index": name, "_id": pid, "embedding": matrix[i].round(4).tolist()} for i, pid in enumerate(ids))
    for ok, item in helpers.parallel_bulk(es, actions,
                                          thread_count=2, chunk_size=500, raise_on_error=True):
        pass
    es.indices.refresh(index=name)
    segments = len(es.cat.segments(index=name, format="json"))
    return {"accepted": True, "bulk_s": round(time.perf_counter() - started, 1), "segments": segments}


def knn_ids(es, name: str, vector) -> tuple[list[str], float]:
    started = time.perf_counter()
    resp = es.search(index=name, size=K, _source=False, knn={"field": "embedding", "query_vector": vector, "k": K,
                                                            "num_candidates": SEMANTIC_CANDIDATES})
    return [h["_id"] for h in resp["hits"]["hits"]], (time.perf_counter() - started) * 1000


def exact_ids(ids: list[str], matrix: np.ndarray, vector) -> tuple[list[str], float]:
    """Brute-force cosine top K in numpy: the core node has no painless for a script_score."""
    started = time.perf_counter()
    top = np.argsort(-(matrix @ np.asarray(vector, np.float32)))[:K]
    return [ids[i] for i in top], (time.perf_counter() - started) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--source", required=True, help="index (or alias) whose vectors are copied")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--limit", type=int, default=1_000_000, help="vectors copied at most")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--type", action="append", help=f"index types (default {', '.join(TYPES)}; also {', '.join(OPTIONAL)})")
    parser.add_argument("--prefix", default="bench-vectors-", help="benchmark index names start so")
    parser.add_argument("--keep", action="store_true", help="keep the benchmark indices")
    args = parser.parse_args()
    es = make_client(bench_settings(), request_timeout=600)
    started = time.perf_counter()
    vectors = load_vectors(es, args.source, args.limit)
    result: dict = {"load_avg_start": os.getloadavg(), "source": args.source, "vectors": len(vectors[0]), "read_s": round(time.perf_counter() - started, 1)}
    picked = random.Random(args.seed).sample(range(len(vectors[0])), min(args.queries, len(vectors[0])))
    queries = [vectors[1][i].tolist() for i in picked]
    names = {kind: f"{args.prefix}{kind.replace('_', '-')}" for kind in (args.type or TYPES)}
    try:
        for kind, name in names.items():
            result[kind] = build(es, name, kind, vectors)
        truths, exact_ms = zip(*(exact_ids(vectors[0], vectors[1], q) for q in queries))
        result["exact_ms"] = {k: round(v, 1) for k, v in percentiles(list(exact_ms)).items()}
        for kind, name in names.items():
            if not result[kind].get("accepted"):
                continue
            knn_ids(es, name, queries[0])  # warm
            found, ms = zip(*(knn_ids(es, name, q) for q in queries))
            recall = sum(len(set(f) & set(t)) for f, t in zip(found, truths)) / (K * len(queries))
            result[kind] |= {"knn_ms": {k: round(v, 1) for k, v in percentiles(list(ms)).items()},
                             "recall_at_10": round(recall, 4)}
    finally:
        if not args.keep:
            for name in names.values():
                es.indices.delete(index=name, ignore_unavailable=True)
    result["load_avg_end"] = os.getloadavg()
    print(save("vector-index", result))
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
