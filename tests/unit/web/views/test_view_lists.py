"""Reading lists: /list?ids=… renders the papers it names, in their order, with exports of exactly them."""

from __future__ import annotations

import io
import json
import re

import bibtexparser
import pytest
from fake_reads import PAPERS, FakeReads, _paper, fake_app

from services.search.limits import MAX_LIST_PAPERS


def test_a_list_page_shows_its_papers_in_order_and_exports_them(fake_client, fake_reads):
    resp = fake_client.get("/list?ids=cvpr-2016-p3,iclr-2018-p1")
    page = resp.get_data(as_text=True)
    assert resp.status_code == 200 and "public" in resp.headers["Cache-Control"]
    assert page.index("Deep Residual Learning") < page.index("Graph Attention Networks")
    assert fake_reads.calls[-1] == ("papers_by_id", (("cvpr-2016-p3", "iclr-2018-p1"),))
    assert 'href="/api/v1/export?format=bibtex&amp;ids=cvpr-2016-p3%2Ciclr-2018-p1"' in page
    assert "https://papers.example.org/list?ids=cvpr-2016-p3,iclr-2018-p1" in page  # the link to share, absolute
    assert 'data-star="iclr-2018-p1"' in page and 'aria-pressed="false"' in page


@pytest.mark.parametrize("path", ["/", "/authors/Kaiming He", "/people/pada000000001", "/papers/iclr-2018-p1", "/search?q=graph",
                                  "/conferences/iclr/2018", "/list?ids=iclr-2018-p1"])
def test_every_paper_card_has_its_star(fake_client, path):
    page = fake_client.get(path).get_data(as_text=True)
    cards = [c.split("</article>")[0] for c in page.split('<article class="paper-card">')[1:]]
    assert cards and all(re.search(r'<button type="button" class="star js-only" data-star="[^"]+"', c) for c in cards)


def test_a_paper_pages_star_is_in_its_row_of_links(fake_client):
    page = fake_client.get("/papers/iclr-2018-p1").get_data(as_text=True)
    start = page.index('class="paper-actions"')
    row = page[start:page.index("</ul>", start)]
    assert 'data-star="iclr-2018-p1"' in row and "Save to reading list" in row and "In your reading list" in row
    assert page.count('data-star="iclr-2018-p1"') == 1


def test_ids_that_name_no_paper_are_said_and_left_out(fake_client):
    page = fake_client.get("/list", query_string={"ids": "nope-1, iclr-2018-p1 ,iclr-2018-p1"}).get_data(as_text=True)
    assert "1 of the ids in this address name no paper we have: nope-1" in page
    assert page.count('<article class="paper-card">') == 1  # a repeated id is one paper
    assert "ids=iclr-2018-p1" in page and "nope-1%2C" not in page  # exports hold the papers found


def test_the_empty_list_explains_itself(fake_client, fake_reads):
    page = fake_client.get("/list").get_data(as_text=True)
    assert "Your reading list is empty" in page and "kept in this browser only" in page
    assert fake_reads.called("papers_by_id") == 0


@pytest.mark.parametrize("ids", [",".join(f"p-{i}" for i in range(MAX_LIST_PAPERS + 1)), "a b", "<script>", "x" * 101])
def test_a_list_past_its_bound_or_with_a_bad_id_is_a_400_page(fake_client, ids):
    resp = fake_client.get("/list", query_string={"ids": ids})
    assert resp.status_code == 400 and resp.mimetype == "text/html"
    assert "ids:" in resp.get_data(as_text=True)


def test_the_api_exports_exactly_the_papers_of_a_list_in_its_order(fake_client):
    resp = fake_client.get("/api/v1/export", query_string={"ids": "neurips-2021-p2,iclr-2018-p1,gone-1",
                                                           "format": "json"})
    assert resp.status_code == 200 and 'filename="paperlist-list.json"' in resp.headers["Content-Disposition"]
    assert (resp.headers["X-Total-Count"], resp.headers["X-Exported-Count"]) == ("3", "2")
    assert [p["id"] for p in resp.get_json()["papers"]] == ["neurips-2021-p2", "iclr-2018-p1"]
    csv = fake_client.get("/api/v1/export", query_string={"ids": "iclr-2018-p5", "format": "csv"}).get_data(as_text=True)
    assert "A Rejected Graph Paper" in csv  # a list keeps what it was given, rejected papers too


def test_a_list_export_reads_no_search_parameters(fake_client):
    resp = fake_client.get("/api/v1/export", query_string={"ids": "iclr-2018-p1", "q": "diffusion", "format": "json"})
    assert [p["id"] for p in resp.get_json()["papers"]] == ["iclr-2018-p1"]
    assert fake_client.head("/api/v1/export", query_string={"ids": "iclr-2018-p1"}).status_code == 200


@pytest.mark.parametrize("ids", ["a,b", " a , b ,", ",".join(["a"] * 100)])
def test_the_ids_the_openapi_document_allows_are_taken(fake_client, ids):
    from services.search.limits import LIST_IDS_PATTERN
    assert re.match(LIST_IDS_PATTERN, ids)
    assert fake_client.get("/list", query_string={"ids": ids}).status_code == 200


def test_a_list_of_fifty_papers_exports_bibtex_that_parses_with_unique_keys():
    # Fifty papers, several with the same first author, year and first title word: keys must still differ.
    papers = [_paper(100 + i, f"Graph {'Networks' if i % 2 else 'Learning'} number {i}", "iclr", 2020,
                     authors=("Ada Lovelace",)) for i in range(50)]
    client = fake_app(FakeReads([*PAPERS, *papers])).test_client()
    ids = ",".join(p.paper_id for p in papers)
    body = client.get("/api/v1/export", query_string={"ids": ids, "format": "bibtex"}).get_data(as_text=True)
    library = bibtexparser.parse_string(body)
    keys = [entry.key for entry in library.entries]
    assert len(keys) == 50 == len(set(keys)) and not library.failed_blocks
    assert [e.fields_dict["title"].value for e in library.entries][:2] == ["Graph Learning number 0",
                                                                          "Graph Networks number 1"]
    assert json.loads(client.get("/api/v1/export", query_string={"ids": ids, "format": "json"}).data)["count"] == 50
    assert len(io.StringIO(client.get("/api/v1/export", query_string={"ids": ids, "format": "csv"})
                           .get_data(as_text=True)).readlines()) == 51
