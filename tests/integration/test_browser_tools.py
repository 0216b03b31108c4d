"""Issue 33's tools in a real browser, at 1366 px and 390 px: the reading list (stars by keyboard, the
list page, its exports, without JavaScript too), the score box answering in place, the institutions
page. Each page: no sideways scrolling, its key element above the fold, no script error.

Screenshots go to ``$TMPDIR/paperlist-browser/`` (``tools-*.png``) for a human to look at.
The browser fixtures are test_browser.py's (Debian's chromium through Playwright; skipped without it).
"""

from __future__ import annotations

import re

import bibtexparser
import pytest

from test_browser import _screenshot, browser_context, expect, playwright  # noqa: F401  (fixtures)

pytestmark = [pytest.mark.integration, pytest.mark.browser]

SIZES = [(1366, 768), (390, 844)]
NO_SIDEWAYS = "document.documentElement.scrollWidth <= window.innerWidth"


def _above_the_fold(locator, height: int) -> None:
    box = locator.bounding_box()
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= height, box


@pytest.mark.parametrize("width, height", SIZES)
def test_stars_keep_a_reading_list_that_opens_and_exports(browser_context, width, height):
    page = browser_context(width=width, height=height)
    page.goto("/search?q=learning")
    titles = page.locator(".paper-list .paper-title").all_inner_texts()[:3]
    stars = page.locator(".paper-list .paper-card [data-star]")
    for i in range(3):  # by keyboard: a star is a toggle button
        stars.nth(i).focus()
        page.keyboard.press("Enter" if i % 2 else "Space")
        expect(stars.nth(i)).to_have_attribute("aria-pressed", "true")
    expect(page.locator("[data-list-count]")).to_have_text("3")
    expect(page.locator("[data-list-status]")).to_contain_text("3 papers in it")
    _screenshot(page, f"tools-stars-{width}")

    page.locator("[data-list-link]").click()
    expect(page).to_have_url(re.compile(r"/list\?ids="))
    expect(page.locator(".reading-list .paper-title")).to_have_count(3)
    _above_the_fold(page.get_by_role("heading", name="Reading list"), height)
    assert page.locator(".reading-list .paper-title").all_inner_texts() == titles  # in the order starred
    _above_the_fold(page.locator(".reading-list .paper-title").first, height)
    _above_the_fold(page.locator("[data-export=bibtex]"), height)
    assert page.evaluate(NO_SIDEWAYS)
    expect(page.locator("[data-list-sync]")).to_be_hidden()  # it is the list kept here
    _screenshot(page, f"tools-list-{width}")

    bibtex = page.request.get(page.locator("[data-export=bibtex]").get_attribute("href"))
    entries = bibtexparser.parse_string(bibtex.text()).entries
    assert len(entries) == 3 == len({e.key for e in entries})

    # Un-starring on the list keeps the address and the exports in step; a reload shows the rest.
    page.locator(".reading-list [data-star]").first.click()
    expect(page.locator("[data-list-count]")).to_have_text("2")
    assert page.url.count("%2C") == 1
    assert page.locator("[data-export=csv]").get_attribute("href").count("%2C") == 1
    page.reload()
    expect(page.locator(".reading-list .paper-title")).to_have_count(2)
    assert page.errors == []


@pytest.mark.parametrize("width, height", SIZES)
def test_a_paper_pages_star_is_one_of_its_links_and_every_paper_list_stars(browser_context, width, height):
    page = browser_context(width=width, height=height)
    page.goto("/")  # the front page's papers (the paper_list macro, as on author and paper pages)
    front = page.locator(".paper-list [data-star]").first
    front.click()
    expect(front).to_have_attribute("aria-pressed", "true")
    page.locator(".paper-list .paper-title a").first.click()
    star = page.locator("ul.paper-actions [data-star]")  # the paper's own, in its row of links
    expect(star).to_have_attribute("aria-pressed", "true")
    expect(star.locator(".when-on")).to_be_visible()  # "In your reading list"
    expect(star.locator(".when-off")).to_be_hidden()
    _above_the_fold(star, height)
    star.focus()
    page.keyboard.press("Enter")
    expect(star).to_have_attribute("aria-pressed", "false")
    expect(star.locator(".when-off")).to_be_visible()  # "Save to reading list"
    expect(star.locator(".when-on")).to_be_hidden()
    similar = page.locator(".similar .paper-list [data-star]")
    if similar.count():
        similar.first.click()
        expect(page.locator("[data-list-count]")).to_have_text("1")
    assert page.evaluate(NO_SIDEWAYS)
    _screenshot(page, f"tools-paper-star-{width}")
    assert page.errors == []


def test_a_shared_list_is_offered_to_keep_and_renders_without_javascript(browser_context, live_server):
    page = browser_context(width=390, height=844)
    page.goto("/search?q=graph")
    ids = [a.get_attribute("data-star") for a in page.locator(".paper-list [data-star]").all()[:2]]
    shared = f"/list?ids={','.join(ids)}"
    page.goto(shared)  # someone else's list: nothing is kept in this browser yet
    expect(page.locator("[data-list-sync]")).to_be_visible()
    page.locator("[data-list-keep]").click()
    expect(page.locator("[data-list-count]")).to_have_text("2")
    expect(page.locator("[data-list-sync]")).to_be_hidden()

    plain = browser_context(javascript=False, width=390, height=844)
    plain.goto(shared)
    expect(plain.locator(".reading-list .paper-title")).to_have_count(2)
    expect(plain.locator("[data-star]").first).to_be_hidden()  # a star needs the script; the list does not
    href = plain.locator("[data-export=json]").get_attribute("href")
    assert [p["id"] for p in plain.request.get(href).json()["papers"]] == ids
    plain.goto("/list")
    expect(plain.locator("[data-list-empty]")).to_contain_text("kept in this browser only")
    assert plain.evaluate(NO_SIDEWAYS)
    _screenshot(plain, "tools-list-nojs-390")


@pytest.mark.parametrize("width, height", SIZES)
def test_the_score_box_answers_as_you_type(browser_context, width, height):
    page = browser_context(width=width, height=height)
    page.goto("/conferences/iclr/2021/scores")
    page.evaluate("window.__paperlistMarker = 'no reload'")
    box = page.locator("#score")
    _above_the_fold(box, height)
    box.press_sequentially("6.5", delay=40)
    answer = page.locator("[data-score-answer]")
    expect(answer).to_contain_text("A mean of 6.5 is higher than")
    expect(answer).to_contain_text("Its bin, means 6.5 to under 7")
    expect(page).to_have_url(re.compile(r"score=6\.5"))
    assert page.evaluate("window.__paperlistMarker") == "no reload"
    _above_the_fold(page.locator(".score-percentile"), height)
    assert page.evaluate(NO_SIDEWAYS)
    expect(page.locator("svg#score-bins")).to_be_visible()
    _screenshot(page, f"tools-scores-{width}")
    box.fill("")
    box.press_sequentially("x", delay=40)
    expect(answer).to_contain_text("Give a mean score as a number")
    assert page.errors == [] or all("400" in e for e in page.errors)  # the bad value's fetch, and nothing else


def test_the_score_box_works_without_javascript_and_says_when_scores_predate_decisions(browser_context):
    page = browser_context(javascript=False, width=390, height=844)
    page.goto("/conferences/iclr/2021/scores")
    page.locator("#score").fill("5")
    page.locator(".score-box button").click()
    expect(page).to_have_url(re.compile(r"score=5#score-answer"))
    expect(page.locator("[data-score-answer]")).to_contain_text("A mean of 5 is higher than")
    page.goto("/conferences/iclr/2024/scores")
    expect(page.locator(".score-caveats")).to_contain_text("Read during the review.")
    _above_the_fold(page.locator(".score-caveats"), 844)
    page.goto("/conferences/iclr/2025/scores")
    expect(page.locator(".no-scores")).to_contain_text("no review scores")


@pytest.mark.parametrize("width, height", SIZES)
def test_who_publishes_where(browser_context, width, height):
    page = browser_context(width=width, height=height)
    page.goto("/conferences/icml/2024")
    page.locator(".venue-tools a", has_text="Who publishes here").click()
    expect(page).to_have_url(re.compile(r"/conferences/icml/2024/institutions$"))
    _above_the_fold(page.get_by_role("heading", name="Who publishes at ICML 2024"), height)
    first = page.locator("#by-papers tbody tr").first
    _above_the_fold(first, height)
    assert page.evaluate(NO_SIDEWAYS)
    expect(page.locator(".counted")).to_contain_text("listed papers counted")
    expect(first.locator("svg.chart")).to_have_count(1)
    _screenshot(page, f"tools-institutions-{width}")
    papers = int(first.locator("td").nth(1).inner_text())
    name = first.locator("th a").inner_text()
    first.locator("th a").click()
    expect(page).to_have_url(re.compile(r"/search\?affiliation="))
    assert int(page.locator(".results-head .total strong").inner_text().replace(",", "")) == papers, name
    assert page.errors == []
