"""Atom 1.0 feeds: a search's result set, and a person's papers (their routes: :mod:`..views.feeds`).

Ids and links are absolute URLs built from ``PAPERLIST_PUBLIC_URL``; text is cleared of
what XML 1.0 cannot carry. An entry is dated by its paper: the month its conference is
held (:func:`~services.search.catalogue.venues.held_on`), never the time it was indexed, so a
rebuild of the index does not make old papers look new.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timezone

from flask import render_template, url_for

from services.search.catalogue import taxonomy, venues
from services.search.query.request import SearchRequest
from services.search.records.model import Paper
from services.search.records.people import Person

from ..urls import absolute_url, feed_url, person_path, public_url, url_with

# Characters XML 1.0 cannot carry at all (escaping does not help): control characters,
# lone surrogates and the two non-characters.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_EPOCH = "1970-01-01T00:00:00Z"  # the updated time of an empty feed


@dataclass(frozen=True)
class Entry:
    id: str
    title: str
    link: str
    published: str  # RFC 3339 in UTC, so the latest is the largest string
    updated: str  # the same: a paper is not revised once its venue-year is out
    authors: list[str]
    summary: str
    categories: list[tuple[str, str]]  # (term, label)


def xml_text(value: str) -> str:
    return _NOT_XML.sub("", value)


def rfc3339(when: date) -> str:
    """A day as an RFC 3339 time: its midnight in UTC."""
    return datetime(when.year, when.month, when.day, tzinfo=timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def published(paper: Paper) -> str:
    """The paper's date: the 1st of the month its conference-year is held (January for a journal's volume
    year and for venues whose month the catalogue does not know)."""
    return rfc3339(venues.held_on(paper.conference, paper.year))


def entry(paper: Paper) -> Entry:
    link = absolute_url("pages.paper", paper_id=paper.paper_id)
    topics = [(t, taxonomy.label(t)) for t in paper.topics]
    dated = published(paper)
    return Entry(id=link, title=xml_text(paper.title), link=link, published=dated, updated=dated,
                 authors=[xml_text(a) for a in paper.author_names],
                 summary=xml_text(paper.abstract or paper.tldr),
                 categories=[(paper.conference, xml_text(paper.conference_name)), *topics])


def describe(req: SearchRequest) -> str:
    """A feed's title: the query and the chosen filters."""
    parts = [f"“{req.q}”"] if req.q else []
    for facet in req.facets:
        values = req.selected(facet.name)
        if values:
            parts.append(f"{facet.label}: {', '.join(facet.value_label(v) for v in values)}")
    if req.added:
        parts.insert(0, f"new since {req.added}" if req.added[-1:] != "d" else f"new in the last {req.added[:-1]} days")
    return xml_text("paperlist — " + (" · ".join(parts) or "all papers"))


def atom(req: SearchRequest, papers: list[Paper]) -> str:
    """The feed document of ``req`` from its papers (newest first; /new's most recently added first)."""
    if req.added:
        return _document(papers, describe(req), "Papers added or changed on paperlist", public_url(feed_url(req)),
                         public_url(url_with(url_for("pages.new"), req, page=None, sort=None)))
    return _document(papers, describe(req), "Newest papers of this search on paperlist", public_url(feed_url(req)),
                     public_url(url_with(url_for("pages.search"), req, page=None, sort="newest")))


def person_atom(person: Person, papers: list[Paper]) -> str:
    """The feed of a person's papers (newest first): what following them means."""
    return _document(papers, xml_text(f"paperlist — papers by {person.label}"),
                     f"Newest papers by {xml_text(person.name)} on paperlist",
                     absolute_url("feeds.person_feed", person_id=person.person_id),
                     public_url(person_path(person.person_id)))


def _document(papers: list[Paper], title: str, subtitle: str, self_url: str, page_url: str) -> str:
    """A feed of ``papers``: as new as its newest entry."""
    entries = [entry(paper) for paper in papers]
    return render_template("feed.atom.xml", entries=entries, title=title, subtitle=subtitle, self_url=self_url,
                           page_url=page_url, updated=max((e.updated for e in entries), default=_EPOCH),
                           base=public_url(""))
