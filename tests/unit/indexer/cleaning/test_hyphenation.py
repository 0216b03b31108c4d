"""Line-break hyphens of PDF text repaired with the index's dictionary (services/indexer/cleaning/hyphenation.py)."""

from __future__ import annotations

import pytest

from services.indexer.cleaning import hyphenation
from services.indexer.cleaning.hyphenation import is_word, repair
from services.indexer.paper.normalise import Origin, normalise


@pytest.mark.parametrize("broken, repaired", [
    ("The model con- sists of two parts.", "The model consists of two parts."),
    ("How- ever, it fails.", "However, it fails."),
    ("re- search", "research"),
    ("pref- erences and approxima- tions", "preferences and approximations"),
    ("em- bedding", "embedding"),
    ("high- dimensional data", "high-dimensional data"),
    ("state-of-the- art results", "state-of-the-art results"),
    ("self- supervised, real- world, zero- shot", "self-supervised, real-world, zero-shot"),
    ("CNN- based and ImageNet- based", "CNN-based and ImageNet-based"),
    ("FlashAtten- tion", "FlashAttention"),
    ("multia- gent", "multiagent"),
])
def test_repaired(broken, repaired):
    assert repair(broken) == repaired


@pytest.mark.parametrize("text", [
    "pre- and post-training", "intra- or inter-class", "first- vs second-order", "the values- the model",
    "digits- we show",
    "a well-known method", "GPT- 4", "X- ray", "e- commerce", "Pre- Training", "no hyphen at all",
])
def test_left_alone(text):
    assert repair(text) == text


@pytest.mark.parametrize("word, known", [
    ("consists", True), ("studies", True), ("unlikely", True), ("decrease", True), ("Paris", True),
    ("sists", False), ("highdimensional", False), ("theart", False),
])
def test_is_word_reads_affix_flags(word, known):
    assert is_word(word) is known


def test_abstract_and_tldr_are_repaired_titles_are_not():
    paper = normalise({"title": "Con- sists", "abstract": "It con- sists of parts.", "tldr": "A high- dimensional map"},
                      Origin("x/iclr2024.json", 0, "iclr", 2024, format="paperlists"))
    assert (paper.title, paper.abstract, paper.tldr) == ("Con- sists", "It consists of parts.", "A high-dimensional map")


def test_without_the_dictionary_text_is_left_as_it_is(monkeypatch, tmp_path):
    monkeypatch.setattr(hyphenation, "DICTIONARY", tmp_path)
    hyphenation.dictionary.cache_clear()
    try:
        assert repair("con- sists") == "con- sists"
    finally:
        hyphenation.dictionary.cache_clear()
