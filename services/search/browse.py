"""What the browse pages show (front page, conference and author pages): typed answers of
:class:`~.service.PaperSearch`, and which conference-year the front page leads with."""

from __future__ import annotations

from dataclasses import dataclass, field

from . import conferences
from .limits import NEWEST_MIN_PAPERS
from .model import Paper


@dataclass
class ConferenceSummary:
    """A conference's listed papers per year; ``hidden`` counts its rejected/withdrawn ones apart."""

    slug: str
    name: str
    count: int
    years: list[tuple[int, int]]
    hidden: int = 0
    hidden_years: dict[int, int] = field(default_factory=dict)

    def has_year(self, year: int) -> bool:
        return year in dict(self.years) or year in self.hidden_years


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


def newest_conference_year(confs: list[ConferenceSummary],
                           minimum: int = NEWEST_MIN_PAPERS) -> tuple[str, int] | None:
    """The most recently held conference-year with at least ``minimum`` listed papers.

    Ordered by year, then by the month the venue is usually held (the catalogue's
    ``month``; unknown venues count as mid-year), so NeurIPS (December) comes after ICLR
    (April) of the same year, and a handful of early records of a later year do not win.
    """
    candidates = [(year, conferences.lookup(c.slug).month or 6, n, c.slug)
                  for c in confs for year, n in c.years if n >= minimum]
    if not candidates:
        candidates = [(year, conferences.lookup(c.slug).month or 6, n, c.slug) for c in confs for year, n in c.years]
    if not candidates:
        return None
    year, _, _, slug = max(candidates)
    return slug, year
