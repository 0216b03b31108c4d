"""What the browse pages show (front page, conference and author pages): the bodies of their reads,
their typed answers, which conference-year the front page leads with, and which editions are
previews (partial lists), all decided from the counts the index gives."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from services.search.catalogue import taxonomy, venues
from services.search.limits import COMPLETE_SHARE, LEAD_MIN_SHARE, NEWEST_MIN_ABSTRACTS, NEWEST_MIN_PAPERS
from services.search.query.search_body import VISIBLE
from services.search.query.sorting import BROWSE_SORT, sort_clauses
from services.search.records.documents import SUMMARY_FIELDS
from services.search.records.model import Paper

Body = dict[str, Any]
_YEARS = {"terms": {"field": "year", "size": 100, "order": {"_key": "desc"}}}


@dataclass
class ConferenceSummary:
    """A venue's listed papers per year; ``hidden`` counts its rejected/withdrawn ones apart.

    ``kind`` is the catalogue's (conference, journal or workshop): a journal's years are
    volume years. ``abstracts`` counts, per year, the listed papers that have an abstract
    (filled by the front page's overview, which needs it to choose its lead).
    """

    slug: str
    name: str
    count: int
    years: list[tuple[int, int]]
    hidden: int = 0
    hidden_years: dict[int, int] = field(default_factory=dict)
    kind: str = "conference"
    abstracts: dict[int, int] = field(default_factory=dict)

    def has_year(self, year: int) -> bool:
        return year in dict(self.years) or year in self.hidden_years

    @property
    def is_journal(self) -> bool:
        return self.kind == "journal"

    def volume(self, year: int) -> int | None:
        """A journal's volume number of ``year``, where its volumes go by year (the catalogue's)."""
        return venues.lookup(self.slug).volume(year)

    def is_preview(self, year: int) -> bool:
        """Is ``year`` a partial list: the venue's newest edition with fewer papers than
        :data:`~services.search.limits.COMPLETE_SHARE` of its previous one (a first edition: fewer than
        :data:`~services.search.limits.NEWEST_MIN_PAPERS`)? NeurIPS 2026's 20 papers beside 2025's 5,823 are a
        preview of it, not the edition; an older year is never one (its list is all there is)."""
        listed = sorted(((y, n) for y, n in self.years if n), reverse=True)
        if not listed or listed[0][0] != year:
            return False
        if len(listed) == 1:
            return listed[0][1] < NEWEST_MIN_PAPERS
        return listed[0][1] < COMPLETE_SHARE * listed[1][1]

    def papers_in(self, year: int) -> int:
        """Listed papers of ``year`` (0 when none)."""
        return dict(self.years).get(year, 0)


@dataclass
class AuthorProfile:
    """The author's listed papers (as a search for the name lists them); ``hidden`` counted apart."""

    name: str
    total: int
    papers: list[Paper]
    years: list[tuple[int, int]]
    coauthors: list[tuple[str, int]]
    affiliations: list[tuple[str, int]]
    conferences: list[tuple[str, int]]
    hidden: int = 0
    shared_name: bool = False  # papers by several people may share this name (authors.looks_shared)
    spellings: list[tuple[str, int]] = field(default_factory=list)  # every spelling of the key, ``name`` first


@dataclass
class Overview:
    total: int
    conferences: list[ConferenceSummary]
    topics: list[tuple[str, str, int]]
    newest: list[Paper] = field(default_factory=list)
    newest_venue: tuple[str, int] | None = None  # (slug, year) the front page leads with
    newest_count: int = 0
    previews: list[tuple[str, int, int]] = field(default_factory=list)  # (slug, year, papers) held after the lead

    def summary(self, slug: str) -> ConferenceSummary | None:
        return next((c for c in self.conferences if c.slug == slug), None)


def _held(c: ConferenceSummary, year: int) -> tuple[int, int]:
    """When an edition is held, as (year, month): the catalogue's month, mid-year when it gives none."""
    return year, venues.lookup(c.slug).month or 6


def newest_conference_year(confs: list[ConferenceSummary], covered: float = NEWEST_MIN_ABSTRACTS,
                           share: float = LEAD_MIN_SHARE) -> tuple[str, int] | None:
    """The conference-year the front page leads with: the most recently held complete edition that matters.

    - Conferences only (journals publish all year round and have no edition to lead with).
    - Complete editions: not a preview (:meth:`ConferenceSummary.is_preview`: a partial list, a
      stray early record), or any when every edition is one.
    - The newest year; within it, when some edition has abstracts for at least ``covered`` of
      its papers, only such editions: a list of titles without abstracts never leads while a
      better-covered edition of the same year exists.
    - Of those, the editions with at least ``share`` of the biggest one's papers: a small
      edition held late in the year does not lead over a major one held earlier.
    - Then the month the venue is usually held (the catalogue's ``month``; unknown venues count
      as mid-year), so NeurIPS (December) comes after ICLR (April) of the same year.
    """
    held = [c for c in confs if c.kind == "conference"]
    everything = [(c, year, n) for c in held for year, n in c.years if n]
    candidates = [(c, year, n) for c, year, n in everything if not c.is_preview(year)] or everything
    if not candidates:
        return None
    season = max(year for _, year, _ in candidates)
    editions = [(c, n) for c, year, n in candidates if year == season]
    editions = [(c, n) for c, n in editions if c.abstracts.get(season, 0) >= covered * n] or editions
    biggest = max(n for _, n in editions)
    editions = [(c, n) for c, n in editions if n >= share * biggest]
    lead, _ = max(editions, key=lambda e: (_held(e[0], season), e[1], e[0].slug))
    return lead.slug, season


def previews_after(confs: list[ConferenceSummary], lead: tuple[str, int] | None) -> list[tuple[str, int, int]]:
    """The conferences' previews (partial newest editions) held after the lead, newest first, as
    (slug, year, papers): what the front page names beside its lead, as what they are."""
    by_slug = {c.slug: c for c in confs}
    after = _held(by_slug[lead[0]], lead[1]) if lead and lead[0] in by_slug else (0, 0)
    found = [(c, year, n) for c in confs if c.kind == "conference"
             for year, n in c.years if n and c.is_preview(year) and _held(c, year) > after]
    found.sort(key=lambda e: (_held(e[0], e[1]), e[0].slug), reverse=True)
    return [(c.slug, year, n) for c, year, n in found]


def overview_body() -> Body:
    """The front page's counts: listed papers per venue and year (and how many have an abstract), per topic."""
    return {"size": 0, "query": VISIBLE, "track_total_hits": True, "aggs": {
        "conf": {"terms": {"field": "conference", "size": 200},
                 "aggs": {"years": {**_YEARS, "aggs": {"abstracts": {"filter": {"term": {"has_abstract": True}}}}}}},
        "topics": {"terms": {"field": "topics", "size": 100}},
    }}


def shape_overview(body: Body) -> tuple[Overview, tuple[str, int] | None]:
    """The front page without its newest papers, and the conference-year it leads with (their read's)."""
    confs = [ConferenceSummary(b["key"], venues.label(b["key"]), b["doc_count"],
                               [(int(y["key"]), y["doc_count"]) for y in b["years"]["buckets"]],
                               kind=venues.lookup(b["key"]).kind,
                               abstracts={int(y["key"]): y["abstracts"]["doc_count"] for y in b["years"]["buckets"]})
             for b in body["aggregations"]["conf"]["buckets"]]
    topics = [(b["key"], taxonomy.label(b["key"]), b["doc_count"]) for b in body["aggregations"]["topics"]["buckets"]]
    overview = Overview(body["hits"]["total"]["value"], confs, topics)
    lead = newest_conference_year(confs)
    overview.previews = previews_after(confs, lead)
    return overview, lead


def newest_body(slug: str, year: int, size: int) -> Body:
    """The first listed papers of the conference-year the front page leads with, in browse order."""
    return {"size": size, "_source": SUMMARY_FIELDS, "sort": sort_clauses(BROWSE_SORT), "track_total_hits": True,
            "query": {"bool": {"filter": [VISIBLE, {"term": {"conference": slug}}, {"term": {"year": year}}]}}}


def conference_body(slug: str) -> Body:
    """A venue's papers per year, and the listed ones among them."""
    return {"size": 0, "query": {"term": {"conference": slug}}, "track_total_hits": True,
            "aggs": {"years": {**_YEARS, "aggs": {"listed": {"filter": VISIBLE}}}}}


def shape_conference(slug: str, body: Body) -> ConferenceSummary | None:
    """Listed papers per year (as the venue's pages list them), hidden ones counted apart; None without papers."""
    if not body["hits"]["total"]["value"]:
        return None
    buckets = body["aggregations"]["years"]["buckets"]
    years = [(int(b["key"]), b["listed"]["doc_count"]) for b in buckets if b["listed"]["doc_count"]]
    hidden = {int(b["key"]): b["doc_count"] - b["listed"]["doc_count"] for b in buckets
              if b["doc_count"] > b["listed"]["doc_count"]}
    return ConferenceSummary(slug, venues.label(slug), sum(n for _, n in years), years,
                             sum(hidden.values()), hidden, kind=venues.lookup(slug).kind)
