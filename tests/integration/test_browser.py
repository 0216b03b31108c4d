"""The site in a real browser: Debian's chromium driven by Playwright over ``live_server``.

The issue's scenario end to end: type a query and see the results update in place (no
reload), narrow by a conference and then a year facet (in place, the state in the URL, a
reload shows the same results, Back undoes a facet), open a paper, copy its BibTeX with the
button (read back from the clipboard), follow an author link. Also: the autocomplete by
keyboard, the site without JavaScript, a narrow (phone) viewport, and basic accessibility.

Screenshots of the results and paper pages (wide and narrow) go to
``$TMPDIR/paperlist-browser/`` for a human to look at; they are not compared.

Playwright's own browser downloads are not used: chromium comes from Debian
(``apt-get install chromium``, done by ``deploy/test``); the test is skipped without it.
"""

from __future__ import annotations

import re
import tempfile
from datetime import date
from pathlib import Path
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest

from services.search.limits import MAX_QUERY, MAX_SHARED_URL, PHONE_YEARS_SHOWN

pytestmark = [pytest.mark.integration, pytest.mark.browser]

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SHOTS = Path(tempfile.gettempdir()) / "paperlist-browser"
TIMEOUT_MS = 15_000

if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is missing: install Debian's chromium (apt-get install chromium, as deploy/test does)",
                allow_module_level=True)

sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is a test dependency")
expect = sync_api.expect


@pytest.fixture(scope="module")
def playwright():
    with sync_api.sync_playwright() as pw:
        yield pw


@pytest.fixture
def browser_context(playwright, tmp_path, live_server):
    """Open chromium contexts, each with a fresh user data directory; all closed afterwards."""
    contexts = []

    def open_context(*, javascript: bool = True, width: int = 1280, height: int = 900, clipboard: bool = False,
                     scale: float = 1, bypass_csp: bool = False):
        # scale: the device's pixel ratio (2 with half the width is a 200% zoom); bypass_csp: for an injected
        # test script alone (axe-core, test_browser_a11y.py), never for a test of the site's own scripts.
        profile = tmp_path / f"profile-{len(contexts)}"
        context = playwright.chromium.launch_persistent_context(
            str(profile), executable_path=str(CHROMIUM), args=ARGS, headless=True,
            java_script_enabled=javascript, viewport={"width": width, "height": height}, locale="en-US",
            base_url=live_server, device_scale_factor=scale, bypass_csp=bypass_csp)
        context.set_default_timeout(TIMEOUT_MS)
        expect.set_options(timeout=TIMEOUT_MS)
        if clipboard:
            context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server)
        contexts.append(context)
        page = context.pages[0] if context.pages else context.new_page()
        page.errors = []  # uncaught script errors and failed loads, asserted empty by the tests
        page.on("pageerror", lambda exc: page.errors.append(f"pageerror: {exc}"))
        page.on("console", lambda msg: msg.type == "error" and page.errors.append(f"console: {msg.text}"))
        return page

    yield open_context
    for context in contexts:
        context.close()


def _total(page) -> int:
    return int(page.locator(".results-head .total strong").inner_text().replace(",", ""))


def _params(page) -> dict[str, list[str]]:
    return parse_qs(urlsplit(page.url).query)


def _titles(page) -> list[str]:
    return page.locator(".paper-list .paper-title").all_inner_texts()


def _still_same_document(page) -> bool:
    return page.evaluate("window.__paperlistMarker === 'no reload'")


def _screenshot(page, name: str, *, full_page: bool = False) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    if full_page:
        page.evaluate("window.scrollTo(0, 0)")  # else the sticky header lands mid-page
    page.screenshot(path=str(path), full_page=full_page)
    return path



def _click_first_facet(page, facet: str) -> str:
    """Click the first unselected value of a facet; it must end up selected and in the URL."""
    link = page.locator(f'.facet[data-facet="{facet}"] a[aria-checked="false"]').first
    value = link.get_attribute("data-value")
    link.click()
    expect(page).to_have_url(re.compile(rf"{facet}={value}"))
    expect(page.locator(f'.facet[data-facet="{facet}"] a[data-value="{value}"]')).to_have_attribute(
        "aria-checked", "true")
    return value

def test_search_facets_paper_bibtex_and_author(browser_context, live_server):
    page = browser_context(clipboard=True)
    page.goto("/search")
    everything = _total(page)
    assert everything > 4000
    page.evaluate("window.__paperlistMarker = 'no reload'")

    # Typing updates the results in place: same document, new count, the query in the URL.
    page.locator("#q").press_sequentially("learning", delay=30)
    expect(page).to_have_url(re.compile(r"/search\?q=learning$"))
    expect(page.locator(".results-head .total")).to_contain_text("for “learning”")
    learning = _total(page)
    assert 100 < learning < everything
    assert _still_same_document(page)
    assert page.title().startswith("learning")
    assert "papers for “learning”" in page.locator("[data-results-status]").inner_text()
    expect(page.locator("#suggestions [role=option]").first).to_be_visible()  # suggestions too...
    page.locator("#q").press("Escape")  # ...closed, as they cover part of the filter column
    expect(page.locator("#suggestions")).to_be_hidden()

    # A conference facet, then a year facet: each in place, each recorded in the URL.
    slug = _click_first_facet(page, "conference")
    in_conference = _total(page)
    assert 0 < in_conference < learning
    year_value = _click_first_facet(page, "year")
    narrowed = _total(page)
    assert 0 < narrowed <= in_conference
    assert _still_same_document(page)
    assert _params(page) == {"q": ["learning"], "conference": [slug], "year": [year_value]}
    badges = page.locator(".paper-list .badge.conf").all_inner_texts()
    assert badges and all(b.endswith(year_value) for b in badges)
    # The header form now searches within the facets (ticked boxes): a new query keeps them.
    scope = dict((i.get_attribute("name"), i.get_attribute("value"))
                 for i in page.locator(".searchbar .search-scope input[type=checkbox]:checked").all())
    assert scope == {"conference": slug, "year": year_value}
    # ...and the active filters show as chips above the results.
    chips = page.locator(".chips .chip").all_inner_texts()
    assert len(chips) == 2 and any(c.startswith("Year: " + year_value) for c in chips)

    # The URL is the whole state: a reload shows the same results.
    titles, url = _titles(page), page.url
    _screenshot(page, "results")
    page.reload()
    assert not _still_same_document(page)  # a real reload this time
    assert page.url == url and _total(page) == narrowed and _titles(page) == titles
    expect(page.locator(f'.facet[data-facet="year"] a[data-value="{year_value}"]')).to_have_attribute(
        "aria-checked", "true")

    # Back undoes the year facet in place.
    page.evaluate("window.__paperlistMarker = 'no reload'")
    page.go_back()
    expect(page).to_have_url(re.compile(rf"/search\?conference={slug}&q=learning$"))  # canonical order
    expect(page.locator(".results-head .total strong")).to_have_text(f"{in_conference:,}")

    # Open the first paper.
    first = page.locator(".paper-list .paper-title a").first
    title = first.inner_text()
    first.click()
    expect(page).to_have_url(re.compile(r"/papers/[^/?#]+$"))
    expect(page.locator("h1")).to_have_text(title)
    bibtex = page.locator("#bibtex").inner_text()
    assert re.match(r"@\w+\{", bibtex)

    # Copy its BibTeX with the button and read the clipboard back.
    page.get_by_role("button", name="Copy BibTeX").click()
    expect(page.locator(".copy-status")).to_have_text("Copied")
    assert page.evaluate("navigator.clipboard.readText()") == page.locator("#bibtex").text_content()
    _screenshot(page, "paper", full_page=True)

    # Follow an author link to the author's page: their person's (the name's where not decided yet).
    author = page.locator(".author-list li > a").first
    name = author.inner_text()
    author.click()
    expect(page).to_have_url(re.compile(r"/(people|authors)/"))
    expect(page.locator("h1")).to_have_text(name)
    expect(page.locator(".paper-list .paper-title").filter(has_text=title).first).to_be_visible()
    assert page.errors == []


def test_autocomplete_by_keyboard(browser_context):
    page = browser_context()
    page.goto("/")
    box = page.locator("#q")
    box.press_sequentially("neur", delay=30)
    options = page.locator("#suggestions [role=option]")
    expect(options.first).to_be_visible()
    expect(box).to_have_attribute("aria-expanded", "true")
    assert page.get_by_role("option", name=re.compile("NeurIPS")).count() >= 1
    box.press("ArrowDown")
    expect(options.first).to_have_attribute("aria-selected", "true")
    expect(box).to_have_attribute("aria-activedescendant", options.first.get_attribute("id"))
    box.press("ArrowDown")
    box.press("ArrowUp")
    expect(options.first).to_have_attribute("aria-selected", "true")
    href = options.first.get_attribute("data-href")  # its address; an option holds no link (issue 49)
    box.press("Enter")
    expect(page).to_have_url(re.compile(re.escape(href) + "$"))
    assert page.locator("h1").count() == 1

    # Escape closes the list; Enter without a chosen option runs the search instead.
    page.goto("/")
    box = page.locator("#q")
    box.press_sequentially("when a zero", delay=30)
    expect(page.locator("#suggestions [role=option]").first).to_be_visible()
    box.press("Escape")
    expect(page.locator("#suggestions")).to_be_hidden()
    expect(box).to_have_attribute("aria-expanded", "false")
    box.press("Enter")
    expect(page).to_have_url(re.compile(r"/search\?q=when\+a\+zero"))
    assert _total(page) >= 1

    # A mouse click on an option opens it too.
    page.goto("/")
    page.locator("#q").press_sequentially("neur", delay=30)
    option = page.locator("#suggestions [role=option]").first
    href = option.get_attribute("data-href")  # an option holds no link (issue 49): the click opens its address
    option.click()
    expect(page).to_have_url(re.compile(re.escape(href) + "$"))
    assert page.errors == []


def test_year_range_sort_and_markup_in_the_query(browser_context):
    page = browser_context()
    page.goto("/search?q=learning")
    page.evaluate("window.__paperlistMarker = 'no reload'")
    page.locator("#year-from").fill("2019")
    page.locator("#year-to").fill("2024")
    page.locator(".year-range button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"year=2019-2024"))
    page.locator("#sort").select_option("newest")
    expect(page).to_have_url(re.compile(r"sort=newest"))
    expect(page.locator("#sort")).to_have_value("newest")
    years = [int(b.rsplit(" ", 1)[1]) for b in page.locator(".paper-list .badge.conf").all_inner_texts()]
    assert years and all(2019 <= y <= 2024 for y in years) and years == sorted(years, reverse=True)
    assert _still_same_document(page)

    # Markup typed into the box is shown as text, never run (live results and suggestions).
    box = page.locator("#q")
    box.fill("")
    box.press_sequentially('<img src=x onerror="window.__xss=1">', delay=10)
    expect(page.locator(".results-head .total")).to_contain_text('<img src=x onerror="window.__xss=1">')
    page.wait_for_timeout(500)
    assert page.evaluate("typeof window.__xss") == "undefined"
    assert page.locator(".paper-list img, #suggestions img").count() == 0
    assert page.errors == []


def test_without_javascript_search_and_facets_still_work(browser_context):
    page = browser_context(javascript=False)
    page.goto("/")
    page.locator("#q").fill("reinforcement learning")
    page.locator("#q").press("Enter")
    expect(page).to_have_url(re.compile(r"/search\?q=reinforcement\+learning$"))
    total = _total(page)
    assert total > 10

    conference = page.locator('.facet[data-facet="conference"] a').first
    slug = conference.get_attribute("data-value")
    conference.click()
    expect(page).to_have_url(re.compile(rf"conference={slug}"))
    expect(page.locator(f'.facet[data-facet="conference"] a[data-value="{slug}"]')).to_have_attribute(
        "aria-checked", "true")
    assert 0 < _total(page) < total

    # The header search keeps the facet; the sort form and the year range work by plain submits.
    page.locator("#q").fill("learning")
    page.locator(".searchbar button[type=submit]").click()
    expect(page).to_have_url(re.compile(rf"q=learning.*conference={slug}|conference={slug}.*q=learning"))
    page.locator("#sort").select_option("newest")
    page.locator(".sort button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"sort=newest"))
    years = page.locator("#year-text")
    expect(years).to_be_visible()
    years.fill("2019-2024")
    page.locator(".year-range button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"year=2019-2024"))
    for badge in page.locator(".paper-list .badge.conf").all_inner_texts():
        assert 2019 <= int(badge.rsplit(" ", 1)[1]) <= 2024

    # Controls that need JavaScript are not offered.
    page.locator(".paper-list .paper-title a").first.click()
    expect(page.locator("#bibtex")).to_be_visible()
    expect(page.get_by_role("button", name="Copy BibTeX")).to_be_hidden()
    assert page.errors == []


def test_narrow_screen_results_and_paper(browser_context):
    page = browser_context(width=390, height=844)
    page.goto("/search?q=diffusion")
    assert _total(page) > 0
    # Results come first; the filters fold away behind a "Filters" toggle.
    panel = page.locator("[data-filters-panel]")
    expect(panel).not_to_have_attribute("open", "")
    expect(page.locator(".facet").first).to_be_hidden()
    no_overflow = "document.documentElement.scrollWidth <= window.innerWidth"
    assert page.evaluate(no_overflow)
    _screenshot(page, "results-narrow")
    page.locator("[data-filters-panel] > summary").click()
    expect(page.locator(".facet").first).to_be_visible()
    page.locator('.facet[data-facet="year"] a').first.click()
    expect(page).to_have_url(re.compile(r"year=\d{4}"))
    # The panel stays open for the next choice; its button folds it and shows the narrowed results.
    expect(panel).to_have_attribute("open", "")
    page.locator("[data-show-results]").click()
    expect(panel).not_to_have_attribute("open", "")
    expect(page.locator(".chips .chip", has_text="Year:")).to_be_visible()
    expect(page.locator("details.trends")).not_to_have_attribute("open", "")  # folded: results first
    expect(page.locator(".results-head .total")).to_be_in_viewport()
    expect(page.locator(".paper-list .paper-title a").first).to_be_in_viewport()
    _screenshot(page, "results-narrow-after-filter")
    page.locator(".paper-list .paper-title a").first.click()
    expect(page).to_have_url(re.compile(r"/papers/"))
    assert page.evaluate(no_overflow)
    _screenshot(page, "paper-narrow")
    assert page.errors == []


@pytest.mark.parametrize("width", [1366, 390])
def test_the_venues_index_shows_the_kind_and_filters_by_it(browser_context, width):
    page = browser_context(width=width, height=900)
    page.goto("/conferences")
    expect(page.locator("h1")).to_have_text("Conferences and journals")
    journals = page.locator("section#journals")
    expect(journals.locator("h2")).to_have_text("Journals (3)")
    expect(journals.locator('tr[data-kind="journal"] th a')).to_have_text(["TMLR", "JMLR", "TACL"])
    expect(journals.locator(".note")).to_contain_text("volume year")
    conferences = page.locator("section#conferences")
    assert conferences.locator('tr[data-kind="conference"]').count() >= 30
    expect(conferences.locator("th a", has_text="TMLR")).to_have_count(0)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    _screenshot(page, f"conferences-index-{width}")
    journals.locator("th a", has_text="JMLR").click()
    expect(page).to_have_url(re.compile(r"/conferences/jmlr$"))
    expect(page.locator("#venue-heading")).to_have_text("Articles per volume year")
    expect(page.locator(".year-links")).to_contain_text("Volume years:")
    page.locator(".year-links a", has_text="2024").click()
    expect(page.locator(".subtitle")).to_have_text("Volume 25 (2024): the articles JMLR published that year")
    expect(page.locator("#venue-heading")).to_have_text("Volume statistics")
    _screenshot(page, f"journal-year-{width}")
    # "Journals only" is the kind facet, shown as a chip and a checked value of the filter panel.
    page.goto("/conferences")
    page.get_by_role("link", name="journals only").click()
    expect(page).to_have_url(re.compile(r"kind=journal"))
    expect(page.locator(".chips .chip", has_text="Venue type: Journal")).to_be_visible()
    facet = page.locator('.facet[data-facet="kind"] a[data-value="journal"]')
    expect(facet).to_have_attribute("aria-checked", "true")
    assert _total(page) >= 3
    assert page.errors == []


NARROW_PAGES = {
    "front": "/",
    "results": "/search?q=diffusion+models",
    "conferences": "/conferences",
    "conference": "/conferences/neurips",
    "conference-year": "/conferences/neurips/2026",
    "journal-year": "/conferences/tmlr/2026",
    "topics": "/topics",
    "topic": "/topics/robotics",
    "similar": "/similar",
    "api-docs": "/api/docs",
    "not-found": "/conferences/neurips/1901",
}


@pytest.mark.parametrize("kind", [*NARROW_PAGES, "paper", "author"])
def test_no_page_type_scrolls_sideways_at_390px(browser_context, kind):
    page = browser_context(width=390, height=844)
    if kind in ("paper", "author"):
        page.goto("/search?q=graph+neural+network")
        page.locator(".paper-list .paper-title a" if kind == "paper" else ".paper-list .authors a").first.click()
        expect(page).to_have_url(re.compile(r"/papers/" if kind == "paper" else r"/(people|authors)/"))
    else:
        page.goto(NARROW_PAGES[kind])
    widest = page.evaluate("""() => Array.from(document.querySelectorAll('body *'))
        .filter(el => el.getBoundingClientRect().right > window.innerWidth + 0.5
                      && getComputedStyle(el).position !== 'fixed' && !el.closest('.visually-hidden, .skip'))
        .map(el => el.tagName + '.' + el.className).slice(0, 5)""")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), widest
    _screenshot(page, f"{kind}-390")


def test_accessibility_basics(browser_context):
    page = browser_context()
    audit = """() => {
      const problems = [];
      const name = el => (el.getAttribute('aria-label') || '').trim()
        || (el.getAttribute('aria-labelledby') || '').split(/\\s+/).map(id => document.getElementById(id))
             .filter(Boolean).map(n => n.textContent.trim()).join(' ')
        || (el.labels && Array.from(el.labels).map(l => l.textContent.trim()).join(' '))
        || (el.getAttribute('title') || '').trim();
      for (const el of document.querySelectorAll('input:not([type=hidden]), select, textarea')) {
        if (!name(el)) problems.push('unlabelled ' + el.outerHTML.slice(0, 80));
      }
      for (const el of document.querySelectorAll('a[href], button')) {
        const hidden = el.closest('[aria-hidden=true]');
        if (hidden && el.tabIndex >= 0) problems.push('focusable inside aria-hidden ' + el.outerHTML.slice(0, 80));
        if (!hidden && !el.textContent.trim() && !name(el)) problems.push('nameless ' + el.outerHTML.slice(0, 80));
      }
      if (document.querySelectorAll('h1').length !== 1) problems.push('h1 count ' + document.querySelectorAll('h1').length);
      if (!document.querySelector('main#main')) problems.push('no main landmark');
      if (!document.querySelector('header') || !document.querySelector('footer')) problems.push('no header/footer');
      if (!document.querySelector('form[role=search]')) problems.push('no search landmark');
      if (document.documentElement.lang !== 'en') problems.push('lang');
      const ids = Array.from(document.querySelectorAll('[id]')).map(e => e.id);
      const dup = ids.filter((id, i) => ids.indexOf(id) !== i);
      if (dup.length) problems.push('duplicate ids ' + dup.join(','));
      return problems;
    }"""
    for path in ("/", "/search?q=graph+neural+network&conference=iclr", "/topics/robotics", "/conferences/neurips/2026"):
        page.goto(path)
        assert page.evaluate(audit) == [], path
    # The first Tab reaches the skip link, which is visible and outlined when focused.
    page.goto("/search?q=graph")
    page.keyboard.press("Tab")
    skip = page.locator("a.skip")
    expect(skip).to_be_focused()
    assert page.evaluate("getComputedStyle(document.activeElement).left") == "0px"
    # Facet checkboxes: focus is visible and Space toggles them.
    facet = page.locator('.facet[data-facet="conference"] a').first
    value = facet.get_attribute("data-value")
    facet.focus()
    assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") != "none"
    page.keyboard.press("Space")
    expect(page).to_have_url(re.compile(rf"conference={value}"))
    expect(page.locator(f'.facet[data-facet="conference"] a[data-value="{value}"]')).to_be_focused()
    assert page.errors == []


def test_math_chips_and_the_slash_key(browser_context):
    page = browser_context()
    page.goto("/search?q=Riemannian+Submanifolds+Riemann")
    card = page.locator(".paper-list .paper-title a").filter(has=page.locator("math")).first
    expect(card).to_be_visible()  # math in a highlighted title is rendered in the list too
    card.click()
    expect(page).to_have_url(re.compile(r"/papers/"))
    expect(page.locator("h1 math")).to_be_visible()
    assert "$" not in page.locator("h1").inner_text() and "$" not in page.title()

    # A browse page: "/" focuses the search box, which says what it searches within.
    page.goto("/conferences/neurips/2026")
    page.keyboard.press("/")
    expect(page.locator("#q")).to_be_focused()
    expect(page.locator(".search-scope")).to_contain_text("Searching within")
    # Its own filters are chips: removing the year leaves the conference, under an honest heading.
    page.locator("body").click()
    year_total = _total(page)
    page.locator(".chips .chip", has_text="Year: 2026").click()
    expect(page).to_have_url(re.compile(r"/search\?conference=neurips$"))
    expect(page.locator(".chips .chip")).to_have_count(1)
    assert _total(page) > year_total
    expect(page.locator("h1")).not_to_have_text("NeurIPS 2026")
    assert page.errors == []


def _open_trends(page) -> None:
    """Unfold the results' trends: their charts are fetched then (views/trends.py), in place of the section's link."""
    page.locator("details.trends > summary").click()
    expect(page.locator("details.trends[data-trends-loaded] .trend-charts")).to_be_visible()
    expect(page.locator("details.trends .trend-link")).to_have_count(0)


def test_a_trends_bar_click_filters_the_results(browser_context):
    page = browser_context()
    page.goto("/search?q=learning")
    _open_trends(page)  # folded by default: results first
    bar = page.locator(".trends svg.chart a").filter(has=page.locator("rect")).first
    label = bar.locator("title").text_content()  # "NeurIPS 2024: 1,234 papers" (an SVG title is not rendered text)
    expected = int(re.search(r"([\d,]+) papers?$", label).group(1).replace(",", ""))
    bar.click()
    expect(page).to_have_url(re.compile(r"year=\d{4}"))
    assert _params(page).get("q") == ["learning"]  # the bar adds its filters to the same search
    expect(page.locator(".chips .chip", has_text="Year:")).to_be_visible()
    assert _total(page) == expected
    assert page.errors == []


def test_papers_like_my_abstract(browser_context):
    page = browser_context()
    page.goto("/search?q=graph+neural+network")
    with_abstract = page.locator(".paper-list .paper-card").filter(has=page.locator(".snippet")).first
    with_abstract.locator(".paper-title a").click()
    expect(page).to_have_url(re.compile(r"/papers/"))
    title = page.locator("h1").inner_text()
    abstract = page.locator(".abstract").inner_text()
    page.goto("/")
    page.get_by_role("link", name="Papers like mine").click()
    expect(page).to_have_url(re.compile(r"/similar$"))
    page.locator("#similar-text").fill(abstract)
    page.get_by_role("button", name="Find similar papers").click()
    expect(page.locator(".paper-list .paper-title a").first).to_be_visible()
    assert re.search(r"\d+ nearest papers", page.locator("main").inner_text())
    titles = page.locator(".paper-list .paper-title a").all_inner_texts()
    assert title in titles[:3]  # its own abstract finds the paper among the nearest
    _screenshot(page, "similar-results")
    if len(urlencode({"text": abstract.strip()})) < MAX_SHARED_URL - 100:
        # The form posts, and is answered with its results' link: the address bar can be shared.
        expect(page).to_have_url(re.compile(r"/similar\?text="))
        shared = browser_context()
        shared.goto(page.locator(".share-link a").get_attribute("href"))
        assert shared.locator(".paper-list .paper-title a").all_inner_texts() == titles
    assert page.errors == []


def test_a_typo_shows_the_corrected_results_at_once(browser_context):
    page = browser_context()
    page.goto("/search")
    page.locator("#q").press_sequentially("grpah neural netwroks", delay=20)
    notice = page.locator(".corrected")
    expect(notice).to_contain_text("Showing results for graph neural networks")
    assert _total(page) > 10
    titles = " ".join(page.locator(".paper-list .paper-title a").all_inner_texts()).lower()
    assert "graph" in titles
    _screenshot(page, "corrected-results")
    notice.get_by_role("link", name="grpah neural netwroks").click()  # search instead for what was typed
    expect(page.locator(".results-head .total")).to_contain_text("for “grpah neural netwroks”")
    assert _total(page) == 0 and page.locator(".corrected").count() == 0
    expect(page.locator(".did-you-mean")).to_contain_text("graph neural networks")
    assert page.errors == []


def test_a_pasted_paragraph_leads_to_papers_like_it(browser_context):
    page = browser_context(width=390, height=844)
    text = ("We propose a method for learning representations of graphs by message passing between nodes, "
            "and show on molecules and citation networks that it beats earlier methods by a wide margin. ") * 6
    page.goto("/")
    asked_for_suggestions = []
    page.on("request", lambda r: "/api/v1/suggest" in r.url and asked_for_suggestions.append(r.url))
    page.locator("#q").fill(text)
    kept = page.locator("#q").input_value()
    assert len(kept) == MAX_QUERY and text.startswith(kept)  # the box keeps what a search reads, no more
    page.wait_for_timeout(1000)  # past the typing pause: no autocomplete request, the API would refuse the text
    assert asked_for_suggestions == []
    page.locator("#q").press("Enter")
    expect(page.locator("main")).to_contain_text("No paper has all of these words")
    page.get_by_role("link", name="Find papers like this text").click()
    expect(page.locator(".paper-list .paper-title a").first).to_be_visible()
    assert page.locator("#similar-text").input_value().strip() == kept.strip()
    expect(page.locator(".share-link a")).to_have_attribute("href", re.compile(r"^/similar\?text=We\+propose"))
    _screenshot(page, "long-paste-narrow")
    assert page.errors == []


@pytest.mark.parametrize("width, height", [(1366, 768), (390, 844)])
@pytest.mark.parametrize("path", ["/search?q=learning", "/conferences/iclr/2018", "/conferences/iclr/2023",
                                  "/conferences/neurips/2026"])
def test_the_first_result_is_above_the_fold(browser_context, width, height, path):
    page = browser_context(width=width, height=height)
    page.goto(path)
    _screenshot(page, f"first-result-{width}-{path.strip('/').replace('/', '-').replace('?', '-')}")
    first = page.locator(".paper-list .paper-title a").first
    box = first.bounding_box()
    assert box and box["y"] + box["height"] <= height, (path, width, box)  # no scrolling to the first paper
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")  # nor sideways
    for fold in page.locator("details.trends, details.venue-fold").all():
        expect(fold).not_to_have_attribute("open", "")
    if "conferences" in path:
        expect(page.locator(".venue-summary")).to_contain_text("accepted")
    assert page.errors == []


def test_phone_autocomplete_cuts_long_titles_in_the_middle(browser_context):
    page = browser_context(width=390, height=844)
    page.goto("/")
    page.locator("#q").press_sequentially("learning", delay=30)
    options = page.locator("#suggestions li .text")
    expect(options.first).to_be_visible()
    texts = options.all_inner_texts()
    full = [options.nth(i).get_attribute("title") for i in range(options.count())]
    cut = [(t, f) for t, f in zip(texts, full, strict=True) if t != f]
    assert cut, texts  # long titles do not fit a phone's line
    for shown, title in cut:
        head, _, tail = shown.partition(" … ")
        assert tail and title.startswith(head) and title.endswith(tail), (shown, title)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    _screenshot(page, "autocomplete-narrow")
    assert page.errors == []


# Each chart text's box, in the chart's own units, and its font size: what "a label is cut" or "two labels
# overlap" is measured on, with the fonts the browser really draws.
_CHART_TEXTS = """svg => [...svg.querySelectorAll("text")].filter(t => getComputedStyle(t).display !== "none").map(t => {
  const b = t.getBBox();
  return {text: [...t.childNodes].filter(n => n.nodeType === 3).map(n => n.data).join("").trim(),
          x: b.x, y: b.y, right: b.x + b.width, bottom: b.y + b.height,
          edge: (t.getAttribute("text-anchor") || "middle") !== "middle", tick: t.classList.contains("tick")};
})"""


def _check_chart(page, selector: str) -> list[dict]:
    """The labels a chart draws at this width: inside it (none cut at an edge) and none over another."""
    svg = page.locator(selector)
    expect(svg).to_be_visible()
    view = svg.evaluate("s => [s.clientWidth, s.clientHeight]")
    texts = svg.evaluate(_CHART_TEXTS)
    assert texts, selector
    for t in texts:
        assert t["x"] >= -0.5 and t["y"] >= -0.5 and t["right"] <= view[0] + 0.5 and t["bottom"] <= view[1] + 0.5, \
            (selector, t, view)
    for i, a in enumerate(texts):
        for b in texts[i + 1:]:
            apart = a["right"] <= b["x"] + 0.5 or b["right"] <= a["x"] + 0.5 or \
                a["bottom"] <= b["y"] + 0.5 or b["bottom"] <= a["y"] + 0.5
            assert apart, (selector, a, b)
    return texts


@pytest.mark.parametrize("width, height", [(1366, 768), (390, 844)])
def test_chart_labels_are_whole_and_the_axes_true_to_time(browser_context, width, height):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = browser_context(width=width, height=height)
    page.goto("/search?q=learning")
    _open_trends(page)
    bars = _check_chart(page, "svg#trend-conferences")
    # The heat map's topic names are whole (never cut, never "…") and end before its cells.
    labels = page.locator("#trend-topics a.heat-label")
    assert labels.count() == 10 and "…" not in "".join(labels.all_inner_texts())
    assert labels.evaluate_all("ls => ls.every(l => l.scrollWidth <= l.clientWidth + 1)")
    first_cell = page.locator("#trend-topics .heat-cells").first.bounding_box()["x"]
    assert all(box["x"] + box["width"] <= first_cell + 0.5 for box in (lb.bounding_box() for lb in labels.all()))
    # Labelled every n-th year, at even steps: a year takes the same room whether it has papers or not.
    shown = [t for t in bars if t["text"].isdigit() and not t["tick"] and not t["edge"]]
    years = [int(t["text"]) for t in shown]
    assert years == sorted(years) and len(set(b - a for a, b in zip(years, years[1:], strict=False))) <= 1, years
    centres = [(t["x"] + t["right"]) / 2 for t in shown]
    steps = [b - a for a, b in zip(centres, centres[1:], strict=False)]
    assert not steps or max(steps) - min(steps) <= 1.0, steps
    grid_years = page.locator("#trend-topics .heat-year").evaluate_all(
        "ys => ys.filter(y => getComputedStyle(y).visibility !== 'hidden' && y.textContent.trim()).map(y => +y.textContent)")
    assert grid_years == sorted(grid_years) and len(set(b - a for a, b in zip(grid_years, grid_years[1:], strict=False))) <= 1
    if max(years + grid_years) >= date.today().year - 1:
        expect(page.locator("#trend-conferences").locator("xpath=preceding-sibling::ul[1]")).to_contain_text(" so far")
        assert page.locator("#trend-topics .heat-cell.partial").count() > 0  # the year under way, outlined
    page.locator("details.trends").screenshot(path=str(SHOTS / f"trends-labels-{width}.png"))
    page.goto("/conferences/iclr")
    page.locator("details.venue-fold > summary").click()
    rates = _check_chart(page, "svg#venue-years")
    if width > 800:  # a phone leaves the rates, which would crowd, to the table under the chart
        assert any(t["text"].endswith("%") for t in rates)
    page.locator("section.venue-stats").screenshot(path=str(SHOTS / f"venue-years-{width}.png"))
    assert page.errors == []


# The first screen of a new visitor (issue 30): the front page's lead, a paper's links, a phone.

@pytest.mark.parametrize("width, height", [(1366, 768), (390, 844)])
def test_the_front_page_leads_with_a_complete_edition_and_names_a_preview_as_one(browser_context, width, height):
    page = browser_context(width=width, height=height)
    page.goto("/")
    heading = page.locator("#newest-heading")
    expect(heading).to_be_in_viewport()
    lead = re.match(r"Newest: (.+) (\d{4})\s+([\d,]+) papers?$", heading.inner_text())
    assert lead and lead.group(1) != "NeurIPS", heading.inner_text()  # not the seed's 20-paper stub
    # The sample's NeurIPS 2026 (20 papers against 60 of 2025) is named as what it is.
    preview = page.locator(".preview-note", has_text="NeurIPS 2026")
    expect(preview).to_have_text("Under way: NeurIPS 2026, a preview: 20 of NeurIPS 2026’s papers so far.")
    _screenshot(page, f"front-{width}")
    # The lead is a whole edition: its year page lists as many papers, and calls itself no preview.
    count = int(lead.group(3).replace(",", ""))
    page.get_by_role("link", name=re.compile(rf"^All {lead.group(3)} papers of ")).click()
    expect(page.locator("h1")).to_have_text(f"{lead.group(1)} {lead.group(2)}")
    assert _total(page) == count
    expect(page.locator(".preview-note")).to_have_count(0)
    # The preview's year page says so, above its list, and so does its venue's row of years.
    page.goto("/")
    page.locator(".preview-note a", has_text="NeurIPS 2026").click()
    expect(page).to_have_url(re.compile(r"/conferences/neurips/2026$"))
    note = page.locator(".preview-note")
    expect(note).to_contain_text("A preview: 20 of NeurIPS 2026’s papers so far")
    expect(note).to_be_in_viewport()
    expect(page.locator(".year-links a[aria-current=page]")).to_contain_text("(20 so far)")
    _screenshot(page, f"preview-year-{width}")
    # A phone's row of years: the newest ten on view (no hidden sideways scroller), the rest on asking.
    years = page.locator(".year-links a")
    if width < 800:
        assert sum(years.nth(i).is_visible() for i in range(years.count())) == PHONE_YEARS_SHOWN < years.count()
        page.locator("[data-more-years]").click()
    assert all(years.nth(i).is_visible() for i in range(years.count()))
    assert page.errors == []


@pytest.mark.parametrize("width, height", [(1366, 768), (390, 844)])
def test_a_paper_pages_links_are_in_its_first_screen(browser_context, width, height):
    page = browser_context(width=width, height=height)
    # Of the first results, the paper with the most authors: the longest way down to its links.
    hits = page.request.get("/api/v1/search?q=large+language+models&page_size=50").json()["hits"]
    crowded = max((h for h in hits if h["links"].get("pdf")), key=lambda h: len(h["authors"]))
    page.goto(f"/papers/{crowded['id']}")
    row = page.locator("ul.paper-actions")
    box = row.bounding_box()
    assert box and box["y"] + box["height"] <= height, (crowded["id"], len(crowded["authors"]), box)
    labels = row.locator("a").all_inner_texts()
    assert labels[0] == "PDF" and labels[-1] == "BibTeX", labels
    assert ("OpenReview" in labels) == bool(crowded["links"].get("openreview"))
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    _screenshot(page, f"paper-links-{width}")
    row.get_by_role("link", name="BibTeX").click()
    expect(page.locator("#bibtex")).to_be_in_viewport()
    assert page.errors == []


def test_three_filters_on_a_phone_without_reopening_the_panel(browser_context):
    page = browser_context(width=390, height=844)
    page.goto("/search?q=learning")
    page.evaluate("window.__paperlistMarker = 'no reload'")
    panel = page.locator("[data-filters-panel]")
    expect(panel).not_to_have_attribute("open", "")  # folded at first: the results come first
    page.locator("[data-filters-panel] > summary").click()
    totals = [_total(page)]
    for i, facet in enumerate(("conference", "year", "topic")):
        _click_first_facet(page, facet)
        expect(panel).to_have_attribute("open", "")  # still open for the next tap
        totals.append(_total(page))
        expect(page.locator("[data-show-results]")).to_have_text(f"See the results ({totals[-1]:,})")
        _screenshot(page, f"phone-facet-tap-{i + 1}")
    assert totals == sorted(totals, reverse=True) and totals[-1] > 0
    assert set(_params(page)) == {"q", "conference", "year", "topic"} and _still_same_document(page)
    page.locator("[data-show-results]").click()
    expect(panel).not_to_have_attribute("open", "")
    expect(page.locator(".paper-list .paper-title a").first).to_be_in_viewport()
    _screenshot(page, "phone-facet-taps-results")
    assert page.errors == []


@pytest.mark.parametrize("kind, path", [("results", "/search?q=diffusion+models"),
                                        ("venue-year", "/conferences/iclr/2023"),
                                        ("venue-statistics", "/conferences/iclr"),
                                        ("paper", None)])
def test_nothing_scrolls_sideways_at_390px_with_every_panel_open(browser_context, kind, path):
    """The review histogram, the years, the charts and the tables, all opened, within 390 px."""
    page = browser_context(width=390, height=844)
    if path is None:
        hits = page.request.get("/api/v1/search?q=graph+neural+network&conference=iclr&page_size=20").json()["hits"]
        path = f"/papers/{max(hits, key=lambda h: len(h['authors']))['id']}"
    page.goto(path)
    page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
    if kind == "venue-year":
        expect(page.locator(".score-histogram")).to_be_visible()
        expect(page.locator(".score-figure .legend li").first).to_be_visible()  # the colours, named
    if kind == "results":
        expect(page.locator("svg.chart")).to_be_visible()
    scroll = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert scroll[0] <= scroll[1], (path, scroll)
    # No inner scroller hides part of the histogram or the years either.
    hidden = page.evaluate("""() => Array.from(document.querySelectorAll('.score-histogram, .year-links'))
        .filter(el => el.scrollWidth > el.clientWidth + 1).map(el => el.className)""")
    assert hidden == [], hidden
    _screenshot(page, f"open-{kind}-390", full_page=True)
    assert page.errors == []


@pytest.mark.parametrize("width, height", [(1366, 768), (390, 844)])
def test_the_trends_chart_starts_at_its_first_substantial_year_and_uses_the_panel(browser_context, width, height):
    page = browser_context(width=width, height=height)
    by_year = page.request.get("/api/v1/stats?q=transformer").json()["by_year"]
    peak = max(row["count"] for row in by_year)
    first = min(row["year"] for row in by_year if row["count"] >= 0.01 * peak)
    assert first > by_year[0]["year"]  # the sample has one 1987 "transformer" paper
    page.goto("/search?q=transformer")
    _open_trends(page)
    chart = page.locator("#trend-conferences")
    labels = chart.evaluate("""svg => Array.from(svg.querySelectorAll('text:not(.tick)'), t => Array.from(t.childNodes)
        .filter(n => n.nodeType === Node.TEXT_NODE).map(n => n.textContent).join('').trim())""")
    years = [int(t) for t in labels if t.isdigit()]
    assert years[0] >= first and min(years) - first < 5  # labels start at (or just after) the first year
    marks = chart.locator("a rect title").all_text_contents()
    assert min(int(re.search(r"\b(\d{4})\b", m).group(1)) for m in marks) == first  # "ICML 2019: 3 papers"
    expect(page.locator(".trends figcaption").first).to_contain_text(f"From {first}:")
    panel, drawn = page.locator("details.trends").bounding_box(), chart.bounding_box()
    assert drawn["width"] >= 0.9 * (panel["width"] - 32), (drawn, panel)  # the panel's width, less its padding
    sizes = page.evaluate("""() => Array.from(document.querySelectorAll('#trend-conferences text'))
        .filter(t => t.getBBox().width > 0).map(t => parseFloat(getComputedStyle(t).fontSize))""")
    assert sizes and min(sizes) >= 11, sizes  # readable at any width
    # The numbers of a mark under the pointer.
    chart.locator("a rect").last.hover()
    expect(page.locator("#trend-conferences + [data-chart-readout]")).to_have_text(re.compile(r".+ \d{4}.*: [\d,]+ papers?"))
    _screenshot(page, f"trends-{width}")
    # After a drill-down to one year, its bar is a bar, not the width of the panel.
    page.goto(f"/search?q=transformer&year={by_year[-2]['year']}")
    _open_trends(page)
    widths = {round(r.bounding_box()["width"]) for r in page.locator("#trend-conferences a rect").all()}
    assert widths and max(widths) <= 0.1 * page.locator("#trend-conferences").bounding_box()["width"] + 1
    _screenshot(page, f"trends-one-year-{width}")
    assert page.errors == []
