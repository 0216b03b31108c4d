"""The prominence prior: how much a paper stood out at its own venue-year, as one stored number.

Why: a known-item query often matches several papers about equally well — a dozen titles
start with "Direct Preference Optimization" — and people then mean the paper the field
noticed. The sources say who was noticed in several ways, none of them everywhere: the tier
(award, oral, spotlight), the reviewers' mean rating, citation counts, released code. This
module turns whichever a paper has into one number in [0, 1], written at ingest into the
``prominence`` field, which ranking reads through a bounded ``function_score``
(:func:`services.search.query.ranking.ranked`): it orders papers that match about equally well
and cannot lift a weak match over a strong one. ``docs/ranking.md`` has the formula.

Per venue-year: a rating or a citation count counts by its mid-rank among the papers of
the same venue-year (a :class:`VenueScale`, made from that venue-year's list at ingest), so
a 1–10 and a 1–5 rating scale, or a 2015 and a 2024 citation count, mean the same. A
signal the source does not have counts as the middle (0.5), so a venue without ratings,
tiers or citations sits in the middle rather than below the venues that have them.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .model import Paper

NEUTRAL = 0.5
# Each signal's share of the prior (they sum to 1).
WEIGHTS = {"tier": 0.35, "rating": 0.25, "citations": 0.30, "code": 0.10}
# The tier signal per facet status; an award beats every status. Accepted without a
# tier ("accept", "poster" where every paper is a poster) is the ordinary middle.
AWARD = 1.0
TIERS = {"oral": 0.9, "spotlight": 0.75, "poster": 0.5, "accept": 0.5, "unknown": 0.5,
         "findings": 0.4, "short": 0.4, "demo": 0.4, "workshop": 0.35, "reject": 0.2, "withdrawn": 0.15}
MENTIONS_TOP = 300  # later papers here mentioning a name it introduced: the citations signal's top, where
                    # the source counts no citations (log-scaled: 1 mention 0.56, 20 0.77, 300 1.0)
SCALE_POINTS = 101  # quantiles kept per signal: a venue-year's scale is a few hundred numbers at most
DECIMALS = 2  # stored rounded: a list that grows by a few papers rarely changes anyone's prior


@dataclass(frozen=True)
class VenueScale:
    """The distribution of ratings and citation counts in one venue-year, as sorted quantiles."""

    ratings: tuple[float, ...] = ()
    citations: tuple[float, ...] = ()

    @classmethod
    def of(cls, ratings: Iterable[float | None], citations: Iterable[int | None]) -> VenueScale:
        return cls(_quantiles(ratings), _quantiles(citations))

    def to_json(self) -> dict[str, list[float]]:
        return {"ratings": list(self.ratings), "citations": list(self.citations)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> VenueScale:
        data = data or {}
        return cls(tuple(float(v) for v in data.get("ratings") or ()),
                   tuple(float(v) for v in data.get("citations") or ()))


def scale_key(conference: str, year: int) -> str:
    """How a venue-year's scale is keyed where it travels as JSON (an ingest batch)."""
    return f"{conference}|{year}"


def _quantiles(values: Iterable[float | int | None]) -> tuple[float, ...]:
    ordered = sorted(float(v) for v in values if v is not None)
    if len(ordered) <= SCALE_POINTS:
        return tuple(ordered)
    last = len(ordered) - 1
    return tuple(ordered[round(i * last / (SCALE_POINTS - 1))] for i in range(SCALE_POINTS))


def mid_rank(value: float | None, table: tuple[float, ...]) -> float:
    """Where ``value`` falls in a sorted table, in [0, 1] (ties share their middle); NEUTRAL when unknown."""
    if value is None or not table:
        return NEUTRAL
    below = bisect.bisect_left(table, value)
    upto = bisect.bisect_right(table, value)
    return (below + upto) / (2 * len(table))


def mention_rank(mentions: int | None) -> float:
    """The corpus's own citation count: NEUTRAL for none, up to 1 at :data:`MENTIONS_TOP` later mentions.

    Only upward: most papers introduced no name anyone repeats, and they stay in the middle."""
    if not mentions:
        return NEUTRAL
    return NEUTRAL + (1 - NEUTRAL) * min(1.0, math.log1p(mentions) / math.log1p(MENTIONS_TOP))


def signals(paper: Paper, scale: VenueScale | None) -> dict[str, float]:
    """Each signal of ``paper`` in [0, 1], NEUTRAL where its source has nothing to say."""
    scale = scale or VenueScale()
    return {
        "tier": AWARD if paper.award else TIERS.get(paper.status, NEUTRAL),
        "rating": mid_rank(paper.rating_avg, scale.ratings),
        "citations": (mid_rank(paper.citations, scale.citations) if paper.citations is not None
                      else mention_rank(paper.mentions)),
        "code": 1.0 if paper.links.code or paper.links.project else NEUTRAL,
    }


def prominence(paper: Paper, scale: VenueScale | None = None) -> float:
    """The prior of ``paper`` in [0, 1]: the weighted signals, rounded to :data:`DECIMALS`."""
    values = signals(paper, scale)
    return round(sum(WEIGHTS[name] * value for name, value in values.items()), DECIMALS)
