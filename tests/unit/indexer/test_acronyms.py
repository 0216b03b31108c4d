"""Acronym definitions in running text, Schwartz & Hearst (services/indexer/acronyms.py)."""

from __future__ import annotations

import pytest

from services.indexer.acronyms import Definition, definitions


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
