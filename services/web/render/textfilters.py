"""Jinja filters for the text of papers: rendered math and emphasis, snippets, plain tab titles, dates, counts."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from markupsafe import Markup

from .markup import render, render_highlighted
from .plaintext import plain_text

SNIPPET_CHARS = 240  # the highlighter's fragment size too (services/search/query/search_body.py)
ELLIPSIS = "…"
# A search box example that finds papers in the sample and in the full corpus (tests check it).
SEARCH_EXAMPLE = '"diffusion" year:2020-2025'
_TAG = re.compile(r"<[^>]*>")


def snippet(abstract: str, limit: int = SNIPPET_CHARS) -> Markup:
    """The abstract's start, cut at a word and ended with "…" when cut."""
    text = " ".join((abstract or "").split())
    if len(text) <= limit:
        return render(text)
    cut = text[:limit].rsplit(" ", 1)[0].rstrip(" ,;:.")
    return render(cut) + ELLIPSIS


def snippet_highlighted(fragment: str, abstract: str = "") -> Markup:
    """A highlighted fragment with "…" where it leaves out part of the abstract (same rule as :func:`snippet`)."""
    plain = " ".join(_TAG.sub("", fragment).split())
    whole = " ".join((abstract or "").split())
    out = render_highlighted(fragment)
    if whole and plain and not whole.startswith(plain[:40]):
        out = ELLIPSIS + out
    if whole and plain and not whole.endswith(plain[-40:]):
        out = out + ELLIPSIS
    return Markup(out)


def humanise(value: str) -> str:
    """``main`` -> ``Main``, ``datasets_and_benchmarks`` -> ``Datasets and benchmarks``."""
    text = re.sub(r"[_\s]+", " ", value or "").strip()
    return text[:1].upper() + text[1:]


def facet_label(value: str, facet: Any) -> str:
    return facet.value_label(value)


def quoted(text: str) -> str:
    """A query in curly quotes, as a heading says it; a query that is one quoted phrase already
    (``"in-context learning"``) keeps its own quotes, curled, not a second pair."""
    inner = text[1:-1] if len(text) >= 2 and text[0] == text[-1] == '"' and '"' not in text[1:-1] else text
    return f"“{inner}”"


def long_date(day: date) -> str:
    """A day as people write it: "14 December 2023"."""
    return f"{day.day} {day.strftime('%B %Y')}"


def estimate(count: int) -> str:
    """An estimated count as a page says it: "≈" and two significant figures ("≈ 24,000"), no false precision."""
    places = len(str(abs(count))) - 2
    return f"≈ {round(count, -places) if places > 0 else count:,}"


FILTERS = {"markup": render, "markup_highlighted": render_highlighted, "plain_text": plain_text,
           "snippet": snippet, "snippet_highlighted": snippet_highlighted, "humanise": humanise,
           "facet_label": facet_label, "long_date": long_date, "quoted": quoted,
           "estimate": estimate}
