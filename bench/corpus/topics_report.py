"""How derive_topics behaves on the real corpus: distribution, fallbacks, speed, agreement.

Agreement: some records carry a curated primary area or keywords ("Computer Vision",
"Machine Learning: Reinforcement Learning", "rendering"). LABEL_TOPICS below maps the
common, unambiguous ones to taxonomy topics; derive_topics is then run on the same
records with title and abstract ONLY (no keywords, no primary area, no venue) and we
count how often it finds the labelled topic. Broad labels ("Machine Learning",
"Multidisciplinary Topics and Applications") are deliberately left unmapped.

Usage: python -m bench.corpus.topics_report [--corpus DIR] [--limit N] [--show SLUG] [--misses SLUG]
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from bench.harness import REPO
from services.indexer.cleaning.text import clean_text
from services.indexer.paper.topics import derive_topics, explain, venue_prior
from services.indexer.sources import Rejected, open_sources
from services.search.catalogue.taxonomy import FALLBACK, TOPICS

# Normalized label (lowercase words; for "Area: abbr: subarea" keywords each part is
# looked up) -> topics it clearly belongs to. A venue area that our taxonomy splits maps
# to the split set, and naming any of them counts as agreement: IJCAI's "Computer Vision"
# includes 3D vision, its "Data Mining" lists graph mining, recommender systems and
# spatio-temporal data as subareas, "AI Ethics, Trust, Fairness" lists explainability and
# robustness, "Humans and AI" lists cognitive modelling.
LABEL_TOPICS: dict[str, tuple[str, ...]] = {
    # primary areas (IJCAI, AAAI, ACM MM) and the matching IJCAI keyword areas
    "computer vision": ("computer-vision", "3d-vision-graphics"),
    "natural language processing": ("natural-language-processing",),
    "speech and natural language processing": ("natural-language-processing", "speech-audio"),
    "agent based and multi agent systems": ("multi-agent-game-theory",),
    "multiagent systems": ("multi-agent-game-theory",),
    "game theory and economic paradigms": ("multi-agent-game-theory",),
    "knowledge representation and reasoning": ("knowledge-reasoning-planning",),
    "planning and scheduling": ("knowledge-reasoning-planning",),
    "planning routing and scheduling": ("knowledge-reasoning-planning",),
    "heuristic search and game playing": ("knowledge-reasoning-planning",),
    "constraints and sat": ("knowledge-reasoning-planning",),
    "constraint satisfaction and optimization": ("knowledge-reasoning-planning", "optimization"),
    "search and optimization": ("knowledge-reasoning-planning", "optimization"),
    "search": ("knowledge-reasoning-planning",),
    "data mining": ("data-mining", "graph-learning", "information-retrieval-recommendation",
                    "time-series"),
    "data mining and knowledge management": ("data-mining", "information-retrieval-recommendation"),
    "ai ethics trust fairness": ("trustworthy-ml", "interpretability", "adversarial-robustness"),
    "ai ethics": ("trustworthy-ml",),
    "philosophy and ethics of ai": ("trustworthy-ml",),
    "humans and ai": ("human-ai-interaction", "neuroscience-cognitive-science"),
    "uncertainty in ai": ("probabilistic-methods",),
    "reasoning under uncertainty": ("probabilistic-methods",),
    "robotics": ("robotics",),
    "intelligent robotics": ("robotics",),
    "cognitive modeling cognitive systems": ("neuroscience-cognitive-science",),
    "content vision and language": ("multimodal-learning",),
    "content multimodal fusion": ("multimodal-learning",),
    "generation generative multimedia": ("generative-models",),
    "generation multimedia foundation models": ("multimodal-learning", "large-language-models"),
    "generation social aspects of generative ai": ("trustworthy-ml", "generative-models"),
    "engagement multimedia search and recommendation": ("information-retrieval-recommendation",),
    "engagement emotional and social signals": ("human-ai-interaction",),
    "experience interactions and quality of experience": ("human-ai-interaction",),
    # ICLR-style primary areas (snake_case in newer OpenReview exports)
    "reinforcement learning": ("reinforcement-learning",),
    "generative models": ("generative-models",),
    "learning theory": ("learning-theory",),
    "optimization": ("optimization",),
    "causal reasoning": ("causal-inference",),
    "probabilistic methods": ("probabilistic-methods",),
    "learning on graphs and other geometries topologies": ("graph-learning",),
    "alignment fairness safety privacy and societal considerations": ("trustworthy-ml",),
    "interpretability and explainable ai": ("interpretability",),
    "applications to robotics autonomy planning": ("robotics",),
    "learning on time series and dynamical systems": ("time-series",),
    "transfer learning meta learning and lifelong learning": (
        "transfer-meta-continual-learning",),
    "infrastructure software libraries hardware systems etc": ("efficient-ml-systems",),
    "applications to neuroscience cognitive science": ("neuroscience-cognitive-science",),
    "applications to physical sciences physics chemistry biology etc": (
        "ai-for-science-health",),
    # common keywords and IJCAI keyword subareas
    "deep reinforcement learning": ("reinforcement-learning",),
    "offline reinforcement learning": ("reinforcement-learning",),
    "imitation learning": ("reinforcement-learning",),
    "multi agent reinforcement learning": ("reinforcement-learning", "multi-agent-game-theory"),
    "bandits": ("reinforcement-learning",),
    "large language models": ("large-language-models",),
    "large language model": ("large-language-models",),
    "llm": ("large-language-models",),
    "llms": ("large-language-models",),
    "generative model": ("generative-models",),
    "diffusion models": ("generative-models",),
    "diffusion model": ("generative-models",),
    "gan": ("generative-models",),
    "gans": ("generative-models",),
    "generative adversarial networks": ("generative-models",),
    "variational autoencoder": ("generative-models",),
    "learning generative models": ("generative-models",),
    "neural generative models auto encoders gans": ("generative-models",),
    "image and video synthesis and generation": ("generative-models",),
    "graph neural networks": ("graph-learning",),
    "graph neural network": ("graph-learning",),
    "mining graphs": ("graph-learning",),
    "mining graphs semi structured data complex data": ("graph-learning",),
    "sequence and graph learning": ("graph-learning",),
    "representation learning": ("representation-learning",),
    "self supervised learning": ("representation-learning",),
    "contrastive learning": ("representation-learning",),
    "transfer learning": ("transfer-meta-continual-learning",),
    "domain adaptation": ("transfer-meta-continual-learning",),
    "meta learning": ("transfer-meta-continual-learning",),
    "continual learning": ("transfer-meta-continual-learning",),
    "few shot learning": ("transfer-meta-continual-learning",),
    "multi task learning": ("transfer-meta-continual-learning",),
    "transfer adaptation multi task learning": ("transfer-meta-continual-learning",),
    "multi task and transfer learning": ("transfer-meta-continual-learning",),
    "transfer low shot semi and un supervised learning": ("transfer-meta-continual-learning",),
    "federated learning": ("trustworthy-ml",),
    "fairness": ("trustworthy-ml",),
    "fairness and diversity": ("trustworthy-ml",),
    "differential privacy": ("trustworthy-ml",),
    "privacy": ("trustworthy-ml",),
    "security and privacy": ("trustworthy-ml",),
    "trustworthy ai": ("trustworthy-ml",),
    "trustworthy machine learning": ("trustworthy-ml",),
    "adversarial examples": ("adversarial-robustness",),
    "adversarial robustness": ("adversarial-robustness",),
    "adversarial machine learning": ("adversarial-robustness",),
    "adversarial learning adversarial attack and defense methods": ("adversarial-robustness",),
    "interpretability": ("interpretability",),
    "explainability": ("interpretability",),
    "explainable ai": ("interpretability",),
    "explainable interpretable machine learning": ("interpretability",),
    "explainability and interpretability": ("interpretability",),
    "game theory": ("multi-agent-game-theory",),
    "algorithmic game theory": ("multi-agent-game-theory",),
    "computational social choice": ("multi-agent-game-theory",),
    "mechanism design": ("multi-agent-game-theory",),
    "multi agent learning": ("multi-agent-game-theory",),
    "noncooperative games": ("multi-agent-game-theory",),
    "cooperative games": ("multi-agent-game-theory",),
    "voting": ("multi-agent-game-theory",),
    "fair division": ("multi-agent-game-theory",),
    "economic paradigms auctions and market based systems": ("multi-agent-game-theory",),
    "auctions and market based systems": ("multi-agent-game-theory",),
    "causal inference": ("causal-inference",),
    "causality": ("causal-inference",),
    "causality structural causal models and causal inference": ("causal-inference",),
    "time series": ("time-series",),
    "time series and data streams": ("time-series",),
    "forecasting": ("time-series",),
    "recommender systems": ("information-retrieval-recommendation",),
    "information retrieval": ("information-retrieval-recommendation",),
    "image and video retrieval": ("information-retrieval-recommendation", "computer-vision"),
    "rendering": ("3d-vision-graphics",),
    "animation": ("3d-vision-graphics",),
    "geometry": ("3d-vision-graphics",),
    "3d reconstruction": ("3d-vision-graphics",),
    "point cloud": ("3d-vision-graphics",),
    "point clouds": ("3d-vision-graphics",),
    "3d computer vision": ("3d-vision-graphics", "computer-vision"),
    "gaussian splatting": ("3d-vision-graphics",),
    "neural rendering": ("3d-vision-graphics",),
    "speech": ("speech-audio",),
    "manipulation": ("robotics",),
    "robot learning": ("robotics",),
    "robotic manipulation": ("robotics",),
    "robot manipulation": ("robotics",),
    "dexterous manipulation": ("robotics",),
    "mobile manipulation": ("robotics",),
    "locomotion": ("robotics",),
    "legged locomotion": ("robotics",),
    "navigation": ("robotics",),
    "autonomous driving": ("robotics",),
    "grasping": ("robotics",),
    "learning in robotics": ("robotics",),
    "bayesian inference": ("probabilistic-methods",),
    "variational inference": ("probabilistic-methods",),
    "gaussian processes": ("probabilistic-methods",),
    "probabilistic machine learning": ("probabilistic-methods",),
    "graphical models": ("probabilistic-methods",),
    "learning graphical models": ("probabilistic-methods",),
    "bayesian networks": ("probabilistic-methods",),
    "transformers": ("deep-learning-architectures",),
    "attention models": ("deep-learning-architectures",),
    "deep learning architectures": ("deep-learning-architectures",),
    "convolutional networks": ("deep-learning-architectures",),
    "recurrent neural networks": ("deep-learning-architectures",),
    "model compression": ("efficient-ml-systems",),
    "quantization": ("efficient-ml-systems",),
    "pruning": ("efficient-ml-systems",),
    "knowledge distillation": ("efficient-ml-systems",),
    "automl": ("efficient-ml-systems",),
    "neural architecture search": ("efficient-ml-systems", "deep-learning-architectures"),
    "clustering": ("data-mining", "machine-learning"),
    "anomaly outlier detection": ("data-mining",),
    "human computer interaction": ("human-ai-interaction",),
    "human ai collaboration": ("human-ai-interaction",),
    "human robot interaction": ("human-ai-interaction", "robotics"),
    "personalization and user modeling": ("human-ai-interaction",),
    "multi modal learning": ("multimodal-learning",),
    "multimodal learning": ("multimodal-learning",),
    "vision and language": ("multimodal-learning",),
    "language and vision": ("multimodal-learning",),
    "bio medicine": ("ai-for-science-health",),
    "health and medicine": ("ai-for-science-health",),
    "biology and medicine": ("ai-for-science-health",),
    "biomedical image analysis": ("ai-for-science-health", "computer-vision"),
    "semi supervised learning": ("machine-learning",),
    "active learning": ("machine-learning",),
    "weakly supervised learning": ("machine-learning",),
    "multi label": ("machine-learning",),
    "classification": ("machine-learning",),
    "online learning": ("learning-theory",),
    "planning": ("knowledge-reasoning-planning",),
    "planning algorithms": ("knowledge-reasoning-planning",),
    "knowledge graphs and knowledge base completion": ("knowledge-reasoning-planning",),
    "description logics and ontologies": ("knowledge-reasoning-planning",),
    "logics for knowledge representation": ("knowledge-reasoning-planning",),
    "argumentation": ("knowledge-reasoning-planning",),
    "constraint satisfaction": ("knowledge-reasoning-planning",),
    "satisfiabilty": ("knowledge-reasoning-planning",),
    "heuristic search": ("knowledge-reasoning-planning",),
}
_NORM = re.compile(r"[^a-z0-9]+")
_ROMAN = re.compile(r"\s+(i|ii|iii|iv)$")


def _norm(text: str) -> str:
    return _ROMAN.sub("", " ".join(_NORM.sub(" ", text.lower()).split()))


def label_topics(primary_area: str, keywords: list[str]) -> set[str]:
    """Topics the curated labels clearly point to; empty when none is mapped."""
    found: set[str] = set()
    for label in (primary_area, *keywords):
        for part in (label, *label.split(":")):
            found.update(LABEL_TOPICS.get(_norm(part), ()))
    return found


@dataclass(frozen=True)
class Record:
    conference: str
    title: str
    abstract: str
    keywords: list[str]
    primary_area: str


def load(corpus: Path) -> Iterator[Record]:
    """Every record of the corpus through the source readers (folder name as conference)."""
    for source in open_sources([str(corpus)]):
        read = source.read()
        for raw in read.records:
            try:
                row = source.reader.fields(raw.data)
            except Rejected:
                continue
            yield Record(Path(read.location).parent.name, str(row.key.title or ""), row.abstract,
                         [k for k in map(clean_text, row.keywords) if k], row.primary_area.strip())


def _pct(part: float, whole: float) -> str:
    return f"{100 * part / whole:5.1f}%" if whole else "   n/a"


def report(records: list[Record], show: str | None, misses: str | None) -> None:
    n = len(records)
    topics_of: list[list[str]] = []
    sources: Counter[str] = Counter()
    durations: list[int] = []
    for r in records:
        start = time.perf_counter_ns()
        topics = derive_topics(r.title, r.abstract, r.keywords, r.primary_area, r.conference)
        durations.append(time.perf_counter_ns() - start)
        topics_of.append(topics)
    for r in records:
        sources[explain(r.title, r.abstract, r.keywords, r.primary_area, r.conference).source] += 1

    any_count = Counter(t for ts in topics_of for t in ts)
    first_count = Counter(ts[0] for ts in topics_of)
    print(f"records: {n}   conferences: {len({r.conference for r in records})}")
    print(f"time per record: mean {statistics.fmean(durations) / 1000:.1f} us, "
          f"median {statistics.median(durations) / 1000:.1f} us, "
          f"p99 {sorted(durations)[int(0.99 * (n - 1))] / 1000:.1f} us "
          f"(first call includes the one-off regex build)")
    print(f"topics per paper: mean {statistics.fmean(map(len, topics_of)):.2f}   "
          + "  ".join(f"{k}: {_pct(v, n)}"
                      for k, v in sorted(Counter(map(len, topics_of)).items())))
    print(f"only the fallback ({FALLBACK}): {sources['fallback']} "
          f"({_pct(sources['fallback'], n).strip()})   only the venue prior: {sources['prior']} "
          f"({_pct(sources['prior'], n).strip()})   text plus venue prior: "
          f"{sources['text+prior']} ({_pct(sources['text+prior'], n).strip()})   "
          f"text alone: {sources['text']} ({_pct(sources['text'], n).strip()})")
    print(f"\n{'topic':38} {'papers':>7} {'% corpus':>9} {'as 1st':>7}")
    for t in TOPICS:
        print(f"{t.slug:38} {any_count[t.slug]:7d} {_pct(any_count[t.slug], n):>9} "
              f"{first_count[t.slug]:7d}")

    venues(records, topics_of)
    agreement(records)
    rng = random.Random(7)
    if show:
        picks = [r for r, ts in zip(records, topics_of, strict=True) if show in ts]
        print(f"\n--- sample of {show} ({len(picks)}) ---")
        for r in rng.sample(picks, min(40, len(picks))):
            ts = derive_topics(r.title, r.abstract, r.keywords, r.primary_area, r.conference)
            print(f"  [{r.conference}] {r.title[:110]}  -> {ts}")
    if misses:
        print(f"\n--- labelled {misses} but not found from title+abstract ---")
        picks = [r for r in records if misses in label_topics(r.primary_area, r.keywords)]
        picks = [r for r in picks if misses not in derive_topics(r.title, r.abstract, [], "", "")]
        for r in rng.sample(picks, min(40, len(picks))):
            print(f"  [{r.conference}] {r.title[:110]}  -> "
                  f"{derive_topics(r.title, r.abstract, [], '', '')}")


def venues(records: list[Record], topics_of: list[list[str]]) -> None:
    """Share of each venue with a home area that carries it, from text alone and in the end."""
    print(f"\n{'venue':13} {'papers':>6} {'home area':38} {'text only':>9} {'final':>6}")
    by_venue: dict[str, list[int]] = {}
    for i, r in enumerate(records):
        by_venue.setdefault(r.conference, []).append(i)
    for venue, rows in sorted(by_venue.items(), key=lambda kv: -len(kv[1])):
        home = venue_prior(venue)
        if not home:
            continue
        text = sum(home in derive_topics(records[i].title, records[i].abstract, records[i].keywords,
                                         records[i].primary_area, "") for i in rows)
        final = sum(home in topics_of[i] for i in rows)
        print(f"{venue:13} {len(rows):6d} {home:38} {_pct(text, len(rows)):>9} "
              f"{_pct(final, len(rows)):>6}")


def agreement(records: list[Record]) -> None:
    labelled = [(r, frozenset(label_topics(r.primary_area, r.keywords))) for r in records]
    labelled = [(r, e) for r, e in labelled if e]
    m = len(labelled)
    print(f"\nagreement with curated labels: {m} records have a primary area or keyword "
          f"mapped to topics; derive_topics sees title+abstract only")
    for venue in (False, True):
        hit = top1 = 0
        groups: dict[frozenset[str], list[int]] = {}
        predicted: Counter[str] = Counter()
        correct: Counter[str] = Counter()
        for r, expected in labelled:
            got = derive_topics(r.title, r.abstract, [], "", r.conference if venue else "")
            agree = bool(expected & set(got))
            hit += agree
            top1 += got[0] in expected
            group = groups.setdefault(expected, [0, 0])
            group[0] += 1
            group[1] += agree
            for t in got:
                predicted[t] += 1
                correct[t] += t in expected
        precision = sum(correct.values()) / max(1, sum(predicted.values()))
        print(f"\n{'with venue prior' if venue else 'text only (no venue)'}: "
              f"a labelled topic among the (up to 3) derived: {_pct(hit, m).strip()}   "
              f"derived first topic is a labelled one: {_pct(top1, m).strip()}   "
              f"derived topics that are labelled ones: {precision:.1%}")
        if venue:
            continue
        print(f"  {'labelled as':62} {'records':>7} {'agree':>6}")
        for expected, (count, agree) in sorted(groups.items(), key=lambda kv: -kv[1][0]):
            if count >= 30:
                print(f"  {' | '.join(sorted(expected))[:62]:62} {count:7d} "
                      f"{_pct(agree, count):>6}")
        print(f"  {'derived topic':38} {'derived':>7} {'labelled so':>11}")
        for t in TOPICS:
            if predicted[t.slug] >= 20:
                print(f"  {t.slug:38} {predicted[t.slug]:7d} "
                      f"{_pct(correct[t.slug], predicted[t.slug]):>11}")
    print("  ('labelled so' is a lower bound: papers carry up to 3 topics, labels usually "
          "name one area)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=REPO.parent / "shared/data/paperlists",
                        help="folder of <conf>/<conf><year>.json[.gz] (default: %(default)s)")
    parser.add_argument("--limit", type=int, default=0, help="random sample of N records")
    parser.add_argument("--show", metavar="SLUG", help="print sample papers given SLUG")
    parser.add_argument("--misses", metavar="SLUG",
                        help="print labelled SLUG papers that title+abstract do not tag SLUG")
    args = parser.parse_args(argv)
    records = list(load(args.corpus))
    if not records:
        print(f"no records under {args.corpus}", file=sys.stderr)
        return 1
    if args.limit:
        records = random.Random(1).sample(records, min(args.limit, len(records)))
    report(records, args.show, args.misses)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
