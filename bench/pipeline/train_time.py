"""What training the corpus embedding model costs, stage by stage, and what the model it makes is worth.

Issue 21's targets: ≤ 10 min on 2 cores for the full corpus, ≤ 30 s for the sample. On a
shared machine wall time is mostly other people's load, so the bench writes wall and CPU
seconds (this process, all its threads) and the load average at the start and the end,
with each stage's wall seconds (reading the sources, tokens, vocabulary, LSA, word2vec, the
common component, saving).

Quality, so that a faster trainer is not a worse one: among ICLR 2024-2026 papers with a
curated ``primary_area`` (the only labelled ones: the corpus has no NeurIPS areas), the
share of each of ``--queries`` seeded papers' 10 nearest by cosine (brute force within the
labelled set, self excluded) in the same area, for the joined vector and for each half. The
model's area metric is fitted on the dev half of these labels (``held_out``): this figure mixes
papers whose labels trained it with held-out ones — ``bench/relevance/similar_quality.py``'s test split
is the held-out figure.

    python -m bench.pipeline.train_time [--corpus DIR] [--out MODEL.npz] [--epochs N --max-tokens N ...]
    python -m bench.pipeline.train_time --corpus data/sample --labelled ../shared/data/paperlists
    python -m bench.pipeline.train_time --model services/search/records/models/paper-corpus-v1.npz   # quality only
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import time
from dataclasses import asdict
from pathlib import Path

import numpy as np

from bench.harness import save
from bench.pipeline.embedding import same_area_share
from services.indexer.training.embeddings import TrainingOptions, corpus_records, train
from services.search.records.embedding import HALF, Embedder, paper_text

LABELLED = ("iclr2024", "iclr2025", "iclr2026")


def labelled_papers(corpus: Path) -> tuple[list[str], np.ndarray]:
    texts, areas = [], []
    for stem in LABELLED:
        for path in sorted((corpus / "iclr").glob(f"{stem}.json*")):
            opener = gzip.open if path.suffix == ".gz" else open
            with opener(path, "rt", encoding="utf-8") as handle:
                records = json.load(handle)
            for record in records:
                area, abstract, title = (record.get(k) for k in ("primary_area", "abstract", "title"))
                if all(isinstance(v, str) and v.strip() for v in (area, abstract, title)):
                    texts.append(paper_text(title, abstract))
                    areas.append(area.strip().lower())
    return texts, np.asarray(areas)


def quality(model: Path, texts: list[str], areas: np.ndarray, queries: int, seed: int) -> dict:
    if not texts:
        return {"labelled": 0}
    chosen = np.random.default_rng(seed).choice(len(texts), size=min(queries, len(texts)), replace=False)
    embedder = Embedder(model)
    vectors, raw = embedder.embed(texts), embedder.embed(texts, metric=False)
    return {"labelled": len(texts), "queries": len(chosen),
            "chance": round(float(sum((areas == a).mean() ** 2 for a in set(areas))), 4),
            "joined": same_area_share(vectors, areas, chosen),
            "joined_without_area_metric": same_area_share(raw, areas, chosen),
            "lsa_half": same_area_share(np.ascontiguousarray(raw[:, :HALF]), areas, chosen),
            "w2v_half": same_area_share(np.ascontiguousarray(raw[:, HALF:]), areas, chosen)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=Path(os.environ.get("PAPERLIST_CORPUS",
                                                                           "/work/shared/data/paperlists")))
    parser.add_argument("--out", type=Path, default=Path("/tmp/paperlist-train-time.npz"))
    parser.add_argument("--labelled", type=Path, help="corpus whose labelled ICLR papers measure quality "
                                                     "(default --corpus; the sample has few)")
    parser.add_argument("--model", type=Path, help="skip training: measure the quality of this artifact")
    parser.add_argument("--epochs", type=int, default=TrainingOptions.epochs)
    parser.add_argument("--negative", type=int, default=TrainingOptions.negative)
    parser.add_argument("--max-tokens", type=int, default=TrainingOptions.max_tokens)
    parser.add_argument("--workers", type=int, default=TrainingOptions.workers)
    parser.add_argument("--queries", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    options = TrainingOptions(epochs=args.epochs, negative=args.negative, max_tokens=args.max_tokens,
                              workers=args.workers)
    result: dict = {"corpus": str(args.corpus), "options": asdict(options),
                    "load_average_start": os.getloadavg(), "cpus": os.cpu_count()}
    model = args.model
    if model is None:
        stages: dict[str, float] = {}
        started, cpu = time.perf_counter(), time.process_time()
        records = list(corpus_records([str(args.corpus)]))
        texts = [r.text for r in records]
        stages["read"] = round(time.perf_counter() - started, 2)
        arrays = train(texts, options, stages, [(r.text, r.area) for r in records if r.area])
        saving = time.perf_counter()
        version = arrays.save(args.out)
        stages["save"] = round(time.perf_counter() - saving, 2)
        result |= {"papers": len(texts), "words": len(arrays.vocab), "version": version,
                   "wall_s": round(time.perf_counter() - started, 1), "cpu_s": round(time.process_time() - cpu, 1),
                   "stages_wall_s": stages, "artifact_mb": round(args.out.stat().st_size / 1e6, 2),
                   "load_average_end": os.getloadavg()}
        model = args.out
    texts, areas = labelled_papers(args.labelled or args.corpus)
    result["model"] = str(model)
    result["same_area"] = quality(model, texts, areas, args.queries, args.seed)
    print(save("train-time", result))
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
