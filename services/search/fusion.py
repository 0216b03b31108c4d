"""Weighted reciprocal rank fusion of kNN and lexical neighbours ("papers like this", "like my text").

The core node has no RRF (x-pack ``rank-rrf``), so the fusion is ours: each list gives a
paper ``weight / (RANK_CONSTANT + rank)`` (rank from 1), a paper's score is the sum over
the lists it is in, ties broken by the best single rank, then by the first list. Ranks,
not scores: a kNN similarity (0–1) and a more_like_this BM25 score (10–100) are not on one
scale, and their ratio changes from paper to paper.

The weights were chosen on the dev split of ``bench/similar_quality.py`` (same primary
area, ICLR and NeurIPS; keyword overlap; half-abstract retrieval) and reported on its
held-out split (docs/ranking.md has the figures).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

RANK_CONSTANT = 60
"""RRF's ``k``: larger flattens the difference between rank 1 and rank 10."""
DEPTH = 50
"""Candidates each list contributes (a page deeper than this asks for more)."""


@dataclass(frozen=True)
class Weights:
    """How much each list counts."""

    semantic: float = 1.0
    lexical: float = 0.6


SIMILAR = Weights()
"""Weights of "papers like this" (kNN on the paper's vector, more_like_this on its words)."""
LIKE_TEXT = Weights()
"""Weights of "papers like my text" (kNN on the text's vector, more_like_this on the text)."""


def fuse(rankings: Sequence[tuple[float, Sequence[str]]], constant: int = RANK_CONSTANT) -> list[tuple[str, float]]:
    """``[(weight, ids best first), ...]`` → ``[(id, fused score), ...]`` best first, each id once."""
    scores: dict[str, float] = {}
    best: dict[str, tuple[int, int]] = {}
    for position, (weight, ids) in enumerate(rankings):
        for rank, paper_id in enumerate(dict.fromkeys(ids), start=1):
            scores[paper_id] = scores.get(paper_id, 0.0) + weight / (constant + rank)
            best[paper_id] = min(best.get(paper_id, (rank, position)), (rank, position))
    return sorted(scores.items(), key=lambda item: (-item[1], best[item[0]]))
