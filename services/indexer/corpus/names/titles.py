"""Titles as the names pass reads them: their words (singular), their leading phrase, and the titles that hold
a long form's words scattered.

Why apart from :mod:`.decide`: these are pure functions of one title (and, for :class:`Scattered`, of every
title), the part of the pass that costs most per paper; kept here, the incremental pass
(:mod:`.memo`) can remember them per title, and :mod:`.decide` stays the decision.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Sequence

from services.search.records.paper_names import NET_WORDS, key_words

NETWORK = "network"     # the singular every word of NET_WORDS is matched as
SCATTERED_WORDS = 3     # a long form scattered in a title (not its leading phrase) ties it with this many
SCATTERED_TITLES = 3    # content words, when at most this many titles of the corpus hold them all
STOP = frozenset(("a", "an", "the", "of", "for", "and", "with", "to", "in", "on", "via", "from", "by", "using",
                  "at", "as", "is", "are", "or", "its", "their"))
_LEADING = re.compile(r"[:;,.?!()]|\s(?:" + "|".join(sorted(STOP)) + r")\s", re.I)

# Remembered per title string while a pass runs (and, for the incremental pass, between passes): the same
# title always gives the same words. Cleared by a pass without memory (:func:`forget`).
_WORDS: dict[str, tuple[str, ...]] = {}
_LEADS: dict[str, tuple[str, ...]] = {}


def forget() -> None:
    _WORDS.clear()
    _LEADS.clear()


def keep_only(titles: set[str]) -> None:
    """Forget the titles no paper has any more (the incremental pass's memory stays the corpus's size)."""
    for cache in (_WORDS, _LEADS):
        for title in [t for t in cache if t not in titles]:
            del cache[title]


def singular(word: str) -> str:
    """A title's word as long forms are matched: singular, and a net a network ("Generative Adversarial
    Nets" is what "generative adversarial networks (GANs)" stands for)."""
    if word in NET_WORDS:
        return NETWORK
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def title_words(title: str) -> tuple[str, ...]:
    found = _WORDS.get(title)
    if found is None:
        found = _WORDS[title] = tuple(singular(w) for w in key_words(title))
    return found


def leading(title: str) -> tuple[str, ...]:
    """The title's words before its first small word or punctuation: "Model-Agnostic Meta-Learning" of
    "Model-Agnostic Meta-Learning for Fast Adaptation", "Cross Attention Network" of "Cross Attention
    Network for Few-shot Classification" (so "cross attention" is not that paper's name)."""
    found = _LEADS.get(title)
    if found is None:
        found = _LEADS[title] = title_words(_LEADING.split(title.strip(), maxsplit=1)[0])
    return found


Holding = Callable[[tuple[str, ...], Callable[[tuple[str, ...]], list[int]]], list[int]]


class Scattered:
    """Titles holding every content word of a long form, not as a phrase: a rare enough long form (at
    least :data:`SCATTERED_WORDS` content words, in at most :data:`SCATTERED_TITLES` titles of the
    corpus) may name the earliest of them ("Exploring the Limits of Transfer Learning with a Unified
    Text-to-Text Transformer" holds "text-to-text transfer transformer"). ``remembered``: the incremental
    pass's memory of earlier answers (:meth:`.memo.NamesMemo.holding`)."""

    def __init__(self, titles: Sequence[str], remembered: Holding | None = None):
        self.words = [frozenset(title_words(t)) for t in titles]
        self.postings: dict[str, list[int]] = defaultdict(list)
        for i, words in enumerate(self.words):
            for w in words:
                self.postings[w].append(i)
        self.remembered = remembered

    def holding(self, long_words: tuple[str, ...]) -> list[int]:
        if self.remembered is not None:
            return self.remembered(long_words, self._holding)
        return self._holding(long_words)

    def _holding(self, long_words: tuple[str, ...]) -> list[int]:
        content = content_words(long_words)
        if len(content) < SCATTERED_WORDS:
            return []
        rarest = min(content, key=lambda w: len(self.postings.get(w, ())))
        found = [i for i in self.postings.get(rarest, ()) if content <= self.words[i]]
        return found if len(found) <= SCATTERED_TITLES else []


def content_words(words: Sequence[str]) -> set[str]:
    return {w for w in words if w not in STOP}
