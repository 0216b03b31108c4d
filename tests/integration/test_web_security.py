"""Issue 10 on the web: rate limits, safe absolute URLs, security headers, cheap HEAD, strict
parameters, forged cursors and the admin API without Redis, against the real stack."""

from __future__ import annotations

import csv
import io
import logging
import re
import uuid

import pytest

from services.web import extensions
from services.web.app import create_app

pytestmark = pytest.mark.integration

PUBLIC = "https://papers.example.org"


def _address() -> str:
    """A fresh client address per test, so counters left in Redis by other runs never matter."""
    n = uuid.uuid4().int
    return f"10.{n % 251}.{n // 251 % 251}.{n // 63001 % 251 + 1}"


def _limited(web_settings, **changes):
    update = {"rate_limit_enabled": True, "rate_limit": "5/hour", "rate_limit_suggest": "3/hour",
              "rate_limit_deep_cost": 2, "rate_limit_export_cost": 5, **changes}
    app = create_app(web_settings.model_copy(update=update))
    app.testing = False
    return app.test_client()


def _as(address: str) -> dict:
    return {"X-Forwarded-For": address}


# --- rate limits ----------------------------------------------------------------------------------

def test_one_client_past_its_limit_gets_429_while_another_is_served(web_settings):
    c = _limited(web_settings)
    greedy, other = _address(), _address()
    for _ in range(5):
        assert c.get("/api/v1/search?q=graph", headers=_as(greedy)).status_code == 200
    resp = c.get("/api/v1/search?q=graph", headers=_as(greedy))
    assert resp.status_code == 429
    assert resp.get_json()["error"]["code"] == "rate_limited" and resp.get_json()["error"]["message"]
    assert 1 <= int(resp.headers["Retry-After"]) <= 3600
    assert resp.headers["Cache-Control"] == "no-store"
    page = c.get("/search?q=graph", headers=_as(greedy))
    assert page.status_code == 429 and "text/html" in page.content_type and int(page.headers["Retry-After"]) >= 1
    # Another client keeps its own budget; exempt routes and suggestions stay open to the greedy one.
    assert c.get("/api/v1/search?q=graph", headers=_as(other)).status_code == 200
    for path in ("/healthz", "/readyz", "/static/style.css", "/api/v1/suggest?q=gra"):
        assert c.get(path, headers=_as(greedy)).status_code == 200, path
    # Loopback (the operator, benchmarks on the host) is never limited.
    for _ in range(7):
        assert c.get("/api/v1/openapi.json").status_code == 200


def test_costs_follow_the_work(web_settings):
    c = _limited(web_settings, rate_limit="10/hour", rate_limit_deep_cost=5, rate_limit_export_cost=10)
    exporter = _address()
    assert c.get("/api/v1/export?format=json&q=graph", headers=_as(exporter)).status_code == 200
    assert c.get("/api/v1/search?q=graph", headers=_as(exporter)).status_code == 429
    deep = _address()
    assert c.get("/api/v1/search?q=learning&page=11", headers=_as(deep)).status_code == 200
    cursor = c.get("/api/v1/search?q=learning", headers=_as(_address())).get_json()["next_search_after"]
    assert c.get("/api/v1/search", query_string={"q": "learning", "search_after": cursor},
                 headers=_as(deep)).status_code == 200
    assert c.get("/api/v1/search?q=learning&page=10", headers=_as(deep)).status_code == 429
    shallow = _address()
    for _ in range(10):
        assert c.get("/api/v1/search?q=learning&page=10", headers=_as(shallow)).status_code == 200
    header_only = _address()
    for _ in range(10):  # HEAD on the export does no export work, so it costs what a search does
        assert c.head("/api/v1/export?format=csv&q=graph", headers=_as(header_only)).status_code == 200
    assert c.head("/api/v1/export?format=csv&q=graph", headers=_as(header_only)).status_code == 429


def test_suggestions_have_their_own_cheap_budget(web_settings):
    c = _limited(web_settings)
    typist = _address()
    for prefix in ("g", "gr", "gra"):
        assert c.get(f"/api/v1/suggest?q={prefix}", headers=_as(typist)).status_code == 200
    resp = c.get("/api/v1/suggest?q=grap", headers=_as(typist))
    assert resp.status_code == 429 and resp.get_json()["error"]["code"] == "rate_limited"
    assert c.get("/api/v1/search?q=graph", headers=_as(typist)).status_code == 200


def test_limits_fail_open_when_redis_is_down(web_settings, caplog):
    c = _limited(web_settings, redis_url="redis://127.0.0.1:1/15", rate_limit="1/hour")
    client = _address()
    caplog.set_level(logging.INFO)
    for _ in range(4):
        assert c.get("/api/v1/search?q=graph", headers=_as(client)).status_code == 200
    # At most a warning (once a minute), never a traceback per request.
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


def test_forwarded_for_is_ignored_without_a_trusted_proxy(web_settings):
    c = _limited(web_settings, trusted_proxies=0, rate_limit="1/hour")
    peer = {"REMOTE_ADDR": _address()}
    assert c.get("/api/v1/search?q=x", headers=_as(_address()), environ_base=peer).status_code == 200
    # A new X-Forwarded-For each time does not make a new client when no proxy is trusted.
    assert c.get("/api/v1/search?q=x", headers=_as(_address()), environ_base=peer).status_code == 429
    trusting = _limited(web_settings, rate_limit="1/hour")
    for _ in range(2):
        assert trusting.get("/api/v1/search?q=x", headers=_as(_address()), environ_base=peer).status_code == 200


# --- absolute URLs ---------------------------------------------------------------------------------

def test_absolute_urls_come_from_the_public_url_never_the_host_header(web_settings):
    app = create_app(web_settings.model_copy(update={"public_url": PUBLIC}))
    c = app.test_client()
    evil = {"Host": "evil.example", "X-Forwarded-Host": "evil.example"}
    data = c.get("/api/v1/search?q=graph", headers=evil).get_json()
    assert data["hits"] and all(h["url"] == f"{PUBLIC}/papers/{h['id']}" for h in data["hits"])
    paper_id = data["hits"][0]["id"]
    assert c.get(f"/api/v1/papers/{paper_id}", headers=evil).get_json()["url"] == f"{PUBLIC}/papers/{paper_id}"
    for fmt in ("csv", "json", "bibtex"):
        body = c.get(f"/api/v1/export?format={fmt}&q=graph", headers=evil).get_data(as_text=True)
        assert "evil.example" not in body, fmt
    rows = list(csv.DictReader(io.StringIO(c.get("/api/v1/export?format=csv&q=graph", headers=evil)
                                           .get_data(as_text=True))))
    assert rows and all(r["url"] == f"{PUBLIC}/papers/{r['id']}" for r in rows)


# --- security headers ------------------------------------------------------------------------------

SECURITY_HEADERS = {"X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY",
                    "Referrer-Policy": "strict-origin-when-cross-origin"}


def _route_samples(client) -> dict[str, object]:
    hit = client.get("/api/v1/search?q=graph").get_json()["hits"][0]
    return {"paper_id": hit["id"], "slug": hit["conference"], "year": hit["year"], "name": hit["authors"][0],
            "filename": "style.css", "task_id": "x", "status": 414}


def test_security_headers_on_every_route(app, client):
    samples = _route_samples(client)
    html_pages = 0
    with app.test_request_context():
        from flask import url_for

        urls = sorted({url_for(rule.endpoint, **{a: samples.get(a, "x") for a in rule.arguments})
                       for rule in app.url_map.iter_rules() if "GET" in rule.methods})
    assert len(urls) >= 10
    for url in urls:
        resp = client.get(url)
        assert resp.status_code < 500, url
        for name, value in SECURITY_HEADERS.items():
            assert resp.headers.get(name) == value, (url, name)
        csp = dict(part.strip().split(" ", 1) for part in resp.headers["Content-Security-Policy"].split(";"))
        assert csp["script-src"] == "'self'" and "unsafe" not in csp["default-src"], url
        assert csp["frame-ancestors"] == "'none'" and csp["base-uri"] == "'none'", url
        if "text/html" in resp.content_type:
            html_pages += 1
            html = resp.get_data(as_text=True)
            assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), url  # no inline script
            assert not re.search(r"<[^>]*\son[a-z]+\s*=", html), url            # no on*= handlers
    assert html_pages >= 7
    # Error answers carry them too.
    for resp in (client.get("/no-such-page"), client.get("/api/v1/search?page=0")):
        assert resp.headers["X-Content-Type-Options"] == "nosniff" and "Content-Security-Policy" in resp.headers


# --- HEAD on the export ----------------------------------------------------------------------------

def test_head_on_export_does_not_run_the_export(app, client, monkeypatch):
    service = extensions.reads(app)
    calls = []
    real_export = service.export
    monkeypatch.setattr(service, "export", lambda *a, **k: calls.append(a) or real_export(*a, **k))
    head = client.head("/api/v1/export?format=csv&q=graph")
    assert head.status_code == 200 and head.content_type.startswith("text/csv")
    assert "paperlist-export.csv" in head.headers["Content-Disposition"]
    assert head.get_data() == b"" and calls == []
    assert client.head("/api/v1/export?format=docx").status_code == 400
    assert client.head("/api/v1/export?format=csv&page_size=x&year=٢٠٢١").status_code == 400
    assert calls == []
    get = client.get("/api/v1/export?format=csv&q=graph")
    assert get.status_code == 200 and len(calls) == 1 and get.get_data()


# --- strict parameters and cursors ------------------------------------------------------------------

@pytest.mark.parametrize("params", [{"page": "1_0"}, {"page": "+2"}, {"page": "٢"}, {"page_size": "1_0"},
                                    {"page_size": "１０"}, {"year": "٢٠٢١"}, {"year": "2018-٢٠٢٢"}])
def test_non_ascii_or_python_only_integers_are_400(client, params):
    for path in ("/api/v1/search", "/api/v1/export"):
        resp = client.get(path, query_string=params)
        assert resp.status_code == 400, (path, params)
        assert resp.get_json()["error"]["code"] == "invalid_parameter"


def _token(values) -> str:
    import base64
    import json

    return base64.urlsafe_b64encode(json.dumps(values).encode()).decode().rstrip("=")


@pytest.mark.parametrize("token", [
    _token(["relevance", 1.0, 2020]),
    _token(["relevance", "x" * 50, 2020, "p"]),
    _token(["relevance", 1.5, {"bool": {}}, "p"]),
    _token(["relevance", 1.5, 2**80, "p"]),
    _token([1.5, 2020, "p"]),
    _token(["citations", 3, 2020, "p"]),
])
def test_forged_cursors_are_400_without_reaching_elasticsearch(app, client, monkeypatch, caplog, token):
    service = extensions.reads(app)
    calls = []
    monkeypatch.setattr(service, "search", lambda *a, **k: calls.append(a))
    caplog.set_level(logging.INFO)
    resp = client.get("/api/v1/search", query_string={"q": "graph", "search_after": token})
    assert resp.status_code == 400
    error = resp.get_json()["error"]
    assert error["code"] == "invalid_parameter" and error["message"].startswith("search_after")
    assert calls == []
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


def test_a_cursor_of_one_sort_is_refused_by_another(client):
    newest = client.get("/api/v1/search?q=learning&sort=newest").get_json()["next_search_after"]
    assert client.get("/api/v1/search", query_string={"q": "learning", "sort": "newest",
                                                      "search_after": newest}).status_code == 200
    refused = client.get("/api/v1/search", query_string={"q": "learning", "sort": "oldest", "search_after": newest})
    assert refused.status_code == 400 and "sort=oldest" in refused.get_json()["error"]["message"]


# --- the admin API without Redis --------------------------------------------------------------------

def test_admin_routes_answer_503_when_redis_is_down(web_settings):
    c = create_app(web_settings.model_copy(update={"redis_url": "redis://127.0.0.1:1/15"})).test_client()
    auth = {"Authorization": "Bearer test-token"}
    for method, path in (("post", "/api/v1/admin/reindex"), ("get", "/api/v1/admin/reindex"),
                         ("get", "/api/v1/admin/tasks/abc")):
        resp = getattr(c, method)(path, headers=auth)
        assert resp.status_code == 503, path
        assert resp.get_json()["error"]["code"] == "unavailable" and resp.headers["Retry-After"] == "5"
    assert c.post("/api/v1/admin/reindex").status_code == 401  # the token is still checked first
