"""Issue 45's pages in a real browser, at 1366 px and 390 px: a name of several people (the short page that tells
them apart) and a person's page. Each: no sideways scrolling, the person's label in sight, its links lead where
they say (a person, a co-author's person, the feed), no script error.

Screenshots go to ``$TMPDIR/paperlist-browser/`` (``people-*.png``) for a human to look at.
The browser fixtures are test_browser.py's (Debian's chromium through Playwright; skipped without it).
"""

from __future__ import annotations

import re

import pytest
from test_browser import _screenshot, browser_context, expect, playwright  # noqa: F401  (fixtures)

pytestmark = [pytest.mark.integration, pytest.mark.browser]

SIZES = [(1366, 768), (390, 844)]
NO_SIDEWAYS = "document.documentElement.scrollWidth <= window.innerWidth"


@pytest.fixture(scope="module")
def shared_name(es, sample_alias) -> str:
    """A name of several people, each with an affiliation to tell them apart by (the largest such block)."""
    blocks = es.search(index=f"{sample_alias}-people", size=0, query={"term": {"kind": "person"}},
                       aggs={"k": {"terms": {"field": "name_key", "size": 20, "min_doc_count": 3}}})
    for bucket in blocks["aggregations"]["k"]["buckets"]:
        hits = es.search(index=f"{sample_alias}-people", size=50, query={"term": {"name_key": bucket["key"]}})
        people = [h["_source"] for h in hits["hits"]["hits"]]
        if sum(bool(p["affiliations"]) for p in people) >= 2:
            return people[0]["name"]
    pytest.fail("the sample has a name of several people with affiliations")


@pytest.mark.parametrize("width, height", SIZES)
def test_a_name_of_several_people_tells_them_apart_and_leads_to_each(browser_context, shared_name, width, height):
    page = browser_context(width=width, height=height)
    page.goto(f"/authors/{shared_name}")
    expect(page.locator("h1")).to_have_text(shared_name)
    labels = page.locator(".person-card .person-label")
    assert labels.count() >= 3
    expect(labels.first).to_be_visible()
    texts = labels.all_inner_texts()
    assert sum("·" in t for t in texts) >= 2 and len(set(texts)) >= 2  # "Yang Liu · Tsinghua University"
    assert page.evaluate(NO_SIDEWAYS)
    _screenshot(page, f"people-named-{width}")
    _screenshot(page, f"people-named-{width}-full", full_page=True)

    chosen = page.locator(".person-card").filter(has_text="·").first
    name = chosen.locator(".person-label a").inner_text()
    chosen.locator(".person-label a").click()
    expect(page).to_have_url(re.compile(r"/people/p[0-9a-f]{12}$"))
    expect(page.locator("h1")).to_have_text(name)
    assert page.errors == []


@pytest.mark.parametrize("width, height", SIZES)
def test_a_persons_page_with_its_label_coauthors_and_feed(browser_context, es, sample_alias, width, height):
    found = es.search(index=f"{sample_alias}-people", size=1, sort=[{"papers": "desc"}],
                      query={"bool": {"filter": [{"term": {"kind": "person"}}]}})["hits"]["hits"][0]["_source"]
    page = browser_context(width=width, height=height)
    page.goto(f"/people/{found['person_id']}")
    expect(page.locator("h1")).to_have_text(found["name"])
    where = page.locator(".person-profile .person-where")
    expect(where).to_be_visible()
    box = where.bounding_box()
    assert box and box["y"] + box["height"] <= height  # who they are, in the first screen
    expect(page.locator(".author-total")).to_contain_text(f"{found['papers']:,} paper")
    assert page.locator(".paper-card").count() == min(found["papers"], 50)
    assert page.evaluate(NO_SIDEWAYS)
    _screenshot(page, f"people-person-{width}")
    _screenshot(page, f"people-person-{width}-full", full_page=True)

    feed = page.request.get(page.locator("a.follow").get_attribute("href"))
    assert feed.ok and "application/atom+xml" in feed.headers["content-type"] and "<entry>" in feed.text()

    coauthor = page.locator("section:has(h2:text('Co-authors')) li a").first
    name = coauthor.inner_text()
    coauthor.click()
    expect(page).to_have_url(re.compile(r"/(people|authors)/"))
    expect(page.locator("h1")).to_contain_text(name.split()[-1])
    assert page.errors == []
