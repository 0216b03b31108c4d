"""Person ids that outlive new papers: each person keeps the id its places held before, where it can.

The decision names a person from its own places (:func:`.ids.person_id`: a profile id, else the
earliest place), which is stable while a person only gains papers of later years. But an older paper
that joins a person (a venue's back catalogue ingested later) would change the earliest place, and so
the id; and a person split in two must leave its id to one of them. So the previous run's ids are the
first choice: every person claims the previous id most of its places held, the strongest claims are
served first, and an id two people claim (a split) goes to the one holding more of its places. A
person with no previous id free gets its derived one. What no person keeps any more is retired, and
:func:`.ids.redirects` says where its places went.
"""

from __future__ import annotations

import hashlib
from collections import Counter, defaultdict
from collections.abc import Hashable, Mapping, Sequence

from .slots import Slot


def stable_ids(slots: Sequence[Slot], clusters: Sequence[int], derived: Sequence[str],
               previous: Mapping[Hashable, str]) -> list[str]:
    """A person id per slot (in ``slots`` order). ``derived``: the decision's own id per slot (each person's
    from its places, :mod:`.ids`); ``previous``: each slot key's id from the last run."""
    members: dict[int, list[int]] = defaultdict(list)
    for i, cluster in enumerate(clusters):
        members[int(cluster)].append(i)
    claims = []  # (places held, cluster, previous id)
    for cluster, held in members.items():
        counts = Counter(previous[slots[i].key] for i in held if slots[i].key in previous)
        claims += [(n, cluster, old) for old, n in counts.items()]
    named: dict[int, str] = {}
    taken: set[str] = set()
    for _, cluster, old in sorted(claims, key=lambda c: (-c[0], c[2], c[1])):
        if cluster not in named and old not in taken:
            named[cluster] = old
            taken.add(old)
    for cluster in sorted(set(members) - set(named)):
        new = own = derived[members[cluster][0]]
        attempt = 1
        while new in taken:  # a derived id another person kept from the last run: derive again
            attempt += 1
            new = "p" + hashlib.blake2b(f"{own}#{attempt}".encode(), digest_size=6).hexdigest()
        named[cluster] = new
        taken.add(new)
    return [named[int(c)] for c in clusters]
