"""Stable person ids, and the redirects a changed decision needs.

A person's id is derived from the person's own slots, never from a counter or from other people,
so a new paper that does not join a person leaves the person's id as it was, and a reindex of the
same papers gives the same ids:

* a person with an OpenReview profile is named by the smallest such id (then ORCID, then dblp):
  it outlives any change of the papers;
* else by the earliest slot: the smallest (year, paper id, position).

When new evidence merges or splits people, some ids stop naming anyone; :func:`redirects` maps
each of those to the person(s) that now hold its slots, most slots first, so an old address
answers with its successor.
"""

from __future__ import annotations

import hashlib
from collections import Counter, defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence

import numpy as np

from .slots import DBLP, OPENREVIEW, ORCID, Slot

ANCHORS = (OPENREVIEW, ORCID, DBLP)  # namespaces that name a person, in order of preference
ID_BYTES = 6


def _digest(text: str) -> str:
    return "p" + hashlib.blake2b(text.encode("utf-8"), digest_size=ID_BYTES).hexdigest()


def person_key(slots: Sequence[Slot]) -> str:
    """What names a person made of these slots (a profile id, else the earliest slot)."""
    for prefix in ANCHORS:
        found = sorted({p for s in slots for p in s.profile_ids if p.startswith(prefix)})
        if found:
            return found[0]
    first = min(slots, key=lambda s: (s.year, s.paper_id, s.position))
    return f"{first.paper_id}#{first.position}"


def person_id(slots: Sequence[Slot]) -> str:
    """The person's id: a short digest of :func:`person_key`."""
    return _digest(person_key(slots))


def person_ids(slots: Sequence[Slot], clusters: Sequence[int],
               ids: Iterable[tuple[int, str]] | None = None) -> list[str]:
    """The person id of every slot, given each slot's cluster label (as :func:`person_id`, vectorised).

    ``ids``: the (slot index, profile id) entries to name persons by (default: every slot's own); a
    profile id two clusters hold (a source's shifted id list) names neither: each falls back to its earliest slot.
    """
    clusters = np.asarray(clusters, np.int64)
    if not len(slots):
        return []
    if ids is None:
        ids = ((i, pid) for i, slot in enumerate(slots) for pid in slot.profile_ids)
    anchored: dict[int, tuple[int, str]] = {}
    holders: dict[str, set[int]] = defaultdict(set)
    for i, pid in ids:
        rank = next((r for r, prefix in enumerate(ANCHORS) if pid.startswith(prefix)), None)
        if rank is not None:
            holders[pid].add(int(clusters[i]))
    for pid, held in holders.items():
        if len(held) == 1:
            c = next(iter(held))
            rank = next(r for r, prefix in enumerate(ANCHORS) if pid.startswith(prefix))
            anchored[c] = min(anchored.get(c, (rank, pid)), (rank, pid))
    _, papers = np.unique(np.array([s.paper_id for s in slots], dtype=object).astype(str), return_inverse=True)
    years = np.fromiter((s.year for s in slots), np.int64, len(slots))
    positions = np.fromiter((s.position for s in slots), np.int64, len(slots))
    order = np.lexsort((positions, papers, years, clusters))
    first = order[np.concatenate([[True], clusters[order][1:] != clusters[order][:-1]])]
    named = {}
    for i in first.tolist():
        c = int(clusters[i])
        named[c] = _digest(anchored[c][1] if c in anchored else f"{slots[i].paper_id}#{slots[i].position}")
    return [named[c] for c in clusters.tolist()]


def redirects(previous: Mapping[Hashable, str], current: Mapping[Hashable, str]) -> dict[str, tuple[str, ...]]:
    """Old id -> successor ids (most of its slots first), for every previous id no slot holds any more.

    Both maps go from a slot's key (paper id, position) to its person id. A merge leaves one
    successor; a split several. An id whose slots all left the corpus has none and is not listed.
    """
    alive = set(current.values())
    moved: dict[str, Counter] = defaultdict(Counter)
    for slot, old in previous.items():
        if old not in alive and slot in current:
            moved[old][current[slot]] += 1
    return {old: tuple(new for new, _ in sorted(c.items(), key=lambda kv: (-kv[1], kv[0])))
            for old, c in sorted(moved.items())}
