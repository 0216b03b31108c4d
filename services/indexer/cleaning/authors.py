"""Author names as written -> as shown: the equal-contribution and footnote marks sources add removed.

Sources decorate names with equal-contribution and footnote marks ("Keyulu Xu*", "Ömer Morgül1",
"Lihe Zhang¹") that would otherwise make new authors. Only decoration goes: initials, "Jr.", hyphens,
apostrophes, nicknames in parentheses and non-Latin scripts stay. Who is who is not decided here (the
people pass decides it, over the corpus); the keys that group spellings live in
:mod:`services.search.records.name_keys`, where the site reads them too.
"""

from __future__ import annotations

import html
import re

from .diacritics import repair_diacritics

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
