"""Known-item ranking on real Elasticsearch: the paper a query names first, the prior bounded, corrections.

A small venue-year of hand-made records (through the real ingest: the worker computes each
paper's prominence against its venue-year) where word matching alone gets each case wrong.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from services.search.query.request import parse_request
from services.search.service import PaperSearch

pytestmark = pytest.mark.integration

ABSTRACT = "We study how models learn from data, with experiments on benchmarks."
RECORDS = [
    # A name that other titles spell out: the paper named so must come first.
    {"id": "named", "title": "Quantised Preference Alignment: Your Reward Model is a Ranker",
     "status": "Poster", "author": "Ada Lovelace", "abstract": ABSTRACT},
    {"id": "filtered", "title": "Filtered Quantised Preference Alignment", "status": "Poster",
     "author": "Alan Turing", "abstract": ABSTRACT},
    {"id": "offset", "title": "Quantised Preference Alignment with an Offset", "status": "Poster",
     "author": "Grace Hopper", "abstract": ABSTRACT},
    # The same words in two titles: the prominent one (oral, award, cited, code) first ...
    {"id": "plain", "title": "Sparse Lattice Transformers for Molecules", "status": "Poster",
     "author": "Edsger Dijkstra", "abstract": ABSTRACT, "gs_citation": 3},
    {"id": "famous", "title": "Sparse Lattice Transformers for Proteins", "status": "Oral", "award": True,
     "author": "Barbara Liskov", "abstract": ABSTRACT, "gs_citation": 900, "github": "https://github.com/x/y"},
    # ... but a prominent paper that only mentions the words loses to a paper that is about them.
    {"id": "about", "title": "Hyperbolic Kernel Sketching", "status": "Poster", "author": "Niklaus Wirth",
     "abstract": "Hyperbolic kernel sketching for fast learning.", "gs_citation": 0},
    {"id": "mentions", "title": "A Survey of Fast Learning Systems", "status": "Oral", "award": True,
     "author": "Donald Knuth", "gs_citation": 5000, "github": "https://github.com/a/b",
     "abstract": "Among many methods we review hyperbolic methods, kernel tricks and some sketching."},
    # An author's surname with the rest of the words in the title.
    {"id": "by-hopper", "title": "Compiling Lattice Programs", "status": "Poster", "author": "Grace Hopper",
     "abstract": ABSTRACT},
    {"id": "about-hopper", "title": "Compiling Lattice Programs Faster", "status": "Poster",
     "author": "Ken Thompson", "abstract": "Hopper compilers for lattice programs, revisited."},
    # The name a title starts with, as typed, before a prominent paper whose abstract names itself so.
    {"id": "titled", "title": "GLIMMER: Fast Search over Frozen Archives", "status": "Poster",
     "author": "Alonzo Church", "abstract": ABSTRACT},
    {"id": "known-as", "title": "Learning Bright Glimmer Models for Frozen Archives", "status": "Oral",
     "award": True, "author": "John Backus", "gs_citation": 800, "github": "https://github.com/g/l",
     "abstract": "We propose GLIMMER, a model of bright glimmer in frozen archives; GLIMMER is fast."},
    # A title's first words up to a small word, before a prominent paper that holds them elsewhere.
    {"id": "fragment", "title": "Consistent Depth of Moving Glaciers", "status": "Poster",
     "author": "Frances Allen", "abstract": ABSTRACT},
    {"id": "elsewhere", "title": "Glacier Depth Atlas: Consistent Depth Estimation for Long Videos", "status": "Oral",
     "award": True, "author": "Robin Milner", "gs_citation": 700, "github": "https://github.com/d/a",
     "abstract": "Consistent depth of glaciers, estimated for long videos."},
    # A title's words with its last one cut, where the cut word is also a word of five other papers
    # (so the words as typed match five, and the last word would never be expanded).
    {"id": "cut", "title": "Integrated Defense for Resilient Grids", "status": "Poster",
     "author": "Tony Hoare", "abstract": ABSTRACT},
    *({"id": f"res-{i}", "title": f"Legal Doctrine Study {i}", "status": "Poster", "author": "Some One",
       "abstract": "An integrated defense of res judicata in civil procedure."} for i in range(5)),
    *({"id": f"filler-{i}", "title": f"Filler Paper Number {i} on Graphs", "status": "Poster",
       "author": "Some One", "abstract": ABSTRACT, "gs_citation": i} for i in range(20)),
]


@pytest.fixture(scope="module")
def reads(settings, celery_app, es, redis_client, worker, tmp_path_factory):
    from conftest import drop_alias, run_ingest

    folder = tmp_path_factory.mktemp("ranking") / "rankconf"
    folder.mkdir()
    (folder / "rankconf2024.json").write_text(json.dumps(RECORDS))
    alias = "test-ranking-" + tmp_path_factory.mktemp("alias").name[-8:].lower()
    summary = run_ingest(settings, celery_app, es, redis_client, [folder], alias,
                         rejects_dir=tmp_path_factory.mktemp("rejects"))
    assert summary.indexed == len(RECORDS)
    yield PaperSearch(es, alias)
    drop_alias(es, alias)


def titles(reads: PaperSearch, q: str) -> list[str]:
    return [h.paper.title for h in reads.search(parse_request({"q": [q], "facets": [""]})).hits]


def test_the_named_paper_comes_before_titles_that_contain_its_name(reads):
    for q in ("quantised preference alignment", "Quantised Preference Alignment", "quantised preference align"):
        assert titles(reads, q)[0].startswith("Quantised Preference Alignment:"), q


def test_the_name_a_title_starts_with_beats_a_paper_known_by_it(reads):
    assert titles(reads, "GLIMMER")[:2] == ["GLIMMER: Fast Search over Frozen Archives",
                                           "Learning Bright Glimmer Models for Frozen Archives"]


def test_words_up_to_a_small_word_find_the_title_they_start(reads):
    assert titles(reads, "Consistent Depth of")[0] == "Consistent Depth of Moving Glaciers"


def test_a_cut_last_word_finds_the_title_the_words_start_though_it_is_a_word_elsewhere(reads):
    got = titles(reads, "Integrated Defense for Res")
    assert got[0] == "Integrated Defense for Resilient Grids" and len(got) == 6
    assert "Integrated Defense for Resilient Grids" not in titles(reads, "integrated defense res judicata")


def test_the_prior_orders_papers_that_match_equally_well(reads):
    assert titles(reads, "sparse lattice transformers")[:2] == [
        "Sparse Lattice Transformers for Proteins", "Sparse Lattice Transformers for Molecules"]


def test_a_strong_text_match_beats_a_prominent_weak_one(reads, es):
    got = titles(reads, "hyperbolic kernel sketching")
    assert got[:2] == ["Hyperbolic Kernel Sketching", "A Survey of Fast Learning Systems"]
    stored = {h["_source"]["title"]: h["_source"]["prominence"] for h in es.search(
        index=reads.alias, size=50, _source=["title", "prominence"])["hits"]["hits"]}
    assert stored["A Survey of Fast Learning Systems"] > 0.8 > 0.5 > stored["Hyperbolic Kernel Sketching"]


def test_an_author_and_title_words_find_the_authors_paper(reads):
    assert titles(reads, "compiling lattice hopper")[0] == "Compiling Lattice Programs"


def test_a_query_with_no_hits_shows_its_corrections_papers(reads):
    results = reads.search(parse_request({"q": ["sparse latice transformers"], "facets": [""]}))
    assert results.corrected_from == "sparse latice transformers"
    assert results.request.q == "sparse lattice transformers" and results.total == 2
    typed = reads.search(parse_request({"q": ["sparse latice transformers"], "autocorrect": ["0"]}))
    assert typed.total == 0 and typed.corrected_from is None and typed.suggestion == "sparse lattice transformers"


def test_every_read_of_a_query_answers_the_set_its_search_shows(reads):
    """A typo's trends, export and feed are its correction's; a cut last word's are its expansion's."""
    for q, total in (("sparse latice transformers", 2), ("compiling lattice progr", 2)):
        req = parse_request({"q": [q]})
        shown = reads.search(req)
        assert shown.total == total, q
        assert reads.trends(req).total == total
        assert reads.export(req).total == total
        assert len(reads.feed(req)) == total
        assert reads.search(replace(req, page_size=0)).total == total  # the filter panel's counts too
