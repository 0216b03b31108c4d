"""The query read once: what its text may be of a paper, worked out in one place and read by every body."""

from __future__ import annotations

import dataclasses

import pytest

from services.search.query.query_language import Term, parse
from services.search.query.ranking import FACTORS, WEIGHTS
from services.search.query.reading import AuthorTitle, NameAuthor, read
from services.search.query.request import parse_request
from services.search.query.semantic import build_ranked


def of(q: str):
    return read(parse(q), q)


def test_a_reading_is_a_frozen_value():
    with pytest.raises(dataclasses.FrozenInstanceError):
        of("lora").free_text = "x"  # type: ignore[misc]


def test_title_keys_as_parsed_and_as_typed():
    q = of("Gradients OR Weights? A Study")
    assert q.title_keys == ("a study", "gradients or weights a study")
    assert q.named_titles == ("gradients or weights a study",)  # three words or more: listed whatever its status
    assert of("a").title_keys == ()


def test_the_title_text_is_the_free_text_else_the_words_scoped_to_title():
    assert of("graph author:kipf").title_text == "graph"
    assert of("title:attention author:vaswani").title_text == "attention"


def test_name_keys_as_parsed_as_typed_and_as_a_singular():
    assert of("gans").name_keys == ("gans", "gan") and of("gans").typed_keys == ("gans",)
    assert of("ControlNet++").name_keys == ("controlnet++",)  # a "+" after a word is the name's own
    assert of("A + B").name_keys == ("ab", "a+b")


def test_each_word_and_the_words_as_one_name_are_naming_keys():
    q = of("faster rcnn")
    assert q.word_keys[Term("rcnn")] == ("rcnn",) and q.whole_name_keys == ("fasterrcnn",)
    assert q.naming_keys == {"faster", "rcnn", "fasterrcnn"}
    assert Term("kipf", "author") not in of("author:kipf graph").word_keys  # a scoped word names nobody


def test_the_last_word_may_be_still_typed_and_cut():
    q = of("Integrated Defense for Res")
    assert q.typed == Term("Res") and q.cut == Term("Res")
    assert q.title_cut == q.cut_start == "integrated defense for res"
    assert of("lora").title_cut == "lora" and of("lora").cut_start == ""  # one word: no title start in the text query
    assert of("deep learning for").title_cut == ""  # a small word last is whole
    assert of("graph author:hinton").typed == Term("hinton", "author") and of("graph author:hinton").cut is None
    assert of('deep "learning theo"').typed is None  # a phrase is meant as typed
    assert of("The Role of Symmetry").sentence_start and not of("graph neural networks").sentence_start


def test_the_words_split_into_a_name_and_an_author_and_into_an_author_and_title_words():
    q = of("maml finn")
    assert q.name_authors == (NameAuthor(("maml",), "finn"), NameAuthor(("finn",), "maml"))
    assert q.author_titles == (AuthorTitle("maml", "finn"), AuthorTitle("finn", "maml"))
    assert of("transformers").author_titles == ()


def test_prefixes_past_the_limit_are_words():
    q = of(" ".join(f"w{i}x*" for i in range(12)))
    assert [c.alternatives[0].prefix for c in q.clauses] == [True] * 8 + [False] * 4


def test_each_factor_is_one_row():
    assert len({f.name for f in FACTORS}) == len(FACTORS) == len(WEIGHTS)


def test_a_search_body_reads_its_query_once(monkeypatch):
    calls = []

    def counted(*args):
        calls.append(args)
        return read(*args)

    monkeypatch.setattr("services.search.query.request.read", counted)
    build_ranked(parse_request({"q": ["Direct Preference Optim"], "status": ["reject"]}))
    assert len(calls) == 1
