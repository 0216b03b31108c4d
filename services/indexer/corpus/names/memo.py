"""The incremental names pass's memory: what the last pass read of every text, so the next reads only what changed.

Why this and not a pass over "the names the new papers touch": what the corpus says of a name depends on
counts over every paper (how many papers a year holds decides whether a name was new in it), so a pass
over a part of the corpus can differ from a whole one. Measured on the full corpus (249,788 papers), the
decisions cost little; reading the texts costs nearly all: finding every name in every text (the
Aho-Corasick pass), the long forms every abstract defines, every title's words and the titles holding a
scattered long form, the lowercase words of every text. These are functions of one text (or of the
titles), so they are remembered per paper and re-read only for the papers whose year, title, abstract
or own names changed since the last pass, and for the names that are new (or spelt with new words):
the decisions are then made over the whole corpus as a full pass makes them, from the same inputs, and
the answer is the full pass's (``tests/unit/indexer/corpus/test_names_memo.py`` and the integration
test compare them).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Protocol

from . import titles
from .spotting import keys_in


class Entry(Protocol):
    """What the memory reads of a paper (:class:`.decide.Entry`, which imports this module)."""

    paper_id: str
    year: int
    title: str
    abstract: str
    own: tuple[str, ...]

Patterns = dict[str, tuple[str, ...]]
_LOWER = re.compile(r"[a-z]+")


class NamesMemo:
    """One alias's memory across passes (kept by :mod:`.index_pass` in the worker process)."""

    def __init__(self) -> None:
        self.seen: dict[str, tuple] = {}                 # paper id -> what of it the pass reads
        self.texts: dict[str, str] = {}                  # paper id -> folded text
        self.found: dict[str, set[str]] = {}             # paper id -> keys its text mentions (of `patterns`)
        self.patterns: Patterns = {}                     # the keys looked for last, with how each is written
        self.lower: dict[str, set[str]] = {}             # paper id -> candidate English keys it writes in lowercase
        self.lower_keys: frozenset[str] = frozenset()
        self.defined: dict[str, list] = {}               # paper id -> its abstract's definitions
        self.holdings: dict[tuple[str, ...], tuple[str, ...]] = {}  # long form -> ids of titles holding it
        self.changed: set[str] = set()                   # ids read anew by this pass
        self.order: list[str] = []                       # this pass's ids, in its order
        self.reread = 0                                   # texts read anew by the last pass
        self._where: dict[str, int] = {}
        self._where_for: list[str] | None = None

    def begin(self, entries: Sequence[Entry]) -> None:
        """A pass over ``entries`` starts: forget what changed, and the scattered long forms a changed title may hold."""
        current = {e.paper_id: (e.year, e.title, e.abstract, e.own) for e in entries}
        gone = self.seen.keys() - current.keys()
        self.changed = {i for i, seen in current.items() if self.seen.get(i) != seen} | gone
        touched_titles = [frozenset(titles.title_words(self.seen[i][1])) for i in self.changed if i in self.seen]
        touched_titles += [frozenset(titles.title_words(current[i][1])) for i in self.changed if i in current]
        for cache in (self.texts, self.found, self.lower, self.defined):
            for i in self.changed:
                cache.pop(i, None)
        for long_words in [w for w in self.holdings if any(titles.content_words(w) <= t for t in touched_titles)]:
            del self.holdings[long_words]
        self.seen = current
        self.order = [e.paper_id for e in entries]
        self.reread = len(self.changed - gone)
        titles.keep_only({title for _, title, _, _ in current.values()})

    def folded(self, entries: Sequence[Entry], fold: Callable[[Entry], str]) -> list[str]:
        out = []
        for entry in entries:
            text = self.texts.get(entry.paper_id)
            if text is None:
                text = self.texts[entry.paper_id] = fold(entry)
            out.append(text)
        return out

    def mentioned(self, entries: Sequence[Entry], texts: Sequence[str], patterns: Patterns,
                  automaton: Callable[[Patterns], Any]) -> Iterator[set[str]]:
        """The keys each text mentions: remembered ones still looked for, plus the new keys (or keys written
        with new words) found in it; a changed text is read whole."""
        fresh = {k: p for k, p in patterns.items() if self.patterns.get(k) != p}
        whole = new = None
        for entry, text in zip(entries, texts, strict=True):
            known = self.found.get(entry.paper_id)
            if known is None:
                whole = whole or automaton(patterns) or _NOTHING
                got = keys_in(whole, text)
            else:
                got = {k for k in known if k in patterns and k not in fresh}
                if fresh:
                    new = new or automaton(fresh) or _NOTHING
                    got.update(keys_in(new, text))
            self.found[entry.paper_id] = got
            yield got
        self.patterns = dict(patterns)

    def lowercase(self, entries: Sequence[Entry], keys: set[str],
                  words: Callable[[Entry], list[str]]) -> Iterable[set[str]]:
        """For each text, the ``keys`` it writes as a lowercase word; texts are read only for keys new since."""
        fresh = {k for k in keys - self.lower_keys if _LOWER.fullmatch(k)}  # others are never a lowercase word
        spotter = re.compile(r"\b(?:" + "|".join(sorted(map(re.escape, fresh))) + r")\b") if fresh else None
        out = []
        for entry in entries:
            known = self.lower.get(entry.paper_id)
            if known is None:
                known = keys.intersection(words(entry))
            else:
                known = known & keys
                if spotter:  # the same as the whole text's lowercase words, for these keys only
                    known |= set(spotter.findall(f"{entry.title} {entry.abstract}"))
            self.lower[entry.paper_id] = known
            out.append(known)
        self.lower_keys = frozenset(keys)
        return out

    def definitions(self, entry: Entry, define: Callable[[str], list]) -> list:
        found = self.defined.get(entry.paper_id)
        if found is None:
            found = self.defined[entry.paper_id] = define(entry.abstract)
        return found

    def holding(self, long_words: tuple[str, ...], compute: Callable[[tuple[str, ...]], list[int]]) -> list[int]:
        """The titles holding a scattered long form (indices of this pass), remembered by paper id."""
        ids = self.holdings.get(long_words)
        if ids is None:
            ids = self.holdings[long_words] = tuple(self.order[i] for i in compute(long_words))
        if not ids:
            return []
        where = self._positions()
        return [where[i] for i in ids]

    def _positions(self) -> dict[str, int]:
        if self._where_for is not self.order:
            self._where, self._where_for = {i: n for n, i in enumerate(self.order)}, self.order
        return self._where


class _Nothing:
    """An automaton that finds nothing (no keys to look for)."""

    @staticmethod
    def iter(text: str) -> Iterator:
        return iter(())


_NOTHING = _Nothing()
