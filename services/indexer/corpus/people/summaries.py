"""Each person's summary, as the people index stores it: what tells two people of one name apart at a glance.

Counted from the person's author places once the decision is made: the spellings of their name, their
listed and hidden papers, years, own affiliations, co-authors (as people), venues, topics and newest paper,
and the profile ids the sources gave. Pure: papers and a person per place in, :class:`Person` values out.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from services.search.catalogue import HIDDEN_STATUSES
from services.search.records.name_keys import block_key
from services.search.records.people import (
    TOP_AFFILIATIONS,
    TOP_COAUTHORS,
    TOP_TOPICS,
    TOP_VENUES,
    Coauthor,
    Counted,
    PaperRef,
    Person,
)


@dataclass(frozen=True)
class PaperFacts:
    """What a summary reads of one paper."""

    paper_id: str
    title: str
    conference: str
    year: int
    status: str
    topics: tuple[str, ...]
    names: tuple[str, ...]          # the authors' names, by place
    affiliations: tuple[str, ...]   # each author's own ("A; B"), by place ("" where none)
    profiles: tuple[str, ...]       # the source's author id by place (an OpenReview profile) or ""
    orcids: tuple[str, ...]


def summaries(papers: Sequence[PaperFacts], persons: Mapping[tuple[str, int], str],
              display: Mapping[str, str] | None = None) -> list[Person]:
    """A :class:`Person` for every person id of ``persons`` ((paper id, place) -> person id).

    A person is called by the spelling most of their papers use, or by the name an operator's override
    gives them (``display``: person id -> name); their name block stays that of their spellings.
    """
    places: dict[str, list[tuple[PaperFacts, int]]] = defaultdict(list)
    for paper in papers:
        for place in range(len(paper.names)):
            if (person := persons.get((paper.paper_id, place))) is not None:
                places[person].append((paper, place))
    names = {person: (display or {}).get(person) or _spellings(held).most_common(1)[0][0]
             for person, held in places.items()}
    return [_person(person, held, persons, names) for person, held in sorted(places.items())]


def _spellings(held: Iterable[tuple[PaperFacts, int]]) -> Counter:
    return Counter(paper.names[place] for paper, place in held)


def _person(person_id: str, held: list[tuple[PaperFacts, int]], persons: Mapping[tuple[str, int], str],
            names: Mapping[str, str]) -> Person:
    spellings = _spellings(held)
    listed = [paper for paper, _ in held if paper.status not in HIDDEN_STATUSES]
    shown = listed or [paper for paper, _ in held]
    affiliations: Counter = Counter()
    coauthors: Counter = Counter()
    for paper, place in held:
        affiliations.update({part for part in paper.affiliations[place].split("; ") if part})
        coauthors.update({persons.get((paper.paper_id, other)) or f"name:{paper.names[other]}"
                          for other in range(len(paper.names)) if other != place})
    newest = max(shown, key=lambda p: (p.year, p.paper_id))
    years = [p.year for p in shown]
    return Person(
        person_id=person_id,
        name=names[person_id],
        name_key=block_key(spellings.most_common(1)[0][0]),
        names=[name for name, _ in spellings.most_common()],
        papers=len(listed),
        hidden=len(held) - len(listed),
        first_year=min(years),
        last_year=max(years),
        affiliations=_top(affiliations, TOP_AFFILIATIONS),
        coauthors=[Coauthor(person_id=None if key.startswith("name:") else key,
                            name=key[5:] if key.startswith("name:") else names.get(key, ""), papers=n)
                   for key, n in _ranked(coauthors)[:TOP_COAUTHORS]],
        venues=_top(Counter(p.conference for p in shown), TOP_VENUES),
        topics=_top(Counter(t for p in shown for t in p.topics), TOP_TOPICS),
        newest=PaperRef(paper_id=newest.paper_id, title=newest.title, conference=newest.conference, year=newest.year),
        profiles=sorted({paper.profiles[place] for paper, place in held if paper.profiles[place].startswith("~")}),
        orcids=sorted({paper.orcids[place] for paper, place in held if paper.orcids[place]}),
    )


def _ranked(counts: Counter) -> list[tuple[str, int]]:
    """Most first, then by value: the same counts always list in the same order."""
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))


def _top(counts: Counter, limit: int) -> list[Counted]:
    return [Counted(value=value, papers=n) for value, n in _ranked(counts)[:limit]]
