"""Derive 1-3 taxonomy topics for a paper from its text, labels and venue.

Why rules and not a model: the tags must be explainable ("this phrase in the title"),
reproducible across re-indexes, cheap enough for every record of an ingest, and free of
any training data we would have to ship. The taxonomy, its cue phrases and the venues'
home topics are data (``services/search/catalogue/topics.toml`` and ``venues.toml``);
this module is the matcher. docs/topics.md has the table and the measured figures.

Method
------
1. Every topic has a list of *cues*: lowercase phrases, *strong* (unambiguous for the
   topic, e.g. "semantic segmentation") or *weak* (suggestive, e.g. "image"). A trailing
   ``*`` matches any word continuation ("robot*" = robot, robots, robotic, ...). One
   phrase may be a cue of several topics ("visual question answering").
2. Text is lowercased and every run of non-alphanumerics becomes one space, so matching
   is on whole words and "multi-agent", "multi agent" and "Multi_Agent" are the same.
   All cues are compiled into one trie-shaped regular expression (lazily, once) and
   each field is scanned once; at a position the longest cue wins, so "generative
   adversarial network" is not also read as the robustness cue "adversarial". A few
   *neutral* phrases ("state of the art", "causal attention") are matched only to be
   ignored.
3. Score of a topic = sum over the *distinct* cues found in each field of
   cue weight (strong 3, weak 1) x field weight (title 2, keywords and primary area 2,
   abstract 1). Repeating a phrase in the abstract does not add up, and the abstract
   adds at most ``ABSTRACT_CAP`` to a topic, so a long abstract cannot drown the title.
4. A topic is kept when its score reaches ``THRESHOLD`` (one strong abstract cue or a
   weak title cue plus one more weak cue) and at least ``RELATIVE`` of the best score;
   at most ``MAX_TOPICS``, best first (ties broken by taxonomy order).
5. Venue prior: when the best text score is below ``CONFIDENT`` (no or weak evidence)
   and the venue has a home topic (ICRA -> robotics, ACL -> NLP, ...), that topic gets
   ``PRIOR_BONUS`` on top of its text score before step 4. With strong text evidence the
   venue is ignored, so a CVPR paper on speech stays speech.
6. Fallback: if nothing is kept, the paper gets ``machine-learning``. The result is
   never empty and only contains slugs of ``TOPICS``.

``explain`` returns the scores and which of text / prior / fallback decided, for the
report (bench/corpus/topics_report.py) and for debugging a surprising tag.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from services.search.catalogue import Topic, catalogue, venues

# The method's parameters stay code: they are tuned together with the scoring below and
# measured in docs/topics.md, while the vocabulary they weigh is data (catalogue/topics.toml).
STRONG = 3
WEAK = 1
TITLE_WEIGHT = 2
LABEL_WEIGHT = 2  # keywords and primary area: curated by authors or the venue
ABSTRACT_WEIGHT = 1
ABSTRACT_CAP = 9  # an abstract adds at most three strong cues' worth to a topic
THRESHOLD = 3
CONFIDENT = 6
RELATIVE = 0.4
PRIOR_BONUS = 3
MAX_TOPICS = 3


@dataclass(frozen=True)
class Derivation:
    """Why a paper got its topics: ``source`` is text, text+prior, prior or fallback."""

    topics: tuple[str, ...]
    scores: tuple[tuple[str, float], ...]
    source: str


_NON_WORD = re.compile(r"[^a-z0-9]+")
_YEAR_SUFFIX = re.compile(r"-?(19|20)\d\d$")
_CACHE_LIMIT = 200_000


def normalize(text: str) -> str:
    """Lowercase words separated by single spaces: the form cues and text are matched in."""
    return _NON_WORD.sub(" ", text.lower()).strip()


def _trie_regex(phrases: Iterable[str]) -> str:
    """One alternation shaped like a trie: the regex engine never re-tries a shared prefix,
    and at each branch longer continuations are tried before the phrase ends."""
    trie: dict = {}
    for phrase in phrases:
        node = trie
        for ch in phrase:
            node = node.setdefault(ch, {})
        node[""] = {}

    def emit(node: dict) -> str:
        alts = [re.escape(ch) + emit(child) for ch, child in sorted(node.items())
                if ch not in ("", "*")]
        if "*" in node:
            alts.append("[a-z0-9]*")
        if "" in node:
            alts.append("")
        return alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"

    return emit(trie)


class _Matcher:
    """The compiled cue table: one regex for all cues, and the topic weights of a match."""

    def __init__(self, topics: Sequence[Topic], neutral: Sequence[str]) -> None:
        # Phrases are validated by the catalogue to be in normalize()d form (+ optional "*").
        self.order = {t.slug: i for i, t in enumerate(topics)}
        exact: dict[str, dict[str, int]] = {}
        stems: dict[str, dict[str, int]] = {}
        for topic in topics:
            for phrases, weight in ((topic.strong, STRONG), (topic.weak, WEAK)):
                for phrase in phrases:
                    table, key = ((stems, phrase[:-1]) if phrase.endswith("*")
                                  else (exact, phrase))
                    per_topic = table.setdefault(key, {})
                    per_topic[topic.slug] = max(per_topic.get(topic.slug, 0), weight)
        self._neutral = set(neutral)
        for phrase in self._neutral:
            exact.setdefault(phrase, {})
        self._exact = exact
        self._stems = stems
        self._stem_lengths = sorted({len(s) for s in stems})
        self._cache: dict[str, tuple[tuple[str, int], ...]] = {}
        phrases = [*exact, *(stem + "*" for stem in stems)]
        # Text is " " + normalized + " ": a cue starts after a space and ends before one.
        self.pattern = re.compile(" (" + _trie_regex(phrases) + ")(?= )")

    def hits(self, found: str) -> tuple[tuple[str, int], ...]:
        """(topic, weight) of a matched phrase: its own entry plus every ``stem*`` it extends."""
        cached = self._cache.get(found)
        if cached is not None:
            return cached
        merged: dict[str, int] = {}
        if found not in self._neutral:
            merged.update(self._exact.get(found, {}))
            for size in self._stem_lengths:
                if size > len(found):
                    break
                if " " in found[size:]:
                    continue
                for slug, weight in self._stems.get(found[:size], {}).items():
                    merged[slug] = max(merged.get(slug, 0), weight)
        result = tuple(merged.items())
        if len(self._cache) < _CACHE_LIMIT:
            self._cache[found] = result
        return result

    def score(self, scores: dict[str, float], text: str, factor: int,
              cap: float = math.inf) -> None:
        """Add ``factor`` x weight of each distinct cue in ``text``, at most ``cap`` a topic."""
        if not text:
            return
        field: dict[str, float] = {}
        for found in set(self.pattern.findall(" " + text + " ")):
            for slug, weight in self.hits(found):
                field[slug] = field.get(slug, 0) + weight * factor
        for slug, value in field.items():
            scores[slug] = scores.get(slug, 0) + min(value, cap)


@lru_cache(maxsize=1)
def _matcher() -> _Matcher:
    data = catalogue()
    return _Matcher(data.topics, data.neutral)


def text_scores(title: str, abstract: str, keywords: Sequence[str] = (),
                primary_area: str = "") -> dict[str, float]:
    """Evidence per topic from the paper's own words (no venue, no fallback)."""
    matcher = _matcher()
    scores: dict[str, float] = {}
    matcher.score(scores, normalize(title or ""), TITLE_WEIGHT)
    matcher.score(scores, normalize(abstract or ""), ABSTRACT_WEIGHT, ABSTRACT_CAP)
    # Double space between labels: no cue spans two keywords.
    labels = "  ".join(normalize(k) for k in (*keywords, primary_area or "") if k)
    matcher.score(scores, labels, LABEL_WEIGHT)
    return scores


def venue_prior(conference: str) -> str | None:
    """The home area of a venue slug (``nips``, ``ICRA``, ``cvpr2024`` all work), if any."""
    slug = _YEAR_SUFFIX.sub("", (conference or "").strip().lower())
    return venues.lookup(slug).home_topic


def explain(title: str, abstract: str, keywords: Sequence[str] = (), primary_area: str = "",
            conference: str = "") -> Derivation:
    """The topics with the evidence behind them; ``derive_topics`` keeps only the topics."""
    scores = text_scores(title, abstract, keywords, primary_area)
    best = max(scores.values(), default=0)
    prior = venue_prior(conference) if best < CONFIDENT else None
    if prior:
        scores[prior] = scores.get(prior, 0) + PRIOR_BONUS
    order = _matcher().order
    ranked = sorted(scores.items(), key=lambda kv: (-kv[1], order[kv[0]]))
    floor = max(THRESHOLD, RELATIVE * ranked[0][1]) if ranked else THRESHOLD
    kept = tuple(slug for slug, score in ranked[:MAX_TOPICS] if score >= floor)
    if not kept:
        return Derivation((catalogue().fallback,), tuple(ranked), "fallback")
    if prior and prior in kept:
        source = "prior" if len(kept) == 1 and best < THRESHOLD else "text+prior"
    else:
        source = "text"
    return Derivation(kept, tuple(ranked), source)


def derive_topics(title: str, abstract: str, keywords: Sequence[str], primary_area: str,
                  conference: str) -> list[str]:
    """1 to 3 taxonomy slugs, best first; never empty (see the module docstring)."""
    return list(explain(title, abstract, keywords, primary_area, conference).topics)
