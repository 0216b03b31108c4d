"""What speaks for or against two slots of one block being one person: a feature per pair.

Each feature is computed for every within-block pair at once (:mod:`.table` lays the pairs
out), as one float32 array, so the model can sum weighted features without ever holding a
pairs × features matrix (20M × 13 floats for the full corpus). :func:`features` yields them one
by one; :func:`pair_features` gives one pair's, for :mod:`.explain`.

The evidence (its measured weights are in ``weights.toml``):

* shared co-authors, each weighted by its name's rarity (idf over the corpus: sharing "Maosong
  Sun" says more than sharing "Wei Wang"), and their plain count;
* the same affiliation (folded parts), and whether both slots have one at all;
* the same e-mail domain, where known;
* the papers' embedding cosine, and the overlap (Jaccard) of their topics;
* the same venue; the gap between their years;
* how common the name is: its slots in the corpus, how many other names share its first part and
  its last part ("wei", "wang": thousands; "sergey", "levine": a handful), and how many OpenReview
  profiles its labelled slots already show against how many labelled slots there are: the prior
  that two slots of "Wei Wang" are one person is low, of "Sergey Levine" high.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from .table import SlotTable, shared

FEATURES = ("coauthor_idf", "coauthor_n", "aff_same", "aff_both", "domain_same", "domain_both", "cosine",
            "vectors_both", "topics_jaccard", "venue_same", "year_gap", "name_size", "name_profiles",
            "name_labelled", "name_common")
# Features that are log-compressed before scoring (counts and sums with long tails).
LOGGED = ("coauthor_idf", "coauthor_n", "year_gap", "name_size", "name_profiles", "name_labelled", "name_common")
BLAS_BLOCK = 48   # blocks at least this large take their cosines from one matrix product, smaller ones per pair
CHUNK = 1 << 20


def _cosines(table: SlotTable, vectors: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    left, right = table.left, table.right
    out = np.zeros(len(left), np.float32)
    if vectors is None:
        return out, out.copy()
    vl, vr = table.vector[left], table.vector[right]
    both = (vl >= 0) & (vr >= 0)
    sizes = table.sizes
    small = np.repeat(sizes < BLAS_BLOCK, np.diff(table.pair_starts))
    for start in range(0, len(left), CHUNK):
        part = slice(start, start + CHUNK)
        pick = np.flatnonzero(small[part] & both[part]) + start
        if len(pick):
            a = vectors[vl[pick]].astype(np.float32, copy=False)
            b = vectors[vr[pick]].astype(np.float32, copy=False)
            out[pick] = np.einsum("ij,ij->i", a, b)
    for block in np.flatnonzero(sizes >= BLAS_BLOCK):
        rows = table.rows(int(block))
        v = np.zeros((rows.stop - rows.start, vectors.shape[1]), np.float32)
        ok = table.vector[rows] >= 0
        v[ok] = vectors[table.vector[rows][ok]]
        i, j = np.triu_indices(len(v), k=1)
        out[table.pairs(int(block))] = (v @ v.T)[i, j]
    return out, both.astype(np.float32)


def features(table: SlotTable, vectors: np.ndarray | None, profiles: np.ndarray) -> Iterator[tuple[str, np.ndarray]]:
    """``(name, per-pair values)`` for each of :data:`FEATURES`, in order; ``profiles``: per block, its distinct
    OpenReview profiles and its slots that carry one (:func:`.decide.block_profiles`)."""
    left, right = table.left, table.right
    yield "coauthor_idf", shared(table, table.coauthors, table.idf)
    yield "coauthor_n", shared(table, table.coauthors)
    yield "aff_same", (shared(table, table.affiliations) > 0).astype(np.float32)
    has = table.has_affiliation
    yield "aff_both", (has[left] & has[right]).astype(np.float32)
    dl, dr = table.domain[left], table.domain[right]
    known = (dl >= 0) & (dr >= 0)
    yield "domain_same", (known & (dl == dr)).astype(np.float32)
    yield "domain_both", known.astype(np.float32)
    cosine, both = _cosines(table, vectors)
    yield "cosine", cosine
    yield "vectors_both", both
    tl, tr = table.topics[left], table.topics[right]
    inter = np.bitwise_count(tl & tr).astype(np.float32)
    union = np.bitwise_count(tl | tr).astype(np.float32)
    yield "topics_jaccard", np.divide(inter, union, out=np.zeros_like(inter), where=union > 0)
    yield "venue_same", (table.venue[left] == table.venue[right]).astype(np.float32)
    yield "year_gap", np.abs(table.year[left] - table.year[right]).astype(np.float32)
    pair_block = np.repeat(np.arange(table.blocks), np.diff(table.pair_starts))
    yield "name_size", table.sizes[pair_block].astype(np.float32)
    yield "name_profiles", profiles[pair_block, 0].astype(np.float32)
    yield "name_labelled", profiles[pair_block, 1].astype(np.float32)
    yield "name_common", (table.given * table.surname)[pair_block].astype(np.float32)


def feature_matrix(table: SlotTable, vectors: np.ndarray | None, profiles: np.ndarray,
                   keep: np.ndarray | None = None) -> np.ndarray:
    """(pairs, F) features of the pairs ``keep`` selects (all when None): for learning and explaining."""
    columns = [values if keep is None else values[keep] for _, values in features(table, vectors, profiles)]
    return np.stack(columns, axis=1)


def pair_features(table: SlotTable, vectors: np.ndarray | None, profiles: np.ndarray, row_a: int, row_b: int
                  ) -> dict[str, float]:
    """One pair's features, by name (computes its block's; for :mod:`.explain`)."""
    index = table.pair_index(row_a, row_b)
    return dict(zip(FEATURES, map(float, feature_matrix(table, vectors, profiles, np.array([index]))[0])))
