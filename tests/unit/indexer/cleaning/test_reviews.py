"""Review scores from source fields: every spelling the sources use, and what is not a score."""

from __future__ import annotations

import math

import pytest

from services.indexer.cleaning.reviews import mean, review_scores, score, scores
from services.indexer.paper.normalise import Origin, normalise
from services.search.records.documents import SUMMARY_FIELDS, from_source, to_document
from services.search.records.model import REVIEW_CRITERIA, ReviewScore

ORIGIN = Origin("iclr/iclr2023.json.gz", 0, "iclr", 2023, format="paperlists")


@pytest.mark.parametrize("value, expected", [
    ("6;6;8", [6.0, 6.0, 8.0]),
    (" 4 ; 5;6 ", [4.0, 5.0, 6.0]),
    ("4.5;5", [4.5, 5.0]),
    ("6", [6.0]),
    (6, [6.0]),
    (5.5, [5.5]),
    ([6, "7", None, ""], [6.0, 7.0]),
    ("0;0;7;7;7", [7.0, 7.0, 7.0]),        # zeros are reviews without a score
    ("6: marginally above the threshold;8: accept", [6.0, 8.0]),  # OpenReview's own spelling
    ("6;;8", [6.0, 8.0]),
    ("-1", []),
    ("", []),
    (None, []),
    ([], []),
    (True, []),
    ({"rating": 6}, []),
    ("Paper #29", []),                     # a session slot in a field named "presentation"
    ("09:00-10:30, Paper TuI1I.1", []),
    ("12:30", []),
    ("6;good;8", []),                      # one non-number: not a score list at all
    ("1e400", []),
    ("nan", []),
    ("150", []),
])
def test_scores(value, expected):
    assert scores(value) == expected


@pytest.mark.parametrize("value, expected", [
    (5.0, 5.0), (7, 7.0), ("6.25", 6.25), ([4.2, 3.43], 4.2), ([6], 6.0),
    (0, None), (-1, None), ("-1", None), ([0, 0], None), ([], None), ("", None), (None, None),
    (float("nan"), None), (float("inf"), None), (True, None), ("n/a", None), ({}, None),
])
def test_mean(value, expected):
    assert mean(value) == expected


def test_score_is_finite_and_in_range():
    for value in (0.0001, 1, 10, 100):
        assert score(value) == float(value)
    for value in (0, -0.5, 100.5, math.inf, -math.inf, math.nan):
        assert score(value) is None


def written(record: dict, criteria) -> list[tuple[str, object, object]]:
    """``(criterion, scores, mean)`` as a paperlists record writes them: ``<criterion>`` and ``<criterion>_avg``."""
    return [(c, record.get(c), record.get(f"{c}_avg")) for c in criteria]


def test_listed_scores_give_the_mean_over_the_source_mean():
    # The source's 4.2 counted two placeholder zeros; the scores say 7.
    [rating] = review_scores([("rating", "0;0;7;7;7", [4.2, 3.43])])
    assert rating == ReviewScore(criterion="rating", mean=7.0, scores=[7.0, 7.0, 7.0])


def test_mean_alone_is_kept_and_unknown_means_are_dropped():
    record = {"rating_avg": 5.3333, "confidence_avg": 0, "correctness_avg": [0, 0], "presentation": "Paper #3"}
    assert review_scores(written(record, REVIEW_CRITERIA)) == [ReviewScore(criterion="rating", mean=5.3333, scores=[])]


def test_criteria_in_the_given_order_and_mean_rounded():
    record = {"confidence": "3;4", "rating": "5;5;6", "technical_novelty_avg": 2.5}
    found = review_scores(written(record, REVIEW_CRITERIA))
    assert [r.criterion for r in found] == ["rating", "confidence", "technical_novelty"]
    assert found[0].mean == 5.3333


def test_paper_gets_rating_avg_and_every_criterion():
    paper = normalise({"title": "T", "rating": "3;5;5", "rating_avg": 4.33, "confidence": "3;3;3",
                       "confidence_avg": 3.0, "correctness_avg": 3.0, "replies_avg": 12,
                       "wc_review_avg": [400, 20]}, ORIGIN)
    assert paper.rating_avg == 4.3333
    assert [(r.criterion, r.mean) for r in paper.reviews] == [("rating", 4.3333), ("confidence", 3.0),
                                                             ("correctness", 3.0)]
    assert paper.review("confidence").scores == [3.0, 3.0, 3.0]
    assert paper.review("soundness") is None
    assert paper.review("technical_novelty") is None


def test_paper_without_reviews():
    paper = normalise({"title": "T", "rating_avg": 0, "rating": ""}, ORIGIN)
    assert paper.rating_avg is None and paper.reviews == []


def test_rating_avg_is_a_top_level_document_field_and_round_trips():
    paper = normalise({"title": "T", "rating": "6;8", "confidence": "4;2"}, ORIGIN)
    doc = to_document(paper)
    assert doc["rating_avg"] == 7.0
    assert doc["reviews"][0] == {"criterion": "rating", "mean": 7.0, "scores": [6.0, 8.0]}
    back = from_source(doc)
    assert back.rating_avg == 7.0 and back.review("confidence").mean == 3.0
    assert "rating_avg" in SUMMARY_FIELDS
    assert to_document(normalise({"title": "T"}, ORIGIN))["rating_avg"] is None


def test_criterion_labels():
    assert ReviewScore(criterion="technical_novelty", mean=2).label == "Technical novelty"
    assert ReviewScore(criterion="novelty_of_idea", mean=2).label == "Novelty of idea"
