"""A person as the people index stores it: who one author is across papers, and what their page shows.

The people pass (``services.indexer.corpus.people``) decides which author places of which papers are one
person and writes, beside the papers' ``author_ids``, one :class:`Person` document per person into the
alias's people index (``<alias>-people``), and one :class:`Successor` document per id that no longer
names a person (merged into another, or split into several), so an old address still leads somewhere.
The figures are the pass's, counted over the person's papers when it ran: a disambiguation page lists a
name's people from these documents alone, without counting papers.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict, Field

from services.search.catalogue import venues
from services.search.limits import PERSON_ID_PATTERN

# The people index (``<alias>-people``): a person or a successor by id, a name's people by its block, and
# people offered as a name is typed; the rest of a document is stored, read whole, never searched.
MAPPINGS: dict = {
    "dynamic": False,
    "properties": {
        "person_id": {"type": "keyword"},
        "kind": {"type": "keyword"},  # "person" | "successor"
        "name_key": {"type": "keyword"},
        "papers": {"type": "integer"},
        "suggest": {"type": "completion", "analyzer": "simple", "max_input_length": 60},
    },
}

_PERSON_ID = re.compile(PERSON_ID_PATTERN)


def is_person_id(text: str) -> bool:
    """Whether ``text`` has the form of a person id (``p`` and 12 hex digits): an address or an operator with
    anything else names nobody, and is never looked up."""
    return bool(_PERSON_ID.fullmatch(text))


# Display limits of a person's summary: enough to tell two people of one name apart.
TOP_AFFILIATIONS = 5
TOP_COAUTHORS = 8
TOP_VENUES = 5
TOP_TOPICS = 5


class Counted(BaseModel):
    """A value with how many of the person's papers it is on (an affiliation, a venue, a topic)."""

    model_config = ConfigDict(frozen=True)

    value: str
    papers: int


class Coauthor(BaseModel):
    """A co-author: their person id (None when undecided), the name shown, and papers together."""

    model_config = ConfigDict(frozen=True)

    person_id: str | None = None
    name: str
    papers: int


class PaperRef(BaseModel):
    model_config = ConfigDict(frozen=True)

    paper_id: str
    title: str
    conference: str
    year: int


class Person(BaseModel):
    """One researcher: their id, names as written on papers, and their papers summed up."""

    model_config = ConfigDict(frozen=True)

    person_id: str
    name: str                                            # the spelling most of their papers use
    name_key: str                                        # the name block (name_keys.block_key)
    names: list[str] = Field(default_factory=list)       # every spelling, most used first
    papers: int = 0                                      # listed papers (not rejected or withdrawn)
    hidden: int = 0                                      # rejected or withdrawn ones
    first_year: int | None = None
    last_year: int | None = None
    affiliations: list[Counted] = Field(default_factory=list)
    coauthors: list[Coauthor] = Field(default_factory=list)
    venues: list[Counted] = Field(default_factory=list)
    topics: list[Counted] = Field(default_factory=list)
    newest: PaperRef | None = None
    profiles: list[str] = Field(default_factory=list)    # OpenReview profile ids (~First_Last1) the sources give
    orcids: list[str] = Field(default_factory=list)

    @property
    def where(self) -> str:
        """Where the person mostly publishes from: their main affiliation, else their main venue's name."""
        return self.affiliations[0].value if self.affiliations else (venues.label(self.venues[0].value)
                                                                     if self.venues else "")

    @property
    def label(self) -> str:
        """How a list of people tells this one apart: ``Yang Liu · Tsinghua University``."""
        return f"{self.name} · {self.where}" if self.where else self.name

    @property
    def years(self) -> str:
        if self.first_year is None:
            return ""
        return str(self.first_year) if self.first_year == self.last_year else f"{self.first_year}–{self.last_year}"


class Successor(BaseModel):
    """What became of a person id that no longer names one: ``merged`` into one person, or ``split`` into
    several (the new people that hold its papers, the largest share first)."""

    model_config = ConfigDict(frozen=True)

    person_id: str
    change: str  # "merged" | "split"
    successors: list[str]
