""""Papers like my text": the JSON route and the form page."""

from __future__ import annotations

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
    done = fake_client.post("/similar", data={"text": "graph attention", "conference": ""})
    assert done.status_code == 200 and "Graph Attention Networks" in done.get_data(as_text=True)
    empty = fake_client.post("/similar", data={"text": ""})
    assert empty.status_code == 400 and "<textarea" in empty.get_data(as_text=True)
