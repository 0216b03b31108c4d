"""What a page says against what it lists: the checks shared by the sample tests and the live run.

A page's counts are promises: "2,260 papers", "2024 (2,260)", "+ 58 rejected — show",
"NeurIPS 114". Each check reads a count off the HTML and compares it with the number of
papers the page lists, or follows the link the count sits on and reads what that lists.
The same code runs on the Flask test client (the sample, in CI) and over HTTP against a
running site (the full corpus: ``tests/live``), through :class:`Site`.
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass, field
from html import unescape
from typing import Callable, Protocol
from urllib.parse import quote, urlsplit

from services.search.limits import AUTHOR_PAGE_PAPERS, DEFAULT_PAGE_SIZE, PERSON_PAGE_PAPERS

FOLLOWED_PER_FACET = 3  # facet values whose link is followed on each page


@dataclass(frozen=True)
class Page:
    status: int
    location: str
    content_type: str
    text: str


class Site(Protocol):
    def get(self, path: str) -> Page: ...


class ClientSite:
    """A Flask test client as a :class:`Site`."""

    def __init__(self, client) -> None:
        self.client = client

    def get(self, path: str) -> Page:
        resp = self.client.get(path)
        return Page(resp.status_code, resp.headers.get("Location", ""), resp.headers.get("Content-Type", ""),
                    resp.get_data(as_text=True))


class HttpSite:
    """A running site over HTTP as a :class:`Site` (redirects are followed by the checks)."""

    def __init__(self, base: str, timeout: float = 30.0) -> None:
        import requests

        self.base = base.rstrip("/")
        self.session = requests.Session()
        self.timeout = timeout

    def get(self, path: str) -> Page:
        resp = self.session.get(self.base + path, allow_redirects=False, timeout=self.timeout)
        location = resp.headers.get("Location", "")
        if location.startswith(("http://", "https://")):
            parts = urlsplit(location)
            location = parts.path + (f"?{parts.query}" if parts.query else "")
        return Page(resp.status_code, location, resp.headers.get("Content-Type", ""), resp.text)


@dataclass
class CountReport:
    """How many counts a page showed and how many were checked by following a link."""

    pages: int = 0
    counts: int = 0
    followed: int = 0
    mismatches: list[str] = field(default_factory=list)

    def expect(self, where: str, what: str, shown: int, actual: int) -> None:
        self.counts += 1
        if shown != actual:
            self.mismatches.append(f"{where}: {what} says {shown:,}, lists {actual:,}")


def number(text: str) -> int:
    return int(text.replace(",", ""))


def html(site: Site, path: str) -> str:
    page = site.get(path)
    for _ in range(3):
        if page.status not in (301, 302, 303, 307, 308):
            break
        page = site.get(page.location)
    assert page.status == 200, (path, page.status)
    return page.text


def listed_total(text: str) -> int:
    """The "N papers" of a results list (search, conference-year and topic pages)."""
    return number(re.search(r'<p class="total"><strong>([\d,]+)</strong>', text).group(1))


def _facet_counts(text: str, facet: str) -> list[tuple[str, str, bool, int]]:
    """(href, value, selected, count) of each listed value of one facet."""
    section = re.search(r'<section class="facet"[^>]* data-facet="%s">.*?</section>' % re.escape(facet), text, re.S)
    rows = re.findall(r'<a href="([^"]+)" data-value="([^"]*)" role="checkbox" aria-checked="(true|false)">'
                      r'.*?<span class="count">([\d,]+)', section.group(0) if section else "", re.S)
    return [(unescape(href), unescape(value), selected == "true", number(n)) for href, value, selected, n in rows]


def check_conference_year(site: Site, slug: str, year: int, report: CountReport) -> None:
    """Every count on ``/conferences/<slug>/<year>`` against the papers it lists or links to."""
    where = f"/conferences/{slug}/{year}"
    text = html(site, where)
    report.pages += 1
    listed = listed_total(text)
    strip = re.search(r'href="%s"[^>]*>%d <span class="count[^"]*">\(([\d,]+)(?: so far)?\)' % (re.escape(where), year),
                      text)
    report.expect(where, "the year strip", number(strip.group(1)), listed)
    for facet in ("conference", "year"):
        selected = [n for _, value, chosen, n in _facet_counts(text, facet) if chosen]
        report.expect(where, f"the selected {facet}", selected[0] if len(selected) == 1 else -1, listed)
    cards = text.count('class="paper-card"')
    report.expect(where, "the cards of page 1", min(listed, DEFAULT_PAGE_SIZE), cards)
    hidden = re.search(r'\+ ([\d,]+) [a-z ]+ — <a href="([^"]+)">show</a>', text)
    if hidden:
        report.expect(where, "the hidden-papers note", number(hidden.group(1)),
                      listed_total(html(site, unescape(hidden.group(2)))))
        report.followed += 1
    # Unselected facet values: the count is what their link lists (the value is added, an AND).
    for facet in ("status", "track", "topic"):
        rows = [row for row in _facet_counts(text, facet) if not row[2]]
        for href, value, _, count in rows[:FOLLOWED_PER_FACET]:
            report.expect(where, f"{facet} {value!r}", count, listed_total(html(site, href)))
            report.followed += 1
    # The other years of the strip: each count is what that year's page lists.
    others = re.findall(r'href="(/conferences/%s/(\d{4}))"[^>]*>\d{4} <span class="count">\(([\d,]+)\)'
                        % re.escape(slug), text)
    for href, other, count in [o for o in others if int(o[1]) != year][:2]:
        report.expect(where, f"the year strip's {other}", number(count), listed_total(html(site, href)))
        report.followed += 1


def check_author(site: Site, name: str, report: CountReport) -> None:
    """A name's page: its person's page (one person), each person's page it lists (several), or the name's own
    page (no person yet), each checked against searches (:func:`_check_profile`)."""
    where = f"/authors/{quote(name)}"
    page = site.get(where)
    if page.status in (301, 302):
        where = urlsplit(page.location).path
        return _check_profile(site, where, html(site, where), report, where.removeprefix("/people/"))
    assert page.status == 200, (where, page.status)
    people = list(dict.fromkeys(re.findall(r'<h2 class="person-label"><a href="(/people/[^"]+)">', page.text)))
    if not people:
        return _check_profile(site, where, page.text, report, name)
    report.pages += 1
    for path in people[:2]:
        _check_profile(site, path, html(site, path), report, path.removeprefix("/people/"))


def _check_profile(site: Site, where: str, text: str, report: CountReport, author: str) -> None:
    """An author's or a person's page: its total, hidden note, cards and per-venue counts against searches for
    ``author`` (the name, or the person id)."""
    report.pages += 1
    person = where.startswith("/people/")
    total = number(re.search(r'<p class="author-total">([\d,]+) papers?', text).group(1))
    report.expect(where, "the cards", min(total, PERSON_PAGE_PAPERS if person else AUTHOR_PAGE_PAPERS),
                  text.count('class="paper-card"'))
    search = f"/search?author={quote(author)}"
    report.expect(where, "the total", total, listed_total(html(site, search)))
    report.followed += 1
    hidden = re.search(r'\+ ([\d,]+) rejected or withdrawn — <a href="([^"]+)">show</a>', text)
    if hidden:
        report.expect(where, "the hidden-papers note", number(hidden.group(1)),
                      listed_total(html(site, unescape(hidden.group(2)))))
        report.followed += 1
    venues = re.search(r"<h2>(?:Conferences|Venues)</h2><ul>(.*?)</ul>", text, re.S)
    rows = re.findall(r'<a href="([^"]+)">[^<]+</a> <span class="count">([\d,]+)</span>', venues.group(1)) if venues else []
    report.expect(where, "the conferences' sum", sum(number(n) for _, n in rows), total)
    for href, count in rows[:FOLLOWED_PER_FACET]:
        report.expect(where, f"conference {href}", number(count), listed_total(html(site, unescape(href))))
        report.followed += 1


def internal_links(text: str) -> list[str]:
    """Links a visitor can follow to another page of the site (not static files or exports)."""
    out = []
    for href in re.findall(r'href="([^"]*)"', text):
        href = unescape(href).split("#", 1)[0]  # entities first: "&#39;" is a quote, not a fragment
        if href.startswith("/") and not href.startswith("//") and not href.startswith("/static/") \
                and not href.startswith("/api/v1/export"):
            out.append(href)
    return out


@dataclass
class CrawlReport:
    fetched: int = 0
    broken: list[tuple[str, int]] = field(default_factory=list)
    kinds: set[str] = field(default_factory=set)
    exhausted: bool = False  # every reachable link was fetched before the limit


def crawl(site: Site, seeds: list[str], limit: int, *, keep: Callable[[str], bool] = lambda _: True) -> CrawlReport:
    """Breadth-first over internal links from ``seeds``, at most ``limit`` fetches; a 4xx/5xx is broken."""
    seen = set(seeds)
    queue = deque(seeds)
    report = CrawlReport()
    while queue and report.fetched < limit:
        url = queue.popleft()
        page = site.get(url)
        report.fetched += 1
        report.kinds.add(urlsplit(url).path.split("/")[1] or "front")
        if page.status in (301, 302, 303, 307, 308):
            page = site.get(page.location)
        if page.status >= 400:
            report.broken.append((url, page.status))
            continue
        if "text/html" not in page.content_type:
            continue
        for link in internal_links(page.text):
            if link not in seen and keep(link):
                seen.add(link)
                queue.append(link)
    report.exhausted = not queue
    return report
