"""When the phrase suggester runs: with zero hits always (its correction replaces the answer),
with a few hits only when the query does not name one of them, and never for a read that only
needs the result set (trends, export, feed). It costs more than the search itself. A query that
names one of its few hits is also not read as a word still being typed: it is one request.

A stand-in client answers with one paper; no Elasticsearch runs.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from services.search.answers.corrections import names_a_paper
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
        shown = self.total and body.get("from", 0) == 0 and body.get("size", 10)
        hits = [{"_id": "p1", "_score": 1.0, "_source": PAPER, "sort": [1.0]}] if shown else []
        empty = {"buckets": [], "sum_other_doc_count": 0}
        answer = {"hits": {"total": {"value": self.total}, "hits": hits},
                  "aggregations": {"years": empty, "conferences": empty, "topics": empty},
                  "suggest": {"did_you_mean": [{"options": []}]}}
        return type("R", (dict,), {"body": property(lambda self: self)})(answer)


def paper(title: str, *authors: str) -> Paper:
    return Paper(paper_id="p", conference="cvpr", conference_name="CVPR", year=2015, title=title,
                 authors=[Author(name=a) for a in authors])


def suggested(es: OneHit) -> bool:
    return any("suggest" in body for body in es.bodies)


def test_a_query_names_a_paper_by_its_title_its_name_or_an_author():
    papers = [paper(TITLE, "Yale Song", "Jordi Vallmitjana")]
    for q in (TITLE, "tvsum summarizing web videos using titles", "TVSum", "yale song"):
        assert names_a_paper(parse_request({"q": [q]}), papers), q
    for q in ("TVSum summarizing", "Yale", "videos using titles", "-TVSum"):
        assert not names_a_paper(parse_request({"q": [q]}), papers), q


def test_a_title_that_repeats_a_word_is_named_by_its_paste():
    # the query language reads "a a" as "a": the title's words are compared once each too
    title = "Learning Splitting Heuristics in Divide-and-Conquer SAT Solvers with Reinforcement Learning"
    papers = [paper(title, "Yale Song")]
    assert names_a_paper(parse_request({"q": [title]}), papers)
    assert names_a_paper(parse_request({"q": [title.lower()]}), papers)
    assert not names_a_paper(parse_request({"q": ["Learning Splitting Heuristics"]}), papers)


def test_no_suggester_beside_the_paper_the_query_names():
    es = OneHit()
    PaperSearch(es, "papers").search(parse_request({"q": [TITLE + " "], "facets": [""]}))
    assert not suggested(es)


def test_a_query_naming_its_hit_is_one_request_in_every_read_of_it():
    # "... Using Titles" is typed whole: no count of "titles*" as a word still being typed
    for read in ("search", "trends", "feed", "export"):
        es = OneHit()
        getattr(PaperSearch(es, "papers"), read)(parse_request({"q": [TITLE], "facets": [""]}))
        assert len(es.bodies) == 1, (read, es.bodies)


def test_a_later_page_holds_none_of_the_few_papers_so_their_counts_decide():
    es = OneHit()
    PaperSearch(es, "papers").search(parse_request({"q": [TITLE], "page": ["2"], "facets": [""]}))
    assert len(es.bodies) > 1  # the page's hits cannot tell the query named one of them


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


class Suggests(OneHit):
    """One hit for the words as typed; the suggester offers ``offer``; its words together match ``together``."""

    def __init__(self, offer: str, together: int):
        super().__init__()
        self.offer, self.together = offer, together

    def search(self, **body: Any) -> Any:
        answer = super().search(**body)
        if "suggest" in body:
            answer["suggest"] = {"did_you_mean": [{"options": [{"text": self.offer}]}]}
        elif self.offer.split()[0] in json.dumps(body.get("query")):  # a count of the correction
            phrase = '"phrase"' in json.dumps(body.get("query"))  # its words side by side, or anywhere
            answer["hits"]["total"]["value"] = self.together if phrase else 40
        return answer


@pytest.mark.parametrize("together, offered", [(0, None), (3, "black shield")])
def test_beside_a_few_hits_a_correction_is_offered_only_where_its_words_go_together(together, offered):
    results = PaperSearch(Suggests("black shield", together), "papers").search(
        parse_request({"q": ["blast shield"], "facets": [""]}))
    assert results.total == 1 and results.suggestion == offered and results.corrected_from is None


def test_a_correction_that_only_respells_the_words_is_not_offered():
    es = Suggests("mac bayes bounds", together=3)
    results = PaperSearch(es, "papers").search(parse_request({"q": ["MAC-Bayes bound"], "facets": [""]}))
    assert results.suggestion is None
    assert len(es.bodies) == 3  # the search, its last word as typed so far, the suggester: no count of the respelling


@pytest.mark.parametrize("typed, offer", [("NLIDB", "nlp db"), ("uMLIP", "ulip"), ("TrainX entity", "trained entity")])
def test_a_word_written_as_a_name_that_found_papers_is_not_corrected(typed, offer):
    results = PaperSearch(Suggests(offer, together=9), "papers").search(parse_request({"q": [typed], "facets": [""]}))
    assert results.total == 1 and results.suggestion is None


class HiddenOnly(Suggests):
    """The typed words find only papers lists hide (one rejected paper); the correction's find many."""

    def search(self, **body: Any) -> Any:
        answer = super().search(**body)
        listed = json.dumps(body.get("post_filter") or {})
        if "suggest" not in body and self.offer.split()[0] not in json.dumps(body.get("query")):
            hidden_only = '"reject"' in listed and "must_not" not in listed
            answer["hits"]["total"]["value"] = 1 if hidden_only else 0
            answer["hits"]["hits"] = answer["hits"]["hits"] if hidden_only else []
        return answer


@pytest.mark.parametrize("typed, offer, offered", [("SHDL", "seal", None),  # a name: nothing to offer
                                                   ("neuran network", "neural network", "neural network")])
def test_words_that_found_only_hidden_papers_are_not_corrected_away(typed, offer, offered):
    results = PaperSearch(HiddenOnly(offer, together=98), "papers").search(
        parse_request({"q": [typed], "facets": [""]}))
    assert results.total == 0 and results.corrected_from is None and results.suggestion == offered
