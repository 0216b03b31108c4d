"""A search layer in memory, for tests of the web without Elasticsearch (warehouse's null search service).

:class:`FakeReads` implements :class:`~services.search.reads.SearchReads` over a handful of
papers: a search matches the query's words in titles and abstracts and the conference and
year filters, the rest answer from the same papers. It records each call, so a test can
say that a view did not reach the search layer. :func:`fake_app` is the real app over it,
with no Redis and no Elasticsearch reachable (every backing service on a closed port).
"""

from __future__ import annotations

import inspect
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from fake_people import ADA, PEOPLE, TURING_1, TURING_2

from services.search.answers.browse import (
    AuthorProfile,
    ConferenceSummary,
    Overview,
    newest_conference_year,
    previews_after,
)
from services.search.answers.people import PersonPage, deepest_page
from services.search.answers.results import Exported, Hit, Matches, SearchResults
from services.search.answers.score_histogram import (
    BIN_WIDTH,
    DECISIONS,
    SCORE_FIELD,
    VALUE_DECIMALS,
    ScoreBin,
    ScoreHistogram,
    decision,
)
from services.search.answers.stats import (
    TIERS,
    Coverage,
    Institution,
    Institutions,
    KeyYearCount,
    Trends,
    VenueYear,
    YearCount,
    YearCoverage,
    venue_year,
)
from services.search.answers.suggest import Suggestion, person_suggestion
from services.search.answers.venue_match import CitedWork, VenueMatch, accepted_statuses, decide
from services.search.catalogue import taxonomy, venues
from services.search.limits import AUTHOR_PAGE_PAPERS, EXPORT_LIMIT, FRONT_PAGE_PAPERS, MAP_MATCHES, PERSON_PAGE_PAPERS
from services.search.query.facets import FacetValue
from services.search.query.request import SearchRequest
from services.search.reads import SearchReads
from services.search.records.followed import FollowedSource
from services.search.records.model import Author, Links, Paper, ReviewScore, title_key
from services.search.records.name_keys import author_key, block_key
from services.search.records.people import Person, Successor
from services.search.records.venue_maps import VenueMap
from services.settings import load_settings

CLOSED = "127.0.0.1:1"  # nothing listens on port 1 (and the unit tier's --disable-socket refuses any address)
# Redis behind a unix socket that does not exist: down as a crashed Redis is (a refused connection, an
# OSError), without the network, which the unit tier cannot reach (pytest-socket, deploy/test).
NO_REDIS = "unix:///nonexistent/paperlist-test-redis.sock?db=15"


def _paper(n: int, title: str, conference: str, year: int, *, abstract: str = "", topics: tuple[str, ...] = (),
           status: str = "poster", authors: tuple[str, ...] = ("Ada Lovelace", "Alan Turing"),
           ratings: tuple[float, ...] = (), people: tuple[str | None, ...] = (ADA, TURING_1)) -> Paper:
    reviews = [ReviewScore(criterion="rating", mean=round(sum(ratings) / len(ratings), 2), scores=list(ratings))] \
        if ratings else []
    return Paper(paper_id=f"{conference}-{year}-p{n}", conference=conference, conference_name=venues.label(conference),
                 year=year, title=title, abstract=abstract, topics=list(topics), status=status, status_raw=status.title(),
                 authors=[Author(name=a, affiliation="Analytical Engines") for a in authors],
                 links=Links(pdf=f"https://example.org/{n}.pdf"), keywords=["graphs"], citations=n,
                 reviews=reviews, rating_avg=reviews[0].mean if reviews else None,
                 author_ids=list(people) if len(people) == len(authors) else [None] * len(authors))


PAPERS = (
    _paper(1, "Graph Attention Networks", "iclr", 2018, abstract="Attention over graph neighbourhoods.",
           topics=("graph-learning",), ratings=(8, 6, 7)),
    _paper(2, "Diffusion Models Beat GANs on Image Synthesis", "neurips", 2021,
           abstract="Diffusion models for images; $\\tilde{O}(\\sqrt{T})$ samples.", topics=("generative-models",),
           people=(ADA, TURING_2)),
    _paper(3, "Deep Residual Learning for Image Recognition", "cvpr", 2016, abstract="Residual networks.",
           topics=("computer-vision",), authors=("Kaiming He",)),
    _paper(4, "Graph Neural Networks at Scale", "neurips", 2024, abstract="", topics=("graph-learning",),
           people=(ADA, TURING_2)),
    _paper(5, "A Rejected Graph Paper", "iclr", 2018, status="reject", ratings=(3, 4)),
)


@dataclass
class FakeReads:
    """Answers every read from ``papers``; ``calls`` lists (method, arguments) in order."""

    papers: Sequence[Paper] = PAPERS
    calls: list[tuple[str, tuple]] = field(default_factory=list)
    maps: dict[tuple[str, int], VenueMap] = field(default_factory=dict)  # the stored maps, by venue-year
    people_index: dict[str, Person | Successor] = field(default_factory=lambda: dict(PEOPLE))  # by person id
    followed: list[FollowedSource] = field(default_factory=list)  # the followed sources (the freshness page)

    def _note(self, name: str, *args: object) -> None:
        self.calls.append((name, args))

    def called(self, name: str) -> int:
        return sum(1 for n, _ in self.calls if n == name)

    def _matching(self, req: SearchRequest) -> list[Paper]:
        words = req.q.lower().split()
        found = []
        for p in self.papers:
            text = f"{p.title} {p.abstract}".lower()
            if words and not all(w in text for w in words):
                continue
            if req.selected("conference") and p.conference not in req.selected("conference"):
                continue
            if any(not low <= p.year <= high for low, high in req.filters.get("year", ())):
                continue
            if (p.status == "reject") != ("reject" in req.selected("status")):
                continue
            if req.selected("author") and not any(
                    v in p.author_ids or author_key(v) in map(author_key, p.author_names) for v in req.selected("author")):
                continue
            if req.parsed.people and not set(req.parsed.people) & set(p.author_ids):
                continue
            found.append(p)
        return found

    def search(self, req: SearchRequest) -> SearchResults:
        self._note("search", req)
        found = self._matching(req)
        page = found[req.offset:req.offset + req.page_size]
        counts = Counter(p.conference for p in found)
        statuses = Counter(p.status for p in found)
        years = Counter(p.year for p in found)
        # The rejected papers the words match that the list leaves out (none once a status is chosen).
        rejected = 0 if req.selected("status") else len(self._matching(req.with_page(1, filters={
            **req.filters, "status": ("reject",)})))
        return SearchResults(
            req, len(found), [Hit(p, "", "", (1.0, p.paper_id)) for p in page],
            hidden={"reject": rejected} if rejected else {},
            facets={**({"author": self._people_counted(req, found)} if "author" in {f.name for f in req.counted_facets} else {}),
                    "conference": [FacetValue(c, venues.label(c), n, c in req.selected("conference"))
                                   for c, n in counts.most_common()],
                    "status": [FacetValue(s, s.capitalize(), n, s in req.selected("status"))
                               for s, n in statuses.most_common()]},
            year_histogram=sorted(years.items()), year_span=(min(years), max(years)) if years else None)

    def _people_counted(self, req: SearchRequest, found: list[Paper]) -> list[FacetValue]:
        """The author facet as the real one is: people counted by id, labelled by who they are."""
        counts = Counter(i for p in found for i in dict.fromkeys(p.author_ids) if i)
        return [FacetValue(i, self.people_index[i].label if i in self.people_index else i, n,
                           i in req.selected("author")) for i, n in counts.most_common()]

    def like_text(self, req: SearchRequest, text: str) -> SearchResults:
        self._note("like_text", req, text)
        words = set(text.lower().split())
        near = [p for p in self.papers if words & set(f"{p.title} {p.abstract}".lower().split())]
        return SearchResults(req, len(near), [Hit(p, "", "") for p in near[:req.page_size]])

    def export(self, req: SearchRequest, limit: int = EXPORT_LIMIT) -> Exported:
        self._note("export", req, limit)
        found = self._matching(req)
        return Exported(found[:limit], len(found))

    def trends(self, req: SearchRequest) -> Trends:
        self._note("trends", req)
        found = self._matching(req)
        return Trends(len(found), tuple(YearCount(y, n) for y, n in sorted(Counter(p.year for p in found).items())),
                      tuple(KeyYearCount(c, y, n) for (c, y), n in sorted(Counter(
                          (p.conference, p.year) for p in found).items(), key=lambda kv: (kv[0][1], kv[0][0]))),
                      tuple(KeyYearCount(t, y, n) for (t, y), n in sorted(Counter(
                          (t, p.year) for p in found for t in p.topics).items(), key=lambda kv: (kv[0][1], kv[0][0]))))

    def venue_years(self, conference: str, year: int | None = None) -> list[VenueYear]:
        self._note("venue_years", conference, year)
        per_year: dict[int, list[Paper]] = {}
        for p in self.papers:
            if p.conference == conference and (year is None or p.year == year):
                per_year.setdefault(p.year, []).append(p)
        return [venue_year(conference, y, Counter(p.status_raw for p in papers), coverage=_coverage(papers),
                           scores=_scores(conference, papers)) for y, papers in sorted(per_year.items())]

    def institutions(self, conference: str, year: int) -> Institutions:
        """Counted like the index: listed papers with affiliations, each institution once per paper."""
        self._note("institutions", conference, year)
        listed = [p for p in self._listed() if p.conference == conference]
        here = [p for p in listed if p.year == year]
        counts = Counter(a for p in here for a in p.affiliations)
        tiers = {name: Counter(p.status for p in here if name in p.affiliations and p.status in TIERS) for name in counts}
        trend = {name: tuple(YearCount(y, n) for y, n in sorted(Counter(p.year for p in listed if name in p.affiliations).items()))
                 for name in counts}
        found = [Institution(name, n, dict(tiers[name]), trend[name])
                 for name, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))]
        years = tuple(YearCoverage(y, sum(p.year == y for p in listed), sum(p.year == y and bool(p.affiliations)
                                                                            for p in listed))
                      for y in sorted({p.year for p in listed}))
        return Institutions(conference, year, len(here), sum(bool(p.affiliations) for p in here), tuple(found),
                            tuple(sorted((i for i in found if i.highlighted), key=lambda i: -i.highlighted)), years)

    def papers_by_id(self, paper_ids: Sequence[str]) -> list[Paper]:
        self._note("papers_by_id", tuple(paper_ids))
        by_id = {p.paper_id: p for p in self.papers}
        return [by_id[i] for i in dict.fromkeys(paper_ids) if i in by_id]

    def venue_map(self, conference: str, year: int) -> VenueMap | None:
        self._note("venue_map", conference, year)
        return self.maps.get((conference, year))

    def map_matches(self, req: SearchRequest, limit: int = MAP_MATCHES) -> Matches:
        self._note("map_matches", req, limit)
        found = self._matching(req)
        return Matches(tuple(p.paper_id for p in found[:limit]), len(found))

    def followed_sources(self) -> list[FollowedSource]:
        self._note("followed_sources")
        return list(self.followed)

    def feed(self, req: SearchRequest) -> list[Paper]:
        self._note("feed", req)
        return sorted(self._matching(req), key=lambda p: -p.year)

    def paper(self, paper_id: str) -> Paper | None:
        self._note("paper", paper_id)
        return next((p for p in self.papers if p.paper_id == paper_id), None)

    def similar(self, paper_id: str, size: int = 6) -> list[Paper]:
        self._note("similar", paper_id, size)
        return [p for p in self.papers if p.paper_id != paper_id and p.status != "reject"][:size]

    def venue_matches(self, works: Sequence[CitedWork]) -> list[VenueMatch]:
        """The real decision over the papers whose title key or title start the work's key is (what the real
        body asks Elasticsearch for), accepted papers only."""
        self._note("venue_matches", tuple(works))
        accepted = set(accepted_statuses())
        return [decide(w, [p for p in self.papers if p.status in accepted and w.key
                           and (title_key(p.title) == w.key or (w.surname and title_key(p.title).startswith(w.key + " ")))])
                for w in works]

    def suggest(self, prefix: str, size: int = 8) -> list[Suggestion]:
        self._note("suggest", prefix, size)
        lowered = prefix.lower().strip()
        if not lowered:
            return []
        people = [person_suggestion(p) for p in self.people_index.values()
                  if isinstance(p, Person) and any(w.lower().startswith(lowered) for w in p.name.split())]
        return people + [Suggestion("title", p.title, p.paper_id, f"{p.conference_name} {p.year}")
                         for p in self.papers if p.title.lower().startswith(lowered)][:size]

    def _listed(self) -> list[Paper]:
        return [p for p in self.papers if p.status != "reject"]

    def overview(self, newest: int = FRONT_PAGE_PAPERS) -> Overview:
        self._note("overview", newest)
        confs = [s for s in (self._summary(c) for c in sorted({p.conference for p in self.papers})) if s]
        topics = Counter(t for p in self._listed() for t in p.topics)
        venue = newest_conference_year(confs)
        lead = [p for p in self._listed() if (p.conference, p.year) == venue]
        return Overview(len(self._listed()), confs, [(t, taxonomy.label(t), n) for t, n in topics.most_common()],
                        lead[:newest] if newest else [], venue if newest else None,
                        len(lead) if newest else 0, previews_after(confs, venue))

    def author(self, name: str, size: int = AUTHOR_PAGE_PAPERS) -> AuthorProfile:
        """Every spelling of the name's key, under the most frequent one (as the real service does)."""
        self._note("author", name, size)
        key = author_key(name)
        mine = [p for p in self.papers if any(author_key(a) == key for a in p.author_names)]
        spellings = Counter(a for p in mine for a in p.author_names if author_key(a) == key).most_common()
        shown = spellings[0][0] if spellings else name
        papers = [p for p in mine if p.status not in ("reject", "withdrawn")]
        hidden = len(mine) - len(papers)
        coauthors = Counter(a for p in papers for a in p.author_names if author_key(a) != key)
        return AuthorProfile(shown, len(papers), papers[:size], sorted(Counter(p.year for p in papers).items(), reverse=True),
                             coauthors.most_common(), [("Analytical Engines", len(papers))] if papers else [],
                             Counter(p.conference for p in papers).most_common(), hidden, spellings=spellings)

    def person(self, person_id: str, page: int = 1, size: int = PERSON_PAGE_PAPERS) -> PersonPage | None:
        """The person's listed papers newest first, a page at a time, the hidden ones counted (as the service)."""
        self._note("person", person_id, page, size)
        found = self.people_index.get(person_id)
        if isinstance(found, Successor):
            return PersonPage(person_id, successor=found, successors=[
                p for i in found.successors if isinstance(p := self.people_index.get(i), Person)])
        if found is None:
            return None
        mine = sorted((p for p in self.papers if person_id in p.author_ids), key=lambda p: (-p.year, p.paper_id))
        listed = [p for p in mine if p.status not in ("reject", "withdrawn")]
        page = min(max(page, 1), deepest_page(size))
        return PersonPage(person_id, found, listed[(page - 1) * size:page * size], len(listed), len(mine) - len(listed),
                          page, size, sorted(Counter(p.year for p in listed).items(), reverse=True),
                          Counter(p.conference for p in listed).most_common())

    def people_named(self, name: str) -> list[Person]:
        self._note("people_named", name)
        return sorted((p for p in self.people_index.values() if isinstance(p, Person) and p.name_key == block_key(name)),
                      key=lambda p: (-p.papers, p.person_id))

    def people(self, person_ids: Sequence[str]) -> dict[str, Person]:
        self._note("people", tuple(person_ids))
        return {i: p for i in person_ids if isinstance(p := self.people_index.get(i), Person)}

    def conference(self, slug: str) -> ConferenceSummary | None:
        self._note("conference", slug)
        return self._summary(slug)

    def _summary(self, slug: str) -> ConferenceSummary | None:
        mine = [p for p in self.papers if p.conference == slug]
        if not mine:
            return None
        listed = Counter(p.year for p in mine if p.status != "reject")
        hidden = Counter(p.year for p in mine if p.status == "reject")
        return ConferenceSummary(slug, venues.label(slug), sum(listed.values()),
                                 sorted(listed.items(), reverse=True), sum(hidden.values()), dict(hidden))

    def ready(self) -> bool:
        self._note("ready")
        return True


def _coverage(papers: list[Paper]) -> Coverage:
    return Coverage(abstracts=sum(bool(p.abstract) for p in papers), affiliations=sum(bool(p.affiliations) for p in papers),
                    citations=sum(p.citations is not None for p in papers),
                    reviews=sum(p.rating_avg is not None for p in papers), code=sum(bool(p.links.code) for p in papers))


def _scores(conference: str, papers: list[Paper]) -> ScoreHistogram:
    """Mean ratings by decision in half-point bins, as Elasticsearch's histogram gives them (empty bins between)."""
    rated = [p for p in papers if p.rating_avg is not None]
    if not rated:
        return ScoreHistogram(SCORE_FIELD, BIN_WIDTH, (), ())
    low = math.floor(min(p.rating_avg for p in rated) / BIN_WIDTH)
    high = math.floor(max(p.rating_avg for p in rated) / BIN_WIDTH)
    bins = []
    for k in range(low, high + 1):
        inside = [p for p in rated if math.floor(p.rating_avg / BIN_WIDTH) == k]
        bins.append(ScoreBin(k * BIN_WIDTH, (k + 1) * BIN_WIDTH, dict(Counter(decision(conference, p.status_raw)
                                                                               for p in inside))))
    present = sorted({d for b in bins for d in b.counts}, key=lambda d: (d not in DECISIONS, DECISIONS.index(d)
                                                                          if d in DECISIONS else 0, d))
    values = tuple(sorted(Counter(round(p.rating_avg, VALUE_DECIMALS) for p in rated).items()))
    return ScoreHistogram(SCORE_FIELD, BIN_WIDTH, tuple(bins), tuple(present), values)


def fake_settings(**overrides: str):
    """Settings whose backing services are all unreachable: the fake answers, nothing else could."""
    values = {"ES_URL": f"http://{CLOSED}", "REDIS_URL": NO_REDIS, "PAPERLIST_INDEX": "test-fake",
              "PAPERLIST_CACHE": "false", "PAPERLIST_RATE_LIMIT_ENABLED": "false",
              "PAPERLIST_PUBLIC_URL": "https://papers.example.org", "PAPERLIST_ADMIN_TOKEN": "test-token"}
    values.update(overrides)
    return load_settings(**values)


def fake_app(reads: SearchReads | None = None, **overrides: str):
    from services.web.app import create_app

    app = create_app(fake_settings(**overrides), reads=reads or FakeReads())
    app.testing = False  # errors go through the real handlers
    return app


def conforms(data: object, component: str) -> None:
    """``data`` is valid against the OpenAPI document's component (its $refs resolved in the document)."""
    import jsonschema

    from services.web.render.openapi import components

    jsonschema.Draft202012Validator({"$ref": f"#/components/schemas/{component}",
                                     "components": {"schemas": components()}}).validate(data)


def signature_gaps(cls: type, protocol: type = SearchReads) -> list[str]:
    """Methods of ``protocol`` (SearchReads) that ``cls`` lacks or declares with other parameters or answers."""
    gaps = []
    for name, member in vars(protocol).items():
        if not callable(member) or name.startswith("_"):
            continue
        method = getattr(cls, name, None)
        wanted = inspect.signature(member)
        if method is None:
            gaps.append(f"{name}: missing")
        elif inspect.signature(method) != wanted:
            gaps.append(f"{name}{inspect.signature(method)} is not {name}{wanted}")
    return gaps
