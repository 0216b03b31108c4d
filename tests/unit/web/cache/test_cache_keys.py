"""Cache keys are canonical; stored answers come back equal to what was stored."""

from __future__ import annotations

from services.search.answers.browse import Overview
from services.search.answers.results import Hit, SearchResults
from services.search.query.facets import FacetValue
from services.search.query.request import parse_request
from services.search.records.model import Author, Paper
from services.web.cache.codec import codec_for
from services.web.cache.results import digest_of


def _req(query: str):
    args: dict[str, list[str]] = {}
    for pair in query.split("&"):
        key, value = pair.split("=")
        args.setdefault(key, []).append(value)
    return parse_request(args)


def test_equal_requests_share_a_key_and_different_ones_do_not():
    a = _req("q=graph&conference=iclr&conference=neurips&year=2020")
    b = _req("year=2020&conference=NeurIPS&q=graph&conference=iclr")
    assert digest_of("search", (a,)) == digest_of("search", (b,))
    assert digest_of("search", (a,)) != digest_of("search", (_req("q=graph&conference=iclr&year=2020"),))
    assert digest_of("search", (a,)) != digest_of("search", (a.with_page(2),))
    assert digest_of("paper", ("x",)) != digest_of("similar", ("x",))


def _paper(n: int) -> Paper:
    return Paper(paper_id=f"p{n}", conference="iclr", conference_name="ICLR", year=2020, title=f"Paper {n}",
                 authors=[Author(name="Ada Lovelace", affiliation="Analytical Engines")], topics=["vision"])


def test_search_results_round_trip_with_the_callers_request():
    req = _req("q=graph&conference=iclr")
    results = SearchResults(req, 2, [Hit(_paper(1), "<em>Paper</em> 1", "", (1.5, "p1")), Hit(_paper(2), "", "x")],
                            facets={"conference": [FacetValue("iclr", "ICLR", 2, True)]},
                            year_histogram=[(2020, 2)], year_span=(2020, 2020), suggestion=None, took_ms=3)
    codec = codec_for(SearchResults)
    raw = codec.dumps(results)
    assert b"request" not in raw
    again = codec.loads(raw, req)
    assert again == results and again.request is req and again.hits[0].sort == (1.5, "p1")


def test_other_answers_round_trip():
    overview = Overview(3, [], [("vision", "Vision", 3)], [_paper(1)])
    codec = codec_for(Overview)
    assert codec.loads(codec.dumps(overview)) == overview
    paper = codec_for(Paper | None)
    assert paper.loads(paper.dumps(None)) is None
    assert paper.loads(paper.dumps(_paper(4))) == _paper(4)

