"""Anchored assignment: a slot joins a profile-anchored person by its evidence against the whole person.

A block's slots that carry an OpenReview profile (and the slots linked to them by any linking id,
:func:`.cluster.link_labels`) are persons already: its *anchors*. Every other slot of the block is
scored against each anchor as a whole, from its pairs with the anchor's slots (:func:`anchor_scores`),
and joins the best one when that score clears the model's ``assign`` threshold (:func:`assign`). What
joins nothing is clustered as before, by average linkage with everything (:func:`anchored_distances`;
keeping it apart from every anchored person, ``rest_apart``, measured precision 0.878 -> 0.899 but recall
0.901 -> 0.870 on names with >= 2 profiles, and single-profile names' F1 0.999 -> 0.992: most slots
that match no anchor slot by slot are still the anchor's person).

Why not average linkage over everything: average linkage merges two *clusters* by their mean pair,
so a cluster of unlabelled slots that grew together (a common co-author, a shared venue) joins a
profile's person as a group even when half of it is someone else, and the order of merges decides.
An anchor is a fixed target: each slot is compared with it on its own, so one wrong slot never drags
others with it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .cluster import APART_DISTANCE, link_labels, namespace_codes
from .slots import OPENREVIEW
from .table import SlotTable

NONE = -1
# How the decision scores a slot against an anchor: the mean of its best TOP pairs with the anchor's slots.
# Measured on seed 1 (bench/corpus/people.py, names with >= 2 profiles, B3 F1; average linkage alone 0.884):
# "top" at 0.8 0.890, at 0.9 0.888; the mean over all the anchor's slots ("mean") at 0.5 0.873, 0.7 0.879,
# 0.9 0.883: a person's papers are of several kinds, and a slot like one kind of them is theirs.
ASSIGN_BY = "top"


def anchors_of(table: SlotTable) -> np.ndarray:
    """Per row, its anchor (the smallest row of its linked set) when that set holds an OpenReview id, else -1."""
    links = link_labels(table)
    profiled = np.zeros(len(links), bool)
    profiled[links[namespace_codes(table, OPENREVIEW) >= 0]] = True
    return np.where(profiled[links], links, NONE)


@dataclass(frozen=True)
class AnchorScores:
    """One entry per (unanchored row, anchor of its block) with at least one pair between them."""

    row: np.ndarray          # the unanchored row
    anchor: np.ndarray       # the anchor (its smallest row)
    mean: np.ndarray         # mean pair probability over the anchor's slots
    top: np.ndarray          # mean of the best TOP pair probabilities (fewer when the anchor is smaller)
    size: np.ndarray         # the anchor's slots in this block
    apart: np.ndarray        # some pair of the two is kept apart (one paper, other middle initials)


TOP = 3


def anchor_scores(table: SlotTable, probability: np.ndarray, apart: np.ndarray, anchor: np.ndarray
                  ) -> AnchorScores:
    """Every unanchored row's evidence against every anchor of its block, from their pairs."""
    al, ar = anchor[table.left], anchor[table.right]
    mixed = np.flatnonzero((al >= 0) != (ar >= 0))
    left_anchored = al[mixed] >= 0
    row = np.where(left_anchored, table.right[mixed], table.left[mixed]).astype(np.int64)
    target = np.where(left_anchored, al[mixed], ar[mixed]).astype(np.int64)
    p = probability[mixed].astype(np.float64)
    if not len(mixed):
        empty = np.zeros(0, np.int64)
        return AnchorScores(empty, empty, np.zeros(0), np.zeros(0), empty, np.zeros(0, bool))
    key = row * len(anchor) + target
    # order by key, then by probability descending within a key: the first TOP of each run are its best
    order = np.lexsort((-p, key))
    key, p, kept_apart = key[order], p[order], apart[mixed][order]
    starts = np.flatnonzero(np.concatenate([[True], key[1:] != key[:-1]]))
    ends = np.concatenate([starts[1:], [len(key)]])
    count = ends - starts
    total = np.add.reduceat(p, starts)
    rank = np.arange(len(key)) - np.repeat(starts, count)
    best = np.where(rank < TOP, p, 0.0)
    top = np.add.reduceat(best, starts) / np.minimum(count, TOP)
    return AnchorScores(row=key[starts] // len(anchor), anchor=key[starts] % len(anchor), mean=total / count,
                        top=top, size=count, apart=np.logical_or.reduceat(kept_apart, starts))


def assign(scores: AnchorScores, rows: int, threshold: float, how: str = "mean") -> np.ndarray:
    """Per row, the anchor it joins (-1: none): its best-scoring anchor not kept apart, if it clears ``threshold``."""
    value = {"mean": scores.mean, "top": scores.top, "blend": 0.5 * (scores.mean + scores.top)}[how]
    value = np.where(scores.apart, -1.0, value)
    out = np.full(rows, NONE, np.int64)
    if not len(value):
        return out
    order = np.lexsort((value, scores.row))  # per row ascending: the last of each row's run is its best
    last = np.flatnonzero(np.concatenate([scores.row[order][1:] != scores.row[order][:-1], [True]]))
    pick = order[last]
    ok = value[pick] >= threshold
    out[scores.row[pick[ok]]] = scores.anchor[pick[ok]]
    return out


def anchored_distances(table: SlotTable, distance: np.ndarray, anchor: np.ndarray, joined: np.ndarray,
                       rest_apart: bool = True) -> np.ndarray:
    """The pair distances with the assignment fixed: a joined row is at 0 from its anchor's slots and apart from
    every other anchor's; an unjoined row of a block with anchors is apart from every anchored slot (``rest_apart``)."""
    person = np.where(anchor >= 0, anchor, joined)
    pl, pr = person[table.left], person[table.right]
    out = distance.copy()
    both = (pl >= 0) & (pr >= 0)
    out[both & (pl == pr) & (out < APART_DISTANCE)] = 0.0
    out[both & (pl != pr)] = APART_DISTANCE
    if rest_apart:
        out[(pl >= 0) != (pr >= 0)] = APART_DISTANCE
    return out
