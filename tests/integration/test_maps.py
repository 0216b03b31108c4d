"""Issue 32's maps end to end on bundled sample files: an ingest asks for the maps of exactly the venue-years
it wrote, a worker lays them out into ``<alias>-maps``, the site and the API serve them, and the page works in
Chromium at 1366 px and 390 px (screenshots in ``$TMPDIR/paperlist-browser/maps-*.png``).

The sample's venue-years list about 60 papers, so this module runs a worker of its own (its own queue) with
``PAPERLIST_MAP_MIN_PAPERS`` lowered to ``MIN_PAPERS``; the session's worker keeps the default (200), so no
other test sees a map being made (each made map bumps its alias's generation).
"""

from __future__ import annotations

import gzip
import json
import re
import time
import uuid

import pytest
from test_browser import _screenshot, browser_context, expect, playwright  # noqa: F401  (fixtures)

from conftest import SAMPLE, Worker, _test_settings, drop_alias, run_ingest, serving
from services.indexer.celery_app import create_celery
from services.indexer.maps.build import listed_venue_years
from services.search.engine import map_store
from services.search.records import venue_maps

pytestmark = [pytest.mark.integration]

MIN_PAPERS = 40
FILES = [SAMPLE / "icml" / "icml2026.json.gz", SAMPLE / "iclr" / "iclr2026.json.gz", SAMPLE / "aaai" / "aaai2025.json.gz"]
SIZES = [(1366, 768), (390, 844)]


@pytest.fixture(scope="module")
def maps_settings(settings):
    return _test_settings(REDIS_URL=settings.redis_url, PAPERLIST_QUEUE=f"paperlist-test-maps-{uuid.uuid4().hex[:6]}",
                          PAPERLIST_MAP_MIN_PAPERS=str(MIN_PAPERS), PAPERLIST_BATCH_SIZE="50")


@pytest.fixture(scope="module")
def maps_worker(maps_settings, stores):
    worker = Worker(maps_settings, create_celery(maps_settings))
    worker.start(concurrency=1)
    yield worker
    worker.stop()


def stored_maps(es, alias: str) -> dict[tuple[str, int], venue_maps.VenueMap]:
    return {key: map_store.load(es, f"{alias}-maps", *key) for key in map_store.stored(es, f"{alias}-maps")}


def wait_for_maps(es, alias: str, done, seconds: float = 300) -> dict:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        es.indices.refresh(index=f"{alias}-maps", ignore_unavailable=True)
        found = stored_maps(es, alias)
        if done(found):
            return found
        time.sleep(1)
    raise AssertionError(f"the maps of {alias} were not made in {seconds:.0f} s: {sorted(found)}")


@pytest.fixture(scope="module")
def mapped(maps_settings, maps_worker, es, redis_client, tmp_path_factory):
    """Three sample venue-years ingested through the maps worker, their maps made."""
    alias = f"test-maps-{uuid.uuid4().hex[:8]}"
    rejects = tmp_path_factory.mktemp("rejects")
    summary = run_ingest(maps_settings, maps_worker.celery, es, redis_client, FILES, alias, rejects_dir=rejects)
    listed = listed_venue_years(es, alias)
    expected = {key for key, papers in listed.items() if papers >= MIN_PAPERS}
    assert len(expected) >= 2, listed  # the test is about something
    maps = wait_for_maps(es, alias, lambda found: set(found) == expected)
    yield {"alias": alias, "summary": summary, "listed": listed, "maps": maps, "rejects": rejects}
    drop_alias(es, alias)


def test_an_ingest_asks_for_the_maps_of_the_venue_years_it_wrote_and_gets_them(mapped, es):
    assert sorted(mapped["summary"].maps) == sorted(mapped["listed"])  # every venue-year the files hold was written
    for (conference, year), stored in mapped["maps"].items():
        with_vectors = es.count(index=mapped["alias"], query={"bool": {"filter": [
            {"term": {"conference": conference}}, {"term": {"year": year}}, {"exists": {"field": "embedding"}}],
            "must_not": [{"terms": {"status": ["reject", "withdrawn"]}}]}})["count"]
        assert stored.papers == len(stored.points) == with_vectors
        assert len(stored.clusters) >= 3 and sum(c.count for c in stored.clusters) == stored.papers
        assert all(c.label for c in stored.clusters) and len({c.label for c in stored.clusters}) == len(stored.clusters)
        assert all(0 <= v <= 1 for v in (*stored.points.x, *stored.points.y)) and max(stored.points.x) == 1.0
        assert stored.cpu_seconds > 0 and stored.digest
    smaller = {key for key, papers in mapped["listed"].items() if papers < MIN_PAPERS}
    assert not smaller & set(mapped["maps"])  # a venue-year under the minimum gets none


def test_an_unchanged_ingest_asks_for_no_map_and_a_changed_venue_year_remakes_only_its_own(
        mapped, maps_settings, maps_worker, es, redis_client, tmp_path):
    alias, before = mapped["alias"], mapped["maps"]
    again = run_ingest(maps_settings, maps_worker.celery, es, redis_client, FILES, alias, rejects_dir=mapped["rejects"])
    assert again.indexed == 0 and again.maps == []

    records = json.load(gzip.open(FILES[0], "rt", encoding="utf-8"))
    records[0]["abstract"] = (records[0].get("abstract") or "") + " We also study protein folding."
    changed = tmp_path / "icml" / "icml2026.json"
    changed.parent.mkdir()
    changed.write_text(json.dumps(records))
    third = run_ingest(maps_settings, maps_worker.celery, es, redis_client, [changed], alias,
                       rejects_dir=mapped["rejects"])
    assert third.indexed == 1 and third.maps == [("icml", 2026)]
    after = wait_for_maps(es, alias, lambda found: found[("icml", 2026)].digest != before[("icml", 2026)].digest)
    for key, stored in after.items():
        if key != ("icml", 2026):
            assert stored == before[key]  # not made again


@pytest.fixture(scope="module")
def maps_app(mapped, maps_settings):
    from services.web.app import create_app

    app = create_app(_test_settings(PAPERLIST_INDEX=mapped["alias"], REDIS_URL=maps_settings.redis_url,
                                    PAPERLIST_QUEUE=maps_settings.queue, PAPERLIST_MAP_MIN_PAPERS=str(MIN_PAPERS),
                                    PAPERLIST_RATE_LIMIT_ENABLED="false", PAPERLIST_SEARCH_BUDGET="10"))
    app.testing = False
    return app


def test_the_site_serves_the_maps_and_links_to_them(mapped, maps_app):
    client = maps_app.test_client()
    (conference, year), stored = max(mapped["maps"].items(), key=lambda item: item[1].papers)
    page = client.get(f"/conferences/{conference}/{year}/map")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert len(re.findall(r'<a href="/papers/[^"]+" tabindex="-1"><circle', html)) == stored.papers
    data = client.get(f"/api/v1/venues/{conference}/{year}/map").get_json()
    assert [p["id"] for p in data["points"]] == list(stored.points.ids)
    assert [c["label"] for c in data["clusters"]] == [c.label for c in stored.clusters]
    venue_page = client.get(f"/conferences/{conference}/{year}").get_data(as_text=True)
    assert f'href="/conferences/{conference}/{year}/map">Map of its papers</a>' in venue_page
    word = stored.clusters[0].terms[0].split()[0]
    results = client.get(f"/search?q={word}&conference={conference}&year={year}").get_data(as_text=True)
    assert f'/conferences/{conference}/{year}/map?q={word}' in results
    highlighted = client.get(f"/conferences/{conference}/{year}/map?q={word}").get_data(as_text=True)
    assert 'class="hit"' in highlighted


@pytest.fixture(scope="module")
def live_server(maps_app):
    """The browser fixtures' server (test_browser.py's name), over this module's alias."""
    with serving(maps_app) as url:
        yield url


NAMES_ARE_LEGIBLE = """() => {
  const frame = document.querySelector('[data-map]').getBoundingClientRect();
  const names = [...document.querySelectorAll('svg.map .name text')].filter((t) => t.getClientRects().length);
  const boxes = names.map((t) => t.getBoundingClientRect());
  const sizes = names.map((t) => parseFloat(getComputedStyle(t).fontSize));
  const inside = boxes.every((b) => b.left >= frame.left - 1 && b.right <= frame.right + 1);
  let overlaps = 0;
  boxes.forEach((a, i) => boxes.slice(i + 1).forEach((b) => {
    if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) { overlaps += 1; }
  }));
  return {shown: names.length, smallest: Math.min(...sizes), inside, overlaps, width: frame.width};
}"""


@pytest.mark.browser
@pytest.mark.parametrize("width, height", SIZES)
def test_the_map_in_a_browser(mapped, browser_context, width, height):
    (conference, year), stored = max(mapped["maps"].items(), key=lambda item: item[1].papers)
    page = browser_context(width=width, height=height)
    page.goto(f"/conferences/{conference}/{year}/map")
    expect(page.locator("[data-map] svg.map")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")  # no sideways scrolling
    legible = page.evaluate(NAMES_ARE_LEGIBLE)
    assert legible["shown"] >= len(stored.clusters) // 2 and legible["smallest"] >= 11, legible
    assert legible["inside"] and legible["overlaps"] == 0, legible
    _screenshot(page, f"maps-{width}")

    # The search box highlights as you type.
    word = stored.clusters[0].terms[0].split()[0]
    page.fill("#map-q", word)
    expect(page.locator("svg.map circle.hit").first).to_be_attached()
    expect(page.locator("[data-map-matches]")).to_contain_text("highlighted")
    assert page.locator("svg.map circle.hit").count() >= 1
    _screenshot(page, f"maps-{width}-highlighted")

    # The cluster list by keyboard: from the box, past its button and the matches' link (never through the
    # thousands of points), to the first cluster; Enter lists its papers.
    page.focus("#map-q")
    for _ in range(3):
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.closest('svg') === null")
        if page.evaluate("document.activeElement.closest('[data-map-clusters]') !== null"):
            break
    assert page.evaluate("document.activeElement.closest('[data-map-clusters]') !== null")
    expect(page.locator("svg.map g.chosen")).to_have_count(1)  # the focused cluster stands out on the map
    page.keyboard.press("Enter")
    expect(page.locator("#cluster-papers li")).to_have_count(stored.clusters[0].count)

    # A point opens its paper.
    page.goto(f"/conferences/{conference}/{year}/map")
    point = page.locator("svg.map g[data-cluster] a").first
    title = point.locator("title").text_content()
    point.locator("circle").click(force=True)
    page.wait_for_url(re.compile(r"/papers/"))
    expect(page.locator("h1")).to_contain_text(title[:40])
    assert page.errors == []


@pytest.mark.browser
def test_the_map_passes_the_accessibility_audit_and_its_cluster_list_is_announced(mapped, browser_context):
    """Issue 49's audit (test_browser_a11y.py) on the map, with a cluster chosen and a search highlighted: no serious
    or critical axe violation at either width or scheme; the clusters are a list named by its heading."""
    from test_browser_a11y import audit_everywhere, said

    (conference, year), stored = max(mapped["maps"].items(), key=lambda item: item[1].papers)
    page = browser_context(bypass_csp=True)
    word = stored.clusters[0].terms[0].split()[0]
    found = audit_everywhere(page, f"/conferences/{conference}/{year}/map?q={word}&cluster=0")
    assert found == {}, said(found)
    clusters = page.get_by_role("list", name=f"The {len(stored.clusters)} clusters")
    expect(clusters.get_by_role("link")).to_have_count(len(stored.clusters))
    expect(page.locator("#map-matches[role=status]")).to_contain_text("highlighted")
    assert page.errors == []
