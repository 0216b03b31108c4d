"""The trends of a search, fetched when a results page's folded section is opened (services/web/views/trends.py)."""

from __future__ import annotations

import pytest
from fake_reads import FakeReads, fake_app

from services.search.errors import SearchUnavailable
from services.search.limits import DEFAULT_PAGE_SIZE


def _html(resp, status: int = 200) -> str:
    assert resp.status_code == status, resp.status_code
    return resp.get_data(as_text=True)


def test_the_trends_page_charts_the_search_and_links_back_to_its_results(fake_client, fake_reads):
    html = _html(fake_client.get("/search/trends", query_string={"q": "graph"}))
    assert "<title>Trends of graph — paperlist</title>" in html and '<h1 id="trends-heading">Trends of graph</h1>' in html
    assert '<a href="/search?q=graph">The results of graph</a>' in html
    assert '<svg class="chart"' in html and "<caption>Papers per year by conference</caption>" in html
    assert 'href="/api/v1/stats?format=csv&amp;q=graph"' in html  # the numbers as CSV
    assert fake_reads.called("trends") == 1


def test_the_fragment_is_the_sections_body_alone(fake_client):
    html = _html(fake_client.get("/search/trends", query_string={"q": "graph", "partial": "1"}))
    assert html.lstrip().startswith('<div class="trend-charts">') and "<html" not in html and "<h1" not in html


def test_every_page_order_and_page_size_of_a_search_has_its_trends(fake_client, fake_reads):
    _html(fake_client.get("/search/trends", query_string={"q": "graph", "page": "3", "sort": "newest", "page_size": "50"}))
    (req,) = [args[0] for name, args in fake_reads.calls if name == "trends"]
    assert req.page == 1 and req.q == "graph" and req.sort == "relevance" and req.page_size == DEFAULT_PAGE_SIZE


def test_a_search_that_matches_nothing_says_it_has_no_trends(fake_client):
    html = _html(fake_client.get("/search/trends", query_string={"q": "nothing-matches-this", "partial": "1"}))
    assert "No papers match this search, so it has no trends." in html and "<svg" not in html


def test_the_trends_of_new_papers_are_of_their_window_and_link_back_to_new(fake_client, fake_reads):
    html = _html(fake_client.get("/search/trends", query_string={"days": "30"}))
    (req,) = [args[0] for name, args in fake_reads.calls if name == "trends"]
    assert req.added == "30d" and '<a href="/new?days=30">The results of new papers</a>' in html


def test_bad_input_is_a_clear_400(fake_client):
    html = _html(fake_client.get("/search/trends", query_string={"year": "next"}), 400)
    assert "year" in html


def test_trends_that_cannot_be_computed_are_a_503_not_a_traceback(fake_reads: FakeReads, monkeypatch):
    def unavailable(req):
        raise SearchUnavailable("the trends took too long")

    monkeypatch.setattr(fake_reads, "trends", unavailable)
    resp = fake_app(fake_reads).test_client().get("/search/trends", query_string={"q": "graph", "partial": "1"})
    assert resp.status_code == 503 and "Traceback" not in resp.get_data(as_text=True)


@pytest.mark.parametrize("path", ["/search/trends?q=graph", "/search/trends?q=graph&partial=1"])
def test_the_trends_are_cached_at_the_edge_like_a_page(fake_client, path):
    resp = fake_client.get(path)
    assert resp.status_code == 200 and "public" in resp.headers.get("Cache-Control", "")
