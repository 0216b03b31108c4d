"""The one error envelope: JSON on API paths, the error page elsewhere, never cached, never a traceback."""

from __future__ import annotations

from fake_reads import FakeReads, fake_app

from services.search.errors import BadQuery, IndexMissing, SearchOverloaded


class Failing(FakeReads):
    def __init__(self, exc: Exception):
        super().__init__()
        self.exc = exc

    def search(self, req):
        raise self.exc


def test_search_layer_errors_become_their_status_and_message():
    for exc, status, code in ((SearchOverloaded(), 503, "unavailable"), (IndexMissing(), 503, "unavailable"),
                              (BadQuery(), 400, "unsupported_query")):
        client = fake_app(Failing(exc)).test_client()
        resp = client.get("/api/v1/search", query_string={"q": "graph"})
        assert resp.status_code == status and resp.get_json()["error"] == {"code": code, "message": exc.message}
        assert resp.headers["Cache-Control"] == "no-store"
        assert (resp.headers.get("Retry-After") is not None) == (status == 503)
        page = client.get("/search", query_string={"q": "graph"})
        assert page.status_code == status and exc.message in page.get_data(as_text=True)


def test_an_unexpected_error_is_a_500_that_says_nothing_of_its_cause():
    client = fake_app(Failing(KeyError("secret internals"))).test_client()
    resp = client.get("/api/v1/search")
    assert resp.status_code == 500 and resp.get_json()["error"]["code"] == "internal"
    assert "secret" not in resp.get_data(as_text=True)


def test_a_405_keeps_its_allow_header():
    resp = fake_app().test_client().delete("/api/v1/search")
    assert resp.status_code == 405 and "GET" in resp.headers["Allow"]
    assert resp.get_json()["error"]["code"] == "method_not_allowed"


def test_a_404_is_the_sites_own_page_and_json_on_the_api():
    client = fake_app().test_client()
    page = client.get("/no/such/page")
    html = page.get_data(as_text=True)
    assert page.status_code == 404 and "There is no page at /no/such/page." in html
    assert "requested URL was not found" not in html  # Werkzeug's generic sentence
    assert 'href="/conferences"' in html and 'id="q"' in html  # somewhere to go from here
    api = client.get("/api/v1/nope")
    assert api.status_code == 404 and api.get_json()["error"] == {
        "code": "not_found", "message": "No API route at /api/v1/nope; the API is described at /api/docs."}
    paper = client.get("/papers/nope")  # a view's own 404 keeps its own words
    assert paper.status_code == 404 and "No paper with id" in paper.get_data(as_text=True)
