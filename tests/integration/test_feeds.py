"""Atom feeds of searches: valid for a real parser, newest first, linked from pages, cached, fresh after an ingest."""

from __future__ import annotations

import json
import re
import uuid

import feedparser
import pytest

from conftest import SAMPLE, drop_alias, run_ingest
from services.search.catalogue import venues
from services.search.records.name_keys import block_key
from services.settings import load_settings
from services.web.app import create_app

pytestmark = pytest.mark.integration

PUBLIC = "https://papers.example.org"


def _feed(client, **params):
    resp = client.get("/search.atom", query_string=params or None)
    assert resp.status_code == 200, resp.get_data(as_text=True)[:300]
    assert resp.mimetype == "application/atom+xml"
    feed = feedparser.parse(resp.get_data())
    assert feed.bozo == 0, feed.get("bozo_exception")
    assert feed.version == "atom10"
    return resp, feed


@pytest.mark.parametrize("params", [{}, {"q": "learning"}, {"conference": "iclr"}, {"topic": "computer-vision"},
                                    {"q": "zzzqqqxxyy"}, {"status": ["reject", "withdrawn"]}, {"q": "<b> & \"x\""},
                                    {"conference": "siggraph", "year": "2023-2025"}])
def test_feeds_validate_and_list_the_search_newest_first(client, params):
    _, feed = _feed(client, **params)
    search = client.get("/api/v1/search", query_string={**params, "sort": "newest", "page_size": 50}).get_json()
    assert [e.link for e in feed.entries] == [h["url"].replace("http://localhost", "http://127.0.0.1:8000")
                                              for h in search["hits"]]
    assert [e.title for e in feed.entries] == [h["title"] for h in search["hits"]]
    years = [h["year"] for h in search["hits"]]
    assert years == sorted(years, reverse=True)
    for entry, hit in zip(feed.entries, search["hits"], strict=True):
        assert entry.id == entry.link and entry.id.startswith("http://127.0.0.1:8000/papers/")
        # Dated by the paper (its conference's month), not by when it was indexed.
        held = venues.held_on(hit["conference"], hit["year"]).isoformat()
        assert entry.published == entry.updated == f"{held}T00:00:00Z"
    if feed.entries:
        assert feed.feed.updated == max(e.updated for e in feed.entries)


def test_feed_urls_come_from_the_public_url_and_escape_everything(web_settings):
    app = create_app(load_settings(ES_URL=web_settings.es_url, PAPERLIST_INDEX=web_settings.index,
                                   REDIS_URL=web_settings.redis_url, PAPERLIST_PUBLIC_URL=PUBLIC + "/"))
    client = app.test_client()
    resp = client.get("/search.atom", query_string={"q": "learning", "conference": "iclr"},
                      headers={"Host": "evil.example.com"})
    feed = feedparser.parse(resp.get_data())
    assert feed.bozo == 0 and feed.entries
    assert feed.feed.id == f"{PUBLIC}/search.atom?conference=iclr&q=learning"
    assert all(e.id.startswith(f"{PUBLIC}/papers/") for e in feed.entries)
    assert "evil.example.com" not in resp.get_data(as_text=True)
    assert "ICLR" in feed.feed.title and "learning" in feed.feed.title


def test_feed_is_cached_like_search(client):
    resp, _ = _feed(client, q="learning")
    assert resp.headers["Cache-Control"].startswith("public, max-age=")
    again = client.get("/search.atom?q=learning", headers={"If-None-Match": resp.headers["ETag"]})
    assert again.status_code == 304


def test_bad_feed_parameters_are_a_400(client):
    assert client.get("/search.atom?year=20x1").status_code == 400


@pytest.mark.parametrize("path", ["/search?q=learning", "/conferences/iclr", "/conferences/iclr/2018",
                                  "/topics/computer-vision"])
def test_results_pages_link_their_feed(client, path):
    html = client.get(path).get_data(as_text=True)
    head = html.split("</head>")[0]
    href = re.search(r'<link rel="alternate" type="application/atom\+xml" title="[^"]+" href="([^"]+)">', head)
    assert href, path
    url = href.group(1).replace("&amp;", "&")
    assert url.startswith("/search.atom")
    feed = feedparser.parse(client.get(url).get_data())
    assert feed.bozo == 0 and feed.entries


def test_author_page_links_the_authors_feed(client):
    name = client.get("/api/v1/search", query_string={"q": "learning", "page_size": 1}).get_json()["hits"][0]["authors"][0]
    page = client.get(f"/authors/{name}", follow_redirects=True)  # the person's page, or the name's
    html = page.get_data(as_text=True)
    href = re.search(r'<link rel="alternate" type="application/atom\+xml" title="[^"]+" href="([^"]+)">',
                     html.split("</head>")[0]).group(1).replace("&amp;", "&")
    assert href.startswith("/people/") == page.request.path.startswith("/people/")  # a person's feed is theirs
    resp = client.get(href)
    feed = feedparser.parse(resp.get_data())
    assert feed.bozo == 0 and feed.entries
    assert all(any(block_key(a.name) == block_key(name) for a in e.authors) for e in feed.entries)


def test_a_new_ingest_appears_in_the_matching_feed(settings, celery_app, es, redis_client, worker, tmp_path):
    alias = f"test-feed-{uuid.uuid4().hex[:8]}"
    try:
        run_ingest(settings, celery_app, es, redis_client, [SAMPLE / "iclr"], alias, rejects_dir=tmp_path)
        # The app and the indexer share one Redis, as deployed: an ingest's generation bump reaches the cache.
        client = create_app(load_settings(ES_URL=settings.es_url, PAPERLIST_INDEX=alias,
                                          REDIS_URL=settings.redis_url)).test_client()
        _, before = _feed(client, conference="iclr")
        title = f"A Freshly Ingested Paper on Feeds {uuid.uuid4().hex[:6]}"
        extra = tmp_path / "new" / "iclr" / "iclr2099.json"
        extra.parent.mkdir(parents=True)
        extra.write_text(json.dumps([{"id": "fresh-1", "title": title, "author": "Ada Lovelace; Alan Turing",
                                      "abstract": "Feeds & <readers> should see this.", "status": "Poster"}]))
        summary = run_ingest(settings, celery_app, es, redis_client, [extra], alias, rejects_dir=tmp_path)
        assert summary.indexed == 1
        _, after = _feed(client, conference="iclr")
        assert title not in [e.title for e in before.entries]
        newest = after.entries[0]
        assert newest.title == title and [a.name for a in newest.authors] == ["Ada Lovelace", "Alan Turing"]
        assert newest.summary == "Feeds & <readers> should see this."
        assert after.feed.updated == newest.updated >= before.feed.updated
        _, other = _feed(client, conference="iclr", year="2013-2026")  # the alias has ICLR alone
        assert title not in [e.title for e in other.entries]
    finally:
        drop_alias(es, alias)
