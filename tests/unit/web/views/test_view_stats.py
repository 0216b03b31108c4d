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
