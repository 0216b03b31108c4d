"""Mean review ratings of a venue-year by decision: the histogram Paper Copilot is known for,
and where a review score lands (issue 33).

One bin per half point of ``rating_avg`` (empty bins between the lowest and the highest
kept, so the axis is true to the scale). Each bin counts its papers by decision: accepted
by tier (oral, spotlight, poster, or plain "accepted"), side programmes by their name
(workshop, findings, ...), rejected (desk rejections too), withdrawn, undecided. Only papers
with a rating are counted, so the bins sum to the venue-year's papers with review scores.

*Where a score lands* reads the same bins as an author does during a review period: per bin,
its papers, how many the main track accepted and how many each tier (or side programme)
took (:func:`score_bins`); and for one typed mean, its place among the venue-year's scored
papers (:func:`place`), from every distinct mean with its count (``values``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from services.search.catalogue import catalogue

SCORE_FIELD = "rating_avg"
BIN_WIDTH = 0.5
# Display order of the decisions; a side programme's name (workshop, findings) comes after "accepted".
DECISIONS = ("oral", "spotlight", "poster", "accepted", "rejected", "withdrawn", "undecided")
# The decisions that are a main-track acceptance (a side programme's is not: "findings", "workshop").
MAIN_ACCEPTED = ("oral", "spotlight", "poster", "accepted")
NOT_ACCEPTED = ("rejected", "withdrawn", "undecided")
# Means are compared and listed to this many decimals: what a person types (6.33), not float noise.
VALUE_DECIMALS = 2


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
    # Every distinct mean (to VALUE_DECIMALS) with its papers, lowest first: a score's percentile.
    values: tuple[tuple[float, int], ...] = ()

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


def score_values_agg(buckets: int) -> dict[str, Any]:
    """The aggregation of every distinct mean rating (``values`` of :func:`shape_score_histogram`)."""
    return {"terms": {"field": SCORE_FIELD, "size": buckets}}


def shape_score_histogram(conference: str, agg: Mapping[str, Any],
                          values: Mapping[str, Any] | None = None) -> ScoreHistogram:
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
    return ScoreHistogram(SCORE_FIELD, BIN_WIDTH, tuple(bins), tuple(decisions),
                          _values((float(b["key"]), b["doc_count"]) for b in (values or {}).get("buckets", [])))


def _values(pairs: Iterable[tuple[float, int]]) -> tuple[tuple[float, int], ...]:
    """Means rounded to :data:`VALUE_DECIMALS` (float32 noise merged), with their papers, lowest first."""
    merged: dict[float, int] = {}
    for value, n in pairs:
        key = round(value, VALUE_DECIMALS)
        merged[key] = merged.get(key, 0) + n
    return tuple(sorted(merged.items()))


@dataclass(frozen=True)
class LandingBin:
    """Where the mean scores in ``[lo, hi)`` landed: ``papers`` scored there, ``accepted`` by the main
    track, and papers per tier or side programme (``by_tier``: oral, spotlight, poster, findings, ...;
    a plain "accepted" has no tier)."""

    lo: float
    hi: float
    papers: int
    accepted: int
    by_tier: dict[str, int]

    @property
    def not_accepted(self) -> int:
        return self.papers - self.accepted


def score_bins(hist: ScoreHistogram) -> tuple[LandingBin, ...]:
    """The histogram's bins as an author reads them; their papers sum to the scored papers."""
    tiers = [d for d in hist.decisions if d not in NOT_ACCEPTED and d != "accepted"]  # in display order
    return tuple(LandingBin(b.low, b.high, b.total, sum(b.counts.get(d, 0) for d in MAIN_ACCEPTED),
                            {d: b.counts[d] for d in tiers if b.counts.get(d)})
                 for b in hist.bins)


def accepted_only(hist: ScoreHistogram) -> bool:
    """Are the scored papers all accepted ones (the source gives no other paper's scores)? Then a bin's
    share accepted says nothing of a submission's chances, and a percentile places among accepted papers."""
    return bool(hist.total) and not any(b.counts.get(d) for b in hist.bins for d in NOT_ACCEPTED)


@dataclass(frozen=True)
class ScorePlace:
    """One mean score among a venue-year's scored papers: how many scored lower and the same, and its bin
    (None when no bin holds it: below the lowest mean's bin or above the highest's)."""

    score: float
    scored: int
    below: int
    same: int
    bin: LandingBin | None

    @property
    def percentile(self) -> float:
        """The share of scored papers with a lower mean, in percent."""
        return 100 * self.below / self.scored if self.scored else 0.0

    @property
    def above(self) -> int:
        return self.scored - self.below - self.same


def place(hist: ScoreHistogram, score: float) -> ScorePlace:
    """Where ``score`` (a mean rating, compared to :data:`VALUE_DECIMALS`) lands in ``hist``."""
    score = round(score, VALUE_DECIMALS)
    below = sum(n for value, n in hist.values if value < score)
    same = sum(n for value, n in hist.values if value == score)
    found = next((b for b in score_bins(hist) if b.lo <= score < b.hi), None)
    return ScorePlace(score, sum(n for _, n in hist.values), below, same, found)
