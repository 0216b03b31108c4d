"""The names a paper is known by, as keys that every spelling of a name shares.

People look a paper up by its method's name far more often than by its title: "MAML",
"VQ-VAE", "T5", "Prototypical Networks". The indexer derives a paper's names (its title's
name before a colon, the names its abstract coins, the acronyms other papers give it:
:mod:`services.indexer.paper.own_names`) and stores each as a :func:`name_key`; the query side folds
what is typed the same way, so ``vq-vae``, ``VQVAE`` and ``VQ VAE`` all meet ``vqvae``, and
``DDIMs`` meets ``ddim``. The keys live here, on the read side, because both sides need them.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from .name_keys import strip_accents

# A key keeps letters, digits and "+" ("MAML++" is not "MAML"); spaces, hyphens, dots and
# the rest fold away.
_NOT_KEPT = re.compile(r"[^a-z0-9+]+")
MIN_KEY_CHARS = 2   # a shorter key ("a") names nothing
MAX_KEY_CHARS = 80  # a name is a few words; a longer "name" is a sentence
MAX_NAME_WORDS = 8  # the part before a title's colon is its name only when this short
# Within one hyphen-free part: two capitals ("DETR", "VQ" of "VQ-VAE"), a capital after a small
# letter ("LoRA", "iGPT"), or letters and digits ("pix2pix", "T5"). "Multi-Task" is English.
_CAPITALS = re.compile(r"[A-Z][^-]*[A-Z]")
_INNER_CAPITAL = re.compile(r"[a-z][A-Z]")
_LETTER_DIGIT = re.compile(r"[A-Za-z][^-]*\d|\d[^-]*[A-Za-z]")
# Digits with a unit or an ordinal ("3D", "4K", "2nd", "10x") are not names.
_MEASURE = re.compile(r"^\d+(?:[A-Za-z]|st|nd|rd|th|x)$")
# How the field shortens a network's name: the word before "network(s)" cut to its first letters,
# then "net" ("Prototypical Networks" -> ProtoNet, "Convolutional (Neural) Networks" -> ConvNet,
# "Residual Networks" -> ResNet, "Capsule Networks" -> CapsNet). A word of at least CONTRACTED_MIN
# letters is cut, to no fewer than that; "neural" between them is dropped, as people drop it.
NET_WORDS = frozenset(("network", "networks", "net", "nets"))
CONTRACTED_MIN = 3
_DROPPED = frozenset(("neural",))
_KEY_WORD = re.compile(r"[a-z0-9]+")
# Markup a source may write a name in (paper_names.plain).
_LATEX_STYLE = re.compile(r"\\+(?:text(?:bf|it|tt|sc|rm|sf|up|md)?|math(?:bf|rm|cal|it|tt|sf|bb|frak)?|emph|underline"
                          r"|boldsymbol|bm)\s*\{([^{}]*)\}")
_MARKDOWN_STRONG = re.compile(r"\*\*+|__+")
_LATEX_ESCAPE = re.compile(r"\\([&%#_])")
_MARKUP = re.compile(r"[\\$*_{}]")


def fold(text: str) -> str:
    """Case and accents folded: ``Schölkopf`` -> ``scholkopf`` (the core node has no asciifolding)."""
    return strip_accents(text).casefold()


def key_words(text: str) -> list[str]:
    """A text's words as keys are made of them: folded, letters and digits only ("Meta-Learning" ->
    "meta", "learning")."""
    return _KEY_WORD.findall(fold(text))


def name_key(name: str) -> str:
    """The key of a name: ``VQ-VAE``, ``vqvae``, ``VQ VAE`` -> ``vqvae``; ``T-5`` -> ``t5``;
    ``DDIMs`` -> ``ddim``; ``Prototypical Networks`` -> ``prototypicalnetwork``; "" when too short or
    too long to be a name.

    A written plural (a final small "s": "GANs", "Networks") folds away; a capital S is part of the
    name ("ACLS", "Agent S"). Names are grouped by this key; :func:`search_keys` are what a typed
    query meets.
    """
    raw = raw_key(name)
    if _plural(name, raw):
        raw = raw[:-1]
    return raw if MIN_KEY_CHARS <= len(raw) <= MAX_KEY_CHARS else ""


def _plural(name: str, raw: str) -> bool:
    last = re.split(r"[\s\-]+", name.strip())[-1]
    return len(raw) > 3 and len(last) > 1 and last.endswith("s") and not raw.endswith("ss")


def search_keys(name: str) -> list[str]:
    """What a typed query may fold to and still mean ``name``: its key as written and its :func:`name_key`
    ("ddims" and "ddim" for "DDIMs"; only "acls" for "ACLS"). A query is folded by :func:`query_keys`."""
    return [k for k in dict.fromkeys((query_key(name), name_key(name))) if k]


_TYPED_PLURAL = re.compile(r"[^\W\d_]s$", re.IGNORECASE)  # "GANs", "alis"; not "pac-s", "t5s"


def query_key(text: str) -> str:
    """A typed text as a key: folded like :func:`name_key`, but no plural guessed (case is lost in typing)."""
    raw = raw_key(text)
    return raw if MIN_KEY_CHARS <= len(raw) <= MAX_KEY_CHARS else ""


def query_keys(text: str) -> list[str]:
    """The keys a typed text may mean a name by: its :func:`query_key`, and, when the text ends in a
    plural's "s" right after a letter, the singular too ("gans" is GAN's plural; "acls" still meets
    ACLS by its own key first; the "s" of "pac-s" is PAC-S's own letter)."""
    key = query_key(text)
    singular = finish_key(key) if key and _TYPED_PLURAL.search(text.strip()) else ""
    return [k for k in dict.fromkeys((key, singular)) if k]


def raw_key(text: str) -> str:
    """What of ``text`` a key keeps, before the plural folds: keys of words add up to a phrase's.
    Greek letters are spelled out ("μBench" -> "mubench", not "bench")."""
    if not text.isascii():
        text = "".join(_spelled(ch) for ch in unicodedata.normalize("NFKD", text))
    return _NOT_KEPT.sub("", fold(text))


def _spelled(ch: str) -> str:
    """A Greek letter by its name ("μ" -> "mu", "Δ" -> "delta", "ϵ" -> "epsilon"), any other character as it is."""
    words = unicodedata.name(ch, "").split()
    if words[:1] == ["GREEK"] and "LETTER" in words or words[-1:] == ["SYMBOL"] and words[:1] == ["GREEK"]:
        return [w for w in words if w != "SYMBOL"][-1].lower()
    return ch


def finish_key(raw: str) -> str:
    """A :func:`raw_key` of running text as a name's key: a final plural "s" folded, "" when too short
    or long (texts are searched for names by these, case already lost: "ddims" meets "DDIMs")."""
    if len(raw) > 3 and raw.endswith("s") and not raw.endswith("ss"):
        raw = raw[:-1]
    return raw if MIN_KEY_CHARS <= len(raw) <= MAX_KEY_CHARS else ""


def contractions(title: str) -> list[str]:
    """The keys a title's networks are shortened to, singular and plural ("protonet", "protonets",
    "prototypicalnet", ... of "Prototypical Networks for Few-shot Learning"): one more place a typed
    word can match the title (a weak one: it is no name the paper gave itself, so no known-item factor)."""
    words = [w for w in key_words(title) if w not in _DROPPED]
    out: list[str] = []
    for word, after in zip(words, words[1:]):
        if after in NET_WORDS and word.isalpha() and len(word) >= CONTRACTED_MIN and word not in NET_WORDS:
            out += [f"{word[:k]}{net}" for k in range(CONTRACTED_MIN, len(word) + 1) for net in ("net", "nets")]
    return list(dict.fromkeys(out))


def name_keys(names: list[str]) -> list[str]:
    """The distinct search keys of ``names``, in order."""
    return list(dict.fromkeys(k for n in names for k in search_keys(n)))


def plain(name: str) -> str:
    """A name as read, without the markup its source wrote it in: LaTeX's text and math styles
    ("\\textbf{PCAD}", "$\\texttt{DARA}$"), their braces, and Markdown's emphasis ("**EdgeDoG**",
    "_DataTune_"); a star inside a name stays ("A*+BFHS", "Int*-Match")."""
    if not _MARKUP.search(name):  # most names: nothing to read through (known_as calls this on every hit)
        return name.strip()
    while True:
        unwrapped = _LATEX_STYLE.sub(r"\1", name)
        if unwrapped == name:
            break
        name = unwrapped
    name = _MARKDOWN_STRONG.sub("", name.replace("$", "").replace("{", "").replace("}", ""))
    name = _LATEX_ESCAPE.sub(r"\1", name)  # "One For All \& All For One"
    if len(name) > 2 and name[0] == name[-1] and name[0] in "*_":
        name = name[1:-1]
    return name.strip()


def named_as(typed: Sequence[str], names: Sequence[str], title: str) -> str:
    """The one of ``names`` that a typed text or word is (as the search's name factor matches it), when the
    title does not already say it: "Gato" for `gato` or `gato reed` on "A Generalist Agent"; "" if none."""
    keys = {key for text in typed for key in query_keys(text)}
    shown = raw_key(title)
    for name in names:
        if keys.intersection(search_keys(name)) and raw_key(name) not in shown:
            return name
    return ""


def names_in_order(names: list[str]) -> list[str]:
    """``names`` as read (:func:`plain`) with one spelling of each key (the first), keyless ones dropped."""
    seen: set[str] = set()
    out = []
    for name in map(plain, names):
        key = name_key(name)
        if key and key not in seen:
            seen.add(key)
            out.append(name)
    return out


def title_name(title: str) -> str:
    """The name before a title's colon, when that is 1-8 words: "LoRA" of "LoRA: Low-Rank Adaptation
    of Large Language Models"; "" for a title without one (its whole title is then its name, which
    the title key covers) and for a long lead-in that does not read as a name ("In this paper we ...:")."""
    head, colon, _ = title.partition(":")
    head = head.strip()
    if not colon or not head or len(head.split()) > MAX_NAME_WORDS:
        return ""
    return head


def name_like(word: str) -> bool:
    """Whether one word looks coined rather than English: ``DETR``, ``GraphSAGE``, ``pix2pix``, ``T5``."""
    if len(word) < 2 or _MEASURE.match(word):
        return False
    return bool(_CAPITALS.search(word) or _INNER_CAPITAL.search(word) or _LETTER_DIGIT.search(word))
