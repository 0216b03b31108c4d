"""Topic derivation: the rules tag representative papers sensibly and the output contract holds."""

from __future__ import annotations

import re
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from services.indexer.paper import topics
from services.indexer.paper.topics import derive_topics, explain, venue_prior
from services.search.catalogue import taxonomy, venues
from services.search.catalogue.taxonomy import FALLBACK, TOPICS

SLUGS = {t.slug for t in TOPICS}
# The cue tables and venue priors are catalogue data now (services/search/catalogue/).
CUES = {t.slug: (t.strong, t.weak) for t in TOPICS}
VENUE_PRIORS = {v.slug: v.home_topic for v in venues.KNOWN if v.home_topic}
NEUTRAL_TITLE = "Towards a Better Approach"  # no cue of any topic


def tags(title: str, abstract: str = "", keywords: tuple[str, ...] = (), primary_area: str = "",
         conference: str = "") -> list[str]:
    return derive_topics(title, abstract, list(keywords), primary_area, conference)


# (title, abstract, expected topic). Titles are real or realistic; abstracts only where the
# title alone would be ambiguous. No venue, so the text alone must carry the topic.
CASES = [
    ("Deep Residual Learning for Image Recognition", "", "computer-vision"),
    ("Fully Convolutional Networks for Semantic Segmentation", "", "computer-vision"),
    ("Simple Online and Realtime Multi-Object Tracking", "", "computer-vision"),
    ("NeRF: Representing Scenes as Neural Radiance Fields for View Synthesis", "",
     "3d-vision-graphics"),
    ("PointNet: Deep Learning on Point Sets for 3D Classification and Segmentation", "",
     "3d-vision-graphics"),
    ("Real-Time Cloth Animation with Position-Based Dynamics", "", "3d-vision-graphics"),
    ("Neural Machine Translation by Jointly Learning to Align and Translate", "",
     "natural-language-processing"),
    ("BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding", "",
     "natural-language-processing"),
    ("Chain-of-Thought Prompting Elicits Reasoning in Large Language Models", "",
     "large-language-models"),
    ("Deep Speech 2: End-to-End Speech Recognition in English and Mandarin", "", "speech-audio"),
    ("Music Source Separation in the Waveform Domain", "", "speech-audio"),
    ("VQA: Visual Question Answering", "", "multimodal-learning"),
    ("Show, Attend and Tell: Neural Image Caption Generation with Visual Attention", "",
     "multimodal-learning"),
    ("Denoising Diffusion Probabilistic Models", "", "generative-models"),
    ("Unpaired Image-to-Image Translation using Cycle-Consistent Adversarial Networks", "",
     "generative-models"),
    ("Playing Atari with Deep Reinforcement Learning", "", "reinforcement-learning"),
    ("Proximal Policy Optimization Algorithms", "", "reinforcement-learning"),
    ("Learning Agile Locomotion for Quadruped Robots", "", "robotics"),
    ("Visual-Inertial Odometry for Micro Aerial Vehicles", "", "robotics"),
    ("Sample Complexity Bounds for PAC Learning of Halfspaces", "", "learning-theory"),
    ("Adam: A Method for Stochastic Optimization", "", "optimization"),
    ("Gaussian Processes for Machine Learning", "", "probabilistic-methods"),
    ("Stochastic Variational Inference", "", "probabilistic-methods"),
    ("Semi-Supervised Classification with Graph Convolutional Networks", "", "graph-learning"),
    ("Attention Is All You Need",
     "We propose the Transformer, a network architecture based solely on attention "
     "mechanisms, dispensing with recurrence and convolutions entirely.",
     "deep-learning-architectures"),
    ("Long Short-Term Memory Networks for Sequence Modelling", "", "deep-learning-architectures"),
    ("A Simple Framework for Contrastive Learning of Visual Representations", "",
     "representation-learning"),
    ("Model-Agnostic Meta-Learning for Fast Adaptation of Deep Networks", "",
     "transfer-meta-continual-learning"),
    ("Overcoming Catastrophic Forgetting in Neural Networks", "",
     "transfer-meta-continual-learning"),
    ("Fairness Through Awareness", "", "trustworthy-ml"),
    ("Deep Learning with Differential Privacy", "", "trustworthy-ml"),
    ("Explaining and Harnessing Adversarial Examples", "", "adversarial-robustness"),
    ("BadNets: Identifying Vulnerabilities via Backdoor Attacks on Neural Networks", "",
     "adversarial-robustness"),
    ("A Unified Approach to Interpreting Model Predictions",
     "We present SHAP (SHapley Additive exPlanations), a unified framework for explanations.",
     "interpretability"),
    ("Approval-Based Committee Voting under Incomplete Information", "",
     "multi-agent-game-theory"),
    ("Computing Nash Equilibria in Large Extensive-Form Games", "", "multi-agent-game-theory"),
    ("Answer Set Programming for Classical Planning", "", "knowledge-reasoning-planning"),
    ("Reasoning about Actions in Description Logics", "", "knowledge-reasoning-planning"),
    ("Estimating Heterogeneous Treatment Effects with Causal Forests", "", "causal-inference"),
    ("Temporal Fusion Transformers for Multi-horizon Time Series Forecasting", "",
     "time-series"),
    ("Neural Collaborative Filtering for Recommender Systems", "",
     "information-retrieval-recommendation"),
    ("Dense Passage Retrieval for Open-Domain Question Answering", "",
     "information-retrieval-recommendation"),
    ("Highly Accurate Protein Structure Prediction", "", "ai-for-science-health"),
    ("Deep Learning for Chest X-ray Diagnosis of Pneumonia in Patients", "",
     "ai-for-science-health"),
    ("Spike-Timing Dependent Plasticity in Cortical Neurons", "",
     "neuroscience-cognitive-science"),
    ("Deep Compression: Pruning, Trained Quantization and Huffman Coding", "",
     "efficient-ml-systems"),
    ("Frequent Itemset Mining on Large Transaction Databases", "", "data-mining"),
    ("Outlier Detection in Social Networks", "", "data-mining"),
    ("A User Study of Human-AI Collaboration in Decision Making", "", "human-ai-interaction"),
    ("Multiple Kernel Learning for Support Vector Machines", "", "machine-learning"),
    ("Active Learning with Noisy Labels", "", "machine-learning"),
]


def test_cases_cover_every_topic() -> None:
    assert {expected for _, _, expected in CASES} == SLUGS


@pytest.mark.parametrize(("title", "abstract", "expected"), CASES,
                         ids=[c[0][:40] for c in CASES])
def test_representative_paper_gets_its_topic(title: str, abstract: str, expected: str) -> None:
    assert expected in tags(title, abstract)


@pytest.mark.parametrize(("title", "expected"), [
    ("Playing Atari with Deep Reinforcement Learning", "reinforcement-learning"),
    ("Denoising Diffusion Probabilistic Models", "generative-models"),
    ("Adam: A Method for Stochastic Optimization", "optimization"),
    ("Frequent Itemset Mining on Large Transaction Databases", "data-mining"),
    ("Fairness Through Awareness", "trustworthy-ml"),
])
def test_clear_titles_put_their_topic_first(title: str, expected: str) -> None:
    assert tags(title)[0] == expected


# -- output contract ----------------------------------------------------------------------

MESSY = [
    ("", "", (), "", ""),
    ("   ", "\n\t", ("", " "), " ", " "),
    ("!!!", "???", (";",), "[]", "@@@"),
    ("A" * 5000, "b " * 20000, ("c",) * 50, "d", "e"),
    ("Ünïcödé Tïtle — naïve café", "日本語のアブストラクト", ("ключевое слово",), "", "icml"),
    ("Robots, Images, Speech, Graphs, Proteins, Auctions, Privacy and Causality", "", (), "", ""),
]


@pytest.mark.parametrize("record", MESSY, ids=range(len(MESSY)))
def test_result_is_nonempty_short_known_and_unique(record: tuple) -> None:
    title, abstract, keywords, primary_area, conference = record
    result = derive_topics(title, abstract, list(keywords), primary_area, conference)
    assert 1 <= len(result) <= 3
    assert set(result) <= SLUGS
    assert len(set(result)) == len(result)


@settings(max_examples=300, deadline=None)
@given(title=st.text(max_size=200), abstract=st.text(max_size=600),
       keywords=st.lists(st.text(max_size=40), max_size=5), primary_area=st.text(max_size=40),
       conference=st.sampled_from(["", "icra", "cvpr", "nips", "acl", "unknown-venue"]))
def test_contract_holds_for_any_text(title, abstract, keywords, primary_area, conference) -> None:
    result = derive_topics(title, abstract, keywords, primary_area, conference)
    assert 1 <= len(result) <= 3
    assert set(result) <= SLUGS
    assert len(set(result)) == len(result)


def test_many_topics_in_one_title_are_capped_at_three_best_first() -> None:
    title = "Robots, Images, Speech, Graphs, Proteins, Auctions, Privacy and Causality"
    derivation = explain(title, "", [], "", "")
    assert len(derivation.topics) == 3
    scores = dict(derivation.scores)
    assert len([s for s in scores.values() if s >= topics.THRESHOLD]) > 3
    kept = [scores[t] for t in derivation.topics]
    assert kept == sorted(kept, reverse=True)
    assert min(kept) >= max(s for t, s in scores.items() if t not in derivation.topics)


def test_empty_record_gets_the_fallback() -> None:
    assert tags("") == [FALLBACK]
    assert explain("", "", [], "", "").source == "fallback"


def test_text_without_any_cue_gets_the_fallback() -> None:
    assert tags(NEUTRAL_TITLE, "We study this question and report results.") == [FALLBACK]


# -- venue prior ---------------------------------------------------------------------------

@pytest.mark.parametrize(("conference", "expected"), [
    ("icra", "robotics"), ("iros", "robotics"), ("rss", "robotics"), ("corl", "robotics"),
    ("cvpr", "computer-vision"), ("iccv", "computer-vision"), ("eccv", "computer-vision"),
    ("wacv", "computer-vision"), ("acl", "natural-language-processing"),
    ("naacl", "natural-language-processing"), ("emnlp", "natural-language-processing"),
    ("coling", "natural-language-processing"), ("siggraph", "3d-vision-graphics"),
    ("siggraphasia", "3d-vision-graphics"), ("3dv", "3d-vision-graphics"),
    ("colt", "learning-theory"), ("alt", "learning-theory"), ("acmmm", "multimodal-learning"),
])
def test_venue_prior_decides_when_the_text_is_silent(conference: str, expected: str) -> None:
    assert tags(NEUTRAL_TITLE, conference=conference) == [expected]
    assert explain(NEUTRAL_TITLE, "", [], "", conference).source == "prior"


@pytest.mark.parametrize("conference", ["ICRA", "icra2023", "Icra-2021", " icra "])
def test_venue_prior_accepts_case_and_year_variants(conference: str) -> None:
    assert venue_prior(conference) == "robotics"


def test_general_venues_have_no_prior() -> None:
    for conference in ("nips", "neurips", "icml", "iclr", "aaai", "ijcai", "aistats"):
        assert venue_prior(conference) is None
        assert tags(NEUTRAL_TITLE, conference=conference) == [FALLBACK]


def test_unknown_venue_behaves_like_no_venue() -> None:
    for title in (NEUTRAL_TITLE, "Playing Atari with Deep Reinforcement Learning", ""):
        assert tags(title, conference="some-new-workshop") == tags(title)


def test_strong_text_evidence_overrides_the_venue() -> None:
    result = tags("Deep Speech: End-to-End Speech Recognition", conference="cvpr")
    assert result[0] == "speech-audio"
    assert "computer-vision" not in result


def test_weak_text_evidence_is_completed_by_the_venue() -> None:
    # "images" alone is weak evidence: the venue's area joins it.
    derivation = explain("Learning from Images", "", [], "", "icra")
    assert derivation.source in ("text+prior", "prior")
    assert "robotics" in derivation.topics
    assert "robotics" not in tags("Learning from Images")


def test_every_prior_and_cue_table_names_a_taxonomy_topic() -> None:
    assert set(VENUE_PRIORS.values()) <= SLUGS
    assert set(CUES) == SLUGS


# -- keywords and primary area ---------------------------------------------------------------

def test_keywords_supply_a_topic_the_title_lacks() -> None:
    assert tags(NEUTRAL_TITLE) == [FALLBACK]
    assert tags(NEUTRAL_TITLE, keywords=("reinforcement learning", "sim-to-real"))[0] == (
        "reinforcement-learning")


@pytest.mark.parametrize(("primary_area", "expected"), [
    ("Computer Vision II", "computer-vision"),
    ("[Content] Vision and Language", "multimodal-learning"),
    ("reinforcement_learning", "reinforcement-learning"),
    ("Knowledge Representation and Reasoning", "knowledge-reasoning-planning"),
    ("Game Theory and Economic Paradigms", "multi-agent-game-theory"),
    ("Natural Language Processing", "natural-language-processing"),
])
def test_primary_area_supplies_the_topic(primary_area: str, expected: str) -> None:
    assert tags(NEUTRAL_TITLE, primary_area=primary_area)[0] == expected


def test_labels_outweigh_a_passing_abstract_mention() -> None:
    abstract = "Our method could also be applied to images."
    assert tags(NEUTRAL_TITLE, abstract, keywords=("natural language processing",))[0] == (
        "natural-language-processing")


def test_cues_do_not_span_two_keywords() -> None:
    # keywords "vision" and "language" must not be read as the cue "vision language".
    assert "multimodal-learning" in tags(NEUTRAL_TITLE, keywords=("vision language",))
    assert "multimodal-learning" not in tags(NEUTRAL_TITLE, keywords=("vision", "language"))


# -- matching --------------------------------------------------------------------------------

def test_matching_ignores_case_and_punctuation() -> None:
    base = tags("Multi-Agent Reinforcement Learning")
    assert tags("MULTI-AGENT REINFORCEMENT LEARNING") == base
    assert tags("multi agent reinforcement-learning") == base
    assert tags("Multiagent Reinforcement Learning") == base
    assert {"multi-agent-game-theory", "reinforcement-learning"} <= set(base)


@pytest.mark.parametrize(("title", "absent"), [
    ("Morgan and the Organ of the Inner World", "generative-models"),  # gan, organ
    ("A Study of the Inner World", "reinforcement-learning"),  # rl inside "world"
    ("Corner Cases of Dinner Planning Manners", "natural-language-processing"),  # ner
    ("Grasshopper Population Counts", "robotics"),  # grasp*
])
def test_cues_match_whole_words_only(title: str, absent: str) -> None:
    assert absent not in tags(title, title)


def test_prefix_cue_matches_word_continuations() -> None:
    for word in ("Robot", "Robots", "Robotic", "Robotics"):
        assert "robotics" in tags(f"{word} Learning in the Kitchen")


def test_longest_cue_wins() -> None:
    result = tags("Generative Adversarial Networks")
    assert result[0] == "generative-models"
    assert "adversarial-robustness" not in result


def test_neutral_phrases_are_not_cues() -> None:
    # "causal*" is a cue, but a causal attention mask is not causal inference.
    assert "causal-inference" in tags(NEUTRAL_TITLE, "We study causal effects.")
    abstract = ("Our model-agnostic decoder uses causal attention masks and obtains "
                "state-of-the-art results on real-world data.")
    assert tags(NEUTRAL_TITLE, abstract) == [FALLBACK]


# -- determinism and speed -----------------------------------------------------------------

def test_derivation_is_deterministic_and_keyword_order_free() -> None:
    record = ("Graph Neural Networks for Traffic Forecasting",
              "We model road networks with graph convolutions.",
              ["spatio-temporal", "graph neural network"], "Data Mining", "kdd")
    first = derive_topics(*record)
    topics._matcher.cache_clear()  # a fresh build of the regex gives the same answer
    assert derive_topics(*record) == first
    title, abstract, keywords, area, conference = record
    assert derive_topics(title, abstract, keywords[::-1], area, conference) == first


def test_fast_enough_for_bulk_ingest() -> None:
    abstract = ("We propose a novel deep reinforcement learning method for robotic manipulation "
                "from images, with a transformer policy and a probabilistic world model. ") * 8
    derive_topics("warm up", abstract, [], "", "icra")
    started = time.perf_counter()
    for i in range(500):
        derive_topics(f"Learning to Grasp Objects {i}", abstract, ["manipulation"], "", "icra")
    per_record = (time.perf_counter() - started) / 500
    assert per_record < 0.005  # the report measures ~0.1 ms; this only catches a blow-up


# -- taxonomy ------------------------------------------------------------------------------

def test_taxonomy_slugs_are_unique_lowercase_and_documented() -> None:
    slugs = [t.slug for t in TOPICS]
    assert len(slugs) == len(set(slugs))
    assert 25 <= len(slugs) <= 31
    assert all(re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", s) for s in slugs)
    assert all(t.label and t.description for t in TOPICS)
    assert slugs[-1] == FALLBACK


def test_taxonomy_lookup_and_label() -> None:
    assert taxonomy.lookup("robotics").label == "Robotics & Autonomous Systems"
    assert taxonomy.lookup("no-such-topic") is None
    assert taxonomy.label("computer-vision") == "Computer Vision"
    assert taxonomy.label("old-topic-slug") == "Old Topic Slug"
