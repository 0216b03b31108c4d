"""The edge's before-request step: never a redirect, a 304 without a render for a held canonical
ETag, none while the data settles; s-maxage from PAPERLIST_EDGE_TTL."""

from __future__ import annotations

import pytest
from fake_reads import fake_app
from flask import template_rendered

from services.web import app as app_module

GENERATION = {"value": (7, 0)}


@pytest.fixture
def app(monkeypatch):
    real_install = app_module.http.install
    monkeypatch.setattr(app_module.http, "install",
                        lambda app, kept, generation: real_install(app, kept, lambda: GENERATION["value"]))
    GENERATION["value"] = (7, 0)
    return fake_app()


@pytest.fixture
def renders(app):
    seen: list[str] = []

    def count(sender, template, context, **extra):
        seen.append(template.name)
    template_rendered.connect(count, app)
    yield seen
    template_rendered.disconnect(count, app)


@pytest.mark.parametrize("path", ["/search?year=2024&q=graph", "/api/v1/search?year=2024&q=graph%20nets",
                                  "/search.atom?q=graph+nets&conference=iclr"])
def test_any_order_and_encoding_is_answered_where_it_is_asked(app, path):
    client = app.test_client()
    for method in ("GET", "HEAD"):
        resp = client.open(path, method=method, headers={"X-Paperlist-Edge": "1"})  # what nginx once sent
        assert resp.status_code == 200 and "Location" not in resp.headers
        assert "s-maxage=5" in resp.headers["Cache-Control"]


def test_permutations_share_one_etag(app):
    client = app.test_client()
    one = client.get("/api/v1/search?q=graph&year=2018").headers["ETag"]
    assert one == client.get("/api/v1/search?year=2018&q=graph").headers["ETag"]
    assert one != client.get("/api/v1/search?q=graph&year=2019").headers["ETag"]


def test_a_held_etag_is_answered_304_without_a_render(app, renders):
    client = app.test_client()
    page = client.get("/search?q=graph")
    assert page.status_code == 200 and renders.count("search.html") == 1
    rendered = list(renders)
    again = client.get("/search?q=graph", headers={"If-None-Match": page.headers["ETag"]})
    assert again.status_code == 304 and again.data == b"" and renders == rendered
    assert again.headers["ETag"] == page.headers["ETag"] and "s-maxage=5" in again.headers["Cache-Control"]
    GENERATION["value"] = (8, 0)  # an ingest landed: the held tag is old, the page renders again
    fresh = client.get("/search?q=graph", headers={"If-None-Match": page.headers["ETag"]})
    assert fresh.status_code == 200 and fresh.headers["ETag"] != page.headers["ETag"]
    assert renders.count("search.html") == 2


def test_while_the_data_settles_answers_get_no_canonical_tag_and_a_short_edge_life(app, renders):
    client = app.test_client()
    settled = client.get("/search?q=graph").headers["ETag"]
    GENERATION["value"] = (7, 1200)
    settling = client.get("/search?q=graph", headers={"If-None-Match": settled})
    assert settling.status_code == 200 and settling.headers["ETag"] != settled
    assert settling.headers["Cache-Control"] == "public, max-age=60, s-maxage=2"


def test_a_view_that_chose_its_own_caching_keeps_a_body_tag(app):
    client = app.test_client()
    first = client.get("/api/v1/export?format=csv&q=graph")
    assert "s-maxage" not in first.headers["Cache-Control"]
    assert client.get("/healthz").headers["Cache-Control"] == "no-store"


def test_the_edge_ttl_is_a_setting():
    app = fake_app(PAPERLIST_EDGE_TTL="2")
    assert app.test_client().get("/").headers["Cache-Control"] == "public, max-age=60, s-maxage=2"


def test_a_missing_page_is_kept_by_the_edge_briefly_not_by_browsers(app):
    client = app.test_client()
    gone = client.get("/papers/no-such-paper")
    assert gone.status_code == 404 and gone.headers["Cache-Control"] == "public, max-age=0, s-maxage=5"
    assert client.get("/api/v1/nope").headers["Cache-Control"] != "public, max-age=0, s-maxage=5"
    assert "s-maxage" not in client.get("/search?page=x").headers.get("Cache-Control", "")  # a 400 is never kept


def test_a_redirect_is_kept_by_the_edge_briefly_so_its_cache_lock_never_queues_a_crowd(app):
    client = app.test_client()
    past = client.get("/search?q=graph&page=99")
    assert past.status_code == 302 and past.headers["Location"].startswith("/search?")
    assert past.headers["Cache-Control"] == "public, max-age=0, s-maxage=5"
    assert "s-maxage" not in client.get("/api/v1/admin/reindex").headers.get("Cache-Control", "")  # not an edge view
