"""Issue 33 against real Elasticsearch: reading lists and their exports, where a review score lands, who
publishes where.

Expected numbers are counted from the source files with rules of their own: a record's mean review
score from its ``rating`` list (else its ``rating_avg``), its decision through the catalogue, its
institutions as the alias table names its ``aff`` / ``aff_unique_norm`` spellings, once per paper.
The sample runs in CI; with the full corpus next to the checkout, whole source files are ingested
into a test alias of their own and checked the same way (skipped when the corpus is absent).
"""

from __future__ import annotations

import math
import re
import uuid
from collections import Counter, defaultdict

import bibtexparser
import pytest

from conftest import SAMPLE, corpus_dir, drop_alias, run_ingest, source_records
from services.indexer.cleaning.affiliations import canonical_affiliation
from services.indexer.paper.normalise import map_status
from services.search.catalogue import catalogue
from services.search.limits import TOP_INSTITUTIONS
from services.settings import load_settings
from services.web.app import create_app

pytestmark = pytest.mark.integration

TIERS = ("oral", "spotlight", "poster")


def _mean(record: dict) -> float | None:
    """The mean review score: of the reviewers' scores where listed ("6;8", "6: good"), else the source's."""
    listed = [float(m.group(1)) for part in str(record.get("rating") or "").split(";")
              if (m := re.match(r"\s*([0-9]+(?:\.[0-9]+)?)", part)) and float(m.group(1)) > 0]
    if listed:
        return sum(listed) / len(listed)
    given = record.get("rating_avg")
    given = given[0] if isinstance(given, list) and given else given
    try:
        return float(given) if given not in (None, "") and float(given) > 0 else None
    except (TypeError, ValueError):
        return None


def expected_bins(conference: str, records: list[dict]) -> dict[float, dict]:
    """Per half-point bin: scored records, main-track acceptances, and per tier."""
    cat = catalogue()
    bins: dict[float, dict] = defaultdict(lambda: {"papers": 0, "accepted": 0, "by_tier": Counter()})
    for record in records:
        mean = _mean(record)
        if mean is None:
            continue
        b = bins[math.floor(mean * 2) / 2]
        b["papers"] += 1
        raw = str(record.get("status") or "").strip()
        outcome = cat.outcome(conference, raw)
        if outcome.accepted and outcome.main:
            b["accepted"] += 1
        if outcome.accepted and outcome.tier:
            b["by_tier"][outcome.tier] += 1
    return bins


def expected_institutions(conference: str, records: list[dict]) -> Counter:
    """Listed papers (rejected and withdrawn left out) per institution, each paper counted once per institution."""
    counts: Counter = Counter()
    for record in records:
        if map_status(str(record.get("status") or "").strip(), conference) in ("reject", "withdrawn"):
            continue
        aff = record.get("aff") if isinstance(record.get("aff"), str) else ""
        names = {canonical_affiliation(part) for part in re.split(r"[;+]", aff or "")} - {""}
        if not names:
            names = {canonical_affiliation(p) for p in str(record.get("aff_unique_norm") or "").split(";")} - {""}
        counts.update(name.replace(";", ",") for name in names)
    return counts


def _check_bins(got: dict, want: dict[float, dict]) -> None:
    bins = got["score_bins"]
    assert sum(b["papers"] for b in bins) == got["coverage"]["reviews"] == sum(w["papers"] for w in want.values())
    by_lo = {b["lo"]: b for b in bins}
    for lo, w in want.items():
        b = by_lo[lo]
        assert (b["papers"], b["accepted"]) == (w["papers"], w["accepted"]), lo
        assert {t: n for t, n in b["by_tier"].items()} == dict(w["by_tier"]), lo
        assert b["hi"] == lo + 0.5
    assert all(b["papers"] == 0 for lo, b in by_lo.items() if lo not in want)  # the empty bins between


def _check_top_institutions(got: dict, want: Counter, top: int = 20) -> None:
    ranked = sorted(want.items(), key=lambda kv: (-kv[1], kv[0]))
    assert [(i["name"], i["papers"]) for i in got["institutions"][:top]] == ranked[:top]
    assert len(got["institutions"]) == min(TOP_INSTITUTIONS, len(want))
    assert got["institutions_counted"]["with_affiliations"] <= got["institutions_counted"]["papers"]


# -- the sample, in CI ---------------------------------------------------------------------------

def test_a_list_of_fifty_sample_papers_renders_and_exports_bibtex_with_unique_keys(client):
    found = client.get("/api/v1/search", query_string={"q": "learning", "page_size": 50}).get_json()["hits"]
    ids = [h["id"] for h in found]
    assert len(ids) == 50
    page = client.get("/list", query_string={"ids": ",".join(ids)})
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and html.count('class="paper-card"') == 50
    assert html.index(found[0]["title"][:30].replace("&", "&amp;")) < html.index(found[-1]["title"][:30].replace("&", "&amp;"))
    resp = client.get("/api/v1/export", query_string={"ids": ",".join(ids), "format": "bibtex"})
    assert resp.status_code == 200 and resp.headers["X-Exported-Count"] == "50"
    library = bibtexparser.parse_string(resp.get_data(as_text=True))
    keys = [entry.key for entry in library.entries]
    assert len(keys) == 50 == len(set(keys)) and not library.failed_blocks
    exported = client.get("/api/v1/export", query_string={"ids": ",".join(ids), "format": "json"}).get_json()
    assert [p["id"] for p in exported["papers"]] == ids  # exactly those, in the list's order


def test_sample_score_bins_match_the_source_file(client):
    records = source_records([SAMPLE / "iclr" / "iclr2021.json.gz"])[("iclr", 2021)]
    got = client.get("/api/v1/venues/iclr/2021").get_json()
    _check_bins(got, expected_bins("iclr", records))
    assert got["scores_accepted_only"] is False and got["scores_taken"] is None
    page = client.get("/conferences/iclr/2021/scores", query_string={"score": "6"}).get_data(as_text=True)
    assert "is higher than" in page and 'class="landed"' in page


def test_sample_iclr_2024_scores_are_said_to_predate_the_decisions(client):
    got = client.get("/api/v1/venues/iclr/2024").get_json()
    assert got["scores_taken"] == "2023-12-14" and got["scores_accepted_only"] is True
    assert all(b["accepted"] == b["papers"] for b in got["score_bins"])
    page = client.get("/conferences/iclr/2024/scores").get_data(as_text=True)
    assert "Read during the review." in page and "Accepted papers only." in page
    venue_page = client.get("/conferences/iclr/2024").get_data(as_text=True)
    for said in (page, venue_page):  # once a page, with the catalogue's date
        assert said.count("before the decisions") == 1 and "as they stood on 14 December 2023" in said


def test_sample_institutions_match_the_source_file_and_link_searches_that_list_them(client):
    records = source_records([SAMPLE / "icml" / "icml2024.json.gz"])[("icml", 2024)]
    got = client.get("/api/v1/venues/icml/2024").get_json()
    _check_top_institutions(got, expected_institutions("icml", records), top=10)
    first = got["institutions"][0]
    found = client.get("/api/v1/search", query_string={"affiliation": first["name"], "conference": "icml",
                                                         "year": "2024"}).get_json()
    assert found["total"] == first["papers"]  # the link on the page lists exactly the papers counted
    assert got["institutions_by_tier"] and all(i["by_tier"].get("oral", 0) + i["by_tier"].get("spotlight", 0)
                                               for i in got["institutions_by_tier"])
    page = client.get("/conferences/icml/2024/institutions").get_data(as_text=True)
    assert f"{first['name']}</a>" in page and 'id="by-tier"' in page


def test_the_tools_are_cached_and_kept_at_the_edge_like_the_other_reads(client):
    for path in ("/conferences/iclr/2021/scores", "/conferences/icml/2024/institutions", "/list?ids=x-1"):
        first = client.get(path)
        assert first.status_code == 200 and "s-maxage=" in first.headers["Cache-Control"], path
        again = client.get(path)
        assert again.headers.get("X-Cache") == "hit", path
    venue = client.get("/api/v1/venues/icml/2024")
    assert "s-maxage=" in venue.headers["Cache-Control"] and venue.headers.get("Access-Control-Allow-Origin") == "*"


# -- whole source files, where the corpus is next to the checkout ----------------------------------

@pytest.fixture(scope="module")
def whole_files(settings, celery_app, es, redis_client, worker, tmp_path_factory):
    """ICLR 2017 (review scores, rejections) and AISTATS 2026 (affiliations, oral and spotlight) as published."""
    corpus = corpus_dir()
    if corpus is None:
        pytest.skip("the full corpus (PAPERLIST_CORPUS) is not next to this checkout")
    files = [corpus / "iclr" / "iclr2017.json.gz", corpus / "aistats" / "aistats2026.json.gz"]
    alias = f"test-tools-{uuid.uuid4().hex[:8]}"
    try:
        run_ingest(settings, celery_app, es, redis_client, files, alias, rejects_dir=tmp_path_factory.mktemp("rejects"))
        app = create_app(load_settings(ES_URL=settings.es_url, PAPERLIST_INDEX=alias, REDIS_URL=settings.redis_url,
                                       PAPERLIST_SEARCH_BUDGET="10"))
        yield app.test_client(), source_records(files)
    finally:
        drop_alias(es, alias)


def test_score_bins_of_a_whole_source_file_match_its_counts(whole_files):
    client, records = whole_files
    got = client.get("/api/v1/venues/iclr/2017").get_json()
    want = expected_bins("iclr", records[("iclr", 2017)])
    _check_bins(got, want)
    assert sum(w["papers"] for w in want.values()) > 400 and any(w["accepted"] for w in want.values())


def test_the_top_twenty_institutions_of_a_whole_source_file_match_its_counts(whole_files):
    client, records = whole_files
    got = client.get("/api/v1/venues/aistats/2026").get_json()
    want = expected_institutions("aistats", records[("aistats", 2026)])
    _check_top_institutions(got, want, top=20)
    assert got["institutions_counted"]["with_affiliations"] > 500
