"""What the web reads from the search layer: the :class:`SearchReads` protocol.

Why a protocol: the web depends on these methods, not on :class:`~.service.PaperSearch`.
The app puts the result cache (``services.web.cache.results.CachedSearch``) in front of
the real service, and view tests answer from memory (``tests/fake_reads.py``), as
warehouse's views run against a null search service. A read the web needs is declared
here first; a test checks that PaperSearch and CachedSearch have every method, with the
same signature.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from services.search.answers.browse import AuthorProfile, ConferenceSummary, Overview
from services.search.answers.people import PersonPage
from services.search.answers.results import Exported, Matches, SearchResults
from services.search.answers.stats import Institutions, Trends, VenueYear
from services.search.answers.suggest import Suggestion
from services.search.answers.venue_match import CitedWork, VenueMatch
from services.search.query.request import SearchRequest
from services.search.records.followed import FollowedSource
from services.search.records.model import Paper
from services.search.records.people import Person
from services.search.records.venue_maps import VenueMap

from .limits import AUTHOR_PAGE_PAPERS, EXPORT_LIMIT, FRONT_PAGE_PAPERS, MAP_MATCHES, PERSON_PAGE_PAPERS


@runtime_checkable
class SearchReads(Protocol):
    """Every read the site and the API make. Failures leave as :mod:`.errors` exceptions."""

    def search(self, req: SearchRequest) -> SearchResults: ...

    def like_text(self, req: SearchRequest, text: str) -> SearchResults: ...

    def export(self, req: SearchRequest, limit: int = EXPORT_LIMIT) -> Exported: ...

    def trends(self, req: SearchRequest) -> Trends: ...

    def venue_years(self, conference: str, year: int | None = None) -> list[VenueYear]: ...

    def institutions(self, conference: str, year: int) -> Institutions: ...

    def feed(self, req: SearchRequest) -> list[Paper]: ...

    def venue_map(self, conference: str, year: int) -> VenueMap | None: ...

    def map_matches(self, req: SearchRequest, limit: int = MAP_MATCHES) -> Matches: ...

    def followed_sources(self) -> list[FollowedSource]: ...

    def paper(self, paper_id: str) -> Paper | None: ...

    def papers_by_id(self, paper_ids: Sequence[str]) -> list[Paper]: ...

    def similar(self, paper_id: str, size: int = 6) -> list[Paper]: ...

    def venue_matches(self, works: Sequence[CitedWork]) -> list[VenueMatch]: ...

    def suggest(self, prefix: str, size: int = 8) -> list[Suggestion]: ...

    def overview(self, newest: int = FRONT_PAGE_PAPERS) -> Overview: ...

    def author(self, name: str, size: int = AUTHOR_PAGE_PAPERS) -> AuthorProfile: ...

    def person(self, person_id: str, page: int = 1, size: int = PERSON_PAGE_PAPERS) -> PersonPage | None: ...

    def people_named(self, name: str) -> list[Person]: ...

    def people(self, person_ids: Sequence[str]) -> dict[str, Person]: ...

    def conference(self, slug: str) -> ConferenceSummary | None: ...

    def ready(self) -> bool: ...
