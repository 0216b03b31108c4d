"""Known-item queries generated from the corpus: the ways people type a paper they already know.

A person looking for a paper rarely pastes its whole title. They type its name ("LoRA",
"Direct Preference Optimization"), its first few words, a few distinctive words and an
author, a title with a slip of the finger, or they are still typing the last word. Each
*class* below turns a random paper into such a query, with a fixed seed so runs compare.

A query that cannot tell its paper apart is not a fair test of ranking (three titles
start with "Towards Understanding the"; two papers are named "DeepSeek"). Classes built
from the start of a title therefore keep only fragments that start no other visible
title, and the name class only names no other title carries; the benchmark reports how
many were skipped. Nothing here knows particular papers, venues or years.
"""

from __future__ import annotations

import bisect
import random
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from services.search.records.model import title_key
from services.search.records.schema import ENGLISH_STOPWORDS

CLASSES = ("exact", "name", "crowded_name", "first_words", "rare_author", "typo", "cut_word")
_WORD = re.compile(r"[a-z0-9]+")
_LETTERS = re.compile(r"[A-Za-z]{5,}")
MAX_NAME_WORDS = 8
CROWD = 5  # a crowded name is spelled out inside at least this many other titles


@dataclass(frozen=True)
class Target:
    paper_id: str
    title: str
    authors: tuple[str, ...]
    status: str


@dataclass(frozen=True)
class Case:
    kind: str
    query: str
    target: Target


class TitleIndex:
    """Every visible title's key, sorted, to count titles sharing a start or a name; word frequencies."""

    def __init__(self, titles: Iterable[str]):
        titles = list(titles)
        self.keys = sorted(title_key(t) for t in titles)
        self.names = Counter(title_key(n) for n in map(before_colon, titles) if n)
        self.df = Counter(w for t in titles for w in set(content_words(t)))
        self._blob = "\n".join(f" {k} " for k in self.keys)

    def containing(self, key: str) -> int:
        """How many times ``key`` occurs as whole words inside the titles."""
        return self._blob.count(f" {key} ")

    def exactly(self, key: str) -> int:
        """How many titles have exactly this key."""
        return bisect.bisect_right(self.keys, key) - bisect.bisect_left(self.keys, key)

    def starting(self, prefix: str, *, whole_words: bool) -> int:
        """How many titles start with ``prefix`` (a title key); at a word boundary when ``whole_words``."""
        lo = bisect.bisect_left(self.keys, prefix)
        hi = bisect.bisect_left(self.keys, prefix + "\U0010ffff")
        if not whole_words:
            return hi - lo
        return sum(1 for key in self.keys[lo:hi] if len(key) == len(prefix) or key[len(prefix)] == " ")


def content_words(title: str) -> list[str]:
    return [w for w in _WORD.findall(title.lower()) if w not in ENGLISH_STOPWORDS and len(w) > 2]


def before_colon(title: str) -> str:
    """The part of a title before its first colon, when that reads as a name (1-8 words)."""
    head, colon, _ = title.partition(":")
    head = head.strip()
    if not colon or not head or len(head.split()) > MAX_NAME_WORDS or not _WORD.search(head.lower()):
        return ""
    return head


def name(target: Target, index: TitleIndex, rng: random.Random) -> str | None:
    head = before_colon(target.title)
    key = title_key(head)
    # Another paper of that name, or whose whole title it is, has as good a claim.
    if len(key) < 3 or index.names[key] > 1 or index.exactly(key):
        return None
    return head


def crowded_name(target: Target, index: TitleIndex, rng: random.Random) -> str | None:
    """A name that many other titles spell out too ("LoRA", "Direct Preference Optimization"):
    where word matching alone cannot tell the paper named so from the papers that use the name."""
    head = name(target, index, rng)
    if not head or index.containing(title_key(head)) < CROWD + 1:
        return None
    return head


def first_words(target: Target, index: TitleIndex, rng: random.Random) -> str | None:
    words = target.title.replace(":", " ").split()
    k = rng.randint(3, 5)
    if len(words) <= k:
        return None
    query = " ".join(words[:k])
    return query if index.starting(title_key(query), whole_words=True) == 1 else None


def rare_author(target: Target, index: TitleIndex, rng: random.Random) -> str | None:
    words = list(dict.fromkeys(content_words(target.title)))
    surnames = [a.split()[-1] for a in target.authors if a.split() and _WORD.search(a.split()[-1].lower())]
    if len(words) < 3 or not surnames:
        return None
    rare = sorted(words, key=lambda w: (index.df[w], words.index(w)))[:3]
    rare.sort(key=words.index)  # in title order, as remembered
    return " ".join([*rare, rng.choice(surnames)])


def typo(target: Target, index: TitleIndex, rng: random.Random) -> str | None:
    spots = list(_LETTERS.finditer(target.title))
    if not spots:
        return None
    match = rng.choice(spots)
    word = match.group()
    i = rng.randint(1, len(word) - 2)
    edit = rng.choice(("swap", "drop", "double", "replace"))
    if edit == "swap" and word[i] != word[i + 1]:
        wrong = word[:i] + word[i + 1] + word[i] + word[i + 2:]
    elif edit == "drop":
        wrong = word[:i] + word[i + 1:]
    elif edit == "double":
        wrong = word[:i] + word[i] + word[i:]
    else:
        near = "etaoinshrdlucmfwypvbgk".replace(word[i].lower(), "")
        wrong = word[:i] + rng.choice(near) + word[i + 1:]
    return target.title[:match.start()] + wrong + target.title[match.end():]


def cut_word(target: Target, index: TitleIndex, rng: random.Random) -> str | None:
    words = target.title.replace(":", " ").split()
    k = rng.randint(1, 4)
    if len(words) <= k:
        return None
    last = words[k]
    letters = sum(ch.isalnum() for ch in last)
    if letters < 5 or not last.isalnum():
        return None
    query = " ".join([*words[:k], last[:rng.randint(3, len(last) - 2)]])
    return query if index.starting(title_key(query), whole_words=False) == 1 else None


def exact(target: Target, index: TitleIndex, rng: random.Random) -> str | None:
    return target.title


MAKERS = {"exact": exact, "name": name, "crowded_name": crowded_name, "first_words": first_words,
          "rare_author": rare_author, "typo": typo, "cut_word": cut_word}


def cases(kind: str, targets: Sequence[Target], index: TitleIndex, n: int, seed: int) -> tuple[list[Case], int]:
    """Up to ``n`` cases of one class from ``targets`` (in their seeded order) and how many were skipped."""
    rng = random.Random(f"{seed}:{kind}")
    made, skipped = [], 0
    for target in targets:
        if len(made) >= n:
            break
        query = MAKERS[kind](target, index, rng)
        if query:
            made.append(Case(kind, query, target))
        else:
            skipped += 1
    return made, skipped


@dataclass
class Score:
    """Reciprocal ranks of one class's cases (0 when the paper is not in the top results)."""

    ranks: list[int]

    @property
    def mrr(self) -> float:
        return sum(1 / r for r in self.ranks if r) / len(self.ranks) if self.ranks else 0.0

    def success(self, k: int) -> float:
        return sum(1 for r in self.ranks if 0 < r <= k) / len(self.ranks) if self.ranks else 0.0

    def summary(self) -> dict:
        return {"n": len(self.ranks), "mrr": round(self.mrr, 3), "success@1": round(self.success(1), 3),
                "success@3": round(self.success(3), 3), "success@10": round(self.success(10), 3)}


def rank_of(paper_id: str, ids: Sequence[str]) -> int:
    return ids.index(paper_id) + 1 if paper_id in ids else 0
