"""Facet counts are the totals a user gets by applying each value as a filter."""

from __future__ import annotations

import pytest

from services.search.query.facets import FACETS

pytestmark = pytest.mark.integration


def _search(client, **params):
    resp = client.get("/api/v1/search", query_string={"page_size": 1, **params})
    assert resp.status_code == 200, resp.get_json()
    return resp.get_json()


@pytest.mark.parametrize("base", [
    {},
    {"q": "learning"},
    {"q": "robot", "year": "2021-2023"},
    {"conference": "iclr"},
    {"q": "neural", "topic": "computer-vision", "has_code": "false"},
])
def test_facet_counts_equal_filtered_totals(client, base):
    data = _search(client, **base, facets=",".join(FACETS.names))  # on-demand facets too
    checked = 0
    for name in FACETS.names:
        if name in base:
            continue  # a facet's own selection OR-s values: counts are per value, not totals
        for value in data["facets"].get(name, [])[:6]:
            narrowed = _search(client, **base, **{name: value["value"]})
            assert narrowed["total"] == value["count"], (base, name, value)
            checked += 1
    assert checked >= 15
    assert set(data["facets"]) == set(FACETS.names)  # every declared facet is counted and returned


def test_on_demand_facets_are_counted_when_asked_and_match_the_search(client):
    default = _search(client, q="learning")
    assert set(default["facets"]) == set(FACETS.counted_by_default)
    counts = client.get("/api/v1/facets", query_string={"q": "learning", "facets": "author,affiliation"})
    assert counts.status_code == 200
    data = counts.get_json()
    assert set(data["facets"]) == {"author", "affiliation"} and "hits" not in data
    assert data["total"] == default["total"]
    full = _search(client, q="learning", facets="author")
    assert data["facets"]["author"] == full["facets"]["author"]
    bad = client.get("/api/v1/facets", query_string={"facets": "nope"})
    assert bad.status_code == 400 and bad.get_json()["error"]["code"]


def test_selected_value_shows_even_at_zero(client):
    data = _search(client, q="canonize", conference="aaai")
    conference = {v["value"]: v for v in data["facets"]["conference"]}
    assert data["total"] == 0
    assert conference["aaai"] == {"value": "aaai", "label": "AAAI", "count": 0, "selected": True}
    assert conference["neurips"]["count"] == 1  # other values keep counting under the other filters


def test_multi_select_ors_values_and_ands_facets(client):
    iclr = _search(client, conference="iclr")["total"]
    icml = _search(client, conference="icml")["total"]
    both = _search(client, conference=["iclr", "icml"])
    assert both["total"] == iclr + icml
    narrowed = _search(client, conference=["iclr", "icml"], year="2018")
    assert 0 < narrowed["total"] < both["total"]
    assert {v["value"] for v in narrowed["facets"]["conference"] if v["selected"]} == {"iclr", "icml"}


def test_a_broad_search_counts_its_facets_on_a_sample_and_says_so(client, monkeypatch):
    from services.search import limits

    exact = _search(client, q="learning")
    assert exact["facets_estimated"] is False and exact["total"] > 1_000
    monkeypatch.setattr(limits, "SAMPLE_FACETS_ABOVE", 1_000)  # the sample is small: "broad" lower
    monkeypatch.setattr(limits, "FACET_SAMPLE", exact["total"] // 2)
    # Parameters no other test asks for: these answers are cached, and other tests must get exact ones.
    own = {"page_size": 3, "sort": "newest"}
    sampled = _search(client, q="learning", **own)
    assert sampled["facets_estimated"] is True and sampled["total"] == exact["total"]  # the total stays exact
    top = exact["facets"]["conference"][0]
    estimate = {v["value"]: v["count"] for v in sampled["facets"]["conference"]}[top["value"]]
    assert abs(estimate - top["count"]) <= 0.25 * top["count"], (top, estimate)
    assert _search(client, q="learning robot", **own)["facets_estimated"] is False  # two words: counted exactly
    page = client.get("/search", query_string={"q": "learning", "sort": "newest"}).get_data(as_text=True)
    assert "counts below are estimates" in page and 'class="count">≈ ' in page
