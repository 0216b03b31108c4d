"""The JSON answers of the API, described once as pydantic models.

:mod:`.answers` builds every answer through these models, and :mod:`.openapi` generates
the OpenAPI document's components from them, so the document cannot drift from what
is sent (Schemathesis checks real answers against it). Every field is always present in
an answer, so every field is required in the schema.
"""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema

from services.search.answers.corrections import HINTS
from services.search.answers.score_histogram import VALUE_DECIMALS
from services.search.answers.stats import LACKS, MAX_CREDIBLE_RATE
from services.search.answers.suggest import SUGGESTION_KINDS
from services.search.catalogue import STATUSES, VENUE_KINDS
from services.search.limits import MAX_PAGE_SIZE, TOP_INSTITUTIONS, TOP_TIERED_INSTITUTIONS
from services.search.records.model import Author

Count = Annotated[int, Field(ge=0)]
Status = Literal[STATUSES]  # type: ignore[valid-type]
Kind = Literal[VENUE_KINDS]  # type: ignore[valid-type]
# IRIs: links come from the sources as published and may hold non-ASCII characters.
Iri = Annotated[str, WithJsonSchema({"type": "string", "format": "iri"})]


class Answer(BaseModel):
    # A key an answer builder passes that its model does not declare is an error, never dropped.
    model_config = ConfigDict(extra="forbid", json_schema_serialization_defaults_required=True)


class ErrorDetail(Answer):
    code: str
    message: str


class Error(Answer):
    error: ErrorDetail


class Topic(Answer):
    slug: str
    label: str


class PaperSummary(Answer):
    id: str
    title: str
    authors: list[str]
    conference: str
    conference_name: str
    year: int
    status: Status
    track: str
    topics: list[Topic]
    citations: int | None
    links: dict[str, Iri]
    url: str
    kind: Kind = Field(description="The venue's kind: conference, journal or workshop.")
    affiliations: list[str] = Field(
        description="Distinct affiliations in author order; where the source does not say whose they are, "
                    "the paper's own list (affiliations_aligned is false).")
    affiliations_aligned: bool = Field(description="Whether authors_detail gives each author's affiliation.")
    rating_avg: float | None = Field(description="The reviews' mean rating, where the source has review scores.")
    names: list[str] = Field(description="The names the paper is known by: the name before its title's colon, "
                                         "names its abstract coins, acronyms other papers give it (possibly empty).")
    introduced: list[str] = Field(description="Of its names, those it introduced: it bore the name first here, "
                                              "when the name was new.")
    mentions: int | None = Field(description="How many later papers here mention a name it introduced "
                                             "(null: none, or not counted).")


class Highlight(Answer):
    title: str | None = None
    abstract: str | None = None


class Hit(PaperSummary):
    highlight: Highlight


class ReviewScore(Answer):
    criterion: str = Field(description="What the reviewers scored, as the source names it (rating, confidence, ...).")
    label: str
    mean: float
    scores: list[float] = Field(description="Each reviewer's score, where the source lists them.")


class Publication(Answer):
    """Where the proceedings or the journal print the paper, as its source says; "" when unknown."""

    pages: str
    volume: str
    publisher: str


class Paper(PaperSummary):
    authors_detail: list[Author]
    abstract: str
    tldr: str
    keywords: list[str]
    primary_area: str
    status_raw: str
    award: bool
    reviews: list[ReviewScore] = Field(description="Review scores by criterion; empty when the source has none.")
    publication: Publication
    bibtex: str


class FacetValue(Answer):
    value: str
    label: str
    count: Count
    selected: bool


class YearCount(Answer):
    year: int
    count: Count


class Query(Answer):
    """The query and filters an answer is about, in their URL form."""

    q: str
    filters: dict[str, list[str]]


class SortedQuery(Query):
    sort: str


class FacetCounts(Answer):
    query: SortedQuery
    total: Count
    facets: dict[str, list[FacetValue]]
    year_histogram: list[YearCount]
    year_range: list[int] | None


class Hint(Answer):
    code: Literal[tuple(HINTS)]  # type: ignore[valid-type]
    message: str


class SearchResponse(Answer):
    query: SortedQuery
    total: Count
    page: int = Field(ge=1)
    page_size: int = Field(ge=1, le=MAX_PAGE_SIZE)
    pages: int = Field(ge=1)
    next_search_after: str | None = Field(description="Pass as search_after to get the next page (also beyond 10,000).")
    hits: list[Hit]
    facets: dict[str, list[FacetValue]]
    year_histogram: list[YearCount]
    year_range: list[int] | None
    suggestion: str | None = Field(description="A correction of the query that finds papers (\"did you mean\").")
    corrected_from: str | None = Field(
        description="The query as typed, when it matched nothing and these are its correction's results "
                    "(query.q is the correction); autocorrect=0 searches as typed.")
    hint: Hint | None = Field(description="Why nothing was found, when that can be told, and what to do instead.")
    cited: int | None = Field(None, description="Sorted by citations: how many of the total have a citation count "
                                                "(they come first; the others by mentions here, then relevance).")


class SimilarPapers(Answer):
    papers: list[PaperSummary]


class Suggestion(Answer):
    model_config = ConfigDict(json_schema_serialization_defaults_required=False)  # detail only where it helps

    type: Literal[SUGGESTION_KINDS]  # type: ignore[valid-type]
    text: str
    url: str
    detail: str | None = Field(None, description="a title's conference and year (only where it tells two apart)")


class Suggestions(Answer):
    q: str
    suggestions: list[Suggestion]


class ConferenceYearCount(YearCount):
    conference: str


class TopicYearCount(YearCount):
    topic: str


class Stats(Answer):
    query: Query
    total: Count
    by_year: list[YearCount] = Field(description="Papers per year; the counts sum to total.")
    by_conference_year: list[ConferenceYearCount] = Field(
        description="Papers per conference and year; the counts sum to total.")
    by_topic_year: list[TopicYearCount] = Field(description="Papers per topic and year; a paper counts once per topic.")


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


class Exported(Answer):
    """An export as JSON (``format=json``): how many papers it holds, and each in full."""

    count: Count
    papers: list[Paper]


class ReindexQueued(Answer):
    """What the worker answers, relayed (it may add keys); the task id is always there."""

    model_config = ConfigDict(extra="allow", json_schema_serialization_defaults_required=False)

    task_id: str
    run_id: str | None = None
    status: str | None = None
    status_url: str | None = None


class ReindexProgress(Answer):
    """The current or last rebuild, as the worker reports it (it may add keys); phase "none" when there was none."""

    model_config = ConfigDict(extra="allow", json_schema_serialization_defaults_required=False)

    phase: str
    copied: Count | None = None
    total: Count | None = None
    replayed: Count | None = None
    message: str | None = Field(None, description="Why a rebuild that is not done stopped (abandoned).")


class TaskState(Answer):
    """A task the admin API started: its Celery state, and its result once it is ready."""

    model_config = ConfigDict(json_schema_serialization_defaults_required=False)

    task_id: str
    state: str
    result: Any = Field(None, description="Once ready: the task's answer, or its error as text.")


# The models the document names (components/schemas), in the order people read them.
COMPONENTS: tuple[type[Answer], ...] = (Error, Topic, PaperSummary, Hit, Paper, FacetValue, FacetCounts,
                                        SearchResponse, SimilarPapers, Suggestions, Stats, Venue, ScoreHistogram,
                                        VenueMap, Exported, ReindexQueued, ReindexProgress, TaskState)
