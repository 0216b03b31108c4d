"""A record's authors as written -> :class:`Author` values: names cleaned, repeats dropped, each given its
affiliations where the source aligns them, else the paper's own list.

The reader says what the source gives (names, ids and the ways it aligns affiliations, as written); the
decisions that need the cleaned values are made here, for every format alike: a list written twice over
is read once, a place whose name cleans to nothing or repeats an earlier name makes no author, and an
alignment counts only when its cleaned affiliations fit the author places and say something.
"""

from __future__ import annotations

from functools import lru_cache

from services.indexer.cleaning.affiliations import canonical_affiliation
from services.indexer.cleaning.authors import clean_author_name
from services.indexer.cleaning.text import clean_text
from services.indexer.sources.base import Alignment, SourceAuthors
from services.search.records.model import Author
from services.search.records.name_keys import author_key

MAX_AUTHORS = 500


def authors_of(given: SourceAuthors) -> tuple[list[Author], list[str]]:
    """``(authors, the paper's affiliations)``: the second only when no alignment fits the authors."""
    names = _undouble([clean_author_name(clean_text(name)) for name in given.names])
    ids = _undouble([clean_text(i) for i in given.profiles])
    orcids = [clean_text(o) for o in given.orcids]
    places = len(names) if any(names) else 0  # no names: the paper's list
    affs = next((aligned for a in given.alignments if (aligned := _aligned(a, places))), [])
    authors: list[Author] = []
    seen: set[str] = set()
    for i, name in enumerate(names[:MAX_AUTHORS]):
        key = author_key(name) if name else ""
        if not key or key in seen:
            continue
        seen.add(key)
        author_id = _at(ids, i)
        authors.append(Author(
            name=name,
            affiliation=_at(affs, i),
            orcid=_at(orcids, i),
            author_id="" if "@" in author_id else author_id,  # never publish e-mail addresses
        ))
    paper = [] if affs else list(dict.fromkeys(a for a in map(_display_affiliation, given.paper_affiliations) if a))
    return authors, paper


def _aligned(alignment: Alignment, places: int) -> list[str]:
    """Each place's affiliations in display form (``"A; B"``), or [] when they do not fit ``places``."""
    shown = ["; ".join(dict.fromkeys(a for a in map(_display_affiliation, place) if a))
             for place in alignment.places]
    if alignment.whole_paper and places > 1:
        shown = shown * places
    return shown if places and len(shown) == places and any(shown) else []


@lru_cache(maxsize=1 << 16)
def _display_affiliation(text: str) -> str:
    """Cached: a corpus repeats a few thousand institutions many times."""
    return canonical_affiliation(clean_text(text)).replace(";", ",")


def _undouble(items: list[str]) -> list[str]:
    """Some sources list every author twice ("A;B;A;B"); keep one copy so lists align."""
    half = len(items) // 2
    if half and len(items) % 2 == 0 and items[:half] == items[half:]:
        return items[:half]
    return items


def _at(items: list[str], i: int) -> str:
    return items[i] if i < len(items) else ""
