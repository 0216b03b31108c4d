"""Full-corpus ingest check: counts, exact id set, per-conference counts, idempotence, crash safety.

Ingests the whole corpus into a fresh alias through a real Celery worker and checks:

* read = indexed + rejected (first run) and every record is accounted for;
* the index holds exactly the distinct paper ids of the source;
* papers per conference in the index equal the source files' distinct records;
* a second run indexes 0 and reports every good record unchanged;
* with ``--kill N``: the worker is SIGKILLed N times during the first run and restarted,
  and the final id set is still exactly the expected one.

    python -m bench.corpus.verify_corpus [--kill 3] [--keep]
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading
import time
import uuid
from collections import Counter
from pathlib import Path

import redis

from bench.harness import BenchWorker, bench_settings, corpus_files, drop, ensure_stores, save
from services.indexer.celery_app import create_celery
from services.indexer.ingest.corpus_reader import CorpusReader
from services.indexer.ingest.dispatch import Ingest
from services.search.engine.client import make_client


def expected(files: list[Path]) -> tuple[int, dict[str, str], int]:
    """Records read, {paper_id: conference} of the good distinct ones, and rejects."""
    reader = CorpusReader(str(f) for f in files)
    ids = {paper.paper_id: paper.conference for paper in reader}
    return reader.read, ids, reader.rejected


def indexed_ids(es, alias: str) -> set[str]:
    from elasticsearch import helpers

    return {h["_id"] for h in helpers.scan(es, index=alias, query={"query": {"match_all": {}}, "_source": False},
                                           size=5000)}


def killer(worker: BenchWorker, times: int, done: threading.Event, log: list) -> None:
    """Kill the worker (every process of it) a few times while batches are being processed."""
    for _ in range(times):
        if done.wait(8):
            return
        os.killpg(worker.proc.pid, signal.SIGKILL)
        worker.proc.wait()
        log.append(time.monotonic())
        time.sleep(2)
        worker.__enter__()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path)
    parser.add_argument("--kill", type=int, default=0, help="SIGKILL the worker this many times during the run")
    parser.add_argument("--keep", action="store_true", help="keep the index afterwards")
    args = parser.parse_args()

    settings = bench_settings()
    ensure_stores(settings)
    files = corpus_files(args.corpus or settings.corpus_dir)
    es = make_client(settings, request_timeout=120)
    client = redis.Redis.from_url(settings.redis_url)
    celery = create_celery(settings)
    alias = f"verify-{uuid.uuid4().hex[:8]}"
    read, ids, rejected = expected(files)
    per_conf = Counter(ids.values())
    report: dict = {"files": len(files), "expected": {"read": read, "distinct_ids": len(ids), "rejected": rejected}}
    with BenchWorker(settings) as worker:
        kills: list[float] = []
        done = threading.Event()
        thread = threading.Thread(target=killer, args=(worker, args.kill, done, kills), daemon=True)
        thread.start()
        first = Ingest(settings, celery, es, client, alias=alias, stall_seconds=15,
                       rejects_dir=Path("/tmp/paperlist-verify")).execute([str(f) for f in files])
        done.set()
        thread.join()
        es.indices.refresh(index=alias)
        second = Ingest(settings, celery, es, client, alias=alias,
                        rejects_dir=Path("/tmp/paperlist-verify")).execute([str(f) for f in files])
    got = indexed_ids(es, alias)
    aggs = es.search(index=alias, size=0, aggs={"c": {"terms": {"field": "conference", "size": 500}}})
    index_conf = {b["key"]: b["doc_count"] for b in aggs["aggregations"]["c"]["buckets"]}
    no_topic = es.count(index=alias, query={"bool": {"must_not": {"exists": {"field": "topics"}}}})["count"]
    checks = {
        "first: indexed + rejected == read": first.indexed + first.rejected == first.read == read,
        "first: unchanged == 0": first.unchanged == 0,
        "index ids == expected distinct ids": got == set(ids),
        "per-conference counts match the source": index_conf == dict(per_conf),
        "second: indexed == 0": second.indexed == 0,
        "second: unchanged == first indexed": second.unchanged == first.indexed,
        "every paper has a topic": no_topic == 0,
    }
    report.update({
        "worker_kills": len(kills),
        "first": {k: getattr(first, k) for k in ("read", "indexed", "unchanged", "rejected", "seconds")},
        "second": {k: getattr(second, k) for k in ("read", "indexed", "unchanged", "rejected", "seconds")},
        "index_count": len(got), "per_conference": index_conf, "checks": checks,
    })
    if not args.keep:
        drop(es, alias)
    path = save("verify-corpus", report)
    print(json.dumps({k: v for k, v in report.items() if k != "per_conference"}, indent=2))
    print(f"saved {path}")
    sys.exit(0 if all(checks.values()) else 1)


if __name__ == "__main__":
    main()
