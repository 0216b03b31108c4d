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

from services import redis_keys
from services.indexer.corpus.scales import from_index
from services.indexer.writes.bulk import update_papers
from services.search.engine import indices
from services.search.records.documents import from_source, name_fields
from services.search.records.prominence import prominence, scale_key

from .decide import Entry, corpus_names
from .memo import NamesMemo

log = logging.getLogger(__name__)

# What the pass reads of each paper: its text and own names, what it may change, and the inputs of the prior.
FIELDS = ["year", "title", "abstract", "names", "given_names", "introduced", "mentions", "prominence",
          "conference", "status", "award", "rating_avg", "citations", "links"]
SCAN_SIZE = 2000
INCREMENTAL_MAX = 20_000  # more papers written than this: read every paper again (the texts' memory still counts)


@dataclass(frozen=True)
class PassResult:
    papers: int
    named: int       # papers with at least one name
    introduced: int  # papers that introduced a name
    updated: int     # papers written
    seconds: float
    mode: str = "whole"  # or "incremental": only the written papers were read (see run_pass)
    reread: int = 0      # texts read anew (the rest were remembered from the last pass)


def run_pass(es: Elasticsearch, client: redis.Redis, alias: str, written: set[str] | None = None, *,
             keep: bool = True) -> PassResult:
    """Recompute every paper's corpus names over ``alias`` and write the changes.

    ``written``: the papers written since the last pass (:mod:`services.indexer.ingest.passes`). Given, the pass is
    incremental: this process's copy of the alias's papers is brought up to date by reading those papers
    alone, and the texts are read again only where they changed (:mod:`.memo`); the answer is the same as a
    whole pass's. Without it (a reindex, a prune, on demand), or when the copy cannot be trusted (another
    index behind the alias, another count of papers, a new process, or a pass that ran in another process
    since this one's last: the papers it took are not in this copy), every paper is read from the index.

    ``keep``: keep the copy for the next pass in this process (a rebuild's pass over its new index does not:
    the copy would be read again from the alias anyway, and it holds the whole corpus in memory).
    """
    started = time.monotonic()
    es.indices.refresh(index=alias)
    run = int(client.incr(redis_keys.pass_runs(alias, "names")))  # every pass over the alias, in any process
    kept = _KEPT.pop(alias, None) if not keep else _KEPT.get(alias)
    index = indices.current_index(es, alias)
    if (written is not None and len(written) <= INCREMENTAL_MAX and kept and kept.index == index
            and kept.run == run - 1):
        kept.update(_read(es, alias, {"ids": {"values": sorted(written)}}, len(written)))
        if es.count(index=alias)["count"] != len(kept.sources):
            kept = None  # something wrote without telling: read everything
    else:
        kept = None
    mode = "incremental" if kept else "whole"
    if kept is None:
        memo = _KEPT[alias].memo if alias in _KEPT and written is not None else NamesMemo()
        kept = _Kept(index, _read(es, alias, {"match_all": {}}), memo)
        if keep:
            _KEPT[alias] = kept
    sources = kept.sources
    ids = list(sources)
    entries = [Entry(i, int(s.get("year") or 0), s.get("title") or "", s.get("abstract") or "",
                     tuple(s.get("names") or ())) for i, s in ((i, sources[i]) for i in ids)]
    named = corpus_names(entries, kept.memo)
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
    kept.update({i: {**sources[i], **{k: v for k, v in doc.items() if k in FIELDS}} for i, doc in updates.items()})
    kept.run = run  # the copy is current as of this pass: the next may read only what is written after it
    result = PassResult(len(ids), sum(1 for f in named if f.names), sum(1 for f in named if f.introduced), updated,
                        round(time.monotonic() - started, 1), mode, kept.memo.reread)
    log.info("name pass over %s: %s", alias, result)
    return result


@dataclass
class _Kept:
    """This process's copy of an alias's papers as the pass reads them, and its memory of their texts."""

    index: str | None
    sources: dict[str, dict]
    memo: NamesMemo
    run: int = 0  # the pass (redis_keys.pass_runs) after which the copy was current; 0: never complete

    def update(self, sources: dict[str, dict]) -> None:
        self.sources.update(sources)


_KEPT: dict[str, _Kept] = {}


def _read(es: Elasticsearch, alias: str, query: dict, size: int = SCAN_SIZE) -> dict[str, dict]:
    return {hit["_id"]: hit["_source"] for hit in helpers.scan(es, index=alias, _source=FIELDS, size=max(1, min(size, SCAN_SIZE)),
                                                               scroll="5m", query={"query": query})}
