"""Downloads: a result set as BibTeX, CSV or JSON (``/api/v1/export``), a search's trends as CSV
(``/api/v1/stats?format=csv``). The format tables are the views' and the OpenAPI enums'."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Sequence

from services.search.answers.stats import Trends
from services.search.records.model import Paper

from ..urls import absolute_url
from . import bibtex
from .answers import paper_json

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
    "bibtex": ("application/x-bibtex; charset=utf-8", "bib", bibtex.bibliography),  # each key used once
    "csv": ("text/csv; charset=utf-8", "csv", _csv),
    "json": ("application/json", "json", _json),
}


def trends_csv(trends: Trends) -> str:
    """One row per count: ``breakdown`` is year, conference or topic; ``value`` the conference or topic."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["breakdown", "value", "year", "count"])
    writer.writerows(("year", "", y, n) for y, n in trends.by_year)
    writer.writerows(("conference", c, y, n) for c, y, n in trends.by_conference_year)
    writer.writerows(("topic", t, y, n) for t, y, n in trends.by_topic_year)
    return out.getvalue()


STATS_FORMATS = ("json", "csv")
