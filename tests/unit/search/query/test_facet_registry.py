"""A facet declared in a test-only registry is parsed, filtered, aggregated, labelled and documented
with no other change: the registry is the only place that knows the facets."""

from __future__ import annotations

import pytest
from facet_aggs import by_facet, grouped

from services.search.answers.results import shape
from services.search.errors import InvalidRequest
from services.search.query.facets import (
    FACETS,
    BooleanFacet,
    Facet,
    FacetRegistry,
    FacetValue,
    PersonFacet,
    RangeFacet,
    Span,
)
from services.search.query.request import SearchRequest, parse_request
from services.search.query.search_body import build_search
from services.search.records.documents import to_document
from services.search.records.model import Paper

AWARD = BooleanFacet("award", "award", "Award", 2, "true: only award papers.", true_label="Award",
                     false_label="No award")
AREA = Facet("area", "primary_area", "Area", 10, "Primary area as the source names it.",
             labels=lambda v: v.replace("_", " ").title(), canonical=str.lower)
REGISTRY = FACETS.extended(AWARD, AREA)


def parse(**params) -> SearchRequest:
    args = {k: (v if isinstance(v, list) else [v]) for k, v in params.items()}
    return parse_request(args, facets=REGISTRY)


def response(aggs: dict) -> dict:
    return {"took": 1, "hits": {"total": {"value": 0}, "hits": []}, "aggregations": grouped(aggs)}


def test_parsed_with_the_kind_rules_and_round_tripped_through_the_url():
    req = parse(award=["yes", "0", "true"], area=["Deep_Learning", "deep_learning"], conference="NIPS")
    assert req.filters == {"conference": ("neurips",), "award": (True, False), "area": ("deep_learning",)}
    assert req.to_params() == [("conference", "neurips"), ("award", "true"), ("award", "false"),
                               ("area", "deep_learning")]
    args: dict[str, list[str]] = {}
    for key, value in req.to_params():
        args.setdefault(key, []).append(value)
    assert parse_request(args, facets=REGISTRY) == req
    with pytest.raises(InvalidRequest) as info:
        parse(award="perhaps")
    assert info.value.parameter == "award"


def test_the_default_registry_ignores_parameters_it_does_not_declare():
    assert parse_request({"award": ["yes"], "area": ["x"]}).filters == {}


def test_filtered_in_the_post_filter_and_aggregated_under_the_other_filters():
    body = build_search(parse(award="yes", area="theory", topic="robotics"))
    award = {"terms": {"award": [True]}}
    area = {"terms": {"primary_area": ["theory"]}}
    assert award in body["post_filter"]["bool"]["filter"] and area in body["post_filter"]["bool"]["filter"]
    assert sorted(by_facet(body)) == sorted(f.name for f in REGISTRY if not f.on_demand or f.name in ("award", "area", "topic"))
    assert by_facet(body)["award"]["aggs"]["values"] == {"terms": {"field": "award", "size": 2}}
    assert by_facet(body)["award"]["aggs"]["selected"]["filters"]["filters"] == {"true": award}
    assert award not in by_facet(body)["award"]["filter"]["bool"]["filter"]
    assert award in by_facet(body)["area"]["filter"]["bool"]["filter"]
    assert area in by_facet(body)["topic"]["filter"]["bool"]["filter"]


def test_shaped_and_labelled():
    aggs = {
        "award": {"values": {"buckets": [{"key": 0, "key_as_string": "false", "doc_count": 9},
                                         {"key": 1, "key_as_string": "true", "doc_count": 1}]},
                  "selected": {"buckets": {"true": {"doc_count": 1}}}},
        "area": {"values": {"buckets": [{"key": "deep_learning", "doc_count": 4}]}},
    }
    facets = shape(parse(award="1"), response(aggs)).facets
    # Selected values lead the list (a clipped list never hides them).
    assert facets["award"] == [FacetValue("true", "Award", 1, True), FacetValue("false", "No award", 9, False)]
    assert facets["area"] == [FacetValue("deep_learning", "Deep Learning", 4, False)]


def test_api_filters_echo_every_declared_facet():
    req = parse(award="on", year="2019-2020")
    assert {f.name: req.selected(f.name) for f in req.facets if req.selected(f.name)} == {
        "year": ("2019-2020",), "award": ("true",)}


def test_every_facet_field_reaches_the_indexed_document():
    paper = Paper(paper_id="p", conference="tmlr", conference_name="TMLR", year=2020, title="T", tldr="short")
    doc = to_document(paper)
    fields = {f.field for f in FACETS} | {f.key_field for f in FACETS if isinstance(f, PersonFacet)}
    assert {field.split(".")[0] for field in fields} <= set(doc)  # the builder writes what every facet reads
    assert (doc["kind"], doc["has_code"]) == ("journal", False)  # the fields derived from the paper


def test_registry_rules():
    with pytest.raises(ValueError):
        FACETS.extended(Facet("topic", "x", "Again", 1))
    assert FACETS.timeline is FACETS["year"]
    assert FacetRegistry.of([AREA]).timeline is None
    decade = RangeFacet("decade", "year", "Decade", 10, low=2010, high=2019)
    assert decade.parse_value("2012-2014") == Span(2012, 2014)
    with pytest.raises(InvalidRequest):
        decade.parse_value("2020")
    schema = decade.item_schema()["pattern"]
    assert "2010|2011" in schema and "2020" not in schema


def test_openapi_parameters_come_from_the_registry():
    from services.web.render.openapi import SEARCH_PARAMS

    declared = [p["name"] for p in SEARCH_PARAMS if p["name"] in FACETS]
    assert declared == list(FACETS.names)
    year = next(p for p in SEARCH_PARAMS if p["name"] == "year")
    assert year["schema"]["items"] == FACETS["year"].item_schema()
