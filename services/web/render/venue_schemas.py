"""The JSON answers about one venue-year: its figures (decisions, review scores, institutions) and its map.

Apart from :mod:`.schemas` (papers and searches) because they answer a different question:
not "which papers" but "what does this venue-year look like", read by the venue, scores,
institutions and map pages as well as the API. Same rules: every field present, so required.
"""

from __future__ import annotations

from datetime import date
from typing import Annotated, Literal

from pydantic import Field

from services.search.answers.score_histogram import VALUE_DECIMALS
from services.search.answers.stats import LACKS, MAX_CREDIBLE_RATE
from services.search.limits import TOP_INSTITUTIONS, TOP_TIERED_INSTITUTIONS

from .schemas import Answer, Count, Kind, YearCount


class Lack(Answer):
    code: Literal[tuple(LACKS)]  # type: ignore[valid-type]
    label: str


class Coverage(Answer):
    """Records of the venue-year having each kind of data."""

    abstracts: Count
    affiliations: Count
    citations: Count
    reviews: Count = Field(description="Records with a mean review rating (the score histogram counts these).")
    code: Count


class ScoreBin(Answer):
    low: float
    high: float
    total: Count
    counts: dict[str, Count] = Field(description="Papers of this bin by decision (decisions without papers left out).")


class ScoreHistogram(Answer):
    score: str = Field(description="The score binned: the mean review rating (rating_avg).")
    bin_width: float
    total: Count = Field(description="Papers with a rating; the bins sum to it.")
    decisions: list[str] = Field(
        description="The decisions present, in display order: tiers, accepted, side programmes, rejected "
                    "(desk rejections too), withdrawn, undecided.")
    by_decision: dict[str, Count]
    bins: list[ScoreBin] = Field(description="Lowest first; empty bins between the lowest and the highest kept.")


class LandingBin(Answer):
    """Where the mean scores in [lo, hi) landed."""

    lo: float
    hi: float
    papers: Count
    accepted: Count = Field(description="Papers of the bin the main track accepted (any tier, or none given).")
    by_tier: dict[str, Count] = Field(
        description="Papers per tier (oral, spotlight, poster) and side programme (findings, workshop, ...); "
                    "a plain accept has no tier. Tiers without papers left out.")


class ScoreValue(Answer):
    score: float = Field(description=f"A mean review score, to {VALUE_DECIMALS} decimals.")
    papers: Count


class Institution(Answer):
    name: str = Field(description="The institution's display form (affiliation spellings merged by the alias table).")
    papers: Count = Field(description="Its listed papers at the venue-year (rejected and withdrawn left out).")
    by_tier: dict[str, Count] = Field(description="Of those, per tier (oral, spotlight, poster); {} without tiers.")
    by_year: list[YearCount] = Field(description="Its listed papers at the venue in each year (the trend).")


class InstitutionYear(Answer):
    year: int
    papers: Count = Field(description="Listed papers of the venue that year.")
    with_affiliations: Count = Field(description="Of those, papers whose source gives affiliations (the ones counted).")


class Venue(Answer):
    conference: str
    conference_name: str
    kind: Kind = Field(description="conference, journal or workshop: a journal has no submissions or rate")
    year: int
    papers: Count
    by_status: dict[str, Count] = Field(
        description="Records per raw status as the source names them (rejected and withdrawn included).")
    by_outcome: dict[str, Count] = Field(description="Records per outcome as the catalogue reads the raw statuses.")
    accepted: Count
    oral: Count
    spotlight: Count
    poster: Count
    rejected: Count
    withdrawn: Count
    decided: Count = Field(description="Main-track records with an outcome: accepted, rejected (desk rejections too) "
                                       "and withdrawn.")
    undecided: Count = Field(description="Main-track records with no decision (nor withdrawn): in no count of the rate.")
    other_programmes: Count
    rejections_listed: bool
    rejections_complete: bool = Field(description="The listed rejections look like all of them: false when they "
                                                   f"leave over {MAX_CREDIBLE_RATE:.0%} of decided papers accepted (the "
                                                   "rate is then the listed decisions', not the venue's).")
    submissions: Count | None = Field(
        description="Main-track submissions: accepted, rejected (desk rejections too) and withdrawn, the acceptance "
                    "rate's denominator; null when the source lists no rejections, and for a journal.")
    acceptance_rate: Annotated[float, Field(ge=0, le=1)] | None = Field(
        description="accepted / decided, that is accepted / submissions (acceptance_rate_definition); null when the "
                    "source lists no "
                    "rejections, and for a journal.")
    acceptance_rate_definition: str
    lacks: list[Lack] = Field(description="What the source has none of for this venue-year.")
    coverage: Coverage | None = Field(description="What the source has, counted; null when not counted.")
    score_histogram: ScoreHistogram | None = Field(
        description="Mean review ratings by decision; null when no paper of the venue-year has review scores.")
    scores_taken: date | None = Field(
        description="The day the source read these review scores, where that was before the decisions (they are "
                    "not the final, post-rebuttal values); null otherwise.")
    score_bins: list[LandingBin] | None = Field(
        description="Where a mean review score lands: per half-point bin, its papers, how many the main track "
                    "accepted and per tier; the papers sum to the papers with review scores. Null without scores.")
    score_values: list[ScoreValue] | None = Field(
        description="Every distinct mean review score with its papers, lowest first (a score's percentile is the "
                    "share of papers below it). Null without scores.")
    scores_accepted_only: bool = Field(
        description="Only accepted papers have scores in the source: a bin's share accepted says nothing of a "
                    "submission's chances, and a percentile places among accepted papers.")
    institutions: list[Institution] = Field(
        description=f"The top {TOP_INSTITUTIONS} institutions by listed papers (ties by name); only papers whose "
                    "source gives affiliations count (institutions_counted).")
    institutions_by_tier: list[Institution] = Field(
        description=f"The top {TOP_TIERED_INSTITUTIONS} institutions by oral and spotlight papers; empty where "
                    "the venue-year has none.")
    institutions_counted: InstitutionYear = Field(
        description="The venue-year's listed papers, and how many of them have affiliations (the ones counted).")
    institution_years: list[InstitutionYear] = Field(
        description="The same per year of the venue, for reading an institution's by_year as a share.")


class MapPoint(Answer):
    id: str = Field(description="The paper's id (its page: /papers/{id}).")
    x: Annotated[float, Field(ge=0, le=1)] = Field(description="From the left, 0 to 1.")
    y: Annotated[float, Field(ge=0, le=1)] = Field(description="From the top, 0 to the map's height.")
    cluster: Count = Field(description="The id of its cluster.")


class MapCluster(Answer):
    id: Count = Field(description="0 for the largest cluster, then by size.")
    label: str = Field(description="What its papers share that the venue-year's others do not: title words and "
                                   "phrases, keywords where the source has them (\"diffusion model · flow matching\").")
    count: Count = Field(description="Its papers on the map.")


class VenueMap(Answer):
    """A venue-year's papers by content: t-SNE of their embeddings, clusters by k-means on it."""

    conference: str
    conference_name: str
    year: int
    papers: Count = Field(description="Papers on the map: the venue-year's listed papers with an embedding.")
    left_out: Count = Field(description="Listed papers without an embedding (no abstract and a short title), not "
                                        "drawn.")
    height: Annotated[float, Field(gt=0, le=1)] = Field(
        description="The map's height, its width being 1: y runs from 0 to this (the layout keeps its proportions).")
    method: str = Field(description="How the map was made.")
    computed_at: str = Field(description="When (UTC, ISO 8601); a map is made again when its papers change.")
    points: list[MapPoint]
    clusters: list[MapCluster]


# The models the document names (components/schemas), after those of :mod:`.schemas`.
COMPONENTS: tuple[type[Answer], ...] = (Venue, ScoreHistogram, VenueMap)
