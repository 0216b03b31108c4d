"""Trends of a search (/api/v1/stats) and the charts of results pages, over the ingested sample."""

from __future__ import annotations

import csv
import gzip
import io
import json
import random
import re
from collections import defaultdict
from html import unescape

import pytest

from conftest import SAMPLE
from services.search.query.facets import FACETS

pytestmark = pytest.mark.integration

SEARCHES = 50


def _get(client, path, **params):
    resp = client.get(path, query_string=params or None)
    assert resp.status_code == 200, (path, params, resp.get_data(as_text=True)[:300])
    return resp


def _vocabulary() -> list[str]:
    """Title words of the sample corpus (read from the files, not from the index)."""
    words: set[str] = set()
    for path in sorted(SAMPLE.rglob("*.json*")):
        opener = gzip.open if path.suffix == ".gz" else open
        with opener(path, "rt", encoding="utf-8") as fh:
            for record in json.load(fh):
                title = record.get("title") if isinstance(record, dict) else None
                if isinstance(title, str):
                    words.update(w.lower() for w in re.findall(r"[A-Za-z]{4,}", title))
    return sorted(words)


def _random_searches(client, n: int) -> list[dict]:
    """Random words of the corpus with random facet filters (hidden statuses and ranges too)."""
    rng = random.Random(20261201)
    words = _vocabulary()
    facets = _get(client, "/api/v1/search", page_size=1, status=["accept", "reject", "withdrawn", "poster"],
                  facets=",".join(FACETS.names)).get_json()
    values = {name: [v["value"] for v in facets["facets"][name]] for name in FACETS.names}
    years = sorted(int(y) for y in values["year"])
    searches = []
    for _ in range(n):
        params: dict = {}
        if rng.random() < 0.8:
            params["q"] = " ".join(rng.sample(words, rng.choice((1, 1, 2))))
        for name in rng.sample(["conference", "topic", "status", "has_code", "track", "year", "keyword"],
                               rng.randint(0, 3)):
            if name == "year" and rng.random() < 0.5:
                low, high = sorted(rng.sample(years, 2))
                params["year"] = f"{low}-{high}"
            elif values.get(name):
                params[name] = rng.sample(values[name], min(len(values[name]), rng.randint(1, 2)))
        searches.append(params)
    return searches


def test_stats_sums_agree_with_total_for_random_searches(client):
    nonempty = 0
    for params in _random_searches(client, SEARCHES):
        stats = _get(client, "/api/v1/stats", **params).get_json()
        search = _get(client, "/api/v1/search", page_size=1, **params).get_json()
        assert stats["total"] == search["total"], params
        assert sum(r["count"] for r in stats["by_year"]) == stats["total"], params
        assert sum(r["count"] for r in stats["by_conference_year"]) == stats["total"], params
        per_year = defaultdict(int)
        for r in stats["by_conference_year"]:
            per_year[r["year"]] += r["count"]
        assert per_year == {r["year"]: r["count"] for r in stats["by_year"]}, params
        # Every paper has at least one topic, and a topic's year never holds more papers than the year.
        assert sum(r["count"] for r in stats["by_topic_year"]) >= stats["total"], params
        assert all(r["count"] <= per_year[r["year"]] for r in stats["by_topic_year"]), params
        nonempty += stats["total"] > 0
    assert nonempty >= SEARCHES // 3  # the random searches are not all empty


def test_topic_counts_are_papers_once_per_topic(client):
    """A topic's yearly counts are what filtering by that topic and year finds."""
    stats = _get(client, "/api/v1/stats", q="learning").get_json()
    rows = sorted(stats["by_topic_year"], key=lambda r: -r["count"])[:6]
    assert rows
    for row in rows:
        found = _get(client, "/api/v1/search", page_size=1, q="learning", topic=row["topic"],
                     year=str(row["year"])).get_json()
        assert found["total"] == row["count"], row
    conference = stats["by_conference_year"][0]
    found = _get(client, "/api/v1/search", page_size=1, q="learning", conference=conference["conference"],
                 year=str(conference["year"])).get_json()
    assert found["total"] == conference["count"]


def test_stats_csv_has_the_json_numbers(client):
    params = {"q": "robot", "status": ["accept", "poster", "oral"]}
    data = _get(client, "/api/v1/stats", **params).get_json()
    resp = _get(client, "/api/v1/stats", format="csv", **params)
    assert resp.mimetype == "text/csv" and "attachment" in resp.headers["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(resp.get_data(as_text=True))))
    assert [(int(r["year"]), int(r["count"])) for r in rows if r["breakdown"] == "year"] == \
        [(r["year"], r["count"]) for r in data["by_year"]]
    assert [(r["value"], int(r["year"]), int(r["count"])) for r in rows if r["breakdown"] == "conference"] == \
        [(r["conference"], r["year"], r["count"]) for r in data["by_conference_year"]]
    assert sum(1 for r in rows if r["breakdown"] == "topic") == len(data["by_topic_year"])


@pytest.mark.parametrize("params", [{"year": "20x1"}, {"format": "xml"}, {"sort": "sideways"},
                                    {"status": "maybe"}, {"q": "x" * 501}])
def test_stats_rejects_bad_parameters_as_search_does(client, params):
    resp = client.get("/api/v1/stats", query_string=params)
    assert resp.status_code == 400
    assert resp.get_json()["error"]["code"] == "invalid_parameter"


def _trends_section(client, html: str) -> str:
    """The trends of a results page: its folded section links them, fetched as the section's body when opened."""
    link = re.search(r'<details class="trends" data-fold-narrow data-trends="([^"]+)">', html)
    assert link, "no trends section"
    resp = client.get(unescape(link.group(1)) + "&partial=1")
    assert resp.status_code == 200
    return resp.get_data(as_text=True)


@pytest.mark.parametrize("path", ["/search?q=learning", "/conferences/iclr", "/topics/computer-vision",
                                  "/conferences/iclr/2018"])
def test_results_pages_show_an_accessible_chart_with_table_and_csv(client, path):
    html = _get(client, path).get_data(as_text=True)
    section = _trends_section(client, html)
    [svg] = re.findall(r"<svg class=\"chart\"[^>]*>.*?</svg>", section, re.S)  # the bars; the topics a grid
    assert 'role="group"' in svg and 'aria-label="' in svg  # a group of links, not an image hiding them (issue 49)
    assert re.search(r"<title id=\"[^\"]+\">[^<]+</title>\s*<desc id=\"[^\"]+\">[^<]+</desc>", svg)
    assert re.search(r'<a href="/search\?[^"]*year=\d{4}[^"]*"><rect', svg)
    grid = re.search(r'<div class="heat-grid"[^>]*role="group" aria-label="[^"]+"', section)
    assert grid and re.search(r'<a class="heat-cell o\d+[^"]*" href="/search\?[^"]*topic=[^"]*year=\d{4}', section)
    assert "<table>" in section and "<details class=\"trend-numbers\">" in section
    assert "<script" not in section and " style=" not in section  # no inline script or style
    csv_link = re.search(r'href="(/api/v1/stats\?[^"]*format=csv[^"]*)"', section).group(1).replace("&amp;", "&")
    assert client.get(csv_link).status_code == 200


def test_a_chart_bar_or_cell_applies_its_filters(client):
    """Each bar (conference and year) and grid cell (topic and year) leads to a search finding its count."""
    html = _get(client, "/search", q="learning").get_data(as_text=True)
    section = _trends_section(client, html)
    bars = re.findall(r'<a href="(/search\?[^"]+)"><rect [^>]*><title>([^<]+): ([\d,]+) papers?</title>', section)
    cells = re.findall(r'<a class="heat-cell[^"]*" href="(/search\?[^"]+)" title="([^"]+): ([\d,]+) papers?"', section)
    bars = [b for b in bars if not b[1].startswith("Others ")]  # the grey rest links to its year alone
    assert all("conference=" in b[0] for b in bars) and all("topic=" in c[0] for c in cells)
    assert len(bars) > 10 and len(cells) > 10
    for href, label, count in bars[:: max(1, len(bars) // 4)] + cells[:: max(1, len(cells) // 4)]:
        url = href.replace("&amp;", "&")
        assert re.search(r"year=\d{4}", url), url
        page = client.get(url).get_data(as_text=True)
        total = int(re.search(r"<strong>([\d,]+)</strong> papers?", page).group(1).replace(",", ""))
        assert total == int(count.replace(",", "")), (label, url)


def test_no_chart_and_no_stats_request_for_an_empty_result(client):
    html = _get(client, "/search", q="zzzqqqxxyy").get_data(as_text=True)
    assert '<details class="trends"' not in html
    assert "No papers match" in html
