"""Training the corpus embedding model (``paperlist embeddings train``): LSA and word2vec on our own abstracts.

Why these two and not a downloaded transformer: issue 21 measured the joined LSA-128 +
word2vec-128 at 42.6% same-area neighbours on labelled ICLR papers, against 37% for
TF-IDF and 34% for the MiniLM distillation it replaces, at a fraction of its cost per
paper. What the embedding does with the arrays is :mod:`services.search.embedding`;
this module only learns them:

* texts: title and abstract of each distinct paper of the sources (read raw: the full
  normalisation costs far more than the training, and only these two fields matter);
* vocabulary: words in at least ``min_df`` papers, the ``max_vocab`` most common —
  the prune that keeps the artifact a few MB;
* LSA: a seeded randomized SVD of the sublinear TF-IDF matrix (rows unit length);
* word2vec: gensim skip-gram on the same texts, one worker by default so the same
  corpus gives the same bytes (more workers train faster, not reproducibly);
* SIF weights ``a / (a + p(w))`` and the first principal component of the SIF means.

Everything is seeded: a rerun on the same sources writes the same artifact, and so the
same version.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from services.search.embedding import HALF, ModelArrays, paper_text, tokens

from .cleaning import clean_title, strip_html
from .normalise import Rejected, identity
from .sources import open_sources

SEED = 21
SIF_A = 1e-3
"""The SIF weighting's ``a``: a word seen once in a thousand tokens counts half."""
PC_SAMPLE = 20_000
"""Papers whose SIF means estimate the common component (more changes it little)."""
SVD_OVERSAMPLE = 16
SVD_POWER_ITERATIONS = 4


@dataclass(frozen=True)
class TrainingOptions:
    """The knobs of one training run (the CLI's options)."""

    min_df: int = 3
    max_vocab: int = 40_000
    epochs: int = 5
    window: int = 5
    workers: int = 1


def corpus_texts(sources: Sequence[str]) -> Iterator[str]:
    """Title and abstract of each distinct paper of ``sources`` (first occurrence of an id wins)."""
    seen: set[str] = set()
    for source_file in open_sources(sources):
        for raw in source_file.read().records:
            data = raw.data
            try:
                paper_id, _, _ = identity(data, raw.origin)
            except Rejected:
                continue
            if paper_id in seen:
                continue
            seen.add(paper_id)
            abstract = data.get("abstract")
            text = paper_text(clean_title(data["title"]), strip_html(abstract) if isinstance(abstract, str) else "")
            if text:
                yield text


def train(texts: Iterable[str], options: TrainingOptions = TrainingOptions()) -> ModelArrays:
    """Learn the model's arrays from texts (at least a few hundred for a sensible model).

    BLAS runs on one thread: on a busy two-core machine its threads fight each other and
    the SVD's QR steps took ten times longer.
    """
    from threadpoolctl import threadpool_limits

    with threadpool_limits(1):
        return _train(texts, options)


def _train(texts: Iterable[str], options: TrainingOptions) -> ModelArrays:
    docs = [tokens(t) for t in texts]
    docs = [d for d in docs if d]
    if len(docs) < 2 * HALF:
        raise ValueError(f"{len(docs)} texts with words: too few to train a {2 * HALF}-d model (at least {2 * HALF})")
    vocab, df = _vocabulary(docs, options)
    index = {word: i for i, word in enumerate(vocab)}
    ids = [np.fromiter((index[w] for w in d if w in index), np.int64) for d in docs]
    idf = (np.log((1 + len(docs)) / (1 + df)) + 1).astype(np.float32)
    lsa = _lsa(ids, idf, len(vocab))
    w2v, counts = _word2vec([[vocab[i] for i in row] for row in ids if len(row)], vocab, options)
    sif = (SIF_A / (SIF_A + counts / counts.sum())).astype(np.float32)
    pc = _common_component(ids, w2v, sif)
    return ModelArrays(vocab=np.asarray(vocab, dtype=str), idf=idf, lsa=lsa, w2v=w2v, sif=sif, pc=pc)


def _vocabulary(docs: list[list[str]], options: TrainingOptions) -> tuple[list[str], np.ndarray]:
    df = Counter()
    for doc in docs:
        df.update(set(doc))
    kept = sorted((w for w, n in df.items() if n >= options.min_df), key=lambda w: (-df[w], w))[: options.max_vocab]
    if len(kept) < HALF:
        raise ValueError(f"only {len(kept)} words in {options.min_df}+ texts: too few for {HALF} LSA components")
    return kept, np.asarray([df[w] for w in kept], np.float64)


def _lsa(ids: list[np.ndarray], idf: np.ndarray, size: int) -> np.ndarray:
    """Each word's row of the top-HALF right singular vectors of the unit-row TF-IDF matrix (a randomized SVD)."""
    from scipy.sparse import csr_matrix

    rows, cols, vals = [], [], []
    for row, doc in enumerate(ids):
        if not len(doc):
            continue
        words, counts = np.unique(doc, return_counts=True)
        weights = (1.0 + np.log(counts)) * idf[words]
        rows.append(np.full(len(words), row))
        cols.append(words)
        vals.append(weights / np.linalg.norm(weights))
    matrix = csr_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))),
                        shape=(len(ids), size), dtype=np.float64)
    rng = np.random.default_rng(SEED)
    basis = matrix @ rng.standard_normal((size, HALF + SVD_OVERSAMPLE))
    for _ in range(SVD_POWER_ITERATIONS):
        basis, _ = np.linalg.qr(basis)
        basis, _ = np.linalg.qr(matrix @ (matrix.T @ basis))
    small = (matrix.T @ basis).T  # basis.T @ matrix, (HALF + oversample) × size
    _, _, vt = np.linalg.svd(small, full_matrices=False)
    components = _fix_signs(vt[:HALF])
    return components.T.astype(np.float32)


def _word2vec(sentences: list[list[str]], vocab: list[str], options: TrainingOptions) -> tuple[np.ndarray, np.ndarray]:
    """Skip-gram vectors of the vocabulary (rows in its order) and each word's token count."""
    from gensim.models import Word2Vec

    counts = Counter()
    for sentence in sentences:
        counts.update(sentence)
    model = Word2Vec(vector_size=HALF, sg=1, window=options.window, negative=5, sample=1e-4, min_count=1,
                     epochs=options.epochs, workers=options.workers, seed=SEED)
    model.build_vocab_from_freq({w: counts[w] for w in vocab if counts[w]})
    model.train(sentences, total_examples=len(sentences), epochs=options.epochs)
    vectors = np.zeros((len(vocab), HALF), np.float32)
    for row, word in enumerate(vocab):
        if word in model.wv.key_to_index:
            vectors[row] = model.wv[word]
    return vectors, np.asarray([max(counts[w], 1) for w in vocab], np.float64)


def _common_component(ids: list[np.ndarray], w2v: np.ndarray, sif: np.ndarray) -> np.ndarray:
    """First principal component (uncentred, as SIF does) of a seeded sample of the papers' SIF means."""
    rng = np.random.default_rng(SEED)
    chosen = [ids[i] for i in rng.permutation(len(ids))[:PC_SAMPLE] if len(ids[i])]
    means = np.stack([sif[doc] @ w2v[doc] / len(doc) for doc in chosen])
    _, _, vt = np.linalg.svd(means, full_matrices=False)
    return _fix_signs(vt[:1])[0].astype(np.float32)


def _fix_signs(rows: np.ndarray) -> np.ndarray:
    """Each singular vector with its largest entry positive: an SVD's signs are arbitrary, the artifact's are not."""
    signs = np.sign(rows[np.arange(len(rows)), np.abs(rows).argmax(axis=1)])
    return rows * signs[:, None]
