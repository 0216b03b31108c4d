"""The whole decision: slots in, a person id per slot out.

Score every within-block pair (:mod:`.model` over :mod:`.evidence`), join slots to the block's
profile-anchored persons where the model says so (:mod:`.anchor`), cluster each block (:mod:`.cluster`), join the persons of different blocks that share a linking profile id (an
IEEE id behind "J.S. Albus" and "James S. Albus"), apply the operator's overrides
(:mod:`.curation`) and name each person (:mod:`.ids`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from .anchor import ASSIGN_BY, anchor_scores, anchored_distances, anchors_of, assign
from .cluster import APART_DISTANCE, UnionFind, cluster_blocks, distances
from .curation import Overrides, apply_overrides
from .ids import person_ids
from .model import Model, default_model
from .slots import LINKS, OPENREVIEW, Slot
from .table import SlotTable, build_table


@dataclass(frozen=True)
class Decision:
    """A person per slot, in the order of the slots given."""

    slots: Sequence[Slot]
    clusters: np.ndarray            # cluster label per slot
    persons: list[str]              # person id per slot
    table: SlotTable = field(repr=False)
    model: Model = field(repr=False)
    profiles: np.ndarray = field(repr=False)            # OpenReview profiles per block
    names: dict[str, str] = field(default_factory=dict)  # display names the overrides set
    skipped: tuple[str, ...] = ()                        # overrides that named nothing

    def by_person(self) -> dict[str, list[int]]:
        """Person id -> indices of its slots."""
        out: dict[str, list[int]] = {}
        for i, pid in enumerate(self.persons):
            out.setdefault(pid, []).append(i)
        return out


def block_profiles(table: SlotTable) -> np.ndarray:
    """(blocks, 2): per block, how many OpenReview profiles its slots show, and how many of its slots carry one."""
    seen: dict[int, set[str]] = {}
    labelled: set[int] = set()
    for row, pid in table.ids:
        if pid.startswith(OPENREVIEW):
            seen.setdefault(int(table.block[row]), set()).add(pid)
            labelled.add(row)
    out = np.zeros((table.blocks, 2), np.int64)
    for block, ids in seen.items():
        out[block, 0] = len(ids)
    np.add.at(out[:, 1], table.block[sorted(labelled)], 1)
    return out


def join_linked(table: SlotTable, labels: np.ndarray) -> np.ndarray:
    """Clusters of different blocks that share a linking profile id become one."""
    sets = UnionFind(len(labels))
    first: dict[str, int] = {}
    for row, pid in table.ids:
        if pid.startswith(LINKS):
            sets.union(first.setdefault(pid, int(labels[row])), int(labels[row]))
    return np.fromiter((sets.find(int(c)) for c in labels), np.int64, len(labels))


def decide(slots: Sequence[Slot], vectors: np.ndarray | None = None, model: Model | None = None,
           overrides: Overrides | None = None) -> Decision:
    """A person for every slot; ``vectors`` holds the embeddings the slots' ``vector`` rows point at."""
    model = model or default_model()
    table = build_table(slots)
    profiles = block_profiles(table)
    probability = 1.0 / (1.0 + np.exp(-np.clip(model.pair_logits(table, vectors, profiles), -30, 30)))
    distance = distances(table, probability)
    if model.assign is not None:
        anchor = anchors_of(table)
        scores = anchor_scores(table, probability, distance >= APART_DISTANCE, anchor)
        joined = assign(scores, len(anchor), model.assign, ASSIGN_BY)
        distance = anchored_distances(table, distance, anchor, joined, rest_apart=False)
    rows = join_linked(table, cluster_blocks(table, distance, model.threshold))
    clusters = np.empty(len(slots), np.int64)
    clusters[table.order] = np.unique(rows, return_inverse=True)[1]
    agreeing = [(int(table.order[row]), pid) for row, pid in table.ids]
    applied = apply_overrides(slots, clusters, overrides or Overrides(),
                              lambda s, c: person_ids(s, c, agreeing))
    return Decision(slots, applied.clusters, applied.persons, table, model, profiles, applied.names,
                    applied.skipped)
