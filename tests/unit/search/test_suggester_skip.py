"""When the phrase suggester runs: with zero hits always (its correction replaces the answer),
with a few hits only when the query does not name one of them, and never for a read that only
needs the result set (trends, export, feed). It costs more than the search itself.

A stand-in client answers with one paper; no Elasticsearch runs.
"""

from __future__ import annotations

from typing import Any

from services.search.answers.corrections import names_a_hit
from services.search.answers.results import Hit
from services.search.query.request import parse_request
from services.search.records.model import Author, Paper
from services.search.service import PaperSearch

TITLE = "TVSum: Summarizing Web Videos Using Titles"
PAPER = {"paper_id": "p1", "conference": "cvpr", "year": 2015, "title": TITLE,
         "authors": [{"name": "Yale Song"}], "status": "poster"}


class OneHit:
    """Every search matches the one paper (or nothing, with ``total=0``); records the bodies."""

    def __init__(self, total: int = 1):
        self.total = total
        self.bodies: list[dict[str, Any]] = []

    def search(self, **body: Any) -> Any:
        self.bodies.append(body)
        hits = [{"_id": "p1", "_score": 1.0, "_source": PAPER, "sort": [1.0]}] if self.total else []
        answer = {"hits": {"total": {"value": self.total}, "hits": hits}, "aggregations": {},
                  "suggest": {"did_you_mean": [{"options": []}]}}
        return type("R", (dict,), {"body": property(lambda self: self)})(answer)


def hit(title: str, *authors: str) -> Hit:
    return Hit(Paper(paper_id="p", conference="cvpr", conference_name="CVPR", year=2015, title=title,
                     authors=[Author(name=a) for a in authors]), title, "")


def suggested(es: OneHit) -> bool:
    return any("suggest" in body for body in es.bodies)


def test_a_query_names_a_hit_by_its_title_its_name_or_an_author():
    hits = [hit(TITLE, "Yale Song", "Jordi Vallmitjana")]
    for q in (TITLE, "tvsum summarizing web videos using titles", "TVSum", "yale song"):
        assert names_a_hit(parse_request({"q": [q]}), hits), q
    for q in ("TVSum summarizing", "Yale", "videos using titles", "-TVSum"):
        assert not names_a_hit(parse_request({"q": [q]}), hits), q


def test_no_suggester_beside_the_paper_the_query_names():
    es = OneHit()
    PaperSearch(es, "papers").search(parse_request({"q": [TITLE + " "], "facets": [""]}))
    assert not suggested(es)


def test_the_suggester_runs_for_a_few_hits_the_query_does_not_name():
    es = OneHit()
    PaperSearch(es, "papers").search(parse_request({"q": ["summarising videos "], "facets": [""]}))
    assert suggested(es)


def test_the_suggester_runs_when_nothing_matched():
    es = OneHit(total=0)
    PaperSearch(es, "papers").search(parse_request({"q": [TITLE], "facets": [""]}))
    assert suggested(es)


def test_reads_of_the_set_ask_no_suggestion_when_something_matched():
    es = OneHit()
    PaperSearch(es, "papers").feed(parse_request({"q": ["summarising videos "]}))
    assert not suggested(es)
