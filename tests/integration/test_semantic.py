"""Embeddings end to end: vectors written by the worker, kNN search, "papers like this", the /similar page."""

from __future__ import annotations

import json
import re

import pytest

from services.search.limits import MAX_SIMILAR_TEXT
from services.search.records.embedding import DIMS

pytestmark = pytest.mark.integration

SEED = "data/sample/neurips/neurips2026.json"


def _seed() -> list[dict]:
    return json.load(open(SEED))


def _with_abstract() -> dict:
    return next(r for r in _seed() if len(r.get("abstract", "")) > 200)


def _search_id(client, title: str) -> str:
    data = client.get("/api/v1/search", query_string={"q": title}).get_json()
    assert data["hits"][0]["title"] == title
    return data["hits"][0]["id"]


def test_documents_carry_a_unit_vector_and_its_version(es, sample_alias):
    # The seed's papers, all with abstracts. Not "any 50 documents with an abstract field":
    # a paper without an abstract stores "", which that field query matches too, so which 50
    # came back was the index's document order, which depends on how the ingest's batches
    # and segment merges happened to interleave (a loaded machine: all 50 without abstracts).
    seed = [r for r in _seed() if r.get("abstract", "").strip()]
    resp = es.search(index=sample_alias, size=len(seed), query={"bool": {"filter": [
        {"term": {"conference": "neurips"}}, {"term": {"year": 2026}}]}},
        source_includes=["embedding", "embedding_version", "abstract"])
    docs = [h["_source"] for h in resp["hits"]["hits"] if h["_source"].get("abstract")]
    assert len(docs) == len(seed) > 0
    for doc in docs:
        assert len(doc["embedding"]) == DIMS
        assert abs(sum(x * x for x in doc["embedding"]) - 1.0) < 1e-3
        assert doc["embedding_version"]


def test_search_responses_do_not_carry_the_vector(client):
    record = _with_abstract()
    paper_id = _search_id(client, record["title"])
    full = client.get(f"/api/v1/papers/{paper_id}").get_json()
    assert "embedding" not in full and full["abstract"]
    exported = client.get("/api/v1/export", query_string={"q": record["title"], "format": "json"})
    assert exported.status_code == 200 and b"embedding" not in exported.data


def test_similar_api_returns_the_search_shape_nearest_first(client):
    record = _with_abstract()
    resp = client.post("/api/v1/similar", json={"text": record["abstract"], "page_size": 5})
    assert resp.status_code == 200, resp.get_json()
    data = resp.get_json()
    assert set(data) >= {"total", "hits", "facets", "page", "page_size", "pages", "next_search_after"}
    assert 0 < len(data["hits"]) <= 5 and data["total"] >= len(data["hits"])
    # The paper whose abstract was pasted is its own nearest neighbour.
    assert data["hits"][0]["title"] == record["title"]
    assert data["facets"]["conference"]


def test_similar_api_applies_filters_as_prefilters(client):
    record = _with_abstract()
    data = client.post("/api/v1/similar", json={"text": record["abstract"], "conference": ["iclr"],
                                                "year": "2020-2024", "page_size": 10}).get_json()
    assert data["hits"]
    assert all(h["conference"] == "iclr" and 2020 <= h["year"] <= 2024 for h in data["hits"])
    assert all(h["title"] != record["title"] for h in data["hits"])  # a NeurIPS 2026 paper


@pytest.mark.parametrize("body, parameter", [
    ({}, "text"),
    ({"text": ""}, "text"),
    ({"text": 42}, "text"),
    ({"text": "x" * (MAX_SIMILAR_TEXT + 1)}, "text"),
    ({"text": "graph neural networks", "conference": {"a": 1}}, "conference"),
    ({"text": "graph neural networks", "year": "twenty"}, "year"),
    ({"text": "graph neural networks", "page_size": 0}, "page_size"),
    ({"text": "graph neural networks", "sort": "newest"}, "sort"),
    ([1, 2], "body"),
])
def test_similar_api_rejects_bad_input_with_400(client, body, parameter):
    resp = client.post("/api/v1/similar", json=body)
    assert resp.status_code == 400
    assert resp.get_json()["error"]["message"].startswith(f"{parameter}:")


def test_similar_api_text_without_words_finds_nothing(client):
    data = client.post("/api/v1/similar", json={"text": "   "}).get_json()
    assert data["total"] == 0 and data["hits"] == []


def test_similar_api_rejects_malformed_json_and_huge_bodies(client):
    bad = client.post("/api/v1/similar", data="{not json", content_type="application/json")
    assert bad.status_code == 400 and bad.get_json()["error"]["code"] == "invalid_parameter"
    # Nested deeper than the standard library's parser can recurse (a 500 before): still a 400.
    deep = client.post("/api/v1/similar", data="[" * 20_000 + "]" * 20_000, content_type="application/json")
    assert deep.status_code == 400 and deep.get_json()["error"]["code"] == "invalid_parameter"
    huge = client.post("/api/v1/similar", data=json.dumps({"text": "a " * 40_000}), content_type="application/json")
    assert huge.status_code == 413 and huge.get_json()["error"]["code"] == "too_large"


@pytest.mark.parametrize("mode", ["semantic", "hybrid"])
def test_search_modes_answer_with_the_same_shape(client, mode):
    lexical = client.get("/api/v1/search", query_string={"q": "reinforcement learning", "page_size": 5}).get_json()
    resp = client.get("/api/v1/search", query_string={"q": "reinforcement learning", "mode": mode,
                                                      "conference": "iclr", "page_size": 5})
    assert resp.status_code == 200, resp.get_json()
    data = resp.get_json()
    assert set(data) == set(lexical)
    assert data["hits"] and all(h["conference"] == "iclr" for h in data["hits"])
    assert data["next_search_after"] is None  # kNN results page with page=, not cursors


def test_hybrid_keeps_an_exact_title_first(client):
    record = _seed()[3]
    data = client.get("/api/v1/search", query_string={"q": record["title"], "mode": "hybrid"}).get_json()
    assert data["hits"][0]["title"] == record["title"]


def test_unknown_mode_is_a_400(client):
    resp = client.get("/api/v1/search", query_string={"q": "x", "mode": "vibes"})
    assert resp.status_code == 400 and resp.get_json()["error"]["message"].startswith("mode:")


def test_paper_pages_list_similar_papers_by_embedding(client):
    record = _with_abstract()
    paper_id = _search_id(client, record["title"])
    similar = client.get(f"/api/v1/papers/{paper_id}/similar").get_json()["papers"]
    assert similar and all(p["id"] != paper_id for p in similar)
    page = client.get(f"/papers/{paper_id}").get_data(as_text=True)
    assert similar[0]["title"].replace("'", "&#39;") in page


def test_similar_page_renders_and_a_submit_shows_results(client):
    form = client.get("/similar")
    assert form.status_code == 200
    html = form.get_data(as_text=True)
    assert "<textarea" in html and 'name="conference"' in html and 'name="year"' in html
    assert "<script>" not in html
    assert 'href="/similar"' in client.get("/search?q=learning").get_data(as_text=True)
    record = _with_abstract()
    posted = client.post("/similar", data={"text": record["abstract"], "conference": "", "year": ""})
    assert posted.status_code == 303 and posted.headers["Location"].startswith("/similar?")
    done = client.get(posted.headers["Location"])
    assert done.status_code == 200
    body = done.get_data(as_text=True)
    assert re.search(r"<strong>\d+</strong> nearest papers", body)
    assert record["title"].replace("'", "&#39;") in body
    narrowed = client.post(
        "/similar", data={"text": record["abstract"], "conference": "iclr"}, follow_redirects=True
    ).get_data(as_text=True)
    assert 'href="/conferences/iclr/' in narrowed and 'href="/conferences/neurips/' not in narrowed
    empty = client.post("/similar", data={"text": ""})
    assert empty.status_code == 400 and "text" in empty.get_data(as_text=True)
