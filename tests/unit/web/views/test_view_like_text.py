""""Papers like my text": the JSON route and the form page."""

from __future__ import annotations

import pytest
from fake_reads import FakeReads, conforms, fake_app


@pytest.fixture
def reads():
    return FakeReads()


@pytest.fixture
def client(reads):
    return fake_app(reads).test_client()


def test_the_api_answers_the_search_shape(client, reads):
    resp = client.post("/api/v1/similar", json={"text": "graph attention", "conference": "iclr", "page_size": 5})
    assert resp.status_code == 200
    conforms(resp.get_json(), "SearchResponse")
    req = reads.calls[-1][1][0]
    assert req.mode == "semantic" and req.selected("conference") == ("iclr",) and req.page_size == 5


@pytest.mark.parametrize("body, parameter", [({}, "text"), ({"text": "x", "q": "y"}, "q"), ([1], "body"),
                                             ({"text": "x", "page_size": "5"}, "page_size")])
def test_the_api_refuses_bad_bodies(client, reads, body, parameter):
    resp = client.post("/api/v1/similar", json=body)
    assert resp.status_code == 400 and resp.get_json()["error"]["message"].startswith(f"{parameter}:")
    assert reads.called("like_text") == 0


def test_the_form_shows_results_under_it_and_keeps_what_was_typed(client):
    assert "<textarea" in client.get("/similar").get_data(as_text=True)
    done = client.post("/similar", data={"text": "graph attention", "conference": ""})
    assert done.status_code == 200 and "Graph Attention Networks" in done.get_data(as_text=True)
    empty = client.post("/similar", data={"text": ""})
    assert empty.status_code == 400 and "<textarea" in empty.get_data(as_text=True)
