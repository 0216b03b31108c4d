"""Repair accents that PDF extraction and BibTeX left broken: ``Universit ´e`` is ``Université``
(and the ligatures extraction leaves: ``Artiﬁcial`` is ``Artificial``).

Sources copy names and affiliations out of PDFs, where an accent is a separate glyph
("Montr ´eal", "T´ el´ ecom", "Ku¨mmerle"), out of BibTeX (``Jos\\'{e}``), or through a
wrong encoding ("JosÃ© Neira"). Each repair only fires when the result is a single
precomposed letter, so ``Alex `Sandy' Pentland`` keeps its quotes.
"""

from __future__ import annotations

import re
import unicodedata

import ftfy
from ftfy.fixes import fix_latin_ligatures

from services.search.records.name_keys import strip_accents

__all__ = ["repair_diacritics", "strip_accents"]

# Spacing accent glyph (or a combining mark) -> the combining mark it stands for.
_SPACING = {
    "´": "\u0301", "`": "\u0300", "¨": "\u0308", "ˆ": "\u0302", "˜": "\u0303",
    "¸": "\u0327", "ˇ": "\u030c", "˚": "\u030a", "˘": "\u0306", "˝": "\u030b",
}
_MARKS = "".join(_SPACING) + "\u0300-\u036f"
_VOWELS = set("aeiouyAEIOUYıåäöüæøœ")
# Optional letter, optional space, the mark, optional space, optional letter.
_SPLIT = re.compile(rf"([^\W\d_]|[-’'])?( ?)([{_MARKS}])( ?)([^\W\d_])?")
_LATEX_ACCENT = re.compile(r"""\\([`'^"~=.uvHc])\s*(?:\{\s*(\\?[A-Za-z])\s*\}|(\\?[A-Za-z]))""")
_LATEX_ACCENTS = {
    "`": "\u0300", "'": "\u0301", "^": "\u0302", '"': "\u0308", "~": "\u0303", "=": "\u0304",
    ".": "\u0307", "u": "\u0306", "v": "\u030c", "H": "\u030b", "c": "\u0327",
}
_LATEX_LETTERS = {r"\i": "ı", r"\j": "ȷ", r"\l": "ł", r"\L": "Ł", r"\o": "ø", r"\O": "Ø", r"\ss": "ß",
                  r"\ae": "æ", r"\AE": "Æ", r"\oe": "œ", r"\OE": "Œ", r"\aa": "å", r"\AA": "Å"}
_LATEX_LETTER = re.compile(r"\{?(\\(?:ss|ae|AE|oe|OE|aa|AA|[ijlLoO]))(?![A-Za-z])\}?")
_MOJIBAKE = re.compile("[ÃÂÅÄ][\u0080-\u00bf]")


def _compose(letter: str, mark: str) -> str | None:
    """The precomposed letter, or None when Unicode has none (no ``S`` with a grave)."""
    if letter == "ı":
        letter = "i"  # dotless i + accent is how PDFs spell í and ï
    combined = unicodedata.normalize("NFC", letter + _SPACING.get(mark, mark))
    return combined if len(combined) == 1 else None


def _repair_split(match: re.Match) -> str:
    before, gap_before, mark, gap_after, after = match.groups()
    before, after = before or "", after or ""
    whole = match.group(0)
    combining = mark not in _SPACING
    if combining and not gap_before:
        return whole  # a combining mark right after its letter is already right
    # An ASCII backquote closes quotes and ends words ("Amelia Hardy`"): it only accents the next letter.
    back = _compose(before, mark) if before.isalpha() and not gap_before and mark != "`" else None
    forward = _compose(after, mark) if after and not (gap_after and not (before or gap_before)) else None
    if mark == "¸":  # a cedilla hangs under the c or s before it; elsewhere it is a misread accent
        return before + "\u0327" + gap_after + after if before in "cCsS" and not gap_before else whole
    if back and forward:  # "Narc´is" -> í, "Jardo´n" -> ó: the accent sits on the vowel
        if (before in _VOWELS) != (after in _VOWELS):
            forward = None if before in _VOWELS else forward
        back = None if forward else back
    if forward:
        # "Universit ´e" and "Saint- ´Etienne" join; "Inria, ´Ecole" and "Laboratory ´Ecole" keep the space.
        keep = gap_before and (not before or (before.isalpha() and after.isupper()))
        return before + (gap_before if keep else "") + forward
    if back:
        return back + gap_after + after
    return whole


def _latex(text: str) -> str:
    def accent(m: re.Match) -> str:
        letter = m.group(2) or m.group(3)
        letter = _LATEX_LETTERS.get(letter, letter)
        return _compose(letter, _LATEX_ACCENTS[m.group(1)]) or m.group(0)

    text = _LATEX_ACCENT.sub(accent, text)
    if "\\" in text:
        text = _LATEX_LETTER.sub(lambda m: _LATEX_LETTERS[m.group(1)], text)
    return text.replace("{", "").replace("}", "") if "\\" not in text and "{" in text and "}" in text else text


def repair_diacritics(text: str) -> str:
    """Join split accents, decode BibTeX accents and UTF-8 read as Latin-1, spell ligatures out
    ("Artiﬁcial"), then NFC."""
    text = fix_latin_ligatures(text)
    if _MOJIBAKE.search(text):
        text = ftfy.fix_encoding(text)
    if "\\" in text:
        text = _latex(text)
    if _has_mark(text):
        text = _SPLIT.sub(_repair_split, text)
        text = re.sub("ı(?=[\u0300-\u036f])", "i", text)
    return unicodedata.normalize("NFC", text)


def _has_mark(text: str) -> bool:
    if text.isascii():  # the one ASCII spacing mark is the backtick
        return "`" in text
    return any(ch in _SPACING or "\u0300" <= ch <= "\u036f" for ch in text)
