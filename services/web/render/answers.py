"""The API's JSON answers, built from the search layer's results through :mod:`.schemas`.

Pure functions of their arguments (and the public base URL of absolute links): no search
calls. Each answer is put together as plain data and passed through its model once
(:func:`_through`: validated, then dumped as JSON types), which costs less than building
nested models field by field. Views ``jsonify`` what these return; exports reuse
:func:`paper_json`.
"""

from __future__ import annotations

import dataclasses
from typing import Any
from urllib.parse import quote

from flask import url_for

from services.search.answers.corrections import HINTS
from services.search.answers.people import PersonPage
from services.search.answers.results import Hit, SearchResults
from services.search.answers.score_histogram import ScoreHistogram, accepted_only, score_bins
from services.search.answers.stats import (
    ACCEPTANCE_RATE_DEFINITION,
    LACKS,
    Institution,
    Institutions,
    Trends,
    VenueYear,
)
from services.search.answers.suggest import Suggestion
from services.search.catalogue import taxonomy, venues
from services.search.query.request import SearchRequest
from services.search.records.followed import FollowedSource
from services.search.records.model import Paper
from services.search.records.people import Person
from services.search.records.venue_maps import VenueMap

from ..urls import paper_path, person_path, public_url
from . import admin_schemas, bibtex, people_schemas, schemas, source_schemas, venue_schemas

Json = dict[str, Any]

# Where each kind of suggestion leads: (endpoint, the argument its key fills).
SUGGESTION_PAGES = {"conference": ("pages.conference", "slug"), "topic": ("pages.topic", "slug"),
                    "person": ("people.page", "person_id"), "author": ("pages.author", "name"),
                    "title": ("pages.paper", "paper_id")}


def _through(model: type[schemas.Answer], data: Json, **dump: bool) -> Json:
    """``data`` as its model reads it: an error if it breaks the model, never sent as it is."""
    return model.model_validate(data).model_dump(mode="json", **dump)


def _summary(paper: Paper) -> Json:
    return {
        "id": paper.paper_id,
        "title": paper.title,
        "authors": paper.author_names,
        "author_ids": [paper.person_of(place) for place in range(len(paper.authors))],
        "conference": paper.conference,
        "conference_name": paper.conference_name,
        "year": paper.year,
        "status": paper.status,
        "track": paper.track,
        "topics": [{"slug": t, "label": taxonomy.label(t)} for t in paper.topics],
        "citations": paper.citations,
        "links": paper.links.present(),
        "url": public_url(paper_path(paper.paper_id)),
        "kind": venues.lookup(paper.conference).kind,
        "affiliations": paper.affiliations,
        "affiliations_aligned": paper.affiliations_aligned,
        "rating_avg": paper.rating_avg,
        "names": paper.known_as,
        "introduced": paper.introduced,
        "mentions": paper.mentions,
    }


def paper_json(paper: Paper, *, full: bool = False) -> Json:
    """One paper: its summary, or (``full``) every field with authors' details and BibTeX."""
    if not full:
        return _through(schemas.PaperSummary, _summary(paper))
    return _through(schemas.Paper, {
        **_summary(paper),
        "authors_detail": [a.model_dump() for a in paper.authors],
        "abstract": paper.abstract,
        "tldr": paper.tldr,
        "keywords": paper.keywords,
        "primary_area": paper.primary_area,
        "status_raw": paper.status_raw,
        "award": paper.award,
        "reviews": [{"criterion": r.criterion, "label": r.label, "mean": r.mean, "scores": r.scores}
                    for r in paper.reviews],
        "publication": paper.publication.model_dump(),
        "bibtex": bibtex.entry(paper),
    })


def _hit(hit: Hit) -> Json:
    return {**_summary(hit.paper), "highlight": {"title": hit.title_html or None, "abstract": hit.snippet_html or None}}


def query_json(req: SearchRequest) -> Json:
    """The query and filters an answer is about, in their URL form."""
    return {"q": req.q, "filters": {facet.name: list(req.selected(facet.name)) for facet in req.facets
                                    if req.selected(facet.name)}}


def _counts(results: SearchResults) -> Json:
    req = results.request
    return {
        "query": {**query_json(req), "sort": req.sort},
        "total": results.total,
        "facets": {name: [{"value": v.value, "label": v.label, "count": v.count, "selected": v.selected}
                          for v in values] for name, values in results.facets.items()},
        "year_histogram": [{"year": y, "count": c} for y, c in results.year_histogram],
        "year_range": list(results.year_span) if results.year_span else None,
        "facets_estimated": results.facets_estimated,
    }


def counts_json(results: SearchResults) -> Json:
    """Facet counts of a search without hits (what the filter panel fetches for an on-demand facet)."""
    return _through(schemas.FacetCounts, _counts(results))


def results_json(results: SearchResults) -> Json:
    """A page of results with the facets: the search answer (and "papers like this text")."""
    req = results.request
    counts = _counts(results)
    return _through(schemas.SearchResponse, {
        "query": counts["query"],
        "total": results.total,
        "page": req.page,
        "page_size": req.page_size,
        "pages": results.pages,
        "next_search_after": results.next_cursor,
        "hits": [_hit(h) for h in results.hits],
        "facets": counts["facets"],
        "year_histogram": counts["year_histogram"],
        "year_range": counts["year_range"],
        "facets_estimated": counts["facets_estimated"],
        "suggestion": results.suggestion,
        "corrected_from": results.corrected_from,
        "hint": {"code": results.hint, "message": HINTS[results.hint]} if results.hint else None,
        "cited": results.cited,
    })


def similar_json(papers: list[Paper]) -> Json:
    return _through(schemas.SimilarPapers, {"papers": [_summary(p) for p in papers]})


def suggestion_url(suggestion: Suggestion) -> str:
    endpoint, argument = SUGGESTION_PAGES[suggestion.kind]
    return url_for(endpoint, **{argument: suggestion.key})


def suggestions_json(q: str, items: list[Suggestion]) -> Json:
    return _through(schemas.Suggestions, {"q": q, "suggestions": [
        {"type": s.kind, "text": s.text, "url": suggestion_url(s), "detail": s.detail or None} for s in items]},
        exclude_none=True)


# Where a person's profile ids lead (records.people.Person: profiles, orcids).
PROFILE_PAGES = {"openreview": "https://openreview.net/profile?id={}", "orcid": "https://orcid.org/{}"}


def profiles(person: Person) -> list[Json]:
    """The person's OpenReview profiles and ORCID iDs, each with its page."""
    return [{"kind": kind, "id": i, "url": PROFILE_PAGES[kind].format(quote(i, safe="~"))}
            for kind, ids in (("openreview", person.profiles), ("orcid", person.orcids)) for i in ids]


def _person(person: Person) -> Json:
    newest = person.newest
    return {
        "id": person.person_id, "name": person.name, "label": person.label, "names": person.names or [person.name],
        "url": public_url(person_path(person.person_id)), "papers": person.papers, "hidden": person.hidden,
        "first_year": person.first_year, "last_year": person.last_year,
        "affiliations": [{"value": c.value, "label": c.value, "papers": c.papers} for c in person.affiliations],
        "coauthors": [{"id": c.person_id, "name": c.name, "papers": c.papers, "url": public_url(
            person_path(c.person_id) if c.person_id else url_for("pages.author", name=c.name))} for c in person.coauthors],
        "venues": [{"value": c.value, "label": venues.label(c.value), "papers": c.papers} for c in person.venues],
        "topics": [{"value": c.value, "label": taxonomy.label(c.value), "papers": c.papers} for c in person.topics],
        "newest": {"id": newest.paper_id, "title": newest.title, "conference": newest.conference, "year": newest.year,
                   "url": public_url(paper_path(newest.paper_id))} if newest else None,
        "profiles": profiles(person),
    }


def person_json(page: PersonPage) -> Json:
    """A person id's answer: the person and a page of their papers, or a retired id's successors."""
    successor = page.successor
    return _through(people_schemas.PersonPapers, {
        "id": page.person_id, "person": _person(page.person) if page.person else None,
        "successor": {"change": successor.change, "successors": [_person(p) for p in page.successors]}
        if successor else None,
        "papers": [_summary(p) for p in page.papers], "total": page.total, "hidden": page.hidden,
        "page": page.page, "page_size": page.page_size, "pages": page.pages})


def people_named_json(name: str, people: list[Person]) -> Json:
    return _through(people_schemas.PeopleNamed, {"name": name, "people": [_person(p) for p in people]})


def trends_json(req: SearchRequest, trends: Trends) -> Json:
    return _through(schemas.Stats, {
        "query": query_json(req),
        "total": trends.total,
        "by_year": [{"year": y, "count": n} for y, n in trends.by_year],
        "by_conference_year": [{"conference": c, "year": y, "count": n} for c, y, n in trends.by_conference_year],
        "by_topic_year": [{"topic": t, "year": y, "count": n} for t, y, n in trends.by_topic_year],
    })


def venue_json(v: VenueYear, institutions: Institutions) -> Json:
    """A venue-year's statistics, where its review scores land and who publishes there."""
    scores = v.scores
    return _through(venue_schemas.Venue, {
        "conference": v.conference, "conference_name": venues.label(v.conference), "kind": v.kind,
        "year": v.year, "papers": v.papers, "by_status": v.by_status, "by_outcome": v.by_outcome,
        "accepted": v.accepted, "oral": v.oral, "spotlight": v.spotlight, "poster": v.poster,
        "rejected": v.rejected, "withdrawn": v.withdrawn, "decided": v.decided,
        "undecided": v.undecided, "other_programmes": v.other_programmes,
        "rejections_listed": v.rejections_listed, "rejections_complete": v.rejections_complete, "submissions": v.submissions,
        "acceptance_rate": v.acceptance_rate, "acceptance_rate_definition": ACCEPTANCE_RATE_DEFINITION,
        "lacks": [{"code": name, "label": LACKS[name]} for name in v.lacks],
        "coverage": dataclasses.asdict(v.coverage) if v.coverage else None,
        "score_histogram": _score_histogram(v.scores) if v.scores else None,
        "scores_taken": v.scores_taken,
        "score_bins": [{"lo": b.lo, "hi": b.hi, "papers": b.papers, "accepted": b.accepted, "by_tier": b.by_tier}
                       for b in score_bins(scores)] if scores else None,
        "score_values": [{"score": value, "papers": n} for value, n in scores.values] if scores else None,
        "scores_accepted_only": accepted_only(scores) if scores else False,
        "institutions": [_institution(i) for i in institutions.by_papers],
        "institutions_by_tier": [_institution(i) for i in institutions.by_tier],
        "institutions_counted": {"year": v.year, "papers": institutions.papers,
                                 "with_affiliations": institutions.with_affiliations},
        "institution_years": [c._asdict() for c in institutions.years],
    })


def _institution(i: Institution) -> Json:
    return {"name": i.name, "papers": i.papers, "by_tier": i.by_tier,
            "by_year": [{"year": y, "count": n} for y, n in i.by_year]}


def _score_histogram(h: ScoreHistogram) -> Json:
    return {"score": h.field, "bin_width": h.width, "total": h.total, "decisions": list(h.decisions),
            "by_decision": h.by_decision(),
            "bins": [{"low": b.low, "high": b.high, "total": b.total, "counts": b.counts} for b in h.bins]}


def reindex_queued_json(answer: Json, status_url: str) -> Json:
    return _through(admin_schemas.ReindexQueued, {**answer, "status_url": status_url}, exclude_unset=True)


def reindex_progress_json(state: Json) -> Json:
    return _through(admin_schemas.ReindexProgress, state or {"phase": "none"}, exclude_unset=True)


def task_json(payload: Json) -> Json:
    return _through(admin_schemas.TaskState, payload, exclude_unset=True)


def venue_map_json(m: VenueMap) -> Json:
    """A venue-year's map: its papers' places and clusters, the clusters' names and sizes."""
    p = m.points
    return _through(venue_schemas.VenueMap, {
        "conference": m.conference, "conference_name": venues.label(m.conference), "year": m.year,
        "papers": m.papers, "left_out": m.left_out, "height": max(max(p.y, default=0.0), 0.001),
        "method": m.method, "computed_at": m.computed_at,
        "points": [{"id": i, "x": x, "y": y, "cluster": c} for i, x, y, c in zip(p.ids, p.x, p.y, p.cluster)],
        "clusters": [{"id": c.id, "label": c.label, "count": c.count} for c in m.clusters]})


def followed_json(sources: list[FollowedSource], interval_default_s: int) -> Json:
    """The public freshness list: each followed source and what its last poll found."""
    return _through(source_schemas.FollowedSources, {"interval_default_s": interval_default_s, "sources": [
        {"url": s.url, "venue_years": list(s.venue_years), "last_checked": s.checked_at, "last_changed": s.changed_at,
         "next_check": s.next_check, "papers": s.papers, "outcome": s.outcome, "failing": s.failing}
        for s in sources]})


def admin_sources_json(sources: list[FollowedSource], passes: Json | None) -> Json:
    return _through(source_schemas.AdminSources, {"passes": passes, "sources": [
        {**s.to_document(), "id": s.id, "failing": s.failing} for s in sources]}, exclude_unset=True)
