"""Fusion of kNN and lexical neighbours ("papers like this", "like my text"): normalised scores, summed.

The core node has no RRF (x-pack ``rank-rrf``) and no linear retriever, so the fusion is
ours. Each list is ``[(paper id, score), ...]`` best first; :func:`fuse` rescales each
list's scores onto one scale (:data:`METHODS`), multiplies them by the list's weight and
sums them per paper (a paper a list did not return counts 0 from it, or with ``zscore``
that list's lowest rescaled score). Ties go to the better single rank, then to the first list.

Why rescaled scores as well as ranks: how far apart two candidates are in a list says
something their ranks forget, and on ~300 papers mode=hybrid's raw sum placed same-area
neighbours better than weighted RRF (issue 21: 34.3% against 31.3%). On ~2,000 papers a split
the difference is gone: RRF, z-score and min-max sums with a lexical weight of 0.6–1 are within
0.3 point on dev, and weighted RRF (1/0.6) is the dev choice shipped in :data:`SIMILAR`. A kNN
similarity (0–1) and a more_like_this BM25 score (10–100) are not on one scale, and their
ratio changes from paper to paper, hence the per-list rescaling. ``bench/relevance/similar_quality.py``
scores every method of :data:`METHODS` with a range of weights on a dev split and reports
the shipped one on the held-out split (docs/ranking.md has the figures).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

RANK_CONSTANT = 60
"""RRF's ``k`` (method ``rrf``): larger flattens the difference between rank 1 and rank 10."""
DEPTH = 50
"""Candidates each list contributes (a page deeper than this asks for more)."""

Scored = Sequence[tuple[str, float]]
"""One list: (paper id, score) best first."""


def _minmax(scores: np.ndarray) -> np.ndarray:
    span = scores.max() - scores.min()
    return (scores - scores.min()) / span if span > 0 else np.ones_like(scores)


def _zscore(scores: np.ndarray) -> np.ndarray:
    spread = scores.std()
    return (scores - scores.mean()) / spread if spread > 0 else np.zeros_like(scores)


def _raw(scores: np.ndarray) -> np.ndarray:
    return scores


def _rrf(scores: np.ndarray) -> np.ndarray:
    return 1.0 / (RANK_CONSTANT + np.arange(1, len(scores) + 1))


METHODS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "minmax": _minmax,  # (s - min) / (max - min) within the list
    "zscore": _zscore,  # (s - mean) / std within the list
    "sum": _raw,        # the scores as they are (mode=hybrid's sum, the weights its boosts)
    "rrf": _rrf,        # 1 / (RANK_CONSTANT + rank)
}


@dataclass(frozen=True)
class Weights:
    """How the lists are fused: the rescaling (a key of :data:`METHODS`) and how much each list counts."""

    semantic: float = 1.0
    lexical: float = 0.6
    method: str = "minmax"

    def __post_init__(self) -> None:
        if self.method not in METHODS:
            raise ValueError(f"unknown fusion method {self.method!r} (one of {', '.join(METHODS)})")


SIMILAR = Weights(semantic=1.0, lexical=0.6, method="rrf")
"""Fusion of "papers like this" (kNN on the paper's vector, more_like_this on its words): the best
same-area share on the dev split of 2,074 labelled ICLR papers (40.4%; the next ten fusions of the
grid within 0.3 point), 40.9% on the held-out 1,898 against 38.8% for more_like_this (docs/ranking.md)."""
LIKE_TEXT = SIMILAR
"""Fusion of "papers like my text" (kNN on the text's vector, more_like_this on the text)."""


def fuse(rankings: Sequence[tuple[float, Scored]], method: str = "minmax") -> list[tuple[str, float]]:
    """``[(weight, [(id, score), ...] best first), ...]`` → ``[(id, fused score), ...]`` best first, each id once."""
    rescale = METHODS[method]
    totals: dict[str, float] = {}
    best: dict[str, tuple[int, int]] = {}
    floors: list[float] = []
    seen: list[dict[str, float]] = []
    for position, (weight, scored) in enumerate(rankings):
        unique = _first_each(scored)
        if not unique:
            floors.append(0.0)
            seen.append({})
            continue
        values = weight * rescale(np.asarray([s for _, s in unique], np.float64))
        floors.append(float(values.min()) if method == "zscore" else 0.0)
        seen.append({pid: float(v) for (pid, _), v in zip(unique, values)})
        for rank, (pid, _) in enumerate(unique, start=1):
            best[pid] = min(best.get(pid, (rank, position)), (rank, position))
    for pid in best:
        totals[pid] = sum(scores.get(pid, floor) for scores, floor in zip(seen, floors))
    return sorted(totals.items(), key=lambda item: (-item[1], best[item[0]]))


def _first_each(scored: Scored) -> list[tuple[str, float]]:
    """The list with each id once, at its first (best) place."""
    out: dict[str, float] = {}
    for pid, score in scored:
        out.setdefault(pid, float(score))
    return list(out.items())
