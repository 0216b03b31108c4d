"""Mean review ratings of a venue-year by decision: the histogram Paper Copilot is known for.

One bin per half point of ``rating_avg`` (empty bins between the lowest and the highest
kept, so the axis is true to the scale). Each bin counts its papers by decision: accepted
by tier (oral, spotlight, poster, or plain "accepted"), side programmes by their name
(workshop, findings, ...), rejected (desk rejections too), withdrawn, undecided. Only papers
with a rating are counted, so the bins sum to the venue-year's papers with review scores.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .catalogue import catalogue

SCORE_FIELD = "rating_avg"
BIN_WIDTH = 0.5
# Display order of the decisions; a side programme's name (workshop, findings) comes after "accepted".
DECISIONS = ("oral", "spotlight", "poster", "accepted", "rejected", "withdrawn", "undecided")


@dataclass(frozen=True)
class ScoreBin:
    """Papers whose mean rating is in ``[low, high)``, by decision (decisions without papers left out)."""

    low: float
    high: float
    counts: dict[str, int]

    @property
    def total(self) -> int:
        return sum(self.counts.values())


@dataclass(frozen=True)
class ScoreHistogram:
    field: str  # the score binned (``rating_avg``)
    width: float
    bins: tuple[ScoreBin, ...]
    decisions: tuple[str, ...]  # the decisions present, in display order

    @property
    def total(self) -> int:
        return sum(b.total for b in self.bins)

    def by_decision(self) -> dict[str, int]:
        """Papers with a rating per decision, over all bins."""
        return {d: sum(b.counts.get(d, 0) for b in self.bins) for d in self.decisions}


def decision(conference: str, raw_status: str) -> str:
    """How a raw status reads in the histogram: a tier, "accepted", a side programme, rejected, withdrawn."""
    cat = catalogue()
    name = cat.outcome_name(conference, raw_status)
    outcome = cat.statuses.outcomes[name]
    if outcome.accepted:
        return outcome.tier or "accepted"
    if name == "withdrawn":
        return "withdrawn"
    return "rejected" if outcome.decided else "undecided"


def score_histogram_agg(buckets: int) -> dict[str, Any]:
    """The aggregation :func:`shape_score_histogram` reads: rating bins, each by raw status."""
    return {"histogram": {"field": SCORE_FIELD, "interval": BIN_WIDTH, "min_doc_count": 0},
            "aggs": {"statuses": {"terms": {"field": "status_raw", "size": buckets, "missing": ""}}}}


def shape_score_histogram(conference: str, agg: Mapping[str, Any]) -> ScoreHistogram:
    bins = []
    present: set[str] = set()
    for bucket in agg.get("buckets", []):
        counts: dict[str, int] = {}
        for status in bucket["statuses"]["buckets"]:
            name = decision(conference, status["key"])
            counts[name] = counts.get(name, 0) + status["doc_count"]
        present.update(counts)
        low = float(bucket["key"])
        bins.append(ScoreBin(low, low + BIN_WIDTH, counts))
    order = {d: i for i, d in enumerate(DECISIONS)}
    decisions = sorted(present, key=lambda d: (order.get(d, order["accepted"] + 0.5), d))
    return ScoreHistogram(SCORE_FIELD, BIN_WIDTH, tuple(bins), tuple(decisions))
