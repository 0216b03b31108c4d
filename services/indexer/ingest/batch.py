"""One batch of an ingest, as a worker runs it: normalise each record, write the papers, count.

The operator's side (:mod:`.dispatch`) sends a batch as raw records with their origins and the
prominence scale of each venue-year in it (the whole list made them); here every record becomes a
:class:`~services.search.records.model.Paper` or a reject with its reason, the papers are written
(unchanged ones skipped), and the counts are added to the run once, however often the batch runs.
"""

from __future__ import annotations

import logging
import time

import redis
from elasticsearch import Elasticsearch

from services.indexer.paper.normalise import Rejected, normalise
from services.indexer.sources import Origin, origin_from_path
from services.indexer.writes.bulk import index_papers
from services.search.records.prominence import VenueScale

from . import merge
from .passes import note_written
from .progress import IngestRun, reject_entry

log = logging.getLogger(__name__)


def write_batch(es: Elasticsearch, client: redis.Redis, run: IngestRun, alias: str, batch_id: str,
                segments: list[dict], scales: dict[str, VenueScale]) -> dict:
    """Normalise and write ``segments`` = [{source, origin: hints, records: [[pos, record]]}]; the counts,
    with the seconds each step took (in the result and the worker log: where a slow ingest spends them)."""
    started = time.perf_counter()
    papers, rejects = [], []
    for segment in segments:
        source = segment["source"]
        hints = segment.get("origin") or origin_from_path(source, 0).hints()  # messages of older CLIs
        for position, record in segment["records"]:
            try:
                papers.append(normalise(record, Origin.from_hints(hints, position), scales))
            except Rejected as exc:
                rejects.append(reject_entry(source, position, str(exc), record))
            except Exception as exc:  # a bug on one odd record must not sink the batch
                log.exception("normalising %s#%s failed", source, position)
                rejects.append(reject_entry(source, position, f"internal error: {exc!r}"[:300], record))
    normalised = time.perf_counter()
    result = index_papers(es, client, alias, papers, run.run_id)
    rejects += [reject_entry(p.source, p.position, reason, {"title": p.title}) for p, reason in result.failures]
    run.note_venue_years(result.venue_years)
    note_written(client, alias, result.written)  # before the batch counts as done: its ingest then asks for the pass
    merge.note(client, alias, len(result.written))
    counts = {"indexed": result.indexed, "unchanged": result.unchanged, "rejected": len(rejects)}
    run.finish_batch(batch_id, counts, rejects)
    return {**counts, "normalise_s": round(normalised - started, 3),
            "index_s": round(time.perf_counter() - normalised, 3)}
