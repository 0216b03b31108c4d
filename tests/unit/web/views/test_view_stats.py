"""Trends of a search and a conference-year's statistics, as JSON and CSV."""

from __future__ import annotations

import csv
import io

import pytest
from fake_reads import conforms, fake_app


@pytest.fixture
def client():
    return fake_app().test_client()


def test_trends_of_a_search_sum_to_its_total(client):
    data = client.get("/api/v1/stats", query_string={"q": "graph"}).get_json()
    conforms(data, "Stats")
    assert data["total"] == 2 == sum(y["count"] for y in data["by_year"])
    assert sum(c["count"] for c in data["by_conference_year"]) == data["total"]


def test_trends_as_csv_and_a_blank_format_as_json(client):
    resp = client.get("/api/v1/stats", query_string={"q": "graph", "format": "CSV"})
    assert resp.mimetype == "text/csv" and 'filename="paperlist-stats.csv"' in resp.headers["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(resp.get_data(as_text=True))))
    assert rows[0] == ["breakdown", "value", "year", "count"] and ["year", "", "2018", "1"] in rows
    assert client.get("/api/v1/stats", query_string={"format": ""}).mimetype == "application/json"
    assert client.get("/api/v1/stats", query_string={"format": "xml"}).status_code == 400


def test_a_venue_year(client):
    data = client.get("/api/v1/venues/ICLR/2018").get_json()
    conforms(data, "Venue")
    assert (data["conference"], data["papers"], data["rejected"]) == ("iclr", 2, 1)
    assert data["rejections_listed"] and data["acceptance_rate"] == 0.5
    assert client.get("/api/v1/venues/iclr/1999").status_code == 404
    assert client.get("/api/v1/venues/iclr/3000").status_code == 400


def test_a_venue_year_says_how_its_rate_is_counted_and_what_its_source_lacks(client):
    data = client.get("/api/v1/venues/iclr/2018").get_json()
    assert data["submissions"] == data["accepted"] + data["rejected"] + data["withdrawn"] == 2
    assert data["acceptance_rate_definition"].startswith("accepted / submitted") and data["undecided"] == 0
    assert data["coverage"] == {"abstracts": 1, "affiliations": 2, "citations": 2, "reviews": 2, "code": 0}
    # The source has posters only: no oral/spotlight split to lack; abstracts and affiliations it has.
    assert data["lacks"] == []
    neurips = client.get("/api/v1/venues/neurips/2024").get_json()
    conforms(neurips, "Venue")
    assert [lack["code"] for lack in neurips["lacks"]] == ["rejections", "abstracts", "reviews"]
    assert neurips["lacks"][0]["label"] == "no rejections" and neurips["score_histogram"] is None


def test_a_venue_years_score_histogram_sums_to_its_papers_with_scores(client):
    hist = client.get("/api/v1/venues/iclr/2018").get_json()["score_histogram"]
    assert (hist["score"], hist["bin_width"], hist["decisions"]) == ("rating_avg", 0.5, ["poster", "rejected"])
    assert hist["total"] == sum(b["total"] for b in hist["bins"]) == 2
    assert hist["by_decision"] == {"poster": 1, "rejected": 1}
    # From the reject's 3.5 to the poster's 7.0, every half point in between kept (the axis is true to the scale).
    assert [b["low"] for b in hist["bins"]] == [3.5 + 0.5 * i for i in range(8)]
    assert hist["bins"][0]["counts"] == {"rejected": 1} and hist["bins"][-1]["counts"] == {"poster": 1}
