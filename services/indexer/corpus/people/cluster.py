"""Each block's slots into persons: profile ids first, then average-linkage clustering of the scores.

* Slots sharing a linking profile id (:data:`.slots.LINKS`) are one person for certain: their
  distance is 0, so they are joined before anything else.
* Slots that cannot be one person are kept apart: different ids of a namespace that separates
  (:data:`.slots.APART`), two slots of one paper, middle initials that differ. Their distance is
  :data:`APART_DISTANCE`, so large that any cluster holding such a pair averages above every
  threshold, whatever else it holds: a chain through unlabelled slots cannot join two profiles.
* Everything else by average linkage over 1 - probability (scipy's, on the block's condensed
  slice of the pair array), cut at the model's threshold: a slot joins a person when it is
  close to that person's slots on average, not to one of them (single linkage chains homonyms
  through one shared common co-author).
"""

from __future__ import annotations

import numpy as np
from scipy.cluster.hierarchy import linkage

from .slots import APART, LINKS
from .table import SlotTable

APART_DISTANCE = 1e9


class UnionFind:
    """Disjoint sets over 0..n-1 (path halving); a set is named by its smallest member."""

    def __init__(self, n: int):
        self.parent = list(range(n))

    def find(self, x: int) -> int:
        parent = self.parent
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(self, a: int, b: int) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)

    def labels(self) -> np.ndarray:
        return np.fromiter((self.find(i) for i in range(len(self.parent))), np.int64, len(self.parent))


def link_labels(table: SlotTable) -> np.ndarray:
    """Per row, the smallest row it shares a linking profile id with, through any chain (itself when none)."""
    sets = UnionFind(len(table.order))
    first: dict[str, int] = {}
    for row, pid in table.ids:
        if pid.startswith(LINKS):
            sets.union(first.setdefault(pid, row), row)
    return sets.labels()


def namespace_codes(table: SlotTable, prefix: str) -> np.ndarray:
    """Per row, a code of its first id of the namespace (-1 when it has none)."""
    out = np.full(len(table.order), -1, np.int64)
    codes: dict[str, int] = {}
    for row, pid in reversed(table.ids):
        if pid.startswith(prefix):
            out[row] = codes.setdefault(pid, len(codes))
    return out


def apart_pairs(table: SlotTable) -> np.ndarray:
    """Per pair: whether it cannot be one person (different separating ids, one paper, other middle initials)."""
    left, right = table.left, table.right
    out = table.paper[left] == table.paper[right]
    for prefix in APART:
        c = namespace_codes(table, prefix)
        cl, cr = c[left], c[right]
        out |= (cl >= 0) & (cr >= 0) & (cl != cr)
    text = table.middles
    none = text.index("") if "" in text else -1
    ml, mr = table.middle[left], table.middle[right]
    maybe = np.flatnonzero((ml != none) & (mr != none) & (ml != mr))
    if len(maybe):
        conflict = [not (text[a].startswith(text[b]) or text[b].startswith(text[a]))
                    for a, b in zip(ml[maybe], mr[maybe])]
        out[maybe[np.asarray(conflict, bool)]] = True
    return out


def distances(table: SlotTable, probability: np.ndarray) -> np.ndarray:
    """1 - probability per pair, 0 for linked pairs, :data:`APART_DISTANCE` for pairs kept apart."""
    distance = 1.0 - probability.astype(np.float64)
    links = link_labels(table)
    distance[links[table.left] == links[table.right]] = 0.0
    distance[apart_pairs(table)] = APART_DISTANCE
    return distance


def _cut(tree: np.ndarray, n: int, threshold: float) -> np.ndarray:
    """Flat labels of a linkage tree cut at ``threshold`` (merges no higher than it)."""
    sets = UnionFind(2 * n - 1)
    for k, (a, b, height, _) in enumerate(tree):
        if height > threshold:
            break
        sets.union(n + k, int(a))
        sets.union(n + k, int(b))
    return np.fromiter((sets.find(i) for i in range(n)), np.int64, n)


def cluster_blocks(table: SlotTable, distance: np.ndarray, threshold: float) -> np.ndarray:
    """A global cluster label per row: the smallest row of its cluster."""
    labels = np.arange(len(table.order), dtype=np.int64)
    sizes = table.sizes
    pairs_of_two = table.pair_starts[:-1][sizes == 2]
    joined = distance[pairs_of_two] <= threshold
    firsts = table.starts[:-1][sizes == 2]
    labels[firsts[joined] + 1] = firsts[joined]
    for block in np.flatnonzero(sizes >= 3):
        rows = table.rows(int(block))
        n = rows.stop - rows.start
        local = _cut(linkage(distance[table.pairs(int(block))], method="average"), n, threshold)
        labels[rows] = rows.start + local
    return labels
