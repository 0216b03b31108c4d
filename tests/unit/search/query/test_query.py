"""Search bodies (build_search) and response shaping (results.shape), without Elasticsearch."""

from __future__ import annotations

import json
from dataclasses import replace
from types import SimpleNamespace

import pytest
from facet_aggs import by_facet, grouped

from services.search.answers.corrections import unsplit
from services.search.answers.results import shape, suggestion, whole_compounds
from services.search.catalogue import HIDDEN_STATUSES
from services.search.errors import InvalidRequest
from services.search.limits import MAX_WINDOW, SAMPLE_FACETS_ABOVE, SUGGEST_BELOW
from services.search.query.facets import FACETS, FacetValue, ScoreSpan, Span
from services.search.query.request import SearchRequest, decode_cursor, parse_request
from services.search.query.search_body import (
    CITED,
    HIGHLIGHT,
    LEXICAL_MATCHES,
    SAMPLE_SEED,
    build_search,
    build_suggest,
    sample_facets,
)
from services.search.query.sorting import SORTS, sort_clauses
from services.search.records.documents import SUMMARY_FIELDS, to_document
from services.search.records.model import Author, Links, Paper
from services.search.service import PaperSearch

FACET_NAMES = [f.name for f in FACETS]
ALL_FACETS = SearchRequest(counted=tuple(FACET_NAMES))
ACCEPTED = ["oral", "spotlight", "poster", "accept", "short"]  # statuses.toml: accepted, main track
HIDE = {"bool": {"must_not": [{"terms": {"status": list(HIDDEN_STATUSES)}}]}}
TITLE_KEY = "variance reduction in hierarchical variational autoencoders"


def req(**params) -> SearchRequest:
    args = {k: (v if isinstance(v, list) else [v]) for k, v in params.items()}
    return parse_request(args, allow_search_after=True)


def post_filters(body: dict) -> list[dict]:
    return body["post_filter"]["bool"]["filter"]


def agg_filters(body: dict, facet: str) -> list[dict]:
    f = by_facet(body)[facet]["filter"]
    return f["bool"]["filter"] if "bool" in f else []


def query_filters(body: dict) -> list[dict]:
    return body["query"]["bool"]["filter"]


CONF = {"terms": {"conference": ["icml", "neurips"]}}
TOPIC = {"terms": {"topics": ["robotics"]}}
YEARS = {"bool": {"should": [{"range": {"year": {"gte": 2018, "lte": 2020}}}], "minimum_should_match": 1}}
CODE = {"terms": {"has_code": [True]}}


# --- facet filters -------------------------------------------------------------------------------

class TestFacetFilters:
    def test_facet_filters_go_to_post_filter_not_query(self):
        body = build_search(req(q="graph", conference=["ICML", "nips"], topic="robotics",
                                year="2018-2020", has_code="yes"))
        pf = post_filters(body)
        for clause in (CONF, TOPIC, YEARS, CODE, HIDE):
            assert clause in pf
        assert len(pf) == 5
        text = json.dumps(body["query"])
        assert "icml" not in text and "robotics" not in text and "has_code" not in text
        assert query_filters(body) == []

    def test_no_filters_still_hides_rejected(self):
        body = build_search(SearchRequest())
        assert post_filters(body) == [HIDE]

    @pytest.mark.parametrize("facet", FACET_NAMES)
    def test_each_aggregation_uses_the_other_filters_not_its_own(self, facet):
        body = build_search(req(conference=["icml", "neurips"], topic="robotics", year="2018-2020",
                                has_code="true", facets=",".join(FACET_NAMES)))
        own = {"conference": CONF, "topic": TOPIC, "year": YEARS, "has_code": CODE, "status": HIDE}
        filters = agg_filters(body, facet)
        for name, clause in own.items():
            if name == facet:
                assert clause not in filters
            else:
                assert clause in filters
        assert len(filters) == len(own) - (1 if facet in own else 0)

    def test_no_active_filters_besides_status(self):
        body = build_search(ALL_FACETS)
        assert by_facet(body)["status"]["filter"] == {"match_all": {}}
        for facet in FACET_NAMES:
            if facet != "status":
                assert agg_filters(body, facet) == [HIDE]

    def test_every_facet_is_aggregated_with_its_field_and_size(self):
        aggs = by_facet(build_search(ALL_FACETS))
        assert sorted(aggs) == sorted(FACET_NAMES)
        for facet in FACETS:
            counted = aggs[facet.name]["aggs"]
            if "values" not in counted:  # the year: its histogram is its counts (and its span), nothing beside it
                assert set(counted) == {"histogram"} and counted["histogram"]["histogram"]["field"] == facet.field
                continue
            values = counted["values"]
            if "histogram" in values:  # a score, counted per whole point
                assert values["histogram"]["field"] == facet.field and values["histogram"]["interval"] == 1
                continue
            assert values["terms"]["field"] == facet.field
            assert values["terms"]["size"] == facet.size

    def test_on_demand_facets_are_not_counted_by_default(self):
        aggs = by_facet(build_search(SearchRequest()))
        assert sorted(aggs) == sorted(f.name for f in FACETS if not f.on_demand)
        assert {"author", "affiliation", "keyword"} <= {f.name for f in FACETS if f.on_demand}

    def test_a_selected_on_demand_facet_is_counted(self):
        aggs = by_facet(build_search(req(author="Yoshua Bengio")))
        assert "author" in aggs and "affiliation" not in aggs

    @pytest.mark.parametrize("value, counted", [
        ("author", ["author"]), ("author, year", ["year", "author"]), (["topic", "status,track"], ["topic", "status", "track"]),
        ("", []), ("AUTHOR,,author", ["author"]),
    ])
    def test_facets_parameter_names_what_is_counted(self, value, counted):
        r = req(facets=value, conference="icml")
        assert [f.name for f in r.counted_facets] == counted
        assert sorted(by_facet(build_search(r)) if counted else build_search(r).get("aggs", {})) == sorted(counted)
        assert ("facets", ",".join(r.counted)) in r.to_params()

    def test_unknown_facet_name_is_a_clear_error(self):
        with pytest.raises(InvalidRequest, match="facets"):
            req(facets="author,nope")

    def test_counting_adds_one_facet_in_registry_order(self):
        r = req(facets="year,track").counting("author")
        assert [f.name for f in r.counted_facets] == ["year", "track", "author"]
        assert SearchRequest().counting("keyword").counted == (
            *(n for n in FACET_NAMES if n in SearchRequest().facets.counted_by_default or n == "keyword"),)

    def test_no_hits_no_highlight(self):
        body = build_search(req(q="graph", page_size="1"))
        assert "highlight" in body
        assert "highlight" not in build_search(replace(req(q="graph"), page_size=0))

    def test_the_year_is_counted_once_by_its_histogram(self):
        inner = by_facet(build_search(SearchRequest()))["year"]["aggs"]
        assert "values" not in inner and "range" not in inner
        assert inner["histogram"]["histogram"]["field"] == "year"
        assert inner["histogram"]["histogram"]["interval"] == 1
        assert "selected" not in inner

    def test_selected_values_get_exact_count_filters(self):
        aggs = by_facet(build_search(req(conference=["icml", "neurips"], has_code="no", year=["2019", "2015-2016"])))
        assert aggs["conference"]["aggs"]["selected"]["filters"]["filters"] == {
            "icml": {"terms": {"conference": ["icml"]}}, "neurips": {"terms": {"conference": ["neurips"]}}}
        assert aggs["has_code"]["aggs"]["selected"]["filters"]["filters"] == {
            "false": {"terms": {"has_code": [False]}}}
        assert aggs["year"]["aggs"]["selected"]["filters"]["filters"] == {
            "2019": {"range": {"year": {"gte": 2019, "lte": 2019}}},
            "2015-2016": {"range": {"year": {"gte": 2015, "lte": 2016}}}}
        assert "selected" not in aggs["topic"]["aggs"]

    @pytest.mark.parametrize("facet, field", [(f.name, f.field) for f in FACETS
                                              if f.name not in ("year", "has_code", "rating", "author")])
    def test_facet_filter_fields(self, facet, field):
        assert FACETS[facet].filter(("a", "b")) == {"terms": {field: ["a", "b"]}}
        assert FACETS[facet].filter(()) == (HIDE if facet == "status" else None)

    def test_authors_are_counted_as_people_and_a_name_selects_every_person_of_it(self):
        """Counted by person id; a person id selects one person, a name (case and accents aside) all of its."""
        author = FACETS["author"]
        assert author.aggregation(())["values"] == {"terms": {"field": "author_ids", "size": 15}}
        assert author.parse(["P3C8606CB9F13", "Rémi Munos", "Remi Munos"]) == ("p3c8606cb9f13", "Rémi Munos", "Remi Munos")
        assert author.filter(("p3c8606cb9f13",)) == {"terms": {"author_ids": ["p3c8606cb9f13"]}}
        assert author.filter(("Rémi Munos", "Remi Munos", "Yoshua Bengio")) == {
            "terms": {"author_keys": ["remi munos", "yoshua bengio"]}}
        assert author.filter(("p3c8606cb9f13", "Yoshua Bengio")) == {"bool": {"should": [
            {"terms": {"author_ids": ["p3c8606cb9f13"]}}, {"terms": {"author_keys": ["yoshua bengio"]}}],
            "minimum_should_match": 1}}
        selected = author.aggregation(("p3c8606cb9f13", "Ada"))["selected"]["filters"]["filters"]
        assert selected == {"p3c8606cb9f13": {"terms": {"author_ids": ["p3c8606cb9f13"]}},
                            "Ada": {"terms": {"author_keys": ["ada"]}}}

    def test_rating_facet_filters_a_point_or_an_inclusive_range(self):
        rating = FACETS["rating"]
        assert rating.filter((ScoreSpan(6, 7, True), ScoreSpan(8.5, 10))) == {"bool": {"should": [
            {"range": {"rating_avg": {"gte": 6, "lt": 7}}},
            {"range": {"rating_avg": {"gte": 8.5, "lte": 10}}}], "minimum_should_match": 1}}
        assert rating.filter(()) is None
        assert rating.parse(["6", "7.5-5.5", "6.4"]) == (ScoreSpan(6, 7, True), ScoreSpan(5.5, 7.5))
        assert [rating.text(v) for v in rating.parse(["6", "5.5-7.5"])] == ["6", "5.5-7.5"]
        for bad in ("abc", "6-", "-1", "101", "1e3", "6.123"):
            with pytest.raises(InvalidRequest):
                rating.parse([bad])

    def test_rating_facet_counts_whole_points_highest_first(self):
        rating = FACETS["rating"]
        agg = {"values": {"buckets": [{"key": 8.0, "doc_count": 3}, {"key": 6.0, "doc_count": 40}]}}
        shaped = rating.shape(agg, ("5.5-7",))
        assert [(v.value, v.label, v.count, v.selected) for v in shaped] == [
            ("5.5-7", "5.5–7", 0, True), ("8", "8–9", 3, False), ("6", "6–7", 40, False)]

    def test_year_facet_filter_ors_ranges(self):
        assert FACETS["year"].filter((Span(2018, 2018), Span(2020, 2022))) == {"bool": {"should": [
            {"range": {"year": {"gte": 2018, "lte": 2018}}},
            {"range": {"year": {"gte": 2020, "lte": 2022}}}], "minimum_should_match": 1}}
        assert FACETS["year"].filter(()) is None


class TestHiddenStatuses:
    def test_hidden_by_default_via_the_status_facet_default(self):
        body = build_search(req(q="x"))
        assert HIDE in post_filters(body)
        assert set(HIDE["bool"]["must_not"][0]["terms"]["status"]) == {"reject", "withdrawn"}
        # the status facet itself still counts them, so the user can ask for them
        assert by_facet(body)["status"]["filter"] == {"match_all": {}}
        assert HIDE in agg_filters(body, "conference")

    def test_a_whole_title_lists_its_paper_whatever_its_status(self):
        # someone pasting a rejected paper's title wants that paper, not "+ 1 rejected — show"
        body = build_search(req(q="Variance Reduction in Hierarchical Variational Autoencoders"))
        named = {"bool": {"should": [HIDE, {"terms": {"title_key": [TITLE_KEY]}}], "minimum_should_match": 1}}
        assert named in post_filters(body) and HIDE not in post_filters(body)
        assert named in agg_filters(body, "conference")  # the other facets count what is listed
        listed = body["aggs"]["named:status"]
        assert listed["filter"] == {"bool": {"filter": [{"terms": {"title_key": [TITLE_KEY]}}]}}
        assert listed["aggs"]["values"]["terms"] == {"field": "status", "include": list(HIDDEN_STATUSES)}

    @pytest.mark.parametrize("params", [{"q": "Image Transformer"}, {"q": "graph"},  # a short title is a topic too
                                        {"q": "Variance Reduction in Hierarchical Variational Autoencoders",
                                         "status": "reject"}])  # a status asked for is what is asked for
    def test_only_a_whole_title_of_three_words_unasked_lists_a_hidden_paper(self, params):
        body = build_search(req(**params, facets=",".join(FACET_NAMES)))
        assert not any("should" in f.get("bool", {}) and "title_key" in json.dumps(f) for f in post_filters(body))
        assert not any(name.startswith("named:") for name in body["aggs"])

    def test_the_hidden_note_counts_only_the_papers_not_listed_as_named(self):
        r = req(q="Variance Reduction in Hierarchical Variational Autoencoders")
        status = {"values": {"buckets": [{"key": "poster", "doc_count": 1}, {"key": "reject", "doc_count": 3},
                                         {"key": "withdrawn", "doc_count": 1}]}}
        named = {"doc_count": 2, "values": {"buckets": [{"key": "reject", "doc_count": 1},
                                                        {"key": "withdrawn", "doc_count": 1}]}}
        resp = {"hits": {"total": {"value": 3}, "hits": []},
                "aggregations": {**grouped({"status": status}), "named:status": named}}
        assert shape(r, resp).hidden == {"reject": 2}  # the withdrawn one is listed: no "+ 1 withdrawn"

    @pytest.mark.parametrize("selected, indexed", [
        (["accept"], ACCEPTED),                      # every main-track acceptance, whatever its tier
        (["untiered"], ["accept"]),                  # accepted, tier not given
        (["untiered", "oral"], ["accept", "oral"]),
        (["accept", "reject"], [*ACCEPTED, "reject"]),
    ])
    def test_accept_selects_every_tier_and_untiered_the_rest(self, selected, indexed):
        body = build_search(req(status=selected))
        assert {"terms": {"status": indexed}} in post_filters(body)
        counted = by_facet(body)["status"]["aggs"]
        assert counted["group"] == {"filter": {"terms": {"status": ACCEPTED}}}  # counted whatever is selected
        assert counted["selected"]["filters"]["filters"]["accept" if "accept" in selected else selected[0]]

    @pytest.mark.parametrize("selected", [["reject"], ["withdrawn", "oral"], ["poster"]])
    def test_selecting_status_replaces_the_default(self, selected):
        body = build_search(req(status=selected, facets=",".join(FACET_NAMES)))
        assert HIDE not in post_filters(body)
        assert {"terms": {"status": selected}} in post_filters(body)
        assert "must_not" not in json.dumps(body)
        for facet in FACET_NAMES:
            assert HIDE not in agg_filters(body, facet)


# --- the query part ------------------------------------------------------------------------------

class TestQuery:
    def test_scopes_in_the_text_become_query_filters(self):
        body = build_search(req(q="graph conference:NIPS conference:iclr year:2018-2020"))
        filters = query_filters(body)
        assert {"terms": {"conference": ["neurips", "iclr"]}} in filters
        assert YEARS in filters
        assert "post_filter" in body and CONF not in post_filters(body)

    def test_scope_and_facet_combine(self):
        body = build_search(req(q="conference:iclr", conference="icml"))
        assert {"terms": {"conference": ["iclr"]}} in query_filters(body)
        assert {"terms": {"conference": ["icml"]}} in post_filters(body)

    def test_plain_text_has_no_query_filters(self):
        assert query_filters(build_search(req(q="graph neural networks"))) == []

    def test_text_is_in_must(self):
        body = build_search(req(q="transformers"))
        assert "transformers" in json.dumps(body["query"]["bool"]["must"])


class TestSortAndPaging:
    @pytest.mark.parametrize("q, sort, expected", [
        ("", "relevance", "newest"),
        ("graph", "relevance", "relevance"),
        ("", "newest", "newest"),
        ("", "oldest", "oldest"),
        ("graph", "citations", "citations"),
        ("graph", "newest", "newest"),
    ])
    def test_sort_mapping(self, q, sort, expected):
        assert build_search(req(q=q, sort=sort))["sort"] == sort_clauses(expected)

    def test_relevance_sorts_by_score_first_and_ties_on_paper_id(self):
        assert sort_clauses("relevance")[0] == "_score"
        for sort in SORTS.values():
            assert sort.clauses[-1] == {"paper_id": "asc"}
        assert sort_clauses("oldest")[0] == {"year": "asc"}
        assert sort_clauses("newest")[0] == {"year": "desc"}
        assert list(sort_clauses("citations")[0]) == ["citations"]

    def test_browse_orders_a_year_by_tier_then_title_and_unknowns_sort_last(self):
        assert sort_clauses("newest")[:3] == [{"year": "desc"}, {"tier_rank": {"order": "asc", "unmapped_type": "byte"}},
                                              {"title_key": {"order": "asc"}}]
        assert list(sort_clauses("tier")[0]) == ["tier_rank"] and list(sort_clauses("title")[0]) == ["title_key"]
        assert sort_clauses("citations")[:3] == [{"citations": {"order": "desc", "missing": "_last"}},
                                                {"mentions": {"order": "desc", "missing": "_last", "unmapped_type": "integer"}},
                                                "_score"]  # no count from the source: the mentions here
        rated = sort_clauses("rating")[0]["rating_avg"]
        assert rated["order"] == "desc" and rated["missing"] == 0  # every real rating is above 0
        assert SORTS["citations"].label == "By citations, then mentions here"

    def test_every_status_has_a_tier_rank_orals_first(self):
        from services.search.catalogue import STATUSES
        from services.search.records.model import TIER_ORDER

        assert set(TIER_ORDER) == set(STATUSES) and TIER_ORDER[0] == "oral"
        ranks = {s: to_document(make_paper(1).model_copy(update={"status": s}))["tier_rank"] for s in STATUSES}
        assert ranks["oral"] < ranks["spotlight"] < ranks["poster"] < ranks["accept"] < ranks["reject"]

    def test_from_and_size(self):
        body = build_search(req(page="3", page_size="25"))
        assert (body["from"], body["size"]) == (50, 25)
        assert "search_after" not in body
        assert body["track_total_hits"] is True

    def test_search_after_replaces_from(self):
        r = SearchRequest(q="x", search_after=(2020, 3, "iclr-2020-abc"))
        body = build_search(r)
        assert body["search_after"] == [2020, 3, "iclr-2020-abc"]
        assert "from" not in body

    def test_source_fields(self):
        assert build_search(SearchRequest())["_source"] == SUMMARY_FIELDS
        assert build_search(SearchRequest(), source=["title"])["_source"] == ["title"]


class TestHighlightSuggestOptions:
    def test_highlight_escapes_html(self):
        body = build_search(req(q="x"))
        assert body["highlight"]["encoder"] == "html"
        assert body["highlight"]["pre_tags"] == ["<mark>"]
        assert set(body["highlight"]["fields"]) == {"title", "abstract"}
        options = {field: {k: v for k, v in opts.items() if k != "highlight_query"}
                   for field, opts in body["highlight"]["fields"].items()}
        assert {**body["highlight"], "fields": options} == HIGHLIGHT

    def test_highlight_marks_the_positive_words_in_title_and_abstract_only(self):
        fields = build_search(req(q='graph "neural nets" -gan author:bengio title:bert trans*'))["highlight"]["fields"]
        title, abstract = (fields[f]["highlight_query"]["bool"]["should"] for f in ("title", "abstract"))
        assert {"match": {"title": "graph"}} in title and {"match": {"abstract": "graph"}} in abstract
        assert {"match_phrase": {"abstract": "neural nets"}} in abstract
        assert {"match": {"title": "bert"}} in title and "bert" not in str(abstract)
        assert any("prefix" in c and c["prefix"].get("title", {}).get("value") == "trans" for c in title)
        # each field's query holds its own clauses only: the highlighter rewrites it for every hit
        assert "'abstract'" not in str(title) and "'title'" not in str(abstract)
        flat = str(title + abstract)
        assert "gan'" not in flat and "bengio" not in flat  # negated and author-scoped terms are not marked
        # the free text as one phrase too, so "graph neural nets" is marked as one run when adjacent
        assert {"match_phrase": {"title": {"query": "graph neural nets", "slop": 2}}} in title

    def test_highlight_query_without_markable_terms_matches_nothing(self):
        fields = build_search(req(q="author:bengio"))["highlight"]["fields"]
        assert all(fields[f]["highlight_query"] == {"match_none": {}} for f in ("title", "abstract"))
        fields = build_search(req(q="title:bert"))["highlight"]["fields"]
        assert fields["abstract"]["highlight_query"] == {"match_none": {}}

    def test_highlight_and_facets_can_be_turned_off(self):
        body = build_search(req(q="x"), facets=False, highlight=False)
        assert "highlight" not in body and "aggs" not in body
        assert "post_filter" in body

    @pytest.mark.parametrize("q, text", [
        ("graph nueral netwrks", "graph nueral netwrks"),
        ('"deep learning" gans', "deep learning gans"),
        ("title:bert gans", "gans"),
    ])
    def test_suggest_when_there_is_free_text(self, q, text):
        assert "suggest" not in build_search(req(q=q))  # a second request, only when hits are few
        suggest = build_suggest(req(q=q))["did_you_mean"]
        assert suggest["text"] == text
        assert suggest["phrase"]["field"] == "title.shingles"

    @pytest.mark.parametrize("q", ["", "conference:iclr", "year:2020", "-gans", "title:bert", "a OR b", "trans*"])
    def test_no_suggest_without_free_text(self, q):
        assert build_suggest(req(q=q)) is None

    def test_suggest_text_is_capped(self):
        body = build_suggest(req(q=" ".join(["word"] * 100)))
        assert len(body["did_you_mean"]["text"]) <= 200

    @pytest.mark.parametrize("params", [
        {},
        {"q": 'graph "neural nets" -gan title:x author:y conference:iclr year:>=2019 trans* a OR b'},
        {"conference": ["icml"], "year": ["2018-2020", "2022"], "status": ["reject"], "has_code": ["yes", "no"],
         "topic": ["robotics"], "track": ["main"], "keyword": ["k"], "author": ["A"], "affiliation": ["MIT"],
         "sort": "citations", "page": "2"},
        {"q": "ünïcode <script>", "search_after": "WyJyZWxldmFuY2UiLDEuNSwyMDIwLCJhIl0"},
    ])
    def test_body_is_json_serialisable(self, params):
        body = build_search(req(**params))
        assert json.loads(json.dumps(body)) == body


# --- results.shape ---------------------------------------------------------------------------------

def make_paper(i: int, **changes) -> Paper:
    fields = dict(
        paper_id=f"iclr-2020-{i:012x}", conference="iclr", conference_name="ICLR", year=2020,
        title=f"Paper {i}", authors=[Author(name="Ada Lovelace", affiliation="MIT")],
        abstract="An abstract.", topics=["robotics"], keywords=["k"], status="poster", status_raw="Poster",
        links=Links(code="https://github.com/a/b"), citations=i,
    )
    fields.update(changes)
    return Paper(**fields)


def es_hit(paper: Paper, sort: list, highlight: dict | None = None) -> dict:
    doc = to_document(paper)
    hit = {"_index": "papers-v1", "_id": paper.paper_id, "_score": 1.0,
           "_source": {k: doc[k] for k in SUMMARY_FIELDS}, "sort": sort}
    if highlight is not None:
        hit["highlight"] = highlight
    return hit


def buckets(*pairs) -> dict:
    return {"buckets": [{"key": k, "doc_count": c} for k, c in pairs]}


def es_response(total: int = 2, hits: list | None = None, suggest_options: list | None = None) -> dict:
    if hits is None:
        hits = [
            es_hit(make_paper(1), [2020, 1, "paper 1", "iclr-2020-000000000001"],
                   {"title": ["<mark>Paper</mark> 1"], "abstract": ["An <mark>abstract</mark>."]}),
            es_hit(make_paper(2), [2020, 2, "paper 2", "iclr-2020-000000000002"]),
        ]
    resp = {
        "took": 12,
        "timed_out": False,
        "hits": {"total": {"value": total, "relation": "eq"}, "max_score": 1.0, "hits": hits},
        "aggregations": grouped({
            "conference": {"doc_count": 100, "values": buckets(("iclr", 60), ("neurips", 30), ("cfx", 10)),
                           "selected": {"buckets": {"icml": {"doc_count": 0}, "neurips": {"doc_count": 31}}}},
            "year": {
                "doc_count": 100,
                "histogram": buckets((2019.0, 25), (2020.0, 35), (2021.0, 40)),
                "selected": {"buckets": {"2020": {"doc_count": 35}, "2010-2012": {"doc_count": 4}}},
            },
            "topic": {"doc_count": 100, "values": buckets(("robotics", 70), ("some-old-topic", 2))},
            "status": {"doc_count": 100, "values": buckets(("poster", 80), ("accept", 15), ("reject", 5)),
                       "group": {"doc_count": 95}},
            "track": {"doc_count": 100, "values": buckets(("main", 95), ("Journal Track", 5))},
            "has_code": {"doc_count": 100, "values": {"buckets": [
                {"key": 0, "key_as_string": "false", "doc_count": 70},
                {"key": 1, "key_as_string": "true", "doc_count": 30}]}},
            "keyword": {"doc_count": 100, "values": buckets()},
            "author": {"doc_count": 100, "values": buckets(("Ada Lovelace", 3))},
            "affiliation": {"doc_count": 100, "values": buckets(("MIT", 3))},
        }),
    }
    if suggest_options is not None:
        resp["suggest"] = {"did_you_mean": [{"text": "grpah", "offset": 0, "length": 5,
                                             "options": suggest_options}]}
    return resp


SELECTED = dict(conference=["neurips", "icml"], year=["2020", "2010-2012"], page_size="2")


class TestShape:
    def test_hits(self):
        results = shape(req(**SELECTED), es_response())
        assert results.total == 2 and results.took_ms == 12
        first, second = results.hits
        assert first.paper.paper_id == "iclr-2020-000000000001"
        assert first.paper.authors == [Author(name="Ada Lovelace", affiliation="MIT")]
        assert first.paper.links.code == "https://github.com/a/b"
        assert first.title_html == "<mark>Paper</mark> 1"
        assert first.snippet_html == "An <mark>abstract</mark>."
        assert first.sort == (2020, 1, "paper 1", "iclr-2020-000000000001")
        assert (second.title_html, second.snippet_html) == ("", "")

    def test_conference_facet_labels_counts_and_selection(self):
        values = shape(req(**SELECTED), es_response()).facets["conference"]
        assert values == [  # selected values first, so a clipped list never hides one
            FacetValue("neurips", "NeurIPS", 31, True),  # exact count from the "selected" filters agg
            FacetValue("icml", "ICML", 0, True),  # selected, absent from the buckets: kept
            FacetValue("iclr", "ICLR", 60, False),
            FacetValue("cfx", "CFX", 10, False),
        ]

    def test_year_facet_sorted_newest_first_with_selected_ranges(self):
        values = shape(req(**SELECTED), es_response()).facets["year"]
        assert [(v.value, v.count, v.selected) for v in values] == [
            ("2020", 35, True), ("2010-2012", 4, True), ("2021", 40, False), ("2019", 25, False)]
        assert all(v.label == v.value for v in values)

    def test_topic_status_has_code_labels(self):
        facets = shape(req(has_code="true"), es_response()).facets
        assert [(v.value, v.label) for v in facets["topic"]] == [
            ("robotics", "Robotics & Autonomous Systems"), ("some-old-topic", "Some Old Topic")]
        assert [(v.value, v.label, v.count) for v in facets["status"]] == [  # every acceptance, then its tiers
            ("accept", "Accepted", 95), ("poster", "Poster", 80), ("untiered", "Accepted (tier not given)", 15),
            ("reject", "Rejected", 5)]
        assert [(v.value, v.label, v.count, v.selected) for v in facets["has_code"]] == [
            ("true", "Has code", 30, True), ("false", "No code", 70, False)]
        assert facets["keyword"] == []
        assert facets["track"][1] == FacetValue("Journal Track", "Journal Track", 5, False)

    def test_accept_selected_is_counted_exactly_and_first(self):
        resp = es_response()
        resp["aggregations"]["facets_0"]["status.selected"] = {"buckets": {"accept": {"doc_count": 94}}}
        values = shape(req(status="accept"), resp).facets["status"]
        assert values[0] == FacetValue("accept", "Accepted", 94, True)  # the selection's own count, not the group's
        assert [v.value for v in values].count("accept") == 1

    def test_selected_value_without_any_count(self):
        values = shape(req(author="Nobody"), es_response()).facets["author"]
        assert values[0] == FacetValue("Nobody", "Nobody", 0, True)  # first: never clipped away
        assert values[1] == FacetValue("Ada Lovelace", "Ada Lovelace", 3, False)

    def test_year_histogram_and_span(self):
        results = shape(req(), es_response())
        assert results.year_histogram == [(2019, 25), (2020, 35), (2021, 40)]
        assert all(isinstance(y, int) for y, _ in results.year_histogram)
        assert results.year_span == (2019, 2021)

    def test_an_empty_year_histogram_gives_no_span(self):
        resp = es_response(total=0, hits=[])
        resp["aggregations"]["facets_0"]["year.histogram"] = buckets()
        results = shape(req(), resp)
        assert results.year_span is None and results.year_histogram == []

    def test_no_aggregations(self):
        resp = es_response()
        del resp["aggregations"]
        results = shape(req(), resp)
        assert results.facets == {} and results.year_histogram == [] and results.year_span is None

    def test_next_cursor_when_the_page_is_full(self):
        results = shape(req(page_size="2"), es_response())
        assert decode_cursor(results.next_cursor, "relevance", False) == (2020, 2, "paper 2", "iclr-2020-000000000002")

    def test_no_next_cursor_on_a_short_page(self):
        assert shape(req(page_size="3"), es_response()).next_cursor is None
        assert shape(req(), es_response(total=0, hits=[])).next_cursor is None

    @pytest.mark.parametrize("total, size, pages", [
        (0, 20, 1), (1, 20, 1), (20, 20, 1), (21, 20, 2), (9_999, 20, 500),
        (12_345, 20, MAX_WINDOW // 20), (1_000_000, 100, 100), (1_000_000, 7, 1429),
    ])
    def test_pages_capped_by_the_window(self, total, size, pages):
        results = shape(req(page_size=str(size)), es_response(total=total, hits=[]))
        assert results.pages == pages

    def test_the_suggesters_first_option_is_the_correction(self):
        options = [{"text": "graph", "highlighted": "<em>graph</em>", "score": 0.2},
                   {"text": "grape", "highlighted": "<em>grape</em>", "score": 0.1}]
        assert suggestion(es_response(total=0, hits=[], suggest_options=options)["suggest"]) == "graph"

    def test_no_correction_without_options(self):
        assert suggestion(es_response(total=0, hits=[], suggest_options=[])["suggest"]) is None
        assert suggestion(None) is None
        assert suggestion({}) is None

    def test_shape_leaves_corrections_to_the_service(self):
        results = shape(req(q="grpah"), es_response(total=0, hits=[], suggest_options=[{"text": "graph"}]))
        assert results.suggestion is None and results.corrected_from is None and results.matched == 0

    def test_partial_source_gets_defaults(self):
        hit = {"_id": "x", "_source": {"paper_id": "x", "title": "T", "year": 2020, "conference": "iclr"}}
        paper = shape(req(), es_response(total=1, hits=[hit])).hits[0].paper
        assert paper.title == "T" and paper.authors == [] and paper.links == Links()
        assert paper.track == "main" and paper.status == "unknown" and paper.citations is None


@pytest.mark.parametrize("name, value, label", [
    ("conference", "nips", "NeurIPS"), ("conference", "siggraphasia", "SIGGRAPH Asia"),
    ("conference", "longunknownconf", "Longunknownconf"), ("topic", "computer-vision", "Computer Vision"),
    ("status", "withdrawn", "Withdrawn"), ("status", "unknown", "Unknown"), ("status", "oral", "Oral"),
    ("has_code", "true", "Has code"), ("has_code", "false", "No code"), ("track", "main", "main"),
    ("author", "Ada", "Ada"),
])
def test_facet_label(name, value, label):
    assert FACETS[name].value_label(value) == label


# --- corrections: the suggester only when hits are few; its results at once when they are many more -----

class _FakeES:
    """Records search bodies; answers a search of the query with ``total`` hits (its last word as a
    prefix too), the suggester with one option, and the search of that option ("graph") with ``suggested``."""

    def __init__(self, total: int, suggested: int = 7):
        self.total, self.suggested, self.calls = total, suggested, []

    def search(self, index: str, **body):
        self.calls.append(body)
        if "suggest" in body:
            return SimpleNamespace(body={"suggest": {"did_you_mean": [{"options": [{"text": "graph"}]}]}})
        corrected = '"graph"' in json.dumps(body)
        return SimpleNamespace(body=es_response(total=self.suggested if corrected else self.total, hits=[]))



def test_counts_on_a_sample_are_read_as_estimates():
    exact = es_response(total=60_000, hits=[])
    assert not shape(req(), exact).facets_estimated
    sampled = {**exact, "aggregations": {"sampled": {"seed": 34, "probability": 0.2, "doc_count": 12_000,
                                                     **exact.get("aggregations", {})}}}
    results = shape(req(), sampled)
    assert results.facets_estimated and results.facets and results.facets == shape(req(), exact).facets


def _sent(es: _FakeES) -> list[dict]:
    """The searches sent, without the count a short query is first asked for (is it broad? tested apart)."""
    return [body for body in es.calls if set(body) != {"query", "post_filter", "size", "track_total_hits"}]


def test_a_short_query_is_counted_first_and_a_broad_one_gets_estimated_facet_counts():
    es = _FakeES(SAMPLE_FACETS_ABOVE + 1)
    results = PaperSearch(es, "papers").search(req(q="learning"))
    count, search = es.calls[:2]
    assert count == {"query": search["query"], "post_filter": search["post_filter"], "size": 0, "track_total_hits": True}
    assert list(search["aggs"]) == ["sampled"] and search["aggs"]["sampled"]["random_sampler"]["probability"] < 0.5
    assert results.total == SAMPLE_FACETS_ABOVE + 1
    es = _FakeES(SAMPLE_FACETS_ABOVE)
    PaperSearch(es, "papers").search(req(q="learning"))  # at the line: exact
    assert "sampled" not in es.calls[1]["aggs"]
    es = _FakeES(SAMPLE_FACETS_ABOVE + 1)
    PaperSearch(es, "papers").search(req(q="graph neural networks"))  # longer: counted exactly, not asked
    assert _sent(es) == es.calls and "sampled" not in es.calls[0]["aggs"]


@pytest.mark.parametrize("total, requests, suggestion", [(SUGGEST_BELOW - 1, 4, "graph"),
                                                         (SUGGEST_BELOW, 1, None), (500, 1, None)])
def test_suggester_runs_only_below_the_threshold(total, requests, suggestion):
    es = _FakeES(total)
    results = PaperSearch(es, "papers").search(req(q="grpah"))
    assert len(_sent(es)) == requests and "suggest" not in _sent(es)[0]
    assert results.suggestion == suggestion and results.corrected_from is None
    assert results.request.q == "grpah" and results.total == total


def test_no_hits_show_the_corrections_results_at_once():
    es = _FakeES(0, suggested=7)
    results = PaperSearch(es, "papers").search(req(q="grpah"))
    # As typed; counted with its last word as a prefix, then among the papers lists hide; the suggester;
    # the correction counted, then searched.
    assert len(_sent(es)) == 6
    assert results.request.q == "graph" and results.total == 7
    assert results.corrected_from == "grpah" and results.suggestion is None


def test_a_few_hits_are_kept_however_many_the_correction_finds():
    # A rare name matches one paper; its "correction" into common words must not replace it.
    es = _FakeES(1, suggested=1000)
    results = PaperSearch(es, "papers").search(req(q="pclast"))
    assert results.corrected_from is None and results.total == 1 and results.suggestion == "graph"


def test_autocorrect_off_searches_as_typed_and_offers_the_correction():
    es = _FakeES(0)
    results = PaperSearch(es, "papers").search(replace(req(q="grpah"), autocorrect=False))
    assert results.request.q == "grpah" and results.total == 0 and results.corrected_from is None
    assert results.suggestion == "graph"
    assert ("autocorrect", "0") in results.request.to_params()


def test_a_suggestion_without_hits_is_not_offered():
    es = _FakeES(0, suggested=0)
    results = PaperSearch(es, "papers").search(req(q="grpah"))
    assert len(_sent(es)) == 5 and results.suggestion is None and results.corrected_from is None


def test_no_suggester_request_without_free_text():
    es = _FakeES(0)
    PaperSearch(es, "papers").search(req(q="conference:iclr"))
    assert len(_sent(es)) == 1


class _CorrectingES(_FakeES):
    """The suggester offers ``option``; a count or search finds ``totals(its body as JSON)`` papers."""

    def __init__(self, option: str, totals):
        super().__init__(0)
        self.option, self.totals = option, totals

    def search(self, index: str, **body):
        self.calls.append(body)
        if "suggest" in body:
            return SimpleNamespace(body={"suggest": {"did_you_mean": [{"options": [{"text": self.option}]}]}})
        return SimpleNamespace(body=es_response(total=self.totals(json.dumps(body)), hits=[]))


TYPED = "Geometric Pretraining for monnocular depth"
SPLIT = "geometric pre training for monocular depth"  # the typo corrected, and a word spelt right split


@pytest.mark.parametrize("whole, split, corrected, total", [
    (1, 0, "Geometric Pretraining for monocular depth", 1),  # the title typed, its typo corrected
    (1, 3, "Geometric Pretraining for monocular depth", 1),
    (0, 3, "Geometric pre training for monocular depth", 3),  # the split is what finds papers: kept
])
def test_a_correction_keeps_whole_the_words_it_only_split(whole, split, corrected, total):
    es = _CorrectingES(SPLIT, lambda sent: whole if "Pretraining for monocular" in sent else
                       split if "pre training for monocular" in sent else 0)
    results = PaperSearch(es, "papers").search(req(q=TYPED))
    assert results.corrected_from == TYPED and results.request.q == corrected and results.total == total


def test_a_split_that_is_the_whole_correction_stays():
    es = _CorrectingES("self supervised depth", lambda sent: 2 if "self supervised" in sent else 0)
    results = PaperSearch(es, "papers").search(req(q="selfsupervised depth"))
    assert results.request.q == "self supervised depth" and results.total == 2


@pytest.mark.parametrize("typed, corrected, kept", [
    ("Pretraining for Monnocular", "pre training for monocular", "Pretraining for monocular"),
    ("end-to-end lerning", "end to end learning", "end-to-end learning"),  # the typed spelling, hyphens too
    ("graph nerual networks", "graph neural networks", "graph neural networks"),  # respelt words stay respelt
    ("selfsupervised depth", "self supervised depth", "selfsupervised depth"),
])
def test_unsplit_puts_back_the_typed_words_a_correction_only_split(typed, corrected, kept):
    assert unsplit(typed, corrected) == kept


def test_counts_without_hits_follow_the_same_correction():
    # The filter panel's on-demand counts (page_size=0) must count the papers the page lists.
    results = PaperSearch(_FakeES(0), "papers").search(replace(req(q="grpah"), page_size=0))
    assert results.request.q == "graph" and results.corrected_from == "grpah"




@pytest.mark.parametrize("html, query, marked", [
    # "in" is a stop word: Elasticsearch marks from "Context" on; the phrase is marked whole.
    ("Is Mamba Capable of In-<mark>Context Learning</mark>?", '"in-context learning"',
     "Is Mamba Capable of <mark>In-Context Learning</mark>?"),
    ("of in-<mark>context learned</mark> AutoML", "in-context", "of <mark>in-context learned</mark> AutoML"),
    ("state-of-the-<mark>art</mark> results", "state-of-the-art", "<mark>state-of-the-art</mark> results"),
    # Another word that merely starts like the compound, or a query without it: left as marked.
    ("not in-<mark>contextual</mark> cues", "in-context", "not in-<mark>contextual</mark> cues"),
    ("In-<mark>Context</mark> Learning", "context learning", "In-<mark>Context</mark> Learning"),
    ("a <mark>self-consistency</mark> check", "self-consistency", "a <mark>self-consistency</mark> check"),
])
def test_a_hyphenated_query_word_is_marked_whole(html, query, marked):
    assert whole_compounds(html, query) == marked


def test_sampling_moves_only_the_facet_groups_under_the_sampler():
    body = build_search(req(q="graph", sort="citations"))
    body["aggs"][LEXICAL_MATCHES] = {"filter": {"match_all": {}}}
    groups = {name for name in body["aggs"] if name not in (LEXICAL_MATCHES, CITED)}
    sampled = sample_facets(body, 0.1)
    assert set(sampled["aggs"]) == {"sampled", LEXICAL_MATCHES, CITED}  # the exact counts stay outside
    assert set(sampled["aggs"]["sampled"]["aggs"]) == groups and groups
    assert sampled["aggs"]["sampled"]["random_sampler"] == {"probability": 0.1, "seed": SAMPLE_SEED}
    assert sample_facets({"query": {}}, 0.1) == {"query": {}}  # nothing counted, nothing sampled
