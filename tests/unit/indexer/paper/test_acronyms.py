"""Acronym definitions in running text, Schwartz & Hearst (services/indexer/paper/acronyms.py)."""

from __future__ import annotations

import pytest

from services.indexer.paper.acronyms import Definition, definitions


@pytest.mark.parametrize("text, found", [
    ("we build on model-agnostic meta-learning (MAML) for", ("MAML", "model-agnostic meta-learning")),
    ("Our model, the Vector Quantised-Variational AutoEncoder (VQ-VAE), differs",
     ("VQ-VAE", "Vector Quantised-Variational AutoEncoder")),
    ("based on the text-to-text transfer transformer (T5) model", ("T5", "text-to-text transfer transformer")),
    ("called Trust Region Policy Optimization (TRPO).", ("TRPO", "Trust Region Policy Optimization")),
    ("Many graph neural networks (GNNs) are", ("GNNs", "graph neural networks")),
    ("and, further, Prototypical Networks (ProtoNets) learn", ("ProtoNets", "Prototypical Networks")),
])
def test_a_long_form_spells_its_short_name(text, found):
    assert definitions(text) == [Definition(*found)]


@pytest.mark.parametrize("text", [
    "we use cycle-consistent adversarial network (CycleGAN) here",  # its letters are not all in the words
    "as in this paper (ICLR) we",
    "results (see Table) improve",
    "accuracy (95%) is",
])
def test_words_that_do_not_spell_it_define_nothing(text):
    assert definitions(text) == []


@pytest.mark.parametrize("short, long", [
    ("SGDR", "Stochastic Gradient Descent with Warm Restarts"),  # a word that gives no letter, among words that do
    ("CITRUS", "Continuous Product Graph Neural Networks"),  # a loose acronym, written as a name
    ("ROUTE", "RObust mUltitask Tuning and collaboration mEthod"),  # letters shown as capitals
    ("DOF", "six-degree-of-freedom"),  # ... after hyphens
    ("RAD", "**R**etrieval-**A**ugmented **D**iagnosis"),  # ... in emphasis
    ("GNNs", "graph neural networks"),
])
def test_a_long_form_that_reads_as_its_short_name_stands_for_it(short, long):
    assert Definition(short, long).stands_for()


@pytest.mark.parametrize("short, long", [
    ("ResNet", "ReTrace demonstrates effectiveness across both convolutional"),
    ("FedBN", "FedWon surpasses both FedAvg and the current state-of-the-art method"),
    ("MOTR", "memory and present a new online learning algorithm"),
])
def test_running_text_whose_letters_spell_a_short_name_does_not_stand_for_it(short, long):
    assert definitions(f"Furthermore, {long} ({short}) and") == [Definition(short, long)]  # Schwartz & Hearst
    assert not Definition(short, long).stands_for()
