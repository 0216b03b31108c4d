"""Venue statistics agree with the counts of the source files.

The expected numbers are read from the files themselves (records by raw status, read
through the catalogue: tests/source_counts.py), minus what the ingest rejected (its rejects
file names each record by source and position). The sample's ICLR years run here; the full
corpus's ICLR 2018-2025 are checked against a running site (tests/live/test_live_site.py).
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from source_counts import venue_mismatches, venue_numbers

from conftest import SAMPLE
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
    """Per year (from the file name): the ICLR numbers of the records the ingest kept."""
    return {int(path.name.split(".")[0].removeprefix("iclr")):
            venue_numbers("iclr", [r for position, r in enumerate(_records(path)) if (str(path), position) not in rejected])
            for path in files}


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
        assert venue_mismatches(year, numbers, resp.get_json()) == []
    return want


def test_iclr_venue_statistics_match_the_sample_files(settings, es, sample_ingest):
    files = sorted((SAMPLE / "iclr").glob("iclr*.json*"))
    assert files
    alias, summary = sample_ingest
    want = _compare(settings, es, alias, summary, files)
    assert any(w["rejected"] for w in want.values()) and any(not w["rejected"] for w in want.values())


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
    assert 'id="venue-years"' in across and 'role="group"' in across  # its years are links (issue 49)
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
