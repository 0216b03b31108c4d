"""The Atom feed of a search: ids from the public URL, newest first, XML-safe text."""

from __future__ import annotations

import feedparser
from fake_reads import FakeReads, fake_app

from services.search.records.model import Paper


def test_a_search_feed():
    client = fake_app().test_client()
    resp = client.get("/search.atom", query_string={"q": "graph", "Host": "evil.example"},
                      headers={"Host": "evil.example"})
    assert resp.status_code == 200 and resp.mimetype == "application/atom+xml"
    feed = feedparser.parse(resp.get_data())
    assert feed.bozo == 0 and [e.title for e in feed.entries] == ["Graph Neural Networks at Scale",
                                                                  "Graph Attention Networks"]
    assert all(e.id.startswith("https://papers.example.org/papers/") for e in feed.entries)
    assert "evil.example" not in resp.get_data(as_text=True)
    assert feed.feed.title == "paperlist — “graph”"


def test_an_entry_is_dated_by_its_paper_not_by_the_index():
    feed = feedparser.parse(fake_app().test_client().get("/search.atom", query_string={"q": "graph"}).get_data())
    # NeurIPS is held in December (catalogue: month = 12), ICLR in April; the index time plays no part.
    assert [(e.published, e.updated) for e in feed.entries] == [
        ("2024-12-01T00:00:00Z", "2024-12-01T00:00:00Z"), ("2018-04-01T00:00:00Z", "2018-04-01T00:00:00Z")]
    assert feed.feed.updated == "2024-12-01T00:00:00Z"  # the feed is as new as its newest entry


def test_a_venue_the_catalogue_has_no_month_for_is_dated_january():
    paper = Paper(paper_id="x-2020-1", conference="somewhere", conference_name="Somewhere", year=2020,
                  title="Graph Things")
    feed = feedparser.parse(fake_app(FakeReads(papers=(paper,))).test_client().get("/search.atom").get_data())
    assert feed.entries[0].published == "2020-01-01T00:00:00Z"
