"""Which venue paper a cited work is: the body that finds its candidates, and the decision over them (issue 48).

A reference list cites papers by their preprints (``journal = {arXiv preprint arXiv:1706.03762}``) long after
they were published at a venue. A :class:`CitedWork` is what such an entry says of its paper (title, first
author's surname, year); the front door (``PaperSearch.venue_matches``) finds every work's whole title at once
(:func:`whole_titles_body`, one ``terms`` search per VENUE_MATCH_BATCH titles), then the titles the works it did
not find start (:func:`match_body` with ``cut``, one ``msearch``); :func:`decide` reads the candidates:

- the **title** fits when its title key (``records.model.title_key``: case, accents and punctuation folded) is
  the work's, or when the work cites only the part before the venue title's colon ("BERT" for "BERT:
  Pre-training of ..."), which counts only beside an agreeing surname;
- the **first author's surname** agrees (when the entry names one: "others" alone says nothing);
- the **venue year** is the preprint's or later (a preprint cited a year early is the usual case).

Only papers a venue accepted are candidates (rejected, withdrawn and undecided submissions are no venue
entry). Of the papers that fit, a whole-title fit beats a cut one and a main-track paper a side programme's
(workshop, findings); two left is :data:`AMBIGUOUS` (both offered, nothing replaced), none :data:`NOT_FOUND`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from services.search.catalogue import catalogue
from services.search.limits import MAX_WINDOW, VENUE_MATCH_CANDIDATES
from services.search.query.reading import MIN_KEY_CHARS
from services.search.records.documents import from_source
from services.search.records.model import Paper, title_key
from services.search.records.paper_names import fold

FOUND, AMBIGUOUS, NOT_FOUND = "found", "ambiguous", "not_found"
# What a venue entry is written from (services/web/render/bibtex.py) and what a report shows of it.
SOURCE_FIELDS = ["paper_id", "conference", "conference_name", "year", "title", "authors", "track", "status",
                 "status_raw", "award", "links", "publication"]
_ALNUM = re.compile(r"[^\w]+|_", re.UNICODE)


@dataclass(frozen=True)
class CitedWork:
    """What one reference says of its paper: the title as text (TeX decoded), the first author's surname ("" when
    it names none), the year (None when it gives none)."""

    title: str
    surname: str = ""
    year: int | None = None

    @property
    def key(self) -> str:
        return title_key(self.title)


@dataclass(frozen=True)
class VenueMatch:
    """The decision for one work: :data:`FOUND` (one paper), :data:`AMBIGUOUS` (each fitting paper) or
    :data:`NOT_FOUND` (none)."""

    outcome: str
    papers: tuple[Paper, ...] = field(default=())

    @property
    def paper(self) -> Paper | None:
        return self.papers[0] if self.outcome == FOUND else None


def accepted_statuses() -> list[str]:
    """The status values of papers a venue accepted, whatever the programme."""
    outcomes = catalogue().statuses.outcomes
    return [status for status, outcome in outcomes.items() if outcome.accepted]


def whole_titles_body(keys: Sequence[str]) -> dict[str, Any]:
    """One search of every accepted paper whose title key is one of ``keys`` (a .bib's whole titles at once:
    500 searches of one term each cost Elasticsearch several times one ``terms`` search)."""
    return {"size": min(MAX_WINDOW, VENUE_MATCH_CANDIDATES * len(keys)), "_source": [*SOURCE_FIELDS, "title_key"],
            "track_total_hits": False, "query": {"bool": {"filter": [
                {"terms": {"status": accepted_statuses()}}, {"terms": {"title_key": list(keys)}}]}}}


def by_title_key(answer: dict[str, Any]) -> dict[str, list[Paper]]:
    """The papers of a :func:`whole_titles_body` answer, by their title key."""
    out: dict[str, list[Paper]] = {}
    for hit in answer.get("hits", {}).get("hits", []):
        out.setdefault(hit["_source"].get("title_key", ""), []).append(from_source(hit["_source"]))
    return out


def match_body(work: CitedWork, *, cut: bool = False) -> dict[str, Any] | None:
    """One search of the work's candidates among accepted papers: those of its whole title; with ``cut``, those
    whose title it starts and whose authors hold its surname (a second round, for the works the first did not
    find: a prefix costs Elasticsearch as much as the rest of the search). None when there is nothing to look up."""
    key = work.key
    if len(key) < MIN_KEY_CHARS or (cut and not work.surname):
        return None
    filters: list[dict] = [{"terms": {"status": accepted_statuses()}}]
    if cut:  # a cut title counts only beside an agreeing surname (decide)
        filters += [{"prefix": {"title_key": key + " "}},
                    {"match": {"authors_folded": {"query": fold(work.surname), "operator": "and"}}}]
    else:
        filters.append({"term": {"title_key": key}})
    return {"size": VENUE_MATCH_CANDIDATES, "_source": SOURCE_FIELDS, "query": {"bool": {"filter": filters}},
            "track_total_hits": False}


def candidates(answer: dict[str, Any]) -> list[Paper]:
    """The papers of one search's answer (an ``msearch`` response's item)."""
    return [from_source(hit["_source"]) for hit in answer.get("hits", {}).get("hits", [])]


def decide(work: CitedWork, papers: Sequence[Paper]) -> VenueMatch:
    """The work's venue paper among ``papers`` (see the module docstring)."""
    key = work.key
    whole, cut = [], []
    for paper in papers:
        if not _year_fits(work, paper) or (work.surname and not surname_agrees(work.surname, paper)):
            continue
        if title_key(paper.title) == key:
            whole.append(paper)
        elif work.surname and _before_colon(paper.title) == key:
            cut.append(paper)
    fitting = _unique(whole or cut)
    main = [p for p in fitting if _main(p)]
    fitting = main or fitting
    if not fitting:
        return VenueMatch(NOT_FOUND)
    return VenueMatch(FOUND if len(fitting) == 1 else AMBIGUOUS, tuple(fitting))


def surname_agrees(surname: str, paper: Paper) -> bool:
    """The cited surname is the paper's first author's: their last word, or a word of their name, or the end
    of it ("van der Maaten", "Ben-David"), case, accents and punctuation aside."""
    if not paper.authors:
        return False
    cited = _ALNUM.sub("", fold(surname))
    words = [_ALNUM.sub("", w) for w in fold(paper.authors[0].name).split()]
    return bool(cited) and (cited in words or "".join(words).endswith(cited) or cited.endswith(words[-1] or "\0"))


def _year_fits(work: CitedWork, paper: Paper) -> bool:
    return work.year is None or int(paper.year) >= work.year


def _before_colon(title: str) -> str:
    head, colon, _ = title.partition(":")
    return title_key(head) if colon else ""


def _main(paper: Paper) -> bool:
    return catalogue().statuses.outcomes[paper.status].main if paper.status in catalogue().statuses.outcomes else True


def _unique(papers: list[Paper]) -> list[Paper]:
    return list({p.paper_id: p for p in papers}.values())
