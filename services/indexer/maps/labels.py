"""Names of a map's clusters: what their papers share that the rest of the venue-year does not (issue 32).

A cluster's candidate terms are its papers' words and two-word phrases of their titles
(each word compared by its singular) and, where the source has them, their keywords. A
term is telling when many of the cluster's papers have it (its share ``p``) and it is
rarer in the venue-year as a whole (its lift ``p / P``): scored ``p · log(lift)``, the
two best that share no word name the cluster ("diffusion model · flow matching"). A
phrase replaces its word when most papers with the word have the phrase ("time series",
not "series"). Words that are in every corner of a conference ("learning", "model",
"via") never stand alone (``vocab/map_labels.toml``). A cluster without a telling term is
named by its papers' most common topic.
"""

from __future__ import annotations

import math
import re
import tomllib
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from services.indexer.cleaning.keywords import keyword_key, singular
from services.search.records.schema import ENGLISH_STOPWORDS

VOCAB = Path(__file__).resolve().parent / "vocab" / "map_labels.toml"
TERMS_PER_LABEL = 2
MIN_PAPERS, MIN_SHARE = 3, 0.04  # a term names a cluster only if this many (and this share) of its papers have it
MIN_LIFT = 1.3                   # ... and it is this much more common there than in the venue-year
PHRASE_KEEPS = 0.6               # a phrase replaces its word when it holds this share of the word's papers
MAX_LABEL = 40                   # characters

_WORD = re.compile(r"[a-z][a-z0-9]+|[0-9]+[a-z][a-z0-9]*", re.IGNORECASE)  # as the embedding reads words


@dataclass(frozen=True)
class LabelInput:
    """What names a paper's cluster: its title, keywords and topic labels."""

    title: str
    keywords: Sequence[str] = ()
    topics: Sequence[str] = ()


@dataclass(frozen=True)
class ClusterName:
    terms: tuple[str, ...]

    @property
    def label(self) -> str:
        return " · ".join(self.terms)


@cache
def generic_words() -> frozenset[str]:
    with open(VOCAB, "rb") as f:
        return frozenset(tomllib.load(f)["generic"]) | ENGLISH_STOPWORDS


def paper_terms(paper: LabelInput, surfaces: dict[str, Counter] | None = None) -> set[str]:
    """The terms a paper offers: title words and two-word phrases, and its keywords (all by their key)."""
    generic = generic_words()
    words = _WORD.findall(paper.title)
    keys = [singular(w.lower()) for w in words]
    found: set[str] = set()

    def add(key: str, surface: str) -> None:
        found.add(key)
        if surfaces is not None:
            surfaces[key][surface] += 1

    for i, key in enumerate(keys):
        if key in ENGLISH_STOPWORDS:
            continue
        if key not in generic and len(key) > 2 and not key.isdigit():
            add(key, words[i])
        if i + 1 < len(keys):
            following = keys[i + 1]
            if following not in ENGLISH_STOPWORDS and not (key in generic and following in generic):
                add(f"{words[i].lower()} {following}", f"{words[i]} {words[i + 1]}")
    for keyword in paper.keywords:
        key = keyword_key(keyword)
        if key and key not in generic:
            add(key, keyword)
    return found


def name_clusters(papers: Sequence[LabelInput], cluster: Sequence[int]) -> dict[int, ClusterName]:
    """A name for each cluster id in ``cluster`` (one id per paper, in the order of ``papers``)."""
    surfaces: dict[str, Counter] = defaultdict(Counter)
    terms = [paper_terms(p, surfaces) for p in papers]
    everywhere = Counter(t for found in terms for t in found)
    total = len(papers)
    members: dict[int, list[int]] = defaultdict(list)
    for i, c in enumerate(cluster):
        members[int(c)].append(i)
    names: dict[int, ClusterName] = {}
    taken: set[str] = set()
    for c in sorted(members, key=lambda c: -len(members[c])):  # the largest clusters name themselves first
        inside = Counter(t for i in members[c] for t in terms[i])
        chosen = _best_terms(inside, everywhere, len(members[c]), total)
        words = [_shown(t, surfaces) for t in chosen]
        name = ClusterName(tuple(words[:TERMS_PER_LABEL]))
        if (not name.terms or name.label in taken) and len(words) > TERMS_PER_LABEL:
            name = ClusterName(tuple(words[:TERMS_PER_LABEL + 1]))
        if not name.terms:
            topic = Counter(t for i in members[c] for t in papers[i].topics).most_common(1)
            name = ClusterName((topic[0][0],) if topic else (f"cluster {c + 1}",))
        if name.label in taken:
            name = ClusterName((*name.terms, f"({c + 1})"))
        taken.add(name.label)
        names[c] = _short(name)
    return names


def _best_terms(inside: Counter, everywhere: Counter, size: int, total: int) -> list[str]:
    floor = max(MIN_PAPERS, MIN_SHARE * size)
    scored = []
    for term, count in inside.items():
        if count < floor:
            continue
        share = count / size
        lift = share / (everywhere[term] / total)
        if lift >= MIN_LIFT:
            scored.append((share * math.log(lift), term))
    scored.sort(key=lambda s: (-s[0], s[1]))
    chosen: list[str] = []
    used: set[str] = set()
    for _, term in scored:
        if " " not in term:  # a word: its phrase instead when most of its papers have that phrase
            phrases = [p for _, p in scored if p != term and term in p.split() and inside[p] >= PHRASE_KEEPS * inside[term]]
            term = max(phrases, key=lambda p: inside[p]) if phrases else term
        words = set(term.split())
        if words & used:
            continue
        chosen.append(term)
        used |= words
        if len(chosen) > TERMS_PER_LABEL:
            break
    return chosen


def _shown(term: str, surfaces: dict[str, Counter]) -> str:
    """A term as its papers write it most often: lower case, unless it is an acronym or a name (LLM, LoRA, 3D)."""
    written = surfaces[term].most_common(1)
    surface = written[0][0] if written else term
    return " ".join(word if any(ch.isupper() for ch in word[1:]) else word.lower() for word in surface.split())


def _short(name: ClusterName) -> ClusterName:
    terms = list(name.terms)
    while len(terms) > 1 and len(" · ".join(terms)) > MAX_LABEL:
        terms.pop()
    if len(terms[0]) > MAX_LABEL:
        terms[0] = terms[0][:MAX_LABEL - 1].rstrip() + "…"
    return ClusterName(tuple(terms))
