"""The site and JSON API over the sample corpus, ingested through the real worker."""

from __future__ import annotations

import csv
import io
import json
import re
from urllib.parse import urlsplit

import pytest

from services.search.limits import NAMED_TITLE_WORDS

pytestmark = pytest.mark.integration

SEED_TITLE = "When a Zero-Shooter Cheats: Improving Age Estimation via Activation Steering"


def _first_hit(client, **params):
    resp = client.get("/api/v1/search", query_string=params)
    assert resp.status_code == 200, resp.get_json()
    return resp.get_json()


def test_front_page_lists_conferences_topics_and_newest(client):
    resp = client.get("/")
    assert resp.status_code == 200
    html = resp.get_data(as_text=True)
    for name in ("NeurIPS", "ICLR", "ICML", "CVPR", "ACL", "AAAI", "ICRA"):
        assert f">{name}</a>" in html
    assert 'href="/topics/' in html
    # The newest complete edition's first twenty papers; the seed's twenty NeurIPS 2026 ones are a preview, linked.
    assert html.count('<article class="paper-card">') == 20
    seed = json.load(open("data/sample/neurips/neurips2026.json"))
    assert not [r["title"] for r in seed if r["title"].replace("'", "&#39;") in html]
    assert 'Under way: <a href="/conferences/neurips/2026">NeurIPS 2026</a>' in html
    assert 'role="search"' in html and 'id="main"' in html


def test_seed_papers_found_by_exact_title(client):
    seed = json.load(open("data/sample/neurips/neurips2026.json"))
    for record in seed:
        data = _first_hit(client, q=record["title"])
        assert data["hits"][0]["title"] == record["title"]
        assert data["hits"][0]["conference"] == "neurips" and data["hits"][0]["year"] == 2026


def test_search_page_follow_facet_and_open_detail(client):
    page = client.get("/search?q=learning")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    total = int(re.search(r"<strong>([\d,]+)</strong> papers", html).group(1).replace(",", ""))
    assert total > 100
    # Follow the first conference facet link exactly as a user would click it.
    link = re.search(r'href="(/search\?conference=[a-z0-9-]+&amp;q=learning)"', html).group(1).replace("&amp;", "&")
    facet_page = client.get(link)
    narrowed = int(re.search(r"<strong>([\d,]+)</strong> papers", facet_page.get_data(as_text=True))
                   .group(1).replace(",", ""))
    assert 0 < narrowed < total
    assert 'aria-checked="true"' in facet_page.get_data(as_text=True)
    # ... then a year inside that conference, then open the first paper.
    year_link = re.search(r'href="(/search\?conference=[a-z0-9-]+&amp;q=learning&amp;year=\d{4})"',
                          facet_page.get_data(as_text=True)).group(1).replace("&amp;", "&")
    year_page = client.get(year_link).get_data(as_text=True)
    paper_link = re.search(r'<h3 class="paper-title"><a href="(/papers/[^"]+)"', year_page).group(1)
    detail = client.get(paper_link)
    assert detail.status_code == 200
    body = detail.get_data(as_text=True)
    assert "Abstract" in body and "BibTeX" in body and re.search(r"@\w+\{", body)
    author_link, author_name = re.search(r'<li><a href="(/(?:people|authors)/[^"]+)">([^<]+)</a>', body).groups()
    author_page = client.get(author_link)
    assert author_page.status_code == 200
    profile = author_page.get_data(as_text=True)
    # The author's own page (their person's, once decided): their name as the heading, and the paper we came
    # from among their papers.
    assert f"<h1>{author_name}</h1>" in profile or (author_link.startswith("/people/") and author_name in profile)
    assert re.search(r'<p class="author-total">\d+ papers?', profile)
    assert f'href="{paper_link}"' in profile


def test_api_search_shape_and_filters(client):
    data = _first_hit(client, q="reinforcement learning", conference="ICLR", page_size=5)
    assert data["total"] > 0
    assert len(data["hits"]) <= 5
    for hit in data["hits"]:
        assert {"id", "title", "authors", "conference", "year", "status", "track", "highlight", "url"} <= set(hit)
        assert hit["conference"] == "iclr"
    conference = {f["value"]: f for f in data["facets"]["conference"]}
    assert conference["iclr"]["selected"] is True
    assert len(conference) > 1  # other conferences still offered: counts ignore the own filter
    years = _first_hit(client, year="2021-2022", page_size=100)
    assert years["total"] > 0 and all(2021 <= h["year"] <= 2022 for h in years["hits"])


def test_paper_api_and_404s(client):
    hit = _first_hit(client, q=SEED_TITLE)["hits"][0]
    paper = client.get(f"/api/v1/papers/{hit['id']}").get_json()
    assert paper["title"] == SEED_TITLE
    assert paper["authors"][0] == "Erik Imgrund"
    assert paper["abstract"].startswith("Different age-related regulations")
    assert client.get("/api/v1/papers/nope-0000-000000000000").status_code == 404
    assert client.get("/api/v1/papers/nope-0000-000000000000").get_json()["error"]["code"] == "not_found"
    assert client.get("/papers/nope").status_code == 404
    assert client.get("/topics/not-a-topic").status_code == 404
    assert client.get("/conferences/neverconf").status_code == 404


@pytest.mark.parametrize("params, parameter", [
    ({"page": "-1"}, "page"),
    ({"page": "abc"}, "page"),
    ({"page_size": "101"}, "page_size"),
    ({"year": "20x1"}, "year"),
    ({"sort": "random"}, "sort"),
    ({"q": "x" * 501}, "q"),
    ({"status": "maybe"}, "status"),
    ({"page": "200", "page_size": "100"}, "page"),
    ({"search_after": "%%%"}, "search_after"),
])
def test_bad_parameters_are_400_with_a_message(client, params, parameter):
    resp = client.get("/api/v1/search", query_string=params)
    assert resp.status_code == 400
    error = resp.get_json()["error"]
    assert error["code"] == "invalid_parameter" and error["message"].startswith(parameter)
    page = client.get("/search", query_string=params)
    if "page" in params and "page_size" in params:
        # Beyond the paging window, the HTML site shows the last page instead of an error.
        assert page.status_code == 302 and "page=" in page.headers["Location"]
    elif parameter != "search_after":
        assert page.status_code == 400 and "text/html" in page.content_type


def test_hostile_queries_never_500(client):
    for q in ['"unclosed', "title:", "a OR OR b", "-", "***", "year:abc", "(){}[]^~:/\\!", "<script>alert(1)</script>",
              "author:\"", "conference:", "\x00\x01", "x" * 500]:
        resp = client.get("/api/v1/search", query_string={"q": q})
        assert resp.status_code == 200, (q, resp.get_data(as_text=True)[:200])
        page = client.get("/search", query_string={"q": q})
        assert page.status_code == 200
        assert "<script>alert(1)</script>" not in page.get_data(as_text=True)


def test_query_syntax_works_end_to_end(client):
    all_rl = _first_hit(client, q="reinforcement")["total"]
    excl = _first_hit(client, q="reinforcement -robot")["total"]
    assert 0 < excl < all_rl
    either = _first_hit(client, q="canonize OR zero-shooter")["total"]
    assert either >= 2
    scoped = _first_hit(client, q="author:Imgrund")
    assert scoped["total"] >= 1 and "Erik Imgrund" in scoped["hits"][0]["authors"]
    prefix = _first_hit(client, q="canoni*")
    assert prefix["total"] >= 1
    years = _first_hit(client, q="learning year:2024-2025", page_size=50)
    assert years["total"] > 0 and all(2024 <= h["year"] <= 2025 for h in years["hits"])


def test_sorts_and_deep_paging_cursor(client):
    newest = _first_hit(client, sort="newest", page_size=50)["hits"]
    assert [h["year"] for h in newest] == sorted((h["year"] for h in newest), reverse=True)
    oldest = _first_hit(client, sort="oldest", page_size=50)["hits"]
    assert [h["year"] for h in oldest] == sorted(h["year"] for h in oldest)
    cited = _first_hit(client, sort="citations", page_size=20)["hits"]
    counts = [h["citations"] or 0 for h in cited]
    assert counts == sorted(counts, reverse=True)
    first = _first_hit(client, q="learning", page_size=10)
    second = _first_hit(client, q="learning", page_size=10, search_after=first["next_search_after"])
    page2 = _first_hit(client, q="learning", page_size=10, page=2)
    assert [h["id"] for h in second["hits"]] == [h["id"] for h in page2["hits"]]


def test_hidden_statuses_only_when_asked(client):
    default = _first_hit(client, page_size=100, status=[])
    statuses = {f["value"] for f in default["facets"]["status"]}
    assert "reject" in statuses or "withdrawn" in statuses  # offered as a facet...
    shown = {h["status"] for h in _first_hit(client, q="", page_size=100)["hits"]}
    assert not shown & {"reject", "withdrawn"}             # ...but hidden from results
    rejected = _first_hit(client, status="reject")
    assert rejected["total"] > 0 and all(h["status"] == "reject" for h in rejected["hits"])


def test_a_rejected_papers_whole_title_lists_it_first_after_a_listed_twin(client):
    rejected = _first_hit(client, status="reject", page_size=50)["hits"]
    paper = next(h for h in rejected if len(h["title"].split()) >= NAMED_TITLE_WORDS)
    answer = _first_hit(client, q=paper["title"])
    ids = [h["id"] for h in answer["hits"]]
    assert paper["id"] in ids
    before = answer["hits"][:ids.index(paper["id"])]
    assert all(h["title"].casefold() == paper["title"].casefold() and h["status"] != "reject" for h in before)
    page = client.get("/search", query_string={"q": paper["title"]}).get_data(as_text=True)
    assert urlsplit(paper["url"]).path in page
    counted = {f["value"]: f["count"] for f in answer["facets"]["status"]}
    if answer["total"] <= len(ids) and counted.get("reject") == sum(h["status"] == "reject" for h in answer["hits"]):
        assert "rejected —" not in page  # "+ N rejected — show" counts only the papers not listed


def test_suggest_titles_authors_topics(client):
    data = client.get("/api/v1/suggest?q=when").get_json()
    assert any(s["type"] == "title" and s["text"].startswith("When") for s in data["suggestions"])
    data = client.get("/api/v1/suggest?q=rein").get_json()
    assert any(s["type"] == "topic" for s in data["suggestions"])
    data = client.get("/api/v1/suggest?q=neur").get_json()
    assert any(s["type"] == "conference" and s["text"] == "NeurIPS" for s in data["suggestions"])
    data = client.get("/api/v1/suggest?q=Erik").get_json()
    assert any(s["type"] == "person" for s in data["suggestions"])  # people, each to their page
    assert client.get("/api/v1/suggest?q=" + "x" * 101).status_code == 400
    # Every kind of suggestion links to a page that exists.
    kinds = {}
    for prefix in ("when", "rein", "neur", "Erik"):
        for s in client.get(f"/api/v1/suggest?q={prefix}").get_json()["suggestions"]:
            kinds.setdefault(s["type"], s["url"])
    assert set(kinds) == {"title", "person", "topic", "conference"}
    for kind, url in kinds.items():
        assert url.startswith("/") and client.get(url).status_code == 200, (kind, url)


def test_exports(client):
    bib = client.get("/api/v1/export?format=bibtex&conference=neurips&year=2026")
    assert bib.status_code == 200 and bib.get_data(as_text=True).count("@inproceedings") == 20
    rows = list(csv.reader(io.StringIO(client.get("/api/v1/export?format=csv&conference=neurips&year=2026")
                                       .get_data(as_text=True))))
    assert rows[0][:2] == ["id", "title"] and len(rows) == 21
    js = client.get("/api/v1/export?format=json&q=learning").get_json()
    assert 0 < js["count"] <= 1000
    assert client.get("/api/v1/export?format=docx").status_code == 400


def test_caching_and_cors_headers(client):
    resp = client.get("/api/v1/search?q=graph")
    assert "max-age" in resp.headers["Cache-Control"]
    etag = resp.headers["ETag"]
    again = client.get("/api/v1/search?q=graph", headers={"If-None-Match": etag})
    assert again.status_code == 304
    cors = client.get("/api/v1/search?q=graph", headers={"Origin": "https://example.org"})
    assert cors.headers.get("Access-Control-Allow-Origin") == "*"
    static = client.get("/static/style.css")
    assert static.status_code == 200 and "max-age=31536000" in static.headers["Cache-Control"]


def test_browse_pages(client):
    conf = client.get("/conferences/nips")
    assert conf.status_code == 200 and "NeurIPS" in conf.get_data(as_text=True)
    year = client.get("/conferences/neurips/2026")
    assert year.status_code == 200 and SEED_TITLE in year.get_data(as_text=True)
    topic = client.get("/topics/robotics")
    assert topic.status_code == 200 and "Robotics" in topic.get_data(as_text=True)


def test_author_url_ignores_case_and_accents(client, es, sample_alias):
    """A name is its person's page whatever its case and accents (Yoshua Bengio is one person in the sample)."""
    moved = client.get("/authors/yoshua%20bengio")
    assert moved.status_code == 302 and "/people/p" in moved.headers["Location"]
    page = client.get(moved.headers["Location"])
    assert page.status_code == 200 and "<h1>Yoshua Bengio</h1>" in page.get_data(as_text=True)
    for spelling in ("YOSHUA%20BENGI%C3%93", "Yoshua%20Bengio"):
        again = client.get(f"/authors/{spelling}")
        assert again.status_code == 302 and again.headers["Location"] == moved.headers["Location"]
    assert client.get("/authors/nobody%20of%20that%20name").status_code == 404
    # What the index holds is clean: no author name ends in a footnote mark.
    names = es.search(index=sample_alias, size=0, aggs={"n": {"terms": {"field": "author_names.raw", "size": 100000}}})
    marked = [b["key"] for b in names["aggregations"]["n"]["buckets"] if re.search(r"[*∗†‡]$|(?<=\D)\d$", b["key"])]
    assert marked == []


def test_health_and_readiness(client):
    assert client.get("/healthz").get_json() == {"status": "ok"}
    assert client.get("/readyz").status_code == 200


def test_unreachable_elasticsearch_is_503(web_settings):
    from services.settings import load_settings
    from services.web.app import create_app

    dead = create_app(load_settings(ES_URL="http://127.0.0.1:9", PAPERLIST_INDEX=web_settings.index,
                                    PAPERLIST_ES_TIMEOUT="2"))
    c = dead.test_client()
    assert c.get("/api/v1/search?q=x").status_code == 503
    assert c.get("/api/v1/search?q=x").get_json()["error"]["code"] == "unavailable"
    assert c.get("/search?q=x").status_code == 503
    assert c.get("/readyz").status_code == 503
    assert c.get("/healthz").status_code == 200


def test_missing_index_is_503_not_404(web_settings):
    """A paper lookup on an alias that does not exist is an outage, not an unknown paper."""
    from services.settings import load_settings
    from services.web.app import create_app

    c = create_app(load_settings(ES_URL=web_settings.es_url, PAPERLIST_INDEX="test-missing-alias-0")).test_client()
    for path in ("/api/v1/papers/x", "/api/v1/search?q=x"):
        resp = c.get(path)
        assert resp.status_code == 503, path
        assert resp.get_json()["error"] == {"code": "unavailable", "message": "The search index is not available yet."}
        assert resp.headers["Retry-After"] == "30"
    assert c.get("/papers/x").status_code == 503


def test_admin_api_needs_the_token(client):
    assert client.post("/api/v1/admin/reindex").status_code == 401
    assert client.post("/api/v1/admin/reindex", headers={"Authorization": "Bearer wrong"}).status_code == 401
