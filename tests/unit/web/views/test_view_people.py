"""People on the site and the API, over the in-memory search layer (tests/fake_people.py): a name's page (its
people, its one person, or the name as written), a person's page and feed, retired and unknown ids, the API's
answers, authors linked to their people, the author facet's labels and people offered as suggestions."""

from __future__ import annotations

import feedparser
import pytest
from fake_people import ADA, MERGED, SPLIT, TURING_1, TURING_2
from fake_reads import conforms

from services.search.limits import MAX_AUTHOR_NAME


def _html(resp) -> str:
    assert resp.status_code == 200, resp.status_code
    return resp.get_data(as_text=True)


def test_a_name_of_several_people_is_a_short_page_telling_them_apart(fake_client):
    html = _html(fake_client.get("/authors/Alan Turing"))
    assert "2 people publish as Alan Turing" in html
    first, second = html.index(f'href="/people/{TURING_2}"'), html.index(f'href="/people/{TURING_1}"')
    assert first < second  # the most papers first
    assert "University of Manchester" in html and "Bletchley Park" in html and "2021–2024" in html
    assert "Ada Lovelace" in html and "NeurIPS" in html  # a co-author and a venue of each
    assert 'href="/search?author=Alan+Turing"' in html  # every paper under the name


def test_a_name_of_one_person_goes_to_their_page(fake_client):
    for name in ("Ada Lovelace", "ada lovelace", "Ada  Lovelace"):
        moved = fake_client.get(f"/authors/{name}")
        assert moved.status_code == 302 and moved.headers["Location"] == f"/people/{ADA}"


def test_a_name_past_the_limit_is_cut_as_before(fake_client, fake_reads):
    assert fake_client.get("/authors/" + "x" * (MAX_AUTHOR_NAME + 50)).status_code == 404
    assert ("people_named", ("x" * MAX_AUTHOR_NAME,)) in fake_reads.calls


def test_a_persons_page(fake_client):
    html = _html(fake_client.get(f"/people/{ADA}"))
    assert "<h1>Ada Lovelace</h1>" in html and "Analytical Engines" in html
    assert "3 papers, 2018–2024" in html and "+ 1 rejected or withdrawn" in html
    assert html.index("Graph Neural Networks at Scale") < html.index("Graph Attention Networks")  # newest first
    assert "A Rejected Graph Paper" not in html
    assert "Also written A. Lovelace" in html
    assert 'href="https://openreview.net/profile?id=~Ada_Lovelace1"' in html
    assert 'href="https://orcid.org/0000-0002-1825-0097"' in html
    assert f'href="/people/{TURING_2}">Alan Turing</a>' in html  # co-authors lead to their own people
    assert f'href="/search?author={ADA}&amp;conference=neurips"' in html
    assert f'href="/people/{ADA}.atom"' in html and 'rel="alternate" type="application/atom+xml"' in html


def test_a_persons_papers_are_paged(fake_reads):
    from fake_reads import fake_app

    client = fake_app(fake_reads).test_client()
    assert fake_reads.person(ADA, 2, 2).papers  # the fake pages as the service does
    moved = client.get(f"/people/{ADA}?page=9")
    assert moved.status_code == 302 and moved.headers["Location"] == f"/people/{ADA}"
    assert client.get(f"/people/{ADA}?page=x").status_code == 400


def test_a_merged_id_moves_for_good_and_a_split_one_lists_its_people(fake_client):
    moved = fake_client.get(f"/people/{MERGED}")
    assert moved.status_code == 301 and moved.headers["Location"] == f"/people/{ADA}"
    html = _html(fake_client.get(f"/people/{SPLIT}"))
    assert "several people" in html and f'href="/people/{TURING_1}"' in html and f'href="/people/{TURING_2}"' in html


@pytest.mark.parametrize("person_id", ["p000000000000", "nope", "P7A0000000001", "p7a00000000011", "p7a000000000g"])
def test_an_unknown_or_malformed_id_is_a_404_with_a_message(fake_client, fake_reads, person_id):
    resp = fake_client.get(f"/people/{person_id}")
    assert resp.status_code == 404 and "person" in resp.get_data(as_text=True)
    api = fake_client.get(f"/api/v1/people/{person_id}")
    assert api.status_code == 404 and api.get_json()["error"]["code"] == "not_found"
    assert "person" in api.get_json()["error"]["message"]
    if person_id != "p000000000000":
        assert fake_reads.called("person") == 0  # a malformed id is never looked up


def test_a_persons_feed_is_their_papers_newest_first(fake_client):
    resp = fake_client.get(f"/people/{ADA}.atom")
    assert resp.status_code == 200 and resp.mimetype == "application/atom+xml"
    feed = feedparser.parse(resp.get_data())
    assert feed.bozo == 0 and feed.feed.title == "paperlist — papers by Ada Lovelace · Analytical Engines"
    assert [e.title for e in feed.entries][:2] == ["Graph Neural Networks at Scale", "Diffusion Models Beat GANs on Image Synthesis"]
    assert feed.feed.link == f"https://papers.example.org/people/{ADA}"
    moved = fake_client.get(f"/people/{MERGED}.atom")
    assert moved.status_code == 301 and moved.headers["Location"] == f"/people/{ADA}.atom"
    assert fake_client.get(f"/people/{SPLIT}.atom").status_code == 404


def test_the_person_api_answers_a_page_and_a_retired_id_its_successors_never_a_redirect(fake_client):
    body = fake_client.get(f"/api/v1/people/{ADA}?page_size=2").get_json()
    conforms(body, "PersonPapers")
    assert body["person"]["label"] == "Ada Lovelace · Analytical Engines" and body["successor"] is None
    assert (body["total"], body["hidden"], body["pages"], len(body["papers"])) == (3, 1, 2, 2)
    assert {"kind": "orcid", "id": "0000-0002-1825-0097", "url": "https://orcid.org/0000-0002-1825-0097"} \
        in body["person"]["profiles"]
    merged = fake_client.get(f"/api/v1/people/{MERGED}")
    assert merged.status_code == 200
    conforms(merged.get_json(), "PersonPapers")
    assert merged.get_json()["person"] is None
    assert [p["id"] for p in merged.get_json()["successor"]["successors"]] == [ADA]
    assert fake_client.get(f"/api/v1/people/{ADA}?page_size=0").status_code == 400


def test_the_people_of_a_name_as_json(fake_client):
    body = fake_client.get("/api/v1/people", query_string={"name": "alan turing"}).get_json()
    conforms(body, "PeopleNamed")
    assert [p["id"] for p in body["people"]] == [TURING_2, TURING_1]
    assert fake_client.get("/api/v1/people", query_string={"name": "Kaiming He"}).get_json()["people"] == []
    assert fake_client.get("/api/v1/people").status_code == 400
    assert fake_client.get("/api/v1/people", query_string={"name": "x" * (MAX_AUTHOR_NAME + 1)}).status_code == 400


def test_papers_keep_their_author_names_and_add_who_they_are_in_the_same_order(fake_client):
    hit = fake_client.get("/api/v1/search", query_string={"q": "residual"}).get_json()["hits"][0]
    assert hit["authors"] == ["Kaiming He"] and hit["author_ids"] == [None]
    paper = fake_client.get("/api/v1/papers/neurips-2021-p2").get_json()
    assert paper["authors"] == ["Ada Lovelace", "Alan Turing"] and paper["author_ids"] == [ADA, TURING_2]


def test_result_cards_link_each_author_to_their_person_else_to_the_name(fake_client):
    html = _html(fake_client.get("/search", query_string={"q": "image"}))
    assert f'href="/people/{TURING_2}">Alan Turing</a>' in html and 'href="/authors/Kaiming%20He">Kaiming He</a>' in html


def test_the_author_facet_counts_people_and_a_chosen_one_is_named_by_who_they_are(fake_client):
    counted = fake_client.get("/api/v1/facets", query_string={"facets": "author"}).get_json()["facets"]["author"]
    assert {v["value"]: v["label"] for v in counted}[TURING_1] == "Alan Turing · Bletchley Park"
    html = _html(fake_client.get("/search", query_string={"author": TURING_2}))
    assert "Author: Alan Turing · University of Manchester" in html and "Graph Attention Networks" not in html


def test_people_are_suggested_with_their_label_and_address(fake_client):
    found = fake_client.get("/api/v1/suggest", query_string={"q": "turing"}).get_json()["suggestions"]
    people = [s for s in found if s["type"] == "person"]
    assert {(s["text"], s["url"]) for s in people} == {("Alan Turing · Bletchley Park", f"/people/{TURING_1}"),
                                                        ("Alan Turing · University of Manchester", f"/people/{TURING_2}")}
    assert all(s["detail"].startswith(("1 paper", "2 papers")) for s in people)
