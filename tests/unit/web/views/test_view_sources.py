"""The freshness page and its JSON (services/web/views/sources.py), what's new (/new, /new.atom, /api/v1/new) and the
admin API's followed sources (services/web/views/admin.py), over the in-memory search layer."""

import re
from datetime import datetime, timedelta, timezone

import pytest
from fake_reads import FakeReads, _paper, conforms, fake_app

from services.search.limits import MAX_SINCE
from services.search.records.followed import FollowedSource

RECENT = (datetime.now(timezone.utc) - timedelta(days=6)).date().isoformat()  # within since='s year, whenever run

OK = FollowedSource(url="https://example.org/iclr/iclr2025.json", venue_years=("iclr:2025",), papers=11_670,
                    checked_at="2026-12-07T06:00:00+00:00", changed_at="2026-12-01T06:00:00+00:00",
                    next_check="2026-12-07T12:00:00+00:00", outcome="unchanged")
FAILING = FollowedSource(url="https://example.org/icml/icml2026.json", venue_years=("icml:2026",), papers=6_628,
                         checked_at="2026-12-07T06:05:00+00:00", outcome="failed", failures=4,
                         last_error="HTTP 500 Internal Server Error")


@pytest.fixture
def reads():
    return FakeReads(papers=(_paper(1, "Graph Attention Networks", "iclr", 2025),), followed=[OK, FAILING])


@pytest.fixture
def client(reads):
    return fake_app(reads).test_client()


def test_the_freshness_page_lists_each_source_and_shows_a_failing_one_red_first(client):
    resp = client.get("/about/sources")
    page = resp.get_data(as_text=True)
    assert resp.status_code == 200 and "s-maxage" in resp.headers["Cache-Control"]
    rows = re.findall(r'<tr( class="failing")? id="([^"]+)"', page)
    assert rows == [(' class="failing"', "icml-2026"), ("", "iclr-2025")]
    assert "11,670" in page and "2026-12-01 06:00:00 UTC" in page and "4 in a row" in page
    assert "1 source failing now" in page


def test_the_api_lists_the_same_sources(client):
    data = client.get("/api/v1/sources").get_json()
    conforms(data, "FollowedSources")
    assert [(s["venue_years"], s["failing"], s["papers"]) for s in data["sources"]] == [
        (["iclr:2025"], False, 11_670), (["icml:2026"], True, 6_628)]
    assert "last_error" not in data["sources"][1], "an operator's detail, not the public list's"


def test_the_footer_and_a_venue_year_link_to_the_freshness_page(client):
    page = client.get("/conferences/iclr/2025").get_data(as_text=True)
    assert 'href="/about/sources"' in page and 'href="/new"' in page
    assert 'href="/about/sources#iclr-2025"' in page


@pytest.mark.parametrize("query", ["", "?days=30", "?conference=iclr", f"?since={RECENT}",
                                   f"?since={RECENT}T10:00:00Z&q=graph"])
def test_whats_new_is_a_search_of_the_window_and_keeps_it_in_its_links(client, reads, query):
    resp = client.get(f"/new{query}")
    assert resp.status_code == 200, resp.get_data(as_text=True)[:500]
    page = resp.get_data(as_text=True)
    assert "<h1" in page and ("New in the last" in page or "New since" in page)
    req = next(args[0] for name, args in reads.calls if name == "search")
    assert req.added and req.sort == "added"
    assert 'href="/new.atom?' in page, "the page's feed is the window's"


@pytest.mark.parametrize("query, field", [("?days=3", "days"), ("?since=yesterday", "since"),
                                          ("?since=2001-01-01", "since"),
                                          (f"?since={RECENT}T10:00:00{'0' * MAX_SINCE}", "since")])
def test_a_bad_window_is_a_400_naming_it(client, query, field):
    for path in ("/new", "/api/v1/new", "/new.atom"):
        resp = client.get(path + query)
        assert resp.status_code == 400 and field in resp.get_data(as_text=True), path


def test_the_feed_and_the_api_of_whats_new(client, reads):
    feed = client.get("/new.atom?days=7&conference=iclr")
    assert feed.status_code == 200 and feed.mimetype == "application/atom+xml"
    assert b"new in the last 7 days" in feed.data
    data = client.get(f"/api/v1/new?since={RECENT}").get_json()
    conforms(data, "SearchResponse")


def test_the_admin_api_of_sources_needs_its_token():
    client = fake_app(PAPERLIST_ADMIN_TOKEN="secret").test_client()
    assert client.get("/api/v1/admin/sources").status_code == 401
    assert client.post("/api/v1/admin/sources", json={"url": "https://x/a.json"}).status_code == 401
    assert fake_app(PAPERLIST_ADMIN_TOKEN="").test_client().get("/api/v1/admin/sources").status_code == 404
