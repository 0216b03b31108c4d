"""Numbers about a result set (trends) and about a conference's years (venue statistics).

Bodies and shaping only; :class:`~services.search.service.PaperSearch` sends the bodies.
Trends aggregate over :func:`services.search.query.search_body.result_query`, so they count exactly the hits of
the same search. Venue statistics read each raw status through the catalogue
(decided / accepted / tier / main track, see catalogue/statuses.toml); they also count
what the source has (abstracts, affiliations, citations, reviews, code), so a page can
say what it lacks, and the review ratings by decision (:mod:`.score_histogram`).

Who publishes where (issue 33): a venue-year's institutions by listed papers and by oral and
spotlight papers, each with its papers at the venue per year (the trend). Affiliations are
counted as the index stores them, one display form per institution (the indexer's alias
table); only papers whose source gives affiliations count, and :class:`Institutions` says
how many those are.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any, NamedTuple

from services.search.catalogue import STATUSES, catalogue, venues
from services.search.query.facets import FACETS
from services.search.query.request import SearchRequest
from services.search.query.search_body import result_query

from .score_histogram import ScoreHistogram, score_histogram_agg, score_values_agg, shape_score_histogram

Body = dict[str, Any]

# Terms buckets asked for first; an answer that left buckets out is asked again, larger,
# so no conference, topic or status is ever dropped from the counts.
BUCKETS = 500
MAX_BUCKETS = 500 * 8 ** 3
NO_STATUS = "(none)"  # how ``by_status`` names records whose source gives no status
TIERS = ("oral", "spotlight", "poster")

_PER_YEAR = {"histogram": {"field": "year", "interval": 1, "min_doc_count": 1}}
# How the acceptance rate is defined, for pages and the API to show beside the figure.
ACCEPTANCE_RATE_DEFINITION = "accepted / submitted, where submitted counts accepted, rejected, desk-rejected " \
                             "and withdrawn main-track papers"
# Above this share accepted, a list's rejections are only some of them (OpenReview shows NeurIPS'
# rejected papers only where their authors opted in: 95% "accepted"): the rate of the listed
# decisions is given as the contract defines it, and said to be no venue's real rate.
MAX_CREDIBLE_RATE = 0.8
# What a venue-year's source may lack, each said when the source has none of it.
LACKS = {
    "tiers": "no oral/spotlight/poster tiers",
    "rejections": "no rejections",
    "all_rejections": "only some of its rejections (the rate counts the listed ones; the real one is lower)",
    "affiliations": "no affiliations",
    "abstracts": "no abstracts",
    "citations": "no citation counts",
    "reviews": "no review scores",
}
# Papers of a venue-year having each kind of data (the index's own fields).
_COVERAGE = {
    "abstracts": {"term": {"has_abstract": True}},
    "affiliations": {"exists": {"field": "affiliations.raw"}},
    "citations": {"exists": {"field": "citations"}},
    "reviews": {"exists": {"field": "rating_avg"}},
    "code": FACETS["has_code"].value_clause(True),  # the code facet's "Has code"
}


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


def trends_body(req: SearchRequest, buckets: int = BUCKETS, papers: int = 0) -> Body:
    """Counts per year, conference and topic of ``req``'s papers, and its first ``papers`` (titles and authors)."""
    listed = {"_source": ["title", "authors.name"]} if papers else {}
    return {"query": result_query(req), "size": papers, **listed, "track_total_hits": True, "aggs": {
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
class Coverage:
    """How many records of a venue-year have abstracts, affiliations, citation counts, review scores, code."""

    abstracts: int = 0
    affiliations: int = 0
    citations: int = 0
    reviews: int = 0
    code: int = 0


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
    undecided: int = 0  # main-track records with no decision yet (nor withdrawn): in no count of the rate
    kind: str = "conference"  # the venue's, in the catalogue
    coverage: Coverage | None = None  # None when not counted (statistics made from status counts alone)
    scores: ScoreHistogram | None = None  # mean review ratings by decision, when any paper has one

    @property
    def is_journal(self) -> bool:
        return self.kind == "journal"

    @property
    def rejections_listed(self) -> bool:
        """Does the source list rejected papers? Accepted-only lists give no rate."""
        return self.rejected > 0

    @property
    def rejections_complete(self) -> bool:
        """Are the listed rejections all of them, as far as the figures tell? Not when they leave more
        than :data:`MAX_CREDIBLE_RATE` of the decided papers accepted."""
        return self.rejections_listed and self.accepted <= MAX_CREDIBLE_RATE * self.decided

    @property
    def submissions(self) -> int | None:
        """Main-track submissions: accepted, rejected (desk rejections too) and withdrawn, the rate's
        denominator; None when the source lists no rejections, and for a journal."""
        if not self.rejections_listed or self.is_journal:
            return None
        return self.decided

    @property
    def acceptance_rate(self) -> float | None:
        """Accepted / :attr:`submissions` (see :data:`ACCEPTANCE_RATE_DEFINITION`); None without
        listed rejections (never a fake 100%) and for a journal; with only some of them listed
        (:attr:`rejections_complete` false) it is the listed decisions' rate, which pages say."""
        return round(self.accepted / self.submissions, 4) if self.submissions else None

    @property
    def lacks(self) -> tuple[str, ...]:
        """What the source has none of for this venue-year (keys of :data:`LACKS`), in that order."""
        missing = []
        if not self.is_journal and self.accepted and not (self.oral or self.spotlight or self.poster):
            missing.append("tiers")
        if not self.is_journal and not self.rejections_listed:
            missing.append("rejections")
        elif not self.is_journal and not self.rejections_complete:
            missing.append("all_rejections")
        if self.coverage is not None:
            missing.extend(name for name in ("affiliations", "abstracts", "citations", "reviews")
                           if not getattr(self.coverage, name))
        return tuple(missing)

    @property
    def scores_taken(self) -> date | None:
        """The day this venue-year's review scores were read, where that was before its decisions (the
        catalogue's ``scores_taken``, from the data's provenance): they are not the final values."""
        rated = self.scores is not None or bool(self.coverage and self.coverage.reviews)
        return venues.lookup(self.conference).scores_taken_on(self.year) if rated else None

    def lacks_labels(self, *names: str) -> tuple[str, ...]:
        """:attr:`lacks` as words (:data:`LACKS`), for the line a page shows; only ``names`` when given."""
        return tuple(LACKS[name] for name in self.lacks if not names or name in names)


def venue_body(conference: str, year: int | None = None, buckets: int = BUCKETS) -> Body:
    """Records of a conference (one year, or all) per year and raw status, hidden statuses included."""
    filters: list[Body] = [{"term": {"conference": conference}}]
    if year is not None:
        filters.append({"term": {"year": year}})
    statuses = {"terms": {"field": "status_raw", "size": buckets, "missing": ""}}
    return {"query": {"bool": {"filter": filters}}, "size": 0, "track_total_hits": True,
            "aggs": {"years": {**_PER_YEAR, "aggs": {"statuses": statuses,
                                                     "coverage": {"filters": {"filters": _COVERAGE}},
                                                     "scores": score_histogram_agg(buckets),
                                                     "score_values": score_values_agg(buckets)}}}}


def shape_venue(conference: str, resp: Mapping[str, Any]) -> list[VenueYear]:
    """The conference's years, oldest first."""
    return [venue_year(conference, int(b["key"]), {s["key"]: s["doc_count"] for s in b["statuses"]["buckets"]},
                       coverage=Coverage(**{k: v["doc_count"] for k, v in b["coverage"]["buckets"].items()}),
                       scores=shape_score_histogram(conference, b["scores"], b.get("score_values")))
            for b in resp["aggregations"]["years"]["buckets"]]


def venue_year(conference: str, year: int, raw_counts: Mapping[str, int], *, coverage: Coverage | None = None,
               scores: ScoreHistogram | None = None) -> VenueYear:
    """Statistics of one conference-year from its record count per raw status (and what else was counted)."""
    cat = catalogue()
    counts = dict.fromkeys(("accepted", *TIERS, "rejected", "decided", "withdrawn", "other_programmes",
                            "undecided"), 0)
    by_outcome: dict[str, int] = {}
    for raw, n in raw_counts.items():
        name = cat.outcome_name(conference, raw)
        outcome = cat.statuses.outcomes[name]
        by_outcome[name] = by_outcome.get(name, 0) + n
        if not outcome.main:
            counts["other_programmes"] += n
            continue
        counts["withdrawn"] += n if name == "withdrawn" else 0
        counts["undecided"] += n if not outcome.decided and name != "withdrawn" else 0
        counts["decided"] += n if outcome.decided or name == "withdrawn" else 0  # a withdrawal decides too
        counts["rejected"] += n if outcome.decided and not outcome.accepted else 0
        if outcome.accepted:
            counts["accepted"] += n
            if outcome.tier in TIERS:
                counts[outcome.tier] += n
    by_status = {raw or NO_STATUS: n for raw, n in sorted(raw_counts.items(), key=lambda kv: (-kv[1], kv[0]))}
    return VenueYear(conference=conference, year=year, papers=sum(raw_counts.values()), by_status=by_status,
                     by_outcome=dict(sorted(by_outcome.items(), key=lambda kv: -kv[1])),
                     kind=venues.lookup(conference).kind, coverage=coverage,
                     scores=scores if scores and scores.total else None, **counts)


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


# -- who publishes where ---------------------------------------------------------------------------

AFFILIATION_FIELD = "affiliations.raw"
HIGHLIGHTED_TIERS = ("oral", "spotlight")  # the tiers an institution is also ranked by


@dataclass(frozen=True)
class Institution:
    """An institution's listed papers at a venue-year, all and per tier (oral, spotlight, poster; none
    where the source gives no tiers), and its papers at the venue in each year (``by_year``: the trend)."""

    name: str
    papers: int
    by_tier: dict[str, int]
    by_year: tuple[YearCount, ...] = ()

    @property
    def highlighted(self) -> int:
        return sum(self.by_tier.get(t, 0) for t in HIGHLIGHTED_TIERS)


class YearCoverage(NamedTuple):
    year: int
    papers: int             # listed papers of the venue that year
    with_affiliations: int  # ... of which the source gives affiliations


@dataclass(frozen=True)
class Institutions:
    """Who publishes at a venue-year: institutions by listed papers and by oral and spotlight papers.

    Only the ``with_affiliations`` of the ``papers`` listed are counted (a source without affiliations
    names no institution); ``years`` gives the same two counts for every year of the venue, so a trend
    can be read as a share of what was counted.
    """

    conference: str
    year: int
    papers: int
    with_affiliations: int
    by_papers: tuple[Institution, ...]
    by_tier: tuple[Institution, ...]  # empty where the venue-year has no oral or spotlight papers
    years: tuple[YearCoverage, ...] = ()

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(i.name for i in (*self.by_papers, *self.by_tier)))


def _institution_terms(size: int, order: list[Body]) -> Body:
    # A venue-year names a few thousand institutions: every shard sends all it has, so counts are exact.
    return {"terms": {"field": AFFILIATION_FIELD, "size": size, "shard_size": max(10 * size, 5000), "order": order},
            "aggs": {"tiers": {"terms": {"field": "status", "size": len(STATUSES)}},
                     "highlighted": {"filter": {"terms": {"status": list(HIGHLIGHTED_TIERS)}}}}}


def _venue_filters(conference: str, year: int | None = None) -> list[Body]:
    """A conference's (or one year's) listed papers: rejected and withdrawn ones left out, as pages list them."""
    return [{"term": {"conference": conference}}, *([{"term": {"year": year}}] if year is not None else []),
            *FACETS.default_filters()]


def institutions_body(conference: str, year: int, size: int, tiered: int) -> Body:
    """The venue-year's listed papers, those with affiliations, and its top institutions both ways."""
    by_count = [{"_count": "desc"}, {"_key": "asc"}]
    return {"query": {"bool": {"filter": _venue_filters(conference, year)}}, "size": 0, "track_total_hits": True,
            "aggs": {"with_affiliations": {"filter": _COVERAGE["affiliations"]},
                     "by_papers": _institution_terms(size, by_count),
                     "by_tier": _institution_terms(tiered, [{"highlighted": "desc"}, *by_count])}}


def institution_years_body(conference: str, names: tuple[str, ...]) -> Body:
    """Per year of the venue: listed papers, those with affiliations, and each named institution's."""
    return {"query": {"bool": {"filter": _venue_filters(conference)}}, "size": 0, "aggs": {
        "years": {**_PER_YEAR, "aggs": {"with_affiliations": {"filter": _COVERAGE["affiliations"]}}},
        "names": {"terms": {"field": AFFILIATION_FIELD, "include": list(names), "size": max(len(names), 1)},
                  "aggs": {"years": _PER_YEAR}}}}


def _institution(bucket: Mapping[str, Any]) -> Institution:
    tiers = {b["key"]: b["doc_count"] for b in bucket["tiers"]["buckets"]}
    return Institution(bucket["key"], bucket["doc_count"], {t: tiers[t] for t in TIERS if tiers.get(t)})


def shape_institutions(conference: str, year: int, resp: Mapping[str, Any],
                       years: Mapping[str, Any] | None = None) -> Institutions:
    """:func:`institutions_body`'s answer, with the trend from :func:`institution_years_body`'s when given."""
    aggs = resp["aggregations"]
    trend: dict[str, tuple[YearCount, ...]] = {}
    coverage: tuple[YearCoverage, ...] = ()
    if years:
        per_year = years["aggregations"]
        trend = {b["key"]: tuple(YearCount(int(y["key"]), y["doc_count"]) for y in b["years"]["buckets"])
                 for b in per_year["names"]["buckets"]}
        coverage = tuple(YearCoverage(int(b["key"]), b["doc_count"], b["with_affiliations"]["doc_count"])
                         for b in per_year["years"]["buckets"])

    def with_trend(found: Institution) -> Institution:
        return Institution(found.name, found.papers, found.by_tier, trend.get(found.name, ()))

    by_tier = [_institution(b) for b in aggs["by_tier"]["buckets"] if b["highlighted"]["doc_count"]]
    return Institutions(conference, year, resp["hits"]["total"]["value"], aggs["with_affiliations"]["doc_count"],
                        tuple(with_trend(_institution(b)) for b in aggs["by_papers"]["buckets"]),
                        tuple(with_trend(i) for i in by_tier), coverage)
