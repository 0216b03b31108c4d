"""One display form per institution: ``MIT``, ``Massachusetts Institute of Technology, Cambridge, MA, USA``
and ``Massachusetts institute of technology`` all show as ``Massachusetts Institute of Technology``.

A spelling is folded to a key (accents, case, punctuation, "Univ." -> "University",
"&" -> "and", a leading "The", a trailing country or "City, ST, USA"), the curated alias
table maps keys of the same institution together, and the display table gives each key
its most frequent spelling in the corpus. Sub-units ("Department of X, Y University")
and distinct campuses ("University of California, Berkeley") stay apart on purpose.
"""

from __future__ import annotations

import html
import re
import tomllib
from functools import cache
from pathlib import Path

from .diacritics import repair_diacritics, strip_accents

VOCAB = Path(__file__).with_name("vocab")
MAX_AFFILIATION = 300

_SPACE = re.compile(r"\s+")
_TRIM = " ,;*∗†‡§¶¹²³⁴⁵⁶⁷⁸⁹⁰♠♣♥♦⋆"  # footnote marks too: "Université Laval*", "Google DeepMind♠"
_PUNCT = re.compile(r"[\s.,;:!?'\"’‘“”()\[\]{}/\\|_–—-]+")
_ZIP = re.compile(r"^(?:[A-Z]{1,2}[- ]?)?\d[\d -]{2,9}$|^[A-Z]{2} \d{5}(?:-\d{4})?$")
_DEPARTMENT = re.compile(r"(^|,\s*)([^,]+?) department(?=,|$)")  # "CS Department" = "Department of CS"
_ACRONYM = re.compile(r"\s*\(\s*[A-Z][A-Z0-9&.\-]{1,10}\s*\)\s*$")
_WORDS = [(re.compile(pattern, re.IGNORECASE), repl) for pattern, repl in (
    (r"&", " and "),
    (r"\buniv\b\.?", "university"),
    (r"\binst\b\.?", "institute"),
    (r"\btech\.", "technology"),
    (r"\bdept\b\.?", "department"),
    (r"\bnat'?l\b\.?", "national"),
    (r"\b(?:co\.,?\s*)?ltd\b\.?|\binc\b\.?|\bcorp(?:oration)?\b\.?|\bllc\b\.?|\bgmbh\b", " "),
)]


@cache
def _locations() -> dict:
    with open(VOCAB / "locations.toml", "rb") as f:
        data = tomllib.load(f)
    return {
        "places": frozenset(_fold_words(p) for p in data["countries"] + data["regions"]),
        "codes": frozenset(data["region_codes"]),
        "systems": frozenset(_fold_words(s) for s in data["campus_systems"]),
    }


@cache
def aliases() -> dict[str, str]:
    """Alias key -> canonical key (the key of the first name of its group) from the curated table."""
    with open(VOCAB / "affiliation_aliases.toml", "rb") as f:
        groups = tomllib.load(f)["institution"]
    table: dict[str, str] = {}
    for group in groups:
        canonical = affiliation_key(group["names"][0])
        for name in group["names"]:
            alias = affiliation_key(name)
            if table.get(alias, canonical) != canonical:
                raise ValueError(f"affiliation {name!r} is listed under two institutions")
            table[alias] = canonical
    return table


@cache
def _display() -> dict[str, str]:
    """Canonical key -> display spelling: the generated table, else a curated group's first name."""
    with open(VOCAB / "affiliation_aliases.toml", "rb") as f:
        groups = tomllib.load(f)["institution"]
    table = {affiliation_key(group["names"][0]): group["names"][0] for group in groups}
    shown: dict[str, str] = {}
    with open(VOCAB / "affiliation_display.toml", "rb") as f:
        for name in tomllib.load(f)["display"]:
            key = canonical_key(name)
            if key in shown:  # one institution, one name: a new alias group must keep one of its spellings here
                raise ValueError(f"affiliation_display.toml shows one institution as {shown[key]!r} and {name!r}")
            shown[key] = table[key] = name
    return table


def clean_affiliation(text: str) -> str:
    """Repaired, whitespace-normalised spelling without repeated parts or a trailing location."""
    text = _SPACE.sub(" ", repair_diacritics(html.unescape(text))).strip(_TRIM)[:MAX_AFFILIATION]
    parts = [p.strip() for p in text.split(",") if p.strip()]
    unique: list[str] = []
    for part in parts:  # "Tsinghua University, Tsinghua University"
        if not unique or part.casefold() != unique[-1].casefold():
            unique.append(part)
    return ", ".join(_drop_location(unique))


def _drop_location(parts: list[str]) -> list[str]:
    """Drop "Cambridge, MA 02139, USA": trailing countries, states, postcodes, then the city."""
    loc = _locations()
    end = len(parts)
    while end > 1 and (_fold_words(parts[end - 1]) in loc["places"] or _is_code(parts[end - 1], loc["codes"])):
        end -= 1
    dropped = end < len(parts)
    if dropped and end > 1 and _looks_like_city(parts[end - 1]) and _fold_words(parts[end - 2]) not in loc["systems"]:
        end -= 1
    return parts[:end]


def _is_code(part: str, codes: frozenset[str]) -> bool:
    return part in codes or bool(_ZIP.match(part)) or (part.split(" ")[0] in codes and bool(_ZIP.match(part)))


_INSTITUTION_WORDS = ("univ", "inst", "lab", "college", "school", "center", "centre", "research", "academy",
                      "department", "faculty", "hospital", "group", "ai", "tech", "polytechnic", "campus")


def _looks_like_city(part: str) -> bool:
    words = _fold_words(part).split()
    return 0 < len(words) <= 3 and not any(w.startswith(_INSTITUTION_WORDS) for w in words)


def _fold_words(text: str) -> str:
    return _SPACE.sub(" ", _PUNCT.sub(" ", strip_accents(text).casefold())).strip()


def affiliation_key(text: str) -> str:
    """The folding key (``universitytexasaustin``): two spellings with one key are one institution."""
    text = clean_affiliation(text)
    acronym = _ACRONYM.search(text)
    if acronym and len(text[: acronym.start()].split()) >= 3:  # "Korea ... Technology (KAIST)", not "HKUST (GZ)"
        text = text[: acronym.start()]
    text = _DEPARTMENT.sub(r"\1department of \2", strip_accents(text).casefold())
    for pattern, repl in _WORDS:
        text = pattern.sub(repl, text)
    # Small words and spaces go: "University of Texas at Austin" = "University of Texas, Austin",
    # "Shanghai Jiaotong" = "Shanghai Jiao Tong". Word order stays: "Washington University" is not
    # the "University of Washington".
    return "".join(w for w in _fold_words(text).split(" ") if w not in _SMALL_WORDS)


_SMALL_WORDS = frozenset({"the", "of", "at", "and", "in", "for"})


@cache
def _placeholders() -> frozenset[str]:
    """Keys of what sources write for an unknown affiliation ("Under double-blind review", "N/A")."""
    with open(VOCAB / "affiliation_aliases.toml", "rb") as f:
        return frozenset(affiliation_key(p) for p in tomllib.load(f).get("placeholders", ()))


def canonical_affiliation(text: str) -> str:
    """The display form of an affiliation: curated, else the corpus's most frequent spelling, else
    cleaned; "" for a placeholder."""
    cleaned = clean_affiliation(text)
    if not cleaned or affiliation_key(cleaned) in _placeholders():
        return ""
    return _display().get(canonical_key(cleaned), cleaned)


def canonical_key(text: str) -> str:
    """The key of the institution: the folding key, through the curated aliases."""
    key = affiliation_key(text)
    return aliases().get(key, key)
