"""Corpus embeddings offline: throughput, query latency and neighbour quality, no Elasticsearch.

* throughput: every record of the corpus (title + abstract), one process, batches of 512;
* query latency: p50/p99 of embedding one 5,000-character text;
* quality: among records whose curated ``primary_area`` is known (ICLR 2024-2026: one
  vocabulary of areas), the share of each sampled paper's top-10 cosine neighbours
  (brute force, self excluded) with the same area. Compared with TF-IDF cosine (a
  stand-in for more_like_this; needs scikit-learn, the bench extra).

    python -m bench.pipeline.embedding [--corpus DIR] [--artifact MODEL.npz] [--queries 3000]
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

import numpy as np

from bench.harness import percentiles, save
from bench.pipeline.raw_corpus import records, text_of
from services.search.records.embedding import ARTIFACT, Embedder, paper_text

LABELLED = ("iclr2024", "iclr2025", "iclr2026")


def load(corpus: Path) -> tuple[list[str], list[str], list[str]]:
    """All paper texts, plus the texts and areas of the labelled records (with abstracts)."""
    texts, labelled, areas = [], [], []
    for stem, record in records(corpus):
        title, abstract = text_of(record)
        text = paper_text(title, abstract)
        texts.append(text)
        area = record.get("primary_area")
        if stem in LABELLED and isinstance(area, str) and area.strip() and abstract.strip():
            labelled.append(text)
            areas.append(area.strip().lower())
    return texts, labelled, areas


def throughput(embedder: Embedder, texts: list[str], batch: int = 512) -> dict:
    """Wall and CPU time (all threads of the process): on a loaded machine CPU time is the cost."""
    started, cpu = time.perf_counter(), time.process_time()
    for start in range(0, len(texts), batch):
        embedder.embed(texts[start:start + batch])
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    return {"docs": len(texts), "wall_s": round(seconds, 1), "cpu_s": round(cpu, 1),
            "docs_per_wall_s": round(len(texts) / seconds), "cpu_ms_per_doc": round(1000 * cpu / len(texts), 4),
            "load_average": os.getloadavg()[0]}


def query_latency(embedder: Embedder, texts: list[str], n: int = 300) -> dict:
    pool = " ".join(texts[:2000])
    samples, cpu = [], []
    for i in range(n):
        query = pool[i * 997 % (len(pool) - 5000):][:5000]
        started, cpu_started = time.perf_counter(), time.process_time()
        embedder.embed_one(query)
        samples.append(1000 * (time.perf_counter() - started))
        cpu.append(1000 * (time.process_time() - cpu_started))
    return ({f"wall_{k}": round(v, 3) for k, v in percentiles(samples).items()}
            | {f"cpu_{k}": round(v, 3) for k, v in percentiles(cpu).items()} | {"chars": 5000, "n": n})


def same_area_share(vectors: np.ndarray, areas: np.ndarray, queries: np.ndarray, k: int = 10) -> float:
    """Mean share of the top-k cosine neighbours (self excluded) sharing the query's area."""
    hits = 0
    for start in range(0, len(queries), 256):
        rows = queries[start:start + 256]
        sims = vectors[rows] @ vectors.T
        if hasattr(sims, "toarray"):
            sims = sims.toarray()
        sims[np.arange(len(rows)), rows] = -np.inf
        top = np.argpartition(-sims, k, axis=1)[:, :k]
        hits += int((areas[top] == areas[rows][:, None]).sum())
    return round(hits / (len(queries) * k), 4)


def tfidf(texts: list[str]):
    from sklearn.feature_extraction.text import TfidfVectorizer

    return TfidfVectorizer(sublinear_tf=True, stop_words="english", min_df=2).fit_transform(texts)


def quality(embedder: Embedder, labelled: list[str], areas: list[str], n_queries: int, seed: int) -> dict:
    rng = np.random.default_rng(seed)
    labels = np.array(areas)
    queries = rng.choice(len(labelled), size=min(n_queries, len(labelled)), replace=False)
    model = embedder.embed(labelled)
    out = {"labelled": len(labelled), "areas": len(set(areas)), "queries": len(queries),
           "chance": round(float(sum((labels == a).mean() ** 2 for a in set(areas))), 4),
           "model": same_area_share(model, labels, queries)}
    try:
        out["tfidf"] = same_area_share(tfidf(labelled), labels, queries)
    except ImportError:
        out["tfidf"] = None
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=Path(os.environ.get("PAPERLIST_CORPUS",
                                                                           "/work/shared/data/paperlists")))
    parser.add_argument("--artifact", type=Path, default=ARTIFACT)
    parser.add_argument("--queries", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--skip-throughput", action="store_true")
    parser.add_argument("--skip-quality", action="store_true", help="speed only (any artifact of the right shape)")
    args = parser.parse_args()
    if not args.corpus.is_dir():
        raise SystemExit(f"error: no corpus folder {args.corpus}")

    texts, labelled, areas = load(args.corpus)
    embedder = Embedder(args.artifact)
    started = time.perf_counter()
    embedder.embed(["warm up"])
    result = {"artifact": embedder.version, "artifact_mb": round(args.artifact.stat().st_size / 1e6, 2),
              "load_s": round(time.perf_counter() - started, 2)}
    if not args.skip_throughput:
        result["throughput"] = throughput(embedder, texts)
    result["query_5000_chars_ms"] = query_latency(embedder, texts)
    if not args.skip_quality:
        result["quality"] = quality(embedder, labelled, areas, args.queries, args.seed)
    print(save("embedding", result))
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
