"""JSON shapes of papers and hits (described in :mod:`.openapi`)."""

from __future__ import annotations

from services.search import bibtex, taxonomy
from services.search.model import Paper
from services.search.request import SearchRequest
from services.search.results import Hit

from .urls import absolute_url


def paper_json(paper: Paper, *, full: bool = False) -> dict:
    data = {
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
    if full:
        data.update(
            authors_detail=[a.model_dump() for a in paper.authors],
            abstract=paper.abstract,
            tldr=paper.tldr,
            keywords=paper.keywords,
            primary_area=paper.primary_area,
            status_raw=paper.status_raw,
            award=paper.award,
            bibtex=bibtex.entry(paper),
        )
    return data


def hit_json(hit: Hit) -> dict:
    data = paper_json(hit.paper)
    data["highlight"] = {"title": hit.title_html or None, "abstract": hit.snippet_html or None}
    return data


def query_json(req: SearchRequest) -> dict:
    """The query and filters an answer is about, in their URL form."""
    return {"q": req.q, "filters": {facet.name: list(req.selected(facet.name)) for facet in req.facets
                                    if req.selected(facet.name)}}
