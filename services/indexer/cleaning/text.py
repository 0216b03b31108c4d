"""Text cleaning for messy source fields: entities, stray HTML, whitespace, control characters, and the
typographic ligatures PDF extraction leaves ("Classiﬁcation": a word no query typed with "fi" matches)."""

from __future__ import annotations

import html
import re

from ftfy.fixes import fix_latin_ligatures

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\u200b\ufeff]")
# Only real HTML tags are removed: abstracts also hold "<Subject, Verb, Object>" or "</s>".
# Inline tags vanish ("H<sub>2</sub>O" is "H2O"); block tags separate words.
_INLINE_TAGS = "a|abbr|b|big|code|em|font|i|math|mi|mn|mo|mrow|msub|msubsup|msup|small|span|strike|strong|sub|sup|tt|u"
_BLOCK_TAGS = "blockquote|br|center|div|h[1-6]|hr|img|li|ol|p|pre|table|tbody|td|th|thead|tr|ul"
_INLINE = re.compile(rf"</?(?:{_INLINE_TAGS})(?:\s[^<>]*)?/?>", re.IGNORECASE)
_BLOCK = re.compile(rf"</?(?:{_BLOCK_TAGS})(?:\s[^<>]*)?/?>", re.IGNORECASE)
_DROPPED = re.compile(r"<(script|style)\b[^>]*>.*?</\1\s*>", re.IGNORECASE | re.DOTALL)


def clean_text(value: str) -> str:
    """Unescape entities, drop control characters, spell ligatures out ("ﬁ" -> "fi") and collapse whitespace."""
    # str.split() splits on exactly what ``\s`` matches (str.isspace), so this is the
    # regex ``\s+`` -> " " and strip(), at a fraction of the cost.
    return " ".join(fix_latin_ligatures(_CONTROL.sub("", html.unescape(value))).split())


def strip_html(value: str) -> str:
    """Plain text of a field that may carry HTML; LaTeX and ``a < b`` survive.

    Tags are removed only when they are known HTML tags, then entities are decoded,
    so an escaped ``&lt;script&gt;`` stays visible text (and is escaped again on output).
    """
    if "<" in value:
        value = _INLINE.sub("", _BLOCK.sub(" ", _DROPPED.sub(" ", value)))
    return clean_text(value)


# "Cropping:A Reinforcement ...": the standard tokenizer keeps a colon between letters inside one
# token ("cropping:a"), so no query word matched the title; the missing space is a typo of the list.
_TIGHT_COLON = re.compile(r"(?<=[^\W\d_]{2}):(?=[^\W\d_])")


def clean_title(value: str) -> str:
    """A title's plain text (:func:`strip_html`), with a space after a colon that lacks one."""
    return _TIGHT_COLON.sub(": ", strip_html(value))


def dedupe(items: list[str]) -> list[str]:
    """Drop empties and case-insensitive repeats, keeping the first spelling."""
    seen: set[str] = set()
    out = []
    for item in items:
        key = item.casefold()
        if item and key not in seen:
            seen.add(key)
            out.append(item)
    return out


_SMALL_WORDS = {"a", "an", "and", "for", "in", "of", "on", "or", "the", "to", "with"}


def label_case(value: str) -> str:
    """``Journal track`` and ``Journal Track`` become one facet value; acronyms stay as they are."""
    words = value.split(" ")
    out = []
    for i, word in enumerate(words):
        if word.islower() and (i == 0 or word not in _SMALL_WORDS):
            word = word[:1].upper() + word[1:]
        out.append(word)
    return " ".join(out)
