"""Score fusion (per-list rescaling, weighted sum), and how PaperSearch fuses kNN with more_like_this."""

from __future__ import annotations

from typing import Any

import pytest

from bench.relevance.fusion_lists import FusionLists  # the benchmarks' reads: other weights, the lists apart
from services.search.query.fusion import DEPTH, RANK_CONSTANT, SIMILAR, Weights, fuse
from services.search.query.request import SearchRequest
from services.search.service import PaperSearch


def ids(fused):
    return [pid for pid, _ in fused]


def test_a_paper_in_both_lists_beats_one_in_either():
    fused = ids(fuse([(1.0, [("a", 0.9), ("b", 0.8), ("c", 0.7)]), (1.0, [("d", 40), ("b", 30), ("e", 10)])]))
    assert fused[0] == "b" and set(fused) == {"a", "b", "c", "d", "e"}


def test_minmax_puts_each_list_on_zero_to_one_before_the_weights():
    fused = dict(fuse([(1.0, [("a", 0.9), ("b", 0.7), ("c", 0.5)]), (0.5, [("b", 80.0), ("d", 20.0)])], "minmax"))
    assert fused["a"] == pytest.approx(1.0) and fused["c"] == pytest.approx(0.0)
    assert fused["b"] == pytest.approx(0.5 + 0.5) and fused["d"] == pytest.approx(0.0)


def test_the_gap_between_scores_counts_not_only_the_rank():
    # lexical: "x" far ahead of "y"; semantic: "y" barely ahead of "x" -> x wins (RRF would tie them)
    lists = [(1.0, [("y", 0.80), ("x", 0.79), ("z", 0.5)]), (1.0, [("x", 90.0), ("y", 20.0), ("w", 10.0)])]
    assert ids(fuse(lists, "minmax"))[0] == "x"
    rrf = dict(fuse(lists, "rrf"))
    assert rrf["x"] == pytest.approx(rrf["y"]) == pytest.approx(1 / (RANK_CONSTANT + 1) + 1 / (RANK_CONSTANT + 2))


def test_sum_is_the_raw_scores_weighted():
    fused = dict(fuse([(20.0, [("a", 0.9)]), (1.0, [("a", 30.0), ("b", 25.0)])], "sum"))
    assert fused == {"a": pytest.approx(48.0), "b": pytest.approx(25.0)}


def test_zscore_counts_a_missing_paper_at_the_lists_floor():
    fused = dict(fuse([(1.0, [("a", 3.0), ("b", 1.0)]), (1.0, [("c", 5.0), ("d", 1.0)])], "zscore"))
    assert fused["a"] == pytest.approx(1.0 - 1.0) and fused["b"] == pytest.approx(-2.0)


def test_ties_go_to_the_better_rank_then_the_first_list():
    assert ids(fuse([(1.0, [("a", 2.0), ("x", 1.0)]), (1.0, [("b", 2.0), ("y", 1.0)])])) == ["a", "b", "x", "y"]


def test_a_zero_weight_list_only_adds_papers_after_the_others():
    fused = ids(fuse([(1.0, [("a", 3.0), ("b", 2.0), ("x", 1.0)]), (0.0, [("c", 9.0), ("a", 1.0)])]))
    assert fused[:2] == ["a", "b"] and set(fused) == {"a", "b", "c", "x"}


def test_repeats_within_one_list_count_once_at_their_best_place():
    assert dict(fuse([(1.0, [("a", 2.0), ("b", 1.0), ("a", 1.0)])]))["a"] == pytest.approx(1.0)


def test_equal_scores_and_empty_lists_are_fine():
    assert ids(fuse([(1.0, [("a", 1.0), ("b", 1.0)]), (1.0, [])])) == ["a", "b"]


def test_an_unknown_method_is_refused():
    with pytest.raises(ValueError, match="unknown fusion method"):
        Weights(method="borda")
    assert SIMILAR.method in ("minmax", "zscore", "sum", "rrf")


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
        hits = [{"_id": i, "_score": 1.0 - 0.01 * rank, "_source": {"paper_id": i, "title": i, "conference": "iclr", "year": 2024}}
                for rank, i in enumerate(ids)]
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
    assert found.index("both") <= 1 and len(found) == 3  # in both lists: not below its kNN place
    assert len(es.searches) == 2 and es.searches[0]["knn"]["k"] == DEPTH
    assert "more_like_this" in repr(es.searches[1]["query"])


def test_similar_with_a_zero_lexical_weight_is_knn_alone():
    es = _ES(["k1", "both", "k2"], ["both", "m1"])
    found = FusionLists(es, "papers").similar_with(Weights(lexical=0), "p1", size=2)  # type: ignore[arg-type]
    assert [p.paper_id for p in found] == ["k1", "both"] and len(es.searches) == 1



def test_the_benchmarks_candidates_narrow_both_lists_the_product_never_does():
    within = [{"term": {"conference": "iclr"}}]
    es = _ES(["k1", "both"], ["both", "m1"])
    semantic, lexical = FusionLists(es, "papers").similar_candidates("p1", 5, within)  # type: ignore[arg-type]
    assert ids(semantic) == ["k1", "both"] and ids(lexical) == ["both", "m1"]
    knn, like = es.searches
    assert within[0] in knn["knn"]["filter"] and within[0] in like["query"]["bool"]["filter"]
    PaperSearch(es, "papers").similar("p1", size=2)  # type: ignore[arg-type]
    assert not any(within[0] in (b.get("knn") or {}).get("filter", []) for b in es.searches[2:])
    assert not any(within[0] in b["query"]["bool"]["filter"] for b in es.searches[2:] if "query" in b)

def test_like_text_fuses_under_the_knn_filters_and_pages_the_fused_list():
    es = _ES([f"k{i}" for i in range(30)], ["m0", "k5"])
    req = SearchRequest(page=2, page_size=10, filters={"conference": ("iclr",)})
    results = PaperSearch(es, "papers").like_text(req, "graph neural networks for molecules")  # type: ignore[arg-type]
    knn, lexical = es.searches
    assert lexical["query"]["bool"]["filter"] == knn["knn"]["filter"]
    assert lexical["query"]["bool"]["must"][0]["more_like_this"]["like"].startswith("graph neural")
    assert len(results.hits) == 10 and results.total == 31
    first_page = PaperSearch(_ES([f"k{i}" for i in range(30)], ["k5", "m0"]), "papers").like_text(  # type: ignore[arg-type]
        SearchRequest(page_size=3), "graph neural networks")
    assert "k5" in [h.paper.paper_id for h in first_page.hits]  # in both lists: above its kNN place (6th)
