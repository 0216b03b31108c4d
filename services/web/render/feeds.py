"""Atom 1.0 entries of a search's result set (the feed's route: :mod:`..views.feeds`).

Ids and links are absolute URLs built from ``PAPERLIST_PUBLIC_URL``; text is cleared of
what XML 1.0 cannot carry.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timezone

from flask import render_template, url_for

from services.search import taxonomy
from services.search.model import Paper
from services.search.request import SearchRequest

from ..urls import absolute_url, feed_url, public_url, url_with

# Characters XML 1.0 cannot carry at all (escaping does not help): control characters,
# lone surrogates and the two non-characters.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_EPOCH = "1970-01-01T00:00:00Z"  # the updated time of an empty feed


@dataclass(frozen=True)
class Entry:
    id: str
    title: str
    link: str
    updated: str  # RFC 3339 in UTC, so the latest is the largest string
    authors: list[str]
    summary: str
    categories: list[tuple[str, str]]  # (term, label)


def xml_text(value: str) -> str:
    return _NOT_XML.sub("", value)


def rfc3339(when: datetime) -> str:
    return when.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def updated(paper: Paper, indexed_at: str | None) -> str:
    """When the paper entered the index; Jan 1 of its year where that was not recorded."""
    if indexed_at:
        try:
            stamp = datetime.fromisoformat(indexed_at)
            return rfc3339(stamp if stamp.tzinfo else stamp.replace(tzinfo=timezone.utc))
        except ValueError:
            pass
    return rfc3339(datetime(max(paper.year, 1), 1, 1, tzinfo=timezone.utc))


def entry(paper: Paper, indexed_at: str | None) -> Entry:
    link = absolute_url("pages.paper", paper_id=paper.paper_id)
    topics = [(t, taxonomy.label(t)) for t in paper.topics]
    return Entry(id=link, title=xml_text(paper.title), link=link, updated=updated(paper, indexed_at),
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
    return xml_text("paperlist — " + (" · ".join(parts) or "all papers"))


def atom(req: SearchRequest, found: list[tuple[Paper, str | None]]) -> str:
    """The feed document of ``req`` from its papers (newest first) and their index times."""
    entries = [entry(paper, indexed_at) for paper, indexed_at in found]
    return render_template(
        "feed.atom.xml", entries=entries, title=describe(req),
        self_url=public_url(feed_url(req)),
        page_url=public_url(url_with(url_for("pages.search"), req, page=None, sort="newest")),
        updated=max((e.updated for e in entries), default=_EPOCH),
        base=public_url(""))
