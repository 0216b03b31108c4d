"""Export formats of a result set: BibTeX, CSV and JSON (the API's /export and its OpenAPI enum)."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Sequence

from services.search import bibtex
from services.search.model import Paper

from .serialize import paper_json
from .urls import absolute_url


def _bibtex(papers: Sequence[Paper]) -> str:
    return "\n\n".join(bibtex.entry(p) for p in papers) + "\n"


_FORMULA = ("=", "+", "-", "@", "\t", "\r", "\n")


def _cell(value: object) -> str:
    """Defuse spreadsheet formulas (CSV injection) in any cell, also after leading blanks (OWASP)."""
    text = "" if value is None else str(value)
    return "'" + text if text[:1] in _FORMULA or text.lstrip()[:1] in _FORMULA else text


def _csv(papers: Sequence[Paper]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["id", "title", "authors", "affiliations", "conference", "year", "status", "track",
                     "topics", "keywords", "citations", "pdf", "site", "code", "url"])
    for p in papers:
        writer.writerow(_cell(value) for value in (
            p.paper_id, p.title, "; ".join(p.author_names), "; ".join(p.affiliations), p.conference_name,
            p.year, p.status, p.track, "; ".join(p.topics), "; ".join(p.keywords), p.citations,
            p.links.pdf, p.links.site, p.links.code, absolute_url("pages.paper", paper_id=p.paper_id)))
    return out.getvalue()


def _json(papers: Sequence[Paper]) -> str:
    return json.dumps({"count": len(papers), "papers": [paper_json(p, full=True) for p in papers]},
                      ensure_ascii=False, indent=1)


# format -> (mimetype, file extension, writer)
EXPORT_FORMATS: dict[str, tuple[str, str, Callable[[Sequence[Paper]], str]]] = {
    "bibtex": ("application/x-bibtex; charset=utf-8", "bib", _bibtex),
    "csv": ("text/csv; charset=utf-8", "csv", _csv),
    "json": ("application/json", "json", _json),
}
