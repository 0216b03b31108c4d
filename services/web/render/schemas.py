"""The JSON answers of the API, described once as pydantic models: papers, searches and their trends.

:mod:`.answers` builds every answer through these models, and :mod:`.openapi` generates
the OpenAPI document's components from them, so the document cannot drift from what
is sent (Schemathesis checks real answers against it). Every field is always present in
an answer, so every field is required in the schema. A venue-year's answers are in
:mod:`.venue_schemas`, the admin API's in :mod:`.admin_schemas`; all share :class:`Answer`.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema

from services.search.answers.corrections import HINTS
from services.search.answers.suggest import SUGGESTION_KINDS
from services.search.catalogue import STATUSES, VENUE_KINDS
from services.search.limits import MAX_PAGE_SIZE, SAMPLE_FACETS_ABOVE
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
    author_ids: list[str | None] = Field(
        description="Who each author is, in the order of authors: a person id (GET /api/v1/people/{id}), or null "
                    "where it is not decided yet.")
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
    facets_estimated: bool = Field(False, description="The facet counts and the year histogram are estimates from a "
                                                     "random sample of the matches (a broad search: more than "
                                                     f"{SAMPLE_FACETS_ABOVE:,} papers); total is exact.")


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
    facets_estimated: bool = Field(False, description="The facet counts and the year histogram are estimates from a "
                                                     "random sample of the matches (a broad search: more than "
                                                     f"{SAMPLE_FACETS_ABOVE:,} papers); total is exact.")
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


class Exported(Answer):
    """An export as JSON (``format=json``): how many papers it holds, and each in full."""

    count: Count
    papers: list[Paper]


# The models the document names (components/schemas), in the order people read them; the
# venue-year's and the admin API's follow (:mod:`.venue_schemas`, :mod:`.admin_schemas`).
COMPONENTS: tuple[type[Answer], ...] = (Error, Topic, PaperSummary, Hit, Paper, FacetValue, FacetCounts,
                                        SearchResponse, SimilarPapers, Suggestions, Stats, Exported)
