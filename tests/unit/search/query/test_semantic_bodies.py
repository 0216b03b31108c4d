"""Semantic ranking without Elasticsearch: the mode parameter, kNN bodies, the similar request, the ingest policy."""

from __future__ import annotations

import pytest
from facet_aggs import by_facet

from services.indexer.writes.vectors import MIN_TITLE_WORDS, vector_fields
from services.search.errors import InvalidRequest
from services.search.limits import SEMANTIC_K
from services.search.query.request import parse_request
from services.search.query.semantic import KNN_BOOST, NAMED_BOOST, build_like, build_ranked
from services.search.records.embedding import DIMS
from services.search.records.model import Paper


def _paper(pid: str, title: str, abstract: str = "") -> Paper:
    return Paper(paper_id=pid, conference="iclr", conference_name="ICLR", year=2024, title=title, abstract=abstract)


def test_mode_defaults_to_lexical_and_round_trips_in_the_url():
    assert parse_request({}).mode == "lexical"
    req = parse_request({"q": ["graphs"], "mode": ["hybrid"]})
    assert req.mode == "hybrid" and ("mode", "hybrid") in req.to_params()
    assert ("mode", "lexical") not in parse_request({"q": ["graphs"]}).to_params()


@pytest.mark.parametrize("args, parameter", [
    ({"mode": ["vibes"]}, "mode"),
    ({"mode": ["semantic"], "search_after": ["abc"]}, "search_after"),
])
def test_bad_mode_requests_are_invalid(args, parameter):
    with pytest.raises(InvalidRequest) as err:
        parse_request(args, allow_search_after=True)
    assert err.value.parameter == parameter


def test_semantic_body_is_knn_with_the_filters_as_prefilters():
    body = build_ranked(parse_request({"q": ["graph neural networks year:2020-2022"], "mode": ["semantic"],
                                       "conference": ["iclr"], "page": ["2"], "page_size": ["10"]}))
    assert "post_filter" not in body
    # Beside the kNN, only the papers the text names (whole title or name), under the same filters.
    named = body["query"]["constant_score"]
    assert named["boost"] == NAMED_BOOST and named["filter"]["bool"]["filter"] == body["knn"]["filter"]
    assert [next(iter(f)) for f in named["filter"]["bool"]["should"]] == ["terms", "terms"]
    knn = body["knn"]
    assert len(knn["query_vector"]) == DIMS and knn["k"] == max(SEMANTIC_K, 20)
    assert knn["num_candidates"] >= knn["k"]
    text = repr(knn["filter"])
    assert "'conference': ['iclr']" in text and "'gte': 2020" in text
    assert body["from"] == 10 and body["size"] == 10 and "conference" in by_facet(body)


def test_hybrid_body_adds_boosted_knn_to_the_lexical_query():
    body = build_ranked(parse_request({"q": ["diffusion models"], "mode": ["hybrid"]}))
    assert "query" in body and body["knn"]["boost"] == KNN_BOOST


def test_a_query_without_free_text_stays_lexical():
    assert "knn" not in build_ranked(parse_request({"q": ["conference:iclr"], "mode": ["semantic"]}))
    assert "knn" not in build_ranked(parse_request({"q": ["graphs"]}))


def test_like_body_ranks_by_the_vector_and_hides_rejected_papers_by_default():
    body = build_like(parse_request({}), [0.0625] * DIMS)
    assert body["knn"]["query_vector"][0] == 0.0625
    assert "status" in repr(body["knn"]["filter"])


def test_ingest_embeds_abstracts_and_long_titles_only():
    papers = [_paper("a", "Short", "An abstract about graph neural networks."),
              _paper("b", " ".join(["word"] * MIN_TITLE_WORDS)),
              _paper("c", "Keynote talk")]
    fields = vector_fields(papers)
    assert set(fields) == {"a", "b"}
    for values in fields.values():
        assert len(values["embedding"]) == DIMS and values["embedding_version"]
        assert abs(sum(x * x for x in values["embedding"]) - 1) < 1e-3


def test_similar_body_keys_become_filters_and_unknown_keys_are_refused():
    from fake_reads import fake_app

    from services.web.views.inputs import similar_request

    with fake_app().test_request_context():  # the conferences named are checked against the index's
        _similar_bodies(similar_request)


def _similar_bodies(similar_request):
    req = similar_request({"text": "x", "conference": ["iclr", "neurips"], "year": "2020-2024", "page_size": 5})
    assert req.selected("conference") == ("iclr", "neurips") and req.page_size == 5
    assert req.selected("year") == ("2020-2024",)
    assert req.mode == "semantic"
    for bad in ({"q": "graphs"}, {"conference": [{"a": 1}]}, {"has_code": True}, {"has_code": [0]},
                {"page": True}, {"page_size": [5]}, {"page": "2"}, {"page": 2.5}):
        with pytest.raises(InvalidRequest):
            similar_request(bad)
    assert similar_request({"page": ["2"], "conference": ["iclr"]}, form=True).page == 2
    assert similar_request({"page": 3.0}).page == 3


def test_a_rebuild_copies_current_vectors_and_embeds_missing_or_outdated_ones():
    from services.indexer.rebuild.runner import rebuilt
    from services.search.records.documents import to_document
    from services.search.records.embedding import embedder

    paper = _paper("p", "Graph networks", "We study message passing on graphs.")
    stored = {**to_document(paper), "embedding": [0.0625] * DIMS, "embedding_version": embedder().version}
    assert rebuilt(stored)["embedding"] == [0.0625] * DIMS  # copied, not recomputed
    for outdated in ({**stored, "embedding_version": "older-artifact"}, to_document(paper)):
        again = rebuilt(outdated)
        assert again["embedding_version"] == embedder().version and again["embedding"] != [0.0625] * DIMS
        assert len(again["embedding"]) == DIMS


def test_similar_text_survives_lone_surrogates():
    from services.search.records.embedding import embedder
    from services.web.views.inputs import similar_text

    text = similar_text("graph \udc00 networks")
    assert "\ufffd" in text and embedder().embed_one(text).any()
