"""Pages a user can trust: counts of the listed set, honest browse pages, no dead ends, a link crawl."""

from __future__ import annotations

import gzip
import json
import os
import re
from html import unescape
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from pagecheck import ClientSite, CountReport, check_author, check_conference_year, crawl

from services.search.limits import EXPORT_LIMIT
from services.web.render.textfilters import SEARCH_EXAMPLE

pytestmark = pytest.mark.integration

SAMPLE = Path("data/sample")
# Internal links the crawl follows (each page type is reached well within it; the issue's
# 5,000-link crawl of the full corpus runs with PAPERLIST_CRAWL_LINKS=5000).
CRAWL_LIMIT = int(os.environ.get("PAPERLIST_CRAWL_LINKS", "600"))


def _html(client, url: str, status: int = 200) -> str:
    resp = client.get(url)
    assert resp.status_code == status, (url, resp.status_code, resp.headers.get("Location"))
    return resp.get_data(as_text=True)


def _api_total(client, **params) -> int:
    resp = client.get("/api/v1/search", query_string=params)
    assert resp.status_code == 200, resp.get_json()
    return resp.get_json()["total"]


def _listed_total(html: str) -> int:
    return int(re.search(r'<p class="total"><strong>([\d,]+)</strong>', html).group(1).replace(",", ""))


def _number(text: str) -> int:
    return int(text.replace(",", ""))


def test_front_page_leads_with_the_newest_conference_and_has_one_search_box(client):
    html = _html(client, "/")
    # The sample's complete 2026 editions are slices of about 60 papers each: the latest held leads
    # (IJCAI, August); the seed's 20 NeurIPS 2026 papers, against 60 of NeurIPS 2025, are a preview.
    assert "Newest: IJCAI 2026" in html
    assert "a preview: 20 of NeurIPS 2026’s papers so far" in html
    assert html.count('role="search"') == 1
    newest = html.index("Newest: IJCAI 2026")
    assert newest < html.index('id="conf-heading"') < html.index('id="topic-heading"')
    # The big box has the autocomplete and an example that finds papers.
    assert "data-suggest-url" in html
    assert _api_total(client, q=SEARCH_EXAMPLE) > 0


def test_conference_year_page_counts_what_it_lists(client):
    html = _html(client, "/conferences/iclr/2025")
    listed = _listed_total(html)
    assert listed == _api_total(client, conference="iclr", year="2025")
    hidden = re.search(r"\+ ([\d,]+) [a-z ]+ — <a href=\"([^\"]+)\">show</a>", html)
    assert hidden, "hidden statuses are said apart"
    assert _number(hidden.group(1)) == _api_total(client, conference="iclr", year="2025",
                                                  status=["reject", "withdrawn"])
    report = CountReport()
    for slug, year in (("iclr", 2025), ("neurips", 2026), ("cvpr", 2024)):
        check_conference_year(ClientSite(client), slug, year, report)
    assert report.mismatches == [] and report.followed >= 3 * 5


def test_author_page_counts_what_a_search_for_the_author_lists(client):
    resp = client.get("/api/v1/search", query_string={"status": "reject", "page_size": 20})
    names = [a for hit in resp.get_json()["hits"] for a in hit["authors"]]
    report, hidden = CountReport(), 0
    for name in names[:8]:
        check_author(ClientSite(client), name, report)
        hidden += bool(_api_total(client, author=name, status=["reject", "withdrawn"]))
    assert report.mismatches == [] and report.pages >= 8
    assert hidden  # authors of rejected papers: their hidden papers were counted apart


def test_browse_page_with_other_filters_becomes_a_search_with_chips(client):
    resp = client.get("/conferences/neurips/2025?conference=cvpr")
    assert resp.status_code == 302
    target = urlsplit(resp.headers["Location"])
    assert target.path == "/search"
    assert sorted(parse_qs(target.query)["conference"]) == ["cvpr", "neurips"]
    html = _html(client, resp.headers["Location"])
    assert "NeurIPS 2025</h1>" not in html
    chips = re.search(r'<ul class="chips".*?</ul>', html, re.S).group(0)
    assert "Conference: NeurIPS" in chips and "Conference: CVPR" in chips and "Year: 2025" in chips
    assert 'href="/search">Clear all filters' in chips
    # The header box says what it searches within, each filter a box to untick.
    scope = re.search(r'<div class="search-scope".*?</div>', html, re.S).group(0)
    assert 'name="conference" value="neurips" checked' in scope and "search all papers" in scope


def test_browse_page_facets_lead_to_search(client):
    html = _html(client, "/conferences/neurips/2025")
    assert "<h1 class=\"page-heading browse-heading\" id=\"results-heading\">NeurIPS 2025</h1>" in html
    section = re.search(r'<section class="facet"[^>]* data-facet="conference">.*?</section>', html, re.S).group(0)
    links = re.findall(r'href="([^"]+)" data-value=', section)
    assert links and all(unescape(link).startswith("/search?") for link in links)
    assert "Searching within" in html


def test_selected_value_stays_visible_at_count_zero(client):
    # ALT has papers, none about diffusion; a venue without papers is a 400, never a made-up value here.
    html = _html(client, "/search?q=diffusion&conference=neurips&conference=alt")
    section = re.search(r'<section class="facet"[^>]* data-facet="conference">.*?</section>', html, re.S)
    first = re.search(r'data-value="([^"]+)"[^>]*aria-checked="(\w+)"', section.group(0))
    assert first.groups()[1] == "true"
    assert re.search(r'data-value="alt"[^>]*aria-checked="true"', section.group(0))


def test_a_page_without_results_shows_no_facets_but_its_filters_as_chips(client):
    html = _html(client, "/search?q=diffusion&conference=neurips&affiliation=Nowhere+Institute+of+Nothing")
    assert 'class="facet"' not in html and 'class="year-range"' not in html
    assert "No papers match" in html and 'aria-label="Remove filter Affiliation: Nowhere Institute of Nothing"' in html


def test_index_pages_and_api_docs(client):
    conferences = _html(client, "/conferences")
    assert 'href="/conferences/neurips/2026"' in conferences and "ICLR" in conferences
    topics = _html(client, "/topics")
    assert re.search(r'href="/topics/[a-z-]+"', topics)
    docs = _html(client, "/api/docs")
    assert 'id="search"' in docs and "search_after" in docs and "/api/v1/openapi.json" in docs
    front = _html(client, "/")
    for href in ('href="/conferences"', 'href="/topics"', 'href="/api/docs"'):
        assert href in front


def _section(html: str, section_id: str) -> str:
    match = re.search(rf'<section[^>]* id="{section_id}".*?</section>', html, re.S)
    assert match, section_id
    return match.group(0)


def test_front_page_and_index_show_conferences_and_journals_apart(client):
    """The sample: 30+ conferences, and the journals as journals (never among the conferences)."""
    journals = {"TMLR", "JMLR", "TACL"}
    front = _html(client, "/")
    tiles = set(re.findall(r'class="conf-name" href="/conferences/[a-z0-9-]+">([^<]+)</a>',
                           _section(front, "conferences")))
    assert len(tiles) >= 30 and not tiles & journals
    assert set(re.findall(r'class="conf-name" href="[^"]+">([^<]+)</a>', _section(front, "journals"))) == journals
    counted = re.search(r"papers from (\d+) conferences and (\d+) journals", front)
    assert counted and (int(counted.group(1)), int(counted.group(2))) == (len(tiles), 3)

    index = _html(client, "/conferences")
    rows = re.findall(r'<tr data-kind="(\w+)">\s*<th scope="row"><a href="[^"]+">([^<]+)</a>', index)
    by_kind = {kind: {name for k, name in rows if k == kind} for kind, _ in rows}
    assert by_kind["journal"] == journals and len(by_kind["conference"]) == len(tiles)
    assert "<h1 id=\"conf-index-heading\">Conferences and journals</h1>" in index
    assert re.search(r'<h2 id="journals-heading">Journals <span class="count">\(3\)</span>', index)
    # Its "journals only" link is the kind facet; the facet's counts add up to all papers.
    assert 'href="/search?kind=journal"' in index
    everything = client.get("/api/v1/facets", query_string={"facets": "kind"}).get_json()
    kinds = {v["value"]: v["count"] for v in everything["facets"]["kind"]}
    assert set(kinds) == {"conference", "journal"} and sum(kinds.values()) == everything["total"]
    only = client.get("/api/v1/search", query_string={"kind": "journal", "page_size": 100}).get_json()
    assert only["total"] == kinds["journal"]
    assert {h["conference"] for h in only["hits"]} <= {"tmlr", "jmlr", "tacl"}
    assert _api_total(client, kind="conference", conference="tmlr") == 0
    bad = client.get("/api/v1/search?kind=magazine")
    assert bad.status_code == 400 and "kind" in bad.get_json()["error"]["message"]


def test_a_journal_year_reads_as_a_volume_year(client):
    jmlr = _html(client, "/conferences/jmlr/2024")
    assert '<p class="subtitle">Volume 25 (2024): the articles JMLR published that year</p>' in jmlr
    assert "Volume years:" in jmlr and "Volume statistics" in jmlr and "Acceptance rate" not in jmlr
    tmlr = _html(client, "/conferences/tmlr/2024")  # no volumes by year: the year is the volume year
    assert '<p class="subtitle">Volume year 2024: the articles TMLR published that year</p>' in tmlr
    across = _html(client, "/conferences/tacl")
    assert "Articles per volume year" in across and "Acceptance across the years" not in across
    paper = client.get("/api/v1/search", query_string={"conference": "tacl", "page_size": 1}).get_json()["hits"][0]
    page = _html(client, f"/papers/{paper['id']}")
    assert '<span class="badge kind" title="as published: Journal">Journal article</span>' in page
    assert "track</span>" not in page.split('<p class="badges">')[1].split("</p>")[0]  # no "Main track" badge
    conference = _html(client, "/conferences/iclr/2025")
    assert "Venue statistics" in conference and "Volume year" not in conference


def test_missing_conference_year_lists_the_years_we_have(client):
    html = _html(client, "/conferences/neurips/1990", status=404)
    assert "NeurIPS 1990" in html
    assert 'href="/conferences/neurips/2026"' in html and 'href="/conferences/neurips/2025"' in html


def test_past_the_last_page_shows_the_last_page(client):
    pages = client.get("/api/v1/search", query_string={"q": "learning"}).get_json()["pages"]
    for page in (9999, pages + 3):
        resp = client.get(f"/search?q=learning&page={page}")
        assert resp.status_code == 302
        assert parse_qs(urlsplit(resp.headers["Location"]).query)["page"] == [str(pages)]
    assert client.get("/api/v1/search?q=learning&page=9999").status_code == 400


def test_a_misspelling_shows_its_corrections_papers_and_did_you_mean_only_leads_somewhere(client):
    corrected = 0
    for q in ("difusion modls", "reinforcment lerning", "neurl netwrk", "zzqx qqzv wwxq", "transfomer atention"):
        data = client.get("/api/v1/search", query_string={"q": q}).get_json()
        if data["corrected_from"]:
            corrected += 1
            assert data["corrected_from"] == q and data["query"]["q"] != q and data["total"] > 0
        if data["suggestion"]:
            assert _api_total(client, q=data["suggestion"]) > 0
    assert corrected  # plain misspellings are answered by their correction's papers
    gibberish = client.get("/api/v1/search", query_string={"q": "zzqx qqzv wwxq"}).get_json()
    assert gibberish["total"] == 0 and gibberish["corrected_from"] is None


def test_math_in_a_title_is_rendered(client):
    data = client.get("/api/v1/search", query_string={"q": "Riemann Learning Riemannian Submanifolds"}).get_json()
    hit = next(h for h in data["hits"] if "$" in h["title"])
    html = _html(client, f"/papers/{hit['id']}")
    h1 = re.search(r"<h1>(.*?)</h1>", html, re.S).group(1)
    assert "<math" in h1 and "$" not in h1
    title = re.search(r"<title>(.*?)</title>", html, re.S).group(1)
    assert "$" not in title and "Riemann" in title


def test_exports_say_how_many_and_none_on_empty(client):
    resp = client.get("/api/v1/export", query_string={"format": "csv"})
    assert resp.headers["Content-Type"] == "text/csv; charset=utf-8"
    total = int(resp.headers["X-Total-Count"])
    assert int(resp.headers["X-Exported-Count"]) == min(total, EXPORT_LIMIT) == EXPORT_LIMIT
    html = _html(client, "/search")
    assert f"Export the first {EXPORT_LIMIT:,} of {total:,}" in html and 'href="/api/docs#search"' in html
    empty = _html(client, "/search?q=zzqxqqzvwwxq")
    assert "No papers match" in empty and "/api/v1/export" not in empty


def test_autocomplete_by_any_word_of_a_name_with_venue_on_titles(client):
    data = client.get("/api/v1/suggest?q=bengio").get_json()
    authors = [s["text"] for s in data["suggestions"] if s["type"] == "person"]  # people, by their label
    assert authors and all("bengio" in a.lower() and not a.lower().startswith("bengio") for a in authors)
    titles = [s for s in client.get("/api/v1/suggest?q=diffusion").get_json()["suggestions"] if s["type"] == "title"]
    assert titles and all(re.fullmatch(r".+ \d{4}", s["detail"]) for s in titles)


def test_paper_without_abstract_says_where_to_read_it(client):
    record = next(r for path in sorted(SAMPLE.glob("*/*.json.gz")) for r in json.load(gzip.open(path, "rt"))
                  if not r.get("abstract") and r.get("title") and r.get("status") in ("Poster", "Oral"))
    hit = client.get("/api/v1/search", query_string={"q": record["title"]}).get_json()["hits"][0]
    html = _html(client, f"/papers/{hit['id']}")
    note = re.search(r'<p class="no-abstract">.*?</p>', html, re.S).group(0)
    assert re.search(r'<a href="https://[^"]+"', note)


def test_link_crawl_finds_no_broken_page(client):
    """Breadth-first from the front page over every page type; every internal link answers."""
    # Seed one of each page type the front page may not reach in the first few hundred links (cards link
    # authors to their people; a name's own page is reached from a name several people share).
    seeds = ["/", "/conferences", "/topics", "/api/docs", "/search?q=diffusion", "/conferences/iclr/2025",
             "/authors/Yang Liu"]
    report = crawl(ClientSite(client), seeds, CRAWL_LIMIT)
    assert not report.broken, report.broken[:20]
    assert report.fetched == CRAWL_LIMIT or report.exhausted
    assert {"front", "search", "papers", "authors", "people", "conferences", "topics"} <= report.kinds


class _SimilarTimesOut:
    """The real search service, except that "similar papers" runs out of time."""

    def __init__(self, inner):
        self.inner = inner

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def similar(self, *args, **kwargs):
        from services.search.errors import SearchOverloaded

        raise SearchOverloaded("Elasticsearch ran out of time and answered with partial results")


def test_paper_page_is_served_without_similar_papers_when_their_search_fails(client, monkeypatch):
    from services.web import extensions

    hit = client.get("/api/v1/search", query_string={"q": "learning"}).get_json()["hits"][0]
    assert "Similar papers" in _html(client, f"/papers/{hit['id']}")
    real = extensions.reads(client.application)
    extensions.replace_reads(client.application, _SimilarTimesOut(real))
    try:
        resp = client.get(f"/papers/{hit['id']}")
    finally:
        extensions.replace_reads(client.application, real)
    assert resp.status_code == 200
    html = resp.get_data(as_text=True)
    assert "Similar papers" not in html and "BibTeX" in html
    assert unescape(re.search(r"<title>(.*?)</title>", html, re.S).group(1)).startswith(hit["title"][:20])
    assert resp.headers["Cache-Control"] == "no-store"  # the next visit gets its neighbours


class StopsAtItsTimeout:
    """The real client, where Elasticsearch honours a 1 ms server-side timeout on a search with aggregations
    (it answers ``timed_out``, as a busy cluster does; the sample is too small to take that long)."""

    def __init__(self, es):
        self.es = es

    def options(self, **kwargs):
        return StopsAtItsTimeout(self.es.options(**kwargs))

    def search(self, **kwargs):
        resp = self.es.search(**kwargs)
        if (kwargs.get("aggs") or kwargs.get("aggregations")) and kwargs.get("timeout") == "1ms":
            resp.body["timed_out"] = True
        return resp

    def __getattr__(self, name):
        return getattr(self.es, name)


def test_a_search_whose_facets_run_out_of_budget_still_answers_its_hits(web_settings, client):
    from services.search.engine.boundary import Deadlines
    from services.search.engine.client import make_web_client
    from services.search.service import PaperSearch
    from services.web.app import create_app

    tight = web_settings.model_copy(update={"facets_budget": 0.001})  # PAPERLIST_FACETS_BUDGET=0.001
    service = PaperSearch(StopsAtItsTimeout(make_web_client(tight)), tight.index,
                          deadlines=Deadlines(search=tight.search_budget, facets=tight.facets_budget))
    app = create_app(tight, reads=service)
    app.testing = False
    hurried = app.test_client()
    # A query of this test's own: a trends section some other test rendered would stand in, as
    # its stale copy, for the one that runs out of time here (as it should for users).
    fresh = {"Cache-Control": "no-cache"}  # not an answer some other test kept

    page = hurried.get("/search?q=deep+learning", headers=fresh)
    assert page.status_code == 200 and page.headers["Cache-Control"] == "no-store"  # kept nowhere
    assert page.headers["X-Left-Out"] == "facets"  # said in a header too, as on the API
    html = page.get_data(as_text=True)
    assert _listed_total(html) == _api_total(client, q="deep learning") > 20
    assert html.count('class="paper-card"') == 20  # the hits, all of them
    assert 'class="facet"' not in html  # what ran out of time
    note = re.search(r'<p class="left-out" role="note">([^<]*)<a href="([^"]+)">Load them</a>', html)
    assert note and "took too long for the filter counts, so" in note.group(1)
    # The trends are asked for when opened: out of time, they are refused (and the section keeps its link).
    assert 'data-trends="/search/trends?q=deep+learning"' in html
    trends = hurried.get("/search/trends?q=deep+learning&partial=1", headers=fresh)
    assert trends.status_code == 503 and trends.headers["Cache-Control"] == "no-store"
    assert unescape(note.group(2)) == "/search?q=deep+learning"
    assert "The filter counts took too long" in html

    api = hurried.get("/api/v1/search?q=deep+learning", headers=fresh)
    assert api.status_code == 200 and api.headers["X-Left-Out"] == "facets"
    assert api.get_json()["total"] == _api_total(client, q="deep learning") and len(api.get_json()["hits"]) == 20

    whole = client.get("/search?q=deep+learning", headers=fresh)  # with time enough: everything, and no note
    assert 'class="facet"' in whole.get_data(as_text=True) and 'class="left-out"' not in whole.get_data(as_text=True)
