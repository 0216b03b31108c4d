"""Weights from the labelled slots: pairs of slots with visible OpenReview ids in one block.

Used by the benchmark (``bench/corpus/people.py --fit``) and to write ``weights.toml``; the pass never
trains. A pair is labelled 1 when both slots carry the same profile, 0 when they carry two; a
block gives at most :data:`PAIRS_PER_BLOCK` pairs so that "Sergey Levine" (31k positive pairs)
does not drown the homonym blocks.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from .cluster import namespace_codes
from .decide import block_profiles
from .evidence import feature_matrix
from .model import Model, transform
from .slots import OPENREVIEW
from .table import SlotTable

PAIRS_PER_BLOCK = 400


def labelled_pairs(table: SlotTable, vectors: np.ndarray | None, seed: int = 0
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(features, labels, pair index) of sampled pairs whose slots both carry an OpenReview id."""
    rng = np.random.default_rng(seed)
    codes = namespace_codes(table, OPENREVIEW)
    cl, cr = codes[table.left], codes[table.right]
    labelled = np.flatnonzero((cl >= 0) & (cr >= 0))
    pair_block = np.repeat(np.arange(table.blocks), np.diff(table.pair_starts))[labelled]
    keep = []
    for block_pairs in np.split(labelled, np.flatnonzero(np.diff(pair_block)) + 1):
        if len(block_pairs) > PAIRS_PER_BLOCK:
            block_pairs = rng.choice(block_pairs, PAIRS_PER_BLOCK, replace=False)
        keep.append(block_pairs)
    keep = np.sort(np.concatenate(keep)) if keep else np.zeros(0, np.int64)
    x = feature_matrix(table, vectors, block_profiles(table), keep)
    return x, (codes[table.left[keep]] == codes[table.right[keep]]).astype(np.int8), keep


def fit_logistic(features: np.ndarray, labels: np.ndarray, threshold: float, c: float = 1.0) -> Model:
    """A logistic model of the pairs (scikit-learn), with the clustering threshold given."""
    from sklearn.linear_model import LogisticRegression

    fitted = LogisticRegression(C=c, max_iter=2000).fit(transform(features), labels)
    return Model(tuple(float(w) for w in fitted.coef_[0]), float(fitted.intercept_[0]), threshold)


def fit(slots, vectors, seed: int = 1, threshold: float = 0.5, assign: float | None = 0.8) -> Model:
    """The model from the visible labelled slots (sub-hiding as the benchmark hides)."""
    from .table import build_table
    table = build_table(slots)
    x, y, keep = labelled_pairs(table, vectors, 0)
    rng = np.random.default_rng(seed + 100)
    codes = namespace_codes(table, OPENREVIEW)
    lab_papers = np.unique(table.paper[codes >= 0])
    sub = np.zeros(int(table.paper.max()) + 1, bool)
    sub[rng.choice(lab_papers, len(lab_papers) // 2, replace=False)] = True
    visible = (codes >= 0) & ~sub[table.paper]
    profiles = np.zeros((table.blocks, 2), np.int64)
    pairs = np.unique(np.stack([table.block[visible], codes[visible]]), axis=1)
    profiles[:, 0] = np.bincount(pairs[0], minlength=table.blocks)
    profiles[:, 1] = np.bincount(table.block[visible], minlength=table.blocks)
    from .evidence import FEATURES
    pb = np.repeat(np.arange(table.blocks), np.diff(table.pair_starts))[keep]
    x[:, FEATURES.index("name_profiles")] = profiles[pb, 0]
    x[:, FEATURES.index("name_labelled")] = profiles[pb, 1]
    hid = sub[table.paper[table.left[keep]]] | sub[table.paper[table.right[keep]]]
    return replace(fit_logistic(x[hid], y[hid], threshold), assign=assign)


def write_weights(model, seed):
    from .model import WEIGHTS, to_toml
    WEIGHTS.write_text(to_toml(model, f"seed {seed}"), encoding="utf-8")
    return WEIGHTS
