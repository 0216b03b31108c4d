"""Which searches count their facets on a sample: only short ones, asked first, past the line."""

from __future__ import annotations

import re

from services.search import limits
from services.search.query import breadth
from services.search.query.request import SearchRequest, parse_request
from services.search.query.search_body import build_search


def test_only_a_short_query_counting_facets_is_counted_first():
    short = SearchRequest(q="learning")
    body = build_search(short)
    assert breadth.count_body(short, body) == {"query": body["query"], "post_filter": body["post_filter"],
                                               "size": 0, "track_total_hits": True}  # what the page lists
    assert breadth.count_body(SearchRequest(q=""), build_search(SearchRequest(q=""))) is not None  # every paper
    for text in ("graph neural networks", "deep learning"):  # two content words: counted exactly, no round trip
        long = SearchRequest(q=text)
        assert breadth.count_body(long, build_search(long)) is None
    the_model = SearchRequest(q="the model")  # one content word: may match most of the corpus
    assert breadth.count_body(the_model, build_search(the_model)) is not None
    assert breadth.count_body(short, {**body, "knn": {}}) is None  # kNN counts its k neighbours
    no_facets = SearchRequest(q="learning", counted=())  # a feed, an export: nothing to sample
    assert breadth.count_body(no_facets, build_search(no_facets)) is None


def test_only_a_word_that_may_be_broad_is_counted_first():
    for word in ("CAPTCHA", "sensitivity", "transformers"):  # a few thousand papers at most: no round trip
        narrow = SearchRequest(q=word)
        assert breadth.count_body(narrow, build_search(narrow)) is None, word
    for text in ("Learning", "the models", "modeler"):  # "modeler" is also "model" once stemmed
        assert breadth.count_body(SearchRequest(q=text), build_search(SearchRequest(q=text))) is not None, text
    typed = SearchRequest(q="lear", expand_last=True)  # "lear*" starts "learning"
    assert breadth.count_body(typed, build_search(typed)) is not None
    compound = SearchRequest(q="self-supervised")  # not a plain word: counted as before
    assert breadth.count_body(compound, build_search(compound)) is not None


def test_the_broad_words_are_plain_lowercase_words():
    words = breadth.broad_words()
    assert {"learning", "model", "network", "university"} <= words and "captcha" not in words
    assert all(w == w.casefold() and re.fullmatch(r"\w+", w) for w in words)


def test_a_filtered_page_counts_what_it_lists_not_its_query_alone():
    """A conference-year page has no words (its query matches every paper): its filters decide its breadth."""
    page = parse_request({"conference": ["icml"], "year": ["2020"]})
    body = build_search(page)
    check = breadth.count_body(page, body)
    assert check is not None and check["query"] == body["query"]
    assert check["post_filter"] == body["post_filter"] and "icml" in str(check["post_filter"])


def test_the_sample_share_holds_about_the_sample_size_past_the_line():
    assert breadth.sample_share(limits.SAMPLE_FACETS_ABOVE) is None
    share = breadth.sample_share(4 * limits.FACET_SAMPLE + limits.SAMPLE_FACETS_ABOVE)
    assert share is not None and 0 < share < 0.5  # Elasticsearch takes a probability below 0.5 (or exactly 1)
    assert abs(share * (4 * limits.FACET_SAMPLE + limits.SAMPLE_FACETS_ABOVE) - limits.FACET_SAMPLE) < 5
    assert limits.FACET_SAMPLE / limits.SAMPLE_FACETS_ABOVE < 0.5  # so every share is one it takes
