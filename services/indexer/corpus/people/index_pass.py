"""The people pass over an index: read every paper's authors once, decide who is who, write what changed.

Why a pass over the whole alias and not over the records being ingested: who a "Yang Liu" is depends
on every other paper of the name (a new paper may join two of them, or show one was two), so the
decision is made over the whole corpus after each ingest that wrote, and over a rebuild's copy before
its swap. What it writes is only what changed: a paper's ``author_ids`` (a partial update, journaled
like any write, so a rebuild running meanwhile replays it) and the people index's documents whose
summary changed, plus a :class:`~services.search.records.people.Successor` for each id a merge or a
split retired. Ids are kept across runs (:func:`.ids.stable_ids`), so a page's address outlives new papers.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import redis
from elasticsearch import Elasticsearch

from services.indexer.writes.bulk import update_papers
from services.search.engine import people_store
from services.search.records.people import Person, Successor

from .curation import Overrides, load_overrides
from .decide import Decision, decide
from .ids import redirects
from .reader import read_corpus
from .succession import stable_ids
from .summaries import summaries

log = logging.getLogger(__name__)

OVERRIDES = Path(__file__).with_name("overrides.toml")


@dataclass(frozen=True)
class PassResult:
    papers: int
    slots: int
    people: int
    updated: int     # papers whose author_ids were written
    written: int     # people index documents written (people whose summary changed, successors)
    retired: int     # ids a merge or split retired
    seconds: float
    decide_seconds: float


def run_pass(es: Elasticsearch, client: redis.Redis, alias: str, people_index: str,
             overrides: Overrides | None = None) -> PassResult:
    """Decide every author place's person over ``alias`` and write the changes."""
    started = time.monotonic()
    es.indices.refresh(index=alias)
    read = read_corpus(es, alias)
    facts, slots, previous, stored_ids, vectors = read.facts, read.slots, read.previous, read.stored, read.vectors
    deciding = time.monotonic()
    decision = decide(slots, vectors, overrides=overrides if overrides is not None else load_overrides(OVERRIDES))
    for problem in decision.skipped:
        log.warning("people pass over %s: an override names nothing: %s", alias, problem)
    persons = stable_ids(slots, decision.clusters, decision.persons, previous)
    decide_seconds = time.monotonic() - deciding
    current = {slot.key: person for slot, person in zip(slots, persons)}
    updates = {}
    for paper in facts:
        ids = [current.get((paper.paper_id, place)) for place in range(len(paper.names))]
        if ids != stored_ids.get(paper.paper_id):
            updates[paper.paper_id] = {"author_ids": ids}
    updated = update_papers(es, client, alias, updates)
    display = {stable: decision.names[chosen] for stable, chosen in zip(persons, decision.persons)
               if chosen in decision.names}
    people = summaries(facts, current, display)
    retired = redirects(previous, current)
    written = _store(es, people_index, people, retired)
    result = PassResult(len(facts), len(slots), len(people), updated, written, len(retired),
                        round(time.monotonic() - started, 1), round(decide_seconds, 1))
    log.info("people pass over %s: %s", alias, result)
    return result


@dataclass(frozen=True)
class Reading:
    """An alias's people as the pass would decide them now, for an operator's questions (no write)."""

    decision: Decision
    vectors: np.ndarray | None
    stored: dict[tuple[str, int], str]      # (paper id, position) -> the person id the index holds


def decide_alias(es: Elasticsearch, alias: str, overrides: Overrides | None = None) -> Reading:
    """Read ``alias`` and decide its people as :func:`run_pass` would, writing nothing."""
    read = read_corpus(es, alias)
    decision = decide(read.slots, read.vectors,
                      overrides=overrides if overrides is not None else load_overrides(OVERRIDES))
    return Reading(decision, read.vectors, read.previous)


def _store(es: Elasticsearch, index: str, people: list[Person], retired: dict[str, tuple[str, ...]]) -> int:
    """Write the people whose summary changed and a successor for each retired id; delete the people that
    vanished without one (their papers are gone). Successors stay: an old address keeps leading somewhere."""
    stored = people_store.stored(es, index)
    successors = [Successor(person_id=old, change="merged" if len(new) == 1 else "split", successors=list(new))
                  for old, new in retired.items()]
    entries = [e for e in [*people, *successors] if stored.get(e.person_id, ("", ""))[1] != people_store.digest(e)]
    alive = {p.person_id for p in people} | set(retired)
    gone = [i for i, (kind, _) in stored.items() if i not in alive and kind == people_store.PERSON]
    return people_store.write(es, index, entries, gone)
