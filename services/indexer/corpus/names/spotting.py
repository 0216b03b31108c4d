"""Finding many phrases in many texts at once: every name the names pass looks for, in every title and abstract.

An Aho-Corasick automaton (``pyahocorasick``): one pass of C over each text, whatever the number of phrases.
Apart from :mod:`.decide` (which decides) and :mod:`.memo` (which remembers what each text held) because both
build and read it.
"""

from __future__ import annotations

from collections import defaultdict

import ahocorasick


def automaton(patterns: dict[str, tuple[str, ...]]) -> ahocorasick.Automaton | None:
    """An automaton finding every pattern, each answering every key written so (None: no pattern).

    Two keys may be written alike (" fls " is "FL"'s plural and "FLS" itself): a pattern answers both, so that
    what a text mentions does not depend on the order the keys came in (a set's, which changes from process
    to process: it made 130 papers' names differ between two passes over the same corpus)."""
    keys_of: dict[str, set[str]] = defaultdict(set)
    for key, written in patterns.items():
        for pattern in written:
            keys_of[pattern].add(key)
    if not keys_of:
        return None
    found = ahocorasick.Automaton()
    for pattern, keys in keys_of.items():
        found.add_word(pattern, tuple(sorted(keys)))
    found.make_automaton()
    return found


def keys_in(scan: ahocorasick.Automaton, text: str) -> set[str]:
    """The keys an :func:`automaton` finds written in ``text``."""
    return {key for _, keys in scan.iter(text) for key in keys}
