"""The fixed topic taxonomy every paper is tagged with: slugs, labels and what each covers.

Data only: the indexer (``services.indexer.topics``) assigns these slugs and the web UI
shows their labels. A slug, once published, is part of the index and of URLs, so it is
never renamed; retire one by re-indexing. Order is display order: areas first, the
general ``machine-learning`` fallback last. See docs/topics.md for the derivation method.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Topic:
    slug: str
    label: str
    description: str


TOPICS: tuple[Topic, ...] = (
    Topic("computer-vision", "Computer Vision",
          "Image and video understanding: recognition, detection, segmentation, tracking, "
          "pose, faces, low-level vision (restoration, super-resolution), remote sensing."),
    Topic("3d-vision-graphics", "3D Vision & Graphics",
          "3D reconstruction, point clouds, neural radiance fields and splatting, meshes and "
          "geometry processing, rendering, animation, simulation for graphics, fabrication."),
    Topic("natural-language-processing", "Natural Language Processing",
          "Text and language: parsing, translation, information extraction, question answering, "
          "summarization, dialogue, sentiment, multilingual and low-resource NLP."),
    Topic("large-language-models", "Large Language Models",
          "LLMs and foundation models: prompting, in-context learning, instruction tuning, "
          "alignment and RLHF, LLM reasoning, agents, hallucination, retrieval augmentation."),
    Topic("speech-audio", "Speech & Audio",
          "Speech recognition and synthesis, speaker and voice, audio events, music, acoustics."),
    Topic("multimodal-learning", "Multimodal Learning",
          "Joint vision-language, audio-visual and other cross-modal models: captioning, VQA, "
          "grounding, cross-modal retrieval, multimodal fusion, vision-language models."),
    Topic("generative-models", "Generative Models",
          "GANs, VAEs, diffusion and flow models, autoregressive generation; image, video and "
          "content synthesis and editing."),
    Topic("reinforcement-learning", "Reinforcement Learning & Bandits",
          "Sequential decision making: RL (model-free, model-based, offline), MDPs, policy and "
          "value methods, imitation learning, bandits."),
    Topic("robotics", "Robotics & Autonomous Systems",
          "Robots and vehicles: manipulation, grasping, locomotion, aerial and underwater "
          "robots, SLAM and localization, motion planning, control, autonomous driving, "
          "medical robots, human-robot interaction."),
    Topic("learning-theory", "Learning Theory",
          "Statistical and computational learning theory: PAC learning, sample complexity, "
          "generalization bounds, online learning and regret, minimax rates."),
    Topic("optimization", "Optimization",
          "Continuous, stochastic and combinatorial optimization: convex and non-convex "
          "methods, SGD and its variants, bilevel and black-box optimization, evolutionary "
          "search, integer programming."),
    Topic("probabilistic-methods", "Probabilistic Methods",
          "Bayesian inference, variational methods, MCMC, Gaussian processes, graphical models, "
          "latent variable models, uncertainty quantification."),
    Topic("graph-learning", "Graph Learning",
          "Graph neural networks, node and graph representation learning, link prediction, "
          "learning on networks and knowledge-graph embeddings."),
    Topic("deep-learning-architectures", "Deep Learning Architectures",
          "Neural network design and training dynamics: transformers, attention, CNNs, RNNs, "
          "normalization, mixture-of-experts, state-space models, architecture search."),
    Topic("representation-learning", "Representation Learning",
          "Learning features and embeddings: self-supervised and contrastive learning, metric "
          "learning, autoencoders, disentanglement, pre-training."),
    Topic("transfer-meta-continual-learning", "Transfer, Meta & Continual Learning",
          "Learning that carries across tasks and domains: transfer learning, domain adaptation "
          "and generalization, few/zero-shot, meta-learning, multi-task and continual learning."),
    Topic("trustworthy-ml", "Trustworthy ML: Fairness, Privacy & Safety",
          "Fairness and bias, differential privacy, federated learning, unlearning, AI safety, "
          "ethics and societal impact, watermarking."),
    Topic("adversarial-robustness", "Adversarial Robustness & Security",
          "Adversarial examples and attacks, defenses and certified robustness, backdoors and "
          "data poisoning."),
    Topic("interpretability", "Interpretability & Explainability",
          "Explaining models and predictions: attribution, saliency, concept-based and "
          "counterfactual explanations, mechanistic interpretability."),
    Topic("multi-agent-game-theory", "Multi-Agent Systems & Game Theory",
          "Multi-agent systems and learning, game theory and equilibria, mechanism design, "
          "auctions, social choice and voting, fair division, economics and computation."),
    Topic("knowledge-reasoning-planning", "Knowledge, Reasoning & Planning",
          "Knowledge representation, logic, ontologies and knowledge graphs, automated "
          "planning and scheduling, SAT and constraint satisfaction, heuristic search, "
          "argumentation, neuro-symbolic methods, program synthesis."),
    Topic("causal-inference", "Causal Inference",
          "Causal discovery and structure learning, treatment effects, counterfactuals, "
          "instrumental variables, confounding."),
    Topic("time-series", "Time Series & Forecasting",
          "Forecasting, temporal and spatio-temporal data, sequential signals, data streams, "
          "time-series anomaly detection."),
    Topic("information-retrieval-recommendation", "Information Retrieval & Recommendation",
          "Search and ranking, retrieval models, hashing, recommender systems, collaborative "
          "filtering, click-through prediction."),
    Topic("ai-for-science-health", "AI for Science & Health",
          "Medical imaging and clinical data, biology, proteins and molecules, drug discovery, "
          "chemistry, physics, materials, climate and earth sciences."),
    Topic("neuroscience-cognitive-science", "Neuroscience & Cognitive Science",
          "Models of brains and minds: neural coding, spiking networks, cortex, brain signals "
          "(fMRI, EEG), brain-computer interfaces, cognitive and psychological models."),
    Topic("efficient-ml-systems", "Efficient ML, AutoML & Systems",
          "Making ML cheaper and deployable: compression, pruning, quantization, distillation, "
          "hardware and distributed training, on-device ML, hyperparameter optimization and "
          "AutoML."),
    Topic("data-mining", "Data Mining",
          "Knowledge discovery in data: pattern and rule mining, clustering, anomaly and "
          "outlier detection, social and web data, tabular and urban data, crowdsourcing."),
    Topic("human-ai-interaction", "Human-AI Interaction",
          "People and AI systems together: user studies, human-in-the-loop and interactive "
          "learning, HCI, AR/VR interfaces, affective computing, personalization."),
    Topic("machine-learning", "Machine Learning (General)",
          "General and classical machine learning: supervised, semi-supervised and active "
          "learning, kernels, ensembles, multi-label learning, noisy labels; also the fallback "
          "for papers with no more specific signal."),
)

FALLBACK = "machine-learning"

_BY_SLUG = {t.slug: t for t in TOPICS}


def lookup(slug: str) -> Topic | None:
    return _BY_SLUG.get(slug)


def label(slug: str) -> str:
    """The display label; an unknown slug (e.g. from an older index) is shown title-cased."""
    topic = _BY_SLUG.get(slug)
    return topic.label if topic else slug.replace("-", " ").title()
