"""Keys that group spellings of one author name (case, accents, middle initials).

They live on the read side because the web looks authors up by key; the indexer stores
them (``author_keys``). A key never decides who is who: two people may share one.
"""

from __future__ import annotations

import re
import unicodedata

_SPACE = re.compile(r"\s+")
_INITIAL = re.compile(r"^[^\W\d_]{1,2}\.?$|^[^\W\d_]\.(?:-?[^\W\d_]\.)+$")
_UNDECOMPOSABLE = str.maketrans({"ł": "l", "Ł": "L", "ø": "o", "Ø": "O", "đ": "d", "Đ": "D", "ı": "i",
                                 "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "ß": "ss", "þ": "th", "ð": "d"})


def strip_accents(text: str) -> str:
    """ASCII-ish folding for keys: ``Université`` -> ``Universite``, ``Łódź`` -> ``Lodz``."""
    if text.isascii():  # most names: nothing to fold
        return text
    decomposed = unicodedata.normalize("NFKD", text.translate(_UNDECOMPOSABLE))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


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


# A person's name block (the people pass compares only author places of one block; a name's page lists
# its people): the folded name with dots as spaces, hyphens and apostrophes inside a part dropped, and
# middle initials dropped. Why these foldings: services/indexer/corpus/people/names.py.
_INNER = re.compile(r"[-‐‑'’`]")
_DOTS = re.compile(r"\.")


def name_parts(name: str) -> list[str]:
    """The folded parts of a name: case and accents folded, dots split, hyphens inside a part dropped."""
    return [p for p in (_INNER.sub("", part) for part in _DOTS.sub(" ", author_key(name)).split()) if p]


def block_key(name: str) -> str:
    """The block of a name: its parts without middle initials (the first and last part stay whatever they are):
    ``Tommi S. Jaakkola`` and ``Tommi Jaakkola``, ``Jian-Xun Wang`` and ``Jianxun Wang`` share one."""
    parts = name_parts(name)
    if len(parts) <= 2:
        return " ".join(parts)
    return " ".join([parts[0], *(p for p in parts[1:-1] if len(p) > 1), parts[-1]])
