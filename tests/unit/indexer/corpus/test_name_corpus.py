"""What the corpus says of names (services/indexer/corpus/names/decide.py), on a small made-up field."""

from __future__ import annotations

import random

from services.indexer.corpus.names.decide import Entry, corpus_names, novel
from services.indexer.paper.own_names import own_names

FILLER = "We study learning with neural networks on several benchmarks and report results."


def entry(i: int, year: int, title: str, abstract: str = FILLER) -> Entry:
    return Entry(f"p{i}", year, title, abstract, tuple(own_names(title, abstract)))


def field() -> list[Entry]:
    """30 papers before 2017, the introducing papers of 2017, 30 later papers that use their names."""
    papers = [entry(i, 2014 + i % 3, f"A Study of Learning Number {i}") for i in range(30)]
    papers += [
        entry(100, 2017, "Model-Agnostic Meta-Learning for Fast Adaptation of Deep Networks",
              "We propose an algorithm for meta-learning that is compatible with any model."),
        entry(101, 2017, "Inductive Representation Learning on Large Graphs",
              "Here we present GraphSAGE, a general, inductive framework for node embeddings."),
        entry(102, 2016, "Support Vector Machines for Everything", "We use support vector machines."),
    ]
    for i in range(30):
        papers.append(entry(200 + i, 2018 + i % 5, f"Fast Adaptation Follow-up {i}",
                            "We build on model-agnostic meta-learning (MAML) and compare with GraphSAGE. "
                            "Support vector machines (SVMs) are a baseline."))
    papers.append(entry(300, 2019, "GraphSAGE++: Faster Sampling",
                        "We extend GraphSAGE with faster neighbour sampling."))
    return papers


def named(papers: list[Entry]) -> dict[str, object]:
    return {e.paper_id: n for e, n in zip(papers, corpus_names(papers))}


def test_other_papers_give_the_earliest_title_its_acronym_and_long_form():
    got = named(field())["p100"]
    assert got.names == ["MAML", "model-agnostic meta-learning"]
    assert got.introduced == ["MAML"]  # the long form, written in lowercase by all who define it, is a field's term
    assert got.mentions == 30


def test_a_title_that_says_nets_is_what_networks_stands_for():
    """"Generative Adversarial Nets" introduced GAN, though the field writes "generative adversarial networks"."""
    papers = [e for e in field() if e.paper_id != "p100"]
    papers.append(entry(400, 2017, "Generative Adversarial Nets",
                        "We propose a new framework for estimating generative models via an adversarial process."))
    papers += [entry(500 + i, 2018 + i % 5, f"Image Synthesis Follow-up {i}",
                     "Generative adversarial networks (GANs) synthesise images; we improve GANs.") for i in range(30)]
    got = named(papers)["p400"]
    assert got.names == ["GAN", "Generative adversarial networks"] and got.introduced == ["GAN"]
    assert got.mentions == 30


def test_a_short_name_inside_a_long_form_is_also_written_spelled_out():
    """"WGAN" stands for "Wasserstein GAN" in most abstracts; the title that introduced it spells the GAN out."""
    papers = [e for e in field() if e.paper_id != "p100"]
    papers.append(entry(400, 2017, "Wasserstein Generative Adversarial Networks",
                        "We introduce a new algorithm named WGAN, an alternative to traditional GAN training."))
    papers.append(entry(401, 2014, "Generative Adversarial Nets", "We propose a new framework for generative models."))
    # (so that the 2017 title is not the first to hold "generative adversarial networks")
    papers += [entry(500 + i, 2018 + i % 5, f"Critic Follow-up {i}",
                     "Generative adversarial networks (GANs) are unstable; the Wasserstein GAN (WGAN) helps.")
               for i in range(30)]
    by_id = named(papers)
    assert by_id["p400"].names[0] == "WGAN" and by_id["p400"].introduced == ["WGAN"] and by_id["p400"].mentions == 30
    assert "Wasserstein GAN" in by_id["p400"].names  # the name the field gives it, for "wasserstein gan arjovsky"


def test_a_title_that_starts_with_the_leads_with_what_others_define():
    """"The Lottery Ticket Hypothesis" is what "lottery ticket hypothesis (LTH)" stands for."""
    papers = [e for e in field() if e.paper_id != "p100"]
    papers += [entry(400, 2017, "The Lottery Ticket Hypothesis: Finding Sparse, Trainable Neural Networks"),
               entry(401, 2016, "Hypothesis Testing for Lotteries")]
    papers += [entry(500 + i, 2018 + i % 5, f"Pruning Follow-up {i}",
                     "The Lottery Ticket Hypothesis (LTH) finds sparse networks.") for i in range(30)]
    by_id = named(papers)
    assert "LTH" in by_id["p400"].introduced and "Lottery Ticket Hypothesis" in by_id["p400"].names
    assert by_id["p401"].names == []


def test_a_coined_name_is_introduced_by_its_first_bearer_and_counts_its_followers():
    by_id = named(field())
    assert by_id["p101"].names == ["GraphSAGE"] and by_id["p101"].introduced == ["GraphSAGE"]
    assert by_id["p101"].mentions == 31  # the 30 follow-ups and GraphSAGE++ (which bears a name of its own)
    assert by_id["p300"].names == ["GraphSAGE++"]
    assert by_id["p300"].introduced == []  # nobody mentions it since: too rare to tell


def test_a_long_form_written_before_names_no_paper():
    papers = field()
    assert named(papers)["p102"].names == ["SVM", "Support vector machines"]  # so far, the first to write it
    # SVMs are defined after 2016, but "support vector machines" was written before, by other papers.
    papers += [entry(103 + i, 2015, f"Kernels Everywhere {i}", "Kernels and support vector machines are everywhere.")
               for i in range(4)]
    got = named(papers)["p102"]
    assert got.names == [] and got.introduced == [] and got.mentions is None


def test_a_corpus_too_thin_before_a_year_cannot_tell_a_name_was_new():
    papers = [e for e in field() if e.year >= 2017]  # nothing before 2017: no witness
    assert named(papers)["p100"].names == [] and named(papers)["p101"].introduced == []


def test_a_coined_name_nobody_wrote_before_is_new_though_the_years_before_are_few():
    """Ten times more papers after 2017 than before: 31 mentions since would not have shown before even if the name
    had existed, yet a coined word of four characters or more that no paper before wrote was new (WGAN of 2017);
    a three-letter one is too often another's acronym ("ACL" of a 2007 robot's ligament) to tell."""
    papers = field()
    papers.append(entry(400, 2017, "QRS: Quick Robot Surgery", "We present a robot."))
    papers += [entry(600 + i, 2018 + i % 5, f"Unrelated Later Work {i}") for i in range(1000)]
    papers += [entry(2000 + i, 2018 + i % 5, f"Surgery Follow-up {i}", "We extend QRS to knees.") for i in range(30)]
    by_id = named(papers)
    assert by_id["p101"].introduced == ["GraphSAGE"] and by_id["p101"].mentions == 31
    assert by_id["p400"].names == ["QRS"] and by_id["p400"].introduced == []


def test_novelty_is_a_rate_not_a_count():
    assert novel(0, 10, 1000, 10000)
    assert novel(8, 4000, 20000, 200000)   # a coined word on arXiv a little before its venue
    assert not novel(12, 400, 5000, 100000)  # ... but not when papers before wrote it at 0.6x the rate since
    assert not novel(600, 13000, 20000, 200000)  # a word used before at half the rate since ("video")



def test_a_field_term_capitalised_only_where_a_sentence_starts_is_still_a_term():
    from services.indexer.corpus.names.decide import _term

    assert _term("Paraphrase generation") and _term("video question-answering")
    assert not _term("Model-Agnostic Meta-Learning") and not _term("Dropout") and not _term("pix2pix")
