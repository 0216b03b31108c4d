"""Venue arithmetic and trend bodies, without Elasticsearch (the charts: tests/unit/web/render/test_charts.py)."""

from __future__ import annotations

from datetime import date

from services.search.answers.stats import (
    Coverage,
    institution_years_body,
    institutions_body,
    left_out,
    shape_institutions,
    shape_trends,
    trends_body,
    venue_body,
    venue_year,
)
from services.search.query.request import parse_request
from services.search.query.search_body import build_search, result_query


def test_venue_year_reads_raw_statuses_through_the_catalogue():
    v = venue_year("iclr", 2018, {"Poster": 22, "Oral": 2, "Reject": 27, "Workshop": 7, "Withdraw": 4,
                                  "Active": 2, "": 1})
    assert (v.papers, v.accepted, v.oral, v.poster, v.spotlight) == (65, 24, 2, 22, 0)
    assert (v.rejected, v.decided, v.withdrawn, v.other_programmes) == (27, 55, 4, 7)  # withdrawals decide
    # Submitted: accepted, rejected and withdrawn; workshop papers are no main-track submissions and
    # undecided ones ("Active", no status) are in no count.
    assert v.rejections_listed and v.submissions == v.decided == 24 + 27 + 4 and v.undecided == 3
    assert v.acceptance_rate == round(24 / 55, 4)
    assert v.by_status["(none)"] == 1 and list(v.by_status)[0] == "Reject"  # most first
    assert v.by_outcome["workshop"] == 7 and v.by_outcome["reject"] == 27


def test_accepted_only_lists_have_no_rate_and_no_submissions():
    v = venue_year("cvpr", 2019, {"Poster": 900, "Oral": 100})
    assert v.accepted == 1000 and v.rejected == 0
    assert v.acceptance_rate is None and v.submissions is None and not v.rejections_listed


def test_a_journal_has_no_submissions_no_rate_and_no_tiers():
    v = venue_year("tmlr", 2024, {"Journal": 955})
    assert (v.kind, v.is_journal, v.papers, v.accepted) == ("journal", True, 955, 955)
    assert (v.oral, v.spotlight, v.poster) == (0, 0, 0)
    assert v.submissions is None and v.acceptance_rate is None
    # Even were a journal's rejections listed, it would get no conference-style acceptance rate.
    listed = venue_year("jmlr", 2020, {"Journal": 90, "Reject": 10})
    assert listed.rejections_listed and listed.submissions is None and listed.acceptance_rate is None
    assert venue_year("iclr", 2020, {"Poster": 9, "Reject": 1}).kind == "conference"


def test_a_source_without_rejections_gives_no_rate_at_a_new_venue_either():
    for conference, statuses in (("l4dc", {"Accept": 120}), ("eacl", {"Main": 445, "Findings": 355}),
                                 ("conll", {"Main": 40, "Shared Task": 29})):
        v = venue_year(conference, 2025, statuses)
        assert v.kind == "conference" and v.acceptance_rate is None and v.submissions is None, conference
    shared = venue_year("conll", 2024, {"Main": 40, "Shared Task": 29})
    assert (shared.accepted, shared.other_programmes) == (40, 29)  # shared-task volumes are a side programme


def test_desk_rejects_count_as_decided_rejections_and_unknown_venues_use_the_facet_rules():
    v = venue_year("iclr", 2024, {"Accept (poster)": 3, "Desk Reject": 1, "Reject": 1})
    assert (v.accepted, v.rejected, v.poster) == (3, 2, 3)
    odd = venue_year("somewhere", 2020, {"Accepted Oral": 1, "Rejected": 3})
    assert (odd.accepted, odd.oral, odd.rejected, odd.acceptance_rate) == (1, 1, 3, 0.25)


def test_withdrawn_and_desk_rejected_papers_are_submissions():
    v = venue_year("iclr", 2025, {"Poster": 3113, "Spotlight": 380, "Oral": 213, "Reject": 4959, "Withdraw": 2937,
                                  "Desk Reject": 70})
    assert (v.accepted, v.submissions) == (3706, 11672)
    assert v.acceptance_rate == 0.3175  # the published ~32%, not 3706 / 8735 decided (42.4%)


def test_lacks_names_what_the_source_has_none_of():
    all_accept = venue_year("iclr", 2024, {"Accept": 2260},
                            coverage=Coverage(abstracts=2260, affiliations=2250, citations=0, reviews=0))
    assert all_accept.lacks == ("tiers", "rejections", "citations", "reviews")
    assert all_accept.lacks_labels("rejections", "abstracts") == ("no rejections",)
    assert all_accept.lacks_labels()[0] == "no oral/spotlight/poster tiers"
    full = venue_year("iclr", 2023, {"Poster": 5, "Top-5%": 1, "Reject": 4},
                      coverage=Coverage(abstracts=10, affiliations=1, citations=3))
    assert full.lacks == ("reviews",)
    bare = venue_year("aaai", 2024, {"Poster": 5}, coverage=Coverage())
    assert bare.lacks == ("rejections", "affiliations", "abstracts", "citations", "reviews")
    assert bare.lacks_labels()[-1] == "no review scores"
    assert venue_year("tmlr", 2024, {"Journal": 9}, coverage=Coverage(abstracts=9, affiliations=9, citations=9,
                                                                      reviews=9)
                      ).lacks == ()  # a journal has neither tiers nor rejections to lack
    assert venue_year("cvpr", 2019, {"Poster": 900}).lacks == ("rejections",)  # coverage not counted: not said


def test_scores_read_before_the_decisions_are_said_where_the_catalogue_has_the_day():
    rated = Coverage(abstracts=2260, reviews=2174)
    assert venue_year("iclr", 2024, {"Accept": 2260}, coverage=rated).scores_taken == date(2023, 12, 14)
    # No scores, nothing to qualify; another year's (or venue's) scores are final.
    assert venue_year("iclr", 2024, {"Accept": 2260}, coverage=Coverage(abstracts=2260)).scores_taken is None
    assert venue_year("iclr", 2023, {"Poster": 5}, coverage=Coverage(reviews=5)).scores_taken is None
    assert venue_year("some-new-conf", 2024, {"Poster": 5}, coverage=Coverage(reviews=5)).scores_taken is None


def test_venue_body_counts_coverage_and_rating_bins_per_year():
    aggs = venue_body("iclr", 2024)["aggs"]["years"]["aggs"]
    assert set(aggs["coverage"]["filters"]["filters"]) == {"abstracts", "affiliations", "citations", "reviews", "code"}
    assert aggs["scores"]["histogram"]["field"] == "rating_avg"
    assert aggs["score_values"]["terms"]["field"] == "rating_avg"  # every distinct mean: a score's percentile


def _institution_bucket(name, n, tiers=None, highlighted=0):
    return {"key": name, "doc_count": n, "highlighted": {"doc_count": highlighted},
            "tiers": {"buckets": [{"key": t, "doc_count": k} for t, k in (tiers or {}).items()]}}


def test_institutions_count_the_listed_papers_of_one_venue_year_both_ways():
    body = institutions_body("iclr", 2021, size=50, tiered=20)
    filters = body["query"]["bool"]["filter"]
    assert {"term": {"conference": "iclr"}} in filters and {"term": {"year": 2021}} in filters
    assert {"bool": {"must_not": [{"terms": {"status": ["reject", "withdrawn"]}}]}} in filters  # as pages list them
    aggs = body["aggs"]
    assert aggs["with_affiliations"] == {"filter": {"exists": {"field": "affiliations.raw"}}}
    assert aggs["by_papers"]["terms"]["size"] == 50 and aggs["by_papers"]["terms"]["order"][0] == {"_count": "desc"}
    assert aggs["by_tier"]["terms"]["order"][0] == {"highlighted": "desc"}
    years = institution_years_body("iclr", ("MIT", "Google"))["aggs"]
    assert years["names"]["terms"]["include"] == ["MIT", "Google"] and years["names"]["aggs"]["years"]


def test_institutions_shaped_with_tiers_present_and_their_trend():
    resp = {"hits": {"total": {"value": 120}}, "aggregations": {
        "with_affiliations": {"doc_count": 100},
        "by_papers": {"buckets": [_institution_bucket("Google", 9, {"poster": 7, "oral": 2, "accept": 0}, 2),
                                  _institution_bucket("MIT", 5, {"poster": 5})]},
        "by_tier": {"buckets": [_institution_bucket("Google", 9, {"poster": 7, "oral": 2}, 2),
                                _institution_bucket("MIT", 5, {"poster": 5}, 0)]}}}
    years = {"aggregations": {
        "years": {"buckets": [{"key": 2020.0, "doc_count": 80, "with_affiliations": {"doc_count": 70}},
                              {"key": 2021.0, "doc_count": 120, "with_affiliations": {"doc_count": 100}}]},
        "names": {"buckets": [{"key": "Google", "doc_count": 12, "years": {"buckets": [
            {"key": 2020.0, "doc_count": 3}, {"key": 2021.0, "doc_count": 9}]}}]}}}
    found = shape_institutions("iclr", 2021, resp, years)
    assert (found.papers, found.with_affiliations) == (120, 100)
    google, mit = found.by_papers
    assert (google.name, google.papers, google.by_tier, google.highlighted) == ("Google", 9, {"oral": 2, "poster": 7}, 2)
    assert [tuple(y) for y in google.by_year] == [(2020, 3), (2021, 9)] and mit.by_year == ()
    assert [i.name for i in found.by_tier] == ["Google"]  # MIT has no oral or spotlight paper
    assert [tuple(c) for c in found.years] == [(2020, 80, 70), (2021, 120, 100)]
    assert found.names == ("Google", "MIT")


def test_trends_count_the_hits_query_and_every_facet_filter():
    req = parse_request({"q": ["graph"], "conference": ["iclr"], "year": ["2018-2020"]})
    search = build_search(req)
    query = result_query(req)
    assert query["bool"]["must"] == search["query"]["bool"]["must"]
    assert query["bool"]["filter"] == search["query"]["bool"]["filter"] + search["post_filter"]["bool"]["filter"]
    hidden = result_query(parse_request({}))  # rejected and withdrawn are left out unless asked for
    assert {"bool": {"must_not": [{"terms": {"status": ["reject", "withdrawn"]}}]}} in hidden["bool"]["filter"]
    body = trends_body(req, buckets=7)
    assert body["size"] == 0 and body["track_total_hits"] is True
    assert body["aggs"]["conferences"]["terms"]["size"] == 7


def test_left_out_finds_dropped_buckets_at_any_depth():
    assert not left_out({"a": {"sum_other_doc_count": 0, "buckets": [{"b": {"sum_other_doc_count": 0}}]}})
    assert left_out({"a": {"sum_other_doc_count": 0, "buckets": [{"b": {"sum_other_doc_count": 3}}]}})


def test_shape_trends_rows_are_sorted_by_year_then_key():
    year = lambda *pairs: {"buckets": [{"key": float(y), "doc_count": n} for y, n in pairs]}  # noqa: E731
    resp = {"hits": {"total": {"value": 5}}, "aggregations": {
        "years": year((2019, 2), (2020, 3)),
        "conferences": {"buckets": [{"key": "icml", "doc_count": 3, "years": year((2020, 3))},
                                    {"key": "iclr", "doc_count": 2, "years": year((2019, 2))}]},
        "topics": {"buckets": [{"key": "rl", "doc_count": 1, "years": year((2020, 1))}]}}}
    t = shape_trends(resp)
    assert t.by_year == ((2019, 2), (2020, 3))
    assert t.by_conference_year == (("iclr", 2019, 2), ("icml", 2020, 3))
    assert t.years == (2019, 2020)


def test_a_list_of_only_some_rejections_says_so():
    """OpenReview lists a NeurIPS year's rejected papers only where their authors opted in: the rate of the
    listed decisions (the contract's accepted / decided) is given, and said to be no venue's rate."""
    v = venue_year("neurips", 2022, {"Poster": 2600, "Oral": 234, "Reject": 153})
    assert v.rejections_listed and not v.rejections_complete
    assert v.acceptance_rate == round(2834 / 2987, 4) and v.submissions == v.decided == 2987
    assert "all_rejections" in v.lacks and "rejections" not in v.lacks
    real = venue_year("iclr", 2025, {"Poster": 3000, "Reject": 6000, "Withdraw": 1000})
    assert real.rejections_complete and real.acceptance_rate == 0.3
