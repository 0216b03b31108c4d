"""The Atom feed of a search: ids from the public URL, newest first, XML-safe text."""

from __future__ import annotations

import feedparser
from fake_reads import fake_app


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
