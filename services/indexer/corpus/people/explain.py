"""Why two slots are one person or two: the evidence, each feature's pull, the score and the verdict.

For the operator's CLI (and for anyone checking a decision by hand): a decision is never a
black box. The pair's probability is the model's (:mod:`.model`), but the verdict is the
clustering's, which weighs each slot against the others of its person (average linkage), so
both are given: a pair scored low may still be one person through the rest of its papers.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .cluster import apart_pairs, link_labels
from .decide import Decision
from .evidence import pair_features
from .slots import LINKS

SlotKey = tuple[str, int]


@dataclass(frozen=True)
class Explanation:
    same_person: bool
    reason: str                                   # what decided: an id, a rule, or the score
    probability: float | None = None              # the pair's score, when the pair was scored
    features: dict[str, float] = field(default_factory=dict)
    contributions: dict[str, float] = field(default_factory=dict)   # weight × value, the logit's parts
    intercept: float = 0.0

    def to_text(self) -> str:
        lines = [f"{'same person' if self.same_person else 'two persons'}: {self.reason}"]
        if self.probability is not None:
            lines.append(f"pair score {self.probability:.3f}; the logit's parts (value, weight × value):")
            lines.append(f"  {'intercept':16s} {'':>9s} {self.intercept:+8.3f}")
            for name, value in self.features.items():
                lines.append(f"  {name:16s} {value:9.3f} {self.contributions[name]:+8.3f}")
        return "\n".join(lines)


def explain(decision: Decision, a: SlotKey, b: SlotKey, vectors: np.ndarray | None = None) -> Explanation:
    """The evidence and the score behind joining or separating slots ``a`` and ``b`` (paper id, position)."""
    index = {s.key: i for i, s in enumerate(decision.slots)}
    for key in (a, b):
        if key not in index:
            raise KeyError(f"no slot {key[0]}#{key[1]}")
    ia, ib = index[a], index[b]
    same = bool(decision.clusters[ia] == decision.clusters[ib])
    table = decision.table
    ra, rb = int(table.row_of[ia]), int(table.row_of[ib])
    block = int(np.searchsorted(table.starts, ra, side="right") - 1)
    rows = table.rows(block)
    if not rows.start <= rb < rows.stop:
        shared = sorted(set(p for p in decision.slots[ia].profile_ids if p.startswith(LINKS))
                        & set(p for p in decision.slots[ib].profile_ids if p.startswith(LINKS)))
        reason = ("names of two blocks, joined through their persons' profile ids" if same else
                  f"names of two blocks ({table.keys[block]!r} and another): never compared")
        return Explanation(same, reason + (f" (both {shared[0]})" if shared else ""))
    features = pair_features(table, vectors, decision.profiles, ra, rb)
    values = np.array(list(features.values()), np.float32)
    probability = float(decision.model.probability(values[None, :])[0])
    contributions = decision.model.contributions(values)
    links = link_labels(table)
    if links[ra] == links[rb]:
        reason = "one profile id"
    elif apart_pairs(table)[table.pair_index(ra, rb)]:
        reason = ("joined by an override despite a rule" if same else
                  "kept apart by a rule: different profile ids, one paper, or other middle initials")
    else:
        reason = f"the clustering of their block's scores (threshold: average distance {decision.model.threshold:g})"
    return Explanation(same, reason, probability, features, contributions, decision.model.intercept)
