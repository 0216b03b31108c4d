"""The corpus pass over an index: read every paper once, let :mod:`services.indexer.corpus.names.decide` decide, write what changed.

Why a pass over the index and not over the records being ingested: what the corpus says of a
paper's names depends on every other paper (a 2024 abstract names a 2017 paper; a new list
raises an old paper's mentions), so it is recomputed over the whole alias after each ingest
and before a rebuild swaps in its index. Only papers whose given names, introduced names or
mentions changed are written (partial updates, journaled like any write, so a rebuild running
meanwhile replays them), each with its prominence prior recomputed with the new mentions.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

import redis
from elasticsearch import Elasticsearch, helpers

from services.indexer.corpus.scales import from_index
from services.indexer.writes.bulk import update_papers
from services.search.records.documents import from_source, name_fields
from services.search.records.prominence import prominence, scale_key

from .decide import Entry, corpus_names

log = logging.getLogger(__name__)

# What the pass reads of each paper: its text and own names, what it may change, and the inputs of the prior.
FIELDS = ["year", "title", "abstract", "names", "given_names", "introduced", "mentions", "prominence",
          "conference", "status", "award", "rating_avg", "citations", "links"]
SCAN_SIZE = 2000


@dataclass(frozen=True)
class PassResult:
    papers: int
    named: int       # papers with at least one name
    introduced: int  # papers that introduced a name
    updated: int     # papers written
    seconds: float


def run_pass(es: Elasticsearch, client: redis.Redis, alias: str, written: set[str] | None = None) -> PassResult:
    """Recompute every paper's corpus names over ``alias`` and write the changes (``written``: the papers
    written since the last pass, None when unknown)."""
    started = time.monotonic()
    es.indices.refresh(index=alias)
    sources = {hit["_id"]: hit["_source"] for hit in helpers.scan(es, index=alias, _source=FIELDS, size=SCAN_SIZE,
                                                                   scroll="5m", query={"query": {"match_all": {}}})}
    ids = list(sources)
    entries = [Entry(i, int(s.get("year") or 0), s.get("title") or "", s.get("abstract") or "",
                     tuple(s.get("names") or ())) for i, s in ((i, sources[i]) for i in ids)]
    named = corpus_names(entries)
    scales = from_index(es, alias)
    updates: dict[str, dict] = {}
    for paper_id, entry, found in zip(ids, entries, named):
        stored = sources[paper_id]
        given = found.names[len(entry.own):]
        if (given, found.introduced, found.mentions) == (stored.get("given_names") or [], stored.get("introduced") or [],
                                                         stored.get("mentions")):
            continue
        paper = from_source({**stored, "paper_id": paper_id}).model_copy(
            update={"given_names": given, "introduced": found.introduced, "mentions": found.mentions})
        prior = prominence(paper, scales.get(scale_key(paper.conference, paper.year)))
        updates[paper_id] = {**name_fields(paper), "prominence": prior}
    updated = update_papers(es, client, alias, updates)
    result = PassResult(len(ids), sum(1 for f in named if f.names), sum(1 for f in named if f.introduced), updated,
                        round(time.monotonic() - started, 1))
    log.info("name pass over %s: %s", alias, result)
    return result
