"""Numbers about a result set (trends) and about a conference's years (venue statistics).

Bodies and shaping only; :class:`~services.search.service.PaperSearch` sends the bodies.
Trends aggregate over :func:`.search_body.result_query`, so they count exactly the hits of
the same search. Venue statistics read each raw status through the catalogue
(decided / accepted / tier / main track, see catalogue/statuses.toml).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from . import conferences
from .catalogue import catalogue
from .request import SearchRequest
from .search_body import result_query

Body = dict[str, Any]

# Terms buckets asked for first; an answer that left buckets out is asked again, larger,
# so no conference, topic or status is ever dropped from the counts.
BUCKETS = 500
MAX_BUCKETS = 500 * 8 ** 3
NO_STATUS = "(none)"  # how ``by_status`` names records whose source gives no status
TIERS = ("oral", "spotlight", "poster")

_PER_YEAR = {"histogram": {"field": "year", "interval": 1, "min_doc_count": 1}}


class YearCount(NamedTuple):
    year: int
    count: int


class KeyYearCount(NamedTuple):
    key: str  # a conference or topic slug
    year: int
    count: int


@dataclass(frozen=True)
class Trends:
    """Papers per year, per conference and year, per topic and year, of one result set."""

    total: int
    by_year: tuple[YearCount, ...]
    by_conference_year: tuple[KeyYearCount, ...]
    by_topic_year: tuple[KeyYearCount, ...]  # a paper counts once under each of its topics

    @property
    def years(self) -> tuple[int, ...]:
        return tuple(y.year for y in self.by_year)


def trends_body(req: SearchRequest, buckets: int = BUCKETS) -> Body:
    return {"query": result_query(req), "size": 0, "track_total_hits": True, "aggs": {
        "years": _PER_YEAR,
        "conferences": {"terms": {"field": "conference", "size": buckets}, "aggs": {"years": _PER_YEAR}},
        "topics": {"terms": {"field": "topics", "size": buckets}, "aggs": {"years": _PER_YEAR}},
    }}


def shape_trends(resp: Mapping[str, Any]) -> Trends:
    aggs = resp["aggregations"]
    return Trends(
        total=resp["hits"]["total"]["value"],
        by_year=tuple(YearCount(int(b["key"]), b["doc_count"]) for b in aggs["years"]["buckets"]),
        by_conference_year=_per_key_year(aggs["conferences"]),
        by_topic_year=_per_key_year(aggs["topics"]),
    )


def _per_key_year(agg: Mapping[str, Any]) -> tuple[KeyYearCount, ...]:
    rows = (KeyYearCount(b["key"], int(y["key"]), y["doc_count"])
            for b in agg["buckets"] for y in b["years"]["buckets"])
    return tuple(sorted(rows, key=lambda r: (r.year, r.key)))


@dataclass(frozen=True)
class VenueYear:
    """One venue-year: every record the source lists, by raw status and by outcome.

    Counts named for the main track (accepted, tiers, rejected, decided) leave out side
    programmes (findings, workshops, demos, ...), which ``papers`` and ``by_status`` include.
    A journal (``kind``) publishes what it accepts, all year round: its year is a volume year,
    with no submissions, no acceptance rate and no oral/spotlight split.
    """

    conference: str
    year: int
    papers: int
    by_status: dict[str, int]   # raw status as the source writes it -> records
    by_outcome: dict[str, int]  # outcome name (statuses.toml) -> records
    accepted: int
    oral: int
    spotlight: int
    poster: int
    rejected: int
    decided: int
    withdrawn: int
    other_programmes: int  # records of side programmes (main = false)
    kind: str = "conference"  # the venue's, in the catalogue

    @property
    def is_journal(self) -> bool:
        return self.kind == "journal"

    @property
    def rejections_listed(self) -> bool:
        """Does the source list rejected papers? Accepted-only lists give no rate."""
        return self.rejected > 0

    @property
    def submissions(self) -> int | None:
        """Main-track submissions (withdrawn and undecided too), when the source lists rejections;
        None for a journal."""
        return self.papers - self.other_programmes if self.rejections_listed and not self.is_journal else None

    @property
    def acceptance_rate(self) -> float | None:
        """Accepted / decided on the main track; None when no rejections are listed (never a fake
        100%) and for a journal."""
        if self.submissions is None or not self.decided:
            return None
        return round(self.accepted / self.decided, 4)


def venue_body(conference: str, year: int | None = None, buckets: int = BUCKETS) -> Body:
    """Records of a conference (one year, or all) per year and raw status, hidden statuses included."""
    filters: list[Body] = [{"term": {"conference": conference}}]
    if year is not None:
        filters.append({"term": {"year": year}})
    statuses = {"terms": {"field": "status_raw", "size": buckets, "missing": ""}}
    return {"query": {"bool": {"filter": filters}}, "size": 0, "track_total_hits": True,
            "aggs": {"years": {**_PER_YEAR, "aggs": {"statuses": statuses}}}}


def shape_venue(conference: str, resp: Mapping[str, Any]) -> list[VenueYear]:
    """The conference's years, oldest first."""
    return [venue_year(conference, int(b["key"]), {s["key"]: s["doc_count"] for s in b["statuses"]["buckets"]})
            for b in resp["aggregations"]["years"]["buckets"]]


def venue_year(conference: str, year: int, raw_counts: Mapping[str, int]) -> VenueYear:
    """Statistics of one conference-year from its record count per raw status."""
    cat = catalogue()
    counts = dict.fromkeys(("accepted", *TIERS, "rejected", "decided", "withdrawn", "other_programmes"), 0)
    by_outcome: dict[str, int] = {}
    for raw, n in raw_counts.items():
        name = cat.outcome_name(conference, raw)
        outcome = cat.statuses.outcomes[name]
        by_outcome[name] = by_outcome.get(name, 0) + n
        if not outcome.main:
            counts["other_programmes"] += n
            continue
        counts["withdrawn"] += n if name == "withdrawn" else 0
        counts["decided"] += n if outcome.decided else 0
        counts["rejected"] += n if outcome.decided and not outcome.accepted else 0
        if outcome.accepted:
            counts["accepted"] += n
            if outcome.tier in TIERS:
                counts[outcome.tier] += n
    by_status = {raw or NO_STATUS: n for raw, n in sorted(raw_counts.items(), key=lambda kv: (-kv[1], kv[0]))}
    return VenueYear(conference=conference, year=year, papers=sum(raw_counts.values()), by_status=by_status,
                     by_outcome=dict(sorted(by_outcome.items(), key=lambda kv: -kv[1])),
                     kind=conferences.lookup(conference).kind, **counts)


def left_out(node: Any) -> bool:
    """Did any terms aggregation in this (part of an) answer leave buckets out?"""
    if isinstance(node, Mapping):
        return bool(node.get("sum_other_doc_count")) or any(left_out(v) for v in node.values())
    if isinstance(node, list):
        return any(left_out(v) for v in node)
    return False


def aggregate(send: Callable[[Body], Mapping[str, Any]], body_of: Callable[[int], Body]) -> Mapping[str, Any]:
    """Send ``body_of(buckets)``, growing ``buckets`` until no terms bucket is left out."""
    buckets = BUCKETS
    while True:
        resp = send(body_of(buckets))
        if buckets >= MAX_BUCKETS or not left_out(resp.get("aggregations")):
            return resp
        buckets *= 8
