"""Ingest throughput: the Celery pipeline against raw bulk indexing of the same documents.

Two baselines, the corpus normalised and embedded up front (untimed: the documents carry
their vectors, as the pipeline writes them), each into a fresh index with the same
settings and mappings:

* ``serial``   — the client's ``helpers.streaming_bulk``: one bulk stream;
* ``parallel`` — ``helpers.parallel_bulk`` with as many threads as the pipeline has worker
                 processes, since the pipeline indexes in parallel too; once into an index
                 refreshed at the serving interval (1 s, what ``index_body`` creates) and once
                 at the loading interval the pipeline uses (``schema.loading_settings``), so the
                 pipeline is compared with a bulk load that tunes refreshes the same way.

Every run's time ends with its index refreshed at the serving interval: all it wrote searchable.

Pipeline: ``paperlist ingest`` of the same files into a fresh alias — reading, batching,
Celery, normalisation and bulk indexing in the workers, until every batch is done. Runs
alternate (serial, parallel, pipeline, …) so drift hits all; medians and both ratios
are reported.

    python -m bench.pipeline.ingest                  # whole corpus, 1 round
    python -m bench.pipeline.ingest --step 4 --rounds 3
"""

from __future__ import annotations

import argparse
import os
import pickle
import statistics
import sys
import time
import uuid
from pathlib import Path

import redis

from bench.harness import BenchWorker, bench_settings, corpus_files, drop, ensure_stores, percentiles, save
from services.indexer.celery_app import create_celery
from services.indexer.ingest.corpus_reader import CorpusReader
from services.indexer.ingest.dispatch import Ingest
from services.indexer.writes.vectors import vector_fields
from services.search.engine.client import make_client
from services.search.records.documents import to_document
from services.search.records.schema import SERVING_REFRESH, index_body, loaded_settings, loading_settings


def normalised_documents(files: list[Path], batch: int = 1000) -> list[tuple[str, dict]]:
    """Each paper's document with its vector fields, embedded in batches the way the workers do."""
    papers = list(CorpusReader(str(f) for f in files))
    docs = []
    for start in range(0, len(papers), batch):
        chunk = papers[start:start + batch]
        vectors = vector_fields(chunk)
        docs += [(p.paper_id, {**to_document(p), **vectors.get(p.paper_id, {})}) for p in chunk]
    return docs


def segment_work(es, index: str) -> dict:
    """Refreshes and merges the index went through: a refresh a second means a small segment
    a second, merged again and again, which is where an ingest's Elasticsearch time can go."""
    stats = es.indices.stats(index=index, metric="refresh,merge")["_all"]["primaries"]
    return {"refreshes": stats["refresh"]["total"], "external_refreshes": stats["refresh"]["external_total"],
            "merges": stats["merges"]["total"],
            "merge_s": round(stats["merges"]["total_time_in_millis"] / 1000, 1)}


def raw_bulk(es, settings, docs, prefix: str, threads: int = 0, chunk_size: int = 500,
             refresh: str = "serving") -> dict:
    """Index ``docs`` with one bulk stream (``threads=0``) or ``parallel_bulk`` on ``threads``,
    into an index refreshed at the ``serving`` or the ``loading`` interval meanwhile."""
    from elasticsearch import helpers

    index = f"{prefix}raw-{uuid.uuid4().hex[:6]}"
    es.indices.create(index=index, **index_body(settings.shards, settings.replicas))
    if refresh == "loading":
        es.indices.put_settings(index=index, settings=loading_settings())
    actions = ({"_index": index, "_id": i, "_source": d} for i, d in docs)
    results = (helpers.parallel_bulk(es, actions, thread_count=threads, chunk_size=chunk_size) if threads
               else helpers.streaming_bulk(es, actions, chunk_size=chunk_size))
    chunk_times: list[float] = []
    started = time.perf_counter()
    last = started
    for n, _ in enumerate(results, start=1):
        if n % chunk_size == 0:
            now = time.perf_counter()
            chunk_times.append(now - last)
            last = now
    if refresh == "loading":
        es.indices.put_settings(index=index, settings=loaded_settings())
    es.indices.refresh(index=index)
    seconds = time.perf_counter() - started
    count = es.count(index=index)["count"]
    work = segment_work(es, index)
    drop(es, index)
    return {"seconds": seconds, "docs": count, "docs_per_s": count / seconds, "threads": threads, "refresh": refresh,
            f"chunk_{chunk_size}": percentiles(chunk_times), **work}


def pipeline(es, settings, celery, client, files, prefix: str, keep: str | None = None) -> dict:
    alias = keep or f"{prefix}pipe-{uuid.uuid4().hex[:6]}"
    job = Ingest(settings, celery, es, client, alias=alias, rejects_dir=Path("/tmp/paperlist-bench-rejects"))
    started = time.perf_counter()
    summary = job.execute([str(f) for f in files])  # ends refreshed at the serving interval
    seconds = time.perf_counter() - started
    count = es.count(index=alias)["count"]
    work = segment_work(es, alias)
    if not keep:
        drop(es, alias)
    return {"alias": alias, "seconds": seconds, "docs": count, "docs_per_s": count / seconds, "read": summary.read,
            "indexed": summary.indexed, "rejected": summary.rejected, **work}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=None)
    parser.add_argument("--step", type=int, default=1, help="use every n-th corpus file")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--docs-cache", type=Path, default=None,
                        help="pickle of the baseline documents: made if missing, read if present")
    parser.add_argument("--prepare-only", action="store_true", help="only write --docs-cache")
    parser.add_argument("--keep-alias", default=None,
                        help="the (last) pipeline run writes this alias and keeps it, "
                             "e.g. for bench/pipeline/reindex.py")
    parser.add_argument("--no-serial", action="store_true", help="skip the one-stream baseline")
    parser.add_argument("--prefix", default="bench-ingest-", help="benchmark index names start so")
    parser.add_argument("--concurrency", type=int, default=None, help="worker processes (default: settings)")
    args = parser.parse_args()

    settings = bench_settings()
    ensure_stores(settings)
    files = corpus_files(args.corpus or settings.corpus_dir, args.step)
    es = make_client(settings, request_timeout=120)
    client = redis.Redis.from_url(settings.redis_url)
    celery = create_celery(settings)
    prefix = args.prefix
    load_start = os.getloadavg()
    print(f"normalising {len(files)} files up front for the baseline…", file=sys.stderr)
    if args.docs_cache and args.docs_cache.exists():
        with open(args.docs_cache, "rb") as handle:
            docs = pickle.load(handle)
    else:
        docs = normalised_documents(files)
        if args.docs_cache:
            with open(args.docs_cache, "wb") as handle:
                pickle.dump(docs, handle, protocol=pickle.HIGHEST_PROTOCOL)
    if args.prepare_only:
        return
    serial_runs: list[dict] = []
    parallel_runs: dict[str, list[dict]] = {"serving": [], "loading": []}
    pipe_runs: list[dict] = []
    with BenchWorker(settings, args.concurrency) as worker:
        for round_no in range(args.rounds):
            if not args.no_serial:
                serial_runs.append(raw_bulk(es, settings, docs, prefix))
            for refresh, runs in parallel_runs.items():
                runs.append(raw_bulk(es, settings, docs, prefix, threads=worker.concurrency, refresh=refresh))
            keep = args.keep_alias if round_no == args.rounds - 1 else None
            pipe_runs.append(pipeline(es, settings, celery, client, files, prefix, keep))
            print(f"round {round_no + 1}: serial bulk {serial_runs[-1]['docs_per_s'] if serial_runs else 0:.0f} docs/s, "
                  + ", ".join(f"parallel bulk ({refresh}) {runs[-1]['docs_per_s']:.0f} docs/s"
                              for refresh, runs in parallel_runs.items())
                  + f", pipeline {pipe_runs[-1]['docs_per_s']:.0f} docs/s", file=sys.stderr)
        concurrency = worker.concurrency
    every = serial_runs + parallel_runs["serving"] + parallel_runs["loading"] + pipe_runs
    short = [r for r in every if r["docs"] != len(docs)]
    if short:
        raise SystemExit(f"error: a run indexed {short[0]['docs']} documents, not {len(docs)}")
    serial = statistics.median(r["docs_per_s"] for r in serial_runs) if serial_runs else float("nan")
    parallel = {refresh: statistics.median(r["docs_per_s"] for r in runs) for refresh, runs in parallel_runs.items()}
    pipe = statistics.median(r["docs_per_s"] for r in pipe_runs)
    with_vectors = sum("embedding" in d for _, d in docs)
    result = {"load_avg_start": load_start, "load_avg_end": os.getloadavg(), "documents_with_vectors": with_vectors,
              "files": len(files), "documents": len(docs), "rounds": args.rounds, "worker_concurrency": concurrency,
              "loading_settings": loading_settings()["index"], "serving_refresh": SERVING_REFRESH,
              "serial_bulk_docs_per_s": round(serial) if serial_runs else None,
              "parallel_bulk_docs_per_s": round(parallel["loading"]),
              "parallel_bulk_serving_refresh_docs_per_s": round(parallel["serving"]),
              "pipeline_docs_per_s": round(pipe),
              "ratio_over_serial": round(pipe / serial, 3) if serial_runs else None,
              # The target: pipeline time over parallel_bulk time of the same documents, <= 2;
              # against the bulk load refreshed like the pipeline, and against the one at 1 s.
              "time_ratio_pipeline_over_parallel": round(parallel["loading"] / pipe, 3),
              "time_ratio_pipeline_over_parallel_serving_refresh": round(parallel["serving"] / pipe, 3),
              "serial_runs": serial_runs, "parallel_runs": parallel_runs["loading"],
              "parallel_serving_refresh_runs": parallel_runs["serving"], "pipeline_runs": pipe_runs}
    path = save("ingest", result)
    print(f"documents {len(docs):,}: serial helpers.bulk {serial:,.0f} docs/s, "  # nan with --no-serial
          f"parallel_bulk ({concurrency} threads) {parallel['loading']:,.0f} docs/s "
          f"({parallel['serving']:,.0f} at {SERVING_REFRESH} refresh), Celery pipeline {pipe:,.0f} docs/s; "
          f"pipeline time / parallel_bulk {parallel['loading'] / pipe:.2f} "
          f"({parallel['serving'] / pipe:.2f} against the {SERVING_REFRESH} one)  ({path})")


if __name__ == "__main__":
    main()
