"""What a search that matched few papers means, decided on counts alone (:func:`corrections.meant`): stand-in
counts and corrections answer; no Elasticsearch runs (the front door's own calls: test_suggester_skip.py)."""

from __future__ import annotations

from services.search.answers.corrections import meant
from services.search.query.request import SearchRequest, parse_request


class Counts:
    """Counts by what a request asks: its q, whether its last word is expanded, whether it lists hidden papers only."""

    def __init__(self, **found: int):
        self.found = found
        self.asked: list[SearchRequest] = []
        self.corrected: list[str] = []

    def count(self, req: SearchRequest) -> int:
        self.asked.append(req)
        if req.expand_last:
            return self.found.get("expanded", 0)
        if req.filters:
            return self.found.get("hidden", 0)
        return self.found.get(req.q, 0)

    def correct(self, correction: str | None):
        def ask(req: SearchRequest) -> str | None:
            self.corrected.append(req.q)
            return correction
        return ask


def test_a_word_still_being_typed_is_expanded_when_that_finds_more():
    counts = Counts(expanded=40)
    answer = meant(parse_request({"q": ["direct preference optim"]}), 1, counts.count, counts.correct(None))
    assert answer.request.expand_last and answer.request.q == "direct preference optim"
    assert counts.corrected == []  # enough papers: no correction sought


def test_nothing_found_is_answered_by_the_correction_that_finds_papers():
    counts = Counts(**{"graph neural networks": 120})
    req = parse_request({"q": ["grpah neural netwroks"]})
    answer = meant(req, 0, counts.count, counts.correct("graph neural networks"))
    assert answer.request.q == "graph neural networks" and answer.corrected_from == "grpah neural netwroks"
    assert counts.corrected == ["grpah neural netwroks"]


def test_beside_a_few_hits_the_correction_is_a_link_and_only_when_its_words_go_together():
    counts = Counts(**{'"blast shield"': 2})
    answer = meant(parse_request({"q": ["blast sheild"]}), 2, counts.count, counts.correct("blast shield"))
    assert answer.request.q == "blast sheild" and answer.suggestion == "blast shield"
    assert meant(parse_request({"q": ["blast sheild"]}), 2, Counts().count,
                 Counts().correct("blast shield")).suggestion is None  # a phrase of no paper: no link


def test_papers_lists_hide_are_a_few_hits_no_correction_replaces():
    counts = Counts(hidden=1, seal=98)
    answer = meant(parse_request({"q": ["SHDL"]}), 0, counts.count, counts.correct("seal"))
    assert answer.request.q == "SHDL" and answer.corrected_from is None


def test_reads_that_need_only_the_set_never_ask_the_suggester_past_zero_hits():
    counts = Counts()
    meant(parse_request({"q": ["rare words"]}), 2, counts.count, counts.correct("rare word"), suggest=False)
    assert counts.corrected == []


def test_filters_are_left_out_of_the_decision():
    counts = Counts(robot=400)
    req = parse_request({"q": ["robot"], "keyword": ["robot arms"]})
    assert meant(req, 3, counts.count, counts.correct(None)).request is req
    assert counts.asked[0].filters == {}
