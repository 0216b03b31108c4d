"""The tools: what each one reads through the search layer and answers, and how a failure reaches the agent.

Each tool reads through :class:`services.search.reads.SearchReads` (the front door, as the web does), with
the site's search budget (:func:`~services.search.engine.boundary.start_deadline`, as a web request has), and
reads its arguments with the API's own parsers, so a value means what it means on ``/api/v1``. What an agent
can get wrong (a bad value, an id that names nothing) and what it can wait out (Elasticsearch down or busy)
is a :class:`ToolError`: the SDK answers it as a tool result with ``isError`` and the message, for the model
to read and correct, never as a protocol error or a crash.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace

from mcp.server.mcpserver.exceptions import ToolError

from services.search.catalogue import venues
from services.search.engine.boundary import start_deadline
from services.search.errors import InvalidRequest, SearchError
from services.search.limits import (
    MAX_AUTHOR_NAME,
    MAX_PAGE_SIZE,
    MAX_PAPER_ID,
    MAX_WINDOW,
    MAX_YEAR,
    MIN_YEAR,
    PERSON_PAGE_PAPERS,
)
from services.search.query.request import number_in_range, parse_request
from services.search.reads import SearchReads
from services.search.records.model import Paper
from services.search.records.people import is_person_id
from services.web.render import answers
from services.web.render.bib_reading import BibInputError
from services.web.render.bibtex_schemas import upgrade_json
from services.web.render.bibtex_upgrade import keep_fields, upgrade

from . import briefs
from .arguments import (
    NameArguments,
    PaperArguments,
    PersonArguments,
    SearchArguments,
    UpgradeArguments,
    VenueArguments,
    query_values,
)
from .site import Site

Json = briefs.Json


class PaperTools:
    """The tools over one set of reads; each method takes its validated arguments and answers JSON."""

    def __init__(self, reads: SearchReads, site: Site):
        self.reads = reads
        self.site = site

    @contextmanager
    def _call(self, budget: float | None = None) -> Iterator[None]:
        """One tool call: the search budget (or ``budget``), the site's context, the search layer's failures and
        bad input as tool errors."""
        start_deadline(budget or self.site.settings.search_budget)
        try:
            with self.site.context():
                yield
        except BibInputError as exc:
            raise ToolError(str(exc)) from exc  # what is wrong with the .bib, and where
        except InvalidRequest as exc:
            raise ToolError(str(exc)) from exc  # "parameter: why", as the API's 400 says it
        except SearchError as exc:
            raise ToolError(exc.message) from exc  # safe to show; Elasticsearch's own text stays in the log

    def search_papers(self, arguments: SearchArguments) -> Json:
        with self._call():
            req = parse_request(query_values(arguments))
            self._with_papers(req.selected("conference"))
            # An agent reads the hits: no facet counts (the API's facets= empty), the costliest part of a search.
            return briefs.paper_list(self.reads.search(replace(req, counted=())))

    def get_paper(self, arguments: PaperArguments) -> Json:
        with self._call():
            return answers.paper_json(self._paper(arguments.paper_id), full=True)

    def similar_papers(self, arguments: PaperArguments) -> Json:
        with self._call():
            found = self._paper(arguments.paper_id)
            return briefs.similar_list(found.paper_id, self.reads.similar(found.paper_id))

    def venue_stats(self, arguments: VenueArguments) -> Json:
        with self._call():
            year = arguments.year
            if not MIN_YEAR <= year <= MAX_YEAR:
                raise InvalidRequest("year", f"must be between {MIN_YEAR} and {MAX_YEAR}")
            slug = venues.canonical_slug(arguments.slug)
            found = self.reads.venue_years(slug, year) if slug else []
            if not found:
                raise ToolError(f"No records of {venues.label(slug) if slug else 'that venue'} {year}.")
            return answers.venue_json(found[0], self.reads.institutions(slug, year))

    def get_person(self, arguments: PersonArguments) -> Json:
        with self._call():
            person_id = arguments.person_id
            if not is_person_id(person_id):
                raise InvalidRequest("person_id", f"'{person_id[:40]}' is not a person id (p and 12 hex digits)")
            found = self.reads.person(person_id, _number("page", arguments.page, MAX_WINDOW) or 1,
                                      _number("page_size", arguments.page_size, MAX_PAGE_SIZE) or PERSON_PAGE_PAPERS)
            if not found:
                raise ToolError(f"No person with the id '{person_id}'.")
            return briefs.person_briefs(found)

    def find_people(self, arguments: NameArguments) -> Json:
        with self._call():
            name = arguments.name
            if len(name) > MAX_AUTHOR_NAME:
                raise InvalidRequest("name", f"at most {MAX_AUTHOR_NAME} characters")
            return briefs.people_briefs(name, self.reads.people_named(name))

    def upgrade_bibtex(self, arguments: UpgradeArguments) -> Json:
        """The API's upgrade of a .bib, with the API's batch budget (a 2,000-entry file's searches)."""
        with self._call(self.site.settings.batch_budget):
            return upgrade_json(upgrade(arguments.bibtex, self.reads, keep_fields(arguments.keep)))

    def _paper(self, paper_id: str) -> Paper:
        found = self.reads.paper(paper_id[:MAX_PAPER_ID])
        if not found:
            raise ToolError(f"No paper with id '{paper_id[:MAX_PAPER_ID]}'.")
        return found

    def _with_papers(self, slugs: tuple[str, ...]) -> None:
        """As the API: a conference without papers here is a bad argument (it would only ever find nothing)."""
        missing = [slug for slug in slugs if self.reads.conference(slug) is None]
        if missing:
            raise InvalidRequest("conference", f"no papers from {', '.join(repr(s[:40]) for s in missing)} here")


def _number(name: str, value: int | None, high: int) -> int | None:
    """A page number or size as the API reads it (absent: the default; out of [1, high]: its 400's message)."""
    return None if value is None else number_in_range(name, str(value), 1, high)
