"""The JSON API over the in-memory search layer: every answer valid against the OpenAPI document."""

from __future__ import annotations

import csv
import io

import bibtexparser
import pytest
from fake_reads import FakeReads, conforms, fake_app

from services.search.catalogue import venues
from services.search.records.model import Author, Paper, Publication
from services.web.render.openapi import openapi_document


def test_search_answers_the_documented_shape(fake_client):
    data = fake_client.get("/api/v1/search", query_string={"q": "graph", "page_size": 1}).get_json()
    conforms(data, "SearchResponse")
    assert data["total"] == 2 and data["pages"] == 2 and len(data["hits"]) == 1
    assert data["hits"][0]["url"].startswith("https://papers.example.org/papers/")
    assert data["query"] == {"q": "graph", "filters": {}, "sort": "relevance"}
    assert data["next_search_after"]
    hit = data["hits"][0]
    assert hit["kind"] == "conference" and hit["affiliations"] == ["Analytical Engines"] and "reviews" not in hit


def test_a_paper_says_its_venues_kind_and_unattributed_affiliations():
    article = Paper(paper_id="tmlr-2024-x", conference="tmlr", conference_name="TMLR", year=2024, title="An Article",
                    authors=[Author(name="Grace Hopper")], affiliations=["Navy Lab", "Harvard"],
                    publication=Publication(pages="1--20", volume="5"), status="accept")
    client = fake_app(FakeReads(papers=(article,))).test_client()
    data = client.get("/api/v1/papers/tmlr-2024-x").get_json()
    conforms(data, "Paper")
    assert (data["kind"], data["affiliations"], data["affiliations_aligned"]) == ("journal", ["Navy Lab", "Harvard"],
                                                                                  False)
    assert data["publication"] == {"pages": "1--20", "volume": "5", "publisher": ""} and data["rating_avg"] is None
    assert data["bibtex"].startswith("@article{")


def test_facet_counts_have_no_hits(fake_client, fake_reads):
    data = fake_client.get("/api/v1/facets", query_string={"q": "graph"}).get_json()
    conforms(data, "FacetCounts")
    assert "hits" not in data and data["facets"]["conference"]
    assert fake_reads.calls[-1][1][0].page_size == 0


def test_a_paper_and_its_neighbours(fake_client):
    paper = fake_client.get("/api/v1/papers/iclr-2018-p1").get_json()
    conforms(paper, "Paper")
    assert paper["bibtex"].startswith("@inproceedings") and paper["authors_detail"][0]["name"] == "Ada Lovelace"
    similar = fake_client.get("/api/v1/papers/iclr-2018-p1/similar").get_json()
    conforms(similar, "SimilarPapers")
    assert similar["papers"] and all(p["id"] != "iclr-2018-p1" for p in similar["papers"])
    assert (paper["kind"], paper["affiliations"], paper["affiliations_aligned"]) == ("conference",
                                                                                   ["Analytical Engines"], True)
    assert paper["rating_avg"] == 7.0 and paper["reviews"] == [
        {"criterion": "rating", "label": "Rating", "mean": 7.0, "scores": [8.0, 6.0, 7.0]}]
    assert paper["publication"] == {"pages": "", "volume": "", "publisher": ""}
    missing = fake_client.get("/api/v1/papers/nope")
    assert missing.status_code == 404
    conforms(missing.get_json(), "Error")


def test_suggestions_lead_to_pages(fake_client):
    data = fake_client.get("/api/v1/suggest", query_string={"q": "graph"}).get_json()
    conforms(data, "Suggestions")
    assert data["suggestions"][0] == {"type": "title", "text": "Graph Attention Networks",
                                      "url": "/papers/iclr-2018-p1", "detail": "ICLR 2018"}
    too_long = fake_client.get("/api/v1/suggest", query_string={"q": "x" * 101})
    assert too_long.status_code == 400 and too_long.get_json()["error"]["message"].startswith("q:")


@pytest.mark.parametrize("fmt, mimetype", [("csv", "text/csv"), ("bibtex", "application/x-bibtex"),
                                           ("json", "application/json")])
def test_exports_are_downloads_that_say_how_many_of_how_many(fake_client, fmt, mimetype):
    resp = fake_client.get("/api/v1/export", query_string={"q": "graph", "format": fmt})
    assert resp.status_code == 200 and resp.mimetype == mimetype
    assert resp.headers["Content-Disposition"].startswith('attachment; filename="paperlist-export.')
    assert (resp.headers["X-Total-Count"], resp.headers["X-Exported-Count"]) == ("2", "2")
    if fmt == "json":
        conforms(resp.get_json(), "Exported")
    if fmt == "csv":
        assert len(list(csv.reader(io.StringIO(resp.get_data(as_text=True))))) == 3


def test_a_bibtex_export_uses_each_key_once_and_cites_each_venue_from_the_catalogue():
    def study(n: int, conference: str, year: int, **more) -> Paper:
        return Paper(paper_id=f"{conference}-{year}-s{n}", conference=conference, year=year,
                     conference_name=venues.label(conference), title=f"A Systematic Study of Preference {n}",
                     authors=[Author(name="Wei He")], **{"status": "poster", **more})

    papers = (study(1, "neurips", 2025), study(2, "neurips", 2025), study(3, "jmlr", 2025, status="accept"),
              study(4, "neurips", 2025, publication=Publication(pages="1--9")))
    client = fake_app(FakeReads(papers=papers)).test_client()
    text = client.get("/api/v1/export", query_string={"q": "systematic", "format": "bibtex"}).get_data(as_text=True)
    library = bibtexparser.parse_string(text)
    assert not library.failed_blocks and len(library.entries) == 4
    keys = [e.key for e in library.entries]
    assert keys == ["he2025systematic", "he2025systematicb", "he2025systematicc", "he2025systematicd"]
    proceedings, article = library.entries[0], library.entries[2]
    assert proceedings.entry_type == "inproceedings"
    assert proceedings["booktitle"] == venues.lookup("neurips").proceedings(2025)
    assert (article.entry_type, article["journal"], article["volume"]) == (
        "article", "Journal of Machine Learning Research", "26")
    assert "booktitle" not in article.fields_dict and library.entries[3]["pages"] == "1--9"


def test_head_on_an_export_validates_without_exporting(fake_client, fake_reads):
    head = fake_client.head("/api/v1/export", query_string={"format": "csv"})
    assert head.status_code == 200 and head.get_data() == b"" and fake_reads.called("export") == 0
    assert fake_client.head("/api/v1/export", query_string={"format": "docx"}).status_code == 400
    assert fake_client.get("/api/v1/export", query_string={"format": ""}).status_code == 400


def test_bad_parameters_are_400_in_the_error_envelope_before_any_search(fake_client, fake_reads):
    for query in ({"page": "0"}, {"sort": "loudest"}, {"year": "twenty"}, {"mode": "vibes"}, {"facets": "colour"}):
        resp = fake_client.get("/api/v1/search", query_string=query)
        assert resp.status_code == 400, query
        conforms(resp.get_json(), "Error")
        assert resp.get_json()["error"]["code"] == "invalid_parameter"
    assert fake_reads.called("search") == 0


def test_the_served_document_is_the_generated_one(fake_client):
    assert fake_client.get("/api/v1/openapi.json").get_json() == openapi_document(fake_client.application)


def test_a_too_long_query_is_a_400_that_points_to_papers_like_a_text(fake_client):
    resp = fake_client.get("/api/v1/search", query_string={"q": "word " * 120})
    error = resp.get_json()["error"]
    assert resp.status_code == 400 and error["code"] == "invalid_parameter"
    assert "POST /api/v1/similar" in error["message"] and "599 characters" in error["message"]


def test_autocorrect_takes_only_on_and_off(fake_client):
    assert fake_client.get("/api/v1/search", query_string={"q": "graph", "autocorrect": "0"}).status_code == 200
    resp = fake_client.get("/api/v1/search", query_string={"q": "graph", "autocorrect": "maybe"})
    assert resp.status_code == 400 and "autocorrect" in resp.get_json()["error"]["message"]


def test_answers_say_when_they_are_a_corrections_and_why_nothing_was_found(fake_client):
    data = fake_client.get("/api/v1/search", query_string={"q": "graph"}).get_json()
    assert data["corrected_from"] is None and data["hint"] is None and "suggestion" in data


@pytest.mark.parametrize("path", ["/api", "/api/", "/api/v1", "/api/v1/"])
def test_the_apis_entry_points_lead_to_its_docs(fake_client, path):
    resp = fake_client.get(path)
    assert resp.status_code == 302 and resp.headers["Location"] == "/api/docs"
