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

from .affiliations import affiliation_key, canonical_affiliation
from .diacritics import repair_diacritics, strip_accents

__all__ = [
    "affiliation_key", "author_key", "canonical_affiliation", "canonical_keyword", "clean_author_name",
    "coauthor_key", "keyword_key", "repair_diacritics", "split_names",
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
_INITIAL = re.compile(r"^[^\W\d_]{1,2}\.?$|^[^\W\d_]\.(?:-?[^\W\d_]\.)+$")


def split_names(raw: str) -> list[str]:
    """Cleaned names of a ``;``-joined author list (SIGGRAPH: ``,``-joined).

    Entities are decoded first, so the ``;`` of ``O&#x27;Brien`` neither splits the name
    nor hides a comma-joined list.
    """
    text = html.unescape(raw)
    separator = ";" if ";" in text or "," not in text else ","
    return [name for name in (clean_author_name(part) for part in text.split(separator)) if name]


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


def author_key(name: str) -> str:
    """Case- and accent-insensitive key: ``Yoshua Bengio``, ``yoshua bengio`` and ``YOSHUA BENGIÓ`` meet."""
    return _SPACE.sub(" ", strip_accents(name).casefold()).strip()


def coauthor_key(name: str) -> str:
    """``Aaron C. Courville`` and ``Aaron Courville`` share a key: middle initials dropped.

    Only for grouping co-authors on a page; two people may share the key.
    """
    parts = author_key(name).replace(".", ". ").split()
    if len(parts) <= 2:
        return " ".join(parts)
    middle = [p for p in parts[1:-1] if not _INITIAL.match(p)]
    return " ".join([parts[0], *middle, parts[-1]])


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


def keyword_key(keyword: str) -> str:
    """The facet key: lower case, accents kept, hyphens as spaces, last word singular."""
    text = canonical_keyword(keyword).lower().replace("-", " ")
    return _SPACE.sub(" ", text).strip()
