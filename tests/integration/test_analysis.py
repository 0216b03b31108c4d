"""The analyzers as Elasticsearch runs them: hunspell stemming with the domain supplement."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.integration


def _tokens(es, index, analyzer, text):
    return [t["token"] for t in es.indices.analyze(index=index, analyzer=analyzer, text=text)["tokens"]]


@pytest.mark.parametrize("word, stem", [
    ("learning", "learn"), ("networks", "network"), ("studies", "study"),
    ("graphs", "graph"), ("subgraphs", "subgraph"), ("LLMs", "llm"), ("embeddings", "embedding"),
    ("tokenizers", "tokenizer"), ("GANs", "gan"), ("pretrained", "pretrain"),
])
def test_english_text_stems_domain_words(es, sample_alias, word, stem):
    assert stem in _tokens(es, sample_alias, "english_text", word)


def test_exact_text_keeps_words_and_stopwords(es, sample_alias):
    assert _tokens(es, sample_alias, "exact_text", "Learning to Rank") == ["learning", "to", "rank"]
    assert "to" not in _tokens(es, sample_alias, "english_text", "Learning to Rank")


def test_stemmed_search_matches_inflections(client):
    singular = client.get("/api/v1/search?q=graph&page_size=1").get_json()["total"]
    plural = client.get("/api/v1/search?q=graphs&page_size=1").get_json()["total"]
    assert singular == plural > 0
