"""What ``paperlist status`` reports, as data: each part gathered on its own, so one outage shows as such.

Besides health, it reads the index against the catalogue: the venues the catalogue does not
know (they work, with a label derived from the slug) and the status words no rule reads (taken
as accepted by default), so an operator sees what a new source needs in ``venues.toml``. How it is
drawn in a terminal is the CLI's (:mod:`services.cli.status`).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field

import redis
from elasticsearch import Elasticsearch

from services.search.catalogue import catalogue, venues
from services.search.engine import followed_store, indices
from services.search.engine.client import make_client
from services.settings import Settings

from .celery_app import redis_client
from .ingest import passes
from .rebuild.state import ReindexState


@dataclass
class StatusReport:
    elasticsearch: str = "unknown"
    alias: str = ""
    index: str | None = None
    indices: list[dict] = field(default_factory=list)
    total: int = 0
    conferences: list[tuple[str, int]] = field(default_factory=list)
    kinds: dict[str, str] = field(default_factory=dict)  # conference slug -> its kind in the catalogue
    unknown_venues: list[str] = field(default_factory=list)  # slugs the catalogue does not list
    status_words: int = 0  # distinct (venue, raw status) pairs in the index
    unmapped_statuses: list[tuple[str, str, int]] = field(default_factory=list)  # (venue, raw status, papers)
    redis: str = "unknown"
    queue: str = ""
    queue_depth: int | None = None
    reindex: dict | None = None
    passes: dict = field(default_factory=dict)  # the corpus passes' state (ingest.passes.state)
    followed: dict = field(default_factory=dict)  # followed sources: how many, failing, alerts
    problems: list[str] = field(default_factory=list)

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=2)


def collect_status(settings: Settings) -> StatusReport:
    report = StatusReport(alias=settings.index, queue=settings.queue)
    es = make_client(settings, request_timeout=5, max_retries=0)
    try:
        _elasticsearch(es, settings.index, report)
        report.followed = _followed(es, settings.index)
    except Exception as exc:  # noqa: BLE001 - status reports every failure, whatever it is
        report.elasticsearch = "unreachable"
        report.problems.append(f"Elasticsearch: {exc}")
    client = redis_client(settings)
    try:
        client.ping()
        report.redis = "ok"
        report.queue_depth = int(client.llen(settings.queue))
        state = ReindexState(client, settings.index).load()
        report.reindex = state or None
        report.passes = passes.state(client, settings.index)
    except redis.RedisError as exc:
        report.redis = "unreachable"
        report.problems.append(f"Redis: {exc}")
    return report


def _elasticsearch(es: Elasticsearch, alias: str, report: StatusReport) -> None:
    report.elasticsearch = es.cluster.health()["status"]
    report.index = indices.current_index(es, alias)
    report.indices = [asdict(i) for i in indices.list_indices(es, alias)]
    if not report.index:
        report.problems.append(f"alias {alias} does not exist yet: run `paperlist ingest` or `paperlist up`")
        return
    resp = es.search(index=alias, size=0, track_total_hits=True, aggs={"conf": {
        "terms": {"field": "conference", "size": 500},
        "aggs": {"statuses": {"terms": {"field": "status_raw", "size": 500, "missing": ""}}}}})
    report.total = resp["hits"]["total"]["value"]
    buckets = resp["aggregations"]["conf"]["buckets"]
    report.conferences = [(b["key"], b["doc_count"]) for b in buckets]
    _against_the_catalogue(report, {b["key"]: {s["key"]: s["doc_count"] for s in b["statuses"]["buckets"]}
                                    for b in buckets})


def _against_the_catalogue(report: StatusReport, statuses: dict[str, dict[str, int]]) -> None:
    """Kinds, unknown venues and unmapped status words of the index's venues."""
    cat = catalogue()
    report.kinds = {slug: venues.lookup(slug).kind for slug in statuses}
    report.unknown_venues = sorted(slug for slug in statuses if cat.venue(slug) is None)
    pairs = [(slug, raw, n) for slug, counts in statuses.items() for raw, n in counts.items()]
    report.status_words = sum(1 for _, raw, _ in pairs if raw)
    report.unmapped_statuses = sorted((slug, raw, n) for slug, raw, n in pairs if not cat.reads(slug, raw))


def _followed(es: Elasticsearch, alias: str) -> dict:
    """The followed sources in brief: how many, which fail, which have a refused change."""
    sources = followed_store.all_sources(es, followed_store.index_of(alias))
    return {"sources": len(sources),
            "failing": {s.url: s.last_error for s in sources if s.failing},
            "alerts": {s.url: s.alert for s in sources if s.alert}}
