"""Acronyms defined in running text: "Model-Agnostic Meta-Learning (MAML)" -> (MAML, Model-Agnostic Meta-Learning).

Abstracts define the short names people later type: their own ("Our model, the Vector
Quantised-Variational AutoEncoder (VQ-VAE)") and other papers' ("we build on
model-agnostic meta-learning (MAML)"). :func:`definitions` finds each "long form (SHORT)"
with the algorithm of Schwartz and Hearst (2003, "A simple algorithm for identifying
abbreviation definitions in biomedical text"): the short form's letters, read backwards,
must be found in order in the words before the parenthesis, its first letter at the start
of a word; the long form is the shortest such run of words. One addition: a letter followed
by a digit repeats ("T5" is five words that start with t: "Text-to-Text Transfer Transformer").

That finds long forms whose letters sit inside any words: "Furthermore, ReTrace demonstrates
effectiveness across both convolutional (ResNet) and ..." spells ResNet too.
:meth:`Definition.stands_for` tells a long form that reads as its short name, for the readers
that take a definition on its own word (:func:`services.indexer.paper.own_names.own_names` extending a
coined name); where the long form must also be a title or a coined phrase, that match suffices.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from services.search.records.paper_names import name_like

# "(SHORT)" or "(SHORTs)": a word of 2-12 characters with a capital, right after the words it shortens.
_PAREN = re.compile(r"\(([A-Za-z][A-Za-z0-9+\-]{1,11})\)")
_WORD = re.compile(r"\S+")
_REPEATED = re.compile(r"^([A-Za-z])([2-9])$")
MAX_EXTRA_WORDS = 5  # Schwartz & Hearst: at most min(|SHORT| + 5, 2 |SHORT|) words


@dataclass(frozen=True)
class Definition:
    short: str  # as written, a plural "s" kept: "GANs"
    long: str   # the words it shortens, as written: "generative adversarial networks"

    def stands_for(self) -> bool:
        """Whether the long form reads as the short name: a name in capitals (a loose acronym is still its
        name: "Continuous Product Graph Neural Networks (CITRUS)"), or words (:data:`_SMALL_WORDS` aside,
        markup dropped) most of which give the short name a letter where a word shows one: its first
        letter, a part's after a hyphen, or a capital ("RObust mUltitask Tuning", "six-degree-of-freedom")."""
        letters = _letters(self.short)
        words = [w for w in _MARKUP.sub("", self.long).split() if w.strip(",()").lower() not in _SMALL_WORDS]
        if all(not w[:1].isalpha() or w[:1].isupper() for w in words):
            return True
        giving = sum(1 for w in words if any(part[:1].lower() in letters for part in w.split("-"))
                     or any(ch.isupper() and ch.lower() in letters for ch in w[1:]))
        return 2 * giving >= len(words)


def _letters(short: str) -> str:
    """What the long form must spell: alphanumerics, lowercased, a plural "s" dropped, "T5" as "ttttt"."""
    core = short[:-1] if len(short) > 2 and short.endswith("s") and short[-2].isupper() else short
    repeated = _REPEATED.match(core)
    if repeated:
        return repeated.group(1).lower() * int(repeated.group(2))
    return "".join(ch for ch in core.lower() if ch.isalnum())


def _long_form(letters: str, before: str) -> str | None:
    """Schwartz & Hearst's best long form for ``letters`` at the end of ``before``, or None."""
    s, i = len(letters) - 1, len(before) - 1
    while s >= 0:
        ch = letters[s]
        # Walk back to the letter; the first one must start a word.
        while i >= 0 and (before[i].lower() != ch or (s == 0 and i > 0 and before[i - 1].isalnum())):
            i -= 1
        if i < 0:
            return None
        i -= 1
        s -= 1
    start = before.rfind(" ", 0, i + 1) + 1
    return before[start:].strip()


def definitions(text: str) -> list[Definition]:
    """Every "long form (SHORT)" of ``text`` whose long form spells SHORT (see the module docstring)."""
    out = []
    for match in _PAREN.finditer(text):
        short = match.group(1)
        if not any(ch.isupper() for ch in short) or not (name_like(short) or short[:1].isupper()):
            continue
        letters = _letters(short)
        if len(letters) < 2:
            continue
        words = _WORD.findall(text[max(0, match.start() - 200):match.start()])
        window = min(len(letters) + MAX_EXTRA_WORDS, 2 * len(letters))
        before = " ".join(words[-window:])
        # A clause boundary ends the candidate words: "..., and graph neural networks (GNNs)".
        before = re.split(r"[.;:,!?()\[\]]\s", before)[-1].strip(" ,;:")
        found = _long_form(letters, before) if before else None
        if found and len(found) > len(short) and found.split()[0].lower() not in _BAD_STARTS:
            out.append(Definition(short, found))
    return out


# A long form never starts with these: "the graph neural network (GNN)" is "graph neural network".
_BAD_STARTS = frozenset(("the", "a", "an", "and", "or", "of", "in", "on", "for", "to", "with", "by", "we", "our",
                         "this", "that", "its", "their", "as", "is", "are", "from", "using", "via"))
# Words a long form may hold without giving a letter ("Bidirectional Encoder Representations from Transformers").
_SMALL_WORDS = _BAD_STARTS | {"at", "into", "over", "under", "based"}
# Emphasis around the letters a short name takes ("**R**etrieval-**A**ugmented", "\\textbf{P}erturbation").
_MARKUP = re.compile(r"\\[A-Za-z]+|[{}*$_^~\"'“”‘’`]")
