"""Line-break hyphens that PDF extraction left in abstracts ("con- sists"), repaired.

A word broken across two lines of a PDF comes out as ``X- y``: the hyphen and a space
where the line ended. Which word it was is decided with the English dictionary the index
stems with (``deploy/elasticsearch/hunspell``: en_US plus the domain supplement):

* before a conjunction the hyphen is meant: ``pre- and post-training`` stays;
* when ``Xy`` is a word, the pair was that word: ``con- sists`` -> ``consists``;
* before a word that begins a clause it was a dash: ``values- the model`` stays;
* when both halves are words (or the first is an acronym, ``CNN- based``) and ``Xy`` is
  not, it was a compound broken at its hyphen: ``high- dimensional`` -> ``high-dimensional``;
* otherwise it was a word the dictionary does not know, broken in the middle:
  ``FlashAtten- tion`` -> ``FlashAttention``.

Words are checked as hunspell would: a stem of the ``.dic`` files, or a stem with the
prefixes and suffixes its flags allow (``consist/SDG`` gives "consists").
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

log = logging.getLogger(__name__)
DICTIONARY = Path(__file__).resolve().parents[3] / "deploy" / "elasticsearch" / "hunspell" / "en_US"
CONJUNCTIONS = frozenset(("and", "or", "nor", "but", "vs", "versus"))
# After "X- " these begin a clause: the hyphen was a dash ("values- the model ...").
FUNCTION_WORDS = frozenset((
    "a", "an", "are", "as", "at", "be", "by", "can", "for", "has", "have", "in", "is", "it", "its", "may",
    "of", "on", "our", "that", "the", "their", "these", "this", "those", "thus", "to", "was", "we", "were",
    "which", "while", "who", "will", "with"))
_BROKEN = re.compile(r"\b([A-Za-z]{2,})- ([a-z]{2,})\b")


@dataclass(frozen=True)
class Affix:
    """One hunspell affix rule: for stems flagged ``flag`` and matching ``condition``, ``strip`` -> ``add``."""

    flag: str
    strip: str
    add: str
    condition: re.Pattern[str]


@dataclass(frozen=True)
class Dictionary:
    """Stems with their affix flags, and the rules: enough to tell whether a word is English."""

    stems: dict[str, str]  # lower-cased stem -> its flags
    prefixes: tuple[Affix, ...]
    suffixes: tuple[Affix, ...]

    def __contains__(self, text: str) -> bool:
        word = text.lower()
        return self._with_suffix(word) or any(
            word.startswith(p.add) and self._with_suffix(p.strip + word[len(p.add):], prefix=p)
            for p in self.prefixes)

    def _with_suffix(self, word: str, prefix: Affix | None = None) -> bool:
        if self._has(word, prefix):
            return True
        return any(word.endswith(s.add) and self._has(stem := word[: len(word) - len(s.add)] + s.strip, prefix, s)
                   and s.condition.search(stem) for s in self.suffixes)

    def _has(self, stem: str, *affixes: Affix | None) -> bool:
        flags = self.stems.get(stem)
        return flags is not None and all(a.flag in flags for a in affixes if a)


@lru_cache(maxsize=1)
def dictionary() -> Dictionary | None:
    """The index's dictionaries (en_US and the domain supplement), read once per process; None without them."""
    if not (DICTIONARY / "en_US.aff").is_file():
        log.warning("no dictionary at %s: line-break hyphens in abstracts are left as they are", DICTIONARY)
        return None
    stems: dict[str, str] = {}
    for path in sorted(DICTIONARY.glob("*.dic")):
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines()[1:]:
            stem, _, flags = line.strip().partition("/")
            stems[stem.lower()] = stems.get(stem.lower(), "") + flags
    rules: dict[str, list[Affix]] = {"PFX": [], "SFX": []}
    for line in (DICTIONARY / "en_US.aff").read_text(encoding="utf-8", errors="replace").splitlines():
        parts = line.split()
        if len(parts) >= 5 and parts[0] in rules:
            kind, flag, strip, add, condition = parts[:5]
            pattern = f"^{condition}" if kind == "PFX" else f"{condition}$"
            rules[kind].append(Affix(flag, "" if strip == "0" else strip, "" if add == "0" else add.split("/")[0],
                                     re.compile("" if condition == "." else pattern)))
    return Dictionary(stems, tuple(rules["PFX"]), tuple(rules["SFX"]))


def is_word(text: str) -> bool:
    """Whether ``text`` is an English word (a dictionary stem, or one with the affixes its flags allow)."""
    known = dictionary()
    return known is not None and text in known


def repair(text: str) -> str:
    """``text`` with every line-break hyphen of a broken word repaired (see the module docstring)."""
    if "- " not in text or dictionary() is None:
        return text
    return _BROKEN.sub(_join, text)


def _join(match: re.Match[str]) -> str:
    first, second = match.group(1), match.group(2)
    if second in CONJUNCTIONS:
        return match.group(0)
    if is_word(first + second):
        return first + second
    if second in FUNCTION_WORDS:
        return match.group(0)
    acronym = any(ch.isupper() for ch in first[1:])
    if (acronym or is_word(first)) and is_word(second):
        return f"{first}-{second}"
    return first + second
