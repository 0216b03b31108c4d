"""PaperSearch implements SearchReads: every read the web depends on, with the same signature."""

from __future__ import annotations

import inspect

from services.search.reads import SearchReads
from services.search.service import PaperSearch


def reads_of(protocol: type) -> dict[str, inspect.Signature]:
    return {name: inspect.signature(member) for name, member in vars(protocol).items()
            if callable(member) and not name.startswith("_")}


def signature_gaps(cls: type) -> list[str]:
    """Methods of SearchReads that ``cls`` lacks or declares with other parameters or answers."""
    gaps = []
    for name, wanted in reads_of(SearchReads).items():
        method = getattr(cls, name, None)
        if method is None:
            gaps.append(f"{name}: missing")
        elif inspect.signature(method) != wanted:
            gaps.append(f"{name}{inspect.signature(method)} is not {name}{wanted}")
    return gaps


def test_the_protocol_lists_every_read_the_web_makes():
    assert set(reads_of(SearchReads)) == {
        "search", "like_text", "export", "trends", "venue_years", "feed", "paper", "similar", "suggest",
        "overview", "author", "canonical_author", "conference", "ready"}


def test_paper_search_implements_it():
    assert signature_gaps(PaperSearch) == []
