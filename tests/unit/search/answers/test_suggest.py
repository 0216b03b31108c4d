"""Autocomplete bodies and the merge of title starts with words found anywhere (services/search/answers/suggest.py)."""

from __future__ import annotations

from services.search.answers.suggest import NAMED, shape_suggestions, suggest_body


def test_words_anywhere_are_asked_from_two_characters():
    assert "query" not in suggest_body("x", 8) and suggest_body("x", 8)["size"] == 0
    body = suggest_body("secretly a rew", 8)
    words = body["query"]["bool"]["should"][0]["bool"]
    assert words["must"] == [{"match_bool_prefix": {"title.exact": {"query": "secretly a rew", "operator": "and"}}}]
    assert words["should"][0]["match_phrase_prefix"]["title.exact"]["query"] == "secretly a rew"
    assert body["size"] == 8 and set(body["suggest"]) == {"title", "author"}
    assert "should" not in suggest_body("diffus", 8)["query"]["bool"]["should"][0]["bool"]  # one word: no phrase clause


def test_a_name_or_title_the_prefix_is_comes_first_its_introducer_before_its_bearers():
    named = {c["constant_score"]["boost"]: c["constant_score"]["filter"]
             for c in suggest_body("VQ-VAE", 8)["query"]["bool"]["should"][1:]}
    assert named[NAMED["intro"]] == {"term": {"intro_keys": "vqvae"}}
    assert named[NAMED["name"]] == {"term": {"name_keys": "vqvae"}}
    assert named[NAMED["title"]] == {"term": {"title_key": "vq vae"}}
    assert named[NAMED["intro_start"]] == {"prefix": {"intro_keys": "vqvae"}}
    assert NAMED["intro"] > NAMED["title"] > NAMED["name"] > NAMED["intro_start"] > NAMED["name_start"]
    hits = [{"_id": "followers", "sort": [30.0], "_source": {"title": "VQ-VAE for Speech", "conference": "icml",
                                                             "year": 2020}},
            {"_id": "intro", "sort": [NAMED["intro"] + 12.0], "_source": {
                "title": "Neural Discrete Representation Learning", "conference": "nips", "year": 2017,
                "names": ["Vector Quantised-Variational AutoEncoder", "VQ-VAE"]}}]
    resp = {"suggest": {"title": [{"options": [_option("start", "VQ-VAE Starts This Title")]}],
                        "author": [{"options": []}]}, "hits": {"hits": hits}}
    titles = [(s.key, s.detail) for s in shape_suggestions("vq-vae", resp, 8) if s.kind == "title"]
    assert titles == [("intro", "VQ-VAE · NeurIPS 2017"), ("start", "ICLR 2024"), ("followers", "ICML 2020")]


def test_the_paper_a_prefix_names_exactly_comes_before_authors_who_start_with_it():
    """"lora" is LoRA before Lora Aroyo; a name only started ("lor") leaves the authors first."""
    hits = [{"_id": "lora", "sort": [NAMED["intro"] + 3.0], "_source": {
        "title": "LoRA: Low-Rank Adaptation of Large Language Models", "conference": "iclr", "year": 2022,
        "names": ["LoRA"]}}, {"_id": "other", "sort": [12.0], "_source": {"title": "LoRA Everywhere",
                                                                           "conference": "iclr", "year": 2024}}]
    resp = {"suggest": {"title": [{"options": []}],
                        "author": [{"options": [{"text": "Lora Aroyo", "_source": {"author_names": ["Lora Aroyo"]}}]}]},
            "hits": {"hits": hits}}
    assert [(s.kind, s.key) for s in shape_suggestions("lora", resp, 8)] == [
        ("title", "lora"), ("author", "Lora Aroyo"), ("title", "other")]
    hits[0]["sort"] = [NAMED["name_start"] + 3.0]
    assert [s.kind for s in shape_suggestions("lor", resp, 8)] == ["author", "title", "title"]


def _option(paper_id, text):
    return {"_id": paper_id, "text": text[:100], "_source": {"conference": "iclr", "year": 2024, "title": text}}


def test_title_starts_first_then_words_anywhere_each_title_once():
    resp = {"suggest": {"title": [{"options": [_option("a", "Secretly Simple"), _option("b", "Secretly Hard")]}],
                        "author": [{"options": []}]},
            "hits": {"hits": [{"_id": "c", "_source": {"title": "Your Model Is Secretly a Reward", "conference": "neurips",
                                                       "year": 2023}},
                              {"_id": "a", "_source": {"title": "Secretly Simple", "conference": "iclr", "year": 2024}}]}}
    titles = [(s.key, s.text, s.detail) for s in shape_suggestions("secretly", resp, 8) if s.kind == "title"]
    assert titles == [("a", "Secretly Simple", "ICLR 2024"), ("b", "Secretly Hard", "ICLR 2024"),
                      ("c", "Your Model Is Secretly a Reward", "NeurIPS 2023")]
    assert len([s for s in shape_suggestions("secretly", resp, 2) if s.kind == "title"]) == 2


def test_a_long_title_is_offered_whole_not_as_its_100_character_completion_input():
    long = "Secretly " + "very " * 30 + "long"
    resp = {"suggest": {"title": [{"options": [_option("a", long)]}], "author": [{"options": []}]}, "hits": {"hits": []}}
    [title] = [s for s in shape_suggestions("secretly", resp, 8) if s.kind == "title"]
    assert title.text == long
