"""The typed paper record shared by the indexer (which builds it) and the web (which shows it)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from .paper_names import names_in_order

# How statuses (the catalogue's STATUSES) rank in a listing by tier: orals first, rejected and withdrawn papers last.
TIER_ORDER = ("oral", "spotlight", "poster", "accept", "short", "findings", "demo", "workshop", "unknown",
              "reject", "withdrawn")

# What reviewers scored, in display order: the name is the source's own (``rating`` with
# ``rating_avg``, ``confidence`` with ``confidence_avg``, ...), the value its label.
REVIEW_CRITERIA = {
    "rating": "Rating",
    "confidence": "Confidence",
    "soundness": "Soundness",
    "correctness": "Correctness",
    "technical_novelty": "Technical novelty",
    "empirical_novelty": "Empirical novelty",
    "contribution": "Contribution",
    "presentation": "Presentation",
    "excitement": "Excitement",
    "reproducibility": "Reproducibility",
    "suitability": "Suitability",
}


class Author(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str
    affiliation: str = ""
    orcid: str = ""
    author_id: str = ""


class Links(BaseModel):
    """Outbound links of a paper; empty string when the source has none."""

    model_config = ConfigDict(frozen=True)

    pdf: str = ""
    site: str = ""
    openreview: str = ""
    code: str = ""
    project: str = ""
    arxiv: str = ""
    doi: str = ""
    supplementary: str = ""

    def present(self) -> dict[str, str]:
        """The links the paper has, by kind (read off the fields: a dump per hit cost more than the rest)."""
        return {name: url for name in type(self).model_fields if (url := getattr(self, name))}


class Publication(BaseModel):
    """Where the proceedings or the journal print the paper, as its source says; empty when unknown."""

    model_config = ConfigDict(frozen=True)

    pages: str = ""      # "1234--1245" (BibTeX's en dash) or one page/article number
    volume: str = ""
    publisher: str = ""


class ReviewScore(BaseModel):
    """One criterion of a paper's reviews: each reviewer's score (when the source lists them) and their mean."""

    model_config = ConfigDict(frozen=True)

    criterion: str  # a key of REVIEW_CRITERIA
    mean: float
    scores: list[float] = Field(default_factory=list)

    @property
    def label(self) -> str:
        return REVIEW_CRITERIA.get(self.criterion, self.criterion.replace("_", " ").capitalize())


class Paper(BaseModel):
    """One normalised paper: what the index stores and what pages and the API show."""

    model_config = ConfigDict(frozen=True)

    paper_id: str
    conference: str
    conference_name: str
    year: int
    title: str
    authors: list[Author] = Field(default_factory=list)
    abstract: str = ""
    tldr: str = ""
    # Distinct affiliations in author order (an author's "A; B" counts as two); where the source
    # does not align affiliations with authors, the paper's own list. Derived from the authors when not given.
    affiliations: list[str] = Field(default_factory=list)
    keywords: list[str] = Field(default_factory=list)
    primary_area: str = ""
    topics: list[str] = Field(default_factory=list)
    track: str = "main"
    status: str = "unknown"
    status_raw: str = ""
    award: bool = False
    links: Links = Field(default_factory=Links)
    publication: Publication = Field(default_factory=Publication)
    bibtex: str = ""
    citations: int | None = None
    # The reviews' mean rating (the "rating" criterion of ``reviews``); None when the source has none.
    rating_avg: float | None = None
    reviews: list[ReviewScore] = Field(default_factory=list)
    # How much the paper stood out at its venue-year, in [0, 1] (services.search.records.prominence).
    prominence: float = 0.5
    # The names it is known by (services.search.records.paper_names): its own, from its record (the title's
    # name, names its abstract coins; services.indexer.paper.own_names), and those the corpus gives it; of all
    # of them, the ones it introduced; and how many later papers here mention one of those (None:
    # nothing it introduced, or not counted yet). The last three are the corpus pass's
    # (services.indexer.corpus.names.index_pass).
    names: list[str] = Field(default_factory=list)
    given_names: list[str] = Field(default_factory=list)
    introduced: list[str] = Field(default_factory=list)
    mentions: int | None = None
    # Who each author is: a person id by author place (the people pass's, services.indexer.corpus.people;
    # None where it has not decided yet), so two people of one name are two pages. Not the source's.
    author_ids: list[str | None] = Field(default_factory=list)

    @property
    def known_as(self) -> list[str]:
        """Every name, its own first, each spelling of one name once."""
        return names_in_order(self.names + self.given_names)
    source: str = ""
    position: int = 0
    content_hash: str = ""

    @model_validator(mode="before")
    @classmethod
    def _affiliations_of_authors(cls, data: Any) -> Any:
        if isinstance(data, dict) and not data.get("affiliations"):
            data = {**data, "affiliations": affiliations_of(data.get("authors") or [])}
        return data

    @property
    def author_names(self) -> list[str]:
        return [a.name for a in self.authors]

    def person_of(self, place: int) -> str | None:
        """The person id of the author at ``place``, when the people pass has decided it."""
        return self.author_ids[place] if place < len(self.author_ids) else None

    @property
    def people(self) -> list[str]:
        """The paper's distinct person ids, in author order."""
        return list(dict.fromkeys(i for i in self.author_ids if i))

    @property
    def affiliations_aligned(self) -> bool:
        """Whether the affiliations are each author's (else they are the paper's, unattributed)."""
        return any(a.affiliation for a in self.authors)

    def review(self, criterion: str) -> ReviewScore | None:
        return next((r for r in self.reviews if r.criterion == criterion), None)

    @property
    def tier_rank(self) -> int:
        """The status's place in :data:`TIER_ORDER` (unknown values with ``unknown``)."""
        return TIER_ORDER.index(self.status if self.status in TIER_ORDER else "unknown")


def affiliations_of(authors: Iterable[Author | dict]) -> list[str]:
    """Distinct affiliations of the authors, in their order; an author's "A; B" counts as two."""
    texts = (a.affiliation if isinstance(a, Author) else str(a.get("affiliation") or "") for a in authors)
    return list(dict.fromkeys(part.strip() for text in texts for part in text.split(";") if part.strip()))


_KEY_DROP = re.compile(r"[^\w]+", re.UNICODE)


def title_key(title: str) -> str:
    """Normalised title for exact-title lookup and ids: case, accents and punctuation folded."""
    text = unicodedata.normalize("NFKD", title)
    text = "".join(ch for ch in text if not unicodedata.combining(ch)).casefold()
    return " ".join(_KEY_DROP.sub(" ", text).split())
