"""Training the corpus embedding model (``paperlist embeddings train``): LSA and word2vec on our own abstracts.

Why these two and not a downloaded transformer: issue 21 measured the joined LSA-128 +
word2vec-128 at 42.6% same-area neighbours on labelled ICLR papers, against 37% for
TF-IDF and 34% for the MiniLM distillation it replaces, at a fraction of its cost per
paper. What the embedding does with the arrays is :mod:`services.search.records.embedding`;
this module only learns them:

* texts: title and abstract of each distinct paper of the sources (read raw: the full
  normalisation costs far more than the training, and only these two fields matter);
* vocabulary: words in at least ``min_df`` papers, the ``max_vocab`` most common —
  the prune that keeps the artifact a few MB;
* LSA: a seeded randomized SVD of the sublinear TF-IDF matrix (rows unit length);
* word2vec: gensim skip-gram on the same texts, one worker by default so the same
  corpus gives the same bytes (more workers train faster, not reproducibly), 3 negative
  samples, and at most ``max_tokens`` words read over all epochs: a corpus larger than
  that trains fewer epochs, down to one epoch over a seeded draw of its papers;
* SIF weights ``a / (a + p(w))`` and the first principal component of the SIF means;
* the area metric (supervised, optional: ``area_weight`` 0 turns it off): a linear discriminant
  analysis of the joined vectors of papers with a curated ``primary_area`` (:data:`AREA_CONFERENCES`),
  ``A = (I + λ² s L Lᵀ)^½`` with ``L`` the discriminant directions (each of unit variance over those
  papers) and ``s`` scaling their sum to the vectors' own variance: cosine under ``A`` weighs what
  tells areas apart ``λ²`` as much again. The labels of the papers :func:`held_out` names are never
  read, so the held-out half of ``bench/relevance/similar_quality.py`` measures papers whose labels the model
  never saw (on ICLR's held-out half, same-area top 10 by exact cosine: 40.2% → 43.7%, docs/ranking.md).

Everything is seeded: a rerun on the same sources writes the same artifact, and so the
same version.

What it costs (issue 21, ``bench/pipeline/train_time.py``): word2vec was nearly all of it — 5 epochs
of 5 negatives over the full corpus' ~35 M words, 9 CPU-minutes and 22 minutes on a busy
machine. Three negatives cost a third less and place neighbours as well; past ~16 M words
read, more epochs or more papers added under a point of same-area share (measured on the
labelled ICLR papers), so the budget caps them. The LSA's sparse products run in float32.
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from services.indexer.cleaning.text import clean_text, clean_title, strip_html
from services.indexer.paper.normalise import Rejected, identity
from services.indexer.sources import open_sources, reader_named
from services.search.records.embedding import DIMS, HALF, Embedder, ModelArrays, paper_text, tokens

SEED = 21
SIF_A = 1e-3
"""The SIF weighting's ``a``: a word seen once in a thousand tokens counts half."""
PC_SAMPLE = 20_000
"""Papers whose SIF means estimate the common component (more changes it little)."""
SVD_OVERSAMPLE = 16
SVD_POWER_ITERATIONS = 4
AREA_CONFERENCES = frozenset({"iclr"})
"""Conferences whose ``primary_area`` is the curated vocabulary of areas (other sources put track names there)."""
MIN_AREA_PAPERS = 20
"""An area with fewer labelled papers is left out of the metric's fit."""
MIN_LABELLED = 500
"""Fewer labelled papers than this (the sample has ~90) and the model gets no area metric."""
LDA_SHRINK = 1e-2
"""Ridge on the within-area scatter, as a share of its mean variance (the discriminants of 256 dims are unstable without)."""


def held_out(paper_id: str) -> bool:
    """The half of the papers whose curated area the trainer never reads (a hash of the id):
    ``bench/relevance/similar_quality.py`` reports on it, and chooses on the other (its dev split)."""
    return hashlib.sha1(paper_id.encode()).digest()[0] % 2 == 1


@dataclass(frozen=True)
class TrainingText:
    """One paper's text, and its curated area when the trainer may learn from it ("" otherwise)."""

    text: str
    area: str = ""


@dataclass(frozen=True)
class TrainingOptions:
    """The knobs of one training run (the CLI's options)."""

    min_df: int = 3
    max_vocab: int = 40_000
    epochs: int = 5
    window: int = 5
    workers: int = 1
    negative: int = 3
    max_tokens: int = 16_000_000
    """Words word2vec reads over all its epochs (the training's cost): fewer epochs past it, then fewer papers."""
    area_weight: float = 1.0
    """λ of the area metric (0: none). Chosen on half the dev split, fitted on the other half: λ 0.6, 1.0,
    1.5, 2.0 and 3.0 gave 42.6, 43.5, 43.5, 43.1 and 42.5% same-area top 10 (the full corpus' model)."""


def corpus_records(sources: Sequence[str]) -> Iterator[TrainingText]:
    """Title and abstract of each distinct paper of ``sources`` (first occurrence of an id wins), with
    its curated area when it has one the trainer may read (not :func:`held_out`)."""
    seen: set[str] = set()
    for source_file in open_sources(sources):
        for raw in source_file.read().records:
            data = raw.data
            try:
                paper_id, conference, _ = identity(data, raw.origin)
            except Rejected:
                continue
            if paper_id in seen:
                continue
            seen.add(paper_id)
            abstract = data.get("abstract")
            text = paper_text(clean_title(data["title"]), strip_html(abstract) if isinstance(abstract, str) else "")
            if text:
                yield TrainingText(text, _area(data, raw.origin, conference, paper_id))


def corpus_texts(sources: Sequence[str]) -> Iterator[str]:
    """The texts of :func:`corpus_records`."""
    return (record.text for record in corpus_records(sources))


def _area(data: object, origin, conference: str, paper_id: str) -> str:
    """The curated area as the index stores it (the reader's mapping, cleaned), or ""."""
    if conference not in AREA_CONFERENCES or held_out(paper_id):
        return ""
    try:
        return clean_text(reader_named(origin.format).fields(data).primary_area)
    except Rejected:
        return ""


def train(texts: Iterable[str], options: TrainingOptions = TrainingOptions(),
          stages: dict[str, float] | None = None, labelled: Sequence[tuple[str, str]] = ()) -> ModelArrays:
    """Learn the model's arrays from texts (at least a few hundred for a sensible model);
    ``stages``, when given, gets each stage's wall seconds (tokens, vocabulary, lsa, word2vec, pc,
    metric); ``labelled``: (text, curated area) pairs the area metric is fitted on.

    BLAS runs on one thread: on a busy two-core machine its threads fight each other and
    the SVD's QR steps took ten times longer.
    """
    from threadpoolctl import threadpool_limits

    with threadpool_limits(1):
        record = _Stages(stages if stages is not None else {})
        arrays = _train(texts, options, record)
        if options.area_weight > 0 and labelled:
            arrays = _with_area_metric(arrays, labelled, options.area_weight)
            record.mark("metric")
        return arrays


def _with_area_metric(arrays: ModelArrays, labelled: Sequence[tuple[str, str]], weight: float) -> ModelArrays:
    """The arrays with the area metric fitted on ``labelled`` (unchanged when too few are labelled)."""
    areas = np.asarray([area for _, area in labelled])
    names, sizes = np.unique(areas, return_counts=True)
    kept = np.isin(areas, names[sizes >= MIN_AREA_PAPERS])
    if kept.sum() < MIN_LABELLED or (sizes >= MIN_AREA_PAPERS).sum() < 2:
        return arrays
    vectors = Embedder.of(arrays).embed([text for (text, _), keep in zip(labelled, kept) if keep], metric=False)
    found = vectors.any(axis=1)
    mean, metric = area_metric(vectors[found].astype(np.float64), areas[kept][found], weight)
    return dataclasses.replace(arrays, mean=mean, metric=metric)


def area_metric(vectors: np.ndarray, areas: np.ndarray, weight: float) -> tuple[np.ndarray, np.ndarray]:
    """``(mean, A)``: the labelled vectors' mean and ``(I + λ² s L Lᵀ)^½`` (see the module's docstring)."""
    import scipy.linalg

    mean = vectors.mean(axis=0)
    centred = vectors - mean
    within = np.zeros((DIMS, DIMS))
    between = np.zeros((DIMS, DIMS))
    names = np.unique(areas)
    for name in names:
        members = centred[areas == name]
        middle = members.mean(axis=0)
        within += (members - middle).T @ (members - middle)
        between += len(members) * np.outer(middle, middle)
    within /= len(vectors)
    between /= len(vectors)
    ridge = LDA_SHRINK * np.trace(within) / DIMS
    _, directions = scipy.linalg.eigh(between, within + ridge * np.eye(DIMS))
    directions = directions[:, ::-1][:, : len(names) - 1]
    directions = directions / (centred @ directions).std(axis=0)  # each discriminant of unit variance
    scale = centred.var(axis=0).sum() / directions.shape[1]
    gram = np.eye(DIMS) + weight ** 2 * scale * directions @ directions.T
    values, basis = np.linalg.eigh(gram)
    root = (basis * np.sqrt(np.maximum(values, 0))) @ basis.T
    return mean.astype(np.float32), root.astype(np.float32)


class _Stages:
    """Wall seconds since the last mark, kept under each stage's name."""

    def __init__(self, into: dict[str, float]) -> None:
        self.into, self.last = into, time.perf_counter()

    def mark(self, name: str) -> None:
        now = time.perf_counter()
        self.into[name] = round(self.into.get(name, 0.0) + now - self.last, 2)
        self.last = now


def _train(texts: Iterable[str], options: TrainingOptions, stages: _Stages) -> ModelArrays:
    words, flat, ends = _encode(texts)
    stages.mark("tokens")
    if len(ends) < 2 * HALF:
        raise ValueError(f"{len(ends)} texts with words: too few to train a {2 * HALF}-d model (at least {2 * HALF})")
    docs = len(ends)
    doc_of = np.repeat(np.arange(docs), np.diff(ends, prepend=0))
    vocab, df, remap = _vocabulary(words, flat, doc_of, options)
    stages.mark("vocabulary")
    kept = remap[flat]
    inside = kept >= 0
    ids, doc_of = kept[inside], doc_of[inside]  # each text's vocabulary words, in order, texts one after another
    bounds = np.cumsum(np.bincount(doc_of, minlength=docs))[:-1]
    rows = np.split(ids, bounds)
    idf = (np.log((1 + docs) / (1 + df)) + 1).astype(np.float32)
    lsa = _lsa(ids, doc_of, docs, idf)
    stages.mark("lsa")
    counts = np.maximum(np.bincount(ids, minlength=len(vocab)), 1).astype(np.float64)
    names = np.asarray(vocab, dtype=object)
    w2v = _word2vec([names[row].tolist() for row in rows if len(row)], vocab, counts, options)
    stages.mark("word2vec")
    sif = (SIF_A / (SIF_A + counts / counts.sum())).astype(np.float32)
    pc = _common_component(rows, w2v, sif)
    stages.mark("pc")
    return ModelArrays(vocab=np.asarray(vocab, dtype=str), idf=idf, lsa=lsa, w2v=w2v, sif=sif, pc=pc)


def _encode(texts: Iterable[str]) -> tuple[list[str], np.ndarray, np.ndarray]:
    """Tokenise once: the distinct words (first seen first), every text's words as ids into them
    one text after another, and where each text ends (texts without a word are left out)."""
    index: dict[str, int] = {}
    chunks: list[list[int]] = []
    ends: list[int] = []
    total = 0
    for text in texts:
        found = tokens(text)
        if found:
            chunks.append([index.setdefault(word, len(index)) for word in found])
            total += len(found)
            ends.append(total)
    flat = np.fromiter(itertools.chain.from_iterable(chunks), np.int64, total)
    return list(index), flat, np.asarray(ends, np.int64)


def _vocabulary(words: list[str], flat: np.ndarray, doc_of: np.ndarray,
                options: TrainingOptions) -> tuple[list[str], np.ndarray, np.ndarray]:
    """The kept words (in ``min_df``+ texts, the ``max_vocab`` most common, ties by spelling), their
    document frequencies, and each encoded word's new id (-1: dropped)."""
    pairs = np.unique(doc_of * len(words) + flat)  # each (text, word) once
    df = np.bincount(pairs % len(words), minlength=len(words))
    candidates = np.flatnonzero(df >= options.min_df)
    order = sorted(candidates.tolist(), key=lambda w: (-df[w], words[w]))[: options.max_vocab]
    if len(order) < HALF:
        raise ValueError(f"only {len(order)} words in {options.min_df}+ texts: too few for {HALF} LSA components")
    remap = np.full(len(words), -1, np.int64)
    remap[order] = np.arange(len(order))
    return [words[w] for w in order], df[order].astype(np.float64), remap


def _lsa(ids: np.ndarray, doc_of: np.ndarray, docs: int, idf: np.ndarray) -> np.ndarray:
    """Each word's row of the top-HALF right singular vectors of the unit-row TF-IDF matrix (a randomized SVD)."""
    from scipy.sparse import csr_matrix

    size = len(idf)
    pairs, counts = np.unique(doc_of * size + ids, return_counts=True)
    rows, cols = pairs // size, pairs % size
    weights = (1.0 + np.log(counts)) * idf[cols]
    weights /= np.sqrt(np.bincount(rows, weights * weights, minlength=docs))[rows]
    matrix = csr_matrix((weights.astype(np.float32), (rows, cols)), shape=(docs, size), dtype=np.float32)
    rng = np.random.default_rng(SEED)
    basis = matrix @ rng.standard_normal((size, HALF + SVD_OVERSAMPLE)).astype(np.float32)
    for _ in range(SVD_POWER_ITERATIONS):
        basis, _ = np.linalg.qr(basis)
        basis, _ = np.linalg.qr(matrix @ (matrix.T @ basis))
    small = (matrix.T @ basis).T  # basis.T @ matrix, (HALF + oversample) × size
    _, _, vt = np.linalg.svd(small.astype(np.float64), full_matrices=False)
    components = _fix_signs(vt[:HALF])
    return components.T.astype(np.float32)


def _word2vec(sentences: list[list[str]], vocab: list[str], counts: np.ndarray,
              options: TrainingOptions) -> np.ndarray:
    """Skip-gram vectors of the vocabulary (rows in its order); ``counts``: each word's tokens."""
    from gensim.models import Word2Vec

    sentences, epochs = _within_budget(sentences, options)
    model = Word2Vec(vector_size=HALF, sg=1, window=options.window, negative=options.negative, sample=1e-4,
                     min_count=1, epochs=epochs, workers=options.workers, seed=SEED)
    model.build_vocab_from_freq({w: int(c) for w, c in zip(vocab, counts)})
    model.train(sentences, total_examples=len(sentences), epochs=epochs)
    vectors = np.zeros((len(vocab), HALF), np.float32)
    for row, word in enumerate(vocab):
        if word in model.wv.key_to_index:
            vectors[row] = model.wv[word]
    return vectors


def _within_budget(sentences: list[list[str]], options: TrainingOptions) -> tuple[list[list[str]], int]:
    """The sentences and epochs word2vec trains on: all of them for as many epochs as ``max_tokens``
    allows (at most ``epochs``), else one epoch over a seeded draw of about ``max_tokens`` words,
    in the draw's order (in the sources' order the learning rate decays along the conferences:
    a point less same-area share on the full corpus).
    The token counts (SIF weights) stay those of the whole corpus."""
    total = sum(map(len, sentences))
    if total * options.epochs <= options.max_tokens:
        return sentences, options.epochs
    if total <= options.max_tokens:
        return sentences, max(1, options.max_tokens // total)
    order = np.random.default_rng(SEED).permutation(len(sentences))
    lengths = np.fromiter((len(sentences[i]) for i in order), np.int64, len(order))
    keep = int(np.searchsorted(np.cumsum(lengths), options.max_tokens)) + 1
    return [sentences[i] for i in order[:keep]], 1  # in drawn order: sorted, the last sources would dominate


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
