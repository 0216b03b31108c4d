""""Papers like my text": the JSON route and the form page."""

from __future__ import annotations

import re

import pytest
from fake_reads import conforms


def test_the_api_answers_the_search_shape(fake_client, fake_reads):
    resp = fake_client.post("/api/v1/similar", json={"text": "graph attention", "conference": "iclr", "page_size": 5})
    assert resp.status_code == 200
    conforms(resp.get_json(), "SearchResponse")
    req = fake_reads.calls[-1][1][0]
    assert req.mode == "semantic" and req.selected("conference") == ("iclr",) and req.page_size == 5


@pytest.mark.parametrize("body, parameter", [({}, "text"), ({"text": "x", "q": "y"}, "q"), ([1], "body"),
                                             ({"text": "x", "page_size": "5"}, "page_size")])
def test_the_api_refuses_bad_bodies(fake_client, fake_reads, body, parameter):
    resp = fake_client.post("/api/v1/similar", json=body)
    assert resp.status_code == 400 and resp.get_json()["error"]["message"].startswith(f"{parameter}:")
    assert fake_reads.called("like_text") == 0


def test_the_form_shows_results_under_it_and_keeps_what_was_typed(fake_client):
    assert "<textarea" in fake_client.get("/similar").get_data(as_text=True)
    done = fake_client.post("/similar", data={"text": "graph attention", "conference": ""}, follow_redirects=True)
    assert done.status_code == 200 and "Graph Attention Networks" in done.get_data(as_text=True)
    assert ">graph attention</textarea>" in done.get_data(as_text=True)
    empty = fake_client.post("/similar", data={"text": ""})
    assert empty.status_code == 400 and "<textarea" in empty.get_data(as_text=True)


def test_a_short_text_gets_a_link_to_its_results(fake_client, fake_reads):
    posted = fake_client.post("/similar", data={"text": "graph attention", "conference": "iclr", "year": ""})
    # Post/redirect/get: the address bar holds a link to the results, and a reload does not post again.
    assert posted.status_code == 303 and fake_reads.called("like_text") == 0
    link = posted.headers["Location"]
    assert link == "/similar?conference=iclr&text=graph+attention"
    page = fake_client.get(link)
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and "Graph Attention Networks" in html
    assert f'href="{link.replace("&", "&amp;")}" rel="bookmark"' in html
    req, text = [args for name, args in fake_reads.calls if name == "like_text"][-1]
    assert text == "graph attention" and req.selected("conference") == ("iclr",) and req.mode == "semantic"


def test_a_long_text_is_answered_by_post_without_a_link(fake_client, fake_reads):
    text = "graph attention é " * 250  # 4,500 characters: over the link's 3,000 bytes once encoded
    posted = fake_client.post("/similar", data={"text": text})
    html = posted.get_data(as_text=True)
    assert posted.status_code == 200 and fake_reads.called("like_text") == 1
    assert "Graph Attention Networks" in html and 'rel="bookmark"' not in html and "too long for a link" in html


def test_the_venue_menu_lists_only_venues_with_papers(fake_client):
    html = fake_client.get("/similar").get_data(as_text=True)
    menu = re.findall(r'<option value="([a-z0-9-]+)"', html.split('id="similar-conference"', 1)[1].split("</select>")[0])
    assert menu == ["neurips", "iclr", "cvpr"]  # the catalogue's order, none without papers
    refused = fake_client.post("/api/v1/similar", json={"text": "graph attention", "conference": "icra"})
    assert refused.status_code == 400 and "no papers from 'icra'" in refused.get_json()["error"]["message"]
