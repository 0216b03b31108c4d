"""What a conference-year's tools show (issue 33): where a review score lands, and who publishes there.

Pure: the views pass the search layer's answers in; these make the rows, charts and sentences
the pages draw. One rule runs through both: a share of fewer than
:data:`~services.search.limits.MIN_SHARE_PAPERS` papers is never shown without its count
(:func:`share`), and every share says what it is of.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import url_for

from services.search.answers.score_histogram import LandingBin, ScorePlace, accepted_only, place, score_bins
from services.search.answers.stats import TIERS, Institution, Institutions, VenueYear
from services.search.catalogue import venues
from services.search.limits import MIN_SHARE_PAPERS

from ..urls import query_url
from . import charts

# How a decision reads in a legend or a column head (side programmes read as their own name).
DECISION_LABELS = {"oral": "Oral", "spotlight": "Spotlight", "poster": "Poster", "accepted": "Accepted (no tier)",
                   charts.NOT_ACCEPTED_KEY: "Not accepted"}


def share(n: int, of: int) -> str:
    """``58% (239 of 412)``; a share of fewer than MIN_SHARE_PAPERS papers only as ``3 of 7``; ``—`` of none."""
    if not of:
        return "—"
    if of < MIN_SHARE_PAPERS:
        return f"{n:,} of {of:,}"
    return f"{n / of:.0%} ({n:,} of {of:,})"


def short_share(n: int, of: int) -> str:
    """A chart's label: ``58%``, or ``3/7`` for a bin of fewer than MIN_SHARE_PAPERS papers."""
    return f"{n / of:.0%}" if of >= MIN_SHARE_PAPERS else f"{n}/{of}"


def decision_label(key: str) -> str:
    return DECISION_LABELS.get(key) or key.capitalize()


def bin_label(b: LandingBin) -> str:
    return f"{b.lo:g}–{b.hi:g}"


@dataclass(frozen=True)
class ScoreLanding:
    """A venue-year's scores as an author reads them; ``place`` is a typed score's, when one was given."""

    venue: VenueYear
    bins: tuple[LandingBin, ...]
    tiers: tuple[str, ...]  # the tiers and side programmes present, in the histogram's order
    chart: charts.Chart
    accepted_only: bool      # the source scores accepted papers only: shares say nothing of a submission's chances
    some_rejections: bool    # the source lists only some rejected papers: shares run higher than the venue's
    place: ScorePlace | None
    scored: int

    @property
    def population(self) -> str:
        """What the scored papers are: submissions, or accepted papers only."""
        return "accepted papers" if self.accepted_only else "submissions"

    @property
    def lowest(self) -> float:
        return self.bins[0].lo

    @property
    def highest(self) -> float:
        return self.bins[-1].hi


def score_landing(venue: VenueYear, score: float | None = None) -> ScoreLanding | None:
    """The venue-year's score landing (None without review scores), placing ``score`` when given."""
    hist = venue.scores
    if hist is None or not hist.total:
        return None
    bins = score_bins(hist)
    tiers = tuple(d for d in hist.decisions if any(b.by_tier.get(d) for b in bins))
    keys = (*(t for t in tiers if t in TIERS), *(("accepted",) if any(_untiered(b) for b in bins) else ()),
            *(t for t in tiers if t not in TIERS), *((charts.NOT_ACCEPTED_KEY,) if any(_not_in(b) for b in bins) else ()))
    rows = [(bin_label(b), b.papers, {**b.by_tier, "accepted": _untiered(b), charts.NOT_ACCEPTED_KEY: _not_in(b)},
             short_share(b.accepted, b.papers)) for b in bins]
    name = f"{venues.label(venue.conference)} {venue.year}"
    chart = charts.score_bins(rows, keys, decision_label, label=f"{name}: papers by mean review score and decision")
    only_accepted = accepted_only(hist)
    return ScoreLanding(venue, bins, tiers, chart, only_accepted,
                        not only_accepted and "all_rejections" in venue.lacks,
                        place(hist, score) if score is not None else None, hist.total)


def _untiered(b: LandingBin) -> int:
    """Accepted by the main track without a tier (a plain "Accept")."""
    return b.accepted - sum(b.by_tier.get(t, 0) for t in TIERS)


def _not_in(b: LandingBin) -> int:
    """Neither in the main track nor in a side programme: rejected, withdrawn or undecided."""
    return b.papers - b.accepted - sum(n for t, n in b.by_tier.items() if t not in TIERS)


@dataclass(frozen=True)
class InstitutionsView:
    """Who publishes at a venue-year, with each institution's search link and trend."""

    data: Institutions
    tiers: tuple[str, ...]  # tier columns present (oral, spotlight, poster)
    sparks: dict[str, charts.Chart]

    @property
    def share_counted(self) -> float:
        return self.data.with_affiliations / self.data.papers if self.data.papers else 0.0

    def search_url(self, institution: Institution, tiers: tuple[str, ...] = ()) -> str:
        """The search listing exactly the papers counted (the same listed papers, this affiliation)."""
        d = self.data
        pairs = [("affiliation", institution.name), ("conference", d.conference), ("year", str(d.year)),
                 *(("status", t) for t in tiers)]
        return query_url(url_for("pages.search"), pairs)


def institutions_view(data: Institutions) -> InstitutionsView:
    everyone = (*data.by_papers, *data.by_tier)
    tiers = tuple(t for t in TIERS if any(i.by_tier.get(t) for i in everyone))
    counted = {c.year: c.with_affiliations for c in data.years}
    sparks = {i.name: charts.sparkline([(y.year, y.count, counted.get(y.year, 0)) for y in i.by_year]
                                       + [(year, 0, n) for year, n in counted.items()
                                          if year not in {y.year for y in i.by_year}],
                                       data.year, label=f"{i.name}: share of the papers per year")
              for i in everyone}
    return InstitutionsView(data, tiers, sparks)
