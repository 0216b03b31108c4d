"""Keywords as written -> one spelling per keyword: whitespace and accents repaired, the last word singular.

"Diffusion Models" and "diffusion model" are one facet value; the plural rules and their exceptions
are data (``vocab/keyword_plurals.toml``).
"""

from __future__ import annotations

import re
import tomllib
from functools import cache
from pathlib import Path

from .diacritics import repair_diacritics

VOCAB = Path(__file__).with_name("vocab")

_SPACE = re.compile(r"\s+")


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
