"""PaperSearch implements SearchReads: every read the web depends on, with the same signature."""

from __future__ import annotations

from fake_reads import FakeReads, signature_gaps

from services.search.reads import SearchReads
from services.search.service import PaperSearch


def test_the_protocol_lists_every_read_the_web_makes():
    assert {name for name in vars(SearchReads) if not name.startswith("_") and callable(vars(SearchReads)[name])} == {
        "search", "like_text", "export", "trends", "venue_years", "institutions", "feed", "paper", "papers_by_id",
        "similar", "suggest", "overview", "author", "conference", "ready", "venue_map", "map_matches", "person",
        "people_named", "people", "followed_sources", "venue_matches"}


def test_paper_search_implements_it():
    assert signature_gaps(PaperSearch) == []


def test_the_fake_of_the_web_tests_implements_it_too():
    assert signature_gaps(FakeReads) == [] and isinstance(FakeReads(), SearchReads)
