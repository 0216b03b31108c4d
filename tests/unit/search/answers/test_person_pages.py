"""People on the read side, without Elasticsearch: a person's page (its body, its shaping, a retired id), the
``person:`` operator, the author facet's labels read once per answer, and people offered as a name is typed."""

from __future__ import annotations

from services.search.answers.people import (
    PersonPage,
    deepest_page,
    label_people,
    papers_body,
    people_to_label,
    person_page,
)
from services.search.answers.results import Hit, SearchResults
from services.search.answers.suggest import shape_suggestions
from services.search.limits import MAX_WINDOW
from services.search.query.facets import FacetValue
from services.search.query.query_language import parse
from services.search.query.reading import read
from services.search.query.request import parse_request
from services.search.query.search_body import build_search
from services.search.query.text_query import compile_query
from services.search.records.model import Author, Paper
from services.search.records.people import Counted, Person, Successor, is_person_id

LEVINE = Person(person_id="p3c8606cb9f13", name="Sergey Levine", name_key="sergey levine", papers=37, hidden=1,
                first_year=2017, last_year=2026, affiliations=[Counted(value="UC Berkeley", papers=10)])
FINN = Person(person_id="p7d7fdd98d220", name="Chelsea Finn", name_key="chelsea finn", papers=12,
              venues=[Counted(value="corl", papers=3)])


def _answer(hits: int, total: int, hidden: int) -> dict:
    return {"hits": {"total": {"value": total}, "hits": [
        {"_source": {"paper_id": f"p{i}", "conference": "iclr", "conference_name": "ICLR", "year": 2024 - i,
                     "title": f"Paper {i}", "author_ids": [LEVINE.person_id]}} for i in range(hits)]},
        "aggregations": {"hidden": {"doc_count": hidden}, "listed": {
            "years": {"buckets": [{"key": 2024, "doc_count": 2}, {"key": 2023, "doc_count": 1}]},
            "venues": {"buckets": [{"key": "iclr", "doc_count": 3}]}}}}


def test_a_person_id_is_p_and_twelve_hex_digits():
    assert is_person_id("p3c8606cb9f13")
    for bad in ("P3C8606CB9F13", "p3c8606cb9f1", "p3c8606cb9f133", "q3c8606cb9f13", "p3c8606cb9f1g", "", "p"):
        assert not is_person_id(bad)


def test_the_papers_body_pages_the_persons_listed_papers_newest_first_and_counts_the_hidden_apart():
    body = papers_body(LEVINE.person_id, 3, 20)
    assert body["query"] == {"term": {"author_ids": LEVINE.person_id}}
    assert (body["from"], body["size"]) == (40, 20)
    assert body["sort"][0] == {"year": "desc"}
    assert "post_filter" in body and set(body["aggs"]) == {"listed", "hidden"}
    assert set(body["aggs"]["listed"]["aggs"]) == {"years", "venues"}


def test_a_persons_page_is_the_document_and_a_page_of_papers():
    asked = []
    page = person_page(LEVINE.person_id, 2, 2, load={LEVINE.person_id: LEVINE}.get,
                       search=lambda body: asked.append(body) or _answer(2, 3, 1), many=lambda ids: {})
    assert isinstance(page, PersonPage) and page.person == LEVINE
    assert [p.paper_id for p in page.papers] == ["p0", "p1"] and asked[0]["from"] == 2
    assert (page.total, page.hidden, page.page, page.pages) == (3, 1, 2, 2)
    assert page.years == [(2024, 2), (2023, 1)] and page.venues == [("iclr", 3)]


def test_a_page_past_the_window_is_read_as_the_deepest_one():
    asked = []
    person_page(LEVINE.person_id, 10**6, 50, load={LEVINE.person_id: LEVINE}.get,
                search=lambda body: asked.append(body) or _answer(0, 0, 0), many=lambda ids: {})
    assert asked[0]["from"] + asked[0]["size"] <= MAX_WINDOW and deepest_page(50) == MAX_WINDOW // 50


def test_a_retired_id_answers_its_successors_and_an_unknown_one_nothing():
    merged = Successor(person_id="p000000000001", change="merged", successors=[LEVINE.person_id, "p0000000000ff"])
    page = person_page(merged.person_id, 1, 50, load={merged.person_id: merged}.get, search=_no_search,
                       many=lambda ids: {LEVINE.person_id: LEVINE} if LEVINE.person_id in ids else {})
    assert page.person is None and page.successor == merged and page.successors == [LEVINE]
    assert person_page("p000000000002", 1, 50, load=lambda i: None, search=_no_search, many=dict) is None


def _no_search(body: dict) -> dict:
    raise AssertionError("no papers are read for a retired or unknown id")


def test_the_person_operator_filters_one_person_and_a_malformed_id_is_words():
    parsed = parse("diffusion person:P3C8606CB9F13 -person:p7d7fdd98d220 person:nobody person:")
    assert parsed.people == ("p3c8606cb9f13",) and parsed.excluded_people == ("p7d7fdd98d220",)
    assert [t.text for c in parsed.clauses for t in c.alternatives] == ["diffusion", "person nobody"]
    assert not parse("person:p3c8606cb9f13").is_empty
    body = build_search(parse_request({"q": ["person:p3c8606cb9f13"]}))
    assert {"terms": {"author_ids": ["p3c8606cb9f13"]}} in body["query"]["bool"]["filter"] \
        or "p3c8606cb9f13" in str(body["query"])
    excluded = compile_query(read(parse("graphs -person:p7d7fdd98d220")))
    assert {"terms": {"author_ids": ["p7d7fdd98d220"]}} in excluded["bool"]["must_not"]


def _results(values: list[str], papers: list[Paper] = ()) -> SearchResults:
    req = parse_request({"author": [values[0]], "facets": ["author"]})
    return SearchResults(req, 1, [Hit(p, "", "") for p in papers],
                         facets={"author": [FacetValue(v, v, 3, i == 0) for i, v in enumerate(values)]})


def test_the_author_facet_is_labelled_by_who_each_person_is_from_one_read():
    unknown = "p0000000000aa"
    paper = Paper(paper_id="x", conference="iclr", conference_name="ICLR", year=2024, title="T",
                  authors=[Author(name="Ada Lovelace"), Author(name="Sergey Levine")], author_ids=[unknown, None])
    results = _results([LEVINE.person_id, FINN.person_id, unknown, "Yoshua Bengio"], [paper])
    assert people_to_label(results) == [LEVINE.person_id, FINN.person_id, unknown]  # a name needs no read
    asked = []
    labelled = label_people(results, lambda ids: asked.append(ids) or {LEVINE.person_id: LEVINE, FINN.person_id: FINN})
    assert asked == [[LEVINE.person_id, FINN.person_id, unknown]]  # one read
    assert [v.label for v in labelled.facets["author"]] == [
        "Sergey Levine · UC Berkeley", "Chelsea Finn · CoRL", "Ada Lovelace", "Yoshua Bengio"]
    assert labelled.label(labelled.request.facets["author"], LEVINE.person_id) == "Sergey Levine · UC Berkeley"
    assert label_people(SearchResults(parse_request({}), 0, []), _no_search).facets == {}  # nobody counted: no read


def test_people_are_suggested_with_their_label_and_names_without_people_after_them():
    resp = {"suggest": {"title": [{"options": []}], "author": [{"options": [
        {"text": "Sergey Levine", "_source": {"author_names": ["Sergey Levine"]}},
        {"text": "Sergey Levinson", "_source": {"author_names": ["Sergey Levinson"]}}]}]}, "hits": {"hits": []}}
    found = shape_suggestions("sergey lev", resp, 8, [LEVINE])
    assert [(s.kind, s.text, s.key) for s in found] == [
        ("person", "Sergey Levine · UC Berkeley", LEVINE.person_id), ("author", "Sergey Levinson", "Sergey Levinson")]
    assert found[0].detail == "37 papers, 2017–2026"
