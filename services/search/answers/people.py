"""A person's page and the people a search names: the page's read (its body and shaping) and the labels of
the author facet, which counts people.

Who is who is the people pass's decision, stored one document per person (:mod:`services.search.records.people`,
read by the front door through ``engine/people_store.py``). What is counted here is what a page of papers
needs beyond that document: the person's listed papers by their id (``author_ids``), newest first, a page at
a time, the rejected and withdrawn ones counted apart, and the venues and years of them all (the document
keeps only the top few). The front door passes the reads as callables, so this module never reaches
Elasticsearch and is tested on answers alone.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from services.search.limits import MAX_WINDOW, PERSON_PAGE_PAPERS
from services.search.query.facets import PersonFacet
from services.search.query.search_body import HIDDEN, VISIBLE
from services.search.query.sorting import BROWSE_SORT, sort_clauses
from services.search.query.text_query import PERSON_FIELD
from services.search.records.documents import SUMMARY_FIELDS, from_source
from services.search.records.model import Paper
from services.search.records.people import Person, Successor

from .results import SearchResults

Body = dict[str, Any]


@dataclass
class PersonPage:
    """What a person id's page shows: the person and a page of their listed papers (newest first); or, for an
    id that a merge or a split retired, what became of it (``successor``) and the people who hold its papers
    now (``successors``, the largest share first)."""

    person_id: str
    person: Person | None = None
    papers: list[Paper] = field(default_factory=list)
    total: int = 0  # listed papers: what the pages count
    hidden: int = 0  # rejected or withdrawn ones, counted apart
    page: int = 1
    page_size: int = PERSON_PAGE_PAPERS
    years: list[tuple[int, int]] = field(default_factory=list)  # listed papers per year, the newest first
    venues: list[tuple[str, int]] = field(default_factory=list)  # listed papers per venue slug, the most first
    successor: Successor | None = None
    successors: list[Person] = field(default_factory=list)

    @property
    def pages(self) -> int:
        return max(1, math.ceil(min(self.total, MAX_WINDOW) / self.page_size))


def deepest_page(size: int) -> int:
    """The last page of ``size`` papers inside the paging window."""
    return max(1, MAX_WINDOW // size)


def papers_body(person_id: str, page: int, size: int) -> Body:
    """A page of the person's listed papers, newest first; all of them counted by year and venue, and the
    hidden ones counted apart."""
    return {"size": size, "from": (page - 1) * size, "_source": SUMMARY_FIELDS,
            "query": {"term": {PERSON_FIELD: person_id}}, "post_filter": VISIBLE, "track_total_hits": True,
            "sort": sort_clauses(BROWSE_SORT),
            "aggs": {"listed": {"filter": VISIBLE, "aggs": {
                "years": {"terms": {"field": "year", "size": 100, "order": {"_key": "desc"}}},
                "venues": {"terms": {"field": "conference", "size": 60}}}},
                "hidden": {"filter": HIDDEN}}}


def shape_page(person: Person, page: int, size: int, body: Body) -> PersonPage:
    listed = body["aggregations"]["listed"]
    return PersonPage(
        person.person_id, person, [from_source(h["_source"]) for h in body["hits"]["hits"]],
        body["hits"]["total"]["value"], body["aggregations"]["hidden"]["doc_count"], page, size,
        years=[(int(b["key"]), b["doc_count"]) for b in listed["years"]["buckets"]],
        venues=[(b["key"], b["doc_count"]) for b in listed["venues"]["buckets"]])


def person_page(person_id: str, page: int, size: int, *, load: Callable[[str], Person | Successor | None],
                search: Callable[[Body], Body], many: Callable[[Sequence[str]], Mapping[str, Person]]
                ) -> PersonPage | None:
    """The page of ``person_id`` (None when no person ever had it): the person's document (``load``) and a
    page of their papers (``search``), or a retired id's successors (``many``)."""
    found = load(person_id)
    if found is None:
        return None
    if isinstance(found, Successor):
        people = many(found.successors)
        return PersonPage(person_id, successor=found, successors=[people[i] for i in found.successors if i in people])
    page = min(max(page, 1), deepest_page(size))
    return shape_page(found, page, size, search(papers_body(person_id, page, size)))


def people_to_label(results: SearchResults) -> list[str]:
    """The person ids a search's people facets count or select: what one read of the people index labels."""
    wanted = [i for facet in results.request.facets if isinstance(facet, PersonFacet)
              for i in facet.people(results.facets.get(facet.name, ()))]
    return list(dict.fromkeys(wanted))


def label_people(results: SearchResults, many: Callable[[Sequence[str]], Mapping[str, Person]]) -> SearchResults:
    """``results`` with each person its people facets count labelled "Yang Liu · Tsinghua University", from one
    read of the people index (``many``; none when no person is counted); a person the index does not hold (yet)
    by the name a hit gives that author place, else by the id."""
    wanted = people_to_label(results)
    labels = {person_id: person.label for person_id, person in (many(wanted) if wanted else {}).items()}
    for hit in results.hits:
        for place, person_id in enumerate(hit.paper.author_ids):
            if person_id and person_id not in labels and place < len(hit.paper.authors):
                labels[person_id] = hit.paper.authors[place].name
    for facet in results.request.facets:
        if isinstance(facet, PersonFacet) and facet.name in results.facets:
            results.facets[facet.name] = facet.labelled(results.facets[facet.name], labels)
    return results
