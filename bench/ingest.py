"""Ingest throughput: the Celery pipeline against raw ``helpers.bulk`` of the same documents.

Baseline: the corpus normalised up front (untimed), then indexed by the client's plain
``helpers.bulk`` into a fresh index with the same settings and mappings. Pipeline:
``paperlist ingest`` of the same files into a fresh alias — reading, batching, Celery,
normalisation and bulk indexing in the workers, until every batch is done. Runs
alternate (raw, pipeline, raw, pipeline, …) so drift hits both; medians are reported.

    python bench/ingest.py                  # whole corpus (~92k), 1 round
    python bench/ingest.py --step 4 --rounds 3
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import uuid
from pathlib import Path

import redis

from harness import BenchWorker, bench_settings, corpus_files, drop, ensure_stores, percentiles, save
from services.indexer.celery_app import create_celery
from services.indexer.corpus import CorpusReader
from services.indexer.ingest import Ingest
from services.search.client import make_client
from services.search.documents import to_document
from services.search.schema import index_body


def normalised_documents(files: list[Path]) -> list[tuple[str, dict]]:
    return [(paper.paper_id, to_document(paper)) for paper in CorpusReader(str(f) for f in files)]


def raw_bulk(es, settings, docs, prefix: str) -> dict:
    from elasticsearch import helpers

    index = f"{prefix}raw-{uuid.uuid4().hex[:6]}"
    es.indices.create(index=index, **index_body(settings.shards, settings.replicas))
    chunk_times: list[float] = []
    started = time.perf_counter()
    last = started
    for n, _ in enumerate(helpers.streaming_bulk(
            es, ({"_index": index, "_id": i, "_source": d} for i, d in docs), chunk_size=500), start=1):
        if n % 500 == 0:
            now = time.perf_counter()
            chunk_times.append(now - last)
            last = now
    seconds = time.perf_counter() - started
    es.indices.refresh(index=index)
    count = es.count(index=index)["count"]
    drop(es, index)
    return {"seconds": seconds, "docs": count, "docs_per_s": count / seconds, "chunk_500": percentiles(chunk_times)}


def pipeline(es, settings, celery, client, files, prefix: str) -> dict:
    alias = f"{prefix}pipe-{uuid.uuid4().hex[:6]}"
    job = Ingest(settings, celery, es, client, alias=alias, rejects_dir=Path("/tmp/paperlist-bench-rejects"))
    started = time.perf_counter()
    summary = job.execute([str(f) for f in files])
    seconds = time.perf_counter() - started
    es.indices.refresh(index=alias)
    count = es.count(index=alias)["count"]
    drop(es, alias)
    return {"seconds": seconds, "docs": count, "docs_per_s": count / seconds, "read": summary.read,
            "indexed": summary.indexed, "rejected": summary.rejected}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=None)
    parser.add_argument("--step", type=int, default=1, help="use every n-th corpus file")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--concurrency", type=int, default=None, help="worker processes (default: settings)")
    args = parser.parse_args()

    settings = bench_settings()
    ensure_stores(settings)
    files = corpus_files(args.corpus or settings.corpus_dir, args.step)
    es = make_client(settings, request_timeout=120)
    client = redis.Redis.from_url(settings.redis_url)
    celery = create_celery(settings)
    prefix = "bench-ingest-"
    print(f"normalising {len(files)} files up front for the baseline…", file=sys.stderr)
    docs = normalised_documents(files)
    raw_runs, pipe_runs = [], []
    with BenchWorker(settings, args.concurrency) as worker:
        for round_no in range(args.rounds):
            raw_runs.append(raw_bulk(es, settings, docs, prefix))
            pipe_runs.append(pipeline(es, settings, celery, client, files, prefix))
            print(f"round {round_no + 1}: raw {raw_runs[-1]['docs_per_s']:.0f} docs/s, "
                  f"pipeline {pipe_runs[-1]['docs_per_s']:.0f} docs/s", file=sys.stderr)
        concurrency = worker.concurrency
    raw = statistics.median(r["docs_per_s"] for r in raw_runs)
    pipe = statistics.median(r["docs_per_s"] for r in pipe_runs)
    assert all(r["docs"] == len(docs) for r in raw_runs + pipe_runs), "both must index the same documents"
    result = {"files": len(files), "documents": len(docs), "rounds": args.rounds, "worker_concurrency": concurrency,
              "raw_bulk_docs_per_s": round(raw), "pipeline_docs_per_s": round(pipe), "ratio": round(pipe / raw, 3),
              "raw_runs": raw_runs, "pipeline_runs": pipe_runs}
    path = save("ingest", result)
    print(f"documents {len(docs):,}: raw helpers.bulk {raw:,.0f} docs/s, Celery pipeline {pipe:,.0f} docs/s, "
          f"ratio {pipe / raw:.2f}  ({path})")


if __name__ == "__main__":
    main()
