"""The names a record gives its paper (services/indexer/paper/own_names.py): its title's name and what its abstract coins."""

from __future__ import annotations

import pytest

from services.indexer.paper.own_names import coined_names, own_names


@pytest.mark.parametrize("abstract, names", [
    ("Here we present GraphSAGE, a general, inductive framework.", ["GraphSAGE"]),
    ("We introduce a new algorithm named WGAN, an alternative to traditional GAN training.", ["WGAN"]),
    ("The main ingredients of the new framework, called DEtection TRansformer or DETR, are a loss.",
     ["DEtection TRansformer", "DETR"]),
    ("Our model, the Vector Quantised-Variational AutoEncoder (VQ-VAE), differs from VAEs.",
     ["Vector Quantised-Variational AutoEncoder"]),
    ("We propose Prototypical Networks for the problem of few-shot classification.", ["Prototypical Networks"]),
    ("We propose a new method for training GANs on small data.", []),  # a method, not a name
    ("In this work we present a Convolutional Neural Network (CNN) to predict quality.", []),  # a common noun
    ("We present Tacotron, an end-to-end generative text-to-speech model.", ["Tacotron"]),
    ("We present. In this setting the models were called, as usual, baselines.", []),
    ("The agent, which we refer to as Gato, works as a multi-modal policy.", ["Gato"]),
    ("The problem, commonly referred to as the Lasso, leads to sparse solutions.", []),  # a field's term
    ("We propose the TuRBO algorithm that fits a collection of local models.", ["TuRBO"]),  # named by its head noun
    ("We propose an OOD detection algorithm that works.", []),  # a modifier of another noun
    ("We propose the MLP-like architecture for images.", []),  # an adjective made of a name
    ("We present mBART—a sequence-to-sequence denoising auto-encoder.", ["mBART"]),  # a dash sets it off
    ("To train a model with this skill, we created ENTAILMENTBANK, the first dataset of trees.", ["ENTAILMENTBANK"]),
    ("In this work we proposed GraphSAGE, a general, inductive framework.", ["GraphSAGE"]),  # past tense too
    ('A method termed "Video Cross-Stream Prototypical Contrasting", which predicts.',
     ["Video Cross-Stream Prototypical Contrasting"]),  # the quotes are not the name's
    ("Specifically, we train GPT-3, an autoregressive language model with 175 billion parameters.", ["GPT-3"]),
    ("We trained ResNet-50 on ImageNet for 90 epochs.", []),  # trained, not described: a use
    ("We collected a new dataset, a large one, of dialogues.", []),  # no coined word
    ("We train DetPro with ViLD, a detector.", []),  # two names joined: neither is described alone
    ("We propose a Named Entity Recognition model for tweets.", []),  # a field's term, not "Entity Recognition"
    ("Our tagger finds Named Entities in Bavarian text.", []),
    ("We propose a novel BERT based robust multi-task learning framework.", []),  # "BERT-based", a modifier
    ("We propose GraphSAGE based on sampling neighbours.", ["GraphSAGE"]),
    ("We propose Mutual Information Regularization based Defense against attacks.",
     ["Mutual Information Regularization"]),  # within a Title Case name: not a modifier
    ("Since the release of the pix2pix software associated with this paper, users posted.", ["pix2pix"]),
    ("Our CycleGAN code, accompanying this work, is public.", []),  # not "our <name> <software noun>"
    ("The PyTorch code accompanying this paper is public.", []),  # a tool it is written with, not its name
    ("The source code associated with this paper is public.", []),  # no coined word
    ("We compare with the pix2pix software of Isola et al.", []),  # someone else's software
])
def test_what_an_abstract_coins(abstract, names):
    assert coined_names(abstract) == names


def test_own_names_are_the_title_name_coined_names_and_their_defined_acronyms():
    assert own_names("Trust Region Policy Optimization",
                     "We develop a practical algorithm, called Trust Region Policy Optimization (TRPO).") == \
        ["Trust Region Policy Optimization", "TRPO"]
    assert own_names("Neural Discrete Representation Learning",
                     "Our model, the Vector Quantised-Variational AutoEncoder (VQ-VAE), differs.") == \
        ["Vector Quantised-Variational AutoEncoder", "VQ-VAE"]
    assert own_names("LoRA: Low-Rank Adaptation of Large Language Models", "") == ["LoRA"]


def test_a_fields_term_that_starts_the_title_is_not_its_name():
    assert own_names("How Powerful are Graph Neural Networks?",
                     "Graph Neural Networks (GNNs) are an effective framework.") == []
    assert own_names("Deep Neural Networks for Object Detection",
                     "Deep Neural Networks (DNNs) have recently shown outstanding performance.") == []


def test_a_coined_name_that_starts_a_defined_long_form_is_that_long_form():
    assert own_names("DETR With Additional Global Aggregation for Cross-Domain Detection",
                     "Such motivated, we propose DETR with additional Global Aggregation (DETR-GA), a detector.") \
        == ["DETR with additional Global Aggregation", "DETR-GA"]


def test_a_sentence_that_starts_with_a_coined_name_does_not_extend_it():
    # "ResNet"'s letters are in these words, which do not stand for it: the paper is not named ResNet.
    assert own_names("ReTrace: Reinforcement Learning-Guided Reconstruction Attacks on Machine Unlearning",
                     "In this work, we propose ReTrace, the first reconstruction attack framework. Furthermore, "
                     "ReTrace demonstrates effectiveness across both convolutional (ResNet) and transformer-based "
                     "models.") == ["ReTrace"]


def test_an_acronym_whose_long_form_is_the_title_but_for_word_endings_is_its_name():
    assert own_names("Mutual Information Neural Estimation",
                     "We present a Mutual Information Neural Estimator (MINE) that is linearly scalable.") == ["MINE"]
    # two words are too few to tell a title from the field's term it ends differently
    assert own_names("Machine Translationese", "Machine Translation (MT) output differs from human text.") == []


def test_a_capitalised_noun_after_the_verb_is_the_names_first_word():
    assert own_names("Fast Model Editing at Scale", "We propose Model Editor Networks using Gradient Decomposition "
                     "(MEND), a collection of small auxiliary editing networks.") == \
        ["Model Editor Networks using Gradient Decomposition", "MEND"]
