"""Reading an alias for the people decision: every paper's facts, its slots, and the ids stored last time.

A module of its own because two readers must read the same thing: the pass (:mod:`.index_pass`), which
decides over what it reads, and the benchmark (``bench/corpus/people.py``), which hides half the profile
ids of what it reads and scores the decision. A benchmark that built its slots some other way (from the
raw corpus, with fields the index never stores) would measure a decision the pass never makes.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from elasticsearch import Elasticsearch, helpers

from services.search.records.embedding import EMBEDDING

from .slots import Slot, credible, profile_ids
from .summaries import PaperFacts

FIELDS = ["year", "conference", "title", "status", "topics", "authors", "author_ids", EMBEDDING]
SCAN_SIZE = 1000


@dataclass(frozen=True)
class CorpusRead:
    """What one read of an alias gives the decision and the writes after it."""

    facts: list[PaperFacts]
    slots: list[Slot]                               # every author place of every paper, paper by paper
    previous: dict[tuple[str, int], str]            # (paper id, place) -> the person id stored last time
    stored: dict[str, list[str | None]]             # paper id -> its author_ids as stored
    vectors: np.ndarray | None                      # the embeddings the slots' ``vector`` rows point at


def paper_facts(paper_id: str, source: dict) -> PaperFacts:
    """A paper's facts from its stored document."""
    authors = source.get("authors") or []
    return PaperFacts(
        paper_id=paper_id, title=source.get("title") or "", conference=source.get("conference") or "",
        year=int(source.get("year") or 0), status=source.get("status") or "",
        topics=tuple(source.get("topics") or ()), names=tuple(a.get("name") or "" for a in authors),
        affiliations=tuple(a.get("affiliation") or "" for a in authors),
        profiles=tuple(a.get("author_id") or "" for a in authors),
        orcids=tuple(a.get("orcid") or "" for a in authors))


def place_slot(paper: PaperFacts, place: int, vector: int) -> Slot:
    """The slot of one author place: its profile ids only where the name can be theirs (:func:`.slots.credible`)."""
    name = paper.names[place]
    return Slot(paper_id=paper.paper_id, position=place, name=name, year=paper.year, venue=paper.conference,
                affiliation=paper.affiliations[place],
                profile_ids=tuple(p for p in profile_ids(paper.profiles[place], paper.orcids[place]) if credible(name, p)),
                coauthors=paper.names[:place] + paper.names[place + 1:], topics=paper.topics, vector=vector)


def read_corpus(es: Elasticsearch, alias: str) -> CorpusRead:
    """Every paper of ``alias``: its facts and slots, the person ids stored by place, and the embeddings."""
    facts: list[PaperFacts] = []
    slots: list[Slot] = []
    previous: dict[tuple[str, int], str] = {}
    stored: dict[str, list[str | None]] = {}
    rows: list[list[float]] = []
    for hit in helpers.scan(es, index=alias, _source=FIELDS, size=SCAN_SIZE, scroll="5m",
                            query={"query": {"match_all": {}}}):
        source, paper_id = hit["_source"], hit["_id"]
        paper = paper_facts(paper_id, source)
        facts.append(paper)
        vector = -1
        if source.get(EMBEDDING):
            vector = len(rows)
            rows.append(source[EMBEDDING])
        stored[paper_id] = ids = list(source.get("author_ids") or [])
        for place in range(len(paper.names)):
            slots.append(place_slot(paper, place, vector))
            if place < len(ids) and ids[place]:
                previous[(paper_id, place)] = ids[place]
    vectors = np.asarray(rows, np.float32) if rows else None
    return CorpusRead(facts, slots, previous, stored, vectors)
