"""What the browse pages and autocomplete show: typed results of :class:`~.service.PaperSearch`."""

from __future__ import annotations

from dataclasses import dataclass, field

from . import conferences
from .limits import NEWEST_MIN_ABSTRACTS, NEWEST_MIN_PAPERS
from .model import Paper

SUGGESTION_KINDS = ("title", "author", "topic", "conference")


@dataclass(frozen=True)
class Suggestion:
    """A completion; ``key`` identifies what it opens (slug, author name or paper id), the web makes the URL."""

    kind: str  # one of SUGGESTION_KINDS
    text: str
    key: str
    detail: str = ""  # what tells two alike apart: a title's venue and year


@dataclass(frozen=True)
class Exported:
    """An export: the first papers of a result set and how many the set holds."""

    papers: list[Paper]
    total: int


@dataclass
class ConferenceSummary:
    """A venue's listed papers per year; ``hidden`` counts its rejected/withdrawn ones apart.

    ``kind`` is the catalogue's (conference, journal or workshop): a journal's years are
    volume years. ``abstracts`` counts, per year, the listed papers that have an abstract
    (filled by the front page's overview, which needs it to choose its lead).
    """

    slug: str
    name: str
    count: int
    years: list[tuple[int, int]]
    hidden: int = 0
    hidden_years: dict[int, int] = field(default_factory=dict)
    kind: str = "conference"
    abstracts: dict[int, int] = field(default_factory=dict)

    def has_year(self, year: int) -> bool:
        return year in dict(self.years) or year in self.hidden_years

    @property
    def is_journal(self) -> bool:
        return self.kind == "journal"

    def volume(self, year: int) -> int | None:
        """A journal's volume number of ``year``, where its volumes go by year (the catalogue's)."""
        return conferences.lookup(self.slug).volume(year)


@dataclass
class AuthorProfile:
    """The author's listed papers (as a search for the name lists them); ``hidden`` counted apart."""

    name: str
    total: int
    papers: list[Paper]
    years: list[tuple[int, int]]
    coauthors: list[tuple[str, int]]
    affiliations: list[tuple[str, int]]
    conferences: list[tuple[str, int]]
    hidden: int = 0
    shared_name: bool = False  # papers by several people may share this name (authors.looks_shared)


@dataclass
class Overview:
    total: int
    conferences: list[ConferenceSummary]
    topics: list[tuple[str, str, int]]
    newest: list[Paper] = field(default_factory=list)
    newest_venue: tuple[str, int] | None = None  # (slug, year) the front page leads with
    newest_count: int = 0


def newest_conference_year(confs: list[ConferenceSummary], minimum: int = NEWEST_MIN_PAPERS,
                           covered: float = NEWEST_MIN_ABSTRACTS) -> tuple[str, int] | None:
    """The conference-year the front page leads with: the most recently held one with enough papers.

    - Conferences only (journals publish all year round and have no edition to lead with).
    - Conference-years with at least ``minimum`` listed papers (a handful of early records of a
      later year do not win), or any when none has that many.
    - The newest year; within it, when some edition has abstracts for at least ``covered`` of
      its papers, only such editions: a list of titles without abstracts never leads while a
      better-covered edition of the same year exists.
    - Then the month the venue is usually held (the catalogue's ``month``; unknown venues count
      as mid-year), so NeurIPS (December) comes after ICLR (April) of the same year.
    """
    held = [c for c in confs if c.kind == "conference"]
    candidates = [(c, year, n) for c in held for year, n in c.years if n >= minimum] or \
        [(c, year, n) for c in held for year, n in c.years]
    if not candidates:
        return None
    season = max(year for _, year, _ in candidates)
    editions = [(c, n) for c, year, n in candidates if year == season]
    editions = [(c, n) for c, n in editions if c.abstracts.get(season, 0) >= covered * n] or editions
    lead, _ = max(editions, key=lambda e: (conferences.lookup(e[0].slug).month or 6, e[1], e[0].slug))
    return lead.slug, season
