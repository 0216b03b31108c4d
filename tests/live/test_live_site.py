"""The full corpus on a running site: counts a user can trust, and a 5,000-link crawl.

The sample in CI is small; what a user of the real site sees needs the real corpus: its venue
numbers against the source files, random pages' counts, and a crawl. Point
``PAPERLIST_LIVE_URL`` at a running site on this host (after ``paperlist up`` and
``paperlist ingest ../shared/data/paperlists``) and run ``pytest tests/live -s``; without
it these tests are skipped. They only read, and only from loopback (the crawl is thousands
of requests). Figures are printed and saved under ``$TMPDIR/paperlist-live/``.

    PAPERLIST_LIVE_URL=http://127.0.0.1:8000 pytest tests/live -s
"""

from __future__ import annotations

import ipaddress
import json
import os
import random
import re
import tempfile
import time
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from pagecheck import CountReport, HttpSite, check_author, check_conference_year, crawl, html
from source_counts import expected_rate, venue_mismatches, venue_numbers

from conftest import corpus_dir, source_records

LIVE = os.environ.get("PAPERLIST_LIVE_URL", "")
SAMPLED = int(os.environ.get("PAPERLIST_LIVE_PAGES", "20"))  # conference-year pages, and author pages
SEED = int(os.environ.get("PAPERLIST_LIVE_SEED", "11"))
CRAWL_LINKS = int(os.environ.get("PAPERLIST_CRAWL_LINKS", "5000"))
FIGURES = Path(tempfile.gettempdir()) / "paperlist-live"
# Whole venue-years of the corpus whose numbers are checked against its source files (issue 18).
FULL_YEARS = {"iclr": range(2018, 2026), "nips": range(2021, 2025)}


def _loopback(url: str) -> bool:
    host = urlsplit(url).hostname or ""
    try:
        return host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(not LIVE, reason="set PAPERLIST_LIVE_URL to a running site with the full corpus"),
    pytest.mark.skipif(bool(LIVE) and not _loopback(LIVE), reason="live checks run against loopback only"),
]


@pytest.fixture(scope="module")
def site() -> HttpSite:
    return HttpSite(LIVE)


@pytest.fixture(scope="module")
def conference_years(site) -> list[tuple[str, int]]:
    found = re.findall(r'href="/conferences/([a-z0-9-]+)/(\d{4})"', html(site, "/conferences"))
    return sorted({(slug, int(year)) for slug, year in found})


def _save(name: str, figures: dict) -> None:
    FIGURES.mkdir(parents=True, exist_ok=True)
    (FIGURES / f"{name}.json").write_text(json.dumps(figures, indent=2))
    print(f"\n{name}: {json.dumps(figures)}")


def _report(report: CountReport, started: float, **extra) -> dict:
    return {"pages": report.pages, "counts_checked": report.counts, "links_followed": report.followed,
            "mismatches": len(report.mismatches), "seconds": round(time.monotonic() - started, 1), **extra}


def test_random_conference_year_pages_count_what_they_list(site, conference_years):
    assert len(conference_years) >= SAMPLED, "the full corpus is not ingested on this site"
    chosen = random.Random(SEED).sample(conference_years, SAMPLED)
    report, started = CountReport(), time.monotonic()
    for slug, year in chosen:
        check_conference_year(site, slug, year, report)
    _save("conference-years", _report(report, started, sampled=[f"{s}/{y}" for s, y in chosen]))
    assert report.mismatches == []
    assert report.pages == SAMPLED


def test_random_author_pages_count_what_they_list(site, conference_years):
    rng = random.Random(SEED + 1)
    authors: set[str] = set()
    for slug, year in rng.sample(conference_years, SAMPLED):
        text = html(site, f"/conferences/{slug}/{year}")
        authors.update(unquote(a) for a in re.findall(r'href="/authors/([^"?]+)"', text))
    chosen = rng.sample(sorted(authors), SAMPLED)
    report, started = CountReport(), time.monotonic()
    for name in chosen:
        check_author(site, name, report)
    _save("authors", _report(report, started, sampled=chosen))
    assert report.mismatches == []
    assert report.pages == SAMPLED


def test_crawl_of_every_page_type_finds_no_broken_link(site, conference_years):
    slug, year = conference_years[-1]
    seeds = ["/", "/conferences", "/topics", "/api/docs", "/similar", "/search?q=diffusion",
             f"/conferences/{slug}", f"/conferences/{slug}/{year}"]
    started = time.monotonic()
    report = crawl(site, seeds, CRAWL_LINKS)
    _save("crawl", {"fetched": report.fetched, "broken": len(report.broken), "kinds": sorted(report.kinds),
                    "seconds": round(time.monotonic() - started, 1)})
    assert report.broken == []
    assert report.fetched == CRAWL_LINKS or report.exhausted
    assert {"front", "search", "papers", "authors", "conferences", "topics", "similar", "api"} <= report.kinds


# -- venue numbers against the corpus's own files ----------------------------------------------------

@pytest.fixture(scope="module")
def full_years() -> dict[tuple[str, int], list[dict]]:
    """ICLR 2018-2025 and NeurIPS 2021-2024 as the source files hold them (the records an ingest keeps)."""
    corpus = corpus_dir()
    if corpus is None:
        pytest.skip("the full corpus (PAPERLIST_CORPUS) is not next to this checkout")
    return source_records([next(corpus.glob(f"{folder}/{folder}{year}.json*"))
                           for folder, years in FULL_YEARS.items() for year in years])


def _venue(site, conference: str, year: int) -> dict:
    page = site.get(f"/api/v1/venues/{conference}/{year}")
    assert page.status == 200, (conference, year, page.status)
    return json.loads(page.text)


def test_iclr_2018_2025_venue_statistics_match_the_source_files(site, full_years):
    mismatches, with_rates = [], 0
    for year in FULL_YEARS["iclr"]:
        numbers = venue_numbers("iclr", full_years[("iclr", year)])
        mismatches += venue_mismatches(year, numbers, _venue(site, "iclr", year))
        with_rates += bool(numbers["rejected"])
    assert mismatches == []
    # Not every ICLR year of the corpus lists its rejections; most do, and those get a rate.
    assert with_rates >= len(FULL_YEARS["iclr"]) // 2


def test_iclr_and_neurips_acceptance_rates_within_a_point_of_the_source_files(site, full_years):
    checked = 0
    for (conference, year), records in sorted(full_years.items()):
        got, want = _venue(site, conference, year), expected_rate(records)
        if want is None:
            assert got["acceptance_rate"] is None and got["submissions"] is None, (conference, year)
            continue
        assert got["acceptance_rate"] is not None and abs(got["acceptance_rate"] - want) <= 0.01, (conference, year)
        checked += 1
    assert checked >= 10  # ICLR 2024 and NeurIPS 2024 list no rejections: no rate, rightly
