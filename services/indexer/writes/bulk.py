"""Bulk writes into the live index: skip unchanged papers, collect per-document failures."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone

import redis
from elasticsearch import Elasticsearch, helpers

from services.search.engine.generation import bump_generation
from services.search.records.documents import to_document
from services.search.records.model import Paper

from .journal import WriteGate, WriteJournal
from .vectors import vector_fields

BULK_CHUNK = 500
BULK_BYTES = 20 * 1024 * 1024
READ_ONLY = "cluster_block_exception"  # e.g. the disk's flood-stage watermark made the index read-only


class IndexReadOnly(RuntimeError):
    """Elasticsearch refuses every write to the index: retrying cannot help until an operator acts."""


@dataclass
class WriteResult:
    indexed: int = 0
    unchanged: int = 0
    failures: list[tuple[Paper, str]] = field(default_factory=list)
    venue_years: set[tuple[str, int]] = field(default_factory=set)  # of the papers written: their maps are out of date
    written: list[str] = field(default_factory=list)  # ids written: the next names pass reads them


def index_papers(es: Elasticsearch, client: redis.Redis, alias: str, papers: Sequence[Paper],
                 run_id: str) -> WriteResult:
    """Index the papers whose content hash changed; unchanged ones are left alone.

    A paper already stored with the same hash *by this run* counts as indexed: that is
    a retried batch whose first attempt got as far as Elasticsearch.
    """
    result = WriteResult()
    if not papers:
        return result
    stored = _stored_hashes(es, alias, [p.paper_id for p in papers])
    changed = []
    for paper in papers:
        previous = stored.get(paper.paper_id)
        if previous and previous[0] == paper.content_hash:
            if previous[1] == run_id:
                result.indexed += 1
            else:
                result.unchanged += 1
        else:
            changed.append(paper)
    if not changed:
        return result
    now = datetime.now(timezone.utc).isoformat(timespec="seconds")
    by_id = {p.paper_id: p for p in changed}
    vectors = vector_fields(changed)  # only the changed papers: unchanged ones keep theirs
    with WriteGate(client, alias).writing():
        WriteJournal(client, alias).record(by_id)
        actions = ({"_op_type": "index", "_index": alias, "_id": p.paper_id,
                    "_source": {**to_document(p, run=run_id, indexed_at=now), **vectors.get(p.paper_id, {})}}
                   for p in changed)
        for ok, item in helpers.streaming_bulk(
            es, actions, chunk_size=BULK_CHUNK, max_chunk_bytes=BULK_BYTES,
            raise_on_error=False, raise_on_exception=True, max_retries=5, initial_backoff=1,
        ):
            info = item.get("index", {})
            if ok:
                result.indexed += 1
                paper = by_id[info.get("_id")]
                result.venue_years.add((paper.conference, paper.year))
                result.written.append(paper.paper_id)
            else:
                result.failures.append((by_id[info.get("_id")], _reason(info)))
    bump_generation(client, alias)  # cached answers over the alias are now out of date
    blocked = next((reason for _, reason in result.failures if READ_ONLY in reason), None)
    if blocked:
        raise IndexReadOnly(blocked)
    return result


def update_papers(es: Elasticsearch, client: redis.Redis, alias: str, updates: dict[str, dict]) -> int:
    """Partial updates (``{paper id: fields}``) of stored papers, journaled like any write; returns how
    many were written. A paper deleted meanwhile is no failure."""
    if not updates:
        return 0
    written = 0
    with WriteGate(client, alias).writing():
        WriteJournal(client, alias).record(updates)
        actions = ({"_op_type": "update", "_index": alias, "_id": i, "doc": doc} for i, doc in updates.items())
        for ok, item in helpers.streaming_bulk(es, actions, chunk_size=BULK_CHUNK, max_chunk_bytes=BULK_BYTES,
                                               raise_on_error=False, max_retries=5, initial_backoff=1):
            written += ok
    bump_generation(client, alias)
    return written


def delete_papers(es: Elasticsearch, client: redis.Redis, alias: str, ids: Sequence[str]) -> int:
    """Bulk delete (the core distribution has no delete_by_query); returns how many went."""
    if not ids:
        return 0
    deleted = 0
    with WriteGate(client, alias).writing():
        WriteJournal(client, alias).record(ids)
        actions = ({"_op_type": "delete", "_index": alias, "_id": i} for i in ids)
        for ok, item in helpers.streaming_bulk(es, actions, chunk_size=BULK_CHUNK, raise_on_error=False,
                                               max_retries=5, initial_backoff=1):
            info = item.get("delete", {})
            deleted += ok and info.get("result") == "deleted"
    bump_generation(client, alias)
    return deleted


def _stored_hashes(es: Elasticsearch, alias: str, ids: list[str]) -> dict[str, tuple[str, str]]:
    # Not realtime: a realtime get of a just-written id forces a refresh. Missing a
    # document written in the last second only means indexing it once more.
    resp = es.mget(index=alias, ids=ids, source_includes=["content_hash", "ingest_run"], realtime=False)
    out = {}
    for doc in resp["docs"]:
        if doc.get("found"):
            src = doc.get("_source") or {}
            out[doc["_id"]] = (src.get("content_hash", ""), src.get("ingest_run", ""))
    return out


def _reason(info: dict) -> str:
    error = info.get("error") or {}
    if isinstance(error, dict):
        text = f"{error.get('type', 'error')}: {error.get('reason', '')}"
        cause = error.get("caused_by") or {}
        if cause.get("reason"):
            text += f" ({cause['reason']})"
        return f"Elasticsearch rejected the document: {text}"[:500]
    return f"Elasticsearch rejected the document: {error}"[:500]
