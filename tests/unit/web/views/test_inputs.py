"""The request as typed values: one digit rule, the page clamp, formats from a table, a similar request."""

from __future__ import annotations

import pytest
from fake_reads import fake_app

from services.search.errors import InvalidRequest
from services.web.views import inputs


@pytest.fixture(scope="module")
def app():
    return fake_app()


def test_a_page_past_the_window_is_clamped_to_the_deepest(app):
    with app.test_request_context("/search?page=999999999999999999999999&page_size=50"):
        req = inputs.page_request()
        assert req.page == 200 and inputs.asks_other_page(req)
    with app.test_request_context("/search?page=3"):
        req = inputs.page_request()
        assert req.page == 3 and not inputs.asks_other_page(req)


@pytest.mark.parametrize("page", ["٢", "²", "1_0", " 2"])
def test_pages_that_are_not_ascii_digits_are_refused(app, page):
    with app.test_request_context("/search", query_string={"page": page}), pytest.raises(InvalidRequest):
        inputs.page_request()


def test_browse_filters_join_the_urls(app):
    with app.test_request_context("/conferences/iclr?conference=neurips"):
        req = inputs.search_request(conference=["iclr"])
        assert req.selected("conference") == ("neurips", "iclr")


def test_only_the_api_pages_with_a_cursor(app):
    with app.test_request_context("/search?search_after=abc"), pytest.raises(InvalidRequest):
        inputs.search_request()


def test_a_format_from_its_table(app):
    with app.test_request_context("/?format=CSV"):
        assert inputs.one_of("format", ("csv", "json"), "json") == "csv"
    with app.test_request_context("/?format="):
        assert inputs.one_of("format", ("csv", "json"), "json", blank_is_default=True) == "json"
        with pytest.raises(InvalidRequest):
            inputs.one_of("format", ("csv", "json"), "json")


def test_one_digit_rule_for_every_number():
    from services.search.limits import MAX_WINDOW
    from services.search.query.request import whole_number

    assert whole_number("007") == 7 and whole_number("0") == 0
    assert all(whole_number(text) is None for text in ("٢", "²", "1_0", "+1", " 1", "", "1.0", "１０"))
    assert whole_number("9" * 5000) > MAX_WINDOW  # read without converting 5,000 digits


@pytest.mark.parametrize("path", ["/api/v1/search?conference=foo&q=graph", "/api/v1/export?format=bibtex&conference=nope",
                                  "/api/v1/stats?conference=iclr&conference=foo", "/api/v1/facets?conference=foo"])
def test_a_conference_without_papers_is_a_400_listing_those_with_papers(fake_reads, path):
    resp = fake_app(fake_reads).test_client().get(path)
    assert resp.status_code == 400
    message = resp.get_json()["error"]["message"]
    assert message.startswith("conference: no papers from 'foo'" if "foo" in path else "conference: no papers from 'nope'")
    assert message.endswith("the venues with papers are neurips, iclr, cvpr")  # the catalogue's order
    assert fake_reads.called("search") == fake_reads.called("export") == fake_reads.called("trends") == 0


def test_a_catalogued_venue_without_papers_is_named_and_an_alias_is_its_venue(fake_reads):
    client = fake_app(fake_reads).test_client()
    icra = client.get("/api/v1/search?conference=icra")
    assert icra.status_code == 400 and "no papers from 'icra' (ICRA) here" in icra.get_json()["error"]["message"]
    assert client.get("/api/v1/search?conference=NIPS").status_code == 200  # an alias of a venue with papers
    page = client.get("/search.atom?conference=foo")  # off the API: the site's page says it
    assert page.status_code == 400 and "no papers from &#39;foo&#39; here" in page.get_data(as_text=True)


def test_a_browse_pages_own_venue_is_its_views_to_judge(fake_reads):
    client = fake_app(fake_reads).test_client()
    assert client.get("/conferences/icra").status_code == 404  # the view's own answer, not the filter's 400
    assert client.get("/conferences/iclr").status_code == 200


@pytest.mark.parametrize(("data", "from_sources"), [
    (None, False), ('{}', False), ('{"from_sources": true}', True), ('{"from_sources": false}', False)])
def test_the_admin_body_is_read_through_its_model(app, data, from_sources):
    with app.test_request_context("/api/v1/admin/reindex", method="POST", data=data,
                                  content_type="application/json"):
        assert inputs.json_body(inputs.ReindexOptions).from_sources is from_sources


@pytest.mark.parametrize(("data", "param"), [
    ('{"from_sources": "yes"}', "from_sources"),   # no coercion: true or false only
    ('{"from_sources": 1}', "from_sources"),
    ('{"from_source": true}', "from_source"),      # a misspelt key is named, never ignored
    ('[true]', "body"), ('not json', "body")])
def test_a_bad_admin_body_is_a_400_that_names_the_key(app, data, param):
    with app.test_request_context("/api/v1/admin/reindex", method="POST", data=data,
                                  content_type="application/json"), pytest.raises(InvalidRequest) as caught:
        inputs.json_body(inputs.ReindexOptions)
    assert caught.value.parameter == param


@pytest.mark.parametrize(("slug", "canonical"), [("iclr", "iclr"), ("NIPS", "neurips"), ("!!", "")])
def test_an_api_paths_venue_is_its_canonical_slug_or_empty(slug, canonical):
    assert inputs.api_venue_year(slug, 2024) == canonical


@pytest.mark.parametrize("year", [1800, 3000])
def test_an_api_paths_year_out_of_range_is_a_400_not_a_404(year):
    with pytest.raises(InvalidRequest) as caught:
        inputs.api_venue_year("iclr", year)
    assert caught.value.parameter == "year"
