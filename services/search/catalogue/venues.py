"""Known venues (conferences, journals, workshops): slug, display name, aliases — a view of the catalogue.

The registry only improves labels and merges aliases (``nips`` -> ``neurips``); it is
not an allow-list. An unknown slug is accepted and gets a label derived from it. The data
is ``catalogue/venues.toml``; ``KNOWN`` is read from it on first access.
"""

from __future__ import annotations

import re
from datetime import date

from .load import catalogue
from .model import Venue

KNOWN: tuple[Venue, ...]  # declared for readers and type checkers; bound by __getattr__
_SLUG_RE = re.compile(r"[^a-z0-9]+")


def __getattr__(name: str) -> tuple[Venue, ...]:
    """``KNOWN``: every catalogue venue, in display order (read lazily, not at import)."""
    if name == "KNOWN":
        return catalogue().venues
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def canonical_slug(value: str) -> str:
    """``NIPS`` -> ``neurips``; any other text becomes a lowercase ``[a-z0-9-]`` slug."""
    slug = _SLUG_RE.sub("-", value.strip().lower()).strip("-")
    return catalogue().aliases.get(slug, slug)


def lookup(slug: str) -> Venue:
    """The registry entry, or a synthesised one with a readable label (and no home topic)
    for an unknown slug."""
    slug = canonical_slug(slug)
    known = catalogue().venue(slug)
    if known:
        return known
    label = slug.upper() if len(slug) <= 6 else slug.replace("-", " ").title()
    return Venue.model_construct(slug=slug, name=label, full_name=label)


def label(slug: str) -> str:
    return lookup(slug).name


def catalogued(slug: str) -> bool:
    """Whether the catalogue lists the venue (its name is then more than a label made from the slug)."""
    return catalogue().venue(canonical_slug(slug)) is not None


def held_on(slug: str, year: int) -> date:
    """When a venue-year's papers appeared, as far as the catalogue knows: the 1st of the month the
    venue is usually held (``month``), January when it has none (journals, unknown venues).

    A paper's date for feeds: it does not move when the index is rebuilt.
    """
    return date(min(max(year, 1), 9999), lookup(slug).month or 1, 1)
