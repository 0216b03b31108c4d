"""Venue statistics agree with the counts of the source files.

The expected numbers are read from the files themselves (records by raw status, read
through the catalogue), minus what the ingest rejected (its rejects file names each
record by source and position). The sample's ICLR years run in CI; with the full corpus
next to the checkout, a slow test does ICLR 2018-2025.
"""

from __future__ import annotations

import gzip
import json
from collections import Counter
from pathlib import Path

import pytest

from conftest import FULL_YEARS, SAMPLE
from services.indexer.cleaning import clean_text
from services.search.catalogue import catalogue
from services.settings import load_settings
from services.web.app import create_app

pytestmark = pytest.mark.integration



def _records(path: Path) -> list:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as fh:
        return json.load(fh)


def _rejected(summary) -> set[tuple[str, int]]:
    if not summary.rejects_path:
        return set()
    with open(summary.rejects_path, encoding="utf-8") as fh:
        return {(entry["source"], entry["position"]) for entry in map(json.loads, fh)}


def expected(files: list[Path], rejected: set[tuple[str, int]]) -> dict[int, dict]:
    """Per year (from the file name): records by raw status and the catalogue's reading of them."""
    out = {}
    cat = catalogue()
    for path in files:
        year = int(path.name.split(".")[0].removeprefix("iclr"))
        statuses = Counter(clean_text(r.get("status") or "") for position, r in enumerate(_records(path))
                           if (str(path), position) not in rejected)
        numbers = Counter()
        for raw, n in statuses.items():
            outcome = cat.outcome("iclr", raw)
            if not outcome.main:
                continue
            withdrawn = cat.outcome_name("iclr", raw) == "withdrawn"
            numbers["submissions"] += n * (outcome.decided or withdrawn)
            numbers["accepted"] += n * outcome.accepted
            numbers["rejected"] += n * (outcome.decided and not outcome.accepted)
            numbers["decided"] += n * (outcome.decided or withdrawn)  # the contract's accepted / decided
            for tier in ("oral", "spotlight", "poster"):
                numbers[tier] += n * (outcome.accepted and outcome.tier == tier)
        out[year] = {"papers": sum(statuses.values()),
                     "by_status": {raw or "(none)": n for raw, n in statuses.items()}, **numbers}
    return out


def _compare(settings, es, alias, summary, files) -> dict[int, dict]:
    """The venue statistics of ``alias`` for ICLR's ``files`` against the files (an ingest may hold other venues)."""
    want = expected(files, _rejected(summary))
    es.indices.refresh(index=alias)
    iclr = es.count(index=alias, query={"term": {"conference": "iclr"}})["count"]
    assert sum(w["papers"] for w in want.values()) == iclr
    client = create_app(load_settings(ES_URL=settings.es_url, PAPERLIST_INDEX=alias,
                                      REDIS_URL=settings.redis_url)).test_client()
    for year, numbers in want.items():
        resp = client.get(f"/api/v1/venues/iclr/{year}")
        assert resp.status_code == 200, (year, resp.get_json())
        got = resp.get_json()
        assert got["papers"] == numbers["papers"], year
        assert got["by_status"] == numbers["by_status"], year
        for name in ("accepted", "rejected", "decided", "oral", "spotlight", "poster"):
            assert got[name] == numbers[name], (year, name)
        if numbers["rejected"]:
            assert got["submissions"] == numbers["submissions"], year
            assert got["acceptance_rate"] == round(numbers["accepted"] / numbers["submissions"], 4), year
            assert got["acceptance_rate"] == round(got["accepted"] / got["decided"], 4), year
        else:  # an accepted-only list: no submissions, no (fake 100%) rate
            assert got["submissions"] is None and got["acceptance_rate"] is None, year
            assert got["rejections_listed"] is False
    return want


def test_iclr_venue_statistics_match_the_sample_files(settings, es, sample_ingest):
    files = sorted((SAMPLE / "iclr").glob("iclr*.json*"))
    assert files
    alias, summary = sample_ingest
    want = _compare(settings, es, alias, summary, files)
    assert any(w["rejected"] for w in want.values()) and any(not w["rejected"] for w in want.values())


@pytest.mark.slow
@pytest.mark.timeout(3600)
def test_iclr_2018_2025_venue_statistics_match_the_full_corpus(settings, es, full_years):
    alias, files, summary = full_years
    want = _compare(settings, es, alias, summary, [f for f in files if f.parent.name == "iclr"])
    assert set(want) == set(FULL_YEARS["iclr"])
    # Not every ICLR year of the corpus lists its rejections; most do, and those get a rate.
    assert sum(1 for w in want.values() if w["rejected"]) >= len(FULL_YEARS["iclr"]) // 2


def test_venue_pages_show_the_numbers(client):
    """The sample's ICLR 2018 lists rejections; its 2014 list holds only accepted posters."""
    page = client.get("/conferences/iclr/2018").get_data(as_text=True)
    data = client.get("/api/v1/venues/iclr/2018").get_json()
    assert data["rejections_listed"] and 0 < data["acceptance_rate"] < 1
    assert 'id="venue-heading">Venue statistics' in page
    assert f"{data['acceptance_rate']:.1%}" in page
    accepted_only = client.get("/conferences/iclr/2014").get_data(as_text=True)
    assert "The source lists no rejections" in accepted_only
    assert client.get("/api/v1/venues/iclr/2014").get_json()["acceptance_rate"] is None
    across = client.get("/conferences/iclr").get_data(as_text=True)
    assert 'id="venue-years"' in across and 'role="img"' in across
    assert 'href="/conferences/iclr/2018"' in across and ">n/a<" in across


@pytest.mark.parametrize(("slug", "year"), [("tmlr", 2024), ("jmlr", 2000), ("tacl", 2025)])
def test_a_journal_year_has_no_acceptance_rate_and_no_tiers(client, slug, year):
    data = client.get(f"/api/v1/venues/{slug}/{year}").get_json()
    assert data["kind"] == "journal" and data["papers"] == data["accepted"] > 0
    assert data["by_status"] == {"Journal": data["papers"]}
    assert data["acceptance_rate"] is None and data["submissions"] is None
    assert (data["oral"], data["spotlight"], data["poster"]) == (0, 0, 0)


@pytest.mark.parametrize(("slug", "year"), [("l4dc", 2025), ("eacl", 2026), ("acl", 2026), ("cvpr", 2026),
                                            ("conll", 2024), ("bmvc", 2021)])
def test_new_venues_and_editions_without_rejections_give_no_rate(client, slug, year):
    data = client.get(f"/api/v1/venues/{slug}/{year}").get_json()
    assert data["kind"] == "conference" and data["papers"] > 0 and data["accepted"] > 0
    assert data["rejections_listed"] is False and data["acceptance_rate"] is None and data["submissions"] is None
    page = client.get(f"/conferences/{slug}/{year}").get_data(as_text=True)
    assert "acceptance rate are unknown" in page and "Volume statistics" not in page


@pytest.mark.parametrize("path", ["/api/v1/venues/iclr/1999", "/api/v1/venues/nosuchconf/2018",
                                  "/api/v1/venues/!!!/2018"])
def test_unknown_conference_year_is_a_json_404(client, path):
    resp = client.get(path)
    assert resp.status_code == 404 and resp.get_json()["error"]["code"] == "not_found"


def test_alias_slug_is_the_canonical_venue(client):
    nips = client.get("/api/v1/venues/nips/2018")
    assert nips.status_code == 200 and nips.get_json()["conference"] == "neurips"
    assert nips.get_json() == client.get("/api/v1/venues/NeurIPS/2018").get_json()
