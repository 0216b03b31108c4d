"""Name keys: every spelling of a name meets one key (services/search/records/paper_names.py)."""

from __future__ import annotations

import pytest

from services.search.records.paper_names import (
    contractions,
    fold,
    name_key,
    name_like,
    named_as,
    names_in_order,
    plain,
    query_key,
    search_keys,
    title_name,
)


@pytest.mark.parametrize("spellings, key", [
    (("VQ-VAE", "vqvae", "VQ VAE", "Vq-Vae"), "vqvae"),
    (("T5", "T-5", "t5"), "t5"),
    (("DDIMs", "DDIM"), "ddim"),
    (("Prototypical Networks", "prototypical network", "Prototypical-Networks"), "prototypicalnetwork"),
    (("Schölkopf", "SCHOLKOPF"), "scholkopf"),
])
def test_spellings_of_one_name_share_a_key(spellings, key):
    assert {name_key(s) for s in spellings} == {key}


def test_what_a_key_keeps_apart():
    assert name_key("MAML++") != name_key("MAML")  # "+" is part of a name
    assert name_key("process") == "process"  # "ss" is no plural
    assert name_key("a") == "" and name_key("x" * 200) == ""  # too short or too long to be a name


def test_the_name_before_a_title_colon():
    assert title_name("LoRA: Low-Rank Adaptation of Large Language Models") == "LoRA"
    assert title_name("Attention is All you Need") == ""
    assert title_name("In this paper we study how one can possibly learn a great many things: a note") == ""


@pytest.mark.parametrize("word, coined", [
    ("DETR", True), ("GraphSAGE", True), ("VQ-VAE", True), ("LoRA", True), ("pix2pix", True), ("T5", True),
    ("GPT-3", True), ("Dropout", False), ("Multi-Task", False), ("State-of-the-Art", False), ("3D", False),
    ("2nd", False), ("A", False),
])
def test_a_coined_word_is_told_from_english(word, coined):
    assert name_like(word) is coined


def test_one_spelling_of_each_name_in_order():
    assert names_in_order(["VQ-VAE", "Vector Quantised VAE", "vqvae", "", "x"]) == ["VQ-VAE", "Vector Quantised VAE"]
    assert fold("Rémi Munos") == "remi munos"


def test_a_capital_s_is_part_of_a_name_and_a_typed_query_guesses_no_plural():
    assert name_key("ACLS") == "acls" and name_key("ACL") == "acl"
    assert name_key("Agent S") == "agents" and name_key("AGENT") == "agent"
    assert search_keys("DDIMs") == ["ddims", "ddim"] and search_keys("ACLS") == ["acls"]
    assert query_key("ddims") == "ddims" and query_key("A + B") == "a+b"


def test_greek_letters_are_spelled_out_not_dropped():
    """"μBench" is not the word "bench" ("@BENCH" is): the letter keeps the names apart."""
    assert name_key("μBench") == name_key("µBench") == "mubench"  # Greek mu and the micro sign
    assert name_key("@BENCH") == "bench"
    assert name_key("ϵ-greedy") == "epsilongreedy" and name_key("ΣNet") == "sigmanet"


def test_a_titles_networks_as_the_field_shortens_them():
    assert {"protonet", "protonets"} <= set(contractions("Prototypical Networks for Few-shot Learning"))
    assert "convnets" in contractions("Deformable Convolutional Networks")
    assert "convnet" in contractions("ImageNet Classification with Deep Convolutional Neural Networks")
    assert "resnet" in contractions("Wide Residual Networks")
    # Cut to three letters at least, and only the word right before the network.
    assert "prnet" not in contractions("Prototypical Networks") and "deformnet" not in contractions(
        "Deformable Convolutional Networks")
    assert contractions("Networks of Spiking Neurons") == [] and contractions("Dynamic Routing Between Capsules") == []


@pytest.mark.parametrize("written, read", [
    ("\\textbf{PCAD}", "PCAD"), ("$\\texttt{DARA}$", "DARA"), ("\\\\textit{MMHalSnowball}", "MMHalSnowball"),
    ("RED^{\\textrm{FM}}", "RED^FM"), ("**EdgeDoG**", "EdgeDoG"), ("***AGAP***", "AGAP"), ("_DataTune_", "DataTune"),
    ("**L**LMs-as-**C**orrector", "LLMs-as-Corrector"), ("One For All $\\&$ All For One", "One For All & All For One"),
    ("A*+BFHS", "A*+BFHS"), ("Int*-Match", "Int*-Match"), ("DuReader_robust", "DuReader_robust"),  # not markup
])
def test_a_name_is_read_without_the_markup_it_was_written_in(written, read):
    assert plain(written) == read


def test_a_names_key_is_its_plain_spellings():
    assert names_in_order(["\\textsc{GoTrim}", "GoTrim"]) == ["GoTrim"]
    assert name_key(names_in_order(["\\textbf{PCAD}"])[0]) == "pcad"


def test_a_typed_name_is_told_where_the_title_does_not_say_it():
    assert named_as(["gato reed", "gato", "reed"], ["Gato"], "A Generalist Agent") == "Gato"
    assert named_as(["vqvae"], ["Vector Quantised-Variational AutoEncoder", "VQ-VAE"],
                    "Neural Discrete Representation Learning") == "VQ-VAE"
    assert named_as(["lora"], ["LoRA"], "LoRA: Low-Rank Adaptation of Large Language Models") == ""  # said there
    assert named_as(["graph networks"], ["Gato"], "A Generalist Agent") == ""
    assert named_as(["gans"], ["GAN", "Generative Adversarial Networks"], "Generative Adversarial Nets") == "GAN"


def test_a_typed_plural_is_its_singular_too_but_not_a_names_own_s():
    from services.search.records.paper_names import query_keys

    assert query_keys("GANs") == query_keys("gans") == ["gans", "gan"]
    assert query_keys("pac-s") == ["pacs"] and query_keys("t5s") == ["t5s"] and query_keys("class") == ["class"]
    assert query_keys("") == [] and query_keys("a") == []
