"""Weighted reciprocal rank fusion, and how PaperSearch fuses kNN with more_like_this."""

from __future__ import annotations

from typing import Any

import pytest

from services.search.fusion import DEPTH, RANK_CONSTANT, Weights, fuse
from services.search.request import SearchRequest
from services.search.service import PaperSearch


def test_a_paper_in_both_lists_beats_one_in_either():
    fused = [pid for pid, _ in fuse([(1.0, ["a", "b", "c"]), (1.0, ["d", "b", "e"])])]
    assert fused[0] == "b" and set(fused) == {"a", "b", "c", "d", "e"}


def test_scores_are_weight_over_constant_plus_rank():
    fused = dict(fuse([(2.0, ["a"]), (0.5, ["b", "a"])]))
    assert fused["a"] == pytest.approx(2.0 / (RANK_CONSTANT + 1) + 0.5 / (RANK_CONSTANT + 2))
    assert fused["b"] == pytest.approx(0.5 / (RANK_CONSTANT + 1))


def test_ties_go_to_the_better_rank_then_the_first_list():
    assert [pid for pid, _ in fuse([(1.0, ["a", "x"]), (1.0, ["b", "y"])])] == ["a", "b", "x", "y"]


def test_a_zero_weight_list_only_adds_papers_after_the_others():
    fused = [pid for pid, _ in fuse([(1.0, ["a", "b"]), (0.0, ["c", "a"])])]
    assert fused[:2] == ["a", "b"]


def test_repeats_within_one_list_count_once():
    assert dict(fuse([(1.0, ["a", "a"])]))["a"] == pytest.approx(1 / (RANK_CONSTANT + 1))


class _ES:
    """Answers kNN searches with ``knn_ids`` and query searches with ``lexical_ids``."""

    def __init__(self, knn_ids: list[str], lexical_ids: list[str]):
        self.knn_ids, self.lexical_ids = knn_ids, lexical_ids
        self.searches: list[dict[str, Any]] = []

    def options(self, **_: Any) -> _ES:
        return self

    def search(self, **kwargs: Any) -> Any:
        self.searches.append(kwargs)
        ids = self.knn_ids if "knn" in kwargs else self.lexical_ids
        hits = [{"_id": i, "_score": 1.0, "_source": {"paper_id": i, "title": i, "conference": "iclr", "year": 2024}}
                for i in ids]
        return _Body(hits={"total": {"value": len(ids)}, "hits": hits}, aggregations={})

    def get(self, **_: Any) -> Any:
        return _Body(_source={"embedding": [0.1] * 256, "abstract": "an abstract"})


class _Body(dict):
    @property
    def body(self) -> dict:
        return self


def test_similar_fuses_knn_and_more_like_this():
    es = _ES(["k1", "both", "k2"], ["both", "m1"])
    found = [p.paper_id for p in PaperSearch(es, "papers").similar("p1", size=3)]  # type: ignore[arg-type]
    assert found[0] == "both" and len(found) == 3
    assert len(es.searches) == 2 and es.searches[0]["knn"]["k"] == DEPTH
    assert "more_like_this" in repr(es.searches[1]["query"])


def test_similar_with_a_zero_lexical_weight_is_knn_alone():
    es = _ES(["k1", "both", "k2"], ["both", "m1"])
    found = PaperSearch(es, "papers").similar_with(Weights(lexical=0), "p1", size=2)  # type: ignore[arg-type]
    assert [p.paper_id for p in found] == ["k1", "both"] and len(es.searches) == 1


def test_like_text_fuses_under_the_knn_filters_and_pages_the_fused_list():
    es = _ES([f"k{i}" for i in range(30)], ["m0", "k5"])
    req = SearchRequest(page=2, page_size=10, filters={"conference": ("iclr",)})
    results = PaperSearch(es, "papers").like_text(req, "graph neural networks for molecules")  # type: ignore[arg-type]
    knn, lexical = es.searches
    assert lexical["query"]["bool"]["filter"] == knn["knn"]["filter"]
    assert lexical["query"]["bool"]["must"][0]["more_like_this"]["like"].startswith("graph neural")
    assert len(results.hits) == 10 and results.total == 31
    first_page = PaperSearch(_ES([f"k{i}" for i in range(30)], ["m0", "k5"]), "papers").like_text(  # type: ignore[arg-type]
        SearchRequest(page_size=3), "graph neural networks")
    assert [h.paper.paper_id for h in first_page.hits][:1] == ["k5"]  # in both lists: first
