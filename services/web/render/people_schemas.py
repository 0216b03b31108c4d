"""The API's answers about people, described once as pydantic models (as :mod:`.schemas` describes papers):
a person with what tells them apart, a person id's page of papers, and the people of a name.

Built by :mod:`.people`; :mod:`.openapi` generates the document's components from these models.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .schemas import Answer, Count, PaperSummary


class Counted(Answer):
    value: str
    label: str = Field(description="What the site shows for the value (a venue's or a topic's name).")
    papers: Count


class Coauthor(Answer):
    id: str | None = Field(description="Their person id; null where the people pass has not decided who they are.")
    name: str
    papers: Count = Field(description="Papers together.")
    url: str


class Profile(Answer):
    kind: Literal["openreview", "orcid"]
    id: str
    url: str


class PaperRef(Answer):
    id: str
    title: str
    conference: str
    year: int
    url: str


class Person(Answer):
    id: str = Field(description="The person id: stable across ingests and rebuilds; a merge or a split retires it "
                                "(GET /api/v1/people/{id} then names its successors).")
    name: str = Field(description="The spelling most of their papers use.")
    label: str = Field(description="What tells two people of one name apart: the name and their main affiliation "
                                   "(else their main venue).")
    names: list[str] = Field(description="Every spelling on their papers, the most used first.")
    url: str
    papers: Count = Field(description="Listed papers (rejected and withdrawn ones are in hidden).")
    hidden: Count
    first_year: int | None
    last_year: int | None
    affiliations: list[Counted]
    coauthors: list[Coauthor]
    venues: list[Counted]
    topics: list[Counted]
    newest: PaperRef | None
    profiles: list[Profile] = Field(description="Their OpenReview profiles and ORCID iDs, as the sources give them.")


class Successor(Answer):
    change: Literal["merged", "split"] = Field(description="merged: the id's papers are one other person's now; "
                                                           "split: several people's.")
    successors: list[Person] = Field(description="Who holds the id's papers now, the largest share first.")


class PersonPapers(Answer):
    """A person id's answer: the person and a page of their listed papers (newest first); or, for a retired id,
    person null and its successor (never a redirect)."""

    id: str
    person: Person | None
    successor: Successor | None
    papers: list[PaperSummary]
    total: Count = Field(description="Listed papers.")
    hidden: Count = Field(description="Rejected or withdrawn papers, not listed.")
    page: int = Field(ge=1)
    page_size: int = Field(ge=1)
    pages: int = Field(ge=1)


class PeopleNamed(Answer):
    """The people of a name (its spellings with or without middle initials and hyphens), the most papers first:
    empty where no person holds the name yet (search ``author:`` then)."""

    name: str
    people: list[Person]


COMPONENTS: tuple[type[Answer], ...] = (Person, PersonPapers, PeopleNamed)
