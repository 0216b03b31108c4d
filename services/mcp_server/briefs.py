"""What the tools answer about papers: compact, for an agent's context, and cut from the API's own answers.

An agent reads every token it is given, so a list of papers is a list of :data:`PaperBrief`: the API's
paper summary (:class:`services.web.render.schemas.PaperSummary`) narrowed to who, what, where and when,
with the start of its abstract (at most ``BRIEF_ABSTRACT`` characters) and its page on the site. The
fields are the API's fields (their types and descriptions taken from its model), built by the API's
answer builders (:mod:`services.web.render.answers`), so the two cannot say different things. One paper
(``get_paper``) and a venue-year are the API's answers whole; a person's page is the API's with its papers as
briefs; a name's people are each narrowed to who they are (:data:`PersonBrief`: a common name has dozens, each
with co-authors, venues and topics). Built inside :meth:`.site.Site.context`.
"""

from __future__ import annotations

import textwrap
from typing import Any

from pydantic import Field, create_model

from services.search.answers.people import PersonPage
from services.search.answers.results import SearchResults
from services.search.limits import BRIEF_ABSTRACT
from services.search.records.model import Paper
from services.search.records.people import Person
from services.web.render import answers, people_schemas
from services.web.render.schemas import Answer, Count, Hint, PaperSummary, SortedQuery

Json = dict[str, Any]
ELLIPSIS = " …"
BRIEF_FIELDS = ("id", "title", "authors", "author_ids", "conference", "conference_name", "year", "status", "track",
                "url")

PERSON_BRIEF_FIELDS = ("id", "name", "label", "url", "papers", "hidden", "first_year", "last_year", "newest")


def narrowed(name: str, model: type[Answer], fields: tuple[str, ...], doc: str, **more: Any) -> type[Answer]:
    """A model of ``fields`` of the API's ``model`` (their types and descriptions), and ``more`` fields."""
    return create_model(name, __base__=Answer, __doc__=doc,
                        **{f: (model.model_fields[f].annotation, model.model_fields[f]) for f in fields}, **more)


PaperBrief = narrowed(
    "PaperBrief", PaperSummary, BRIEF_FIELDS, "A paper in a list: the API's summary, narrowed, with its abstract's start.",
    abstract=(str, Field(description=f"The abstract's start: at most {BRIEF_ABSTRACT} characters, cut at a word "
                                     f"and ended with '{ELLIPSIS.strip()}' when cut (get_paper has the whole).")))
PersonBrief = narrowed(
    "PersonBrief", people_schemas.Person, PERSON_BRIEF_FIELDS,
    "A person among a name's people: the API's person narrowed to who they are (get_person has the rest).")


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


class PeopleBriefs(Answer):
    """The people of a name, the most papers first (the API's answer with each person narrowed)."""

    name: str
    people: list[PersonBrief]  # type: ignore[valid-type]


class PersonBriefs(people_schemas.PersonPapers):
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


def people_briefs(name: str, people: list[Person]) -> Json:
    """:func:`answers.people_named_json` with each person narrowed to :data:`PersonBrief`."""
    full = answers.people_named_json(name, people)
    kept = [{f: person[f] for f in PERSON_BRIEF_FIELDS} for person in full["people"]]
    return PeopleBriefs.model_validate({"name": full["name"], "people": kept}).model_dump(mode="json")
