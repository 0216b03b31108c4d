"""Known-item search on the sample, in CI: the generated classes of bench/relevance/known_item.py, lexical and hybrid.

The full-corpus figures come from the benchmark itself; this small form (50 papers a class,
fixed seed) keeps a regression from reaching main. Thresholds are the issue's targets.
"""

from __future__ import annotations

import pytest

from bench.relevance.known_item import evaluate, visible_papers

pytestmark = pytest.mark.integration

N = 50
MRR_AT_LEAST = {"exact": 0.98, "name": 0.9, "first_words": 0.9, "rare_author": 0.9}
SUCCESS3_AT_LEAST = {"typo": 0.9, "cut_word": 0.9}
HYBRID_WITHIN = 0.05


@pytest.fixture(scope="module")
def scores(app, es, sample_alias):
    docs = visible_papers(es, sample_alias)
    return evaluate(app.test_client(), docs, modes=("lexical", "hybrid"), n=N, seed=7)["modes"]


@pytest.mark.parametrize("kind", sorted(MRR_AT_LEAST))
def test_lexical_mrr_per_class(scores, kind):
    row = scores["lexical"][kind]
    assert row["n"] >= N * 0.8 and row["errors"] == 0, row
    assert row["mrr"] >= MRR_AT_LEAST[kind], row["misses"]


@pytest.mark.parametrize("kind", sorted(SUCCESS3_AT_LEAST))
def test_lexical_success_at_3_per_class(scores, kind):
    row = scores["lexical"][kind]
    assert row["n"] >= N * 0.8 and row["errors"] == 0, row
    assert row["success@3"] >= SUCCESS3_AT_LEAST[kind], row["misses"]


@pytest.mark.parametrize("kind", sorted({*MRR_AT_LEAST, *SUCCESS3_AT_LEAST}))
def test_hybrid_keeps_every_class_within_reach_of_lexical(scores, kind):
    lexical, hybrid = scores["lexical"][kind], scores["hybrid"][kind]
    assert hybrid["errors"] == 0
    assert hybrid["mrr"] >= lexical["mrr"] - HYBRID_WITHIN, hybrid["misses"]
    assert hybrid["success@3"] >= lexical["success@3"] - HYBRID_WITHIN, hybrid["misses"]
