"""What the tools answer about papers: compact, for an agent's context, and cut from the API's own answers.

An agent reads every token it is given, so a list of papers is a list of :data:`PaperBrief`: the API's
paper summary (:class:`services.web.render.schemas.PaperSummary`) narrowed to who, what, where and when,
with the start of its abstract (at most ``BRIEF_ABSTRACT`` characters) and its page on the site. The
fields are the API's fields (their types and descriptions taken from its model), built by the API's
answer builders (:mod:`services.web.render.answers`), so the two cannot say different things. One paper
(``get_paper``), a venue-year and a name's people are the API's answers whole; a person's page is the
API's with its papers as briefs. Built inside :meth:`.site.Site.context`.
"""

from __future__ import annotations

import textwrap
from typing import Any

from pydantic import Field, create_model

from services.search.answers.people import PersonPage
from services.search.answers.results import SearchResults
from services.search.limits import BRIEF_ABSTRACT
from services.search.records.model import Paper
from services.web.render import answers
from services.web.render.people_schemas import PersonPapers
from services.web.render.schemas import Answer, Count, Hint, PaperSummary, SortedQuery

Json = dict[str, Any]
ELLIPSIS = " …"
BRIEF_FIELDS = ("id", "title", "authors", "author_ids", "conference", "conference_name", "year", "status", "track",
                "url")

PaperBrief = create_model(
    "PaperBrief", __base__=Answer, __doc__="A paper in a list: the API's summary, narrowed, with its abstract's start.",
    **{name: (PaperSummary.model_fields[name].annotation, PaperSummary.model_fields[name]) for name in BRIEF_FIELDS},
    abstract=(str, Field(description=f"The abstract's start: at most {BRIEF_ABSTRACT} characters, cut at a word "
                                     f"and ended with '{ELLIPSIS.strip()}' when cut (get_paper has the whole).")),
)


class PaperList(Answer):
    """A page of a search's results (the API's search answer without its facets and highlights)."""

    query: SortedQuery
    total: Count
    page: int = Field(ge=1)
    page_size: int = Field(ge=1)
    pages: int = Field(ge=1)
    papers: list[PaperBrief]  # type: ignore[valid-type]
    suggestion: str | None = Field(description="A correction of the query that finds papers (\"did you mean\").")
    corrected_from: str | None = Field(description="The query as typed, when it matched nothing and these are its "
                                                   "correction's results (query.q is the correction).")
    hint: Hint | None = Field(description="Why nothing was found, when that can be told, and what to do instead.")


class SimilarList(Answer):
    """Papers like one paper (the site's "similar papers": nearest by embedding fused with more-like-this)."""

    paper_id: str
    papers: list[PaperBrief]  # type: ignore[valid-type]


class PersonBriefs(PersonPapers):
    """A person id's answer as the API gives it, its page of papers as briefs."""

    papers: list[PaperBrief]  # type: ignore[valid-type]


def abstract_start(text: str) -> str:
    """The abstract's start, whitespace collapsed, cut at a word to ``BRIEF_ABSTRACT`` characters."""
    return textwrap.shorten(text or "", BRIEF_ABSTRACT, placeholder=ELLIPSIS)


def _brief(summary: Json, paper: Paper) -> Json:
    return {**{name: summary[name] for name in BRIEF_FIELDS}, "abstract": abstract_start(paper.abstract)}


def paper_brief(paper: Paper) -> Json:
    return _brief(answers.paper_json(paper), paper)


def paper_list(results: SearchResults) -> Json:
    """A search's page as :class:`PaperList`: the API's answer (:func:`answers.results_json`), narrowed."""
    full = answers.results_json(results)
    papers = [_brief(hit, found.paper) for hit, found in zip(full["hits"], results.hits, strict=True)]
    kept = {name: full[name] for name in ("query", "total", "page", "page_size", "pages", "suggestion",
                                          "corrected_from", "hint")}
    return PaperList.model_validate({**kept, "papers": papers}).model_dump(mode="json")


def similar_list(paper_id: str, papers: list[Paper]) -> Json:
    return SimilarList.model_validate({"paper_id": paper_id, "papers": [paper_brief(p) for p in papers]}).model_dump(
        mode="json")


def person_briefs(page: PersonPage) -> Json:
    """:func:`answers.person_json` with its papers as briefs."""
    full = answers.person_json(page)
    briefs = [paper_brief(p) for p in page.papers]
    return PersonBriefs.model_validate({**full, "papers": briefs}).model_dump(mode="json")
