"""A conference-year's tools: where a review score lands (/scores), who publishes there (/institutions)."""

from __future__ import annotations

import re

import pytest
from fake_reads import PAPERS, FakeReads, _paper, conforms, fake_app


def _client(*extra):
    return fake_app(FakeReads([*PAPERS, *extra])).test_client()


def _cells(page: str, table: str) -> list[str]:
    body = page[page.index(f'<table class="{table}"'):]
    body = body[:body.index("</table>")]
    return [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", body, re.S)]


def test_the_score_page_charts_and_tables_acceptance_by_mean_score(fake_client):
    resp = fake_client.get("/conferences/iclr/2018/scores")
    page = resp.get_data(as_text=True)
    assert resp.status_code == 200 and "public" in resp.headers["Cache-Control"]
    assert 'id="score-bins"' in page and 'role="img"' in page  # the chart
    cells = _cells(page, "score-bins")
    # The poster's 7 and the reject's 3.5: two scored papers, every half point between them kept.
    assert cells[:4] == ["Mean score", "Papers", "Accepted", "Poster"]
    assert ["7–7.5", "1", "1 of 1", "1 of 1"] == cells[4:8] and ["3.5–4", "1", "0 of 1", "0 of 1"] == cells[-4:]
    assert not any("%" in c for c in cells)  # a share of fewer than 10 papers is its count alone
    assert 'name="score"' in page and "Taken before the decisions" not in page


def test_a_typed_score_gets_its_percentile_and_its_bins_acceptance_without_javascript(fake_client):
    page = fake_client.get("/conferences/iclr/2018/scores", query_string={"score": "7,0"}).get_data(as_text=True)
    assert re.search(r"A mean of <strong>7</strong> is higher than\s+<strong>50.0%</strong> of ICLR 2018's 2 scored "
                     r"submissions:\s+1 had a lower mean, 1 the same, 0 a higher one", page)
    assert "Its bin, means 7 to under 7.5, holds 1 paper" in page and "Too few papers for a share" in page
    assert '<tr class="landed">' in page
    partial = fake_client.get("/conferences/iclr/2018/scores", query_string={"score": "1", "partial": "1"})
    assert "No ICLR 2018 paper had a mean in that range" in partial.get_json()["answer"]


@pytest.mark.parametrize("score", ["abc", "nan", "-1", "1e9", "inf"])
def test_a_score_that_is_no_mean_is_a_400_page(fake_client, score):
    resp = fake_client.get("/conferences/iclr/2018/scores", query_string={"score": score})
    assert resp.status_code == 400 and "score:" in resp.get_data(as_text=True)


def test_a_bin_of_ten_papers_or_more_shows_its_share_with_the_count():
    many = [_paper(200 + i, f"Paper {i}", "iclr", 2019, status="poster" if i < 3 else "reject", ratings=(6, 6))
            for i in range(12)]
    page = _client(*many).get("/conferences/iclr/2019/scores", query_string={"score": "6"}).get_data(as_text=True)
    assert "25% (3 of 12)" in _cells(page, "score-bins")
    assert "<strong>25% (3 of 12)</strong> accepted" in page


def test_scores_of_accepted_papers_taken_before_the_decisions_are_said_so():
    accepted = [_paper(300 + i, f"Accepted {i}", "iclr", 2024, status="poster", ratings=(6, 8)) for i in range(3)]
    page = _client(*accepted).get("/conferences/iclr/2024/scores").get_data(as_text=True)
    assert "Read during the review." in page and "Accepted papers only." in page
    assert "3 scored accepted papers" in page
    venue_page = _client(*accepted).get("/conferences/iclr/2024").get_data(as_text=True)
    for said in (page, venue_page):  # the catalogue's date, said once a page
        assert said.count("before the decisions") == 1 and "as they stood on 14 December 2023" in said
    data = _client(*accepted).get("/api/v1/venues/iclr/2024").get_json()
    assert data["scores_taken"] == "2023-12-14" and data["scores_accepted_only"] is True


def test_a_venue_year_without_scores_says_so(fake_client):
    page = fake_client.get("/conferences/neurips/2024/scores").get_data(as_text=True)
    assert "The source has no review scores for NeurIPS 2024" in page and 'name="score"' not in page
    venue_page = fake_client.get("/conferences/neurips/2024").get_data(as_text=True)
    assert "no review scores for NeurIPS 2024" in venue_page  # the venue panel says it; the tools do not repeat it
    tools = venue_page[venue_page.index('class="venue-tools"'):]
    tools = tools[:tools.index("</nav>")]
    assert "/scores" not in tools and 'href="/conferences/neurips/2024/institutions"' in tools


def test_a_venue_year_page_links_its_tools(fake_client):
    page = fake_client.get("/conferences/iclr/2018").get_data(as_text=True)
    assert 'href="/conferences/iclr/2018/scores">Where scores land</a>' in page
    assert "(2 papers with review scores)" in page


@pytest.mark.parametrize("path", ["/conferences/iclr/1999/scores", "/conferences/nosuch/2018/institutions",
                                  "/conferences/iclr/99999/institutions"])
def test_tools_of_a_venue_year_we_do_not_have_are_404_pages(fake_client, path):
    resp = fake_client.get(path)
    assert resp.status_code == 404 and resp.mimetype == "text/html"


def test_the_institutions_page_counts_papers_with_affiliations_and_links_their_search(fake_client):
    page = fake_client.get("/conferences/iclr/2018/institutions").get_data(as_text=True)
    assert "<strong>1</strong> of the 1 listed papers counted (100%)" in page  # the reject is not listed
    assert ('href="/search?affiliation=Analytical+Engines&amp;conference=iclr&amp;year=2018">Analytical Engines</a>'
            in page)
    cells = _cells(page, "institutions")
    assert cells[cells.index("Analytical Engines") + 1] == "1" and 'aria-label="Analytical Engines: share' in page
    assert "The source gives no oral or spotlight tiers" not in page  # it has posters: tiers, none highlighted


def test_institutions_by_oral_and_spotlight_papers_link_a_search_of_those():
    oral = _paper(400, "An Oral Paper", "iclr", 2018, status="oral")
    page = _client(oral).get("/conferences/iclr/2018/institutions").get_data(as_text=True)
    assert 'id="by-tier"' in page
    assert ('href="/search?affiliation=Analytical+Engines&amp;conference=iclr&amp;status=oral&amp;year=2018">1</a>'
            in page)


def test_the_venue_json_carries_score_bins_and_institutions(fake_client):
    data = fake_client.get("/api/v1/venues/iclr/2018").get_json()
    conforms(data, "Venue")
    bins = data["score_bins"]
    assert sum(b["papers"] for b in bins) == data["coverage"]["reviews"] == data["score_histogram"]["total"] == 2
    assert [b for b in bins if b["papers"]] == [
        {"lo": 3.5, "hi": 4.0, "papers": 1, "accepted": 0, "by_tier": {}},
        {"lo": 7.0, "hi": 7.5, "papers": 1, "accepted": 1, "by_tier": {"poster": 1}}]
    assert data["score_values"] == [{"score": 3.5, "papers": 1}, {"score": 7.0, "papers": 1}]
    assert data["scores_taken"] is None and data["scores_accepted_only"] is False
    assert data["institutions"] == [{"name": "Analytical Engines", "papers": 1, "by_tier": {"poster": 1},
                                     "by_year": [{"year": 2018, "count": 1}]}]
    assert data["institutions_counted"] == {"year": 2018, "papers": 1, "with_affiliations": 1}
    neurips = fake_client.get("/api/v1/venues/neurips/2024").get_json()
    conforms(neurips, "Venue")
    assert neurips["score_bins"] is None and neurips["score_values"] is None


def test_a_source_listing_only_some_rejections_is_said_to_flatter_the_shares():
    # Ten posters and one reject: over 80% of the decided accepted, as in NeurIPS lists of opted-in rejections.
    papers = [_paper(500 + i, f"Listed {i}", "iclr", 2019, status="poster" if i < 10 else "reject", ratings=(5, 6))
              for i in range(11)]
    page = _client(*papers).get("/conferences/iclr/2019/scores", query_string={"score": "5.2"}).get_data(as_text=True)
    assert "Only some rejections listed." in page and "Accepted papers only." not in page
    empty = _client(*papers).get("/conferences/iclr/2019/scores", query_string={"score": "9"})
    assert "No ICLR 2019 paper had a mean in that range" in empty.get_data(as_text=True)
    gap = [_paper(600, "Low", "iclr", 2019, status="reject", ratings=(3, 3)), _paper(601, "High", "iclr", 2019,
                                                                                       ratings=(6, 6))]
    between = _client(*gap).get("/conferences/iclr/2019/scores", query_string={"score": "4.2"}).get_data(as_text=True)
    assert "No ICLR 2019 paper had a mean from 4 to under 4.5: its bin is empty." in between
