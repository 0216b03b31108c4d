"""Every route declares its HTTP policy, and the hooks do what the declarations say."""

from __future__ import annotations

import pytest
from fake_reads import fake_app

from services.web.policy import STATIC_ENDPOINT, Cost, Limit, declared


@pytest.fixture(scope="module")
def app():
    return fake_app()


def test_every_route_declares_a_policy(app):
    missing = [f"{rule.endpoint} {rule.rule}" for rule in app.url_map.iter_rules()
               if rule.endpoint != STATIC_ENDPOINT and declared(app.view_functions[rule.endpoint]) is None]
    assert missing == [], "declare @policy(...) on these views"


def _policy(app, endpoint):
    return declared(app.view_functions[endpoint])


def test_the_declarations_say_what_the_tables_used_to(app):
    assert _policy(app, "api.suggest").max_age == 300 and _policy(app, "api.suggest").limit is Limit.OWN
    assert _policy(app, "api.openapi").max_age == 3600
    assert _policy(app, "api.export").cost is Cost.EXPORT
    assert {e for e in app.view_functions if e != STATIC_ENDPOINT and _policy(app, e).whole_answer} >= {
        "api.search", "api.suggest", "api.paper", "api.similar", "stats.stats", "stats.venue"}
    edge = {e for e in app.view_functions if e != STATIC_ENDPOINT and _policy(app, e).edge}
    assert edge >= {"pages.index", "pages.search", "pages.paper", "pages.conference_year", "pages.author",
                    "api.search", "api.paper"}
    assert not edge & {"api.export", "like_text.page", "like_text.api", "ops.healthz", "ops.readyz", "ops.scrape"}
    assert not any(e.startswith("admin.") for e in edge)
    for endpoint in ("ops.healthz", "ops.readyz", "ops.scrape"):
        assert _policy(app, endpoint).limit is Limit.NONE and _policy(app, endpoint).max_age is None
    admin = [e for e in app.view_functions if e.startswith("admin.")]
    assert admin and all(_policy(app, e).max_age is None and not _policy(app, e).cached_reads for e in admin)
    api = [r.endpoint for r in app.url_map.iter_rules() if r.rule.startswith("/api/v1/") and "admin" not in r.rule]
    assert api and all(_policy(app, e).cors for e in api)
    assert not any(_policy(app, e).cors for e in app.view_functions if e.startswith(("pages.", "admin.", "ops.")))


@pytest.mark.parametrize("path, cache_control", [
    ("/", "public, max-age=60, s-maxage=5"),  # s-maxage: the edge cache's PAPERLIST_EDGE_TTL
    ("/api/v1/search?q=graph", "public, max-age=60, s-maxage=5"),
    ("/api/v1/suggest?q=gra", "public, max-age=300, s-maxage=5"),
    ("/api/v1/openapi.json", "public, max-age=3600, s-maxage=5"),
    ("/api/v1/export?format=csv", "public, max-age=60"),  # not kept by the edge
    ("/healthz", "no-store"),
    ("/readyz", "no-store"),
    ("/api/v1/search?page=x", "no-store"),  # errors are never kept
])
def test_cache_control_follows_the_policy(app, path, cache_control):
    assert app.test_client().get(path).headers["Cache-Control"] == cache_control


def test_a_conditional_request_gets_a_304(app):
    client = app.test_client()
    first = client.get("/api/v1/papers/iclr-2018-p1")
    again = client.get("/api/v1/papers/iclr-2018-p1", headers={"If-None-Match": first.headers["ETag"]})
    assert first.headers["Vary"] == "Accept-Encoding, Origin" and again.status_code == 304


def test_cors_on_the_public_api_only(app):
    client = app.test_client()
    origin = {"Origin": "https://elsewhere.example"}
    assert client.get("/api/v1/search?q=graph", headers=origin).headers["Access-Control-Allow-Origin"] == "*"
    exposed = client.get("/api/v1/export?format=csv", headers=origin).headers["Access-Control-Expose-Headers"]
    assert "X-Total-Count" in exposed and "X-Exported-Count" in exposed
    assert client.get("/api/v1/nope", headers=origin).headers["Access-Control-Allow-Origin"] == "*"  # its error too
    preflight = client.options("/api/v1/search", headers={**origin, "Access-Control-Request-Method": "GET"})
    assert "GET" in preflight.headers["Access-Control-Allow-Methods"]
    for path in ("/search?q=graph", "/api/v1/admin/reindex", "/healthz"):
        assert "Access-Control-Allow-Origin" not in client.get(path, headers=origin).headers, path


def test_security_headers_and_a_request_id_on_every_answer(app):
    client = app.test_client()
    for path in ("/", "/api/v1/search?q=graph", "/nope", "/api/v1/search?page=0", "/healthz"):
        resp = client.get(path, headers={"X-Request-ID": "front-7"})
        assert resp.headers["X-Content-Type-Options"] == "nosniff" and "frame-ancestors 'none'" in \
            resp.headers["Content-Security-Policy"], path
        assert resp.headers["X-Request-ID"] == "front-7", path


def test_the_ready_probe_gets_its_own_budget(monkeypatch):
    from services.web import http
    from services.web.policy import Budget

    seen: list[float] = []
    monkeypatch.setattr(http, "start_deadline", seen.append)
    edge = http.Edge(5, "release", None)
    before = http._before(edge, None, {Budget.SEARCH: 2.0, Budget.READY: 1.0}, queue_budget=0.5)
    app = fake_app()
    for path in ("/readyz", "/search"):
        with app.test_request_context(path):
            assert before() is None
    assert seen == [1.0, 2.0]
