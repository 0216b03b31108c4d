"""Clean author names and keywords, and the keys that group their spellings.

Sources decorate names with equal-contribution and footnote marks ("Keyulu Xu*",
"Ömer Morgül1", "Lihe Zhang¹") that would otherwise make new authors. Keys fold case
and accents so one person's URL and one keyword's facet value have one form; they never
decide who is who (no disambiguation). Vocabularies live in ``vocab/`` beside this file.
"""

from __future__ import annotations

import html
import re
import tomllib
from functools import cache
from pathlib import Path

from services.search.records.name_keys import author_key, coauthor_key

from .affiliations import affiliation_key, canonical_affiliation
from .diacritics import repair_diacritics

__all__ = [
    "affiliation_key", "author_key", "canonical_affiliation", "canonical_keyword", "clean_author_name",
    "coauthor_key", "keyword_key", "merge_keywords", "repair_diacritics", "split_names",
]

VOCAB = Path(__file__).with_name("vocab")

_INVISIBLE = re.compile("[\u200b-\u200f\u202a-\u202e\u2060\ufeff\xad]")
_SPACE = re.compile(r"\s+")
_MARK_CHARS = "*∗⋆★†‡§¶#"
_SUPERSCRIPTS = "¹²³⁴⁵⁶⁷⁸⁹⁰"
# A parenthesised or bracketed note: marks, digits, e-mail addresses, "equal contribution".
_NOTE = re.compile(
    rf"\s*[(\[]\s*(?:[{_MARK_CHARS}\d,\s]*|[^()\[\]]*@[^()\[\]]*|[^()\[\]]*(?:equal|contribut)[^()\[\]]*)[)\]]",
    re.IGNORECASE,
)
# Trailing decoration: marks, (superscript) digits, "^1", commas, stray backquotes and underscores.
_TRAIL = re.compile(rf"(?:\s*(?:[{_MARK_CHARS}{_SUPERSCRIPTS},`_]|\^\s*[\w,]+|(?<=\D)\d{{1,2}}(?:,\d{{1,2}})*))+$")
_LEAD = re.compile(rf"^(?:[{_MARK_CHARS}{_SUPERSCRIPTS}\s]+|and\s+)")


def split_names(raw: str, *, keep_empty: bool = False) -> list[str]:
    """Cleaned names of a ``;``-joined author list (SIGGRAPH: ``,``-joined).

    Entities are decoded first, so the ``;`` of ``O&#x27;Brien`` neither splits the name
    nor hides a comma-joined list. ``keep_empty`` keeps ``""`` for places left without a
    name, so the list stays aligned with the affiliations and ids given beside it.
    """
    text = html.unescape(raw)
    separator = ";" if ";" in text or "," not in text else ","
    names = [clean_author_name(part) for part in text.split(separator)]
    return names if keep_empty else [name for name in names if name]


def clean_author_name(name: str) -> str:
    """``"Keyulu Xu*"`` -> ``"Keyulu Xu"``; ``""`` when nothing name-like is left.

    Only decoration is removed: initials, "Jr.", hyphens, apostrophes, nicknames in
    parentheses and non-Latin scripts stay as they are.
    """
    name = _INVISIBLE.sub("", html.unescape(name))
    name = _SPACE.sub(" ", repair_diacritics(name)).strip()
    if "(" in name or "[" in name:
        name = _NOTE.sub("", name)
    previous = None
    while previous != name:
        previous = name
        name = _TRAIL.sub("", name).strip()
        name = _LEAD.sub("", name).strip()
    if not any(ch.isalpha() for ch in name):
        return ""
    return name


@cache
def _plurals() -> dict:
    with open(VOCAB / "keyword_plurals.toml", "rb") as f:
        data = tomllib.load(f)
    return {"keep": frozenset(data["keep"]), "irregular": dict(data["irregular"]),
            "keep_endings": tuple(data["keep_endings"])}


def singular(word: str) -> str:
    """The singular of one lower-case English word, or the word itself when unsure."""
    rules = _plurals()
    if word in rules["irregular"]:
        return rules["irregular"][word]
    if word in rules["keep"] or len(word) <= 3 or not word.isalpha() or word.endswith(rules["keep_endings"]):
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "shes", "ches", "xes", "zzes")):
        return word[:-2]
    if word.endswith("s"):
        return word[:-1]
    return word


def canonical_keyword(keyword: str) -> str:
    """Whitespace-normalised keyword with its last word singular: ``Diffusion Models`` -> ``Diffusion Model``.

    Case is kept for display; compare with :func:`keyword_key`.
    """
    text = _SPACE.sub(" ", repair_diacritics(keyword)).strip()
    head, _, last = text.rpartition(" ")
    lowered = last.lower()
    if text.lower() in _plurals()["keep"]:
        return text
    single = singular(lowered)
    if single == lowered:
        return text
    # Keep the original's letter case on the common prefix ("LLMs" -> "LLM", "Models" -> "Model").
    common = len(single) if lowered.startswith(single) else 0
    new_last = last[:common] + single[common:] if common else single
    return f"{head} {new_last}" if head else new_last


def merge_keywords(keywords: list[str]) -> list[str]:
    """Canonical keywords (last word singular) without repeats under :func:`keyword_key`, first spelling kept."""
    merged: dict[str, str] = {}
    for keyword in keywords:
        if keyword:
            merged.setdefault(keyword_key(keyword), canonical_keyword(keyword))
    return [keyword for key, keyword in merged.items() if key]


def keyword_key(keyword: str) -> str:
    """The facet key: lower case, accents kept, hyphens as spaces, last word singular."""
    text = canonical_keyword(keyword).lower().replace("-", " ")
    return _SPACE.sub(" ", text).strip()
