"""Known-item factors and the prior as Elasticsearch functions (no Elasticsearch; the integration
tests and bench/relevance/known_item.py check what they do to real rankings)."""

from __future__ import annotations

import json

import pytest

from services.search.query.query_language import parse
from services.search.query.ranking import MIN_INTRO_MENTIONS, PRIOR_WEIGHT, WEIGHTS, known_item_filters, ranked
from services.search.query.reading import read
from services.search.records.model import title_key
from services.search.records.paper_names import name_key, title_name

TEXT = {"match_all": {}}


def filters(q: str) -> dict[str, list]:
    """The known-item filters of a query, by factor."""
    out: dict[str, list] = {}
    for factor, query_filter in known_item_filters(read(parse(q), q)):
        out.setdefault(factor, []).append(query_filter)
    return out


def test_a_title_is_its_key_and_a_name_is_the_part_before_the_colon():
    assert title_name("LoRA: Low-Rank Adaptation of Large Language Models") == "LoRA"
    assert name_key(title_name("Direct Preference Optimization: Your Language Model is Secretly a Reward Model")) \
        == "directpreferenceoptimization"
    assert title_name("Attention is All you Need") == ""
    assert title_name("In this paper we study the question of how one can possibly learn: a note") == ""


def test_the_query_text_is_matched_as_a_title_a_name_and_their_starts():
    got = filters("Direct Preference Optim")
    assert got["title"] == [{"terms": {"title_key": ["direct preference optim"]}}]
    # ... and as the title of a paper lists hide (rejected, withdrawn): after its listed twin
    assert got["title_hidden"] == [{"bool": {"filter": [{"terms": {"title_key": ["direct preference optim"]}},
                                                        {"terms": {"status": ["reject", "withdrawn"]}}]}}]
    assert {"terms": {"name_keys": ["directpreferenceoptim"]}} in got["name"]
    assert {"bool": {"filter": [{"terms": {"intro_keys": ["directpreferenceoptim"]}},
                                {"range": {"mentions": {"gte": MIN_INTRO_MENTIONS}}}]}} in got["introduced"]
    assert got["name_start"] == [{"bool": {"filter": [{"prefix": {"name_keys": "directpreferenceoptim"}}],
                                           "must_not": [{"match": {"title.exact": "Optim"}}]}}]
    # The title's start counts while the last word is cut: no title holds "optim" as a word.
    assert got["title_start"] == [{"bool": {"filter": [{"prefix": {"title_key": "direct preference optim"}}],
                                            "must_not": [{"match": {"title": "Optim"}}]}}]


def test_a_name_start_counts_only_where_the_last_word_is_not_a_title_word():
    """Many names start "stochastic gradient descent...": a topic, not a paper; lifting them cost precision."""
    got = filters("stochastic gradient descent")
    assert got["name"] == [{"terms": {"name_keys": ["stochasticgradientdescent"]}}]
    assert got["name_start"] == [{"bool": {"filter": [{"prefix": {"name_keys": "stochasticgradientdescent"}}],
                                           "must_not": [{"match": {"title.exact": "descent"}}]}}]
    assert "name_start" not in filters("stochastic gradient descent author:bottou")


def test_a_plus_after_a_word_is_part_of_the_name():
    """ControlNet++ is not ControlNet (which 137 later abstracts mention): only the typed key counts."""
    assert filters("ControlNet++")["name"] == [{"terms": {"name_keys": ["controlnet++"]}}]
    assert filters("A + B")["name"] == [{"terms": {"name_keys": ["ab", "a+b"]}}]
    assert filters("+graph +networks")["name"] == [{"terms": {"name_keys": [
        "graphnetworks", "graphnetwork", "+graph+networks", "+graph+network"]}}]


def test_a_typed_plural_names_the_singular_too_but_is_as_typed_only_itself():
    """`gans` means GAN (the name the 2014 paper introduced); only "gans" is the spelling as typed."""
    got = filters("gans")
    assert got["name"] == [{"terms": {"name_keys": ["gans", "gan"]}}]
    assert got["introduced"][0]["bool"]["filter"][0] == {"terms": {"intro_keys": ["gans", "gan"]}}
    assert "name_as_typed" not in got  # a typed plural: no singular is "as typed"
    assert filters("gan")["name_as_typed"][0]["bool"]["filter"] == [{"terms": {"name_keys": ["gan"]}}]
    assert filters("class")["name"] == [{"terms": {"name_keys": ["class"]}}]  # "ss" is no plural
    assert filters("pac-s")["name"] == [{"terms": {"name_keys": ["pacs"]}}]  # PAC-S's own "s"


def test_a_name_spelt_as_typed_comes_before_a_plural_that_folds_to_it():
    got = filters("SWORD")
    assert got["name"] == [{"terms": {"name_keys": ["sword"]}}]  # "Swords" folds to it too ...
    assert got["name_as_typed"] == [{"bool": {"filter": [{"terms": {"name_keys": ["sword"]}}],
                                              "must_not": [{"terms": {"name_keys": ["swords"]}}]}}]
    assert "name_as_typed" not in filters("ddims")  # ... and a typed plural already meets only its own spelling


def test_a_pasted_title_with_syntax_is_still_that_title():
    raw = "Gradients OR Weights? A Study"
    assert filters(raw)["title"] == [{"terms": {"title_key": ["a study", title_key(raw)]}}]


def test_scoped_title_words_are_a_title_too():
    got = filters("title:attention author:vaswani")
    assert got["title"] == [{"terms": {"title_key": ["attention", "title attention author vaswani"]}}]
    assert "title_start" not in got and "name_start" not in got  # the last word is the author's, not being typed
    assert "author_title" not in got  # the scopes already say which word is whose


def test_words_and_a_surname_try_each_word_as_the_author():
    got = filters("self-consistency wang")["author_title"]
    assert {"bool": {"filter": [{"match": {"authors_folded": "wang"}},
                                {"match": {"title": {"query": "self-consistency", "operator": "and"}}}]}} in got
    assert len(got) == 2
    assert "author_title" not in filters("transformers")  # one word cannot be words plus an author
    assert "author_title" not in filters(" ".join(f"w{i}" for i in range(12)))  # a paragraph is not a name


def test_no_text_no_scores_and_one_letter_no_title_factors():
    assert ranked(TEXT, read(parse(""))) is TEXT
    assert ranked(TEXT, read(parse("conference:iclr year:2020"))) is TEXT
    assert "title" not in filters("a")


def test_the_prior_is_a_bounded_factor_around_the_text_score():
    query = ranked(TEXT, read(parse("lora"), "lora"))
    json.dumps(query)
    outer = query["function_score"]
    assert outer["boost_mode"] == "multiply" and outer["score_mode"] == "sum"
    weight, factor = outer["functions"]
    assert factor["field_value_factor"] == {"field": "prominence", "factor": PRIOR_WEIGHT, "missing": 0.5}
    low, high = weight["weight"], weight["weight"] + PRIOR_WEIGHT
    assert low == pytest.approx(1 - PRIOR_WEIGHT / 2) and high == pytest.approx(1 + PRIOR_WEIGHT / 2)
    # The prior can never undo the weakest known-item factor, nor put a hidden paper before its listed twin.
    assert high / low < min(f for f in WEIGHTS.values() if f > 1)
    assert [name for name, f in WEIGHTS.items() if f <= 1] == ["title_hidden"]
    assert high / low < 1 / WEIGHTS["title_hidden"]
    inner = outer["query"]["function_score"]
    assert inner["query"] is TEXT and inner["score_mode"] == "multiply" and inner["boost_mode"] == "multiply"
    assert {fn["weight"] for fn in inner["functions"]} <= set(WEIGHTS.values())


def test_the_name_a_title_starts_with_counts_exactly_as_typed():
    """"BINDER" is the paper titled "BINDER: ...", not one merely known as Binder (nor "Hilbert maps")."""
    got = filters("BINDER")["title_name"]
    assert got == [{"bool": {"filter": [{"term": {"names": "BINDER"}}, {"prefix": {"title_key": "binder "}}],
                             "must_not": [{"wildcard": {"name_keys": "binder?*"}}]}}]
    assert filters("Swin-")["title_name"][0]["bool"]["filter"][0] == {"term": {"names": "Swin-"}}
    assert filters("Video  Question Answering")["title_name"][0]["bool"]["filter"] == [
        {"term": {"names": "Video Question Answering"}}, {"prefix": {"title_key": "video question answering "}}]
    assert "title_name" not in filters("a")


def test_words_that_begin_or_end_on_a_small_word_are_a_titles_start():
    """A sentence's start ("The Role of Symmetry", "Consistent Depth of"), never a topic's words."""
    assert {"prefix": {"title_key": "the role of symmetry "}} in filters("The Role of Symmetry")["title_start"]
    assert filters("Consistent Depth of")["title_start"] == [{"prefix": {"title_key": "consistent depth of "}}]
    # A small word is never cut: "control strategies for" is not the start of "... format".
    assert filters("Control strategies for")["title_start"] == [{"prefix": {"title_key": "control strategies for "}}]
    assert {"prefix": {"title_key": "graph neural networks "}} not in filters("graph neural networks")["title_start"]
    assert "title_start" not in filters("the")
