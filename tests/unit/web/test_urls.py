"""URL builders: a search with parameters changed, facet toggles, the public base, the feed;
every link in the canonical order the edge keys by."""

from __future__ import annotations

from urllib.parse import parse_qsl

import pytest
from fake_reads import fake_app

from services.search.query.request import parse_request
from services.web import urls
from services.web.http.canonical import canonical_query


@pytest.fixture(scope="module")
def app():
    return fake_app()


def _req(**args: str):
    return parse_request({k: [v] for k, v in args.items()})


def test_url_with_changes_and_removes_parameters(app):
    req = _req(q="graph", conference="iclr", page="3")
    assert urls.url_with("/search", req, page=None) == "/search?conference=iclr&q=graph"
    assert urls.url_with("/search", req, year=[2020, 2021], page=None) == \
        "/search?conference=iclr&q=graph&year=2020&year=2021"
    assert urls.url_with("/search", _req()) == "/search"


def test_toggle_adds_or_removes_a_value_and_goes_back_to_page_one(app):
    req = _req(q="graph", conference="iclr", page="2")
    with app.test_request_context("/search"):
        assert urls.toggle(req, "conference", "iclr") == "/search?q=graph"
        assert urls.toggle(req, "conference", "neurips") == "/search?conference=iclr&conference=neurips&q=graph"
    with app.test_request_context("/conferences/iclr"):  # a browse page's change is a search
        assert urls.results_path() == "/search"


def test_absolute_urls_never_come_from_the_host_header(app):
    with app.test_request_context("/", headers={"Host": "evil.example"}):
        assert urls.absolute_url("pages.paper", paper_id="p 1") == "https://papers.example.org/papers/p%201"
        assert urls.public_url() == "https://papers.example.org"


@pytest.mark.parametrize("paper_id", ["iclr-2024-0123456789ab", "p 1", "a/b?c#d", "é%-:@!", "-"])
def test_a_papers_path_is_the_url_maps(app, paper_id):
    with app.test_request_context("/", base_url="https://x.example/mount"):
        assert urls.paper_path(paper_id) == urls.url_for("pages.paper", paper_id=paper_id)
        assert urls.paper_path("q") == "/mount/papers/q"


def test_a_feed_keeps_the_filters_not_the_order_or_page(app):
    with app.test_request_context("/"):
        assert urls.feed_url(_req(q="graph", sort="newest", page="2")) == "/search.atom?q=graph"


def test_api_paths(app):
    assert urls.is_api_path("/api/v1/search") and urls.is_api_path("/api/docs") and not urls.is_api_path("/search")


def _canonical(url: str) -> bool:
    query = url.partition("?")[2]
    return canonical_query(parse_qsl(query, keep_blank_values=True)) == query


def test_every_built_link_is_already_canonical(app):
    """The app's own links are the one form of their search (the edge keys any order by it)."""
    req = _req(q="graph", conference="iclr", year="2020-2022", topic="robotics", sort="newest", page="2",
               mode="semantic")
    with app.test_request_context("/search"):
        built = [urls.url_with("/search", req), urls.url_with("/search", req, page=3),
                 urls.url_with("/search", req, autocorrect=0, page=None), urls.feed_url(req),
                 urls.toggle(req, "conference", "neurips"), urls.toggle(req, "conference", "iclr"),
                 urls.toggle(req, "author", "Ada Lovelace"), urls.toggle(req, "year", "2019"),
                 urls.prepared("/search", req).changed({"a": "1", "zz": ["2", "1"], "page": None})]
    assert all(_canonical(url) for url in built), [u for u in built if not _canonical(u)]
    assert built[-1].endswith("&zz=2&zz=1") and "?a=1&" in built[-1]  # repeated values keep their order
