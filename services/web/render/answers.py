"""The API's JSON answers, built from the search layer's results through :mod:`.schemas`.

Pure functions of their arguments (and the public base URL of absolute links): no search
calls. Views ``jsonify`` what these return; exports reuse :func:`paper_json`.
"""

from __future__ import annotations

from flask import url_for

from services.search import bibtex, conferences, taxonomy
from services.search.model import Paper
from services.search.reads import Suggestion
from services.search.request import SearchRequest
from services.search.results import Hit, SearchResults
from services.search.stats import Trends, VenueYear

from ..urls import absolute_url
from . import schemas

# Where each kind of suggestion leads: (endpoint, the argument its key fills).
SUGGESTION_PAGES = {"conference": ("pages.conference", "slug"), "topic": ("pages.topic", "slug"),
                    "author": ("pages.author", "name"), "title": ("pages.paper", "paper_id")}


def _summary(paper: Paper) -> dict:
    return {
        "id": paper.paper_id,
        "title": paper.title,
        "authors": paper.author_names,
        "conference": paper.conference,
        "conference_name": paper.conference_name,
        "year": paper.year,
        "status": paper.status,
        "track": paper.track,
        "topics": [{"slug": t, "label": taxonomy.label(t)} for t in paper.topics],
        "citations": paper.citations,
        "links": paper.links.present(),
        "url": absolute_url("pages.paper", paper_id=paper.paper_id),
    }


def paper_json(paper: Paper, *, full: bool = False) -> dict:
    """One paper: its summary, or (``full``) every field with authors' details and BibTeX."""
    if not full:
        return schemas.PaperSummary(**_summary(paper)).model_dump(mode="json")
    return schemas.Paper(
        **_summary(paper),
        authors_detail=paper.authors,
        abstract=paper.abstract,
        tldr=paper.tldr,
        keywords=paper.keywords,
        primary_area=paper.primary_area,
        status_raw=paper.status_raw,
        award=paper.award,
        bibtex=bibtex.entry(paper),
    ).model_dump(mode="json")


def _hit(hit: Hit) -> schemas.Hit:
    return schemas.Hit(**_summary(hit.paper), highlight=schemas.Highlight(
        title=hit.title_html or None, abstract=hit.snippet_html or None))


def query_json(req: SearchRequest) -> dict:
    """The query and filters an answer is about, in their URL form."""
    return {"q": req.q, "filters": {facet.name: list(req.selected(facet.name)) for facet in req.facets
                                    if req.selected(facet.name)}}


def _counts(results: SearchResults) -> dict:
    req = results.request
    return {
        "query": {**query_json(req), "sort": req.sort},
        "total": results.total,
        "facets": {name: [{"value": v.value, "label": v.label, "count": v.count, "selected": v.selected}
                          for v in values] for name, values in results.facets.items()},
        "year_histogram": [{"year": y, "count": c} for y, c in results.year_histogram],
        "year_range": list(results.year_span) if results.year_span else None,
    }


def counts_json(results: SearchResults) -> dict:
    """Facet counts of a search without hits (what the filter panel fetches for an on-demand facet)."""
    return schemas.FacetCounts(**_counts(results)).model_dump(mode="json")


def results_json(results: SearchResults) -> dict:
    """A page of results with the facets: the search answer (and "papers like this text")."""
    req = results.request
    counts = _counts(results)
    return schemas.SearchResponse(
        query=counts["query"],
        total=results.total,
        page=req.page,
        page_size=req.page_size,
        pages=results.pages,
        next_search_after=results.next_cursor,
        hits=[_hit(h) for h in results.hits],
        facets=counts["facets"],
        year_histogram=counts["year_histogram"],
        year_range=counts["year_range"],
        suggestion=results.suggestion,
    ).model_dump(mode="json")


def similar_json(papers: list[Paper]) -> dict:
    return schemas.SimilarPapers(papers=[_summary(p) for p in papers]).model_dump(mode="json")


def suggestion_url(suggestion: Suggestion) -> str:
    endpoint, argument = SUGGESTION_PAGES[suggestion.kind]
    return url_for(endpoint, **{argument: suggestion.key})


def suggestions_json(q: str, items: list[Suggestion]) -> dict:
    return schemas.Suggestions(q=q, suggestions=[
        schemas.Suggestion(type=s.kind, text=s.text, url=suggestion_url(s), detail=s.detail or None)
        for s in items]).model_dump(mode="json", exclude_none=True)


def trends_json(req: SearchRequest, trends: Trends) -> dict:
    return schemas.Stats(
        query=query_json(req),
        total=trends.total,
        by_year=[{"year": y, "count": n} for y, n in trends.by_year],
        by_conference_year=[{"conference": c, "year": y, "count": n} for c, y, n in trends.by_conference_year],
        by_topic_year=[{"topic": t, "year": y, "count": n} for t, y, n in trends.by_topic_year],
    ).model_dump(mode="json")


def venue_json(v: VenueYear) -> dict:
    return schemas.Venue(
        conference=v.conference, conference_name=conferences.label(v.conference), year=v.year,
        papers=v.papers, by_status=v.by_status, by_outcome=v.by_outcome,
        accepted=v.accepted, oral=v.oral, spotlight=v.spotlight, poster=v.poster,
        rejected=v.rejected, withdrawn=v.withdrawn, decided=v.decided,
        other_programmes=v.other_programmes, rejections_listed=v.rejections_listed,
        submissions=v.submissions, acceptance_rate=v.acceptance_rate,
    ).model_dump(mode="json")
