"""The names a paper gives itself, read from its own record: the title's name, the names its abstract coins.

A method's name is usually not in its title: the abstract coins it ("We present GraphSAGE,
a general, inductive framework", "a new algorithm named WGAN", "the new framework, called
DEtection TRansformer or DETR", "Our model, the Vector Quantised-Variational AutoEncoder
(VQ-VAE)", "The agent, which we refer to as Gato", "we propose the TuRBO algorithm", "we train
GPT-3, an autoregressive language model"), and so does its software ("the pix2pix software associated
with this paper").
:func:`own_names` finds them with a few patterns of how abstracts introduce a name, and keeps
only spans that look like names (a coined word, or a Title Case phrase),
so "we propose a new method for training GANs" names nothing. An acronym the abstract defines
counts when it shortens the paper's own title or a coined phrase ("called Trust Region Policy
Optimization (TRPO)"), not when it shortens a field's term ("Graph Neural Networks (GNNs) are
..." in a paper about GNNs). Names other papers give a paper are the corpus pass's
(:mod:`services.indexer.corpus.names.decide`). The words of the patterns are data (``vocab/naming.toml``).
"""

from __future__ import annotations

import functools
import re
import tomllib
from pathlib import Path

from services.search.records.paper_names import key_words, name_key, name_like, names_in_order, title_name

from .acronyms import Definition, definitions

MAX_OWN_NAMES = 6
MAX_SPAN_WORDS = 6
LOOSE_LETTERS = 5  # letters of each word a defined long form and the whole title share ("estim": Estimator,
LOOSE_WORDS = 3    # Estimation), in a title of at least this many words
VOCAB = Path(__file__).with_name("vocab") / "naming.toml"

_ABBREVIATION = re.compile(r"^(?:e\.g|i\.e|et al|etc|vs|cf|[A-Z])\.$")
_TOKEN = re.compile(r"[^\s]+")
_DASH = re.compile(r"\s*\u2014\s*|\s+\u2013\s+")  # an em dash, or a spaced en dash (not a range: "10–20")
_EDGE_PUNCT = "\"'“”‘’`"
_WORD_PUNCT = _EDGE_PUNCT + ",;:.()"  # what a word is read without


@functools.cache
def _vocab() -> dict[str, frozenset]:
    data = tomllib.loads(VOCAB.read_text(encoding="utf-8"))
    vocab: dict[str, frozenset] = {key: frozenset(w.lower() for w in words) for key, words in data.items()}
    vocab["head_nouns"] |= vocab["our_nouns"]  # "our model, ...", "the TuRBO model"
    vocab["phrase_words"] = frozenset(tuple(phrase.split()) for phrase in vocab["naming_phrases"])
    vocab["self_words"] = frozenset(tuple(phrase.split()) for phrase in vocab["self_references"])
    # The words a trigger ends with, as split from the text ("model," after "our"; "as" of "refer to as").
    vocab["triggers"] = (vocab["naming_words"] | vocab["naming_verbs"] | vocab["introducing_verbs"]
                         | vocab["apposing_verbs"]
                         | {f"{noun}," for noun in vocab["our_nouns"]}
                         | {words[-1] for words in vocab["phrase_words"]})
    return vocab


def own_names(title: str, abstract: str) -> list[str]:
    """The names the record gives its paper, in order: the title's name, then coined ones."""
    names: list[str] = []
    head = title_name(title)
    if head:
        names.append(head)
    coined = coined_names(abstract) if abstract else []
    defined = definitions(abstract) if abstract else []
    coined = [_longer(name, defined) for name in coined]
    names += [n for name in coined for n in name]
    names += _own_acronyms(title, [n for name in coined for n in name], defined)
    return names_in_order(names)[:MAX_OWN_NAMES]


def coined_names(abstract: str) -> list[str]:
    """Names the abstract introduces (see the module docstring), as written."""
    abstract = _DASH.sub(", ", abstract)  # "We present mBART—a sequence-to-sequence ...": an apposition
    words = abstract.split()
    lowered = abstract.lower().split()
    if len(words) != len(lowered):  # a lowercase that changed the words (never seen): no names
        return []
    vocab = _vocab()
    out: list[str] = []
    for i in [i for i, w in enumerate(lowered) if w in vocab["triggers"]]:
        kind = _strength(lowered, i)
        if kind is None:
            continue
        rest = words[i + 1:i + 1 + 3 * MAX_SPAN_WORDS]
        for n, word in enumerate(rest):  # the sentence ends the name's words
            if word.endswith((".", "!", "?")) and not _ABBREVIATION.match(word):
                rest = rest[:n + 1]
                break
        rest_lowered = [w.strip(_WORD_PUNCT).lower() for w in rest]
        out += _apposed(rest, rest_lowered) if kind == APPOSED else _spans_after(rest, rest_lowered, 0, kind)
    out += _software(words, lowered)
    return list(dict.fromkeys(out))


def _software(words: list[str], lowered: list[str]) -> list[str]:
    """Coined words the paper gives its own software: "the pix2pix software associated with this paper"."""
    vocab = _vocab()
    longest = max(map(len, vocab["self_words"]))
    out = []
    for i, word in enumerate(lowered[2:], start=2):
        if word not in vocab["software_nouns"] or lowered[i - 2] not in vocab["software_determiners"]:
            continue
        after = tuple(w.strip(_WORD_PUNCT) for w in lowered[i + 1:i + 1 + longest])
        name = words[i - 1].strip(_WORD_PUNCT)
        if (name_like(name) and name.lower() not in vocab["not_software_names"]
                and any(after[:len(p)] == p for p in vocab["self_words"])):
            out.append(name)
    return out


NAMING, VERB, APPOSITION, APPOSED = "naming", "verb", "apposition", "apposed"
_APPOSED_BY = ("a", "an")


def _strength(lowered: list[str], i: int) -> str | None:
    """How the trigger at word ``i`` introduces what follows: :data:`NAMING` after a naming word
    ("called", "which we call": the name comes next), :data:`VERB` after an introducing verb ("we
    propose": determiners and a few adjectives may come first), :data:`APPOSITION` after "our
    model," (a name set off by a comma or a parenthesis follows); None when it is no trigger here."""
    vocab = _vocab()
    word = lowered[i]
    before = lowered[i - 1] if i else ""
    if word in vocab["naming_words"]:
        after = lowered[i + 1].strip(_WORD_PUNCT) if i + 1 < len(lowered) else ""
        return None if after in vocab["not_after_naming"] else NAMING
    if any(tuple(lowered[max(i - len(p) + 1, 0):i + 1]) == p for p in vocab["phrase_words"]):
        return NAMING  # "which we refer to as Gato"
    if word in vocab["naming_verbs"] and before == "we":
        return NAMING
    if word in vocab["introducing_verbs"] and (
            before in vocab["introducers"]
            or (before in vocab["adverbs"] and i > 1 and lowered[i - 2] in vocab["introducers"])):
        return VERB
    if word in vocab["apposing_verbs"] and before in vocab["introducers"]:
        return APPOSED  # "we train GPT-3, an autoregressive language model"
    if word.endswith(",") and word[:-1] in vocab["our_nouns"] and before == "our":
        return APPOSITION  # "Our model, the Vector Quantised-Variational AutoEncoder (VQ-VAE), ..."
    return None


def _spans_after(words: list[str], lowered: list[str], i: int, kind: str) -> list[str]:
    """The name (and an "or"-alternative) that starts at word ``i``, after the skippable words.

    After a verb, an article makes what follows a common noun ("we present a Convolutional Neural
    Network (CNN)") unless it holds a coined word ("we propose a new algorithm, WGAN")."""
    vocab = _vocab()
    strong = kind != VERB
    start = i
    while i < len(words) and lowered[i] in vocab["skippable"] and not (
            words[i][:1].isupper() and lowered[i] in vocab["our_nouns"]):  # "we propose Model Editor Networks"
        i += 1
    common = not strong and any(w in ("a", "an") for w in lowered[start:i])
    definite = "the" in lowered[start:i]
    out = []
    while i < len(words):
        span, end = _span(words, lowered, i)
        if not span or not _acceptable(span, words, end, strong) or (common and not any(map(name_like, span))):
            break
        if not strong and _modifies(words, lowered, end) and not (definite and _headed(span, lowered, end)):
            break  # "we propose an OOD detection algorithm": the name of something else, used as a modifier
        if kind == APPOSITION and not _set_off(words, end):
            break  # "to train our model, CLIP is utilized": a clause, not "our model, the X (Y), ..."
        out.append(" ".join(span))
        if end < len(words) and lowered[end] == "or":  # "DEtection TRansformer or DETR"
            i = end + 1
            continue
        break
    return out


def _apposed(words: list[str], lowered: list[str]) -> list[str]:
    """The coined word right after an apposing verb, when "a"/"an" describes it after a comma ("we train GPT-3,
    an autoregressive language model"); nothing else ("we train ResNet-50 on ImageNet", "we collected a new
    dataset, a ...", "we train DetPro with ViLD, a ...")."""
    span, end = _span(words, lowered, 0)
    if (span and name_like(span[0]) and not any(w.lower() in _vocab()["connectors"] for w in span)
            and words[end - 1].endswith(",") and end < len(lowered)
            and lowered[end] in _APPOSED_BY):
        return [" ".join(span)]
    return []


def _set_off(words: list[str], end: int) -> bool:
    """Whether a comma, a parenthesis or the sentence's end follows the name."""
    return end >= len(words) or words[end - 1].endswith((",", ".", ";", ":")) or words[end].startswith("(")


def _modifies(words: list[str], lowered: list[str], end: int) -> bool:
    """Whether the words after a name make it a modifier: a lowercase word that is not a connector."""
    if end >= len(words) or words[end - 1].endswith((",", ";", ":", ".", ")")):
        return False
    nxt = lowered[end]
    if nxt in _vocab()["follows_a_name_before_on"]:  # "we propose X based on ...", not "a novel BERT based framework"
        after = end + 1 < len(words) and words[end + 1]
        return bool(after) and after[:1].islower() and lowered[end + 1] not in _vocab()["before_on_words"]
    return bool(nxt) and words[end][:1].islower() and nxt not in _vocab()["follows_a_name"]


def _headed(span: list[str], lowered: list[str], end: int) -> bool:
    """Whether a coined word is followed by its head noun: "the TuRBO algorithm" names TuRBO."""
    vocab = _vocab()
    return (len(span) == 1 and name_like(span[0]) and not span[0].lower().endswith(tuple(vocab["adjective_endings"]))
            and end < len(lowered) and lowered[end] in vocab["head_nouns"])


def _span(words: list[str], lowered: list[str], i: int) -> tuple[list[str], int]:
    """Capitalised or coined words from ``i`` (connectors only between them), up to punctuation."""
    vocab = _vocab()
    span: list[str] = []
    while i < len(words) and len(span) < MAX_SPAN_WORDS:
        raw = words[i].strip(_EDGE_PUNCT)
        word = raw.rstrip(",;:.)").rstrip(_EDGE_PUNCT)  # 'called "X Y",' ends on a quote before its comma
        if word.startswith("(") or not word:
            break
        capital = word[:1].isupper() or name_like(word)
        if not capital and not (span and lowered[i] in vocab["connectors"] and i + 1 < len(words)
                                and (words[i + 1][:1].isupper() or name_like(words[i + 1]))):
            break
        span.append(word)
        i += 1
        if raw != word or words[i - 1].endswith((",", ";", ":", ".", ")")):  # punctuation ends the name
            break
    while span and span[-1].lower() in vocab["connectors"]:
        span.pop()
        i -= 1
    return span, i


def _acceptable(span: list[str], words: list[str], end: int, strong: bool) -> bool:
    """A coined word anywhere, or a Title Case phrase; a lone capitalised word only after a naming
    word or before a comma or parenthesis ("We present Tacotron, an end-to-end ...")."""
    vocab = _vocab()
    if span[0].lower() in vocab["not_names"]:
        return False
    if any(name_like(w) for w in span):
        return True
    content = [w for w in span if w.lower() not in vocab["connectors"]]
    if len(content) >= 2:
        return True
    followed = words[end - 1].endswith((",", ":")) or (end < len(words) and words[end].startswith("("))
    return strong or followed


def _longer(name: str, defined: list[Definition]) -> list[str]:
    """A coined name that only starts a defined long form is that long form and its short name:
    "we propose DETR with additional Global Aggregation (DETR-GA)" names DETR-GA, not DETR; not a
    sentence that merely starts with the name ("ReTrace demonstrates effectiveness across both
    convolutional (ResNet)" names no ResNet: :meth:`Definition.stands_for`)."""
    words = name.lower().split()
    for found in defined:
        long_words = found.long.lower().split()
        if len(long_words) > len(words) and long_words[:len(words)] == words and found.stands_for():
            return [found.long, found.short]
    return [name]


def _own_acronyms(title: str, coined: list[str], found_all: list[Definition]) -> list[str]:
    """Acronyms the abstract defines for the whole title, its name or a coined phrase ("called Trust
    Region Policy Optimization (TRPO)"); not for a field's term that merely starts the title
    ("Convolutional Neural Networks (CNNs)" in "Convolutional Neural Networks for ...")."""
    if not found_all:
        return []
    own = {name_key(title), name_key(title_name(title))} | {name_key(c) for c in coined}
    own.discard("")
    loose = _loose(title)
    return [found.short for found in found_all if name_key(found.long) in own or (loose and _loose(found.long) == loose)]


def _loose(text: str) -> str:
    """A phrase of at least :data:`LOOSE_WORDS` words with each cut to its first :data:`LOOSE_LETTERS` letters, so
    that an abstract's "Mutual Information Neural Estimator (MINE)" is the title "Mutual Information Neural
    Estimation" ("" when shorter: "Machine Translationese" is not the field's "Machine Translation (MT)")."""
    words = key_words(text)
    return " ".join(w[:LOOSE_LETTERS] for w in words) if len(words) >= LOOSE_WORDS else ""
